"""What each kind of event carries: one frozen payload type per `EventKind`.

A payload is the event's facts as explicit fields (object ids, players, amounts, zones), never
its English: the narrator (`mtg_rulekit.objects.narrator`) turns a payload into words for every view, and
views read fields. A field's role beyond being a fact is said one way, in its metadata:
`field(metadata=WHO)` marks which object or player the event is about, or a name (left out of
an event's shape, so that diagrams fold events that read alike); `live()` an engine object the
pipeline needs while the event is committed (the stack item to push, the effect to start),
which the log drops (`logged()`), so no mutable engine object lives on in the log; a "json"
key the field's name in the log's JSON (`from`, `to`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType
from typing import Any, ClassVar, Literal, TypeVar

from mtg_rulekit.core.characteristics import AbilityKind, Characteristics
from mtg_rulekit.core.events import EventKind
from mtg_rulekit.core.mana import Mana
from mtg_rulekit.core.zones import Zone

P = TypeVar("P", bound="Payload")
ObjectId = int


# a field's role, in its metadata (`field(metadata=WHO)`): which object or player the event is
# about, or a name, left out of the event's shape (`shape`); a "json" key renames the field in
# the log's JSON
WHO: Mapping[str, str] = MappingProxyType({"role": "who"})


def live() -> Any:
    """A pipeline-only field (an engine object); the logged payload drops it."""
    return field(default=None, compare=False, repr=False, metadata={"role": "live"})


@dataclass(frozen=True, slots=True)
class Payload:
    """Base of every event payload."""

    kind: ClassVar[EventKind]

    def replace(self: P, **changes: Any) -> P:
        """A copy with some fields changed (replacement effects propose changed events)."""
        new = object.__new__(type(self))
        for name in _NAMES[type(self)]:
            object.__setattr__(new, name, changes.pop(name) if name in changes
                               else getattr(self, name))
        if changes:
            raise TypeError(f"{type(self).__name__} has no field {sorted(changes)[0]!r}")
        return new

    def logged(self: P) -> P:
        """The payload as the log keeps it: without its live engine objects."""
        live = _LIVE[type(self)]
        if not live or all(getattr(self, name) is None for name in live):
            return self
        return self.replace(**dict.fromkeys(live))

    def fields(self, *, defaults: bool = False) -> dict[str, Any]:
        """Field name to value, JSON names, live fields left out, defaults left out unless
        `defaults`."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            if f.metadata.get("role") == "live":
                continue
            value = getattr(self, f.name)
            default = f.default if f.default is not dataclasses.MISSING else (
                f.default_factory() if f.default_factory is not dataclasses.MISSING else
                dataclasses.MISSING)
            if not defaults and value == default and default is not dataclasses.MISSING:
                continue
            out[f.metadata.get("json") or f.name] = value
        return out

    def to_json(self) -> dict[str, Any]:
        return {k: _plain(v) for k, v in sorted(self.fields().items())}


def _plain(value: Any) -> Any:
    """JSON-ready copy: enums to values, tuples to lists, mappings to dicts (sorted keys)."""
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, (list, tuple, set, frozenset)):
        items = [_plain(v) for v in value]
        return sorted(items, key=str) if isinstance(value, (set, frozenset)) else items
    if hasattr(value, "to_json"):
        return value.to_json()
    return value


PAYLOADS: dict[EventKind, type[Payload]] = {}
_NAMES: dict[type[Payload], tuple[str, ...]] = {}  # each payload type's fields
_LIVE: dict[type[Payload], tuple[str, ...]] = {}  # ... and those the log drops
_WHO: dict[type[Payload], frozenset[str]] = {}  # ... and those left out of a shape (JSON names)
VARIANTS: dict[EventKind, list[type[Payload]]] = {}  # the subclasses of a kind's payload type


def _roles(cls: type[P]) -> type[P]:
    """Record a payload type's fields and their roles (read from their metadata)."""
    fields = dataclasses.fields(cls)
    _NAMES[cls] = tuple(f.name for f in fields)
    _LIVE[cls] = tuple(f.name for f in fields if f.metadata.get("role") == "live")
    _WHO[cls] = frozenset(f.metadata.get("json") or f.name for f in fields
                          if f.metadata.get("role") == "who")
    return cls


