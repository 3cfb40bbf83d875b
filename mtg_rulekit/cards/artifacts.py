"""Artifacts with their own mechanics: Slagstone Refinery, tokens (Thopter, Food), Equipment, Vehicles, Mishra's Factory, Arena of Glory, Gilded Goose (Oracle text lives in catalog.toml)."""

from __future__ import annotations

from typing import Any

from mtg_rulekit.cards.build import (
    activated,
    add_abilities,
    enters,
    mana,
    pump,
    static_effects,
    target,
    to_attached,
)
from mtg_rulekit.cards.common import ANY_COLOR, FLYING, is_creature, target_of, until_eot
from mtg_rulekit.cards.registry import behaviour
from mtg_rulekit.core import payloads as p
from mtg_rulekit.core.characteristics import Characteristics
from mtg_rulekit.core.decisions import yes
from mtg_rulekit.core.errors import RulesError
from mtg_rulekit.core.events import Cause, Event, EventKind
from mtg_rulekit.core.mana import (
    HASTE_RIDER,
)
from mtg_rulekit.engine.keywords import (
    crew,
    equip,
)
from mtg_rulekit.objects.abilities import Static, Triggered
from mtg_rulekit.objects.effects import Layer
from mtg_rulekit.objects.production import AnyColor, Fixed
from mtg_rulekit.objects.replacement import ReplacementEffect
from mtg_rulekit.objects.state import Zone


def _refinery_match(game: Any, event: Event, source: Any) -> dict[str, Any] | None:
    """"This artifact or another nontoken artifact you control" put into a graveyard or exile
    from the battlefield: judged as each object last existed (CR 603.10a, ruling R11)."""
    d = event.payload
    if not isinstance(d, p.ZoneChanged) or d.object is None \
            or d.origin != Zone.BATTLEFIELD \
            or d.destination not in (Zone.GRAVEYARD, Zone.EXILE):
        return None
    obj = game.state.objects[d.object]
    if obj.id != source.id:
        if obj.token or not game.chars(obj).is_a("Artifact"):
            return None
        if game.controller_of(obj) != game.controller_of(source):
            return None
    return {"object": obj.id}


def _powerstone(res: Any) -> None:
    res.create_token("Powerstone", tapped=True, rules=("111.10h", "111.1"))


behaviour("Slagstone Refinery")(lambda: [Triggered(
    text="Whenever this artifact or another nontoken artifact you control is put into a "
    "graveyard from the battlefield or is put into exile from the battlefield, create a tapped "
    "Powerstone token.", on=frozenset({EventKind.ZONE_CHANGED}), match=_refinery_match,
    effect=_powerstone, look_back=True, rules=("603.6c", "603.10a"))])


def _equipped(text: str, layer: Layer, modify: Any) -> Any:
    """A static ability of an Equipment affecting the equipped creature (CR 301.5)."""
    return to_attached(text, layer, modify, rules=("301.5", "611.3a"))


behaviour("Bonesplitter")(lambda: [
    static_effects("Equipped creature gets +2/+0.",
                   _equipped("Equipped creature gets +2/+0", Layer.PT_MODIFYING, pump(2, 0))),
    equip("{1}"),
])


behaviour("Paradise Mantle")(lambda: [
    static_effects('Equipped creature has "{T}: Add one mana of any color."',
                   _equipped('Equipped creature has "{T}: Add one mana of any color."', Layer.ABILITY,
                             add_abilities(ANY_COLOR))),
    equip("{1}"),
])


behaviour("Cultivator's Caravan")(lambda: [ANY_COLOR, crew(3)])


def _attacks_or_blocks(game: Any, event: Event, source: Any) -> dict[str, Any] | None:
    """"Whenever this attacks or blocks": declared attackers only (CR 508.3a)."""
    if p.object_of(event.payload) != source.id:
        return None
    if isinstance(event.payload, p.Attacks) and not event.payload.declared:
        return None
    return {}


def _loot(res: Any) -> None:
    game = res.game
    if not yes(res.decide("may", True)):
        return
    hand = game.state.owned_in(Zone.HAND, res.controller)
    before = {o.id for o in hand}
    res.draw(1)
    drawn = [o for o in game.state.owned_in(Zone.HAND, res.controller) if o.id not in before]
    if not drawn:
        return  # nothing drawn: "if you do" isn't met
    pick = res.decide("discard", drawn[-1].id)
    victim = game.state.objects.get(int(str(pick).lstrip("#")))
    if victim is None or victim.zone is not Zone.HAND or victim.owner != res.controller:
        raise RulesError(f"{game.target_text(pick)} is not a card in {res.controller}'s hand",
                         rule="701.9a")
    game.emit(p.ZoneChanged(object=victim.id, origin=Zone.HAND, destination=Zone.GRAVEYARD,
                            reason="discard", player=res.controller),
        cause=Cause.ABILITY, parent=res.parent, rules=("701.9a",), subject=victim.id)


