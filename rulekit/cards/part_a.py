"""Behaviour of the Part A cards: mana, costs and casting. Oracle text lives in catalog.toml."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rulekit.abilities import SpellAbility, Static, Triggered
from rulekit.arguments import choice_value
from rulekit.cards import behaviour
from rulekit.cards.build import (
    activated,
    add_abilities,
    as_enters,
    at_beginning_of,
    creatures_you_control,
    enters,
    keyword,
    mana,
    pump,
    static_effects,
    static_replacements,
    target,
    until_end_of_turn,
)
from rulekit.decisions import yes
from rulekit.effects import ContinuousEffect
from rulekit.errors import RulesError, UsageError
from rulekit.events import Event, EventKind
from rulekit.mana import (
    POWERSTONE,
    UNCOUNTERABLE,
    Mana,
    ManaCost,
    ManaType,
    SpendContext,
    cavern,
)
from rulekit.paying import spend_mana
from rulekit.production import AnyColor, Combination, CouldProduceOf, Fixed, ProduceContext
from rulekit.replacement import ReplacementEffect
from rulekit.state import Step, Zone

# ---------------------------------------------------------------- lands
for _basic in ("Plains", "Island", "Swamp", "Mountain", "Forest", "Tropical Island", "Dryad Arbor"):
    behaviour(_basic)(lambda: [])  # mana abilities come from their land types (CR 305.6)

behaviour("Wastes")(lambda: [mana("{T}", Fixed("C"), "{T}: Add {C}.")])

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
    return {} if event.data.get("object") == source.id else None


behaviour("City of Brass")(lambda: [
    Triggered(text="Whenever this land becomes tapped, it deals 1 damage to you.",
              on=frozenset({EventKind.TAPPED}), match=_becomes_tapped,
              effect=_damage_controller(1), self_only=True, rules=("603.2",)),
    mana("{T}", AnyColor(), "{T}: Add one mana of any color."),
])


def _enters_tapped(extra_counters: dict[str, int] | None = None):
    def apply(game: Any, obj: Any, data: dict[str, Any]) -> dict[str, Any]:
        data["tapped"] = True
        if extra_counters:
            counters = dict(data.get("counters") or {})
            for k, v in extra_counters.items():
                counters[k] = counters.get(k, 0) + v
            data["counters"] = counters
        return data
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
    def apply(game: Any, obj: Any, data: dict[str, Any]) -> dict[str, Any]:
        choices = dict(data.get("choices") or {})
        choices[key] = choice_value(f"decisions.{key}", key,
                                    game.decide(key, default, data.get("controller")))
        data["choices"] = choices
        return data
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


def _shockland(game: Any, obj: Any, data: dict[str, Any]) -> dict[str, Any]:
    pay = yes(game.decide("pay_life", False, data.get("controller")))
    if pay:
        data["pay_life"] = 2
    else:
        data["tapped"] = True
    return data


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

# ------------------------------------------------------------- artifacts
behaviour("Fellwar Stone")(lambda: [mana(
    "{T}", CouldProduceOf("opponents", colors_only=True),
    "{T}: Add one mana of any color that a land an opponent controls could produce.")])


def _vault_upkeep(res: Any) -> None:
    vault = res.current(res.source_id) if res.source_id is not None else None
    if vault is None or not vault.tapped or not yes(res.decide("may", False)):
        return
    spend_mana(res.game, res.controller, ManaCost.parse("{4}"),
               SpendContext("other", text="Mana Vault"), "Mana Vault's upkeep ability",
               parent=res.parent, rules=("118.3",))
    res.untap(vault)


def _vault_draw(res: Any) -> None:
    res.damage(res.controller, 1)  # the intervening "if" is the trigger's `condition`


behaviour("Mana Vault")(lambda: [
    Static(text="This artifact doesn't untap during your untap step.", doesnt_untap=True,
           rules=("502.3",)),
    at_beginning_of(Step.UPKEEP, "At the beginning of your upkeep, you may pay {4}. If you do, "
                    "untap this artifact.", _vault_upkeep),
    at_beginning_of(Step.DRAW, "At the beginning of your draw step, if this artifact is "
                    "tapped, it deals 1 damage to you.", _vault_draw,
                    condition=lambda game, vault: vault.tapped,
                    condition_text="Mana Vault is tapped"),
    mana("{T}", Fixed("CCC"), "{T}: Add {C}{C}{C}."),
])

behaviour("Springleaf Drum")(lambda: [mana(
    "{T}, Tap an untapped creature you control", AnyColor(),
    "{T}, Tap an untapped creature you control: Add one mana of any color.")])

behaviour("Pili-Pala")(lambda: [
    keyword("Flying"),
    mana("{2}, {Q}", AnyColor(), "{2}, {Q}: Add one mana of any color."),
])

behaviour("Powerstone")(lambda: [mana(
    "{T}", Fixed("C", restriction=POWERSTONE),
    "{T}: Add {C}. This mana can't be spent to cast a nonartifact spell.")])


def _white_spell(game: Any, event: Event, source: Any) -> dict[str, Any] | None:
    return {} if "W" in event.data.get("colors", []) else None


def _feather(res: Any) -> None:
    if yes(res.decide("may", True)):
        res.gain_life(1)


behaviour("Angel's Feather")(lambda: [Triggered(
    text="Whenever a player casts a white spell, you may gain 1 life.",
    on=frozenset({EventKind.CAST}), match=_white_spell, effect=_feather, optional=True,
    rules=("603.2",))])

behaviour("Memnite")(lambda: [])


def enters_with_x_counters(name: str) -> Static:
    """"This creature enters with X +1/+1 counters on it": X is the spell's X (CR 107.3m);
    a copy or a permanent put onto the battlefield some other way has X = 0."""

    def apply(game: Any, obj: Any, data: dict[str, Any]) -> dict[str, Any]:
        x = int(data.get("etb_x") or 0)
        if x:
            counters = dict(data.get("counters") or {})
            counters["+1/+1"] = counters.get("+1/+1", 0) + x
            data["counters"] = counters
        data["etb_x_used"] = x
        return data

    return as_enters("This creature enters with X +1/+1 counters on it.", apply,
                     name=f"{name} enters with X +1/+1 counters", rules=("614.1c", "107.3m"))


def _dies_self(game: Any, event: Event, source: Any) -> dict[str, Any] | None:
    if event.data.get("object") != source.id or event.data.get("to") != Zone.GRAVEYARD.value:
        return None
    return {"counters": source.counters.get("+1/+1", 0)}  # as it last existed (CR 603.10a)


def _thopters(res: Any) -> None:
    for _ in range(int(res.bound.get("counters", 0))):
        res.create_token("Thopter")


def _grow(res: Any) -> None:
    me = res.current(res.source_id)
    if me is not None:
        res.put_counters(me, "+1/+1", 1)


behaviour("Hangarback Walker")(lambda: [
    enters_with_x_counters("Hangarback Walker"),
    Triggered(text="When this creature dies, create a 1/1 colorless Thopter artifact creature "
              "token with flying for each +1/+1 counter on this creature.",
              on=frozenset({EventKind.ZONE_CHANGED}), match=_dies_self, effect=_thopters,
              look_back=True, self_only=True, rules=("603.6c", "603.10a")),
    activated("{1}, {T}", "{1}, {T}: Put a +1/+1 counter on this creature.", _grow),
])

# -------------------------------------------------------------- creatures
behaviour("Llanowar Elves")(lambda: [mana("{T}", Fixed("G"), "{T}: Add {G}.")])

behaviour("Sylvok Explorer")(lambda: [mana(
    "{T}", CouldProduceOf("opponents", colors_only=True),
    "{T}: Add one mana of any color that a land an opponent controls could produce.")])


def _forests(ctx: ProduceContext) -> int:
    return sum(1 for o in ctx.game.permanents(ctx.controller)
               if "Forest" in ctx.game.chars(o).subtypes)


behaviour("Rofellos, Llanowar Emissary")(lambda: [mana(
    "{T}", Fixed("G", per=_forests), "{T}: Add {G} for each Forest you control.")])

behaviour("Goblin Clearcutter")(lambda: [mana(
    "{T}, Sacrifice a Forest", Combination("RG", 3),
    "{T}, Sacrifice a Forest: Add three mana in any combination of {R} and/or {G}.")])


def _multiply(name: str, factor: int):
    """"If you tap a permanent for mana, it produces N times as much of that mana instead"
    (CR 106.12b): modifies the mana event of a {T} mana ability you activated."""

    def make(game: Any, source: Any) -> list[ReplacementEffect]:
        me = game.controller_of(source)
        return [ReplacementEffect(
            name=name, source=source.id, controller=me, kind=EventKind.MANA_ADDED,
            applies=lambda g, d: bool(d.get("tapped_for_mana")) and d.get("player") == me
            and bool(d["mana"]),
            apply=lambda g, d: {**d, "mana": d["mana"].times(factor)},
            rules=("106.12b", "614.1a"), timestamp=source.timestamp)]

    return make


behaviour("Nyxbloom Ancient")(lambda: [
    keyword("Trample"),
    static_replacements("If you tap a permanent for mana, it produces three times as much of "
                        "that mana instead.", _multiply("Nyxbloom Ancient", 3)),
])

for _vanilla in ("Grizzly Bears", "Silvercoat Lion", "Gigantosaurus"):
    behaviour(_vanilla)(lambda: [])
behaviour("Desert Drake")(lambda: [keyword("Flying")])

behaviour("Endless One")(lambda: [enters_with_x_counters("Endless One")])


def _bounce(res: Any) -> None:
    for t in res.targets:
        obj = res.current(t)
        if obj is not None:
            res.move([obj], Zone.HAND, reason="bounce")


behaviour("Vedalken Mastermind")(lambda: [activated(
    "{U}, {T}", "{U}, {T}: Return target permanent you control to its owner's hand.", _bounce,
    target=target("target permanent you control",
                  lambda g, s, o: g.controller_of(o) == g.controller_of(s)))])


def _shade(res: Any) -> None:
    me = res.current(res.source_id)
    if me is not None:
        sid = me.id
        res.add_effect(until_end_of_turn(res.game, sid, f"{res.game.describe(me)} gets +1/+1 "
                                         "until end of turn", "7c",
                                         lambda g, o, c: o.id == sid, pump(1, 1)))


behaviour("Nantuko Shade")(lambda: [activated(
    "{B}", "{B}: This creature gets +1/+1 until end of turn.", _shade)])

# ------------------------------------------------------------ enchantments


def enchant(what: str, legal: Any) -> Any:
    """"Enchant [what]": an Aura spell targets what it will enchant (CR 303.4a)."""
    return SpellAbility(text=f"Enchant {what}", target=target(what, legal), rules=("303.4a",))


def _is_land(g: Any, s: Any, o: Any) -> bool:
    return g.chars(o).is_a("Land")


def _tapped_for_mana_enchanted(game: Any, event: Event, source: Any) -> dict[str, Any] | None:
    """"Whenever enchanted land is tapped for mana": only when the ability resolved and
    produced mana (CR 106.12a, ruling R04)."""
    if not event.data.get("tapped_for_mana") or not event.data.get("mana"):
        return None
    if event.data.get("source") != source.attached_to:
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
    enchant("land", _is_land),
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

_ANY_COLOR = mana("{T}", AnyColor(), "{T}: Add one mana of any color.")


def _draw_one(res: Any) -> None:
    res.draw(1)


def _grant_to_attached(text: str, layer: str, modify: Any):
    def make(game: Any, source: Any) -> list[ContinuousEffect]:
        host = source.attached_to
        if host is None:
            return []
        return [ContinuousEffect(text=text, layer=layer, timestamp=source.timestamp,
                                 source=source.id, applies_to=lambda g, o, c: o.id == host,
                                 modify=modify)]
    return make


behaviour("Abundant Growth")(lambda: [
    enchant("land", _is_land),
    enters("When this Aura enters, draw a card.", _draw_one),
    static_effects('Enchanted land has "{T}: Add one mana of any color."',
                   _grant_to_attached("Enchanted land has \"{T}: Add one mana of any color.\"",
                                      "6", add_abilities(_ANY_COLOR))),
])

behaviour("Mana Reflection")(lambda: [static_replacements(
    "If you tap a permanent for mana, it produces twice as much of that mana instead.",
    _multiply("Mana Reflection", 2))])


def _land_tapped_for_mana(game: Any, event: Event, source: Any) -> dict[str, Any] | None:
    if not (event.data.get("tapped_for_mana") and event.data.get("source_is_land")
            and event.data.get("mana")):
        return None
    return {"player": event.data["player"],
            "types": sorted(t.value for t in event.data["mana"].types())}


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
        applies=lambda g, d: bool(d.get("tapped_for_mana")) and bool(d.get("source_is_land"))
        and bool(d["mana"]),
        apply=lambda g, d: {**d, "mana": _one_black(d["mana"])},
        outcome="replaced", rules=("106.12b", "614.1a"), timestamp=source.timestamp)]


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

    def on_put(g: Any, d: dict[str, Any]) -> bool:
        obj = g.state.objects.get(d["object"])
        return (d["counter"] == "+1/+1" and d["n"] >= 1 and obj is not None
                and g.controller_of(obj) == me and g.chars(obj).is_a("Creature"))

    def on_enter(g: Any, d: dict[str, Any]) -> bool:
        if d.get("to", "battlefield") != "battlefield" or not (d.get("counters") or {}).get("+1/+1"):
            return False
        if d.get("controller", me) != me:
            return False
        return _entering_is_creature(g, d)

    def plus_one(g: Any, d: dict[str, Any]) -> dict[str, Any]:
        if "n" in d:
            return {**d, "n": d["n"] + 1}
        counters = dict(d["counters"])
        counters["+1/+1"] += 1
        return {**d, "counters": counters}

    text = "Hardened Scales"
    return [ReplacementEffect(name=text, source=source.id, controller=me, kind=kind,
                              applies=test, apply=plus_one, rules=("614.1a", "122.6"),
                              timestamp=source.timestamp)
            for kind, test in ((EventKind.COUNTERS_PUT, on_put),
                               (EventKind.ZONE_CHANGED, on_enter),
                               (EventKind.TOKEN_CREATED, on_enter))]


def _entering_is_creature(game: Any, d: dict[str, Any]) -> bool:
    from rulekit.cards import card

    if d.get("copiable") is not None:
        return d["copiable"].is_a("Creature")
    if "card" in d:
        return card(d["card"]).printed.is_a("Creature")
    return game.chars(game.state.objects[d["object"]]).is_a("Creature")


behaviour("Hardened Scales")(lambda: [static_replacements(
    "If one or more +1/+1 counters would be put on a creature you control, that many plus one "
    "+1/+1 counters are put on it instead.", _scales)])

# ---------------------------------------------------------------- spells


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
                                             "turn", "7c", _is_object(oid),
                                             pump(3, 3)))


behaviour("Giant Growth")(lambda: [SpellAbility(
    text="Target creature gets +3/+3 until end of turn.", effect=_giant_growth,
    target=target("target creature", lambda g, s, o: g.chars(o).is_a("Creature")))])


def _is_object(oid: int) -> Any:
    """An `applies` test for an effect on one object."""
    def applies(game: Any, obj: Any, chars: Any) -> bool:
        return bool(obj.id == oid)
    return applies
