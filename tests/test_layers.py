"""The engine's layers (docs/engine.md, "Layers"): each module imports only modules in its own
layer or below, at run time (type-checking imports aside), so no import cycle spans more than one
layer; and the engine never imports the views or the tools around it."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "rulekit"

LAYERS: list[set[str]] = [
    # 0: vocabulary: errors, rule texts, mana, events and their payloads, costs, decisions
    {"errors", "rules", "rulings", "mana", "events", "payloads", "decisions", "costs"},
    # 1: objects, abilities and effects as data; what the rules see of a game; the narrator
    {"characteristics", "state", "abilities", "production", "effects", "replacement", "attach",
     "resolution", "context", "narrator"},
    # 2: the rules (and the argument checks, which look card names up in the catalog)
    {"arguments", "commit", "paying", "keywords", "targets", "triggers", "sba", "stack", "turn",
     "combat", "control", "copy", "could_produce", "delayed", "riders", "cipher", "actions",
     "cards"},
    # 3: the game
    {"game"},
]
AROUND = {"sandbox", "sandbox_page", "scenario", "display", "export", "repo", "cli", "__main__", "authoring",
          "lab"}
# Jupyter's rich display of a Game or an EventLog draws its diagram: the one place the engine
# reaches a view, imported lazily inside `_repr_mimebundle_` only
RICH_DISPLAY = {("events.py", "display"), ("game.py", "display")}


def _layer(module: str) -> int | None:
    for n, layer in enumerate(LAYERS):
        if module in layer:
            return n
    return None


def _imports(path: Path, *, types: bool = False) -> set[str]:
    """Top-level rulekit modules `path` imports at run time (anywhere, functions included);
    with `types`, also those imported for type annotations only."""
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test) \
                    and not types:
                continue
            if isinstance(child, ast.ImportFrom) and child.module and child.level == 0:
                parts = child.module.split(".")
                if parts[0] == "rulekit":
                    if len(parts) > 1:
                        found.add(parts[1])
                    else:
                        found.update(a.name for a in child.names)
            visit(child)
    visit(ast.parse(path.read_text("utf-8")))
    return found


def _module_of(path: Path) -> str:
    rel = path.relative_to(PACKAGE).parts
    return rel[0] if len(rel) > 1 else path.stem


def test_every_engine_module_has_a_layer():
    modules = {_module_of(p) for p in PACKAGE.rglob("*.py")} - {"__init__"}
    assert modules - AROUND == set().union(*LAYERS)


def _upward(*, types: bool) -> list[str]:
    """Imports of an engine module that reach a higher layer or the packages around it."""
    wrong = []
    for path in sorted(PACKAGE.rglob("*.py")):
        mine = _layer(_module_of(path))
        if mine is None:
            continue
        for imported in _imports(path, types=types):
            theirs = _layer(imported)
            if (str(path.relative_to(PACKAGE)), imported) in RICH_DISPLAY:
                continue
            if imported in AROUND or (theirs is not None and theirs > mine):
                wrong.append(f"{path.relative_to(PACKAGE)} imports {imported}")
    return wrong


def test_each_module_imports_only_its_layer_and_below():
    assert _upward(types=False) == []



# The views, cut by what they produce (docs/engine.md, "From an action to a view"): words and
# plain data at the bottom, then SVG text (Graphviz's `dot` run as a program), then the flow
# model's DOT text, then what a view shows and writes, then the front-ends. Each display module
# imports display modules of its own layer or below only; only the front-ends import
# third-party packages (pandas, ipywidgets).
VIEW_LAYERS: list[set[str]] = [
    {"escape", "flow_words", "rows", "reveal", "coverage_table"},
    {"svg"},
    {"flow"},
    {"sandbox_view", "diagrams", "frames"},
    {"tables", "widgets", "lesson"},
]
FRONT_ENDS = VIEW_LAYERS[-1]
DISPLAY = PACKAGE / "display"


def _view_of(path: Path) -> str:
    rel = path.relative_to(DISPLAY).parts
    return rel[0] if len(rel) > 1 else path.stem


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


def test_every_view_module_has_a_layer():
    views = {_view_of(p) for p in DISPLAY.rglob("*.py")} - {"__init__"}
    assert views == set().union(*VIEW_LAYERS)


def test_views_import_only_their_layer_and_below_and_only_front_ends_need_packages():
    import sys

    layer = {m: n for n, views in enumerate(VIEW_LAYERS) for m in views}
    wrong = []
    for path in sorted(DISPLAY.rglob("*.py")):
        if path.name == "__init__.py" and path.parent == DISPLAY:
            continue
        mine = _view_of(path)
        for name in _all_imports(path):
            parts = name.split(".")
            if parts[:2] == ["rulekit", "display"] and len(parts) > 2 and parts[2] in layer:
                if layer[parts[2]] > layer[mine]:
                    wrong.append(f"{path.relative_to(PACKAGE)} imports {name}")
            elif parts[0] != "rulekit" and parts[0] not in sys.stdlib_module_names \
                    and mine not in FRONT_ENDS:
                wrong.append(f"{path.relative_to(PACKAGE)} imports {name}")
    assert wrong == []


def test_rules_modules_see_the_game_only_through_its_narrow_interface():
    """Below the game (layers 0-2) nothing names `Game`, even for type annotations: the rules
    are typed against `rulekit.context.RulesContext`, so mypy refuses any use of the rest of
    `Game` (its action methods, undo, snapshots, display) from a rules module."""
    below = set().union(*LAYERS[:3])
    wrong = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if _module_of(path) not in below:
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "rulekit.game":
                names = {a.name for a in node.names}
                if names:
                    wrong.append(f"{path.relative_to(PACKAGE)} imports {sorted(names)}")
    assert wrong == []


def test_not_even_a_type_annotation_points_up_a_layer():
    """Counting imports for type annotations too, each engine module names only its own layer
    or below: no import cycle, of any kind, spans more than one layer."""
    assert _upward(types=True) == []


# views that run without ipywidgets (a browser's Pyodide, an export, a school's own page): the
# step frames, the plain tables, the sandbox's HTML, escaping and revealing a drawing
NO_WIDGETS = {"display/frames.py", "display/rows.py", "display/sandbox_view.py",
              "display/escape.py", "display/reveal.py", "sandbox.py", "sandbox_page.py"}


def test_pure_views_never_import_ipywidgets():
    wrong = []
    for name in sorted(NO_WIDGETS):
        tree = ast.parse((PACKAGE / name).read_text("utf-8"))
        for node in ast.walk(tree):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            wrong += [f"{name} imports {n}" for n in names
                      if n.split(".")[0] == "ipywidgets"
                      or n in ("rulekit.display.widgets", "rulekit.display.lesson")]
    assert wrong == []
