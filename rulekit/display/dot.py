"""Event and trigger flow diagrams, drawn by Graphviz from the engine's causal log.

`log_diagram(game)` draws what happened: one cluster per player action (its bold box on top),
each event a node under the event that caused it, each edge saying how ("pays", "does",
"triggers", "resolves", ...). `scenario_diagram(scenario)` draws the same grouped by scenario step,
with the step's narration as the cluster's label. Both return a `FlowDiagram` (a
`graphviz.Digraph`) whose `svg()` carries a `<title>` for every node, edge and cluster.

Visual grammar (shape *and* color carry meaning; Okabe-Ito colors, safe for color blindness)::

    player action        box, bold outline, white     the root of everything below it
    set-up               folder, white                the board the example starts from
    cost paid            hexagon, orange              cause "cost"
    on the stack         3-D box, sky blue            a spell cast or an ability activated
    ability triggers     house, yellow                a triggered ability goes on the stack
    resolves             arrow-ended box, purple      a spell or ability resolves
    event                rounded box, white           whatever else happened
    mana enters a pool   cylinder, bluish green       MANA_ADDED
    as first proposed    rounded box, dashed          the event before replacement effects
    replacement effect   arrow, vermillion            changed the event: proposed -> effect -> actual
    state-based action   octagon, blue (white text)   cause "sba"
    turn-based action    box with marked corners, grey  steps beginning, untap step, mana emptying
    rule note            note, white                  e.g. undefined mana is no mana (CR 106.5)
    earlier event        dotted box, grey text        a cause outside the actions drawn
    folded               double outline, "× N more"   repeated structure drawn once

Edges carry the causal relation from the child's cause: "does" (action, ability), "pays" (cost),
"triggers" (bold), "replaced" / "changed by" / "modified" (dashed), "state-based", "turn-based",
"then" (a rule), and "resolves" (bold) from where a spell or ability went on the stack. The steps
of a turn are drawn one below the other, joined by "then", in the order they began.

A dashed outline means "did not happen like this": an event as first proposed, a permanent that
doesn't untap, mana that would have been added but wasn't. Every node shows its CR numbers on a
smaller line and has a tooltip (its SVG `<title>`).

Folding keeps lesson-scale pictures readable: sibling events with the same shape (same kind, cause,
text once names and object numbers are removed, same replacement effects and the same shape of
consequences, recursively) are drawn twice and then once more as "× N more like this"; runs of
consecutive identical player actions fold the same way; steps that pass with nothing happening
fold into one "time passes" node; priority passes and set-up actions are not drawn as events.
"""

from __future__ import annotations

import html
import re
import textwrap
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import graphviz

from rulekit.display.escape import dot_html, dot_text
from rulekit.events import Cause, Event, EventKind, EventLog

__all__ = [
    "FlowDiagram", "GraphvizMissing", "INSTALL_MESSAGE", "ROLES", "RELATIONS", "group_class",
    "log_diagram", "mimebundle", "render_svg", "scenario_diagram",
]

INSTALL_MESSAGE = (
    "Graphviz's `dot` program was not found, so diagrams can't be drawn. Install Graphviz and "
    "run the command again: Debian/Ubuntu `sudo apt-get install graphviz`, macOS "
    "`brew install graphviz`, Windows `winget install graphviz` (or see "
    "https://graphviz.org/download/). `make diagrams` installs it when run as root."
)


class GraphvizMissing(RuntimeError):
    """Graphviz's `dot` executable is not installed (or not on PATH)."""

    def __init__(self, message: str = INSTALL_MESSAGE) -> None:
        super().__init__(message)


# ----------------------------------------------------------------------------- visual grammar
FONT = "DejaVu Sans,Arial,Helvetica,sans-serif"
TEXT_PT = 16
SMALL_PT = 14
TITLE_PT = 22
CLUSTER_PT = 18
WRAP = 30  # characters per line in a node


@dataclass(frozen=True)
class Role:
    """How one kind of node looks, and what the legend calls it."""

    key: str
    legend: str
    shape: str
    fill: str
    font: str = "#000000"
    style: str = "filled"
    penwidth: str = "1.5"
    extra: tuple[tuple[str, str], ...] = ()  # polygon settings (sides, skew, distortion)

    def attrs(self) -> dict[str, str]:
        return {"shape": self.shape, "style": self.style, "fillcolor": self.fill,
                "penwidth": self.penwidth, **dict(self.extra)}


# Okabe & Ito (2008) colors: orange, sky blue, bluish green, yellow, blue, vermillion, purple.
ROLES: dict[str, Role] = {r.key: r for r in (
    Role("action", "Player action", "box", "#FFFFFF", style="filled,bold", penwidth="3"),
    Role("setup", "Set-up: the board at the start", "folder", "#FFFFFF"),
    Role("cost", "Cost paid", "hexagon", "#E69F00", extra=(("margin", "0.02,0.04"),)),
    Role("stack", "Put on the stack (spell or ability)", "box3d", "#56B4E9"),
    Role("trigger", "Ability triggers", "house", "#F0E442", extra=(("margin", "0.02,0.04"),)),
    Role("resolve", "Resolves", "cds", "#CC79A7", extra=(("margin", "0.3,0.12"),)),
    Role("event", "Event", "box", "#FFFFFF", style="filled,rounded"),
    Role("mana", "Mana enters a pool", "cylinder", "#009E73"),
    Role("proposed", "Event as first proposed", "box", "#FFFFFF", style="filled,rounded,dashed"),
    Role("replacement", "Replacement effect changes it", "rarrow", "#D55E00",
         extra=(("margin", "0.3,0.12"),)),
    Role("sba", "State-based action", "octagon", "#0072B2", font="#FFFFFF",
         extra=(("margin", "0.02,0.04"),)),
    Role("turn", "Turn-based action", "box", "#DDDDDD", style="filled,diagonals"),
    Role("note", "Rule note", "note", "#FFFFFF"),
    Role("ghost", "Earlier event (not in this picture)", "box", "#FFFFFF", font="#444444",
         style="filled,dotted"),
)}