def payload(kind: EventKind) -> Callable[[type[P]], type[P]]:
    """Class decorator: the (frozen dataclass) payload type of events of `kind`."""
    def register(cls: type[P]) -> type[P]:
        cls.kind = kind
        PAYLOADS[kind] = _roles(cls)
        return cls

    return register


def variant(cls: type[P]) -> type[P]:
    """Class decorator: a (frozen dataclass) subclass of a payload type, carrying what one
    kind of that event says (its kind is its base's)."""
    VARIANTS.setdefault(cls.kind, []).append(_roles(cls))
    return cls


# ------------------------------------------------------------------ actions and time
@payload(EventKind.ACTION)
@dataclass(frozen=True, slots=True)
class Action(Payload):
    """A player (or the set-up) did something: the root of a causal tree. `action` is the
    action's name (`mtg_rulekit.engine.arguments.ACTION_ARGS`). What the narrator needs to say more
    is in a variant of one kind of action each (`ForPlayer`, `Played`, `Casting`, `Activating`,
    `Passing`, `AtOnce`), as `ZoneChanged`'s are; passing priority, set_turn, next_turn and
    declaring attackers or blockers say no more than this."""

    action: str
    player: str | None = field(default=None, metadata=WHO)  # who acts (and keeps priority, CR 117.3c)
    setup: bool = False  # it arranges a position rather than plays (actions.SETUP_ACTIONS)
    keeps_priority: bool = True


@variant
@dataclass(frozen=True, slots=True)
class ForPlayer(Action):
    """Set-up and control, done for a player: whose zone (`add`), life (`set_life`) or pool
    (`set_pool`), or who gains control (`gain_control`)."""

    for_player: str | None = field(default=None, metadata=WHO)
    card: str | None = field(default=None, metadata=WHO)  # the card (add) or permanent, described
    zone: Zone | None = None  # add: the zone it goes to
    life: int | None = None  # set_life: the new total


@variant
@dataclass(frozen=True, slots=True)
class Played(Action):
    """A land played (CR 305.1)."""

    card: str | None = field(default=None, metadata=WHO)  # its name, as the action began


@variant
@dataclass(frozen=True, slots=True)
class Casting(Action):
    """A spell cast (CR 601.2), with its X and whether with flashback (702.34a)."""

    card: str | None = field(default=None, metadata=WHO)  # its name, as the action began
    x: int | None = None  # the X chosen (only when its cost has X)
    flashback: bool = False


@variant
@dataclass(frozen=True, slots=True)
class Activating(Action):
    """An ability activated (CR 602.2), a mana ability (605.3a) among them."""

    card: str | None = field(default=None, metadata=WHO)  # its source, described
    ability: str | None = None  # the ability's text
    mana: bool = False  # a mana ability (CR 605.3a)
    taps: bool = False  # ... with {T} in its cost: tapping for mana (106.12)


@variant
@dataclass(frozen=True, slots=True)
class Passing(Action):
    """All players pass: the top of the stack resolves (`resolve`, CR 117.4, 608.1), or time
    passes until a step (`advance`)."""

    all_pass: bool = False  # every player passed in succession (CR 117.4)
    item: str | None = None  # resolve: the top of the stack, named aloud (narrator.item_name)
    until: str | None = None  # advance: the step's label


@variant
@dataclass(frozen=True, slots=True)
class AtOnce(Action):
    """Set-up's destroy or exile of several permanents at once."""

    objects: tuple[str, ...] = field(default=(), metadata=WHO)  # the first five, described
    count: int = 0  # how many


@payload(EventKind.TURN_BEGAN)
@dataclass(frozen=True, slots=True)
class TurnBegan(Payload):
    turn: int = field(metadata=WHO)
    player: str = field(metadata=WHO)


