"""The visual grammar of the flow diagrams: how each kind of node looks (`ROLES`, what the legend
calls it), what each edge says (`RELATIONS`), which role an event plays (`role_of`), type sizes
and when repeated structure folds. No drawing, no Graphviz.

Shape *and* color carry meaning (Okabe-Ito colors, safe for color blindness)::

    player action        box, bold outline, white     the root of everything below it
    set-up               folder, white                the board the example starts from
    cost paid            hexagon, white               cause "cost"
    on the stack         3-D box, sky blue            a spell cast or an ability activated
    ability triggers     house, yellow                a triggered ability goes on the stack
    resolves             arrow-ended box, white       a spell or ability resolves
    event                rounded box, white           whatever else happened
    mana enters a pool   cylinder, bluish green       MANA_ADDED
    as first proposed    rounded box, dashed          the event before replacement effects
    replacement effect   arrow, reddish purple        changed the event: proposed -> effect -> actual
    state-based action   octagon, blue (white text)   cause "sba"
    turn-based action    box with marked corners, grey  steps beginning, untap step, mana emptying
    rule note            note, white                  e.g. undefined mana is no mana (CR 106.5)
    earlier event        dotted box, grey text        a cause outside the actions drawn
    folded               double outline, "× N more"   repeated structure drawn once
    an earlier step      folder, grey                 a step view's summary of a step before

Two colors are kept off every box: vermillion (`NEW_COLOR`) means only "what this step added",
and the keyboard focus ring is a dark blue (`FOCUS_COLOR`) that means nothing else; orange
(once the costs' fill) is used for nothing, so it can't be mistaken for either.

Edges carry the causal relation from the child's cause: "does" (action, ability), "pays" (cost),
"triggers" (bold), "replaced" / "changed by" / "modified" (dashed), "state-based", "turn-based",
"then" (a rule), and "resolves" (bold) from where a spell or ability went on the stack.

>>> ROLES["cost"].shape, ROLES["cost"].fill
('hexagon', '#FFFFFF')
>>> NEW_COLOR in {r.fill for r in ROLES.values()}
False
"""

from __future__ import annotations

from dataclasses import dataclass

from mtg_rulekit.core.events import Cause, Event, EventKind
from mtg_rulekit.core.payloads import Activated, ManaAdded, Note, Reason

__all__ = [
    "BOOKKEEPING", "CLUSTER_PT", "EDGE_STYLE", "FOCUS_COLOR", "FOLD_ALWAYS", "FOLD_AT", "FONT",
    "IN_ROW", "KEEP", "KEEP_STEP", "LAYOUTS", "LEGEND_ROW", "NARROW_WORDS", "NEW_COLOR", "ROW",
    "RELATIONS", "RESOLVING", "ROLES", "Role", "SHAPE_WORDS", "SMALL_PT", "StepLayout", "TEXT_PT",
    "TITLE_PT", "WIDE_WORDS", "WRAP_AT", "did_not_happen", "group_class", "relation_of", "role_of",
]

FONT = "DejaVu Sans,Arial,Helvetica,sans-serif"
TEXT_PT = 16
SMALL_PT = 16
TITLE_PT = 22
CLUSTER_PT = 18
LEGEND_ROW = 4  # legend entries in a row
ROW = 3  # a step view's siblings in a row; more wrap to the next (ranks below)
IN_ROW = 2  # a step view's replaced event: its chain's boxes this many a row (one rank)


