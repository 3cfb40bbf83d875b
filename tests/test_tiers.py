"""The engine's import tiers (docs/engine.md, "Tiers"), one folder each: a module imports only
its own tier or those below, even for type annotations, and never the views or the tools around
the engine; counting every import (type-only and function-local too), no import cycle spans
more than 3 modules, and the ones left are listed with their reasons; the rules never import
the card catalog (the game hands it to them: `RulesContext.card`)."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "mtg_rulekit"
LARGEST = 3

# the engine, bottom to top: vocabulary; objects, abilities and effects as data (what the rules
# see of a game, the narrator); the rules that act; the cards (content); the game
TIERS = ["mtg_rulekit.core", "mtg_rulekit.objects", "mtg_rulekit.engine", "mtg_rulekit.cards", "mtg_rulekit.game"]
# around the engine: the sandbox model and its page, the scenario player, the views, the tools
AROUND = ["mtg_rulekit.sandbox", "mtg_rulekit.scenario", "mtg_rulekit.display", "mtg_rulekit.export", "mtg_rulekit.repo", "mtg_rulekit.cli",
          "mtg_rulekit.__main__", "mtg_rulekit.authoring", "mtg_rulekit.lab"]


# Jupyter's rich display of a Game or an EventLog draws its diagram: the one place the engine
# reaches a view, imported lazily inside `_repr_mimebundle_` only (not an engine dependency)
RICH_DISPLAY = {("mtg_rulekit.core.events", "mtg_rulekit.display.flow"), ("mtg_rulekit.game", "mtg_rulekit.display.flow")}

# The cycles left, each with why (docs/engine.md, "Import cycles left"). A new cycle fails here
# until it is listed (and documented).
CYCLES_LEFT = {
    # an event carries a payload; a payload names its kind
    frozenset({"mtg_rulekit.core.events", "mtg_rulekit.core.payloads"}),
    # what the rules see of a game hands out the replacement effects that apply to an event;
    # a replacement effect's callbacks take what the rules see of a game
    frozenset({"mtg_rulekit.objects.context", "mtg_rulekit.objects.replacement"}),
    # a static ability makes continuous effects, a continuous effect may grant abilities, and
    # an ability's effect runs on a Resolution, which adds abilities and effects
    frozenset({"mtg_rulekit.objects.abilities", "mtg_rulekit.objects.effects", "mtg_rulekit.objects.resolution"}),
    # the sandbox's card menus and time bar are typed against its model (type only); the model
    # asks them for its menus and its bar inside a method
    frozenset({"mtg_rulekit.sandbox.model", "mtg_rulekit.sandbox.menus", "mtg_rulekit.sandbox.bar"}),
    # the site's build writes the card pages and the index; the index is typed against the
    # build's report (type only), the card pages take the index's style sheet
    frozenset({"mtg_rulekit.export", "mtg_rulekit.export.cards", "mtg_rulekit.export.index"}),
}

def _name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_name(p): p for p in PACKAGE.rglob("*.py")}


@cache
def _imports(name: str, *, run_time_only: bool = False) -> frozenset[str]:
    """The rulekit modules `name` imports anywhere in it (functions included); with
    `run_time_only`, leaving out the `if TYPE_CHECKING:` blocks."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if run_time_only and isinstance(child, ast.If) \
                    and "TYPE_CHECKING" in ast.unparse(child.test):
                continue
            if isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    up = package.split(".")[: len(package.split(".")) - child.level + 1]
                    base = ".".join(up + ([child.module] if child.module else []))
                for alias in child.names:
                    full = f"{base}.{alias.name}"
                    found.add(full if full in MODULES else base)
            elif isinstance(child, ast.Import):
                found.update(a.name for a in child.names)
            visit(child)

    visit(ast.parse(path.read_text("utf-8")))
    return frozenset(m for m in found if m in MODULES and m != name)


def _graph(*, run_time_only: bool = False) -> dict[str, set[str]]:
    return {m: {i for i in _imports(m, run_time_only=run_time_only)
                if (m, i) not in RICH_DISPLAY} for m in MODULES}


def cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[frozenset[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = set()
            while True:
                w = stack.pop()
                comp.add(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(frozenset(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_cycle_finder_finds_a_cycle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert cycles(graph) == [frozenset("abc")]


def test_no_import_cycle_spans_more_than_three_modules():
    """Counting type-only imports too: the state names no ability or effect type (it keeps
    them as `Ability` and `Lasting`), so objects, abilities and the rules context don't all
    name each other."""
    assert [sorted(c) for c in cycles(_graph()) if len(c) > LARGEST] == []


def test_the_cycles_left_are_the_listed_ones():
    assert set(cycles(_graph())) == CYCLES_LEFT


def test_at_run_time_there_is_no_import_cycle():
    """Type-only imports may close a cycle (they are listed above); at run time none does, but
    for Jupyter's rich display (`RICH_DISPLAY`, a lazy import inside `_repr_mimebundle_`)."""
    assert cycles(_graph(run_time_only=True)) == []


def test_the_sandbox_model_imports_no_view_and_no_authoring_tool():
    """The sandbox's model, card menus and choices are the game seen as controls: they import
    the engine only, never a view (`mtg_rulekit.display`, the sandbox's own view, widget or page
    bridge) or the tools around it, so the same model runs in a kernel and in a page."""
    model = {"mtg_rulekit.sandbox.model", "mtg_rulekit.sandbox.menus", "mtg_rulekit.sandbox.choices",
             "mtg_rulekit.sandbox.bar", "mtg_rulekit.sandbox.said"}
    views = ("mtg_rulekit.display", "mtg_rulekit.sandbox.view", "mtg_rulekit.sandbox.widget",
             "mtg_rulekit.sandbox.page", "mtg_rulekit.authoring", "mtg_rulekit.export", "mtg_rulekit.scenario")
    wrong = sorted(f"{m} imports {i}" for m in model for i in _imports(m) if i.startswith(views))
    assert wrong == []


def test_the_rules_never_import_the_card_catalog():
    """Only the game (and the tools around the engine) reach the catalog; the rules get a card
    by name from `RulesContext.card`, as XMage's rules reach its CardRepository."""
    below = TIERS.index("mtg_rulekit.cards")
    wrong = sorted(m for m in MODULES if (t := _tier(m)) is not None and t < below
                   and any(_tier(i) == below for i in _imports(m)))
    assert wrong == []


def _tier(module: str) -> int | None:
    for n, tier in enumerate(TIERS):
        if module == tier or module.startswith(tier + "."):
            return n
    return None


def _around(module: str) -> bool:
    return any(module == a or module.startswith(a + ".") for a in AROUND)


def test_every_module_is_in_a_tier_or_around_the_engine():
    assert sorted(m for m in MODULES if m != "mtg_rulekit" and _tier(m) is None
                  and not _around(m)) == []


def test_at_most_twelve_modules_at_the_top_of_the_package():
    assert len(list(PACKAGE.glob("*.py"))) <= 12


def _upward(*, run_time_only: bool) -> list[str]:
    """Imports of an engine module that reach a higher tier or the packages around it."""
    wrong = []
    for module in sorted(MODULES):
        mine = _tier(module)
        if mine is None:
            continue
        for imported in sorted(_imports(module, run_time_only=run_time_only)):
            if (module, imported) in RICH_DISPLAY:
                continue
            theirs = _tier(imported)
            if _around(imported) or (theirs is not None and theirs > mine):
                wrong.append(f"{module} imports {imported}")
    return wrong


def test_each_module_imports_only_its_tier_and_below():
    assert _upward(run_time_only=True) == []


def test_not_even_a_type_annotation_points_up_a_tier():
    assert _upward(run_time_only=False) == []


def test_rules_modules_see_the_game_only_through_its_narrow_interface():
    """Below the game nothing names `Game`, even for type annotations: the rules are typed
    against `mtg_rulekit.objects.context.RulesContext`, so mypy refuses any use of the rest of
    `Game` (its action methods, undo, snapshots, display) from a rules module."""
    assert sorted(m for m in MODULES if (t := _tier(m)) is not None and t < TIERS.index("mtg_rulekit.game")
                  and "mtg_rulekit.game" in _imports(m)) == []




# The views, cut by what they produce (docs/engine.md, "From an action to a view"): words and
# plain data at the bottom, then SVG text (Graphviz's `dot` run as a program), then the flow
# model's DOT text, then what a view shows and writes, then the front-ends. Each display module
# imports display modules of its own tier or below only; only the front-ends import
# third-party packages (pandas, ipywidgets). An entry is a module or a whole package under
# `mtg_rulekit/display/` ("quiz/widget", "board"); a package whose modules sit on different tiers
# lists each of them.
VIEW_TIERS: list[set[str]] = [
    {"escape", "tables/rows", "tables/coverage", "walkthrough/reveal", "board", "quiz/questions"},
    {"svg"},
    {"flow"},
    {"walkthrough/frames", "front"},  # front: the browser modules' text
    {"tables/dataframes", "walkthrough/widget", "quiz/widget", "widgets", "lesson"},
]
FRONT_ENDS = VIEW_TIERS[-1]
# Pyodide's own modules (its runtime, like the standard library: nothing to install), imported
# only when running there (svg.py draws with Viz.js in a JupyterLite kernel)
PYODIDE_RUNTIME = {"js", "pyodide", "pyodide_js"}
DISPLAY = PACKAGE / "display"
_ENTRIES = set().union(*VIEW_TIERS)


def _view_of(parts: list[str] | tuple[str, ...]) -> str | None:
    """The `VIEW_TIERS` entry of a module named by its parts under `mtg_rulekit.display` (the
    module's own entry or its package's), or None (`mtg_rulekit.display` itself, a package whose
    modules have entries of their own)."""
    parts = [p for p in parts if p != "__init__"]
    for n in range(len(parts), 0, -1):
        if "/".join(parts[:n]) in _ENTRIES:
            return "/".join(parts[:n])
    return None


def _file_view(path: Path) -> str | None:
    return _view_of(path.relative_to(DISPLAY).with_suffix("").parts)


def _all_imports(path: Path) -> set[str]:
    """Every module `path` imports at run time, by full name (functions included)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return found


def test_every_view_module_has_a_tier():
    paths = sorted(DISPLAY.rglob("*.py"))
    assert [p.relative_to(DISPLAY).as_posix() for p in paths
            if _file_view(p) is None and p.name != "__init__.py"] == []
    assert {_file_view(p) for p in paths} - {None} == _ENTRIES


def test_views_import_only_their_tier_and_below_and_only_front_ends_need_packages():
    import sys

    tier = {m: n for n, views in enumerate(VIEW_TIERS) for m in views}
    wrong = []
    for path in sorted(DISPLAY.rglob("*.py")):
        mine = _file_view(path)
        if mine is None:  # a package's face: its modules are checked
            continue
        for name in _all_imports(path):
            parts = name.split(".")
            if parts[:2] == ["mtg_rulekit", "display"]:
                theirs = _view_of(parts[2:])
                if theirs is not None and tier[theirs] > tier[mine]:
                    wrong.append(f"{path.relative_to(PACKAGE)} imports {name}")
            elif parts[0] != "mtg_rulekit" and parts[0] not in sys.stdlib_module_names \
                    and parts[0] not in PYODIDE_RUNTIME and mine not in FRONT_ENDS:
                wrong.append(f"{path.relative_to(PACKAGE)} imports {name}")
    assert wrong == []



# views that run without ipywidgets (a browser's Pyodide, an export, a school's own page): the
# step frames, the plain tables, the sandbox's HTML, escaping and revealing a drawing
NO_WIDGETS = {"display/walkthrough/frames.py", "display/walkthrough/reveal.py",
              "display/tables/rows.py", "display/escape.py", "sandbox/model.py", "sandbox/page.py",
              "sandbox/view.py", "sandbox/choices.py", "sandbox/menus.py"}


def test_pure_views_never_import_ipywidgets():
    wrong = []
    for name in sorted(NO_WIDGETS):
        tree = ast.parse((PACKAGE / name).read_text("utf-8"))
        for node in ast.walk(tree):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            wrong += [f"{name} imports {n}" for n in names
                      if n.split(".")[0] == "ipywidgets"
                      or n in ("mtg_rulekit.display.widgets", "mtg_rulekit.display.walkthrough.widget",
                               "mtg_rulekit.display.lesson")]
    assert wrong == []


# The pipeline's own bookkeeping of the state, in one place each (`Game.new_id`,
# `Game.queue_trigger`, `Game.take_triggers`; the delayed triggers are created by their commit)
ONE_PLACE = {
    "new_id": {"mtg_rulekit.game", "mtg_rulekit.objects.state"},
    "pending": {"mtg_rulekit.game", "mtg_rulekit.objects.state"},
}
MUTATORS = {"append", "remove", "pop", "clear", "extend", "insert"}


def _state_changes(name: str) -> set[str]:
    """What `name` does to the id counter, the waiting triggers and the delayed triggers:
    'new_id' (calls `state.new_id`), 'pending' (touches `state.pending`), 'delayed' (mutates
    `state.delayed`)."""
    found: set[str] = set()
    tree = ast.parse(MODULES[name].read_text("utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute | ast.Name):
            owner = node.value.attr if isinstance(node.value, ast.Attribute) else node.value.id
            if owner != "state":
                continue
            if node.attr in ("new_id", "next_id") and name not in ("mtg_rulekit.engine.commit",):
                found.add("new_id")
            if node.attr == "pending":
                found.add("pending")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in MUTATORS and isinstance(node.func.value, ast.Attribute) \
                and node.func.value.attr == "delayed":
            found.add("delayed")
    return found


def test_ids_and_the_trigger_queue_change_in_one_place_each():
    wrong = sorted(f"{m}: {what}" for m in MODULES for what in _state_changes(m)
                   if m not in ONE_PLACE.get(what, {"mtg_rulekit.game", "mtg_rulekit.engine.commit"}))
    assert wrong == []


def test_the_state_change_finder_sees_a_stray_change(tmp_path, monkeypatch):
    stray = tmp_path / "stray.py"
    stray.write_text("def f(game):\n    game.state.pending.append(1)\n    game.state.new_id()\n"
                     "    game.state.delayed.remove(2)\n")
    monkeypatch.setitem(MODULES, "mtg_rulekit.stray", stray)
    assert _state_changes("mtg_rulekit.stray") == {"pending", "new_id", "delayed"}
