"""R03 ("tap for mana" means a {T} mana ability), R04 ("is tapped for mana" triggers) and R05
("tapped for mana" replacement effects)."""

import pytest

from mtg_rulekit import Cause, EventKind, Game, RulesError
from tests.helpers import last, pool

R03 = pytest.mark.ruling("R03")
R04 = pytest.mark.ruling("R04")
R05 = pytest.mark.ruling("R05")


@R03
def test_forest_is_tapped_for_mana_and_wild_growth_triggers():
    game = Game()
    forest = game.add("Forest")
    game.add("Wild Growth", attached_to=forest.id)
    game.tap_for_mana(forest)
    assert pool(game) == ["G", "G"]
    added = [e for e in game.log if e.kind is EventKind.MANA_ADDED]
    assert [e.payload.tapped_for_mana for e in added] == [True, False]


@R03
def test_calciform_pools_x_ability_is_not_tapping_for_mana():
    game = Game()
    pools = game.add("Calciform Pools", counters={"storage": 2})
    game.add("Wild Growth", attached_to=pools.id)
    game.add("Mana Flare")
    game.add("Wastes")
    game.tap_for_mana(game.find("Wastes"))  # Mana Flare: +{C}
    assert pool(game) == ["C", "C"]
    game.activate(pools, 2, x=2, mana="WU")  # {1}, remove X counters: no {T} in the cost
    assert pool(game) == ["C", "U", "W"]
    assert not game.obj(pools).tapped
    assert [e.text for e in game.log.of_kind(EventKind.TRIGGERED)] == [
        "Mana Flare triggers: Whenever a player taps a land for mana, that player adds one mana "
        "of any type that land produced."]


@R03
def test_pili_pala_untap_ability_is_not_tapping_for_mana():
    game = Game()
    pili = game.add("Pili-Pala", tapped=True)
    game.add("Nyxbloom Ancient")
    for _ in range(2):
        game.add("Wastes")
    for wastes in game.find_all("Wastes"):
        game.tap_for_mana(wastes)  # tripled: 6 colorless
    assert pool(game) == ["C"] * 6
    game.activate(pili, mana="W")
    assert pool(game) == ["C"] * 4 + ["W"], "Nyxbloom only multiplies tapping for mana"


@R03
def test_springleaf_drum_is_tapped_for_mana_the_creature_is_not():
    game = Game()
    drum = game.add("Springleaf Drum")
    elves = game.add("Llanowar Elves", sick=True)
    game.add("Mana Reflection")
    game.tap_for_mana(drum, "R", )
    assert pool(game) == ["R", "R"], "the Drum was tapped for mana: doubled"
    assert game.obj(elves).tapped
    tapped = [e for e in game.log if e.kind is EventKind.TAPPED]
    assert {e.subject for e in tapped} == {drum.id, elves.id}
    assert all(e.cause is Cause.COST for e in tapped)


@R04
def test_wild_growth_does_not_trigger_when_no_mana_is_produced():
    game = Game()
    orchard = game.add("Exotic Orchard")
    game.add("Wild Growth", attached_to=orchard.id)
    game.add("Mana Flare")
    game.tap_for_mana(orchard)
    assert pool(game) == []
    assert not game.log.of_kind(EventKind.TRIGGERED)


@R04
def test_gaeas_cradle_with_no_creatures_triggers_nothing():
    game = Game()
    cradle = game.add("Gaea's Cradle")
    game.add("Heartbeat of Spring")
    game.tap_for_mana(cradle)
    assert pool(game) == []
    assert not game.log.of_kind(EventKind.TRIGGERED)


@R04
def test_mana_flare_adds_a_type_the_land_produced():
    game = Game()
    grave = game.add("Watery Grave")
    game.add("Mana Flare")
    game.tap_for_mana(grave, "B")
    assert pool(game) == ["B", "B"]
    with pytest.raises(RulesError, match="produced B, not U"):
        game.tap_for_mana(game.add("Watery Grave"), "B", added_mana="U")


@R04
def test_triggered_mana_abilities_skip_the_stack_but_city_of_brass_does_not():
    game = Game()
    city = game.add("City of Brass")
    game.add("Mana Flare")
    game.tap_for_mana(city, "R")
    assert pool(game) == ["R", "R"], "Mana Flare's trigger resolved at once (CR 605.4a)"
    assert len(game.stack) == 1, "City of Brass's damage trigger uses the stack"
    game.resolve()
    assert game.life("Alice") == 19


@R04
def test_utopia_sprawl_adds_its_chosen_color():
    game = Game()
    forest = game.add("Forest")
    game.add("Utopia Sprawl", attached_to=forest.id, choices={"color": "U"})
    game.tap_for_mana(forest)
    assert pool(game) == ["G", "U"]