# The causal relation an edge shows, from the child's cause.
RELATIONS: dict[Cause, str] = {
    Cause.ACTION: "does",
    Cause.COST: "pays",
    Cause.ABILITY: "does",
    Cause.TRIGGER: "triggers",
    Cause.REPLACEMENT: "replaced",
    Cause.SBA: "state-based",
    Cause.TURN: "turn-based",
    Cause.RULE: "then",
    Cause.NOTE: "note",
}
_EDGE_STYLE: dict[str, dict[str, str]] = {
    "triggers": {"style": "bold", "penwidth": "2.5"},
    "resolves": {"style": "bold", "penwidth": "2.5"},
    "replaced": {"style": "dashed"},
    "modified": {"style": "dashed"},
    "prevented": {"style": "dashed"},
    "changed by": {"style": "dashed"},
}

_BOOKKEEPING = (EventKind.STEP_BEGAN, EventKind.TURN_BEGAN)
_STACKING = tuple(EventKind(k) for k in ("cast", "spell_copied") if k in EventKind._value2member_map_)
_TURNISH = tuple(EventKind(k) for k in ("untap_skipped", "extra_combat", "mana_emptied")
                 if k in EventKind._value2member_map_)
_RESOLVING = (EventKind.RESOLVED, EventKind.MANA_ABILITY, EventKind.FIZZLED, EventKind.COUNTERED)
FOLD_AT = 4  # a group of this many same-shape siblings (or actions) is folded ...
KEEP = 2  # ... keeping this many drawn in full
FOLD_ALWAYS = 12  # more than this many are folded even when they resolve in the picture


def role_of(event: Event) -> str:
    """The legend role of an event's node."""
    kind = event.kind
    if kind is EventKind.ACTION:
        return "action"
    if event.cause is Cause.COST:
        return "cost"
    if kind is EventKind.MANA_ADDED:
        return "mana"
    if kind in (EventKind.PUT_ON_STACK, EventKind.TRIGGERED):
        return "trigger"
    if kind in _STACKING or (kind is EventKind.ACTIVATED and not event.data.get("mana_ability")):
        return "stack"
    if kind in _RESOLVING:
        return "resolve"
    if kind in (EventKind.NOTE, EventKind.DECLARED):
        return "note"
    if event.cause is Cause.SBA or kind in (EventKind.SBA, EventKind.LOST):
        return "sba"
    if event.cause is Cause.TURN or kind in _BOOKKEEPING + _TURNISH:
        return "turn"
    return "event"


def relation_of(event: Event) -> str:
    if event.kind is EventKind.RESOLVED:
        return "resolves"
    return RELATIONS.get(event.cause, "then")


def _did_not_happen(event: Event) -> bool:
    if event.kind is EventKind.UNTAP_SKIPPED:
        return True
    if event.kind is EventKind.MANA_ADDED and not event.data.get("mana"):
        return True
    return event.kind is EventKind.NOTE and bool(event.data.get("undefined"))


# ----------------------------------------------------------------------------- the diagram
class FlowDiagram(graphviz.Digraph):
    """A `graphviz.Digraph` that also knows a readable title for each node, edge and cluster,
    so its SVG is accessible (`svg()`, and what Jupyter shows)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.titles: dict[str, str] = {}
        self.node_count = 0

    def svg(self) -> str:
        """The SVG text, with `<title>` elements readable by screen readers."""
        return render_svg(self)

    def _repr_image_svg_xml(self) -> str:
        return self.svg()

    def _repr_mimebundle_(self, include: Iterable[str] | None = None,
                          exclude: Iterable[str] | None = None, **_: Any) -> dict[str, Any]:
        try:
            return super()._repr_mimebundle_(include, exclude)
        except (GraphvizMissing, graphviz.ExecutableNotFound):
            return {"text/plain": INSTALL_MESSAGE}


_TITLE = re.compile(r"<title>([^<]*)</title>")


def render_svg(graph: graphviz.Digraph) -> str:
    """Run `dot` and return SVG text (deterministic for a given Graphviz version). A
    `FlowDiagram`'s node, edge and cluster `<title>`s become readable sentences.
    Raises `GraphvizMissing` when `dot` is not installed."""
    try:
        svg = graph.pipe(format="svg", encoding="utf-8")
    except graphviz.ExecutableNotFound:
        raise GraphvizMissing() from None
    titles: Mapping[str, str] = getattr(graph, "titles", {})
    if not titles:
        return svg

    def retitle(match: re.Match[str]) -> str:
        key = html.unescape(match.group(1))
        text = titles.get(key)
        if text is None:
            return match.group(0)
        return f"<title>{_xml(text)}</title>"

    return _TITLE.sub(retitle, svg)


def _xml(text: str) -> str:
    from rulekit.display.escape import html_text

    return html_text(text).replace("\n", "&#10;")


def mimebundle(obj: Any, include: Iterable[str] | None = None,
               exclude: Iterable[str] | None = None) -> dict[str, Any]:
    """Jupyter's rich display for a Game or an EventLog: the flow diagram of the last actions
    as SVG, or the install message as text when Graphviz is missing."""
    game = obj if hasattr(obj, "log") else None
    log: EventLog = obj.log if game is not None else obj
    actions = _action_numbers(log)
    since = actions[-8] if len(actions) > 8 else None
    graph = _build(log, game=game, since_action=since, title=None)
    bundle: dict[str, Any] = {"text/plain": _plain_repr(obj, log)}
    wanted = set(include) if include is not None else {"image/svg+xml", "text/plain"}
    wanted -= set(exclude or ())
    if "image/svg+xml" in wanted:
        try:
            bundle["image/svg+xml"] = graph.svg()
        except GraphvizMissing as err:
            bundle["text/plain"] = f"{bundle['text/plain']}\n{err}"
    return {k: v for k, v in bundle.items() if k in wanted or k == "text/plain"}


def _plain_repr(obj: Any, log: EventLog) -> str:
    return f"<{type(obj).__name__}: {len(log)} events>"


# ----------------------------------------------------------------------------- public API
def log_diagram(game: Any, *, upto_action: int | None = None, since_action: int | None = None,
                title: str | None = None) -> FlowDiagram:
    """The event and trigger flow of a game (or of an `EventLog`): actions `since_action` to
    `upto_action` (both included; numbers as in `event.action`, 1 = the first action),
    all of them by default. One cluster per player action; consecutive set-up actions share
    one "Set-up" cluster with a single summary node."""
    game_obj = game if hasattr(game, "log") else None
    log: EventLog = game.log if game_obj is not None else game
    return _build(log, game=game_obj, since_action=since_action, upto_action=upto_action,
                  title=title)


def scenario_diagram(scenario: Any, upto_step: int | None = None, *,
                     title: str | None = None) -> FlowDiagram:
    """The flow of a loaded scenario up to step `upto_step` (all steps by default), one cluster
    per step labelled with the step's narration. Uses `scenario.steps` (dicts with "narration"
    and "do"), `scenario.game_at(k)` and, when there is one, `scenario.play()` (its results'
    recorded actions say which step did what without replaying every step)."""
    steps: Sequence[Any] = list(scenario.steps)
    last = len(steps) if upto_step is None else upto_step
    if not 0 <= last <= len(steps):
        raise IndexError(f"step {last} is not in this scenario (0 to {len(steps)})")
    errors: list[Any] = [None] * (last + 1)
    if hasattr(scenario, "play"):  # the recorded actions, without replaying every step
        played = scenario.play()[:last + 1]
        counts = [len(r.actions) for r in played]
        errors = [getattr(r, "error", None) for r in played]
    else:
        counts = [len(scenario.game_at(k).actions) for k in range(last + 1)]
    final = scenario.game_at(last)
    # which step did each action of the final game (undo takes actions back, so later wins)
    owner: dict[int, int] = {n: 0 for n in range(1, counts[0] + 1)}
    for k in range(1, last + 1):
        before, after = counts[k - 1], counts[k]
        for n in range(before + 1, after + 1):
            owner[n] = k
    groups: list[_Group] = []
    for k in range(last + 1):
        actions = [n for n in range(1, len(final.actions) + 1) if owner.get(n) == k]
        if k == 0:
            groups.append(_Group(f"s{k}", "Set-up", actions, setup=True))
            continue
        step = steps[k - 1]
        narration = _get(step, "narration", "")
        label = f"Step {k}: {narration}" if narration else f"Step {k}"
        groups.append(_Group(f"s{k}", label, actions, empty_note=_empty_step_note(step, errors[k])))
    heading = title if title is not None else getattr(scenario, "title", None)
    return _build(final.log, game=final, groups=groups, title=heading)


def _get(step: Any, key: str, default: Any = None) -> Any:
    if isinstance(step, Mapping):
        return step.get(key, default)
    return getattr(step, key, default)


def action_words(step: Any) -> str:
    """A scenario step's action in words: `tap for mana`, `declare attackers`."""
    return str(_get(step, "do", "") or "the action").replace("_", " ")


