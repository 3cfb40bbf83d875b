"""Mana riders: what mana does when it is spent (CR 106.6), beyond paying.

Arena of Glory's {R}{R}: "If that mana is spent on a creature spell, it gains haste until end of
turn" (the permanent the spell becomes keeps the effect, CR 400.7a). Cavern of Souls' mana: the
creature spell it is spent on "can't be countered" (CR 101.2: the "can't" wins).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mtg_rulekit.core import payloads as p
from mtg_rulekit.core.events import Cause, Event
from mtg_rulekit.core.mana import Mana
from mtg_rulekit.objects.abilities import Keyword
from mtg_rulekit.objects.effects import ContinuousEffect, Layer

if TYPE_CHECKING:
    from mtg_rulekit.core.characteristics import Characteristics
    from mtg_rulekit.objects.context import RulesContext
    from mtg_rulekit.objects.state import GameObject

HASTE = Keyword(text="Haste", keyword="Haste")


def riders_of(mana: Mana) -> set[str]:
    return {u.rider.key for u, n in mana.parts if n and u.rider is not None}


def spent_data(spell: GameObject, chars: Characteristics, mana: Mana) -> int | None:
    """The spell the MANA_SPENT event of casting `spell` makes uncounterable, if any: "that
    spell can't be countered" is marked on the spell as the mana is spent."""
    if chars.is_a("Creature") and "uncounterable" in riders_of(mana):
        return spell.id
    return None


def after_spending(game: RulesContext, spell: GameObject, chars: Characteristics, mana: Mana,
                   spent: Event | None) -> None:
    """The haste rider: a creature spell cast with that mana gains haste until end of turn,
    and so does the permanent it becomes (CR 106.6, 400.7a)."""
    if spent is None or not chars.is_a("Creature") or "haste" not in riders_of(mana):
        return
    sid = spell.id

    def applies(g: RulesContext, o: GameObject, c: Characteristics) -> bool:
        return o.id == sid or o.id == g.state.objects[sid].moved_to

    effect = ContinuousEffect(
        text=f"{chars.name} (#{sid}) gains haste until end of turn (Arena of Glory's mana was "
        "spent on it)", layer=Layer.ABILITY, timestamp=game.state.new_timestamp(), source=None,
        applies_to=applies, modify=lambda c: c.evolve(abilities=c.abilities + (HASTE,)),
        duration="end_of_turn", rules=("106.6", "400.7a"), id=game.new_id())
    game.emit(p.EffectBegan(effect=effect, effect_text=effect.text),
              cause=Cause.ABILITY, parent=spent.id, rules=effect.rules, subject=sid)
