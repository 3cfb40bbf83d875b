"""R01 (undefined mana is no mana) and R02 (what a permanent could produce)."""

import pytest

from mtg_rulekit import EventKind, Game, RulesError
from tests.helpers import last, pool, types

R01 = pytest.mark.ruling("R01")
R02 = pytest.mark.ruling("R02")


@R01
def test_exotic_orchard_without_opposing_lands_adds_no_mana():
    game = Game()
    orchard = game.add("Exotic Orchard")
    game.tap_for_mana(orchard)
    assert pool(game) == []
    assert game.obj(orchard).tapped, "the {T} cost was still paid"
    note = last(game, EventKind.NOTE)
    assert "undefined" in note.text and note.rules == ("106.5",)
    assert last(game, EventKind.MANA_ADDED).payload.mana.total == 0


@R01
def test_two_reflecting_pools_alone_add_no_mana():
    game = Game()
    first = game.add("Reflecting Pool")
    game.add("Reflecting Pool")
    game.tap_for_mana(first)
    assert pool(game) == []


@R01
def test_undefined_mana_is_not_a_choice_you_can_force():
    game = Game()
    orchard = game.add("Exotic Orchard")
    game.add("Mountain", player="Bob")
    with pytest.raises(RulesError, match="can't make G"):
        game.tap_for_mana(orchard, "G")
    game.tap_for_mana(orchard, "R")
    assert pool(game) == ["R"]


@R02
def test_reflecting_pool_could_produce_what_your_lands_could():
    game = Game()
    reflecting = game.add("Reflecting Pool")
    game.add("Forest")
    game.add("Watery Grave")
    assert types(game.could_produce(reflecting)) == ["B", "G", "U"]


@R02
def test_could_produce_ignores_costs_and_being_tapped():
    game = Game()
    reflecting = game.add("Reflecting Pool", tapped=True)
    game.add("Wastes", tapped=True)
    game.add("Havenwood Battleground", tapped=True)  # "{T}, Sacrifice": cost ignored
    assert types(game.could_produce(reflecting)) == ["C", "G"]


@R02
def test_two_reflecting_pools_alone_could_produce_nothing():
    game = Game()
    a = game.add("Reflecting Pool")
    b = game.add("Reflecting Pool")
    assert game.could_produce(a) == frozenset() == game.could_produce(b)


@R02
def test_gaeas_cradle_with_no_creatures_could_produce_nothing():
    game = Game()
    cradle = game.add("Gaea's Cradle")
    assert game.could_produce(cradle) == frozenset()
    game.add("Llanowar Elves")
    assert types(game.could_produce(cradle)) == ["G"]


@R02
def test_gaeas_cradle_tapped_with_no_creatures_adds_nothing_and_cites_106_7():
    """The note cites 106.7 (nothing it could produce), not 605.3a (when mana abilities may
    be activated), the audit's N6."""
    game = Game()
    cradle = game.add("Gaea's Cradle")
    game.tap_for_mana(cradle)
    (note,) = [e for e in game.log if e.kind is EventKind.NOTE and e.subject == cradle.id]
    assert note.rules == ("106.7",) and "makes zero mana" in note.text
    assert game.pool("Alice").total == 0


@R02
def test_exotic_orchard_counts_colors_only():
    game = Game()
    orchard = game.add("Exotic Orchard")
    game.add("Wastes", player="Bob")
    assert game.could_produce(orchard) == frozenset(), "colorless is not a color"
    game.add("Swamp", player="Bob")
    assert types(game.could_produce(orchard)) == ["B"]


@R02
def test_could_produce_follows_chains_across_players():
    game = Game()
    orchard = game.add("Exotic Orchard")
    game.add("Reflecting Pool", player="Bob")
    game.add("Island", player="Bob")
    assert types(game.could_produce(orchard)) == ["U"]
    for name in ("Fellwar Stone", "Sylvok Explorer"):
        assert types(game.could_produce(game.add(name))) == ["U"]


@R02
def test_replacement_effects_count_in_every_order():
    game = Game()
    forest = game.add("Forest")
    reflecting = game.add("Reflecting Pool")
    game.add("Contamination")
    assert types(game.could_produce(forest)) == ["B"]
    assert types(game.could_produce(reflecting)) == ["B"]
    game.add("Mana Reflection")
    assert types(game.could_produce(forest)) == ["B"], "twice as much B is still only B"


@R02
def test_abundant_growth_grants_a_mana_ability_that_counts():
    game = Game()
    wastes = game.add("Wastes")
    reflecting = game.add("Reflecting Pool")
    assert types(game.could_produce(reflecting)) == ["C"]
    game.add("Abundant Growth", attached_to=wastes.id)
    assert types(game.could_produce(reflecting)) == ["B", "C", "G", "R", "U", "W"]


@R02
def test_could_produce_scales_to_hundreds_of_lands():
    game = Game()
    for _ in range(50):
        game.add("Reflecting Pool")
        game.add("Exotic Orchard")
    for basic in ("Plains", "Island", "Swamp", "Mountain", "Forest"):
        game.add(basic, player="Bob")
    pools = game.find_all("Reflecting Pool")
    assert types(game.could_produce(pools[0])) == ["B", "G", "R", "U", "W"]


@R02
def test_calciform_pools_could_produce_colorless_white_and_blue():
    """CR 106.7: costs are ignored, so X can be any number: the X ability could add {W} or {U}."""
    game = Game()
    pools = game.add("Calciform Pools", counters={"storage": 2})
    assert types(game.could_produce(pools)) == ["C", "U", "W"]


@R02
def test_calciform_pools_without_counters_still_could_produce_white_and_blue():
    """Removing X counters is a cost, and costs are ignored (CR 106.7)."""
    game = Game()
    pools = game.add("Calciform Pools")
    assert types(game.could_produce(pools)) == ["C", "U", "W"]


@R02
def test_reflecting_pool_makes_white_from_calciform_pools():
    game = Game()
    reflecting = game.add("Reflecting Pool")
    game.add("Calciform Pools", counters={"storage": 2})
    game.tap_for_mana(reflecting, "W")
    assert pool(game) == ["W"]


@R02
def test_exotic_orchard_makes_blue_from_an_opponents_calciform_pools():
    game = Game()
    orchard = game.add("Exotic Orchard")
    game.add("Calciform Pools", player="Bob")
    game.tap_for_mana(orchard, "U")
    assert pool(game) == ["U"]


@R02
def test_calciform_x_ability_is_picked_by_the_mana_asked_for():
    game = Game()
    pools = game.add("Calciform Pools", counters={"storage": 2})
    game.add("Wastes")
    game.tap_for_mana(game.find("Wastes"))
    game.activate(pools, mana="WU", x=2)
    assert pool(game) == ["U", "W"]
    assert game.obj(pools).counters.get("storage", 0) == 0