@R05
def test_mana_reflection_doubles_the_land_but_not_wild_growth():
    game = Game()
    forest = game.add("Forest")
    game.add("Wild Growth", attached_to=forest.id)
    game.add("Mana Reflection")
    game.tap_for_mana(forest)
    assert pool(game) == ["G", "G", "G"]
    doubled = [e for e in game.log.of_kind(EventKind.MANA_ADDED) if e.applied]
    assert len(doubled) == 1
    (applied,) = doubled[0].applied
    assert applied.effect == "Mana Reflection" and applied.outcome == "modified"
    assert doubled[0].proposed.mana.total == 1 and doubled[0].payload.mana.total == 2


@R05
def test_contamination_then_reflection_gives_two_black():
    game = Game()
    forest = game.add("Forest")
    game.add("Contamination")
    game.add("Mana Reflection")
    game.tap_for_mana(forest, replacement_order=["Contamination"])
    assert pool(game) == ["B", "B"]
    event = last(game, EventKind.MANA_ADDED)
    assert [a.effect for a in event.applied] == ["Contamination", "Mana Reflection"]


@R05
def test_reflection_then_contamination_gives_one_black():
    game = Game()
    forest = game.add("Forest")
    game.add("Contamination")
    game.add("Mana Reflection")
    game.tap_for_mana(forest, replacement_order=["Mana Reflection"])
    assert pool(game) == ["B"]
    assert last(game, EventKind.MANA_ADDED).applied[1].outcome == "replaced"


@R05
def test_default_replacement_order_is_oldest_first():
    game = Game()
    forest = game.add("Forest")
    game.add("Mana Reflection")
    game.add("Contamination")
    game.tap_for_mana(forest)
    assert pool(game) == ["B"]


@R05
def test_naming_an_effect_that_does_not_apply_is_refused():
    game = Game()
    forest = game.add("Forest")
    game.add("Contamination")
    game.add("Mana Reflection")
    before = game.snapshot_json()
    with pytest.raises(RulesError, match="616.1"):
        game.tap_for_mana(forest, replacement_order=["Nyxbloom Ancient"])
    assert game.snapshot_json() == before


@R05
def test_nyxbloom_and_reflection_multiply_together():
    game = Game()
    forest = game.add("Forest")
    game.add("Nyxbloom Ancient")
    game.add("Mana Reflection")
    game.tap_for_mana(forest)
    assert pool(game) == ["G"] * 6


@R05
def test_contamination_does_not_touch_non_lands_or_opponents_reflection():
    game = Game()
    game.add("Contamination")
    game.add("Mana Reflection", player="Bob")
    vault = game.add("Mana Vault")
    game.tap_for_mana(vault)
    assert pool(game) == ["C", "C", "C"], "Contamination: lands only; Bob's Reflection: Bob only"


def test_watery_grave_enters_tapped_when_its_controller_answers_no():
    game = Game()
    grave = game.add("Watery Grave", zone="hand")
    game.play_land(grave, pay_life="no")
    assert game.obj(grave.moved_to).tapped and game.life("Alice") == 20


def test_watery_grave_enters_untapped_for_two_life():
    game = Game()
    grave = game.add("Watery Grave", zone="hand")
    game.play_land(grave, pay_life=True)
    assert not game.obj(grave.moved_to).tapped and game.life("Alice") == 18


def test_watery_graves_two_life_is_a_life_loss_event_caused_by_its_replacement():
    """Paying life is losing life (CR 119.4): the 2 life is its own LIFE_LOST event, a child
    of the land's entering, caused by its "as this land enters" replacement effect."""
    game = Game()
    grave = game.add("Watery Grave", zone="hand")
    game.play_land(grave, pay_life=True)
    (lost,) = [e for e in game.log if e.kind is EventKind.LIFE_LOST]
    entered = game.log[lost.parent]
    assert entered.kind is EventKind.ZONE_CHANGED and entered.payload.new == grave.moved_to
    assert [a.effect for a in entered.applied] == ["Watery Grave: pay 2 life or enter tapped"]
    assert lost.cause is Cause.REPLACEMENT and "119.4" in lost.rules
    assert (lost.payload.player, lost.payload.amount) == ("Alice", 2)
    assert lost.text == "Alice pays 2 life for Watery Grave, so loses 2 life"


def test_watery_grave_cant_be_paid_for_with_one_life_and_nothing_changes():
    game = Game()
    game.set_life("Alice", 1)
    grave = game.add("Watery Grave", zone="hand")
    before = game.snapshot_json()
    with pytest.raises(RulesError) as err:
        game.play_land(grave, pay_life=True)
    assert err.value.rule == "119.4" and game.snapshot_json() == before