@dataclass(frozen=True)
class StepLayout:
    """How a step view lays its step out, by four parameters: `row` siblings a row (more wrap
    to the ranks below, each under the sibling `row` before it and all it caused), `narrow`,
    `title_above` and `beside`. A wide layout puts a replaced event's chain two boxes a row
    (one with fewer than three siblings a row) and wraps the widening shapes' words at
    `WIDE_WORDS`; a narrow one puts every box of a chain under the one before, wraps every
    box's words at `NARROW_WORDS` (a copy's note comparing it with its original too), draws
    each event of a fan-out of replaced events in one box (the replacement effect's, saying
    what happened; the event as first proposed and each effect are in the box's "why") and
    puts a wrapped sibling under the column that ends highest (`Drawer._pack`). The step's
    title goes beside its first box, or above it. With `beside`, a lone leaf (the only
    child of an only child: a trigger's one effect, a copy's note) sits beside its cause, a
    row fewer; without, under it, a column narrower. `LAYOUTS` are the ones a walkthrough
    tries for each step (`mtg_rulekit.display.walkthrough.frames.step_view`): the same boxes, arrows and
    words (a narrow one's fan-outs aside), laid out wider or narrower, shorter or taller."""

    row: int = ROW
    narrow: bool = False
    title_above: bool = False
    beside: bool = True

    @property
    def in_row(self) -> int:
        """A replaced event's chain: this many boxes a row (one rank)."""
        return 1 if self.narrow or self.row < ROW else IN_ROW

    @property
    def title_beside(self) -> bool:
        return not self.title_above

    @property
    def brief(self) -> bool:
        return self.narrow

    @property
    def pack(self) -> bool:
        return self.narrow

    @property
    def wrap_at(self) -> dict[str, int]:
        """Characters a line, by role (the others: `words.WRAP`)."""
        return {**WRAP_AT, **dict(NARROW_WORDS if self.narrow else WIDE_WORDS)}


# a wide layout's widening shapes (a hexagon, a house, an octagon, an arrow) in longer lines
# (shorter boxes); a narrow layout's every box in short lines (narrower boxes; "compare": a
# copy's note comparing it with its original, else `words.WRAP` + 10)
WIDE_WORDS = (("trigger", 26), ("sba", 26), ("cost", 24), ("resolve", 26))
NARROW_WORDS = (("compare", 22), ("trigger", 18), ("sba", 18), ("cost", 16), ("resolve", 18),
                ("replacement", 18), ("event", 20), ("turn", 22), ("proposed", 20),
                ("mana", 20), ("action", 22), ("stack", 20))
# the layouts a step is tried in, in this order (the first is the default): three, two or one
# sibling a row; each wide, then narrow; each with its title beside, then above; all of them
# with a lone leaf beside its cause, then all of them with it under its cause
LAYOUTS = tuple(StepLayout(row, narrow, above, beside) for beside in (True, False)
                for row in (ROW, 2, 1) for narrow in (False, True) for above in (False, True))
# characters a line in the boxes whose shapes Graphviz widens around their text (a hexagon,
# a house, an octagon, an arrow), so they grow down, not sideways; other boxes: words.WRAP
WRAP_AT = {"cost": 20, "trigger": 20, "sba": 20, "resolve": 22, "replacement": 20}


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
    short: str = ""  # the legend strip's words, when `legend` is long ("Set-up")

    def attrs(self) -> dict[str, str]:
        return {"shape": self.shape, "style": self.style, "fillcolor": self.fill,
                "penwidth": self.penwidth, **dict(self.extra)}


# Okabe & Ito (2008) colors: orange, sky blue, bluish green, yellow, blue, vermillion, purple.
ROLES: dict[str, Role] = {r.key: r for r in (
    Role("action", "Player action", "box", "#FFFFFF", style="filled,bold", penwidth="3"),
    Role("setup", "Set-up: the board at the start", "folder", "#FFFFFF", short="Set-up"),
    Role("cost", "Cost paid", "hexagon", "#FFFFFF", extra=(("margin", "0.02,0.04"),)),
    Role("stack", "Put on the stack (spell or ability)", "box3d", "#56B4E9",
         short="On the stack"),
    Role("trigger", "Ability triggers", "house", "#F0E442", extra=(("margin", "0.02,0.04"),)),
    Role("resolve", "Resolves", "cds", "#FFFFFF", extra=(("margin", "0.3,0.12"),)),
    Role("event", "Event", "box", "#FFFFFF", style="filled,rounded"),
    Role("mana", "Mana enters a pool", "cylinder", "#009E73"),
    Role("proposed", "Event as first proposed", "box", "#FFFFFF", style="filled,rounded,dashed",
         short="As first proposed"),
    Role("replacement", "Replacement effect changes it", "rarrow", "#CC79A7",
         extra=(("margin", "0.3,0.12"),), short="Replacement effect"),
    Role("sba", "State-based action", "octagon", "#0072B2", font="#FFFFFF",
         extra=(("margin", "0.02,0.04"),)),
    Role("turn", "Turn-based action", "box", "#DDDDDD", style="filled,diagonals"),
    Role("note", "Rule note", "note", "#FFFFFF"),
    Role("ghost", "Earlier event (not in this picture)", "box", "#FFFFFF", font="#444444",
         style="filled,dotted", short="Earlier event"),
    Role("summary", "An earlier step, in one box", "folder", "#DDDDDD", font="#222222",
         style="filled,dashed", short="Earlier step"),
)}

