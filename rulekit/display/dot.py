"""The old home of the flow diagrams, kept so that `from rulekit.display.dot import ...` still
works. The diagrams are built by `rulekit.display.flow` (DOT text, standard library only), drawn
as SVG by `rulekit.display.svg`, and worded by `rulekit.display.flow_words`; import from those.
"""

from __future__ import annotations

from rulekit.display.flow import (
    FOLD_AT,
    RELATIONS,
    ROLES,
    FlowDiagram,
    group_class,
    log_diagram,
    mimebundle,
    relation_of,
    scenario_diagram,
)
from rulekit.display.flow_words import action_words
from rulekit.display.svg import INSTALL_MESSAGE, GraphvizMissing, render_svg

__all__ = [
    "FOLD_AT", "INSTALL_MESSAGE", "RELATIONS", "ROLES", "FlowDiagram", "GraphvizMissing",
    "action_words", "group_class", "log_diagram", "mimebundle", "relation_of", "render_svg",
    "scenario_diagram",
]
