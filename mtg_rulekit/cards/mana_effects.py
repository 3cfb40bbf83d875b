"""Enchantments that add to, replace or restrict mana, or change what enters: Wild Growth, Mana Reflection, Contamination, Hardened Scales (Oracle text lives in catalog.toml)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from mtg_rulekit.cards.build import (
    add_abilities,
    as_enters,
    at_beginning_of,
    creatures_you_control,
    enters,
    static_effects,
    static_replacements,
    to_attached,
)
from mtg_rulekit.cards.common import ANY_COLOR, enchant, is_land
from mtg_rulekit.cards.lands import _choose
from mtg_rulekit.cards.mana_sources import _multiply
from mtg_rulekit.cards.registry import behaviour
from mtg_rulekit.core import payloads as p
from mtg_rulekit.core.errors import RulesError, UsageError
from mtg_rulekit.core.events import Event, EventKind, Outcome
from mtg_rulekit.core.mana import (
    Mana,
    ManaType,
)
from mtg_rulekit.objects.abilities import Triggered
from mtg_rulekit.objects.effects import Layer
from mtg_rulekit.objects.replacement import ReplacementEffect
from mtg_rulekit.objects.state import Step, Zone


def _tapped_for_mana_enchanted(game: Any, event: Event, source: Any) -> dict[str, Any] | None:
    """"Whenever enchanted land is tapped for mana": only when the ability resolved and
    produced mana (CR 106.12a, ruling R04)."""
    d = event.payload
    if not isinstance(d, p.ManaAdded) or not d.tapped_for_mana or not d.mana:
        return None
    if d.source != source.attached_to:
        return None
    host = game.state.objects[source.attached_to]
    return {"player": game.controller_of(host)}


def _add(symbol: str):
    def effect(res: Any) -> None:
        res.controller = res.bound.get("player", res.controller)
        color = res.source.choices.get("color", symbol) if symbol == "chosen" else symbol
        res.add_mana([ManaType(color)])
    return effect


behaviour("Wild Growth")(lambda: [
    enchant("land", is_land),
    Triggered(text="Whenever enchanted land is tapped for mana, its controller adds an "
              "additional {G}.", on=frozenset({EventKind.MANA_ADDED}),
              match=_tapped_for_mana_enchanted, effect=_add("G"), mana=True,
              rules=("106.12a", "605.1b")),
])


behaviour("Utopia Sprawl")(lambda: [
    enchant("Forest", lambda g, s, o: "Forest" in g.chars(o).subtypes),
    as_enters("As this Aura enters, choose a color.", _choose("color", "G", "Utopia Sprawl"),
              name="Utopia Sprawl: choose a color", rules=("614.12",), choice="color"),
    Triggered(text="Whenever enchanted Forest is tapped for mana, its controller adds an "
              "additional one mana of the chosen color.", on=frozenset({EventKind.MANA_ADDED}),
              match=_tapped_for_mana_enchanted, effect=_add("chosen"), mana=True,
              rules=("106.12a", "605.1b")),
])


def _draw_one(res: Any) -> None:
    res.draw(1)


behaviour("Abundant Growth")(lambda: [
    enchant("land", is_land),
    enters("When this Aura enters, draw a card.", _draw_one),
    static_effects('Enchanted land has "{T}: Add one mana of any color."',
                   to_attached("Enchanted land has \"{T}: Add one mana of any color.\"",
                                      Layer.ABILITY, add_abilities(ANY_COLOR))),
])


behaviour("Mana Reflection")(lambda: [static_replacements(
    "If you tap a permanent for mana, it produces twice as much of that mana instead.",
    _multiply("Mana Reflection", 2))])


def _land_tapped_for_mana(game: Any, event: Event, source: Any) -> dict[str, Any] | None:
    d = event.payload
    if not (isinstance(d, p.ManaAdded) and d.tapped_for_mana and d.source_is_land and d.mana):
        return None
    return {"player": d.player, "types": sorted(t.value for t in d.mana.types())}


def _flare(res: Any) -> None:
    res.controller = res.bound["player"]
    types = res.bound["types"]
    choice = str(res.decide("added_mana", types[0])).strip("{}")
    if choice not in types:
        raise RulesError(f"the land produced {', '.join(types)}, not {choice}", rule="106.12a")
    res.add_mana([ManaType(choice)])


for _flare_name in ("Mana Flare", "Heartbeat of Spring"):
    behaviour(_flare_name)(lambda: [Triggered(
        text="Whenever a player taps a land for mana, that player adds one mana of any type "
        "that land produced.", on=frozenset({EventKind.MANA_ADDED}), match=_land_tapped_for_mana,
        effect=_flare, mana=True, rules=("106.12a", "605.1b"))])


def _contamination(game: Any, source: Any) -> list[ReplacementEffect]:
    return [ReplacementEffect(
        name="Contamination", source=source.id, controller=game.controller_of(source),
        kind=EventKind.MANA_ADDED,
        applies=lambda g, d: d.tapped_for_mana and d.source_is_land and bool(d.mana),
        apply=lambda g, d: d.replace(mana=_one_black(d.mana)),
        outcome=Outcome.REPLACED, rules=("106.12b", "614.1a"), timestamp=source.timestamp)]


def _one_black(mana: Mana) -> Mana:
    """"{B} instead of any other type and amount": one black mana from the same source."""
    first = mana.first()
    assert first is not None
    return Mana.of([replace(first, type=ManaType.B)])


def _contamination_upkeep(res: Any) -> None:
    game = res.game
    me = res.current(res.source_id)
    if me is None:
        return
    creatures = creatures_you_control(game, res.controller)
    pick = res.decide("sacrifice", creatures[0].id if creatures else None)
    if pick is not None:
        victim = game.state.objects.get(int(str(pick).lstrip("#")))
        if victim is None:
            raise UsageError("decisions.sacrifice", f"there is no object {pick!r} in this game")
        if victim not in creatures:
            raise RulesError(f"{game.describe(victim)} is not a creature you control",
                             rule="701.21a")
        res.move([victim], Zone.GRAVEYARD, reason="sacrifice", rules=("701.21",))
    else:
        res.move([me], Zone.GRAVEYARD, reason="sacrifice", rules=("701.21",))


behaviour("Contamination")(lambda: [
    at_beginning_of(Step.UPKEEP, "At the beginning of your upkeep, sacrifice this enchantment "
                    "unless you sacrifice a creature.", _contamination_upkeep),
    static_replacements("If a land is tapped for mana, it produces {B} instead of any other "
                        "type and amount.", _contamination),
])


def _scales(game: Any, source: Any) -> list[ReplacementEffect]:
    me = game.controller_of(source)

    def on_put(g: Any, d: p.CountersPut) -> bool:
        obj = g.state.objects.get(d.object)
        return (d.counter == "+1/+1" and d.n >= 1 and obj is not None
                and g.controller_of(obj) == me and g.chars(obj).is_a("Creature"))

    def on_enter(g: Any, d: p.ZoneChanged | p.TokenCreated) -> bool:
        if not isinstance(d, p.Entered | p.TokenCreated) \
                or isinstance(d, p.Entered) and d.destination != Zone.BATTLEFIELD:
            return False
        if not d.counters.get("+1/+1"):
            return False
        if (d.controller or me) != me:
            return False
        return _entering_is_creature(g, d)

    def plus_one(g: Any, d: Any) -> Any:
        if isinstance(d, p.CountersPut):
            return d.replace(n=d.n + 1)
        counters = dict(d.counters)
        counters["+1/+1"] += 1
        return d.replace(counters=counters)

    text = "Hardened Scales"
    return [ReplacementEffect(name=text, source=source.id, controller=me, kind=kind,
                              applies=test, apply=plus_one, rules=("614.1a", "122.6"),
                              timestamp=source.timestamp)
            for kind, test in ((EventKind.COUNTERS_PUT, on_put),
                               (EventKind.ZONE_CHANGED, on_enter),
                               (EventKind.TOKEN_CREATED, on_enter))]


def _entering_is_creature(game: Any, d: p.Entered | p.TokenCreated) -> bool:
    if d.copiable is not None:
        return bool(d.copiable.is_a("Creature"))
    name = d.card if isinstance(d, p.SetUp | p.TokenCreated) else None
    if name is not None:
        return bool(game.card(name).printed.is_a("Creature"))
    assert isinstance(d, p.Entered) and d.object is not None
    return game.chars(game.state.objects[d.object]).is_a("Creature")


behaviour("Hardened Scales")(lambda: [static_replacements(
    "If one or more +1/+1 counters would be put on a creature you control, that many plus one "
    "+1/+1 counters are put on it instead.", _scales)])
