"""Lands and what they tap for: basic, "could produce", storage, painlands, shocklands, Cavern of Souls (Oracle text lives in catalog.toml)."""

from __future__ import annotations

from typing import Any

from mtg_rulekit.cards.build import (
    activated,
    as_enters,
    creatures_you_control,
    mana,
    target,
)
from mtg_rulekit.cards.registry import behaviour
from mtg_rulekit.core import payloads as p
from mtg_rulekit.core.decisions import choice_value, yes
from mtg_rulekit.core.errors import RulesError
from mtg_rulekit.core.events import Event, EventKind
from mtg_rulekit.core.mana import (
    UNCOUNTERABLE,
    cavern,
)
from mtg_rulekit.objects.abilities import Triggered
from mtg_rulekit.objects.production import (
    AnyColor,
    Combination,
    CouldProduceOf,
    Fixed,
    ProduceContext,
)
from mtg_rulekit.objects.state import Step

for _basic in ("Plains", "Island", "Swamp", "Mountain", "Forest", "Tropical Island", "Dryad Arbor"):
    behaviour(_basic)(lambda: [])  # mana abilities come from their land types (CR 305.6)


behaviour("Reflecting Pool")(lambda: [mana(
    "{T}", CouldProduceOf("you", text="one mana of any type that a land you control could produce"),
    "{T}: Add one mana of any type that a land you control could produce.")])


behaviour("Exotic Orchard")(lambda: [mana(
    "{T}", CouldProduceOf("opponents", colors_only=True),
    "{T}: Add one mana of any color that a land an opponent controls could produce.")])


def _count_creatures(ctx: ProduceContext) -> int:
    return len(creatures_you_control(ctx.game, ctx.controller))


behaviour("Gaea's Cradle")(lambda: [mana(
    "{T}", Fixed("G", per=_count_creatures), "{T}: Add {G} for each creature you control.")])


def _damage_controller(n: int):
    def effect(res: Any) -> None:
        res.damage(res.controller, n)
    return effect


def _becomes_tapped(game: Any, event: Event, source: Any) -> dict[str, Any] | None:
    return {} if p.object_of(event.payload) == source.id else None


behaviour("City of Brass")(lambda: [
    Triggered(text="Whenever this land becomes tapped, it deals 1 damage to you.",
              on=frozenset({EventKind.TAPPED}), match=_becomes_tapped,
              effect=_damage_controller(1), self_only=True, rules=("603.2",)),
    mana("{T}", AnyColor(), "{T}: Add one mana of any color."),
])


def _enters_tapped(extra_counters: dict[str, int] | None = None):
    def apply(game: Any, obj: Any, data: Any) -> Any:
        counters = dict(data.counters)
        for k, v in (extra_counters or {}).items():
            counters[k] = counters.get(k, 0) + v
        return data.replace(tapped=True, counters=counters)
    return apply


behaviour("Vivid Crag")(lambda: [
    as_enters("This land enters tapped with two charge counters on it.",
              _enters_tapped({"charge": 2}), name="Vivid Crag enters tapped with counters",
              rules=("614.1c",)),
    mana("{T}", Fixed("R"), "{T}: Add {R}."),
    mana("{T}, Remove a charge counter from this land", AnyColor(),
         "{T}, Remove a charge counter from this land: Add one mana of any color."),
])


def _storage(res: Any) -> None:
    if res.source is not None and res.current(res.source_id):
        res.put_counters(res.source, "storage", 1)


behaviour("Calciform Pools")(lambda: [
    mana("{T}", Fixed("C"), "{T}: Add {C}."),
    activated("{1}, {T}", "{1}, {T}: Put a storage counter on this land.", _storage),
    mana("{1}, Remove X storage counters from this land", Combination("WU", None),
         "{1}, Remove X storage counters from this land: Add X mana in any combination of {W} "
         "and/or {U}."),
])


def _choose(key: str, default: str, name: str):
    def apply(game: Any, obj: Any, data: Any) -> Any:
        choices = dict(data.choices)
        choices[key] = choice_value(f"decisions.{key}", key,
                                    game.decide(key, default, data.controller))
        return data.replace(choices=choices)
    return apply


def _cavern_restriction(ctx: ProduceContext) -> Any:
    return cavern(ctx.source.choices.get("creature_type", "Human"))


behaviour("Cavern of Souls")(lambda: [
    as_enters("As this land enters, choose a creature type.",
              _choose("creature_type", "Human", "Cavern of Souls"),
              name="Cavern of Souls: choose a creature type", rules=("614.12",),
              choice="creature_type"),
    mana("{T}", Fixed("C"), "{T}: Add {C}."),
    mana("{T}", AnyColor(restriction_of=_cavern_restriction, rider=UNCOUNTERABLE),
         "{T}: Add one mana of any color. Spend this mana only to cast a creature spell of the "
         "chosen type, and that spell can't be countered."),
])


def _end_of_combat_only(game: Any, obj: Any) -> str | None:
    if game.state.step is not Step.END_COMBAT:
        return "activate only during the end of combat step"
    return None


def _desert_ping(res: Any) -> None:
    for t in res.targets:
        obj = res.current(t)
        if obj is not None:
            res.damage(obj, 1)


behaviour("Desert")(lambda: [
    mana("{T}", Fixed("C"), "{T}: Add {C}."),
    activated("{T}", "{T}: This land deals 1 damage to target attacking creature. Activate only "
              "during the end of combat step.", _desert_ping,
              target=target("target attacking creature",
                            lambda g, s, o: g.chars(o).is_a("Creature") and o.attacking),
              condition=_end_of_combat_only),
])


def _shockland(game: Any, obj: Any, data: Any) -> Any:
    pay = yes(game.decide("pay_life", False, data.controller))
    if pay and game.state.players[data.controller].life < 2:
        raise RulesError(f"{data.controller} has {game.state.players[data.controller].life} "
                         "life and can't pay 2 life", rule="119.4")
    return data.replace(pay_life=2) if pay else data.replace(tapped=True)


behaviour("Watery Grave")(lambda: [
    as_enters("As this land enters, you may pay 2 life. If you don't, it enters tapped.",
              _shockland, name="Watery Grave: pay 2 life or enter tapped", rules=("614.12",)),
])


def _urza(ctx: ProduceContext) -> int:
    names = {ctx.game.chars(o).name for o in ctx.game.permanents(ctx.controller)}
    return 2 if {"Urza's Power-Plant", "Urza's Tower"} <= names else 1


behaviour("Urza's Mine")(lambda: [mana(
    "{T}", Fixed("C", per=_urza),
    "{T}: Add {C}. If you control an Urza's Power-Plant and an Urza's Tower, add {C}{C} instead.")])


behaviour("Havenwood Battleground")(lambda: [
    as_enters("This land enters tapped.", _enters_tapped(), name="Havenwood Battleground "
              "enters tapped", rules=("614.1c",)),
    mana("{T}", Fixed("G"), "{T}: Add {G}."),
    mana("{T}, Sacrifice this land", Fixed("GG"), "{T}, Sacrifice this land: Add {G}{G}."),
])