def _empty_step_note(step: Any, error: Any = None) -> str:
    """The note of a step that drew nothing: for a refused action, which action and why (the
    engine's own words, as the walkthrough's frame says it)."""
    do = _get(step, "do", "")
    err = _get(step, "expect_error")
    if err or error is not None:
        why = str(error) if error is not None else ""
        rule = _get(err, "rule") if err else None
        if not why:
            why = "the rules don't allow it" + (f" (CR {rule})" if rule else "")
        return f"Refused: {action_words(step)}. {why[:1].upper()}{why[1:]}. Nothing changes."
    if do == "undo":
        n = _get(step, "n", 1)
        return f"Undo: {n} action(s) taken back"
    if do == "look":
        return "Look: nothing happens"
    return "Nothing new happens"


# ----------------------------------------------------------------------------- the model
@dataclass
class _Group:
    """One cluster: a player action, or a scenario step (several actions, or none)."""

    key: str
    label: str
    actions: list[int]
    setup: bool = False
    empty_note: str = ""
    folded: int = 0  # a fold cluster: this many actions like the previous ones
    span: str = ""  # their numbers, "4–1001"


@dataclass
class _Node:
    name: str
    role: str
    lines: list[str]
    rules: tuple[str, ...] = ()
    tooltip: str = ""
    dashed: bool = False
    fold: bool = False


@dataclass
class _Model:
    log: EventLog
    names: re.Pattern[str] | None
    game: Any = None
    window: dict[int, Event] = field(default_factory=dict)
    children: dict[int, list[int]] = field(default_factory=dict)
    rep: dict[int, str] = field(default_factory=dict)  # event id -> node that stands for it
    hidden: set[int] = field(default_factory=set)
    sig: dict[int, int] = field(default_factory=dict)
    quiet: set[int] = field(default_factory=set)  # only the turn structure moving on below
    by_action: dict[int, list[Event]] = field(default_factory=dict)
    # per action, its events caused by an event of another action (or by nothing)
    late: dict[int, list[int]] = field(default_factory=dict)
    sig_ids: dict[tuple[Any, ...], int] = field(default_factory=dict)
    # stack objects that resolve in the picture, their resolutions and the events above them:
    # drawn in full, so every "resolves" arrow leaves the box of what went on the stack
    keep: set[int] = field(default_factory=set)


def _action_numbers(log: EventLog) -> list[int]:
    return [e.action for e in log if e.kind is EventKind.ACTION and e.parent is None]


def _is_setup_root(event: Event) -> bool:
    return event.kind is EventKind.ACTION and bool(event.data.get("setup"))


def _names_pattern(log: EventLog, game: Any) -> re.Pattern[str] | None:
    names: set[str] = set()
    for e in log:
        for key in ("card", "source_name", "player", "controller"):
            value = e.data.get(key)
            if isinstance(value, str) and value:
                names.add(value)
    if game is not None:
        names.update(getattr(game.state, "players", {}).keys())
        for obj in getattr(game.state, "objects", {}).values():
            names.add(obj.card.printed.name)
    names = {n for n in names if n.strip()}
    if not names:
        return None
    alternatives = "|".join(re.escape(n) for n in sorted(names, key=lambda n: (-len(n), n)))
    return re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)")


