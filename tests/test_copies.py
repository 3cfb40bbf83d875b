"""Copy effects (CR 707): copiable values only (R13, R15, R18, R19), Clone, Kiki-Jiki, Cackling
Counterpart with flashback, Stolen Identity, Double Major copying a creature spell."""

import pytest

from mtg_rulekit import Cause, EventKind, Game, RulesError, Step, Zone
from tests.helpers import cast_from_hand, mana

R13 = pytest.mark.ruling("R13")
R15 = pytest.mark.ruling("R15")
R18 = pytest.mark.ruling("R18")
R19 = pytest.mark.ruling("R19")


def tokens(game: Game) -> list:
    return [o for o in game.permanents() if o.token]


def kiki_copy(game: Game, original, **decisions) -> object:
    """Kiki-Jiki copies `original` (the token is the newest token on the battlefield)."""
    kiki = game.find_all("Kiki-Jiki, Mirror Breaker")
    kiki = kiki[0] if kiki else game.add("Kiki-Jiki, Mirror Breaker")
    game.activate(kiki, targets=[original])
    game.resolve(**decisions)
    made = [e for e in game.log if e.kind is EventKind.TOKEN_CREATED][-1]
    return game.obj(made.payload.new)


def counterpart(game: Game, original, **decisions) -> object:
    cast_from_hand(game, "Cackling Counterpart", "Island", 3, targets=[original])
    game.resolve(**decisions)
    made = [e for e in game.log if e.kind is EventKind.TOKEN_CREATED][-1]
    return game.obj(made.payload.new)


def clone(game: Game, **decisions) -> object:
    spell = cast_from_hand(game, "Clone", "Island", 4)
    game.resolve(**decisions)
    return game.obj(spell.moved_to).moved_to and game.obj(game.obj(spell.moved_to).moved_to)


# ------------------------------------------------------------------ R13
@R13
def test_a_token_copy_enters_the_battlefield_and_its_etb_trigger_fires():
    game = Game()
    goose = game.add("Gilded Goose")
    token = kiki_copy(game, goose)
    assert game.chars(token).name == "Gilded Goose" and token.token
    (trigger,) = game.stack
    assert trigger.source == token.id and "Food" in trigger.text
    game.resolve()
    assert len(game.find_all("Food")) == 1


@R13
def test_an_as_enters_choice_of_the_copied_creature_is_made_anew():
    game = Game()
    mimic = game.add("Metallic Mimic", choices={"creature_type": "Construct"})
    token = kiki_copy(game, mimic, creature_type="Goblin")
    assert token.choices == {"creature_type": "Goblin"}
    assert "Goblin" in game.chars(token).subtypes
    assert "Construct" not in game.chars(token).subtypes
    made = [e for e in game.log if e.kind is EventKind.TOKEN_CREATED][-1]
    assert [a.effect for a in made.applied] == ["Metallic Mimic: choose a creature type"]


@R13
def test_enters_with_x_counters_of_a_copy_uses_x_zero():
    """The copy's X is 0: a token copy of a Hangarback Walker with three counters enters with
    none and dies; its dies trigger makes no Thopters."""
    game = Game()
    walker = game.add("Hangarback Walker", counters={"+1/+1": 3})
    token = kiki_copy(game, walker)
    assert token.moved_to is not None  # 0/0: put into the graveyard, then ceased to exist
    made = [e for e in game.log if e.kind is EventKind.TOKEN_CREATED][-1]
    assert not made.payload.counters and made.payload.etb_x_used == 0
    while game.stack:
        game.resolve()
    assert game.find_all("Thopter") == []


@R13
def test_clone_copying_a_metallic_mimic_chooses_a_new_type_and_gets_its_static():
    game = Game()
    mimic = game.add("Metallic Mimic", choices={"creature_type": "Construct"})
    copy = clone(game, copy=mimic.id, creature_type="Bear")
    assert game.chars(copy).name == "Metallic Mimic" and not copy.token
    assert copy.choices == {"creature_type": "Bear"}
    bears = cast_from_hand(game, "Grizzly Bears", "Forest", 2)
    game.resolve()
    assert game.obj(bears.moved_to).moved_to and game.obj(
        game.obj(bears.moved_to).moved_to).counters == {"+1/+1": 1}


