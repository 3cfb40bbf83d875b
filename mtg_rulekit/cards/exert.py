"""Exert and its "when you do" triggers: Glory-Bound Initiate, Combat Celebrant, Tah-Crop Elite, Sandstorm Crasher (Oracle text lives in catalog.toml)."""

from __future__ import annotations

from typing import Any

from mtg_rulekit.cards.build import (
    add_abilities,
    creatures_you_control,
    keyword,
    pump,
    target,
)
from mtg_rulekit.cards.common import (
    FLYING,
    LIFELINK,
    is_creature_you_control,
    sacrifice_token,
    target_of,
    until_eot,
)
from mtg_rulekit.cards.registry import behaviour
from mtg_rulekit.core import payloads as p
from mtg_rulekit.core.events import Cause
from mtg_rulekit.engine.copy import create_token_copy
from mtg_rulekit.engine.delayed import at_next_end_step
from mtg_rulekit.engine.keywords import (
    exert_option,
    when_you_do,
)
from mtg_rulekit.objects.effects import Layer


def _glory(res: Any) -> None:
    me = res.current(res.source_id)
    if me is None:
        return
    name, ids = res.game.describe(me), frozenset({me.id})
    until_eot(res, f"{name} gets +1/+3 until end of turn", Layer.PT_MODIFYING, ids, pump(1, 3))
    until_eot(res, f"{name} gains lifelink until end of turn", Layer.ABILITY, ids, add_abilities(LIFELINK))


behaviour("Glory-Bound Initiate")(lambda: [
    exert_option(),
    when_you_do("When you do, it gets +1/+3 and gains lifelink until end of turn.", _glory),
])


def _celebrate(res: Any) -> None:
    game = res.game
    for obj in sorted(creatures_you_control(game, res.controller), key=lambda o: o.id):
        if obj.id != res.source_id and obj.tapped:
            res.untap(obj)
    game.emit(p.ExtraCombat(source_name=res.source_name),
              cause=Cause.ABILITY, parent=res.parent, rules=("500.8",))


behaviour("Combat Celebrant")(lambda: [
    exert_option("If this creature hasn't been exerted this turn, you may exert it as it "
                 "attacks.", once_per_turn=True),
    when_you_do("When you do, untap all other creatures you control and after this phase, "
                "there is an additional combat phase.", _celebrate),
])


def _tahcrop(res: Any) -> None:
    ids = frozenset(o.id for o in creatures_you_control(res.game, res.controller))
    until_eot(res, f"Creatures {res.controller} controls get +1/+1 until end of turn", Layer.PT_MODIFYING, ids,
         pump(1, 1))


behaviour("Tah-Crop Elite")(lambda: [
    FLYING,
    exert_option(),
    when_you_do("When you do, creatures you control get +1/+1 until end of turn.", _tahcrop),
])


def _crash(res: Any) -> None:
    original = target_of(res)
    if original is None:
        return
    made = create_token_copy(res, original, tapped=True, attacking=True)
    if made is not None and isinstance(made.payload, p.TokenCreated):
        at_next_end_step(res, "Sacrifice the token.", sacrifice_token,
                         {"token": made.payload.new})


behaviour("Sandstorm Crasher")(lambda: [
    keyword("Trample"),
    exert_option(),
    when_you_do("When you do, create a tapped and attacking token that's a copy of target "
                "creature you control. Sacrifice the token at the beginning of the next end "
                "step.", _crash, target=target("target creature you control",
                                               is_creature_you_control)),
])