_OBJ_NO = re.compile(r"\s*\(#\d+\)")


def _norm(model: _Model, text: str) -> str:
    text = _OBJ_NO.sub("", text)
    return model.names.sub("…", text) if model.names is not None else text


def _build(log: EventLog, *, game: Any = None, since_action: int | None = None,
           upto_action: int | None = None, groups: list[_Group] | None = None,
           title: str | None = None) -> FlowDiagram:
    model = _Model(log=log, names=_names_pattern(log, game), game=game)
    roots = {e.action: e for e in log if e.kind is EventKind.ACTION and e.parent is None}
    fold_actions = groups is None
    if groups is None:
        numbers = [n for n in sorted(roots)
                   if (since_action is None or n >= since_action)
                   and (upto_action is None or n <= upto_action)]
        groups = _action_groups(numbers, roots)
    in_window = {n for g in groups for n in g.actions}
    model.window = {e.id: e for e in log if e.action in in_window}
    setup_actions = {n for n in in_window if n in roots and _is_setup_root(roots[n])}
    for e in model.window.values():
        model.by_action.setdefault(e.action, []).append(e)
        if e.kind is EventKind.PRIORITY:
            model.hidden.add(e.id)
        elif e.parent is not None and e.parent in model.window \
                and model.window[e.parent].action == e.action:
            model.children.setdefault(e.parent, []).append(e.id)
        elif e.kind is not EventKind.ACTION or e.parent is not None:
            model.late.setdefault(e.action, []).append(e.id)
    _signatures(model)
    _keep_resolutions(model)
    if fold_actions:
        groups = _fold_actions(model, groups, roots)
    return _draw(model, groups, roots, setup_actions, title)


def _action_groups(numbers: list[int], roots: dict[int, Event]) -> list[_Group]:
    groups: list[_Group] = []
    for n in numbers:
        root = roots[n]
        if _is_setup_root(root):
            if groups and groups[-1].setup:
                groups[-1].actions.append(n)
            else:
                groups.append(_Group(f"a{n}", "Set-up", [n], setup=True))
            continue
        where = f"turn {root.turn}, {_step_label(root.step)}"
        groups.append(_Group(f"a{n}", f"Action {n} · {where}", [n]))
    return groups


def _step_label(step: str) -> str:
    from rulekit.state import Step

    try:
        return Step(step).label
    except ValueError:
        return step


def _signatures(model: _Model) -> None:
    """Bottom-up shape of every event's subtree, as a small int (same int = same shape)."""
    for eid in sorted(model.window, reverse=True):
        if eid in model.hidden:
            continue
        e = model.window[eid]
        kids = Counter(model.sig[c] for c in model.children.get(eid, ()) if c in model.sig)
        key = (
            e.kind.value, e.cause.value, _norm(model, e.text),
            tuple((a.effect, a.outcome) for a in e.applied),
            tuple(sorted(kids.items())),
        )
        model.sig[eid] = model.sig_ids.setdefault(key, len(model.sig_ids))
        if (e.kind in _BOOKKEEPING or _no_attackers(e) or _turn_draw(e)) and all(
                c in model.quiet for c in model.children.get(eid, ()) if c not in model.hidden):
            model.quiet.add(eid)




def _keep_resolutions(model: _Model) -> None:
    origins: dict[Any, int] = {}
    for e in model.window.values():
        if e.kind in (EventKind.PUT_ON_STACK, EventKind.ACTIVATED, EventKind.CAST) \
                and e.data.get("item_id") is not None:
            origins.setdefault(e.data["item_id"], e.id)
    for e in model.window.values():
        origin = origins.get(e.data.get("item_id")) if e.kind in _RESOLVING else None
        if origin is None:
            continue
        model.keep.add(e.id)
        eid: int | None = origin
        while eid is not None and eid in model.window and eid not in model.keep:
            model.keep.add(eid)
            eid = model.window[eid].parent


def _turn_draw(e: Event) -> bool:
    """The draw step's draw (CR 504.1), or a draw from an empty library: part of time passing,
    like the step it happens in."""
    if e.kind is EventKind.DREW and bool(e.data.get("empty")):
        return True
    return (e.kind is EventKind.ZONE_CHANGED and e.cause is Cause.TURN
            and e.data.get("reason") == "draw")


def _no_attackers(e: Event) -> bool:
    """The declare attackers step passing with no attackers: part of time passing."""
    return e.kind is EventKind.DECLARED and e.data.get("attackers") == 0


def _fold_actions(model: _Model, groups: list[_Group], roots: dict[int, Event]) -> list[_Group]:
    """Runs of FOLD_AT or more consecutive actions of the same shape: keep KEEP, fold the rest."""
    out: list[_Group] = []
    i = 0
    while i < len(groups):
        g = groups[i]
        j = i + 1
        if not g.setup and len(g.actions) == 1:
            sig = model.sig.get(roots[g.actions[0]].id)
            while (j < len(groups) and not groups[j].setup and len(groups[j].actions) == 1
                   and model.sig.get(roots[groups[j].actions[0]].id) == sig):
                j += 1
        run = groups[i:j]
        if len(run) >= FOLD_AT:
            out += run[:KEEP]
            rest = run[KEEP:]
            actions = [n for r in rest for n in r.actions]
            span = f"{actions[0]}–{actions[-1]}"
            out.append(_Group(f"f{actions[0]}", f"Actions {span}", actions, folded=len(rest),
                              span=span))
        else:
            out += run
        i = j
    return out