@payload(EventKind.STEP_BEGAN)
@dataclass(frozen=True, slots=True)
class StepBegan(Payload):
    step: str
    active: str = field(metadata=WHO)
    turn: int = field(metadata=WHO)
    extra_combat: bool = False


@payload(EventKind.PRIORITY)
@dataclass(frozen=True, slots=True)
class Priority(Payload):
    player: str = field(metadata=WHO)
    all: tuple[str, ...] = field(default=(), metadata=WHO)  # every player passed in this order


@payload(EventKind.MANA_EMPTIED)
@dataclass(frozen=True, slots=True)
class ManaEmptied(Payload):
    player: str = field(metadata=WHO)
    lost: Mana  # what was in the pool


@payload(EventKind.EXTRA_COMBAT)
@dataclass(frozen=True, slots=True)
class ExtraCombat(Payload):
    source_name: str = field(metadata=WHO)


@payload(EventKind.DECLARED)
@dataclass(frozen=True, slots=True)
class Declared(Payload):
    """Attackers or blockers were declared (CR 508.1, 509.1): the step stops waiting."""

    declared: str  # "attackers" or "blockers"
    player: str = field(metadata=WHO)
    count: int


@payload(EventKind.LOST)
@dataclass(frozen=True, slots=True)
class Lost(Payload):
    """A player loses the game; `reason` the state-based action's (the narrator words it)."""

    player: str = field(metadata=WHO)
    reason: Literal["life"]  # 0 or less life (CR 704.5a)


# ------------------------------------------------------------------ permanents
@payload(EventKind.TAPPED)
@dataclass(frozen=True, slots=True)
class Tapped(Payload):
    object: ObjectId = field(metadata=WHO)
    as_cost: bool = False
    crews: ObjectId | None = field(default=None, metadata=WHO)  # tapped to crew this Vehicle (CR 702.122)


@payload(EventKind.PHASED)
@dataclass(frozen=True, slots=True)
class Phased(Payload):
    """A permanent phases out (treated as though it doesn't exist) or back in (CR 702.26)."""

    object: ObjectId = field(metadata=WHO)
    phased_in: bool
    player: str = field(metadata=WHO)  # whose untap step: it phases in again in that player's untap step
    indirectly: bool = False  # attached to a permanent that phased ("indirectly", CR 702.26)


@payload(EventKind.UNTAPPED)
@dataclass(frozen=True, slots=True)
class Untapped(Payload):
    object: ObjectId = field(metadata=WHO)
    as_cost: bool = False
    clears_exert: bool = False
    exert_of: str | None = field(default=None, metadata=WHO)  # whose exert effect ends (CR 701.43a)


@payload(EventKind.UNTAP_SKIPPED)
@dataclass(frozen=True, slots=True)
class UntapSkipped(Payload):
    """A permanent doesn't untap in its controller's untap step (CR 502.3): an ability keeps it
    tapped, or it was exerted (701.43)."""

    object: ObjectId = field(metadata=WHO)
    ability: str = ""  # the static ability that keeps it tapped, as its text writes it
    clears_exert: bool = False  # it was exerted: that effect ends now
    exert_of: str | None = field(default=None, metadata=WHO)
    expired: bool = False  # already untapped: the exert effect ends having done nothing
    moved: bool = False  # the exerting player no longer controls it: the effect just ends


@payload(EventKind.EXERTED)
@dataclass(frozen=True, slots=True)
class Exerted(Payload):
    object: ObjectId = field(metadata=WHO)
    player: str = field(metadata=WHO)


@payload(EventKind.COUNTERS_PUT)
@dataclass(frozen=True, slots=True)
class CountersPut(Payload):
    object: ObjectId = field(metadata=WHO)
    counter: str
    n: int


@payload(EventKind.COUNTERS_REMOVED)
@dataclass(frozen=True, slots=True)
class CountersRemoved(Payload):
    object: ObjectId = field(metadata=WHO)
    counter: str
    n: int


