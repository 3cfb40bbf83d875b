"""Views of the engine: diagrams of the causal log (DOT text, SVG by Graphviz), tables, widgets,
plain rows.

The core (`mtg_rulekit.game`, `mtg_rulekit.core.events`) never imports this package at import time; its
rich-display hooks (`Game._repr_mimebundle_`, `EventLog._repr_mimebundle_`) import it lazily.

>>> from mtg_rulekit import Game
>>> from mtg_rulekit.display import log_diagram
>>> game = Game(["Alice", "Bob"])
>>> forest = game.add("Forest")
>>> game.tap_for_mana(forest)
>>> graph = log_diagram(game, title="Tapping a Forest")
>>> "Alice adds {G} from Forest" in graph.source
True
"""

from typing import Any

_FROM_FLOW = ("ROLES", "FlowDiagram", "log_diagram", "mimebundle", "scenario_diagram")
_FROM_SVG = ("INSTALL_MESSAGE", "GraphvizMissing", "render_svg")


def __getattr__(name: str) -> Any:
    """The diagram names, imported on first use (`mtg_rulekit.display.flow` builds the DOT text,
    `mtg_rulekit.display.svg` runs Graphviz): `mtg_rulekit.display.tables.rows` and the sandbox model stay
    light to import (they run in a browser, CR-faithful and stdlib-only)."""
    if name in _FROM_FLOW:
        from mtg_rulekit.display import flow

        return getattr(flow, name)
    if name == "Quiz":  # the class quiz widget (anywidget: imported only when asked for)
        from mtg_rulekit.display.quiz.widget import Quiz

        return Quiz
    if name in _FROM_SVG:
        from mtg_rulekit.display import svg

        return getattr(svg, name)
    raise AttributeError(f"module 'mtg_rulekit.display' has no attribute {name!r}")


__all__ = [
    "INSTALL_MESSAGE", "ROLES", "FlowDiagram", "GraphvizMissing", "Quiz", "build_all", "log_diagram",
    "mimebundle", "render_svg", "scenario_diagram",
]


def build_all(out_dir, *, scenarios=None):  # see mtg_rulekit.display.flow.diagrams
    """Write `Rxx.dot` and `Rxx.svg` for every ruling (see `mtg_rulekit.display.flow.diagrams`)."""
    from mtg_rulekit.display.flow.diagrams import build_all as _build_all

    return _build_all(out_dir, scenarios=scenarios)
