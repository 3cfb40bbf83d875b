"""Control-changing effects (layer 2, CR 613.1b) and their end; a permanent that changes
controller is newly "sick" for its new controller (CR 302.6)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mtg_rulekit.core import payloads as p
from mtg_rulekit.core.events import Cause
from mtg_rulekit.objects.effects import ContinuousEffect, Layer
from mtg_rulekit.objects.state import GameObject

if TYPE_CHECKING:
    from mtg_rulekit.objects.context import RulesContext


def gain_control(game: RulesContext, obj: GameObject, player: str, *, until_end_of_turn: bool,
                 source: int | None, parent: int, cause: Cause) -> None:
    before = game.controller_of(obj)
    target = obj.id
    effect = ContinuousEffect(
        text=f"{player} controls {game.describe(obj)}"
        + (" until end of turn" if until_end_of_turn else ""),
        layer=Layer.CONTROL, timestamp=game.state.new_timestamp(), source=source,
        applies_to=lambda g, o, c: o.id == target, controller=player,
        duration="end_of_turn" if until_end_of_turn else "static",
        rules=("613.1b", "611.2"), id=game.new_id())
    game.emit(p.EffectBegan(effect=effect, effect_text=effect.text), cause=cause,
              parent=parent, rules=effect.rules, subject=obj.id)
    if game.controller_of(obj) != before:
        game.emit(p.ControlChanged(object=obj.id, player=player), cause=cause,
                  parent=parent, rules=("613.1b", "302.6"), subject=obj.id)


def end_effect(game: RulesContext, effect: ContinuousEffect, *, parent: int, cause: Cause,
               rules: tuple[str, ...]) -> None:
    """End an effect; if it changed control, the permanent goes back (and is "sick" again)."""
    affected = []
    if effect.layer is Layer.CONTROL:
        affected = [(o, game.controller_of(o)) for o in game.state.battlefield()
                    if effect.applies_to(game, o, o.card.printed)]
    game.emit(p.EffectEnded(effect=effect, effect_text=effect.text), cause=cause,
              parent=parent, rules=rules)
    for obj, before in affected:
        now = game.controller_of(obj)
        if now != before:
            game.emit(p.ControlChanged(object=obj.id, player=now), cause=cause,
                      parent=parent, rules=("613.1b", "302.6"), subject=obj.id)


def detect_control_changes(game: RulesContext, parent: int | None) -> bool:
    """After the board's shape changed (an Aura such as Control Magic arrived or left, an effect
    began or ended), find permanents whose controller is no longer the one last seen and record
    the change: a new controller means summoning sickness again (CR 613.1b, 302.6). Costs one
    pass over the battlefield per shape change, never per event."""
    state = game.state
    if game.books.control_shape == state.shape_version:
        return False
    game.books.control_shape = state.shape_version
    changed = [(o, game.controller_of(o)) for o in state.battlefield()
               if o.control_seen is not None and game.controller_of(o) != o.control_seen]
    origin = game.books.shape_event if game.books.shape_event is not None else parent
    for obj, now in changed:
        game.emit(p.ControlChanged(object=obj.id, player=now),
                  cause=Cause.RULE, parent=origin, rules=("613.1b", "302.6"), subject=obj.id)
    return bool(changed)