# Vermillion: only what the current step added (its outline, in a page and in a step view).
NEW_COLOR = "#D55E00"
# The keyboard focus ring: a dark blue no box uses, never the "new" vermillion.
FOCUS_COLOR = "#1A2B6D"

# what the legend's screen-reader title calls each shape
SHAPE_WORDS = {
    "action": "box with a bold outline", "setup": "folder", "cost": "hexagon",
    "stack": "3-D box", "trigger": "house", "resolve": "arrow-ended box", "event": "rounded box",
    "mana": "cylinder", "proposed": "dashed rounded box", "replacement": "arrow",
    "sba": "octagon", "turn": "box with marked corners", "note": "note with a folded corner",
    "ghost": "dotted box", "summary": "grey dashed folder",
}

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
EDGE_STYLE: dict[str, dict[str, str]] = {
    "triggers": {"style": "bold", "penwidth": "2.5"},
    "resolves": {"style": "bold", "penwidth": "2.5"},
    "replaced": {"style": "dashed"},
    "modified": {"style": "dashed"},
    "prevented": {"style": "dashed"},
    "changed by": {"style": "dashed"},
    "compare": {"style": "dotted", "arrowhead": "none"},
}

BOOKKEEPING = (EventKind.STEP_BEGAN, EventKind.TURN_BEGAN)
_STACKING = tuple(EventKind(k) for k in ("cast", "spell_copied") if k in EventKind._value2member_map_)
_TURNISH = tuple(EventKind(k) for k in ("untap_skipped", "extra_combat", "mana_emptied", "phased")
                 if k in EventKind._value2member_map_)
RESOLVING = (EventKind.RESOLVED, EventKind.MANA_ABILITY, EventKind.FIZZLED, EventKind.COUNTERED)
FOLD_AT = 4  # a group of this many same-shape siblings (or actions) is folded ...
KEEP = 2  # ... keeping this many drawn in full
KEEP_STEP = 1  # ... in a step view (its fold box names each member and what each caused)
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
    if kind in _STACKING or (isinstance(event.payload, Activated)
                             and not event.payload.mana_ability):
        return "stack"
    if kind in RESOLVING:
        return "resolve"
    if kind in (EventKind.NOTE, EventKind.DECLARED):
        return "note"
    if event.cause is Cause.SBA or kind in (EventKind.SBA, EventKind.LOST):
        return "sba"
    if event.cause is Cause.TURN or kind in BOOKKEEPING + _TURNISH:
        return "turn"
    return "event"


def relation_of(event: Event) -> str:
    """What the edge into an event's node says ("pays", "triggers", "resolves", ...)."""
    if event.kind is EventKind.RESOLVED:
        return "resolves"
    return RELATIONS.get(event.cause, "then")


def did_not_happen(event: Event) -> bool:
    """Drawn dashed: a permanent that doesn't untap, mana that would have been added but
    wasn't, undefined mana."""
    if event.kind is EventKind.UNTAP_SKIPPED:
        return True
    d = event.payload
    if isinstance(d, ManaAdded) and not d.mana:
        return True
    return isinstance(d, Note) and d.reason is Reason.UNDEFINED_MANA


def group_class(key: str) -> str:
    """The SVG class of everything drawn for one group: its cluster, its nodes and the edges
    leading into them. Scenario steps are "rk-s0" (the set-up), "rk-s1", ...; actions "rk-a<n>".
    `mtg_rulekit.display.walkthrough.reveal` uses them to show a drawing one group at a time."""
    return f"rk-{key}"