# ----------------------------------------------------------------------------- drawing
def _draw(model: _Model, groups: list[_Group], roots: dict[int, Event],
          setup_actions: set[int], title: str | None) -> FlowDiagram:
    graph = FlowDiagram(name="rulekit")
    heading = title or "Event and trigger flow"
    graph.titles["rulekit"] = heading
    graph.attr(rankdir="TB", fontname=FONT, fontsize=str(TITLE_PT), labelloc="t",
               labeljust="l", label=f"<<B>{dot_html(heading)}</B>>", nodesep="0.35",
               ranksep="0.45", newrank="true", bgcolor="white", pad="0.3",
               tooltip=dot_text(heading))
    graph.attr("node", fontname=FONT, fontsize=str(TEXT_PT), margin="0.15,0.07")
    graph.attr("edge", fontname=FONT, fontsize=str(SMALL_PT), color="#333333",
               fontcolor="#222222", arrowsize="0.9")
    drawer = _Drawer(model, graph)
    for group in groups:
        drawer.group(group, roots, setup_actions)
    drawer.finish()
    # time flows down: each unit (set-up, action, fold) starts below everything before it
    units = [u for u in drawer.units if u]
    for before, after in zip(units, units[1:]):
        inside = set(before)
        feeding = {t for t, h, _ in drawer.edges if t in inside and h in inside}
        for leaf in (n for n in before if n not in feeding):
            graph.edge(leaf, after[0], style="invis", weight="0",
                       **{"class": drawer.tag_of.get(after[0], "")})
    # the legend sits on top, under the title
    for name in _legend(graph, drawer.used, drawer.any_fold, drawer.role_tags):
        if units:
            graph.edge(name, units[0][0], style="invis", weight="0")
    graph.node_count = drawer.count
    return graph


def group_class(key: str) -> str:
    """The SVG class of everything drawn for one group: its cluster, its nodes and the edges
    leading into them. Scenario steps are "rk-s0" (the set-up), "rk-s1", ...; actions "rk-a<n>".
    `rulekit.display.reveal` uses them to show a drawing one group at a time."""
    return f"rk-{key}"


