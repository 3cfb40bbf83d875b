"""The causal event log: frozen event records and what produced each one.

Every change to a game is an `Event`. Each event names its cause (a player action, a cost, an
ability resolving, a trigger, a state-based or turn-based action, a rule) and its parent event, so
the log is a tree of "this happened because of that". A replaced event keeps the proposed version
and the replacement effects that changed it. The log is append-only; diagrams, tables and tests
are views of it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mtg_rulekit.core.payloads import Payload


class EventKind(str, Enum):
    """What happened. The engine's pipeline proposes and commits events of these kinds."""

    ACTION = "action"  # a player (or the set-up) did something: the root of a causal tree
    TURN_BEGAN = "turn_began"
    STEP_BEGAN = "step_began"
    PRIORITY = "priority"  # a player passed priority
    MANA_EMPTIED = "mana_emptied"
    TAPPED = "tapped"
    UNTAPPED = "untapped"
    UNTAP_SKIPPED = "untap_skipped"  # an effect kept a permanent from untapping
    PHASED = "phased"  # a permanent phased in or out (CR 702.26)
    MANA_ADDED = "mana_added"
    MANA_SPENT = "mana_spent"
    COST_PAID = "cost_paid"
    ZONE_CHANGED = "zone_changed"
    TOKEN_CREATED = "token_created"
    CAST = "cast"
    ACTIVATED = "activated"
    MANA_ABILITY = "mana_ability"  # a mana ability resolved (CR 605.3b)
    TRIGGERED = "triggered"  # an ability triggered (CR 603.2)
    PUT_ON_STACK = "put_on_stack"  # a triggered ability was put on the stack (CR 603.3)
    RESOLVED = "resolved"
    COUNTERED = "countered"
    FIZZLED = "fizzled"  # all targets illegal on resolution (CR 608.2b)
    COUNTERS_PUT = "counters_put"
    COUNTERS_REMOVED = "counters_removed"
    DAMAGE = "damage"
    LIFE_GAINED = "life_gained"
    LIFE_LOST = "life_lost"
    DREW = "drew"
    CHOICE = "choice"
    EXERTED = "exerted"
    ATTACKS = "attacks"
    BLOCKS = "blocks"
    CONTROL_CHANGED = "control_changed"
    ATTACHED = "attached"
    EFFECT_BEGAN = "effect_began"
    EFFECT_ENDED = "effect_ended"
    TARGETED = "targeted"  # an object became the target of a spell or ability (CR 115.1)
    DELAYED_CREATED = "delayed_created"  # a delayed triggered ability was created (CR 603.7a)
    EXTRA_COMBAT = "extra_combat"  # an additional combat phase was added (CR 500.8)
    SPELL_COPIED = "spell_copied"  # a copy of a spell was put on the stack (CR 707.10)
    NOTE = "note"  # a rule explains what did (not) happen, e.g. undefined mana (CR 106.5)
    DECLARED = "declared"  # attackers or blockers were declared (CR 508.1, 509.1)
    SBA = "sba"  # a state-based action was performed (the moves it makes are its children)
    LOST = "lost"


class Cause(str, Enum):
    """The kind of thing that produced an event."""

    ACTION = "action"  # a player's action (or set-up)
    COST = "cost"  # paying a cost
    ABILITY = "ability"  # an ability (or spell) resolving
    TRIGGER = "trigger"  # an ability triggering
    REPLACEMENT = "replacement"  # a replacement effect created this event instead
    NOTE = "note"  # a rule explains what did (not) happen, e.g. undefined mana (CR 106.5)
    SBA = "sba"  # a state-based action
    TURN = "turn"  # a turn-based action or the turn structure
    RULE = "rule"  # a game rule (casting steps, priority, combat)