behaviour("Smuggler's Copter")(lambda: [
    FLYING,
    Triggered(text="Whenever this Vehicle attacks or blocks, you may draw a card. If you do, "
              "discard a card.", on=frozenset({EventKind.ATTACKS, EventKind.BLOCKS}),
              match=_attacks_or_blocks, effect=_loot, optional=True, self_only=True,
              rules=("508.3a",)),
    crew(1),
])


def _assembly_worker(c: Characteristics) -> Characteristics:
    types = tuple(dict.fromkeys(("Artifact", "Creature") + c.types))
    subtypes = c.subtypes if "Assembly-Worker" in c.subtypes else c.subtypes + ("Assembly-Worker",)
    return c.evolve(types=types, subtypes=subtypes)


def _base_2_2(c: Characteristics) -> Characteristics:
    return c.evolve(power=2, toughness=2)


def _animate_factory(res: Any) -> None:
    me = res.current(res.source_id)
    if me is None:
        return
    name, ids = res.game.describe(me), frozenset({me.id})
    until_eot(res, f"{name} is an Assembly-Worker artifact creature until end of turn (still a land)",
         Layer.TYPE, ids, _assembly_worker, ("613.1d", "611.2c"))
    until_eot(res, f"{name} has base power and toughness 2/2 until end of turn", Layer.PT_SETTING, ids, _base_2_2,
         ("613.4b", "611.2c"))


def _pump_one(res: Any) -> None:
    obj = target_of(res)
    if obj is not None:
        until_eot(res, f"{res.game.describe(obj)} gets +1/+1 until end of turn", Layer.PT_MODIFYING,
             frozenset({obj.id}), pump(1, 1), ("613.4c",))


behaviour("Mishra's Factory")(lambda: [
    mana("{T}", Fixed("C"), "{T}: Add {C}."),
    activated("{1}", "{1}: This land becomes a 2/2 Assembly-Worker artifact creature until end "
              "of turn. It's still a land.", _animate_factory),
    activated("{T}", "{T}: Target Assembly-Worker creature gets +1/+1 until end of turn.",
              _pump_one, target=target("target Assembly-Worker creature",
                                       lambda g, s, o: is_creature(g, s, o)
                                       and "Assembly-Worker" in g.chars(o).subtypes)),
])


def _arena_enters_tapped(game: Any, obj: Any, data: Any) -> list[ReplacementEffect]:
    controller = data.controller or (obj.owner if obj is not None else "")
    if any("Mountain" in game.chars(o).subtypes for o in game.permanents(controller)):
        return []
    return [ReplacementEffect(
        name="Arena of Glory enters tapped", source=obj.id if obj is not None else None,
        controller=controller, kind=EventKind.ZONE_CHANGED,
        applies=lambda g, d: not d.tapped, apply=lambda g, d: d.replace(tapped=True),
        rules=("614.1d",))]


behaviour("Arena of Glory")(lambda: [
    Static(text="This land enters tapped unless you control a Mountain.",
           self_etb=_arena_enters_tapped, rules=("614.1d",)),
    mana("{T}", Fixed("R"), "{T}: Add {R}."),
    mana("{R}, {T}, Exert this land", Fixed("RR", rider=HASTE_RIDER),
         "{R}, {T}, Exert this land: Add {R}{R}. If that mana is spent on a creature spell, it "
         "gains haste until end of turn."),
])


def _food(res: Any) -> None:
    res.create_token("Food", rules=("111.10b", "111.1"))


behaviour("Gilded Goose")(lambda: [
    FLYING,
    enters("When this creature enters, create a Food token.", _food),
    activated("{1}{G}, {T}", "{1}{G}, {T}: Create a Food token.", _food),
    mana("{T}, Sacrifice a Food", AnyColor(), "{T}, Sacrifice a Food: Add one mana of any color."),
])


def _gain_3(res: Any) -> None:
    res.gain_life(3)


behaviour("Food")(lambda: [activated(
    "{2}, {T}, Sacrifice this token", "{2}, {T}, Sacrifice this token: You gain 3 life.",
    _gain_3)])