class _Drawer:
    def __init__(self, model: _Model, graph: FlowDiagram) -> None:
        self.model = model
        self.graph = graph
        self.count = 0
        self.used: list[str] = []
        self.any_fold = False
        self.role_tags: dict[str, set[str]] = {}  # legend role -> the groups that use it
        self.edges: list[tuple[str, str, str]] = []
        self.edge_seen: set[tuple[str, str, str]] = set()
        self.node_titles: dict[str, str] = {}
        self.stack_items: dict[Any, int] = {}
        for e in model.log:
            if e.kind in (EventKind.PUT_ON_STACK, EventKind.ACTIVATED, EventKind.CAST) \
                    and e.data.get("item_id") is not None:
                self.stack_items.setdefault(e.data["item_id"], e.id)
        self.ghosts: dict[int, str] = {}
        self.units: list[list[str]] = []  # nodes of each set-up, action or fold, in time order
        self.latest_step: str | None = None  # the node of the step that began last
        self.tag = ""  # the SVG class of what is drawn now: "rk-" + the group's key
        self.tag_of: dict[str, str] = {}  # node name -> its group's class

    # -- nodes and edges
    def node(self, target: Any, n: _Node) -> None:
        role = ROLES[n.role]
        if n.role not in self.used:
            self.used.append(n.role)
        self.role_tags.setdefault(n.role, set()).add(self.tag)
        if n.fold:
            self.role_tags.setdefault("fold", set()).add(self.tag)
        text = "<BR/>".join(dot_html(line) for line in n.lines)
        if role.font != "#000000":
            text = f'<FONT COLOR="{role.font}">{text}</FONT>'
        if n.rules:
            rules = dot_html("CR " + ", ".join(n.rules))
            text += f'<BR/><FONT POINT-SIZE="{SMALL_PT}" COLOR="{role.font}">{rules}</FONT>'
        attrs = role.attrs()
        if n.dashed and "dashed" not in attrs["style"]:
            attrs["style"] += ",dashed"
        attrs["label"] = f"<{text}>"
        tooltip = n.tooltip or " ".join(n.lines)
        tooltip = "\n".join([tooltip] + _explained(n.rules))
        attrs["tooltip"] = dot_text(tooltip)
        if n.fold:
            attrs["peripheries"] = "2"
            self.any_fold = True
        if self.tag:
            attrs["class"] = self.tag
            self.tag_of[n.name] = self.tag
        target.node(n.name, **attrs)
        self.count += 1
        if self.units:
            self.units[-1].append(n.name)
        self.node_titles[n.name] = " ".join(n.lines)
        self.graph.titles[n.name] = tooltip

    def edge(self, tail: str, head: str, label: str) -> None:
        key = (tail, head, label)
        if tail == head or key in self.edge_seen:
            return
        self.edge_seen.add(key)
        self.edges.append(key)

    def finish(self) -> None:
        for tail, head, label in self.edges:
            attrs = dict(_EDGE_STYLE.get(label, {}))
            if label:
                attrs["label"] = f" {label} "
            tag = self.tag_of.get(head) or self.tag_of.get(tail)
            if tag:  # an edge shows from the group of the event it leads to
                attrs["class"] = tag
            self.graph.edge(tail, head, **attrs)
            a, b = self.node_titles.get(tail, tail), self.node_titles.get(head, head)
            self.graph.titles[f"{tail}->{head}"] = f"{a} — {label or 'then'} → {b}"

    # -- groups
    def group(self, group: _Group, roots: dict[int, Event], setup_actions: set[int]) -> None:
        name = f"cluster_{group.key}"
        self.graph.titles[name] = group.label
        self.tag = group_class(group.key)
        with self.graph.subgraph(name=name) as c:
            c.attr(label=f"<<B>{dot_html(_wrap(group.label, 60))}</B>>", fontsize=str(CLUSTER_PT),
                   style="rounded", color="#888888", penwidth="1.2", labeljust="l",
                   tooltip=dot_text(group.label), margin="12", **{"class": self.tag})
            if group.folded:
                self.units.append([])
                self.fold_actions(c, group, roots)
                return
            pending_setup: list[int] = []
            for n in group.actions:
                if n in setup_actions:
                    pending_setup.append(n)
                    continue
                if pending_setup:
                    self.units.append([])
                    self.setup(c, pending_setup)
                    pending_setup = []
                self.units.append([])
                self.action(c, roots[n])
            if pending_setup:
                self.units.append([])
                self.setup(c, pending_setup)
            if not group.actions:
                self.units.append([])
                self.node(c, _Node(f"x_{group.key}", "note",
                                   _wrap_lines(group.empty_note or "Nothing new happens")))

    def setup(self, c: Any, actions: list[int]) -> None:
        model = self.model
        events = [e for n in actions for e in model.by_action.get(n, ())]
        lines = _setup_lines(events) or ["(nothing)"]
        name = f"s{min(e.id for e in events)}"
        for e in events:
            model.rep[e.id] = name
        wrapped = [w for line in lines for w in _wrap_lines(line, WRAP + 10)]
        self.node(c, _Node(name, "setup", wrapped, tooltip="Set-up: " + "; ".join(lines)))

    def action(self, c: Any, root: Event) -> None:
        model = self.model
        passes = sum(1 for e in model.by_action.get(root.action, ())
                     if e.kind is EventKind.PRIORITY)
        tip = f"{root.text} (action {root.action}, turn {root.turn}, {_step_label(root.step)}"
        tip += f"; {passes} priority pass(es) not drawn)" if passes else ")"
        name = f"n{root.id}"
        model.rep[root.id] = name
        given, said = _choices(model, root.id)
        lines = _wrap_lines(root.text) + [w for g in given for w in _wrap_lines(g)]
        self.node(c, _Node(name, "action", lines, root.rules, "\n".join([tip] + said)))
        self.subtree(c, root.id)
        late = model.late.get(root.action)
        if late:
            self.subtree(c, root.id, late)

    def subtree(self, c: Any, eid: int, kids: list[int] | None = None) -> None:
        """Draw the consequences of event `eid` (already drawn), folding repeated shapes. With
        `kids`, draw those instead: events of action `eid` caused by an earlier action's event."""
        model = self.model
        late = kids is not None
        if kids is None:
            kids = model.children.get(eid, [])
        kids = [k for k in kids if k not in model.hidden]
        by_sig: dict[int, list[int]] = {}
        for k in kids:
            by_sig.setdefault(model.sig[k], []).append(k)
        folded_at: dict[int, list[int]] = {}
        skip: set[int] = set()
        for members in by_sig.values():
            # at lesson scale, what resolves in this picture keeps its own box and arrow
            # (folding it would draw the "resolves" arrows from the fold of its cause)
            if len(members) <= FOLD_ALWAYS:
                members = [m for m in members if m not in model.keep]
            if len(members) >= FOLD_AT:
                rest = members[KEEP:]
                folded_at[rest[0]] = rest
                skip.update(rest[1:])
        order = [k for k in kids if k not in skip]
        run: list[int] = []
        last_step: str | None = None  # steps are drawn one after the other ("then")
        for k in order + [0]:
            e = model.window.get(k)
            if e is not None and k in model.quiet and k not in folded_at:
                run.append(k)
                continue
            if run:
                self.time_passes(c, eid, run, last_step)
                last_step = self.latest_step
                run = []
            if e is None:
                break
            if k in folded_at:
                self.fold(c, eid, folded_at[k])
            elif e.kind in _BOOKKEEPING and not late:
                self.event(c, e, after=last_step)
                last_step = self.latest_step  # the last step that began below it, if any
            else:
                self.event(c, e)
                if late:  # this action made it happen (e.g. all passed, so it resolves)
                    self.edge(model.rep[eid], f"p{e.id}" if e.applied else f"n{e.id}", "then")

    def event(self, c: Any, e: Event, after: str | None = None) -> None:
        """Draw event `e` under its parent (or, for a step of the turn, under the step before
        it, `after`), then its consequences."""
        model = self.model
        name = f"n{e.id}"
        model.rep[e.id] = name
        tail = after or self.parent_node(c, e)
        entry = name
        if e.applied:
            entry = self.replacements(c, e, name)
        relation = "then" if after else relation_of(e)
        if e.kind is EventKind.RESOLVED and self.stack_items.get(
                e.data.get("item_id"), e.parent) != e.parent:
            relation = "then"  # the bold "resolves" edge comes from where it went on the stack
        if tail is not None:
            self.edge(tail, entry, relation)
        tip = f"{e.text} ({ROLES[role_of(e)].legend.lower()}; event {e.id}, cause: {e.cause.value})"
        given, said = _choices(model, e.id)
        lines = _wrap_lines(e.text) + [w for g in given for w in _wrap_lines(g)]
        self.node(c, _Node(name, role_of(e), lines, e.rules, "\n".join([tip] + said),
                           dashed=_did_not_happen(e)))
        if e.kind in _BOOKKEEPING:
            self.latest_step = name
        self.resolves_link(c, e, name)
        self.subtree(c, e.id)

    def parent_node(self, c: Any, e: Event) -> str | None:
        if e.parent is None:
            return None
        if e.parent in self.model.rep:
            return self.model.rep[e.parent]
        return self.ghost(c, e.parent)

    def ghost(self, c: Any, eid: int) -> str:
        if eid in self.ghosts:
            return self.ghosts[eid]
        try:
            earlier = self.model.log[eid]
        except KeyError:
            return ""
        name = f"g{eid}"
        self.ghosts[eid] = name
        tip = f"Earlier (action {earlier.action}): {earlier.text}"
        self.node(c, _Node(name, "ghost", _wrap_lines(f"Earlier: {earlier.text}"), (), tip))
        return name

    def resolves_link(self, c: Any, e: Event, name: str) -> None:
        """A resolving stack object: draw the edge from where it went on the stack."""
        if e.kind is not EventKind.RESOLVED:
            return
        origin = self.stack_items.get(e.data.get("item_id"))
        if origin is None or origin == e.parent:
            return
        tail = self.model.rep.get(origin) or self.ghost(c, origin)
        if tail:
            self.edge(tail, name, "resolves")

    def replacements(self, c: Any, e: Event, name: str) -> str:
        """proposed version -> each replacement effect -> the actual event; returns the entry."""
        proposed = f"p{e.id}"
        text = _proposed_text(self.model, e, e.proposed or e.applied[0].before)
        self.node(c, _Node(proposed, "proposed", _wrap_lines(text), (),
                           f"{text} (as first proposed, before replacement effects)"))
        prev, label = proposed, "changed by"
        for i, a in enumerate(e.applied):
            rname = f"r{e.id}_{i}"
            lines = _wrap_lines(f"{a.effect}: {_OUTCOME.get(a.outcome, a.outcome)}")
            after = _after_text(self.model, e, a.after) if a.after is not None else "nothing"
            lines += _wrap_lines(f"→ {after}")
            self.node(c, _Node(rname, "replacement", lines, tuple(a.rules),
                               f"{a.effect} {a.outcome} the event: now {after}"))
            self.edge(prev, rname, label)
            prev, label = rname, a.outcome
        self.edge(prev, name, label)
        return proposed

    def fold(self, c: Any, parent: int, members: list[int]) -> None:
        model = self.model
        first = model.window[members[0]]
        name = f"f{first.id}"
        hidden = 0
        stack = list(members)
        while stack:
            eid = stack.pop()
            model.rep[eid] = name
            hidden += 1
            stack += [k for k in model.children.get(eid, []) if k not in model.hidden]
        n = len(members)
        lines = [f"× {n:,} more like this"] + _wrap_lines(_OBJ_NO.sub("", first.text))
        each = (hidden - n) // n
        if each:
            lines.append(f"(each with {each} more event{'s' if each > 1 else ''} below it)")
        tip = (f"{n:,} more events like “{first.text}” ({hidden - n:,} consequences of theirs "
               f"not drawn): events {first.id} to {members[-1]}")
        tail = model.rep.get(parent)
        self.node(c, _Node(name, role_of(first), lines, first.rules, tip, fold=True))
        if tail is not None:
            self.edge(tail, name, relation_of(first))
        for eid in members:  # what they resolved or triggered elsewhere still points here
            ev = model.window[eid]
            if ev.kind is EventKind.RESOLVED:
                self.resolves_link(c, ev, name)

    def time_passes(self, c: Any, parent: int, run: list[int], after: str | None) -> str:
        """Steps (and turns) that began with nothing else happening: one node. Returns it."""
        model = self.model
        events: list[Event] = []
        stack = list(run)
        while stack:
            eid = stack.pop()
            events.append(model.window[eid])
            stack += [k for k in model.children.get(eid, []) if k not in model.hidden]
        events.sort(key=lambda e: e.id)
        if len(events) == 1:
            self.event(c, events[0], after=after)
            return model.rep[events[0].id]
        name = f"t{run[0]}"
        parts: list[str] = []
        for e in events:
            model.rep[e.id] = name
            if e.kind is EventKind.TURN_BEGAN:
                parts.append(f"turn {e.data.get('turn', e.turn)} ({e.data.get('player', '')})")
            elif e.kind is EventKind.DECLARED:
                parts[-1:] = [f"{parts[-1]} (no attackers)" if parts else "no attackers"]
            else:
                parts.append(_step_label(str(e.data.get("step", e.step))))
        text = "Time passes: " + " → ".join(parts)
        rules = tuple(dict.fromkeys(r for e in events for r in e.rules))
        self.node(c, _Node(name, "turn", _wrap_lines(text), rules,
                           f"{text} (nothing else happens in these steps)"))
        self.latest_step = name
        tail = after or model.rep.get(parent)
        if tail is not None:
            self.edge(tail, name, "then" if after else relation_of(events[0]))
        return name

    def fold_actions(self, c: Any, group: _Group, roots: dict[int, Event]) -> None:
        model = self.model
        first = roots[group.actions[0]]
        name = f"fa{first.id}"
        events = [e for n in group.actions for e in model.by_action.get(n, ())]
        for e in events:
            model.rep[e.id] = name
        lines = [f"× {group.folded:,} more actions like this"] + _wrap_lines(first.text)
        tip = f"{group.folded:,} more actions like “{first.text}” (actions {group.span})"
        self.node(c, _Node(name, "action", lines, first.rules, tip, fold=True))
        for e in events:
            if e.kind is EventKind.RESOLVED:
                self.resolves_link(c, e, name)