@payload(EventKind.DAMAGE)
@dataclass(frozen=True, slots=True)
class Damage(Payload):
    source: ObjectId | None = field(metadata=WHO)
    source_name: str = field(metadata=WHO)
    target: ObjectId | str = field(metadata=WHO)  # an object id or a player's name
    amount: int


@payload(EventKind.LIFE_GAINED)
@dataclass(frozen=True, slots=True)
class LifeGained(Payload):
    player: str = field(metadata=WHO)
    amount: int


@payload(EventKind.LIFE_LOST)
@dataclass(frozen=True, slots=True)
class LifeLost(Payload):
    player: str = field(metadata=WHO)
    amount: int
    paid_for: str = field(default="", metadata=WHO)  # life paid (for this permanent's choice): paying life is losing it


@payload(EventKind.ATTACKS)
@dataclass(frozen=True, slots=True)
class Attacks(Payload):
    object: ObjectId = field(metadata=WHO)
    defender: str = field(metadata=WHO)
    declared: bool = True  # False: put onto the battlefield attacking (CR 508.4)


@payload(EventKind.BLOCKS)
@dataclass(frozen=True, slots=True)
class Blocks(Payload):
    object: ObjectId = field(metadata=WHO)
    attacker: ObjectId = field(metadata=WHO)


@payload(EventKind.CONTROL_CHANGED)
@dataclass(frozen=True, slots=True)
class ControlChanged(Payload):
    object: ObjectId = field(metadata=WHO)
    player: str = field(metadata=WHO)


@payload(EventKind.ATTACHED)
@dataclass(frozen=True, slots=True)
class Attached(Payload):
    object: ObjectId = field(metadata=WHO)
    to: ObjectId | None = field(metadata=WHO)


@payload(EventKind.EFFECT_BEGAN)
@dataclass(frozen=True, slots=True)
class EffectBegan(Payload):
    effect_text: str
    crewed: ObjectId | None = field(default=None, metadata=WHO)  # a Vehicle's crew ability resolved (CR 702.122)
    effect: Any = live()  # the ContinuousEffect


@payload(EventKind.EFFECT_ENDED)
@dataclass(frozen=True, slots=True)
class EffectEnded(Payload):
    effect_text: str
    effect: Any = live()


# ------------------------------------------------------------------ mana
@payload(EventKind.MANA_ADDED)
@dataclass(frozen=True, slots=True)
class ManaAdded(Payload):
    player: str = field(metadata=WHO)
    mana: Mana
    source: ObjectId | None = field(default=None, metadata=WHO)
    source_name: str = field(default="", metadata=WHO)
    tapped_for_mana: bool = False  # by a mana ability with {T} in its cost (CR 106.12)
    source_is_land: bool = False
    setup: bool = False
    what_if: bool = False  # asked about, never committed ("could produce", CR 106.7)


class Paying(str, Enum):
    """What mana is spent on, as a fact (the narrator words it: `narrator.spending_text`)."""

    CAST = "cast"  # casting a spell (`source`: its name)
    ABILITY = "ability"  # activating an ability (`source`: its source, described)
    WARD = "ward"  # a ward cost (the cost says how much)
    UNLESS = "unless"  # "counter it unless its controller pays" (`source` asks, for `spell`)
    UPKEEP = "upkeep"  # an upkeep ability's "you may pay" (`source`)


@dataclass(frozen=True, slots=True)
class Spending:
    """What a payment is for: `paying` (`Paying`), the card or object that asks (`source`), the
    spell it is for (`spell`) and, for ward, its cost."""

    paying: Paying
    source: str = ""
    spell: str = ""
    cost: str = ""

    def to_json(self) -> dict[str, str]:
        return {k: v for k, v in (("paying", self.paying.value), ("source", self.source),
                                  ("spell", self.spell), ("cost", self.cost)) if v}


@payload(EventKind.MANA_SPENT)
@dataclass(frozen=True, slots=True)
class ManaSpent(Payload):
    player: str = field(metadata=WHO)
    mana: Mana
    purpose: Spending  # what it paid for: casting Glory-Bound Initiate, ward {2}, ...
    cost: str = ""
    uncounterable: ObjectId | None = field(default=None, metadata=WHO)  # Cavern of Souls' rider (CR 106.6)


