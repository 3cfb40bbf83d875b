"""The game state: players, zones, objects and their status, the stack and the turn.

Characteristics (what an object *is*) come from its card or token definition and the layer
system (`mtg_rulekit.objects.effects`); everything here is status (CR 110.5) or bookkeeping. The
state is plain data: no rules live here.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import Enum
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Protocol

from mtg_rulekit.core.mana import ManaPool
from mtg_rulekit.core.zones import Zone as Zone  # re-exported: the state names its zones

if TYPE_CHECKING:
    from mtg_rulekit.core.characteristics import Ability, CardDef, Characteristics


class Step(str, Enum):
    """Every step and main phase of a turn, in order (CR 500.1)."""

    UNTAP = "untap"
    UPKEEP = "upkeep"
    DRAW = "draw"
    MAIN1 = "main1"
    BEGIN_COMBAT = "beginning_of_combat"
    DECLARE_ATTACKERS = "declare_attackers"
    DECLARE_BLOCKERS = "declare_blockers"
    COMBAT_DAMAGE = "combat_damage"
    END_COMBAT = "end_of_combat"
    MAIN2 = "main2"
    END = "end"
    CLEANUP = "cleanup"

    @property
    def label(self) -> str:
        return _STEP_LABELS[self]

    @property
    def is_main(self) -> bool:
        return self in (Step.MAIN1, Step.MAIN2)


_STEP_LABELS = {
    Step.UNTAP: "untap step",
    Step.UPKEEP: "upkeep",
    Step.DRAW: "draw step",
    Step.MAIN1: "precombat main phase",
    Step.BEGIN_COMBAT: "beginning of combat step",
    Step.DECLARE_ATTACKERS: "declare attackers step",
    Step.DECLARE_BLOCKERS: "declare blockers step",
    Step.COMBAT_DAMAGE: "combat damage step",
    Step.END_COMBAT: "end of combat step",
    Step.MAIN2: "postcombat main phase",
    Step.END: "end step",
    Step.CLEANUP: "cleanup step",
}
STEPS: tuple[Step, ...] = tuple(Step)


@dataclass(slots=True)
class GameObject:
    """A card, token or copy in some zone. A new object each time it changes zones (CR 400.7)."""

    id: int
    card: CardDef
    owner: str
    controller: str
    zone: Zone
    token: bool = False
    timestamp: int = 0
    # copiable values set as it entered (a copy effect, CR 707.2) or a token's stated values
    copiable: Characteristics | None = None
    # -- status (CR 110.5) and other bookkeeping --
    tapped: bool = False
    counters: dict[str, int] = field(default_factory=dict)
    attached_to: int | None = None
    damage: int = 0
    # True until it has been under its controller's control continuously since their most
    # recent turn began (CR 302.6)
    sick: bool = True
    choices: dict[str, str] = field(default_factory=dict)  # "as enters" choices
    etb_x: int | None = None  # X of the spell it resolved from, for ETB abilities (CR 107.3m)
    x: int = 0  # X while on the stack; 0 everywhere else (CR 107.3i)
    exerted_by: str | None = None  # the player who exerted it most recently (CR 701.43)
    exerted_turn: int | None = None  # the turn it was last exerted ("hasn't been exerted this turn")
    # each player whose next untap step it won't untap in: one entry per exerting player, since
    # each exert is tied to that player's next untap step (CR 701.43a)
    skip_untap_for: tuple[str, ...] = ()
    attacking: bool = False
    declared_attacker: bool = False
    blocking: int | None = None
    blocked: bool = False  # an attacker that had blockers declared stays blocked (CR 509.1h)
    crewed: bool = False
    # phased out: on the battlefield, but treated as though it doesn't exist (CR 702.26b);
    # it phases in during the untap step of the player it phased out under (702.26a)
    phased_out: bool = False
    phased_out_under: str | None = None
    phased_indirectly: bool = False
    targets: tuple[Any, ...] = ()  # a spell's chosen targets
    cast_from: Zone | None = None
    is_copy_spell: bool = False
    uncounterable: bool = False  # a spell that "can't be countered" (Cavern of Souls' mana)
    linked: tuple[int, ...] = ()  # cards its abilities exiled (CR 607.2a)
    control_seen: str | None = None  # the controller the last control check saw (CR 302.6)
    # look-back: set when it leaves a zone
    moved_to: int | None = None
    last_known: Characteristics | None = None
    last_controller: str | None = None

    def __setattr__(self, name: str, value: Any) -> None:
        if JOURNALS:  # an action is running: keep the fields as they were before the first change
            journal = JOURNALS[-1]
            if id(self) not in journal:
                try:
                    journal[id(self)] = (self, _object_fields(self), dict(self.counters))
                except AttributeError:  # being made: a new object, dropped with its id
                    journal[id(self)] = (self, None, None)
        object.__setattr__(self, name, value)

    def status_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "card": self.card.name,
            "owner": self.owner,
            "controller": self.controller,
            "zone": self.zone.value,
        }
        for key in ("token", "tapped", "attacking", "blocked", "crewed", "phased_out"):
            if getattr(self, key):
                out[key] = True
        if self.zone is Zone.BATTLEFIELD:
            out["sick"] = self.sick
        for key in ("counters", "choices"):
            if getattr(self, key):
                out[key] = dict(sorted(getattr(self, key).items()))
        for key in ("attached_to", "etb_x", "exerted_by", "blocking"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.skip_untap_for:
            out["skip_untap_for"] = list(self.skip_untap_for)
        if self.damage:
            out["damage"] = self.damage
        if self.linked:
            out["linked"] = list(self.linked)
        if self.x:
            out["x"] = self.x
        if self.copiable is not None:
            out["copiable"] = self.copiable.name
        return out


OBJECT_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(GameObject))
_object_fields = attrgetter(*OBJECT_FIELDS)
JOURNALS: list[dict[int, tuple[GameObject, tuple[Any, ...] | None, dict[str, int] | None]]] = []
"""One journal per running action (innermost last): each object written to during the
action, with its fields as they were (`Game.perform` puts them back if a refused action's
rollback replay fails). Counters are changed by replacing the dict, so the copy holds."""


@dataclass
class Player:
    """A player: name, life, mana pool and per-turn counts."""

    name: str
    life: int = 20
    pool: ManaPool = field(default_factory=ManaPool)
    lands_played: int = 0
    lost: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "life": self.life,
            "pool": self.pool.to_json(),
            "lands_played": self.lands_played,
        }


@dataclass
class StackItem:
    """A spell or ability on the stack (CR 405). Spells point at their object."""

    id: int
    kind: str  # "spell" | "ability"
    controller: str
    source: int | None  # the source object (for a spell, the spell object itself)
    source_name: str
    text: str
    ability: Ability | None = None  # Activated, Triggered or SpellAbility: the stack runs it
    targets: tuple[Any, ...] = ()
    x: int = 0
    trigger_event: int | None = None  # the event that triggered it
    origin_event: int | None = None  # the event that put it on the stack
    bound: dict[str, Any] = field(default_factory=dict)  # values remembered from triggering

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "controller": self.controller,
            "source": self.source,
            "text": self.text,
            "targets": list(self.targets),
        }


@dataclass
class PendingTrigger:
    """A triggered ability that has triggered but is not yet on the stack (CR 603.3)."""

    source: int
    source_name: str
    controller: str
    ability: Ability  # an `abilities.Triggered`: the rules that run it check its kind
    event: int  # the triggering event
    bound: dict[str, Any] = field(default_factory=dict)


@dataclass
class DelayedTrigger:
    """A delayed triggered ability waiting for its moment (CR 603.7)."""

    when: Step
    controller: str
    source: int | None
    source_name: str
    ability: Ability  # an `abilities.Triggered`
    event: int
    bound: dict[str, Any] = field(default_factory=dict)
    turn_after: int = 0  # triggers at the first `when` step of a turn >= this

    def to_json(self) -> dict[str, Any]:
        """What the log keeps of it: plain data, no live ability object."""
        return {"when": self.when.value, "controller": self.controller, "source": self.source,
                "source_name": self.source_name, "text": self.ability.text,
                "turn_after": self.turn_after}


class Lasting(Protocol):
    """What the state keeps of a continuous effect from a resolved spell or ability (CR 611.2):
    the layer system (`mtg_rulekit.objects.effects`) applies it. A protocol, so that the state never
    names the effect's callbacks and the rules context they take (no import cycle)."""

    @property
    def text(self) -> str: ...

    @property
    def duration(self) -> str: ...

    @property
    def source(self) -> int | None: ...

    def to_json(self) -> dict[str, object]: ...


