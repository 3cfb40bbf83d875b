"""Cipher (CR 702.99): a spell card exiled "encoded" on a creature, cast again as a copy.

As a spell with cipher resolves, if it is a card (not a copy), its controller may exile it
encoded on a creature they control (decision `encode`: the creature, or "no", the default, so
a walkthrough that doesn't mention cipher is unchanged). While the card stays in exile and the
creature on the battlefield (control may change, CR 702.99c), the creature has "Whenever this
creature deals combat damage to a player, you may copy the encoded card and you may cast the
copy without paying its mana cost" (decision `may`, yes by default; the copy's targets are
chosen as it is cast, decision `target`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mtg_rulekit.core import payloads as p
from mtg_rulekit.core.decisions import yes
from mtg_rulekit.core.errors import RulesError
from mtg_rulekit.core.events import Cause, Event, EventKind
from mtg_rulekit.engine.targets import announce, choose_targets
from mtg_rulekit.objects.abilities import SpellAbility, Static, Triggered
from mtg_rulekit.objects.effects import ContinuousEffect, Layer
from mtg_rulekit.objects.state import Zone

if TYPE_CHECKING:
    from mtg_rulekit.core.characteristics import Characteristics
    from mtg_rulekit.objects.context import RulesContext
    from mtg_rulekit.objects.resolution import Resolution
    from mtg_rulekit.objects.state import GameObject

TRIGGER_TEXT = ("Whenever this creature deals combat damage to a player, you may copy the "
                "encoded card and you may cast the copy without paying its mana cost.")


def cipher() -> Static:
    """The keyword itself: what it does happens in `encode`, called by the spell's effect."""
    return Static(text="Cipher", rules=("702.99a",))


def encode(res: Resolution) -> None:
    """The end of a cipher spell's resolution: maybe exile it encoded on a creature."""
    game = res.game
    spell = game.state.objects.get(res.source_id) if res.source_id is not None else None
    if spell is None or spell.zone is not Zone.STACK or spell.is_copy_spell:
        return  # only a spell represented by a card is encoded (CR 702.99a)
    name = game.chars(spell).name
    pick = res.decide("encode", "no")
    if pick in (None, "none") or not yes(pick):
        game.note(p.Choice(player=res.controller, reason=p.Reason.DOESNT_ENCODE, name=name),
                  cause=Cause.RULE, parent=res.parent, rules=("702.99a",))
        return
    host = game.state.objects.get(int(str(pick).lstrip("#")))
    if host is None or host.zone is not Zone.BATTLEFIELD or host.moved_to is not None \
            or not game.chars(host).is_a("Creature") or game.controller_of(host) != res.controller:
        raise RulesError(f"{name} can be encoded only on a creature {res.controller} controls",
                         rule="702.99a")
    moved = game.emit(p.ZoneChanged(object=spell.id, origin=Zone.STACK, destination=Zone.EXILE,
                                    reason="cipher", by=game.describe(host)),
        cause=Cause.ABILITY, parent=res.parent, rules=("702.99a", "702.99b"), subject=spell.id)
    if moved is None:
        return
    assert isinstance(moved.payload, p.ZoneChanged) and moved.payload.new is not None
    card_id, host_id = moved.payload.new, host.id

    def applies(g: RulesContext, o: GameObject, c: Characteristics) -> bool:
        card = g.state.objects[card_id]
        return o.id == host_id and card.zone is Zone.EXILE and card.moved_to is None

    trigger = Triggered(text=TRIGGER_TEXT, on=frozenset({EventKind.DAMAGE}),
                        match=_damage_match(card_id), effect=_cast_copy, rules=("702.99a",))
    effect = ContinuousEffect(
        text=f"{game.describe(host)} has \"{TRIGGER_TEXT}\" while {name} is encoded on it",
        layer=Layer.ABILITY, timestamp=game.state.new_timestamp(), source=card_id, applies_to=applies,
        modify=lambda c: c.evolve(abilities=c.abilities + (trigger,)),
        duration="while_encoded", rules=("702.99a", "702.99c"), id=game.new_id())
    game.emit(p.EffectBegan(effect=effect, effect_text=effect.text),
              cause=Cause.ABILITY, parent=moved.id, rules=effect.rules, subject=host_id)


def _damage_match(card_id: int) -> Any:
    def match(game: RulesContext, event: Event, source: GameObject) -> dict[str, Any] | None:
        d = event.payload
        if not isinstance(d, p.Damage) or d.source != source.id or not isinstance(d.target, str):
            return None
        if event.cause is not Cause.TURN:  # combat damage is dealt as a turn-based action
            return None
        return {"card": card_id}
    return match


def _cast_copy(res: Resolution) -> None:
    """Copy the encoded card and cast the copy without paying its mana cost (CR 702.99a,
    707.12): it goes on the stack with new targets, then resolves like the original."""

    game = res.game
    card = game.state.objects[res.bound["card"]]
    name = card.card.printed.name
    if card.zone is not Zone.EXILE or card.moved_to is not None:
        game.note(p.Note(reason=p.Reason.NOT_ENCODED, name=name),
                  cause=Cause.RULE, parent=res.parent, rules=("702.99c",))
        return
    if not yes(res.decide("may", True)):
        game.note(p.Choice(player=res.controller, reason=p.Reason.DOESNT_CAST_COPY, name=name),
                  cause=Cause.RULE, parent=res.parent, rules=("702.99a",))
        return
    spell = next((a for a in card.card.printed.abilities if isinstance(a, SpellAbility)), None)
    targets: tuple[int | str, ...] = ()
    if spell is not None and spell.target is not None:
        targets = choose_targets(game, card.id, res.controller, spell.target)
        if not targets:
            game.note(p.Note(reason=p.Reason.COPY_NO_TARGET, name=name), cause=Cause.RULE,
                      parent=res.parent, rules=("601.2c",))
            return
    new, item_id = game.new_id(), game.new_id()
    cast = game.emit(p.SpellCopied(
        object=card.id, new=new, item_id=item_id, controller=res.controller, name=name,
        copiable=card.card.printed, x=0, targets=tuple(targets), cast=True),
        cause=Cause.ABILITY, parent=res.parent, rules=("702.99a", "707.12"), subject=card.id)
    if cast is not None and targets:
        announce(game, item_id, res.controller, f"Copy of {name}", targets, cast.id)
