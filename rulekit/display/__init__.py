"""Views of the engine that need optional libraries: Graphviz diagrams of the causal log.

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

from rulekit.display.dot import (
    INSTALL_MESSAGE,
    ROLES,
    FlowDiagram,
    GraphvizMissing,
    log_diagram,
    mimebundle,
    render_svg,
    scenario_diagram,
)

__all__ = [
    "INSTALL_MESSAGE", "ROLES", "FlowDiagram", "GraphvizMissing", "build_all", "log_diagram",
    "mimebundle", "render_svg", "scenario_diagram",
]


def build_all(out_dir, *, scenarios=None):  # noqa: ANN001, ANN201 - see rulekit.display.diagrams
    """Write `Rxx.dot` and `Rxx.svg` for every ruling (see `rulekit.display.diagrams`)."""
    from rulekit.display.diagrams import build_all as _build_all

    return _build_all(out_dir, scenarios=scenarios)
