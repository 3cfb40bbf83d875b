"""Views of the engine: diagrams of the causal log (graphviz), tables, widgets, plain rows.

The core (`rulekit.game`, `rulekit.events`) never imports this package at import time; its
rich-display hooks (`Game._repr_mimebundle_`, `EventLog._repr_mimebundle_`) import it lazily.

>>> from rulekit import Game
>>> from rulekit.display import log_diagram
>>> game = Game(["Alice", "Bob"])
>>> forest = game.add("Forest")
>>> game.tap_for_mana(forest)
>>> graph = log_diagram(game, title="Tapping a Forest")
>>> "Alice adds {G} from Forest" in graph.source
True
"""

from typing import Any

_FROM_DOT = ("INSTALL_MESSAGE", "ROLES", "FlowDiagram", "GraphvizMissing", "log_diagram",
             "mimebundle", "render_svg", "scenario_diagram")


def __getattr__(name: str) -> Any:
    """The diagram names, imported on first use: `rulekit.display.rows` and the sandbox model
    must import without the graphviz package (they run in a browser, CR-faithful and stdlib-only)."""
    if name in _FROM_DOT:
        from rulekit.display import dot

        return getattr(dot, name)
    raise AttributeError(f"module 'rulekit.display' has no attribute {name!r}")


__all__ = [
    "INSTALL_MESSAGE", "ROLES", "FlowDiagram", "GraphvizMissing", "build_all", "log_diagram",
    "mimebundle", "render_svg", "scenario_diagram",
]


def build_all(out_dir, *, scenarios=None):  # see rulekit.display.diagrams
    """Write `Rxx.dot` and `Rxx.svg` for every ruling (see `rulekit.display.diagrams`)."""
    from rulekit.display.diagrams import build_all as _build_all

    return _build_all(out_dir, scenarios=scenarios)
