"""The engine's layers (docs/engine.md, "Layers"): each module imports only modules in its own
layer or below, at run time (type-checking imports aside), so no import cycle spans more than one
layer; and the engine never imports the views or the tools around it."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "rulekit"

LAYERS: list[set[str]] = [
    # 0: plain data and vocabulary
    {"errors", "rules", "rulings", "mana", "state", "events", "decisions", "characteristics",
     "costs"},
    # 1: abilities, effects and arguments as data
    {"abilities", "production", "effects", "replacement", "attach"},
    # 2: the rules (and the argument checks, which look card names up in the catalog)
    {"arguments", "commit", "resolution", "paying", "keywords", "targets", "triggers", "sba", "stack", "turn",
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


def _imports(path: Path) -> set[str]:
    """Top-level rulekit modules `path` imports at run time (anywhere, functions included)."""
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
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


def test_each_module_imports_only_its_layer_and_below():
    wrong = []
    for path in sorted(PACKAGE.rglob("*.py")):
        mine = _layer(_module_of(path))
        if mine is None:
            continue
        for imported in _imports(path):
            theirs = _layer(imported)
            if (str(path.relative_to(PACKAGE)), imported) in RICH_DISPLAY:
                continue
            if imported in AROUND or (theirs is not None and theirs > mine):
                wrong.append(f"{path.relative_to(PACKAGE)} imports {imported}")
    assert wrong == []



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
