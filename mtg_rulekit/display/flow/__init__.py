"""Event and trigger flow diagrams of the engine's causal log, as DOT text (standard library
only: this package never imports the `graphviz` Python package; Graphviz's `dot` program runs
only when a diagram's SVG is asked for, in `mtg_rulekit.display.svg`).

`log_diagram(game)` draws what happened: one cluster per player action (its bold box on top),
each event a node under the event that caused it, each edge saying how ("pays", "does",
"triggers", "resolves", ...). `scenario_diagram(scenario)` draws the same grouped by scenario step,
each cluster titled with its step's number and when it acted ("Step 3 · turn 4, declare
attackers step"; the narration, which the page shows above the diagram, is the cluster's
tooltip). Boxes say each event in a few words, abilities named as players say them ("Alice
activates Kiki-Jiki's ability", `mtg_rulekit.objects.narrator.brief`); the whole words, with the
Oracle text, are the box's tooltip. Both return a `FlowDiagram`: `.source` is its
DOT text, `.svg()` its SVG with a readable `<title>` for every node, edge and cluster.

The package is cut by what each part produces:

- `grammar`: how each kind of node looks and what each edge says (`ROLES`, `RELATIONS`);
- `model`: which events are drawn in which group, under which event, and what folds;
- `draw`: the model drawn as DOT statements, with titles and a legend (`FlowDiagram`);
- `digraph`: the small DOT writer underneath;
- `legend`: the legend as a small HTML strip for a page to show outside the diagram;
- `why`: "ask the diagram why" as data: each box's causes, rules and before/after;
- `words`: the diagram's own words (notes on steps, choices, rule tooltips, wrapping); what
  events say is the narrator's (`mtg_rulekit.objects.narrator`);
- `diagrams`: the committed `diagrams/Rxx.dot` and `.svg`, one per ruling (`build_all`).

>>> from mtg_rulekit import Game
>>> game = Game(["Alice", "Bob"])
>>> game.tap_for_mana(game.add("Forest"))
>>> graph = log_diagram(game, title="Tapping a Forest")
>>> graph.source.startswith("digraph rulekit {")
True
>>> "Alice adds {G} from Forest" in graph.source
True
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from mtg_rulekit.core.events import EventLog
from mtg_rulekit.display.flow.draw import FlowDiagram, draw
from mtg_rulekit.display.flow.grammar import (
    FOLD_AT,
    LAYOUTS,
    RELATIONS,
    ROLES,
    StepLayout,
    group_class,
    relation_of,
)
from mtg_rulekit.display.flow.legend import LEGEND_CSS, legend_strip
from mtg_rulekit.display.flow.model import action_numbers, scenario_groups
from mtg_rulekit.display.flow.model import layout as model_of
from mtg_rulekit.display.flow.why import why

__all__ = [
    "FOLD_AT", "LAYOUTS", "LEGEND_CSS", "RELATIONS", "ROLES", "FlowDiagram", "StepLayout",
    "group_class", "legend_strip",
    "log_diagram", "mimebundle",
    "relation_of", "scenario_diagram", "step_diagram", "step_model", "why",
]


def log_diagram(game: Any, *, upto_action: int | None = None, since_action: int | None = None,
                title: str | None = None) -> FlowDiagram:
    """The event and trigger flow of a game (or of an `EventLog`): actions `since_action` to
    `upto_action` (both included; numbers as in `event.action`, 1 = the first action),
    all of them by default. One cluster per player action; consecutive set-up actions share
    one "Set-up" cluster with a single summary node."""
    game_obj = game if hasattr(game, "log") else None
    log: EventLog = game.log if game_obj is not None else game
    return draw(*model_of(log, game=game_obj, since_action=since_action, upto_action=upto_action),
                title)


def scenario_diagram(scenario: Any, upto_step: int | None = None, *,
                     title: str | None = None) -> FlowDiagram:
    """The flow of a loaded scenario up to step `upto_step` (all steps by default), one cluster
    per step labelled with the step's narration (the played results' recorded actions say
    which step did what)."""
    n = len(scenario.steps)
    last = n if upto_step is None else upto_step
    if not 0 <= last <= n:
        raise IndexError(f"step {last} is not in this scenario (0 to {n})")
    final, groups = scenario_groups(scenario, last)
    heading = title if title is not None else getattr(scenario, "title", None)
    return draw(*model_of(final.log, game=final, groups=groups), heading)


def step_model(scenario: Any, step: int) -> tuple[Any, ...]:
    """What step `step`'s view draws, whatever its layout: (model, groups, roots, set-up
    actions), the scenario played once to the step (`step_diagram` draws it in a layout)."""
    n = len(scenario.steps)
    if not 0 <= step <= n:
        raise IndexError(f"step {step} is not in this scenario (0 to {n})")
    final, groups = scenario_groups(scenario, step)
    return model_of(final.log, game=final, groups=groups)


def step_diagram(scenario: Any, step: int, *, title: str | None = None,
                 legend: bool = False, layout: StepLayout = LAYOUTS[0],
                 drawn: tuple[Any, ...] | None = None) -> FlowDiagram:
    """A step view: step `step` of a loaded scenario drawn in full, each earlier step folded
    to one summary box above it (its title and its actions in short words; what it caused
    later points from that box), the set-up one box too. What the step added is everything
    in its cluster (SVG class `rk-s<step>`), at full scale and nothing else beside it, so it
    fits a projector's pane far more often than the whole story (`scenario_diagram`, still
    the picture of every step so far). No title and no legend by default: the page shows the
    step's heading and `legend_strip(diagram)` outside the scrolling diagram. Step 0 is the
    set-up alone. `layout` is how the step is laid out (`StepLayout`: siblings a row, wide or
    narrow); the boxes, arrows and words are the same in every layout, but for a narrow
    one's fan-out of replaced events (one box each). `drawn`: the step's `step_model`, when
    it is drawn in several layouts."""
    model, groups, roots, setup = drawn if drawn is not None else step_model(scenario, step)
    heading = title if title is not None else getattr(scenario, "title", None)
    return draw(model, groups, roots, setup, heading,
                summarize={g.key for g in groups if g.key != f"s{step}"}, legend=legend,
                heading=title is not None, compact=True, layout=layout)


def mimebundle(obj: Any, include: Iterable[str] | None = None,
               exclude: Iterable[str] | None = None) -> dict[str, Any]:
    """Jupyter's rich display for a Game or an EventLog: the flow diagram of the last actions
    as SVG, or the install message as text when Graphviz is missing."""
    from mtg_rulekit.display.svg import GraphvizMissing

    game = obj if hasattr(obj, "log") else None
    log: EventLog = obj.log if game is not None else obj
    actions = action_numbers(log)
    since = actions[-8] if len(actions) > 8 else None
    graph = draw(*model_of(log, game=game, since_action=since), None)
    bundle: dict[str, Any] = {"text/plain": f"<{type(obj).__name__}: {len(log)} events>"}
    wanted = set(include) if include is not None else {"image/svg+xml", "text/plain"}
    wanted -= set(exclude or ())
    if "image/svg+xml" in wanted:
        try:
            bundle["image/svg+xml"] = graph.svg()
        except GraphvizMissing as err:
            bundle["text/plain"] = f"{bundle['text/plain']}\n{err}"
    return {k: v for k, v in bundle.items() if k in wanted or k == "text/plain"}