@R13
def test_replacement_effects_of_the_copied_object_apply_after_the_copy_effect():
    game = Game()
    game.add("Metallic Mimic", choices={"creature_type": "Construct"})
    walker = game.add("Hangarback Walker", counters={"+1/+1": 1})
    copy = clone(game, copy=walker.id)
    entered = [e for e in game.log if e.kind is EventKind.ZONE_CHANGED
               and e.payload.destination == "battlefield"][-1]
    assert [a.effect for a in entered.applied] == [
        "Clone: enter as a copy", "Hangarback Walker enters with X +1/+1 counters",
        "Metallic Mimic"]
    assert copy.counters == {"+1/+1": 1}  # X = 0, plus Mimic's one: a Construct now


def test_clone_may_decline_and_then_dies_as_a_0_0():
    game = Game()
    game.add("Grizzly Bears")
    cast_from_hand(game, "Clone", "Island", 4)
    game.resolve(copy="no")
    assert game.find_all("Clone", zone="graveyard")


def test_clone_refuses_a_noncreature_and_nothing_changes():
    game = Game()
    game.add("Grizzly Bears")
    stone = game.add("Powerstone")
    cast_from_hand(game, "Clone", "Island", 4)
    before = game.snapshot_json()
    with pytest.raises(RulesError, match="not a creature"):
        game.resolve(copy=stone.id)
    assert game.snapshot_json() == before


# ------------------------------------------------------------------ R15
@R15
def test_copying_a_clone_that_copies_bears_makes_grizzly_bears():
    game = Game()
    bears = game.add("Grizzly Bears")
    copy = clone(game, copy=bears.id)
    token = kiki_copy(game, copy)
    chars = game.chars(token)
    assert chars.name == "Grizzly Bears" and chars.pt == "2/2"
    assert chars.has_keyword("Haste")  # Kiki-Jiki's exception still applies


@R15
def test_sandstorm_crasher_token_of_a_clone_is_what_the_clone_copied():
    game = Game()
    crasher = game.add("Sandstorm Crasher")
    goose = game.add("Gilded Goose")
    copy = clone(game, copy=goose.id)
    game.resolve()  # the Clone-Goose's own Food trigger (R13 for a Clone)
    game.set_turn(step=Step.BEGIN_COMBAT)
    game.advance("declare_attackers")
    game.declare_attackers([crasher], exert=[crasher], target=copy.id)
    game.resolve()
    token = tokens(game)[-1]
    assert game.chars(token).name == "Gilded Goose" and token.copiable.name == "Gilded Goose"
    assert token.tapped and token.attacking


# ------------------------------------------------------------------ R18
@R18
def test_copying_a_token_copies_what_its_creating_effect_stated():
    game = Game()
    thopter = game.add("Thopter", counters={"+1/+1": 2})
    cast_from_hand(game, "Giant Growth", "Forest", 1, targets=[thopter])
    game.resolve()
    assert game.chars(thopter).pt == "6/6"
    copy = counterpart(game, thopter)
    chars = game.chars(copy)
    assert (chars.name, chars.pt, chars.has_keyword("Flying")) == ("Thopter", "1/1", True)
    assert chars.types == ("Artifact", "Creature") and copy.counters == {}


@R18
def test_a_copy_of_a_kiki_token_keeps_the_haste_its_copy_effect_gave():
    game = Game()
    bears = game.add("Grizzly Bears")
    first = kiki_copy(game, bears)
    second = counterpart(game, first)
    assert game.chars(second).has_keyword("Haste")  # exceptions are copiable (CR 707.9a)
    assert not game.chars(bears).has_keyword("Haste")


@R18
def test_a_copy_of_a_hangarback_thopter_is_a_plain_thopter():
    game = Game()
    walker = game.add("Hangarback Walker", counters={"+1/+1": 1})
    game.destroy([walker])
    game.resolve()
    (thopter,) = game.find_all("Thopter")
    copy = counterpart(game, thopter)
    assert game.chars(copy).name == "Thopter" and copy.copiable.name == "Thopter"


