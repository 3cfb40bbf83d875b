"""Priority and the stack: passing (CR 117.3-117.4) and resolving the top object (CR 608)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mtg_rulekit.core import payloads as p
from mtg_rulekit.core.events import Cause
from mtg_rulekit.engine.combat import declare_attackers, declare_blockers
from mtg_rulekit.engine.targets import is_legal
from mtg_rulekit.objects.abilities import SpellAbility, Triggered, runnable
from mtg_rulekit.objects.narrator import item_name
from mtg_rulekit.objects.resolution import Resolution
from mtg_rulekit.objects.state import Zone

if TYPE_CHECKING:
    from mtg_rulekit.objects.context import RulesContext
    from mtg_rulekit.objects.state import GameObject


def pass_priority(game: RulesContext, parent: int | None) -> None:
    """The player with priority passes; when all have passed in a row, the top of the stack
    resolves, or the step ends if the stack is empty (CR 117.4)."""
    state = game.state
    if state.awaiting_attackers:
        declare_attackers(game, [], [], parent)  # passing first: no attackers (CR 508.1)
    if state.awaiting_blockers:
        declare_blockers(game, {}, parent)  # passing first: no blockers (CR 509.1)
    game.emit(p.Priority(player=state.priority), cause=Cause.ACTION, parent=parent,
              rules=("117.3d",))
    if state.passes < len(state.players):
        return
    if state.stack:
        resolve_top(game, parent)
    else:
        game.advance_step(parent)


def pass_all(game: RulesContext, parent: int | None) -> None:
    """Every player passes in succession, starting with the one who has priority (one event
    for the round, CR 117.4): the top of the stack resolves, or the step ends."""
    state = game.state
    if state.awaiting_attackers:
        declare_attackers(game, [], [], parent)  # passing first: no attackers (CR 508.1)
    if state.awaiting_blockers:
        declare_blockers(game, {}, parent)  # passing first: no blockers (CR 509.1)
    order = state.order
    start = order.index(state.priority)
    players = order[start:] + order[:start]
    game.emit(p.Priority(player=state.priority, all=tuple(players)), cause=Cause.ACTION,
              parent=parent, rules=("117.4",))
    if state.stack:
        resolve_top(game, parent)
    else:
        game.advance_step(parent)


def resolve_top(game: RulesContext, parent: int | None) -> None:
    """Resolve the top of the stack (CR 608.2), then state-based actions and triggers."""
    state = game.state
    item = state.stack[-1]
    ability = runnable(item.ability)
    spec = ability.target if ability is not None else None
    obj = state.objects.get(item.source) if item.kind == "spell" and item.source else None
    if obj is not None:
        spell = next((a for a in obj.card.printed.abilities if isinstance(a, SpellAbility)), None)
        spec = spell.target if spell else None
    if spec is not None and item.targets and not any(
        is_legal(game, item.source, spec, t) for t in item.targets
    ):
        fizzled = game.emit(p.Fizzled(item_id=item.id, text=item_name(item)),
            cause=Cause.RULE, parent=parent, rules=("608.2b",), subject=item.source)
        if obj is not None and fizzled is not None:
            _to_graveyard(game, obj, fizzled.id)
        _after(game, parent)
        return
    resolved = game.emit(p.Resolved(item_id=item.id, item_kind=item.kind,
                                    source_name=item.source_name, text=item.text,
                                    ability=item.ability.text if item.ability else "",
                                    ability_kind=item.ability.family
                                    if item.ability and item.kind == "ability" else None,
                                    trigger_event=item.trigger_event),
                         # resolving it gives the active player priority (CR 117.3b)
                         cause=Cause.RULE, parent=item.origin_event or parent,
                         rules=("608.2", "117.3b"), subject=item.source)
    assert resolved is not None
    if obj is not None:
        chars = game.chars(obj)
        spell = next((a for a in chars.abilities if isinstance(a, SpellAbility)), None)
        if chars.is_a("Instant") or chars.is_a("Sorcery"):
            if spell and spell.effect:
                spell.effect(Resolution(game, obj.id, item.controller, resolved.id,
                                        targets=item.targets, x=obj.x, ability=spell))
            if game.state.objects[obj.id].zone is Zone.STACK:
                _to_graveyard(game, obj, resolved.id)
        else:
            # a permanent spell becomes a permanent (CR 608.3); ETB abilities see the spell's X
            game.emit(p.Entered(
                object=obj.id, origin=Zone.STACK, destination=Zone.BATTLEFIELD,
                controller=item.controller, etb_x=obj.x, reason="resolve",
                attach_to=int(item.targets[0]) if spell is not None and item.targets else None,
                x_cost=bool(chars.mana_cost.x_count)),
                cause=Cause.RULE, parent=resolved.id,
                rules=("608.3", "707.10f") if obj.is_copy_spell else ("608.3",), subject=obj.id)
    elif isinstance(ability, Triggered) and ability.condition is not None \
            and item.source is not None and not ability.condition(game, game.obj(item.source)):
        game.note(p.Note(reason=p.Reason.CONDITION_FALSE, name=item.source_name,
                         condition=ability.condition_text),
                  cause=Cause.RULE, parent=resolved.id, rules=("603.4",),
                  subject=item.source)  # intervening "if" checked again (CR 603.4)
    elif ability is not None and ability.effect is not None:
        ability.effect(Resolution(game, item.source, item.controller, resolved.id,
                                  targets=item.targets, x=item.x, bound=item.bound,
                                  ability=ability))
    _after(game, parent)


def _to_graveyard(game: RulesContext, obj: GameObject, parent: int) -> None:
    game.emit(p.ZoneChanged(object=obj.id, origin=Zone.STACK, destination=Zone.GRAVEYARD,
                            reason="resolve"),
              cause=Cause.RULE, parent=parent, rules=("608.2n",), subject=obj.id)


def _after(game: RulesContext, parent: int | None) -> None:
    game.settle(parent)