# ------------------------------------------------------------------ zones
@payload(EventKind.ZONE_CHANGED)
@dataclass(frozen=True, slots=True)
class ZoneChanged(Payload):
    """An object moves between zones: a new object (CR 400.7). Moving onto the battlefield is
    `Entered`, onto the stack as a spell is cast `ToStack`, set-up's putting a card in `SetUp`
    (one event kind, one variant for each thing the move says)."""

    origin: Zone = field(metadata={"json": "from"})
    destination: Zone = field(metadata={"role": "who", "json": "to"})
    object: ObjectId | None = field(default=None, metadata=WHO)  # None: set-up puts a card in
    new: ObjectId | None = field(default=None, metadata=WHO)  # the new object's id (given when committed)
    reason: str = ""  # play, resolve, destroy, sacrifice, exile, sba, discard, cipher...
    player: str | None = field(default=None, metadata=WHO)  # who moves it (a land play)
    controller: str | None = field(default=None, metadata=WHO)
    token: bool = False
    linked_to: ObjectId | None = field(default=None, metadata=WHO)  # exiled "with" this object (CR 607.2a)
    flashback: bool = False  # exiled instead: it was cast with flashback (CR 702.34a)
    by: str = field(default="", metadata=WHO)  # exiled by / encoded on: the other object, described


@variant
@dataclass(frozen=True, slots=True)
class ToStack(ZoneChanged):
    """A spell moves onto the stack as it is cast (CR 601.2a), with its X and targets."""

    x: int = 0
    targets: tuple[ObjectId | str, ...] = field(default=(), metadata=WHO)


@variant
@dataclass(frozen=True, slots=True)
class Entered(ZoneChanged):
    """An object moves onto the battlefield, and how it enters: tapped, with counters, with
    choices made as it enters (CR 614.12), as a copy (CR 707.5), with its spell's X (107.3m)."""

    land_play: bool = False
    tapped: bool = False
    sick: bool = True
    counters: Mapping[str, int] = field(default_factory=dict)
    choices: Mapping[str, str] = field(default_factory=dict)
    attach_to: ObjectId | None = field(default=None, metadata=WHO)
    attacking: bool = False
    etb_x: int | None = None  # the X its spell had (CR 107.3m)
    pay_life: int = 0  # life its controller pays as it enters (lost in a LifeLost of its own)
    copiable: Characteristics | None = None  # what it enters as a copy of (CR 707.5)
    copy_text: str = field(default="", metadata=WHO)  # what it entered as a copy of, described
    x_cost: bool = False  # its spell's cost had X (said as it enters)
    etb_x_used: int | None = None  # the X an "enters with X counters" effect used
    copy_declined: bool = False  # "you may have it enter as a copy": no (CR 707.5)


@variant
@dataclass(frozen=True, slots=True)
class SetUp(Entered):
    """Set-up puts a card straight into a zone, from nowhere, with the status it is given."""

    card: str | None = field(default=None, metadata=WHO)  # the card's name
    owner: str | None = field(default=None, metadata=WHO)
    setup: bool = False
    position: str | None = None  # a library's "top" or "bottom"


@payload(EventKind.TOKEN_CREATED)
@dataclass(frozen=True, slots=True)
class TokenCreated(Payload):
    card: str = field(metadata=WHO)
    controller: str = field(metadata=WHO)
    new: ObjectId | None = field(default=None, metadata=WHO)
    tapped: bool = False
    attacking: bool = False
    copiable: Characteristics | None = None  # CR 707.2
    copy_text: str = field(default="", metadata=WHO)  # what it is a copy of, described
    etb_x: int | None = None
    counters: Mapping[str, int] = field(default_factory=dict)
    choices: Mapping[str, str] = field(default_factory=dict)
    etb_x_used: int | None = None
    copy_declined: bool = False


@payload(EventKind.DREW)
@dataclass(frozen=True, slots=True)
class Drew(Payload):
    player: str = field(metadata=WHO)
    empty: bool = False  # the library was empty