# ------------------------------------------------------------------ R19
@R19
def test_a_copy_takes_no_tapped_status_counters_or_equipment():
    game = Game()
    bears = game.add("Grizzly Bears", tapped=True, counters={"+1/+1": 2})
    game.add("Bonesplitter", attached_to=bears.id)
    assert game.chars(bears).pt == "6/4"
    copy = counterpart(game, bears)
    assert not copy.tapped and copy.counters == {} and copy.attached_to is None
    assert game.chars(copy).pt == "2/2"
    assert copy.copiable is bears.card.printed


@R19
def test_a_copy_takes_no_aura_and_no_control_change():
    game = Game()
    bears = game.add("Grizzly Bears", player="Bob")
    game.add("Control Magic", attached_to=bears.id)
    assert game.controller_of(bears) == "Alice"
    copy = counterpart(game, bears)
    assert game.controller_of(copy) == "Alice"  # the effect's controller, not the Aura's
    game.destroy([game.find("Control Magic")])
    assert game.controller_of(bears) == "Bob" and game.controller_of(copy) == "Alice"


@R19
def test_a_copy_takes_no_non_copy_effects():
    game = Game()
    bears = game.add("Grizzly Bears")
    game.add("Always Watching")
    factory = game.add("Mishra's Factory")
    mana(game, "Wastes", 1)
    game.activate(factory, ability=1)
    game.resolve()
    assert game.chars(factory).is_a("Creature")
    copy = counterpart(game, factory)
    assert game.chars(copy).types == ("Land",) and game.chars(copy).pt == ""
    assert game.chars(bears).pt == "3/3"
    assert game.chars(counterpart(game, bears)).pt == "2/2"  # a token: Always Watching skips it


@R19
def test_the_crasher_token_copies_only_what_is_printed_on_a_changed_creature():
    game = Game()
    crasher = game.add("Sandstorm Crasher")
    bears = game.add("Grizzly Bears", counters={"+1/+1": 1})
    game.add("Bonesplitter", attached_to=bears.id)
    cast_from_hand(game, "Giant Growth", "Forest", 1, targets=[bears])
    game.resolve()
    assert game.chars(bears).pt == "8/6"
    game.advance("declare_attackers")
    game.declare_attackers([crasher, bears], exert=[crasher], target=bears.id)
    game.resolve()
    token = tokens(game)[-1]
    assert game.chars(token).pt == "2/2" and token.counters == {} and token.attached_to is None
    assert token.tapped and token.attacking  # by the effect's instruction, not copied status


@R19
def test_a_token_copy_of_a_crewed_vehicle_is_not_crewed_and_not_a_creature():
    game = Game()
    crasher = game.add("Sandstorm Crasher")
    copter = game.add("Smuggler's Copter")
    memnite = game.add("Memnite")
    game.set_turn(step=Step.BEGIN_COMBAT)
    game.activate(copter, crew=[memnite.id])
    game.resolve()
    assert copter.crewed and game.chars(copter).is_a("Creature")
    game.advance("declare_attackers")
    game.declare_attackers([crasher], exert=[crasher], target=copter.id)
    game.resolve()
    token = tokens(game)[-1]
    assert game.chars(token).name == "Smuggler's Copter"
    assert not token.crewed and not game.chars(token).is_a("Creature")
    assert token.tapped and not token.attacking  # only a creature can be put in attacking


# ----------------------------------------------------------- more copies
def test_kiki_jiki_token_has_haste_and_is_sacrificed_at_the_next_end_step():
    game = Game()
    bears = game.add("Grizzly Bears")
    token = kiki_copy(game, bears)
    assert game.chars(token).has_keyword("Haste") and token.sick
    created = [e for e in game.log if e.kind is EventKind.DELAYED_CREATED]
    assert len(created) == 1 and created[0].rules == ("603.7a",)
    game.advance("end")
    sacrificed = [e for e in game.log if e.kind is EventKind.ZONE_CHANGED
                  and getattr(e.payload, "reason", None) == "sacrifice"]
    assert [e.payload.object for e in sacrificed] == [token.id]
    resolved = game.log[sacrificed[0].parent]
    put = game.log[resolved.parent]
    step = game.log[put.parent]
    assert (resolved.kind, put.kind, step.kind) == (
        EventKind.RESOLVED, EventKind.PUT_ON_STACK, EventKind.STEP_BEGAN)
    assert step.payload.step == "end"
    assert game.state.delayed == [] and game.find_all("Grizzly Bears") == [bears]


