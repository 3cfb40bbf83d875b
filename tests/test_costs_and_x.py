"""R06 (X in enters abilities), R07 ({T} and summoning sickness), R08 ({Q})."""

import pytest

from mtg_rulekit import Cause, EventKind, Game, RulesError, Zone
from tests.helpers import pool

R06 = pytest.mark.ruling("R06")
R07 = pytest.mark.ruling("R07")
R08 = pytest.mark.ruling("R08")


def with_mana(n: int, *cards: str) -> Game:
    game = Game()
    for _ in range(n):
        game.tap_for_mana(game.add("Wastes"))
    for name in cards:
        game.add(name, zone="hand")
    return game


@R06
def test_hangarback_walker_enters_with_the_spells_x():
    game = with_mana(4, "Hangarback Walker")
    game.cast(game.find("Hangarback Walker", zone="hand"), x=2)
    game.resolve()
    walker = game.find("Hangarback Walker")
    assert walker.counters == {"+1/+1": 2}
    assert game.chars(walker).power == 2
    assert walker.x == 0 and walker.etb_x == 2, "the permanent's own X is 0 (CR 107.3i)"


@R06
def test_x_of_a_permanent_is_zero_but_its_etb_sees_the_spell():
    game = with_mana(1, "Endless One")
    game.cast(game.find("Endless One", zone="hand"), x=1)
    assert game.find("Endless One", zone="stack").x == 1
    game.resolve()
    one = game.find("Endless One")
    assert (one.x, one.counters) == (0, {"+1/+1": 1})
    assert game.chars(one).mana_cost.mana_value() == 0


@R06
def test_endless_one_for_zero_dies_to_state_based_actions():
    game = with_mana(0, "Endless One")
    game.cast(game.find("Endless One", zone="hand"), x=0)
    game.resolve()
    assert not game.find_all("Endless One")
    assert game.find_all("Endless One", zone="graveyard")
    sba = [e for e in game.log if e.cause is Cause.SBA and e.kind is EventKind.ZONE_CHANGED]
    assert sba and "704.5f" in sba[-1].rules


@R06
def test_hardened_scales_adds_one_to_enters_with_counters():
    game = with_mana(4, "Hangarback Walker")
    game.add("Hardened Scales")
    game.cast(game.find("Hangarback Walker", zone="hand"), x=2)
    game.resolve()
    entered = [e for e in game.log if e.kind is EventKind.ZONE_CHANGED
               and getattr(e.payload, "destination", None) == "battlefield" and e.applied][-1]
    assert [a.effect for a in entered.applied] == [
        "Hangarback Walker enters with X +1/+1 counters", "Hardened Scales"]
    assert game.find("Hangarback Walker").counters == {"+1/+1": 3}


@R06
def test_hardened_scales_does_nothing_for_x_equal_zero():
    game = with_mana(0, "Hangarback Walker")
    game.add("Hardened Scales")
    game.cast(game.find("Hangarback Walker", zone="hand"), x=0)
    game.resolve()
    assert not game.find_all("Hangarback Walker"), "no counters would be put: it is a 0/0"


@R06
def test_mana_value_counts_x_on_the_stack_and_zero_elsewhere():
    """CR 202.3e: X is the chosen number while the spell is on the stack, 0 anywhere else."""
    game = with_mana(4, "Hangarback Walker")
    walker = game.find("Hangarback Walker", zone="hand")
    assert game.mana_value(walker) == 0
    game.cast(walker, x=2)
    spell = game.stack[-1].source
    assert game.mana_value(spell) == 4 and game.chars(spell).mana_value(2) == 4
    game.resolve()
    assert game.mana_value(game.find("Hangarback Walker")) == 0


def test_silkwrap_judges_mana_value_on_the_battlefield_with_x_as_zero():
    """A Hangarback Walker cast with X=5 has mana value 0 on the battlefield: Silkwrap can
    exile it ("mana value 3 or less")."""
    game = Game()
    game.add("Hangarback Walker", player="Bob", counters={"+1/+1": 5})
    for _ in range(2):
        game.tap_for_mana(game.add("Plains"))
    game.cast(game.add("Silkwrap", zone="hand"))
    game.resolve()
    game.resolve()
    assert game.find_all("Hangarback Walker", zone="exile") and not game.permanents("Bob")


@R06
def test_x_must_be_chosen_when_casting():
    game = with_mana(2, "Hangarback Walker")
    with pytest.raises(RulesError, match="choose a value for X"):
        game.cast(game.find("Hangarback Walker", zone="hand"))


def test_a_refusal_shows_x_as_its_chosen_value():
    game = with_mana(1, "Hangarback Walker")
    with pytest.raises(RulesError) as err:
        game.cast(game.find("Hangarback Walker", zone="hand"), x=2)
    assert "can't pay {4} for Hangarback Walker" in str(err.value)
    assert "{X}" not in str(err.value)