# ------------------------------------------------------------------ stack
@payload(EventKind.CAST)
@dataclass(frozen=True, slots=True)
class Cast(Payload):
    object: ObjectId = field(metadata=WHO)
    origin: Zone = field(metadata={"json": "from"})
    player: str = field(metadata=WHO)
    item_id: int = field(metadata=WHO)
    card: str = field(default="", metadata=WHO)
    x: int = 0
    x_cost: bool = False  # the spell's cost has X
    targets: tuple[ObjectId | str, ...] = field(default=(), metadata=WHO)
    colors: tuple[str, ...] = ()
    new: ObjectId | None = field(default=None, metadata=WHO)


@payload(EventKind.ACTIVATED)
@dataclass(frozen=True, slots=True)
class Activated(Payload):
    object: ObjectId = field(metadata=WHO)
    source: str = field(metadata=WHO)  # the source, described
    ability: int | None = None
    item_id: int | None = field(default=None, metadata=WHO)
    mana_ability: bool = False
    taps_for_mana: bool = False
    item: Any = live()  # the StackItem to put on the stack


@payload(EventKind.MANA_ABILITY)
@dataclass(frozen=True, slots=True)
class ManaAbilityResolved(Payload):
    """A mana ability resolved at once, without the stack (CR 605.3b)."""

    object: ObjectId = field(metadata=WHO)
    source: str = field(metadata=WHO)


@payload(EventKind.TRIGGERED)
@dataclass(frozen=True, slots=True)
class Triggered(Payload):
    source_name: str = field(metadata=WHO)
    ability: str  # the triggered ability's text
    removed: bool = False  # it had no legal target and is removed (CR 603.3d)


@payload(EventKind.PUT_ON_STACK)
@dataclass(frozen=True, slots=True)
class PutOnStack(Payload):
    item_id: int = field(metadata=WHO)
    source_name: str = field(metadata=WHO)
    ability: str = ""  # the triggered ability's text
    ability_kind: AbilityKind | None = None  # what kind of ability it is (the narrator names it so)
    targets: str = field(default="", metadata=WHO)  # its targets, described
    for_what: str = field(default="", metadata=WHO)  # a trigger named short: the object whose move it triggered on
    item: Any = live()


@payload(EventKind.RESOLVED)
@dataclass(frozen=True, slots=True)
class Resolved(Payload):
    item_id: int = field(metadata=WHO)
    item_kind: str  # "spell" or "ability"
    source_name: str = field(metadata=WHO)
    text: str = field(metadata=WHO)  # the stack object as the stack shows it
    ability: str = ""  # the ability's text (not for spells)
    ability_kind: AbilityKind | None = None  # what kind of ability it is (not for spells)
    trigger_event: int | None = field(default=None, metadata=WHO)


@payload(EventKind.COUNTERED)
@dataclass(frozen=True, slots=True)
class Countered(Payload):
    item_id: int = field(metadata=WHO)
    text: str = field(metadata=WHO)  # the stack object, named aloud (narrator.item_name)


@payload(EventKind.FIZZLED)
@dataclass(frozen=True, slots=True)
class Fizzled(Payload):
    item_id: int = field(metadata=WHO)
    text: str = field(metadata=WHO)  # the stack object, named aloud (narrator.item_name)


@payload(EventKind.TARGETED)
@dataclass(frozen=True, slots=True)
class Targeted(Payload):
    item_id: int = field(metadata=WHO)
    by: str = field(metadata=WHO)  # the spell or ability that targets, described
    controller: str = field(metadata=WHO)  # who controls it
    target: str = field(metadata=WHO)  # the target, described
    object: ObjectId | None = field(default=None, metadata=WHO)
    player: str | None = field(default=None, metadata=WHO)  # a targeted player


@payload(EventKind.DELAYED_CREATED)
@dataclass(frozen=True, slots=True)
class DelayedCreated(Payload):
    source_name: str = field(metadata=WHO)
    ability: str  # what the delayed trigger will do, in words
    step: str  # it triggers at the beginning of the next one of these steps
    delayed: Any = live()


