"""Behaviour of the Part B cards: zones, tokens, copies, combat, exert, control.

Oracle text lives in catalog.toml. Decisions these cards read, with their defaults:
``target`` (a triggered ability's target: the first legal one by id), ``may`` (yes),
``discard`` (Smuggler's Copter: the card just drawn), ``creature_type`` (Metallic Mimic:
"Shapeshifter"), ``copy`` (Clone, see `rulekit.copy`), ``pay`` and ``crew`` (see
`rulekit.keywords`). Arena of Glory's haste and Cavern of Souls' "can't be countered" ride on
the mana (`rulekit.riders`). Shatterstorm's "can't be regenerated" holds trivially: nothing in
the catalog regenerates.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from rulekit.abilities import SpellAbility, Static, TargetSpec, Triggered
from rulekit.arguments import choice_value
from rulekit.cards import behaviour
from rulekit.cards.build import (
    activated,
    add_abilities,
    as_enters,
    creatures_you_control,
    enters,
    keyword,
    mana,
    pump,
    static_effects,
    static_replacements,
    target,
)
from rulekit.cards.part_a import enchant
from rulekit.characteristics import Characteristics
from rulekit.cipher import cipher, encode
from rulekit.copy import copy_spell, create_token_copy, enter_as_copy, entering_values
from rulekit.decisions import yes
from rulekit.delayed import at_next_end_step
from rulekit.effects import ContinuousEffect
from rulekit.errors import RulesError
from rulekit.events import Cause, Event, EventKind
from rulekit.keywords import (
    CostReduction,
    UntilReturn,
    counter_unless_pays,
    crew,
    equip,
    exert_option,
    flashback,
    spell_item,
    ward,
    when_you_do,
)
from rulekit.mana import HASTE_RIDER, ManaCost
from rulekit.production import AnyColor, Fixed
from rulekit.replacement import ReplacementEffect
from rulekit.state import Zone

FLYING = keyword("Flying")
VIGILANCE = keyword("Vigilance")
HASTE = keyword("Haste")
LIFELINK = keyword("Lifelink")
_ANY_COLOR = mana("{T}", AnyColor(), "{T}: Add one mana of any color.")


# ----------------------------------------------------------------- helpers
def _target(res: Any) -> Any:
    """The first target if it is still a legal, same object on the battlefield (CR 608.2b)."""
    return res.current(res.targets[0]) if res.targets and not isinstance(
        res.targets[0], str) else None


def _eot(res: Any, text: str, layer: str, ids: frozenset[int], modify: Any,
         rules: tuple[str, ...] = ("611.2c",)) -> None:
    """An "until end of turn" effect of a resolving spell or ability: the set of objects it
    affects is fixed now (CR 611.2c)."""
    game = res.game
    res.add_effect(ContinuousEffect(
        text=text, layer=layer, timestamp=game.state.new_timestamp(), source=res.source_id,
        applies_to=lambda g, o, c: o.id in ids, modify=modify, duration="end_of_turn",
        rules=rules, id=game.state.new_id()))


def _name(obj: Any) -> str:
    return (obj.copiable or obj.card.printed).name


def _leaves_self(game: Any, event: Event, source: Any) -> dict[str, Any] | None:
    d = event.data
    if d.get("object") != source.id or d.get("from") != Zone.BATTLEFIELD.value:
        return None
    return {"linked": list(source.linked)}  # as it last existed (CR 603.10a)


def _exile_linked(res: Any, obj: Any, rules: tuple[str, ...]) -> None:
    """Exile `obj`, remembered by the source as "the exiled card" (CR 607.2a)."""
    res.game.emit(EventKind.ZONE_CHANGED, {
        "object": obj.id, "from": "battlefield", "to": "exile", "reason": "exile",
        "linked_to": res.source_id,
        "text": f"{res.game.describe(obj)} is exiled by {res.source_name}"},
        cause=Cause.ABILITY, parent=res.parent, rules=rules, subject=obj.id)


def _return_linked(res: Any, rules: tuple[str, ...]) -> None:
    """Return the exiled card(s) to the battlefield under their owner's control; one that left
    exile (or a token, which ceased to exist) is a new object and stays where it is."""
    game = res.game
    for oid in res.bound.get("linked", []):
        obj = game.state.objects.get(oid)
        if obj is None or obj.zone is not Zone.EXILE or obj.moved_to is not None:
            continue
        game.emit(EventKind.ZONE_CHANGED, {
            "object": oid, "from": "exile", "to": "battlefield", "controller": obj.owner,
            "reason": "return",
            "text": f"{game.describe(obj)} returns to the battlefield under {obj.owner}'s "
            "control"},
            cause=Cause.ABILITY, parent=res.parent, rules=rules, subject=oid)


def _sacrifice_token(res: Any) -> None:
    """"Sacrifice the token": only if it's still there and its controller is this ability's
    controller (a player sacrifices only what they control, CR 701.21a)."""
    token = res.current(res.bound["token"])
    if token is None or res.game.controller_of(token) != res.controller:
        res.game.note(EventKind.NOTE, "The token is gone or under another player's control: "
                      "nothing is sacrificed", cause=Cause.RULE, parent=res.parent,
                      rules=("701.21",))
        return
    res.move([token], Zone.GRAVEYARD, reason="sacrifice", rules=("701.21",))


def _creature(g: Any, s: Any, o: Any) -> bool:
    return not isinstance(o, str) and g.chars(o).is_a("Creature")


def _creature_you_control(g: Any, s: Any, o: Any) -> bool:
    return _creature(g, s, o) and g.controller_of(o) == g.controller_of(s)


# -------------------------------------------------------- Slagstone Refinery
def _refinery_match(game: Any, event: Event, source: Any) -> dict[str, Any] | None:
    """"This artifact or another nontoken artifact you control" put into a graveyard or exile
    from the battlefield: judged as each object last existed (CR 603.10a, ruling R11)."""
    d = event.data
    if d.get("from") != Zone.BATTLEFIELD.value or d.get("to") not in (
            Zone.GRAVEYARD.value, Zone.EXILE.value):
        return None
    obj = game.state.objects[d["object"]]
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

behaviour("Thopter")(lambda: [FLYING])


# ---------------------------------------------------------------- Equipment
def _equipped(text: str, layer: str, modify: Any):
    """A static ability of an Equipment affecting the equipped creature (CR 301.5)."""
    def make(game: Any, source: Any) -> list[ContinuousEffect]:
        host = source.attached_to
        if host is None:
            return []
        return [ContinuousEffect(text=text, layer=layer, timestamp=source.timestamp,
                                 source=source.id, applies_to=lambda g, o, c: o.id == host,
                                 modify=modify, rules=("301.5", "611.3a"))]
    return make


behaviour("Bonesplitter")(lambda: [
    static_effects("Equipped creature gets +2/+0.",
                   _equipped("Equipped creature gets +2/+0", "7c", pump(2, 0))),
    equip("{1}"),
])

behaviour("Paradise Mantle")(lambda: [
    static_effects('Equipped creature has "{T}: Add one mana of any color."',
                   _equipped('Equipped creature has "{T}: Add one mana of any color."', "6",
                             add_abilities(_ANY_COLOR))),
    equip("{1}"),
])


# ----------------------------------------------------------------- Vehicles
behaviour("Cultivator's Caravan")(lambda: [_ANY_COLOR, crew(3)])


def _attacks_or_blocks(game: Any, event: Event, source: Any) -> dict[str, Any] | None:
    """"Whenever this attacks or blocks": declared attackers only (CR 508.3a)."""
    if event.data.get("object") != source.id:
        return None
    if event.kind is EventKind.ATTACKS and not event.data.get("declared", True):
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
    game.emit(EventKind.ZONE_CHANGED, {
        "object": victim.id, "from": "hand", "to": "graveyard", "reason": "discard",
        "text": f"{res.controller} discards {game.describe(victim)}"},
        cause=Cause.ABILITY, parent=res.parent, rules=("701.9a",), subject=victim.id)


behaviour("Smuggler's Copter")(lambda: [
    FLYING,
    Triggered(text="Whenever this Vehicle attacks or blocks, you may draw a card. If you do, "
              "discard a card.", on=frozenset({EventKind.ATTACKS, EventKind.BLOCKS}),
              match=_attacks_or_blocks, effect=_loot, optional=True, self_only=True,
              rules=("508.3a",)),
    crew(1),
])


# ------------------------------------------------------------ Metallic Mimic
def _choose_type(game: Any, obj: Any, data: dict[str, Any]) -> dict[str, Any]:
    choices = dict(data.get("choices") or {})
    choices["creature_type"] = choice_value(
        "decisions.creature_type", "creature_type",
        game.decide("creature_type", "Shapeshifter", data.get("controller")))
    return {**data, "choices": choices}


def _mimic_is_type(game: Any, source: Any) -> list[ContinuousEffect]:
    chosen = source.choices.get("creature_type")
    if not chosen:
        return []
    sid = source.id
    return [ContinuousEffect(
        text=f"{_name(source)} (#{sid}) is a {chosen} in addition to its other types",
        layer="4", timestamp=source.timestamp, source=sid, applies_to=lambda g, o, c: o.id == sid,
        modify=lambda c: c if chosen in c.subtypes else c.evolve(subtypes=c.subtypes + (chosen,)),
        rules=("613.1d",))]


def _mimic_counters(game: Any, source: Any) -> list[ReplacementEffect]:
    chosen = source.choices.get("creature_type")
    me = game.controller_of(source)
    sid = source.id

    def applies(g: Any, d: dict[str, Any], kind: EventKind) -> bool:
        if not chosen:
            return False
        if kind is EventKind.ZONE_CHANGED and (d.get("to") != Zone.BATTLEFIELD.value
                                               or d.get("object") == sid):
            return False
        who = d.get("controller") or (g.state.objects[d["object"]].owner if "object" in d
                                      else None)
        if who != me:
            return False
        values = entering_values(g, kind, d)  # as it would exist on the battlefield (614.12)
        types = set(values.subtypes) | {str((d.get("choices") or {}).get("creature_type"))}
        return values.is_a("Creature") and chosen in types

    def apply(g: Any, d: dict[str, Any]) -> dict[str, Any]:
        counters = dict(d.get("counters") or {})
        counters["+1/+1"] = counters.get("+1/+1", 0) + 1
        return {**d, "counters": counters}

    return [ReplacementEffect(name="Metallic Mimic", source=sid, controller=me, kind=kind,
                              applies=partial(applies, kind=kind), apply=apply,
                              rules=("614.1c",), timestamp=source.timestamp)
            for kind in (EventKind.ZONE_CHANGED, EventKind.TOKEN_CREATED)]


behaviour("Metallic Mimic")(lambda: [
    as_enters("As this creature enters, choose a creature type.", _choose_type,
              name="Metallic Mimic: choose a creature type", rules=("614.12",),
              choice="creature_type"),
    static_effects("This creature is the chosen type in addition to its other types.",
                   _mimic_is_type),
    static_replacements("Each other creature you control of the chosen type enters with an "
                        "additional +1/+1 counter on it.", _mimic_counters),
])


# ----------------------------------------------------------- Mishra's Factory
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
    _eot(res, f"{name} is an Assembly-Worker artifact creature until end of turn (still a land)",
         "4", ids, _assembly_worker, ("613.1d", "611.2c"))
    _eot(res, f"{name} has base power and toughness 2/2 until end of turn", "7b", ids, _base_2_2,
         ("613.4b", "611.2c"))


def _pump_one(res: Any) -> None:
    obj = _target(res)
    if obj is not None:
        _eot(res, f"{res.game.describe(obj)} gets +1/+1 until end of turn", "7c",
             frozenset({obj.id}), pump(1, 1), ("613.4c",))


behaviour("Mishra's Factory")(lambda: [
    mana("{T}", Fixed("C"), "{T}: Add {C}."),
    activated("{1}", "{1}: This land becomes a 2/2 Assembly-Worker artifact creature until end "
              "of turn. It's still a land.", _animate_factory),
    activated("{T}", "{T}: Target Assembly-Worker creature gets +1/+1 until end of turn.",
              _pump_one, target=target("target Assembly-Worker creature",
                                       lambda g, s, o: _creature(g, s, o)
                                       and "Assembly-Worker" in g.chars(o).subtypes)),
])


# ------------------------------------------------------------ Arena of Glory
def _arena_enters_tapped(game: Any, obj: Any, data: dict[str, Any]) -> list[ReplacementEffect]:
    controller = data.get("controller") or (obj.owner if obj is not None else "")
    if any("Mountain" in game.chars(o).subtypes for o in game.permanents(controller)):
        return []
    return [ReplacementEffect(
        name="Arena of Glory enters tapped", source=obj.id if obj is not None else None,
        controller=controller, kind=EventKind.ZONE_CHANGED,
        applies=lambda g, d: not d.get("tapped"), apply=lambda g, d: {**d, "tapped": True},
        rules=("614.1d",))]


behaviour("Arena of Glory")(lambda: [
    Static(text="This land enters tapped unless you control a Mountain.",
           self_etb=_arena_enters_tapped, rules=("614.1d",)),
    mana("{T}", Fixed("R"), "{T}: Add {R}."),
    mana("{R}, {T}, Exert this land", Fixed("RR", rider=HASTE_RIDER),
         "{R}, {T}, Exert this land: Add {R}{R}. If that mana is spent on a creature spell, it "
         "gains haste until end of turn."),
])


# -------------------------------------------------------------- Gilded Goose
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


# ------------------------------------------------------------------- copies
behaviour("Clone")(lambda: [enter_as_copy(
    "You may have this creature enter as a copy of any creature on the battlefield.",
    name="Clone: enter as a copy")])


def _copy_with_haste(res: Any) -> None:
    original = _target(res)
    if original is None:
        return
    made = create_token_copy(res, original, haste=True)
    if made is not None:
        at_next_end_step(res, "Sacrifice the token.", _sacrifice_token,
                         {"token": made.data["new"]})


behaviour("Kiki-Jiki, Mirror Breaker")(lambda: [
    HASTE,
    activated("{T}", "{T}: Create a token that's a copy of target nonlegendary creature you "
              "control, except it has haste. Sacrifice it at the beginning of the next end step.",
              _copy_with_haste,
              target=target("target nonlegendary creature you control",
                            lambda g, s, o: _creature_you_control(g, s, o)
                            and "Legendary" not in g.chars(o).supertypes),
              makes_token_copy=True),
])


def _token_copy(res: Any) -> None:
    original = _target(res)
    if original is not None:
        create_token_copy(res, original)


behaviour("Cackling Counterpart")(lambda: [
    SpellAbility(text="Create a token that's a copy of target creature you control.",
                 effect=_token_copy,
                 target=target("target creature you control", _creature_you_control),
                 rules=("707.2",)),
    flashback("{5}{U}{U}"),
])


def _stolen_identity(res: Any) -> None:
    _token_copy(res)
    encode(res)  # cipher (CR 702.99a)


behaviour("Stolen Identity")(lambda: [
    SpellAbility(text="Create a token that's a copy of target artifact or creature.",
                 effect=_stolen_identity,
                 target=target("target artifact or creature",
                               lambda g, s, o: not isinstance(o, str) and (
                                   g.chars(o).is_a("Artifact") or g.chars(o).is_a("Creature"))),
                 rules=("707.2",)),
    cipher(),
])


def _double_major(res: Any) -> None:
    spell = res.game.state.objects.get(res.targets[0]) if res.targets else None
    if spell is not None and spell.zone is Zone.STACK:
        copy_spell(res, spell, nonlegendary=True)


behaviour("Double Major")(lambda: [SpellAbility(
    text="Copy target creature spell you control, except it isn't legendary if the spell is "
    "legendary.", effect=_double_major,
    target=TargetSpec(text="target creature spell you control", objects=False, spells=True,
                      legal=lambda g, s, o: not isinstance(o, str) and g.chars(o).is_a(
                          "Creature") and g.controller_of(o) == g.controller_of(s)),
    rules=("707.10",))])


# ---------------------------------------------------------- Tolarian Terror
def _spells_in_graveyard(game: Any, spell: Any) -> int:
    return sum(1 for o in game.state.owned_in(Zone.GRAVEYARD, spell.owner)
               if game.chars(o).is_a("Instant") or game.chars(o).is_a("Sorcery"))


behaviour("Tolarian Terror")(lambda: [
    CostReduction(text="This spell costs {1} less to cast for each instant and sorcery card in "
                  "your graveyard.", reduction=_spells_in_graveyard, rules=("601.2f",)),
    ward("{2}"),
])


# -------------------------------------------------------------------- exert
def _glory(res: Any) -> None:
    me = res.current(res.source_id)
    if me is None:
        return
    name, ids = res.game.describe(me), frozenset({me.id})
    _eot(res, f"{name} gets +1/+3 until end of turn", "7c", ids, pump(1, 3))
    _eot(res, f"{name} gains lifelink until end of turn", "6", ids, add_abilities(LIFELINK))


behaviour("Glory-Bound Initiate")(lambda: [
    exert_option(),
    when_you_do("When you do, it gets +1/+3 and gains lifelink until end of turn.", _glory),
])


def _celebrate(res: Any) -> None:
    game = res.game
    for obj in sorted(creatures_you_control(game, res.controller), key=lambda o: o.id):
        if obj.id != res.source_id and obj.tapped:
            res.untap(obj)
    game.emit(EventKind.EXTRA_COMBAT,
              {"text": "After this combat phase, there is an additional combat phase"},
              cause=Cause.ABILITY, parent=res.parent, rules=("500.8",))


behaviour("Combat Celebrant")(lambda: [
    exert_option("If this creature hasn't been exerted this turn, you may exert it as it "
                 "attacks.", once_per_turn=True),
    when_you_do("When you do, untap all other creatures you control and after this phase, "
                "there is an additional combat phase.", _celebrate),
])


def _tahcrop(res: Any) -> None:
    ids = frozenset(o.id for o in creatures_you_control(res.game, res.controller))
    _eot(res, f"Creatures {res.controller} controls get +1/+1 until end of turn", "7c", ids,
         pump(1, 1))


behaviour("Tah-Crop Elite")(lambda: [
    FLYING,
    exert_option(),
    when_you_do("When you do, creatures you control get +1/+1 until end of turn.", _tahcrop),
])


def _crash(res: Any) -> None:
    original = _target(res)
    if original is None:
        return
    made = create_token_copy(res, original, tapped=True, attacking=True)
    if made is not None:
        at_next_end_step(res, "Sacrifice the token.", _sacrifice_token,
                         {"token": made.data["new"]})


behaviour("Sandstorm Crasher")(lambda: [
    keyword("Trample"),
    exert_option(),
    when_you_do("When you do, create a tapped and attacking token that's a copy of target "
                "creature you control. Sacrifice the token at the beginning of the next end "
                "step.", _crash, target=target("target creature you control",
                                               _creature_you_control)),
])

for _vanilla in ("Dwarven Trader", "Mons's Goblin Raiders"):
    behaviour(_vanilla)(lambda: [])


# -------------------------------------------------------------- enchantments
def _always_watching(game: Any, source: Any) -> list[ContinuousEffect]:
    me = game.controller_of(source)

    def applies(g: Any, o: Any, c: Characteristics) -> bool:
        return not o.token and c.is_a("Creature") and g.controller_of(o) == me

    return [ContinuousEffect(text=f"Nontoken creatures {me} controls get +1/+1", layer="7c",
                             timestamp=source.timestamp, source=source.id, applies_to=applies,
                             modify=pump(1, 1), rules=("611.3a",)),
            ContinuousEffect(text=f"Nontoken creatures {me} controls have vigilance", layer="6",
                             timestamp=source.timestamp, source=source.id, applies_to=applies,
                             modify=add_abilities(VIGILANCE), rules=("611.3a",))]


behaviour("Always Watching")(lambda: [static_effects(
    "Nontoken creatures you control get +1/+1 and have vigilance.", _always_watching)])


def _oring_exile(res: Any) -> None:
    obj = _target(res)
    if obj is not None:
        _exile_linked(res, obj, ("607.2a",))


def _oring_return(res: Any) -> None:
    _return_linked(res, ("607.2a",))


behaviour("Oblivion Ring")(lambda: [
    enters("When this enchantment enters, exile another target nonland permanent.", _oring_exile,
           target=target("another target nonland permanent",
                         lambda g, s, o: not isinstance(o, str) and o.id != s.id
                         and not g.chars(o).is_a("Land"))),
    Triggered(text="When this enchantment leaves the battlefield, return the exiled card to the "
              "battlefield under its owner's control.", on=frozenset({EventKind.ZONE_CHANGED}),
              match=_leaves_self, effect=_oring_return, look_back=True, self_only=True,
              rules=("603.6c", "607.2a")),
])


def _silkwrap_exile(res: Any) -> None:
    obj = _target(res)
    if obj is None:
        return
    if res.current(res.source_id) is None:  # it already left: the creature doesn't move
        res.game.note(EventKind.NOTE, f"{res.source_name} has already left the battlefield, so "
                      f"{res.game.describe(obj)} isn't exiled", cause=Cause.RULE,
                      parent=res.parent, rules=("610.3b",))
        return
    _exile_linked(res, obj, ("610.3", "607.2a"))


def _silkwrap_return(res: Any) -> None:
    _return_linked(res, ("610.3", "610.3c"))


behaviour("Silkwrap")(lambda: [
    enters("When this enchantment enters, exile target creature with mana value 3 or less an "
           "opponent controls until this enchantment leaves the battlefield.", _silkwrap_exile,
           target=target("target creature with mana value 3 or less an opponent controls",
                         lambda g, s, o: _creature(g, s, o)
                         and g.mana_value(o) <= 3
                         and g.controller_of(o) in g.state.opponents(g.controller_of(s)))),
    UntilReturn(text="(That creature returns under its owner's control.)",
                on=frozenset({EventKind.ZONE_CHANGED}), match=_leaves_self,
                effect=_silkwrap_return, look_back=True, self_only=True,
                rules=("610.3", "610.3c")),
])


def _control_magic(game: Any, source: Any) -> list[ContinuousEffect]:
    host = source.attached_to
    if host is None:
        return []
    me = game.controller_of(source)
    return [ContinuousEffect(text=f"{me} controls the creature enchanted by {_name(source)}",
                             layer="2", timestamp=source.timestamp, source=source.id,
                             applies_to=lambda g, o, c: o.id == host, controller=me,
                             rules=("613.1b",))]


behaviour("Control Magic")(lambda: [
    enchant("creature", _creature),
    static_effects("You control enchanted creature.", _control_magic),
])


# -------------------------------------------------------------------- spells
def _treason(res: Any) -> None:
    from rulekit.control import gain_control

    obj = _target(res)
    if obj is None:
        return
    gain_control(res.game, obj, res.controller, until_end_of_turn=True, source=res.source_id,
                 parent=res.parent, cause=Cause.ABILITY)
    if obj.tapped:
        res.untap(obj)
    _eot(res, f"{res.game.describe(obj)} gains haste until end of turn", "6",
         frozenset({obj.id}), add_abilities(HASTE))


behaviour("Act of Treason")(lambda: [SpellAbility(
    text="Gain control of target creature until end of turn. Untap that creature. It gains "
    "haste until end of turn.", effect=_treason, target=target("target creature", _creature),
    rules=("613.1b",))])


def _mana_leak(res: Any) -> None:
    item = spell_item(res.game, res.targets[0]) if res.targets else None
    if item is not None:
        counter_unless_pays(res, item, ManaCost.parse("{3}"), item.controller,
                            f"Mana Leak's {{3}} for {item.text}", rules=("118.12",))


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
        game.emit_batch([(EventKind.DAMAGE, {"source": res.source_id,
                                             "source_name": res.source_name, "target": o.id,
                                             "amount": 2}, o.id)
                         for o in sorted(creatures, key=lambda o: o.id)],
                        cause=Cause.ABILITY, parent=res.parent, rules=("120.3",))


behaviour("Pyroclasm")(lambda: [SpellAbility(
    text="Pyroclasm deals 2 damage to each creature.", effect=_pyroclasm)])


def _destroy_target(res: Any) -> None:
    obj = _target(res)
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
    obj = _target(res)
    if obj is not None:
        res.move([obj], Zone.HAND, reason="bounce", rules=("400.7",))


behaviour("Boomerang")(lambda: [SpellAbility(
    text="Return target permanent to its owner's hand.", effect=_bounce,
    target=target("target permanent", lambda g, s, o: not isinstance(o, str)))])