def test_kiki_jiki_used_in_the_end_step_sacrifices_at_next_turns_end_step():
    game = Game()
    bears = game.add("Grizzly Bears")
    game.set_turn(step=Step.END)
    token = kiki_copy(game, bears)
    game.next_turn()
    assert token.zone is Zone.BATTLEFIELD and len(game.state.delayed) == 1
    game.advance("end")
    assert token.moved_to is not None


def test_kiki_jiki_cannot_copy_a_legendary_creature_and_nothing_changes():
    game = Game()
    kiki = game.add("Kiki-Jiki, Mirror Breaker")
    before = game.snapshot_json()
    with pytest.raises(RulesError, match="not a legal target"):
        game.activate(kiki, targets=[kiki])
    assert game.snapshot_json() == before


def test_cackling_counterpart_flashback_from_the_graveyard_then_exiled():
    game = Game()
    bears = game.add("Grizzly Bears")
    spell = game.add("Cackling Counterpart", zone="graveyard")
    mana(game, "Island", 7)
    game.cast(spell, targets=[bears])
    cast = [e for e in game.log if e.kind is EventKind.CAST][-1]
    assert cast.payload.origin == "graveyard" and cast.payload.colors == ("U",)
    game.resolve()
    assert len(tokens(game)) == 1 and game.state.players["Alice"].pool == []
    exiled = [e for e in game.log if e.kind is EventKind.ZONE_CHANGED
              and e.payload.origin == "stack"][-1]
    assert exiled.payload.destination == "exile" and exiled.proposed.destination == "graveyard"
    assert [a.effect for a in exiled.applied] == ["Flashback: exile instead"]
    assert "702.34a" in exiled.rules


def test_flashback_costs_its_flashback_cost_and_other_cards_cant_be_cast_from_graveyard():
    game = Game()
    bears = game.add("Grizzly Bears")
    spell = game.add("Cackling Counterpart", zone="graveyard")
    shock = game.add("Shock", zone="graveyard")
    mana(game, "Island", 3)
    before = game.snapshot_json()
    with pytest.raises(RulesError, match="can't pay"):
        game.cast(spell, targets=[bears])
    with pytest.raises(RulesError, match="not in a hand"):
        game.cast(shock, targets=["Bob"])
    assert game.snapshot_json() == before


def test_stolen_identity_copies_an_opponents_creature_and_declines_cipher():
    game = Game()
    bears = game.add("Grizzly Bears", player="Bob")
    cast_from_hand(game, "Stolen Identity", "Island", 6, targets=[bears])
    game.resolve()
    (token,) = tokens(game)
    assert game.controller_of(token) == "Alice" and game.chars(token).name == "Grizzly Bears"
    assert any(e.kind is EventKind.CHOICE and "cipher" in e.text for e in game.log)
    assert game.find_all("Stolen Identity", zone="graveyard")


def _encoded_stolen_identity(game: Game):
    """Alice casts Stolen Identity on Bob's Grizzly Bears and encodes it on her Silvercoat Lion."""
    bears = game.add("Grizzly Bears", player="Bob")
    lion = game.add("Silvercoat Lion")
    mana(game, "Island", 6)
    game.cast(game.add("Stolen Identity", zone="hand"), targets=[bears])
    game.resolve(encode=lion.id)
    return bears, lion


def test_cipher_exiles_the_card_encoded_on_a_creature_you_control():
    game = Game()
    _, lion = _encoded_stolen_identity(game)
    (card,) = game.find_all("Stolen Identity", zone="exile")
    assert not game.find_all("Stolen Identity", zone="graveyard")
    moved = [e for e in game.log if e.kind is EventKind.ZONE_CHANGED and getattr(e.payload, "reason", None)
             == "cipher"]
    assert moved and moved[0].rules == ("702.99a", "702.99b") and card.id == moved[0].payload.new
    texts = [a.text for a in game.chars(lion).abilities]
    assert any(t.startswith("Whenever this creature deals combat damage to a player") for t in texts)