class Outcome(str, Enum):
    """What a replacement effect did to the event it applied to (CR 614.1)."""

    MODIFIED = "modified"  # the event happens, changed ("twice that much mana instead")
    REPLACED = "replaced"  # another event happens instead ("it produces {B} instead")
    PREVENTED = "prevented"  # the event doesn't happen (CR 615)

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class Applied:
    """One replacement effect applied to a proposed event (CR 614, 616)."""

    effect: str  # plain-words name, e.g. "Mana Reflection"
    source: int | None  # object id of the effect's source
    outcome: Outcome
    before: Payload  # the event as it was proposed to this effect
    after: Payload | None  # the event after it (None when prevented)
    rules: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "effect": self.effect,
            "source": self.source,
            "outcome": self.outcome.value,
            "before": self.before.to_json(),
            "after": self.after.to_json() if self.after is not None else None,
            "rules": list(self.rules),
        }


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened, with its cause. Immutable; ids count up from 1. `payload` is
    its facts as typed fields (`mtg_rulekit.core.payloads`); `text` is the narrator's words for it."""

    id: int
    kind: EventKind
    text: str  # the narrator's words (mtg_rulekit.objects.narrator), for every view
    cause: Cause
    parent: int | None  # the event that caused this one (None for a root action)
    action: int  # index of the player action during which it happened (0 = set-up)
    turn: int
    step: str
    rules: tuple[str, ...] = ()
    subject: int | None = None  # main object involved, if any
    payload: Payload | None = None  # None only for a prevented event (nothing happened)
    applied: tuple[Applied, ...] = ()  # replacement effects that changed the proposed event
    proposed: Payload | None = None  # the event as first proposed, when it changed

    @property
    def prevented(self) -> bool:
        """A replacement effect kept this event from happening (CR 615); logged for the
        record, nothing was committed."""
        return self.payload is None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "kind": self.kind.value,
            "text": self.text,
            "cause": self.cause.value,
            "parent": self.parent,
            "action": self.action,
            "turn": self.turn,
            "step": self.step,
            "rules": list(self.rules),
            "subject": self.subject,
            "data": self.payload.to_json() if self.payload is not None else {"prevented": True},
        }
        if self.applied:
            out["applied"] = [a.to_json() for a in self.applied]
            out["proposed"] = self.proposed.to_json() if self.proposed is not None else None
        return out


LOG_FORMAT = 2
"""The version of the log's JSON (`EventLog.dumps`). 2: notes and choices carry a `reason` key
(`payloads.Reason`) and names as data instead of their English (`says`), mana spent its
`purpose` as data (`payloads.Spending`), stack events their `ability_kind`, a skipped untap,
a lost game and state-based actions their reasons as data, an action the fields of its kind;
1 (unversioned): a bare list of events. `mtg_rulekit.core.log_json.read_log` reads both."""


class EventLog:
    """Append-only list of events with lookups by id, parent and action."""

    def __init__(self) -> None:
        self._events: list[Event] = []
        # an int for a single child, a list from the second on: fewer objects for the garbage
        # collector to walk in long logs (the 10,000-artifact benchmark)
        self._children: dict[int, int | list[int]] = {}

    def append(self, event: Event) -> None:
        if event.id != len(self._events) + 1:
            raise AssertionError("event ids must count up from 1")
        self._events.append(event)
        if event.parent is not None:
            kids = self._children.get(event.parent)
            if kids is None:
                self._children[event.parent] = event.id
            elif isinstance(kids, int):
                self._children[event.parent] = [kids, event.id]
            else:
                kids.append(event.id)

    def truncate(self, length: int) -> None:
        """Drop every event after the first `length`, as if they were never appended (how
        `Game.what_if` takes back what it tried: in time proportional to what is dropped)."""
        events, children = self._events, self._children
        while len(events) > length:
            event = events.pop()
            if event.parent is None:
                continue
            kids = children[event.parent]
            if isinstance(kids, int):
                del children[event.parent]
            else:
                kids.pop()
                if len(kids) == 1:
                    children[event.parent] = kids[0]

    def __len__(self) -> int:
        return len(self._events)

    def __iter__(self) -> Iterator[Event]:
        return iter(self._events)

    def __getitem__(self, event_id: int) -> Event:
        """The event with this id (ids start at 1)."""
        if not 1 <= event_id <= len(self._events):
            raise KeyError(event_id)
        return self._events[event_id - 1]

    @property
    def next_id(self) -> int:
        return len(self._events) + 1

    def children(self, event_id: int) -> list[Event]:
        kids = self._children.get(event_id, [])
        return [self[i] for i in ([kids] if isinstance(kids, int) else kids)]

    def since(self, event_id: int) -> list[Event]:
        """Events after `event_id` (exclusive)."""
        return self._events[event_id:]

    def of_action(self, action: int) -> list[Event]:
        return [e for e in self._events if e.action == action]

    def of_kind(self, *kinds: EventKind) -> list[Event]:
        return [e for e in self._events if e.kind in kinds]

    def ancestors(self, event_id: int) -> list[Event]:
        """The chain of causes from this event up to its root action."""
        chain, cur = [], self[event_id].parent
        while cur is not None:
            chain.append(self[cur])
            cur = self[cur].parent
        return chain

    def to_json(self) -> dict[str, Any]:
        """`{"format": LOG_FORMAT, "events": [...]}`: the log as JSON data."""
        return {"format": LOG_FORMAT, "events": [e.to_json() for e in self._events]}

    def dumps(self) -> str:
        """The whole log as JSON text (deterministic: same game, same bytes), in format
        `LOG_FORMAT` (docs/engine.md, "The log's JSON")."""
        return json.dumps(self.to_json(), indent=1, sort_keys=True, ensure_ascii=False)

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None, **_: Any) -> Any:
        """Jupyter shows the log as its event and trigger flow diagram (lazy import)."""
        from mtg_rulekit.display.flow import mimebundle

        return mimebundle(self, include, exclude)