@payload(EventKind.SPELL_COPIED)
@dataclass(frozen=True, slots=True)
class SpellCopied(Payload):
    object: ObjectId = field(metadata=WHO)
    controller: str = field(metadata=WHO)
    item_id: int = field(metadata=WHO)
    name: str = field(metadata=WHO)  # the original, described
    copiable: Characteristics | None = None
    nonlegendary: bool = False  # "except it isn't legendary"
    new: ObjectId | None = field(default=None, metadata=WHO)
    targets: tuple[ObjectId | str, ...] = field(default=(), metadata=WHO)
    x: int = 0
    cast: bool = False  # cast copy (cipher): "you may cast a copy"


# ------------------------------------------------------------------ explanations
class Reason(str, Enum):
    """Why a rule explains what did (or didn't) happen (a `Note`), or what a player chose not
    to do (a `Choice`): a closed set of facts, each worded by the narrator (its `REASONS`, checked
    complete as it is imported). The note's other fields name who and what."""

    CLEANUP_PRIORITY = "cleanup_priority"  # the active player gets priority in cleanup (514.3a)
    WARD_GONE = "ward_gone"  # what targeted the warded permanent already left the stack (702.21a)
    CANT_BE_COUNTERED = "cant_be_countered"  # a spell that can't be countered isn't (101.2)
    UNDEFINED_MANA = "undefined_mana"  # mana of an undefined type is no mana (106.5)
    NO_MANA = "no_mana"  # an ability makes zero mana right now (106.7)
    NOT_ENCODED = "not_encoded"  # the encoded card left exile: nothing to copy (702.99c)
    COPY_NO_TARGET = "copy_no_target"  # a cipher copy has no legal target (601.2c)
    CONDITION_FALSE = "condition_false"  # an intervening "if" is false on resolution (603.4)
    TOKEN_GONE = "token_gone"  # "sacrifice the token": gone or someone else's (701.21)
    SOURCE_LEFT = "source_left"  # the source already left: the target isn't exiled (610.3b)
    DOESNT_PAY = "doesnt_pay"  # a player doesn't pay a cost (ward, "counter unless", 118.12)
    DOESNT_ENCODE = "doesnt_encode"  # a cipher spell isn't encoded (702.99a)
    DOESNT_CAST_COPY = "doesnt_cast_copy"  # a cipher copy isn't cast (702.99a)


CHOICE_REASONS = frozenset({Reason.DOESNT_PAY, Reason.DOESNT_ENCODE, Reason.DOESNT_CAST_COPY})
"""The reasons a `Choice` gives (a player chose not to); a `Note` gives the others."""


@payload(EventKind.NOTE)
@dataclass(frozen=True, slots=True)
class Note(Payload):
    """A rule explains what did (or didn't) happen: `reason` says which explanation, the other
    fields what it names; the narrator words it."""

    reason: Reason
    player: str | None = None  # the player it names
    name: str = ""  # the card, source or spell it names, by name
    object: ObjectId | None = None  # the object it names (described as the event is logged)
    condition: str = ""  # an intervening "if" clause, as its ability's text writes it


@payload(EventKind.CHOICE)
@dataclass(frozen=True, slots=True)
class Choice(Payload):
    """A player chose not to do something: `reason` says what, `name` and `cost` what it was
    about; the narrator words it."""

    player: str  # (part of the shape, as the words that name the player were)
    reason: Reason
    name: str = ""  # the card it is about, by name
    cost: str = ""  # the cost not paid
    spending: Spending | None = None  # what the cost was for


class Unfit(str, Enum):
    """Why a permanent can't be attached to another (CR 301.5c, 301.6, 303.4c, 704.5m-p)."""

    NOTHING = "nothing"  # it is attached to nothing
    HOST_GONE = "host_gone"  # what it is attached to is not on the battlefield
    ITSELF = "itself"  # it can't be attached to itself
    CANT_ATTACH = "cant_attach"  # not an Aura, Equipment or Fortification
    NOT_CREATURE = "not_creature"  # Equipment, on something that isn't a creature
    NOT_LAND = "not_land"  # a Fortification, on something that isn't a land
    CANT_ENCHANT = "cant_enchant"  # an Aura its enchant ability doesn't allow there