def test_the_spent_mana_event_names_the_cost_with_x_chosen():
    game = with_mana(3, "Hangarback Walker")
    game.cast(game.find("Hangarback Walker", zone="hand"), x=1)
    spent = [e for e in game.log if e.kind is EventKind.MANA_SPENT][-1]
    assert spent.payload.cost == "{2}"


def test_an_activation_refusal_shows_x_as_its_chosen_value():
    game = with_mana(1)
    pools = game.add("Calciform Pools", counters={"storage": 1})
    with pytest.raises(RulesError) as err:
        game.activate(pools, 2, x=2)
    assert "has 1 storage counter(s); removing 2 is part of the cost" in str(err.value)


@R07
def test_a_tapped_permanent_cannot_pay_tap():
    game = Game()
    forest = game.add("Forest", tapped=True)
    before = game.snapshot_json()
    with pytest.raises(RulesError) as err:
        game.tap_for_mana(forest)
    assert err.value.rule == "107.5" and "already tapped" in str(err.value)
    assert game.snapshot_json() == before


@R07
def test_summoning_sick_creature_cannot_use_tap_abilities():
    game = Game()
    elves = game.add("Llanowar Elves", sick=True)
    with pytest.raises(RulesError, match="summoning sickness") as err:
        game.tap_for_mana(elves)
    assert err.value.rule == "302.6"
    assert not game.obj(elves).tapped


@R07
def test_creature_can_tap_once_controlled_since_the_turn_began():
    game = Game()
    elves = game.add("Llanowar Elves", zone="hand")
    game.tap_for_mana(game.add("Forest"))
    game.cast(elves)
    game.resolve()
    elves = game.find("Llanowar Elves")
    with pytest.raises(RulesError, match="302.6"):
        game.tap_for_mana(elves)
    game.next_turn()  # Bob's turn: still Alice's "most recent turn" is the one it arrived in
    game.next_turn()  # Alice's turn begins: now it has been under her control since then
    game.tap_for_mana(elves)
    assert pool(game) == ["G"]


@R07
def test_dryad_arbor_is_a_land_creature_and_can_be_summoning_sick():
    game = Game()
    arbor = game.add("Dryad Arbor", sick=True)
    with pytest.raises(RulesError, match="302.6"):
        game.tap_for_mana(arbor)


@R07
def test_noncreature_artifacts_are_never_summoning_sick():
    game = Game()
    vault = game.add("Mana Vault", sick=True)
    game.tap_for_mana(vault)
    assert pool(game) == ["C", "C", "C"]


@R07
def test_tapping_another_creature_as_a_cost_ignores_summoning_sickness():
    game = Game()
    drum = game.add("Springleaf Drum")
    elves = game.add("Llanowar Elves", sick=True)
    game.tap_for_mana(drum, "G", )
    assert game.obj(elves).tapped and pool(game) == ["G"]


@R07
def test_springleaf_drum_needs_an_untapped_creature():
    game = Game()
    drum = game.add("Springleaf Drum")
    game.add("Llanowar Elves", tapped=True)
    with pytest.raises(RulesError, match="untapped creature"):
        game.tap_for_mana(drum, "G")
    assert not game.obj(drum).tapped


@R08
def test_untapped_pili_pala_cannot_pay_q():
    game = with_mana(2)
    pili = game.add("Pili-Pala")
    with pytest.raises(RulesError) as err:
        game.activate(pili, mana="W")
    assert err.value.rule == "107.6" and "already untapped" in str(err.value)
    assert pool(game) == ["C", "C"], "no mana was spent"


@R08
def test_tapped_pili_pala_untaps_to_pay_q():
    game = with_mana(2)
    pili = game.add("Pili-Pala", tapped=True)
    game.activate(pili, mana="W")
    assert pool(game) == ["W"]
    assert not game.obj(pili).tapped
    untap = [e for e in game.log if e.kind is EventKind.UNTAPPED][-1]
    assert untap.cause is Cause.COST and untap.rules == ("107.6",)


@R08
def test_summoning_sick_pili_pala_cannot_pay_q():
    game = with_mana(2)
    pili = game.add("Pili-Pala", tapped=True, sick=True)
    with pytest.raises(RulesError, match="302.6"):
        game.activate(pili, mana="W")


def test_a_creature_that_left_and_returned_is_a_new_object():
    game = Game()
    master = game.add("Vedalken Mastermind")
    elves = game.add("Llanowar Elves")
    game.tap_for_mana(game.add("Island"))
    game.activate(master, targets=[elves])
    game.resolve()
    assert game.find("Llanowar Elves", zone=Zone.HAND).id != elves.id
