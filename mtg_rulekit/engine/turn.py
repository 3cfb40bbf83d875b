"""The turn: steps in order, turn-based actions, mana emptying (CR 500-514)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mtg_rulekit.core import payloads as p
from mtg_rulekit.core.errors import RulesError
from mtg_rulekit.core.events import Cause
from mtg_rulekit.engine.combat import combat_damage
from mtg_rulekit.engine.control import detect_control_changes, end_effect
from mtg_rulekit.engine.targets import target_text
from mtg_rulekit.objects.abilities import Static
from mtg_rulekit.objects.effects import lasting
from mtg_rulekit.objects.resolution import draw_cards
from mtg_rulekit.objects.state import STEPS, Step, Zone

if TYPE_CHECKING:
    from mtg_rulekit.objects.context import RulesContext


def next_step(game: RulesContext) -> tuple[Step, bool]:
    """The step after the current one once all players have passed in it, and whether it
    starts a new turn. A cleanup step players had priority in is followed by another cleanup
    step (CR 514.3a); one without priority ends the turn straight away (`_begin_step`)."""
    state = game.state
    step = state.step
    if step is Step.END_COMBAT and state.extra_combats > 0:
        return Step.BEGIN_COMBAT, False
    if step is Step.DECLARE_ATTACKERS and not state.attacked \
            and not any(o.attacking for o in state.battlefield()):
        # no creature was declared as an attacker or put onto the battlefield attacking (one
        # attacking now was, if only by set-up): skip blockers and damage (CR 506.1, 508.8);
        # one that attacked and left combat since doesn't
        return Step.END_COMBAT, False
    if step is Step.CLEANUP:
        return Step.CLEANUP, False  # players had priority in it: another one (CR 514.3a)
    return STEPS[STEPS.index(step) + 1], False


def advance_step(game: RulesContext, parent: int | None,
                 then: tuple[Step, bool] | None = None) -> None:
    """End the current step and begin the next one (`then`: which, and whether it starts a
    new turn; by default `next_step`) with its turn-based actions."""
    state = game.state
    _end_of_step(game, parent)
    step, new_turn = then if then is not None else next_step(game)
    if new_turn:
        order = state.order
        nxt = order[(order.index(state.active) + 1) % len(order)]
        game.emit(p.TurnBegan(turn=state.turn + 1, player=nxt),
                  cause=Cause.TURN, parent=parent, rules=("500.1", "302.6"))
    extra = state.step is Step.END_COMBAT and step is Step.BEGIN_COMBAT
    began = game.emit(p.StepBegan(step=step.value, active=state.active, turn=state.turn,
                                  extra_combat=extra),
                      cause=Cause.TURN, parent=parent, rules=("500.1",))
    assert began is not None
    _begin_step(game, step, began.id, parent)


def _end_of_step(game: RulesContext, parent: int | None) -> None:
    state = game.state
    for player in state.players.values():
        if player.pool:
            game.emit(p.ManaEmptied(player=player.name, lost=player.pool.contents()),
                      cause=Cause.TURN,
                      parent=parent, rules=("500.5", "106.4"))


def _begin_step(game: RulesContext, step: Step, parent: int, root: int | None) -> None:
    state = game.state
    if step is Step.UNTAP:
        _untap_step(game, parent)
        # no player gets priority in the untap step, so what triggered waits (and state-based
        # actions aren't checked) until a player would get priority in the upkeep (CR 502.4)
        advance_step(game, root)
    elif step is Step.DRAW and state.turn > 1:
        draw_cards(game, state.active, 1, cause=Cause.TURN, parent=parent)
    elif step is Step.COMBAT_DAMAGE:
        combat_damage(game, parent)
    elif step is Step.CLEANUP:
        _cleanup(game, parent)
        while detect_control_changes(game, parent):  # "until end of turn" control ended (514.2)
            pass
        # normally no player gets priority in the cleanup step (CR 514.3): only if state-based
        # actions were performed or triggers were waiting does the active player get it (514.3a)
        seen = len(game.log)
        game.settle(parent)
        if len(game.log) == seen:
            advance_step(game, root, then=(Step.UNTAP, True))
            return
        game.note(p.Note(reason=p.Reason.CLEANUP_PRIORITY, player=state.active),
                  cause=Cause.RULE, parent=parent, rules=("514.3a",))
        return
    game.settle(parent)


def _phasing(game: RulesContext, parent: int) -> None:
    """First in the untap step, all at once: the active player's phased-in permanents with
    phasing phase out, and what phased out under that player phases in (CR 502.1, 702.26a);
    what is attached to a permanent phasing out phases out with it, indirectly."""
    state = game.state
    active = state.active
    going = [o for o in sorted(state.battlefield(), key=lambda o: o.id)
             if game.controller_of(o) == active and game.chars(o).has_keyword("Phasing")]
    attached = [o for o in sorted(state.battlefield(), key=lambda o: o.id)
                if o.attached_to in {g.id for g in going} and o not in going]
    coming = [o for o in state.phased_out() if o.phased_out_under == active]
    batch: list[tuple[p.Payload, int | None]] = [
        (p.Phased(object=o.id, phased_in=False, player=active, indirectly=o in attached), o.id)
        for o in going + attached]
    batch += [(p.Phased(object=o.id, phased_in=True, player=active,
                        indirectly=o.phased_indirectly), o.id) for o in coming]
    if batch:
        # it neither leaves nor enters the battlefield: the same permanent (CR 702.26d)
        game.emit_batch(batch, cause=Cause.TURN, parent=parent,
                        rules=("502.1", "702.26a", "702.26d"))


def _untap_step(game: RulesContext, parent: int) -> None:
    """Phasing first (CR 502.1), then untap the active player's permanents (502.3), except
    what an effect keeps tapped."""
    state = game.state
    active = state.active
    _phasing(game, parent)
    for obj in sorted(state.battlefield(), key=lambda o: o.id):
        exerted_here = active in obj.skip_untap_for  # one of several exerts (CR 701.43a)
        if game.controller_of(obj) != active:
            if exerted_here:  # the exerting player's next untap step has come (R14)
                game.emit(p.UntapSkipped(object=obj.id, clears_exert=True, exert_of=active,
                                         moved=True),
                          cause=Cause.TURN, parent=parent, rules=("701.43",), subject=obj.id)
            continue
        if exerted_here and not obj.tapped:
            game.emit(p.UntapSkipped(object=obj.id, clears_exert=True, exert_of=active,
                                     expired=True),
                      cause=Cause.TURN, parent=parent, rules=("701.43",), subject=obj.id)
            continue
        if not obj.tapped:
            continue
        if exerted_here:
            game.emit(p.UntapSkipped(object=obj.id, clears_exert=True, exert_of=active),
                      cause=Cause.TURN, parent=parent, rules=("701.43",), subject=obj.id)
            continue
        static = next((a for a in game.chars(obj).abilities
                       if isinstance(a, Static) and a.doesnt_untap), None)
        if static is not None:
            game.emit(p.UntapSkipped(object=obj.id, ability=static.text),
                      cause=Cause.TURN, parent=parent, rules=("502.3",), subject=obj.id)
            continue
        game.emit(p.Untapped(object=obj.id), cause=Cause.TURN, parent=parent,
                  rules=("502.3",), subject=obj.id)


MAX_HAND_SIZE = 7
"""Each player's maximum hand size (CR 402.2): no card in the catalog changes it."""


