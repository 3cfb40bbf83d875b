"""Artifacts and creatures that make mana or pay costs: {T} and {Q} abilities, Powerstone, X in enters abilities (Oracle text lives in catalog.toml)."""

from __future__ import annotations

from typing import Any

from mtg_rulekit.cards.build import (
    activated,
    as_enters,
    at_beginning_of,
    keyword,
    mana,
    pump,
    static_replacements,
    target,
    until_end_of_turn,
)
from mtg_rulekit.cards.registry import behaviour
from mtg_rulekit.core import payloads as p
from mtg_rulekit.core.decisions import yes
from mtg_rulekit.core.events import Event, EventKind
from mtg_rulekit.core.mana import (
    POWERSTONE,
    ManaCost,
    SpendContext,
)
from mtg_rulekit.engine.paying import spend_mana
from mtg_rulekit.objects.abilities import Static, Triggered
from mtg_rulekit.objects.effects import Layer
from mtg_rulekit.objects.production import (
    AnyColor,
    Combination,
    CouldProduceOf,
    Fixed,
    ProduceContext,
)
from mtg_rulekit.objects.replacement import ReplacementEffect
from mtg_rulekit.objects.state import Step, Zone

behaviour("Fellwar Stone")(lambda: [mana(
    "{T}", CouldProduceOf("opponents", colors_only=True),
    "{T}: Add one mana of any color that a land an opponent controls could produce.")])


def _vault_upkeep(res: Any) -> None:
    vault = res.current(res.source_id) if res.source_id is not None else None
    if vault is None or not vault.tapped or not yes(res.decide("may", False)):
        return
    spend_mana(res.game, res.controller, ManaCost.parse("{4}"),
               SpendContext("other", text="Mana Vault"),
               p.Spending(p.Paying.UPKEEP, source="Mana Vault"),
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
    d = event.payload
    return {} if isinstance(d, p.Cast) and "W" in d.colors else None


def _feather(res: Any) -> None:
    if yes(res.decide("may", True)):
        res.gain_life(1)


behaviour("Angel's Feather")(lambda: [Triggered(
    text="Whenever a player casts a white spell, you may gain 1 life.",
    on=frozenset({EventKind.CAST}), match=_white_spell, effect=_feather, optional=True,
    rules=("603.2",))])


def enters_with_x_counters(name: str) -> Static:
    """"This creature enters with X +1/+1 counters on it": X is the spell's X (CR 107.3m);
    a copy or a permanent put onto the battlefield some other way has X = 0."""

    def apply(game: Any, obj: Any, data: Any) -> Any:
        x = int(data.etb_x or 0)
        counters = dict(data.counters)
        if x:
            counters["+1/+1"] = counters.get("+1/+1", 0) + x
        return data.replace(counters=counters, etb_x_used=x)

    return as_enters("This creature enters with X +1/+1 counters on it.", apply,
                     name=f"{name} enters with X +1/+1 counters", rules=("614.1c", "107.3m"))


def _dies_self(game: Any, event: Event, source: Any) -> dict[str, Any] | None:
    d = event.payload
    if not isinstance(d, p.ZoneChanged) or d.object != source.id \
            or d.destination != Zone.GRAVEYARD:
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
            applies=lambda g, d: d.tapped_for_mana and d.player == me and bool(d.mana),
            apply=lambda g, d: d.replace(mana=d.mana.times(factor)),
            rules=("106.12b", "614.1a"), timestamp=source.timestamp)]

    return make


behaviour("Nyxbloom Ancient")(lambda: [
    keyword("Trample"),
    static_replacements("If you tap a permanent for mana, it produces three times as much of "
                        "that mana instead.", _multiply("Nyxbloom Ancient", 3)),
])


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
                                         "until end of turn", Layer.PT_MODIFYING,
                                         lambda g, o, c: o.id == sid, pump(1, 1)))


behaviour("Nantuko Shade")(lambda: [activated(
    "{B}", "{B}: This creature gets +1/+1 until end of turn.", _shade)])