def _choices(model: _Model, eid: int) -> tuple[list[str], list[str]]:
    """The decisions that shaped event `eid` and who made them (CR 616.1, 603.3b, 704.5j):
    (lines for the label: choices the caller gave; lines for the tooltip: all of them)."""
    game = model.game
    given: list[str] = []
    said: list[str] = []
    for d in getattr(game, "decisions", ()):
        if d.event != eid:
            continue
        answer = d.answer
        if isinstance(answer, int) and not isinstance(answer, bool) and \
                answer in game.state.objects:
            answer = game.describe(answer)
        text = f"{d.player or 'the game'} chose {d.key.replace('_', ' ')}: {answer}"
        said.append(text + ("" if d.given else " (the default)"))
        if d.given:
            given.append(f"({text})")
    return given, said


def _explained(rules: Iterable[str]) -> list[str]:
    """"CR 605.3a — title: summary" for each rule the kit summarises (for tooltips)."""
    from rulekit.rules import all_rules

    known = all_rules()
    return [f"CR {r} — {known[r].title}: {known[r].summary}" for r in rules if r in known]


_OUTCOME = {"modified": "modifies it", "replaced": "replaces it", "prevented": "prevents it"}


def _wrap(text: str, width: int = WRAP) -> str:
    return "\n".join(_wrap_lines(text, width))


def _wrap_lines(text: str, width: int = WRAP) -> list[str]:
    out: list[str] = []
    for para in str(text).split("\n"):
        out += textwrap.wrap(para, width, break_on_hyphens=False) or [""]
    return out


def _object_name(model: _Model, obj_id: Any) -> str:
    game = model.game
    if game is not None and isinstance(obj_id, int) and obj_id in game.state.objects:
        try:
            return str(game.describe(obj_id))
        except Exception:  # a name is only a nicety here
            pass
    return f"#{obj_id}"


