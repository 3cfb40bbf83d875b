"""Import cycles in `rulekit/` (docs/engine.md, "Import cycles left"): counting every import,
type-only and function-local ones too, no cycle spans more than 3 modules, except the one
listed below with its reason; the rules never import the card catalog (the game hands it to
them: `RulesContext.card`)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "rulekit"
LARGEST = 3

# Jupyter's rich display of a Game or an EventLog draws its diagram: the one place the engine
# reaches a view, imported lazily inside `_repr_mimebundle_` only (not an engine dependency)
RICH_DISPLAY = {("rulekit.events", "rulekit.display.flow"), ("rulekit.game", "rulekit.display.flow")}

# Objects, abilities and effects as data name each other in type annotations only (a
# GameObject has abilities, an ability's callbacks take the RulesContext that hands out
# GameObjects): one cycle, held by `if TYPE_CHECKING:` imports, never run.
TYPE_ONLY = {frozenset({
    "rulekit.abilities", "rulekit.characteristics", "rulekit.context", "rulekit.effects",
    "rulekit.production", "rulekit.replacement", "rulekit.resolution", "rulekit.state"})}


def _name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_name(p): p for p in PACKAGE.rglob("*.py")}


def _imports(name: str, *, run_time_only: bool = False) -> set[str]:
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
    return {m for m in found if m in MODULES and m != name}


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


def test_no_import_cycle_spans_more_than_three_modules_but_the_type_only_one():
    big = {c for c in cycles(_graph()) if len(c) > LARGEST}
    assert big == TYPE_ONLY


def test_at_run_time_no_cycle_spans_more_than_three_modules():
    assert [sorted(c) for c in cycles(_graph(run_time_only=True)) if len(c) > LARGEST] == []


def test_the_rules_never_import_the_card_catalog():
    """Only the game (and the tools around the engine) reach the catalog; the rules get a card
    by name from `RulesContext.card`, as XMage's rules reach its CardRepository."""
    allowed = ("rulekit.game", "rulekit.cards", "rulekit.scenario", "rulekit.authoring",
               "rulekit.export", "rulekit.display", "rulekit.repo", "rulekit.lab", "rulekit.cli",
               "rulekit.sandbox")
    wrong = sorted(m for m in MODULES if not m.startswith(allowed)
                   and any(i.startswith("rulekit.cards") for i in _imports(m)))
    assert wrong == []
