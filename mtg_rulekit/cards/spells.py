"""Instants and sorceries: Giant Growth, Tolarian Terror, counterspells, damage and destruction (Oracle text lives in catalog.toml)."""

from __future__ import annotations

from typing import Any

from mtg_rulekit.cards.build import (
    add_abilities,
    pump,
    target,
    until_end_of_turn,
)
from mtg_rulekit.cards.common import HASTE, is_creature, target_of, until_eot
from mtg_rulekit.cards.registry import behaviour
from mtg_rulekit.core import payloads as p
from mtg_rulekit.core.events import Cause
from mtg_rulekit.core.mana import (
    ManaCost,
)
from mtg_rulekit.engine.control import gain_control
from mtg_rulekit.engine.keywords import (
    CostReduction,
    counter_unless_pays,
    spell_item,
    ward,
)
from mtg_rulekit.objects.abilities import SpellAbility, TargetSpec
from mtg_rulekit.objects.effects import Layer
from mtg_rulekit.objects.state import Zone


def _excavate(res: Any) -> None:
    for _ in range(3):
        res.create_token("Powerstone", tapped=True)
    res.gain_life(3)


behaviour("Fallaji Excavation")(lambda: [SpellAbility(
    text="Create three tapped Powerstone tokens. You gain 3 life.", effect=_excavate)])


def _giant_growth(res: Any) -> None:
    for t in res.targets:
        obj = res.current(t)
        if obj is not None:
            oid = obj.id
            res.add_effect(until_end_of_turn(res.game, res.source_id,
                                             f"{res.game.describe(obj)} gets +3/+3 until end of "
                                             "turn", Layer.PT_MODIFYING, _is_object(oid),
                                             pump(3, 3)))


behaviour("Giant Growth")(lambda: [SpellAbility(
    text="Target creature gets +3/+3 until end of turn.", effect=_giant_growth,
    target=target("target creature", lambda g, s, o: g.chars(o).is_a("Creature")))])


def _is_object(oid: int) -> Any:
    """An `applies` test for an effect on one object."""
    def applies(game: Any, obj: Any, chars: Any) -> bool:
        return bool(obj.id == oid)
    return applies


def _spells_in_graveyard(game: Any, spell: Any) -> int:
    return sum(1 for o in game.state.owned_in(Zone.GRAVEYARD, spell.owner)
               if game.chars(o).is_a("Instant") or game.chars(o).is_a("Sorcery"))


behaviour("Tolarian Terror")(lambda: [
    CostReduction(text="This spell costs {1} less to cast for each instant and sorcery card in "
                  "your graveyard.", reduction=_spells_in_graveyard, rules=("601.2f",)),
    ward("{2}"),
])


def _treason(res: Any) -> None:
    obj = target_of(res)
    if obj is None:
        return
    gain_control(res.game, obj, res.controller, until_end_of_turn=True, source=res.source_id,
                 parent=res.parent, cause=Cause.ABILITY)
    if obj.tapped:
        res.untap(obj)
    until_eot(res, f"{res.game.describe(obj)} gains haste until end of turn", Layer.ABILITY,
         frozenset({obj.id}), add_abilities(HASTE))


behaviour("Act of Treason")(lambda: [SpellAbility(
    text="Gain control of target creature until end of turn. Untap that creature. It gains "
    "haste until end of turn.", effect=_treason, target=target("target creature", is_creature),
    rules=("613.1b",))])


def _mana_leak(res: Any) -> None:
    item = spell_item(res.game, res.targets[0]) if res.targets else None
    if item is not None:
        counter_unless_pays(res, item, ManaCost.parse("{3}"), item.controller,
                            p.Spending(p.Paying.UNLESS, source="Mana Leak", spell=item.text,
                                       cost="{3}"), rules=("118.12",))


behaviour("Mana Leak")(lambda: [SpellAbility(
    text="Counter target spell unless its controller pays {3}.", effect=_mana_leak,
    target=TargetSpec(text="target spell", legal=lambda g, s, o: True, objects=False,
                      spells=True),
    rules=("701.6a",))])


def _shock(res: Any) -> None:
    if not res.targets:
        return
    t = res.targets[0]
    victim = t if isinstance(t, str) else res.current(t)
    if victim is not None:
        res.damage(victim, 2)


behaviour("Shock")(lambda: [SpellAbility(
    text="Shock deals 2 damage to any target.", effect=_shock,
    target=target("any target", lambda g, s, o: isinstance(o, str) or any(
        g.chars(o).is_a(t) for t in ("Creature", "Planeswalker", "Battle")), players=True),
    rules=("115.4",))])


def _pyroclasm(res: Any) -> None:
    game = res.game
    creatures = [o for o in game.state.battlefield() if game.chars(o).is_a("Creature")]
    if creatures:  # all at once (CR 120.3)
        game.emit_batch([(p.Damage(source=res.source_id, source_name=res.source_name,
                                   target=o.id, amount=2), o.id)
                         for o in sorted(creatures, key=lambda o: o.id)],
                        cause=Cause.ABILITY, parent=res.parent, rules=("120.3",))


behaviour("Pyroclasm")(lambda: [SpellAbility(
    text="Pyroclasm deals 2 damage to each creature.", effect=_pyroclasm)])


def _destroy_target(res: Any) -> None:
    obj = target_of(res)
    if obj is not None:
        res.move([obj], Zone.GRAVEYARD, reason="destroy", rules=("701.8",))


behaviour("Naturalize")(lambda: [SpellAbility(
    text="Destroy target artifact or enchantment.", effect=_destroy_target,
    target=target("target artifact or enchantment",
                  lambda g, s, o: not isinstance(o, str) and (
                      g.chars(o).is_a("Artifact") or g.chars(o).is_a("Enchantment"))))])


def _shatterstorm(res: Any) -> None:
    game = res.game
    artifacts = sorted((o for o in game.state.battlefield() if game.chars(o).is_a("Artifact")),
                       key=lambda o: o.id)
    if artifacts:  # one simultaneous event (CR 603.10a look-back; ruling R11)
        res.move(artifacts, Zone.GRAVEYARD, reason="destroy", rules=("701.8",))


behaviour("Shatterstorm")(lambda: [SpellAbility(
    text="Destroy all artifacts. They can't be regenerated.", effect=_shatterstorm)])


def _bounce(res: Any) -> None:
    obj = target_of(res)
    if obj is not None:
        res.move([obj], Zone.HAND, reason="bounce", rules=("400.7",))


behaviour("Boomerang")(lambda: [SpellAbility(
    text="Return target permanent to its owner's hand.", effect=_bounce,
    target=target("target permanent", lambda g, s, o: not isinstance(o, str)))])