def _data_text(model: _Model, e: Event, data: Mapping[str, Any], proposed: bool) -> str:
    """What an event's data says, in a few words: "Alice would add {G} from Forest" for the
    version first proposed, "Alice adds {B}{B} from Forest" for what a replacement made of it."""
    from rulekit.mana import Mana, pool_text

    def verb(would: str, does: str) -> str:
        return f"would {would}" if proposed else does

    kind = e.kind
    if kind is EventKind.MANA_ADDED:
        mana = data.get("mana") or Mana()
        return (f"{data.get('player')} {verb('add', 'adds')} {pool_text(mana)} "
                f"from {data.get('source_name')}")
    if kind is EventKind.ZONE_CHANGED:
        what = _object_name(model, data.get("object"))
        tapped = " tapped" if data.get("tapped") else ""
        return f"{what} {verb('move', 'moves')} from {data.get('from')} to {data.get('to')}{tapped}"
    if kind is EventKind.COUNTERS_PUT:
        return (f"{_object_name(model, data.get('object'))} {verb('get', 'gets')} "
                f"{data.get('n')} {data.get('counter')} counter(s)")
    if kind in (EventKind.LIFE_GAINED, EventKind.LIFE_LOST):
        gain = kind is EventKind.LIFE_GAINED
        return (f"{data.get('player')} {verb('gain' if gain else 'lose', 'gains' if gain else 'loses')}"
                f" {data.get('amount')} life")
    if kind is EventKind.DAMAGE:
        return f"{data.get('source_name')} {verb('deal', 'deals')} {data.get('amount')} damage"
    if kind in (EventKind.TAPPED, EventKind.UNTAPPED):
        return f"{_object_name(model, data.get('object'))} {verb('become', 'becomes')} {kind.value}"
    words = kind.value.replace("_", " ")
    return f"{words} (as first proposed)" if proposed else words


def _proposed_text(model: _Model, e: Event, data: Mapping[str, Any]) -> str:
    return _data_text(model, e, data, True)


def _after_text(model: _Model, e: Event, data: Mapping[str, Any]) -> str:
    return _data_text(model, e, data, False)




def _setup_lines(events: list[Event], limit: int = 8) -> list[str]:
    """A few lines that say what the set-up put where."""
    placed: dict[tuple[str, str], Counter[str]] = {}
    other: list[str] = []
    for e in events:
        if e.kind is EventKind.ZONE_CHANGED and e.data.get("setup"):
            card = str(e.data.get("card", "?"))
            if e.data.get("tapped"):
                card += " (tapped)"
            where = (str(e.data.get("controller", "?")), str(e.data.get("to", "?")))
            placed.setdefault(where, Counter())[card] += 1
        elif e.kind is EventKind.STEP_BEGAN:
            other.append(e.text)
        elif e.kind is EventKind.ACTION and e.data.get("action") not in ("add", "set_turn"):
            other.append(e.text.removeprefix("Set-up: "))
    lines: list[str] = []
    for (player, zone), cards in placed.items():
        items = [f"{c} ×{n:,}" if n > 1 else c for c, n in cards.items()]
        if len(items) > 6:
            items = items[:6] + [f"+{len(items) - 6} more"]
        lines.append(f"{player}'s {zone}: " + ", ".join(items))
    lines += list(dict.fromkeys(other))
    if len(lines) > limit:
        lines = lines[:limit - 1] + [f"… and {len(lines) - limit + 1} more"]
    return lines


# ----------------------------------------------------------------------------- legend
LEGEND_ROW = 4


def _uses(tags: set[str] | None) -> dict[str, str]:
    """The class of a legend entry: "rk-uses-s1 rk-uses-s3" for the groups whose boxes have
    its shape, so a frame that shows only some groups (`reveal`) lists only their shapes."""
    names = sorted(t.removeprefix("rk-") for t in (tags or ()) if t)
    return {"class": " ".join(f"rk-uses-{n}" for n in names)} if names else {}


def _legend(graph: FlowDiagram, used: list[str], any_fold: bool,
            role_tags: dict[str, set[str]] | None = None) -> list[str]:
    """The legend cluster (only the roles this picture uses), in rows; returns its last row."""
    role_tags = role_tags or {}
    keys = [k for k in ROLES if k in used]
    if not keys:
        return []
    names: list[str] = []
    with graph.subgraph(name="cluster_legend") as c:
        c.attr(label="<<B>Legend</B>>", fontsize=str(CLUSTER_PT), style="rounded",
               color="#888888", labeljust="l", tooltip="Legend", margin="10")
        graph.titles["cluster_legend"] = "Legend: what the shapes and colors mean"
        for key in keys:
            role = ROLES[key]
            text = dot_html(role.legend)
            if role.font != "#000000":
                text = f'<FONT COLOR="{role.font}">{text}</FONT>'
            name = f"legend_{key}"
            c.node(name, label=f"<{text}>", tooltip=dot_text(role.legend),
                   fontsize=str(SMALL_PT), **role.attrs(), **_uses(role_tags.get(key)))
            graph.titles[name] = f"Legend: {role.legend} ({_SHAPE_WORDS.get(key, role.shape)})"
            names.append(name)
        if any_fold:
            c.node("legend_fold", label="<× N more like this>", shape="box", peripheries="2",
                   style="filled,rounded", fillcolor="#FFFFFF", fontsize=str(SMALL_PT),
                   tooltip="Folded: many events of the same shape, drawn once",
                   **_uses(role_tags.get("fold")))
            graph.titles["legend_fold"] = "Legend: double outline, many events folded into one"
            names.append("legend_fold")
        rows = [names[i:i + LEGEND_ROW] for i in range(0, len(names), LEGEND_ROW)]
        for row in rows:
            with c.subgraph() as r:
                r.attr(rank="same")
                for a, b in zip(row, row[1:]):
                    r.edge(a, b, style="invis")
                for n in row:
                    r.node(n)
        for upper, lower in zip(rows, rows[1:]):
            c.edge(upper[0], lower[0], style="invis")
    return rows[-1]


_SHAPE_WORDS = {
    "action": "box with a bold outline", "setup": "folder", "cost": "hexagon",
    "stack": "3-D box", "trigger": "house", "resolve": "arrow-ended box", "event": "rounded box",
    "mana": "cylinder", "proposed": "dashed rounded box", "replacement": "arrow",
    "sba": "octagon", "turn": "box with marked corners", "note": "note with a folded corner",
    "ghost": "dotted box",
}
