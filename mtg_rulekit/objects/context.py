"""What the rules see of a game: the narrow interface every rules module works on.

The rules modules (actions, resolution, triggers, state-based actions, the stack, combat, the
cards...) are typed against `RulesContext`, not against `Game`: the state, the log, the one
event pipeline (`emit`), the characteristics and controller of an object as the layers make them,
the caller's decisions, and the pipeline's bookkeeping. mypy checks that they use nothing else,
so a rules module can't climb back into the rest of `Game` (its public action methods, undo,
snapshots, display). `Game` is the one implementation.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from mtg_rulekit.core.characteristics import CardDef, Characteristics
    from mtg_rulekit.core.events import Cause, Event, EventKind, EventLog
    from mtg_rulekit.core.mana import ManaType
    from mtg_rulekit.core.payloads import Payload
    from mtg_rulekit.objects.replacement import ReplacementEffect
    from mtg_rulekit.objects.state import DelayedTrigger, GameObject, GameState, PendingTrigger


@dataclass
class Bookkeeping:
    """What the pipeline remembers between events. Not game state: never logged, and rebuilt
    when an action is undone (replay starts from a fresh game)."""

    dirty: set[int] = field(default_factory=set)  # objects the next SBA check looks at
    sba_shape: int = -1  # the board shape the last state-based action check saw
    control_shape: int = -1  # the board shape the last control check saw
    shape_event: int | None = None  # the event that last changed the board's shape
    # how each object last existed, for one simultaneous batch (CR 603.10a)
    look_back: dict[int, tuple[Characteristics, str]] = field(default_factory=dict)
    pending_mana: list[PendingTrigger] = field(default_factory=list)  # triggered mana abilities (605.4a)
    immediate: list[PendingTrigger] = field(default_factory=list)  # "until" returns due at once (610.3)


class RulesContext(Protocol):
    """The game as the rules modules see it (implemented by `mtg_rulekit.game.Game`)."""

    state: GameState
    log: EventLog
    books: Bookkeeping
    current_action: str  # the name of the player action being performed

    # -- the one way anything happens
    def emit(self, payload: Payload, *, cause: Cause, parent: int | None,
             rules: Iterable[str] = (), subject: int | None = None) -> Event | None: ...

    def emit_batch(self, proposals: list[tuple[Payload, int | None]], *, cause: Cause,
                   parent: int | None, rules: Iterable[str] = ()) -> list[Event | None]: ...

    def note(self, payload: Payload, *, cause: Cause, parent: int | None,
             rules: Iterable[str] = (), subject: int | None = None) -> Event: ...

    def settle(self, parent: int | None) -> None: ...

    def advance_step(self, parent: int | None) -> None: ...

    def touched(self, obj: GameObject | None, *, shape: bool = False) -> None: ...

    # -- the pipeline's own bookkeeping of the state: ids, the triggers waiting (CR 603.3)
    def new_id(self) -> int: ...

    def queue_trigger(self, trigger: PendingTrigger, *,
                      fired: DelayedTrigger | None = None) -> None: ...

    def take_triggers(self) -> list[PendingTrigger]: ...

    # -- objects as the rules see them
    def obj(self, ref: GameObject | int) -> GameObject: ...

    def chars(self, obj: GameObject | int) -> Characteristics: ...

    def controller_of(self, obj: GameObject | int) -> str: ...

    def mana_value(self, obj: GameObject | int) -> int: ...

    def permanents(self, controller: str | None = None) -> list[GameObject]: ...

    def could_produce(self, obj: GameObject | int) -> frozenset[ManaType]: ...

    def replacements_for(self, kind: EventKind) -> list[ReplacementEffect]: ...

    # -- the content: the card catalog lives outside the rules (XMage's CardRepository)
    def card(self, name: str) -> CardDef: ...

    # -- paying: mana abilities activated while a cost is paid (CR 605.3a)
    def mana_while_paying(self, player: str, parent: int) -> None: ...

    # -- words and choices
    def describe(self, obj: GameObject | int) -> str: ...

    def target_text(self, target: Any) -> str: ...

    def decide(self, key: str, default: Any, player: str | None = None) -> Any: ...

    def answers_left(self, key: str) -> bool: ...