def _discard_to_hand_size(game: RulesContext, parent: int) -> None:
    """First in the cleanup step, the active player discards down to their maximum hand size,
    choosing which cards (CR 514.1): one answer to decision `discard` per card, by default
    the cards that came into the hand last. They go to the graveyard together (701.9a)."""
    state = game.state
    player = state.active
    hand = sorted(state.owned_in(Zone.HAND, player), key=lambda o: o.id)
    excess = len(hand) - MAX_HAND_SIZE
    if excess <= 0:
        return
    ids = [o.id for o in hand]
    chosen: list[int] = []
    for _ in range(excess):
        default = next(i for i in reversed(ids) if i not in chosen)
        answer = game.decide("discard", default, player)
        if answer not in ids or answer in chosen:
            raise RulesError(f"{target_text(game, answer)} is not a card in {player}'s hand "
                             f"not yet discarded: {player} discards {excess} of "
                             f"{', '.join(game.describe(o) for o in hand)} down to "
                             f"{MAX_HAND_SIZE} cards", rule="514.1")
        chosen.append(answer)
    game.emit_batch([(p.ZoneChanged(object=i, origin=Zone.HAND, destination=Zone.GRAVEYARD,
                                    reason="discard", player=player), i) for i in chosen],
                    cause=Cause.TURN, parent=parent, rules=("514.1", "701.9a"))


def _cleanup(game: RulesContext, parent: int) -> None:
    """The active player discards down to their maximum hand size (CR 514.1), then damage
    wears off and "until end of turn" effects end (CR 514.2)."""
    state = game.state
    _discard_to_hand_size(game, parent)

    for effect in list(lasting(state)):
        if effect.duration == "end_of_turn":
            end_effect(game, effect, parent=parent, cause=Cause.TURN, rules=("514.2",))
