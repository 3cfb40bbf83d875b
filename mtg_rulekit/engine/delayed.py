"""Delayed triggered abilities (CR 603.7): created by a resolving spell or ability ("sacrifice it
at the beginning of the next end step"), they wait in `GameState.delayed` and trigger once, the
next time their moment comes (CR 603.7b)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from mtg_rulekit.core import payloads as p
from mtg_rulekit.core.events import Cause, Event
from mtg_rulekit.objects.abilities import Triggered
from mtg_rulekit.objects.state import STEPS, DelayedTrigger, PendingTrigger, Step

if TYPE_CHECKING:
    from mtg_rulekit.objects.context import RulesContext
    from mtg_rulekit.objects.resolution import Resolution


def at_next_end_step(res: Resolution, text: str, effect: Callable[[Resolution], None],
                     bound: dict[str, Any]) -> Event | None:
    """Create "at the beginning of the next end step, ..." (CR 603.7a). If this turn's end step
    has already begun, the next one is next turn's. Its source and controller are those of the
    ability that created it (CR 603.7e)."""
    game = res.game
    state = game.state
    later = STEPS.index(state.step) < STEPS.index(Step.END)
    delayed = DelayedTrigger(
        when=Step.END, controller=res.controller, source=res.source_id,
        source_name=res.source_name,
        ability=Triggered(text=text, effect=effect, rules=("603.7a", "603.7b")),
        event=res.parent, bound=dict(bound), turn_after=state.turn if later else state.turn + 1)
    return game.emit(p.DelayedCreated(delayed=delayed, ability=text, source_name=res.source_name,
                                      step=Step.END.value),
        cause=Cause.ABILITY, parent=res.parent, rules=("603.7a",), subject=res.source_id)


def fire(game: RulesContext, event: Event) -> None:
    """A step began: delayed triggers waiting for it trigger now, once each (CR 603.7b).
    Like any trigger this is bookkeeping of the logged STEP_BEGAN event."""
    state = game.state
    step = event.payload.step if isinstance(event.payload, p.StepBegan) else None
    for delayed in list(state.delayed):
        if delayed.when.value != step or state.turn < delayed.turn_after:
            continue
        game.queue_trigger(PendingTrigger(
            source=delayed.source if delayed.source is not None else 0,
            source_name=delayed.source_name, controller=delayed.controller,
            ability=delayed.ability, event=event.id, bound=dict(delayed.bound)), fired=delayed)