@dataclass
class GameState:
    """Everything that changes as a game is played."""

    players: dict[str, Player]
    objects: dict[int, GameObject] = field(default_factory=dict)
    zones: dict[Zone, dict[int, None]] = field(
        default_factory=lambda: {z: {} for z in Zone if z is not Zone.NOWHERE}
    )
    libraries: dict[str, list[int]] = field(default_factory=dict)  # top first
    stack: list[StackItem] = field(default_factory=list)  # last is the top
    effects: list[Lasting] = field(default_factory=list)  # `effects.ContinuousEffect`s
    pending: list[PendingTrigger] = field(default_factory=list)
    delayed: list[DelayedTrigger] = field(default_factory=list)
    attachments: dict[int, int] = field(default_factory=dict)  # attached object id -> host id
    turn: int = 1
    active: str = ""
    step: Step = Step.MAIN1
    priority: str = ""
    passes: int = 0
    next_id: int = 1
    next_timestamp: int = 1
    awaiting_attackers: bool = False
    awaiting_blockers: bool = False
    # a creature was declared as an attacker or put onto the battlefield attacking in this
    # combat: else its declare blockers and combat damage steps are skipped (CR 506.1, 508.8),
    # even if every attacker has left combat since
    attacked: bool = False
    extra_combats: int = 0
    version: int = 0  # bumped by every committed event (cache key)
    shape_version: int = 0  # bumped when abilities or effects on the battlefield may change

    @property
    def order(self) -> list[str]:
        """Players in turn order."""
        return list(self.players)

    def apnap(self) -> list[str]:
        """Active player first, then the others in turn order (CR 101.4)."""
        names = self.order
        i = names.index(self.active) if self.active in names else 0
        return names[i:] + names[:i]

    def opponents(self, player: str) -> list[str]:
        return [p for p in self.players if p != player]

    def in_zone(self, zone: Zone) -> list[GameObject]:
        return [self.objects[i] for i in self.zones[zone]]

    def battlefield(self, controller: str | None = None) -> list[GameObject]:
        """Permanents, phased-out ones left out: they are treated as though they don't exist
        (CR 702.26b)."""
        objs = [self.objects[i] for i in self.zones[Zone.BATTLEFIELD]]
        return [o for o in objs if not o.phased_out
                and (controller is None or o.controller == controller)]

    def phased_out(self) -> list[GameObject]:
        """Phased-out permanents, by id (still on the battlefield, CR 702.26d)."""
        return [o for o in (self.objects[i] for i in self.zones[Zone.BATTLEFIELD])
                if o.phased_out]

    def owned_in(self, zone: Zone, owner: str) -> list[GameObject]:
        if zone is Zone.LIBRARY:
            return [self.objects[i] for i in self.libraries.get(owner, [])]
        return [o for o in self.in_zone(zone) if o.owner == owner]

    def new_id(self) -> int:
        self.next_id += 1
        return self.next_id - 1

    def new_timestamp(self) -> int:
        self.next_timestamp += 1
        return self.next_timestamp - 1