def test_the_encoded_creature_casts_a_copy_when_it_deals_combat_damage_to_a_player():
    game = Game()
    bears, lion = _encoded_stolen_identity(game)
    game.advance("declare_attackers")
    game.declare_attackers([lion])
    game.advance("main2", target=bears.id)  # no blocks; the trigger and the copy resolve
    (cast,) = [e for e in game.log if e.kind is EventKind.SPELL_COPIED]
    assert cast.payload.cast and cast.rules == ("702.99a", "707.12")
    assert "casts a copy of Stolen Identity without paying its mana cost" in cast.text
    assert [game.chars(t).name for t in tokens(game)] == ["Grizzly Bears", "Grizzly Bears"]
    assert game.find_all("Stolen Identity", zone="exile"), "the card stays encoded"
    assert not game.stack


def test_combat_damage_to_a_creature_doesnt_trigger_cipher():
    game = Game()
    bears, lion = _encoded_stolen_identity(game)
    game.advance("declare_attackers")
    game.declare_attackers([lion])
    game.advance("declare_blockers")
    game.declare_blockers({bears.id: lion.id})
    game.advance("main2")
    assert not [e for e in game.log if e.kind is EventKind.SPELL_COPIED]
    assert game.life("Bob") == 20


def test_cipher_only_encodes_on_a_creature_you_control():
    game = Game()
    bears = game.add("Grizzly Bears", player="Bob")
    mana(game, "Island", 6)
    game.cast(game.add("Stolen Identity", zone="hand"), targets=[bears])
    before = game.snapshot_json()
    with pytest.raises(RulesError) as err:
        game.resolve(encode=bears.id)
    assert err.value.rule == "702.99a" and game.snapshot_json() == before


def test_a_card_encoded_on_a_creature_that_left_is_no_longer_encoded():
    game = Game()
    _, lion = _encoded_stolen_identity(game)
    game.destroy([lion])
    texts = [a.text for o in game.permanents() for a in game.chars(o).abilities]
    assert not any("encoded card" in t for t in texts)


def test_double_major_copy_of_a_creature_spell_becomes_a_token_with_the_spells_x():
    game = Game()
    walker = game.add("Hangarback Walker", zone="hand")
    major = game.add("Double Major", zone="hand")
    mana(game, "Wastes", 4)
    game.cast(walker, x=2)
    spell = game.obj(walker.moved_to)
    mana(game, "Forest", 1)
    mana(game, "Island", 1)
    game.cast(major, targets=[spell])
    game.resolve()  # Double Major: the copy goes on the stack above the original
    copied = [e for e in game.log if e.kind is EventKind.SPELL_COPIED]
    assert len(copied) == 1 and copied[0].cause is Cause.ABILITY
    assert [i.text for i in game.stack] == ["Hangarback Walker", "Copy of Hangarback Walker"]
    game.resolve()
    game.resolve()
    walkers = game.find_all("Hangarback Walker")
    assert [(w.token, w.counters) for w in walkers] == [(True, {"+1/+1": 2}), (False, {"+1/+1": 2})]
    entered = [e for e in game.log if e.kind is EventKind.ZONE_CHANGED
               and e.payload.destination == "battlefield"]
    assert "707.10f" in entered[-2].rules and "707.10f" not in entered[-1].rules


def test_double_major_copy_of_a_legendary_spell_is_not_legendary():
    game = Game()
    kiki = game.add("Kiki-Jiki, Mirror Breaker", zone="hand")
    major = game.add("Double Major", zone="hand")
    mana(game, "Mountain", 3)
    mana(game, "Wastes", 2)
    game.cast(kiki)
    mana(game, "Forest", 1)
    mana(game, "Island", 1)
    game.cast(major, targets=[game.obj(kiki.moved_to)])
    for _ in range(3):
        game.resolve()
    both = game.find_all("Kiki-Jiki, Mirror Breaker")
    assert len(both) == 2  # no legend rule: the token copy isn't legendary
    assert [("Legendary" in game.chars(k).supertypes, k.token) for k in both] == [
        (False, True), (True, False)]


def test_double_major_targets_only_a_creature_spell_you_control():
    game = Game()
    bears = game.add("Grizzly Bears")
    major = game.add("Double Major", zone="hand")
    mana(game, "Forest", 1)
    mana(game, "Island", 1)
    before = game.snapshot_json()
    with pytest.raises(RulesError, match="not a legal target"):
        game.cast(major, targets=[bears])
    assert game.snapshot_json() == before