@dataclass(frozen=True, slots=True)
class Unattachable:
    """Why `name` can't be attached to `host` (`why`, an `Unfit`), and the rule: facts the
    narrator words (`narrator.unfit_text`), for a refusal and for a state-based action.
    `host` is the host's name (described, with its id, when it has left); `enchant` the
    Aura's enchant ability's text."""

    why: Unfit
    rule: str
    name: str = ""
    host: str = ""
    enchant: str = ""

    def to_json(self) -> dict[str, str]:
        return {k: v for k, v in (("why", self.why.value), ("rule", self.rule),
                                  ("name", self.name), ("host", self.host),
                                  ("enchant", self.enchant)) if v}


class Doom(str, Enum):
    """Why a state-based action puts a permanent into its owner's graveyard (CR 704.5)."""

    TOUGHNESS = "toughness"  # toughness 0 or less (704.5f)
    LETHAL_DAMAGE = "lethal_damage"  # lethal damage (704.5g)
    AURA_UNATTACHED = "aura_unattached"  # an Aura attached to nothing (704.5m)
    ILLEGALLY_ATTACHED = "illegally_attached"  # an Aura attached illegally (704.5m)
    LEGEND_RULE = "legend_rule"  # the legend rule (704.5j)


@dataclass(frozen=True, slots=True)
class Dying:
    """One permanent a state-based action puts into its graveyard, and why (several reasons
    at once: it moves once for all, CR 704.3); `problem` says how an Aura is attached
    illegally."""

    object: ObjectId
    why: tuple[Doom, ...]
    problem: Unattachable | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"object": self.object, "why": [w.value for w in self.why]}
        if self.problem is not None:
            out["problem"] = self.problem.to_json()
        return out


@payload(EventKind.SBA)
@dataclass(frozen=True, slots=True)
class StateBasedActions(Payload):
    """State-based actions put permanents into their owners' graveyards (CR 704.5): each one
    and why, as facts (the narrator words them)."""

    dying: tuple[Dying, ...]


@payload(EventKind.COST_PAID)
@dataclass(frozen=True, slots=True)
class CostPaid(Payload):
    says: str


def object_of(payload: Payload | None) -> ObjectId | None:
    """The object an event is about (tapped, moved, targeted...), if it is about one."""
    value = getattr(payload, "object", None)
    return value if isinstance(value, int) else None


def stack_item(payload: Payload | None) -> int | None:
    """The stack object an event put on the stack, resolved, countered or targets with."""
    value = getattr(payload, "item_id", None)
    return value if isinstance(value, int) else None


def shape(payload: Payload | None) -> tuple[Any, ...]:
    """What kind of thing an event did, whoever and whatever it involved: events of the same
    shape read alike once names and object numbers are left out (diagrams fold them)."""
    if payload is None:
        return ("prevented",)
    out: list[tuple[str, Any]] = []
    who = _WHO[type(payload)]
    for key, value in sorted(payload.fields().items()):
        if key in who:
            continue
        if hasattr(value, "parts"):  # mana: its types and amounts, not its sources
            value = tuple(sorted(((u.type.value, getattr(u.restriction, "text", None), n)
                                  for u, n in value.parts),
                                 key=lambda t: (t[0], t[1] or "", t[2])))
        out.append((key, repr(_plain(value)) if not isinstance(value, tuple) else value))
    return (payload.kind.value, tuple(out))


def check_complete(payloads: dict[EventKind, type[Payload]] | None = None) -> None:
    """Every event kind has its payload type: checked as this module is imported, so a new kind
    without one stops the engine from loading at all."""
    found = PAYLOADS if payloads is None else payloads
    missing = [k.value for k in EventKind if k not in found]
    if missing:
        raise AssertionError(f"event kinds without a payload type: {missing}")


check_complete()
