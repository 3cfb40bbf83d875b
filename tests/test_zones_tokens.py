"""Simultaneous zone changes with look-back (R11), tokens and predefined tokens (R09)."""

import pytest

from mtg_rulekit import Cause, EventKind, Game, RulesError, Zone
from mtg_rulekit.cards import card
from tests.helpers import cast_from_hand, mana

R09 = pytest.mark.ruling("R09")
R11 = pytest.mark.ruling("R11")

REFINERY = "Slagstone Refinery"


def refinery_triggers(game: Game, since: int = 0) -> list:
    return [e for e in game.log.since(since)
            if e.kind is EventKind.PUT_ON_STACK and REFINERY in e.text]


def resolve_all(game: Game) -> None:
    while game.stack:
        game.resolve()


def powerstones(game: Game) -> list:
    return game.find_all("Powerstone")


# ------------------------------------------------------------------ R11
@R11
def test_refinery_and_three_other_artifacts_destroyed_by_shatterstorm_trigger_four_times():
    game = Game()
    refinery = game.add(REFINERY)
    stones = [game.add("Fellwar Stone") for _ in range(3)]
    cast_from_hand(game, "Shatterstorm", "Mountain", 4)
    mark = len(game.log)
    game.resolve()
    moved = [e for e in game.log.since(mark) if e.kind is EventKind.ZONE_CHANGED
             and e.payload.origin == "battlefield"]
    assert [e.payload.object for e in moved] == [refinery.id] + [s.id for s in stones]
    assert len({e.parent for e in moved}) == 1  # one simultaneous event of the spell
    triggers = refinery_triggers(game, mark)
    assert len(triggers) == 4
    assert sorted(t.parent for t in triggers) == sorted(e.id for e in moved)
    resolve_all(game)
    made = powerstones(game)
    assert len(made) == 4 and all(p.tapped and p.token for p in made)


@R11
def test_game_destroy_of_refinery_and_three_artifacts_makes_four_tapped_powerstones():
    game = Game()
    everything = [game.add(REFINERY)] + [game.add("Mana Vault") for _ in range(3)]
    game.destroy(everything)
    assert len(game.stack) == 4
    resolve_all(game)
    assert [p.tapped for p in powerstones(game)] == [True] * 4


@R11
def test_refinery_exiled_with_other_artifacts_triggers_for_each():
    game = Game()
    game.exile([game.add(REFINERY), game.add("Memnite"), game.add("Bonesplitter")])
    assert len(refinery_triggers(game)) == 3


@R11
def test_tokens_never_count_even_leaving_with_the_refinery():
    game = Game()
    refinery = game.add(REFINERY)
    tokens = [game.add("Powerstone"), game.add("Thopter"), game.add("Food")]
    game.destroy([refinery] + tokens)
    triggers = refinery_triggers(game)
    assert len(triggers) == 1 and game.log[triggers[0].parent].payload.object == refinery.id


@R11
def test_you_control_is_judged_as_the_objects_last_existed():
    game = Game()
    refinery = game.add(REFINERY)
    bobs = game.add("Fellwar Stone", player="Bob")
    borrowed = game.add("Memnite", player="Bob")
    game.gain_control(borrowed, "Alice")
    assert game.controller_of(borrowed) == "Alice"
    game.destroy([refinery, bobs, borrowed])
    sources = sorted(game.log[t.parent].payload.object for t in refinery_triggers(game))
    assert sources == [refinery.id, borrowed.id]  # Bob's own artifact doesn't count


@R11
def test_an_artifact_leaving_after_the_refinery_left_does_not_trigger_it():
    game = Game()
    refinery, vault = game.add(REFINERY), game.add("Mana Vault")
    game.destroy([refinery])
    game.destroy([vault])
    assert len(refinery_triggers(game)) == 1


@R11
def test_refinery_sees_another_artifact_leave_while_it_stays():
    game = Game()
    game.add(REFINERY)
    vault = game.add("Mana Vault")
    game.exile([vault])
    (trigger,) = refinery_triggers(game)
    assert game.log[trigger.parent].payload.object == vault.id
    resolve_all(game)
    assert len(powerstones(game)) == 1


@R11
def test_refinery_and_hangarback_walker_cast_for_x_zero():
    """X = 0: no counters, toughness 0, it dies as a state-based action; the Refinery
    triggers for it, and its own ability makes no Thopters."""
    game = Game()
    game.add(REFINERY)
    walker = game.add("Hangarback Walker", zone="hand")
    game.cast(walker, x=0)
    game.resolve()
    sba = [e for e in game.log if e.kind is EventKind.SBA]
    assert len(sba) == 1 and "toughness" in sba[0].text and sba[0].rules == ("704.5f",)
    died = game.log.children(sba[0].id)[0]
    assert died.kind is EventKind.ZONE_CHANGED and died.payload.destination == "graveyard"
    stack = [i.source_name for i in game.stack]
    assert sorted(stack) == ["Hangarback Walker", REFINERY]
    resolve_all(game)
    assert game.find_all("Thopter") == []
    assert len(powerstones(game)) == 1


@R11
def test_look_back_uses_the_whole_board_as_it_was_before_the_batch():
    """Always Watching leaves in the same event as the creature: the creature's last known
    power still includes the +1/+1 (CR 603.10a)."""
    game = Game()
    watching = game.add("Always Watching")
    bears = game.add("Grizzly Bears")
    game.destroy([watching, bears])
    assert game.chars(bears).pt == "3/3"
    assert bears.last_controller == "Alice"


# ------------------------------------------------------------------ tokens
def test_a_token_that_leaves_the_battlefield_ceases_to_exist():
    game = Game()
    thopter = game.add("Thopter")
    cast_from_hand(game, "Boomerang", "Island", 2, targets=[thopter])
    game.resolve()
    in_hand = game.obj(thopter.moved_to)
    assert in_hand.moved_to is not None  # it went to the hand, then ceased to exist
    assert game.obj(in_hand.moved_to).zone is Zone.NOWHERE
    gone = [e for e in game.log if e.kind is EventKind.ZONE_CHANGED and e.cause is Cause.SBA]
    assert len(gone) == 1 and gone[0].rules == ("704.5d", "111.7")
    assert game.state.in_zone(Zone.HAND) == []


def test_thopter_and_food_are_token_definitions():
    thopter, food = card("Thopter").printed, card("Food").printed
    assert thopter.types == ("Artifact", "Creature") and thopter.pt == "1/1"
    assert thopter.has_keyword("Flying") and not thopter.colors
    assert food.subtypes == ("Food",) and card("Food").token


def test_gilded_goose_makes_food_and_food_gains_three_life():
    game = Game()
    cast_from_hand(game, "Gilded Goose", "Forest", 1)
    game.resolve()  # the Goose
    game.resolve()  # its enters trigger
    (food,) = game.find_all("Food")
    assert food.token and not food.tapped
    mana(game, "Wastes", 2)
    game.activate(food)
    game.resolve()
    assert game.life("Alice") == 23
    assert game.find_all("Food") == []


def test_gilded_goose_sacrifices_a_food_for_any_color():
    game = Game()
    goose = game.add("Gilded Goose")
    food = game.add("Food")
    game.tap_for_mana(goose, "U")
    assert [u.type.value for u in game.pool("Alice")] == ["U"]
    assert food.moved_to is not None and goose.tapped


def test_goose_without_food_can_not_pay_the_sacrifice_and_nothing_changes():
    game = Game()
    goose = game.add("Gilded Goose")
    before = game.snapshot_json()
    with pytest.raises(RulesError, match="Food"):
        game.tap_for_mana(goose, "U")
    assert game.snapshot_json() == before


# ------------------------------------------------------------------ R09
@R09
def test_entering_tapped_is_not_part_of_the_powerstone_definition():
    game = Game()
    stone = game.add("Powerstone")
    assert not stone.tapped
    assert "tapped" not in card("Powerstone").oracle.lower()


@R09
def test_the_creating_effect_decides_that_a_refinery_powerstone_is_tapped():
    game = Game()
    game.destroy([game.add(REFINERY)])
    resolve_all(game)
    (stone,) = powerstones(game)
    made = [e for e in game.log if e.kind is EventKind.TOKEN_CREATED][0]
    assert stone.tapped and made.payload.tapped is True and made.cause is Cause.ABILITY


@R09
def test_a_token_copy_of_a_tapped_powerstone_enters_untapped():
    game = Game()
    stone = game.add("Powerstone", tapped=True)
    cast_from_hand(game, "Stolen Identity", "Island", 6, targets=[stone])
    game.resolve()
    copy = powerstones(game)[-1]
    assert copy.id != stone.id and copy.token and not copy.tapped
    assert stone.tapped
    game.tap_for_mana(copy)
    (unit,) = game.pool("Alice")
    assert unit.type.value == "C" and unit.restriction is not None  # still a Powerstone


@R09
def test_a_copy_of_a_powerstone_the_refinery_made_tapped_enters_untapped():
    game = Game()
    game.destroy([game.add(REFINERY)])
    resolve_all(game)
    (stone,) = powerstones(game)
    cast_from_hand(game, "Stolen Identity", "Island", 6, targets=[stone])
    game.resolve()
    assert [p.tapped for p in powerstones(game)] == [True, False]


# ------------------------------------------------------------------ Rest in Peace
def test_rest_in_peace_exiles_all_graveyards_as_it_enters():
    """"When this enchantment enters, exile all graveyards." (a triggered ability, CR 603.6a)"""
    game = Game()
    mine = game.add("Grizzly Bears", zone="graveyard")
    theirs = game.add("Forest", player="Bob", zone="graveyard")
    rip = game.add("Rest in Peace", zone="hand")
    game.add("Plains")
    game.add("Plains")
    for land in game.find_all("Plains"):
        game.tap_for_mana(land)
    game.cast(rip)
    game.resolve()  # the enchantment enters; its trigger goes on the stack
    assert [i.source_name for i in game.stack] == ["Rest in Peace"]
    game.resolve()
    assert game.obj(mine.moved_to).zone is Zone.EXILE
    assert game.obj(theirs.moved_to).zone is Zone.EXILE
    assert game.state.in_zone(Zone.GRAVEYARD) == []


@R11
def test_with_rest_in_peace_what_would_die_is_exiled_and_the_refinery_still_triggers():
    """Rest in Peace replaces "put into a graveyard" with exile (CR 614.1a); the Refinery
    watches exile from the battlefield too (603.6c), so it still triggers for each nontoken
    artifact and for itself; the finished Shatterstorm is exiled as well."""
    game = Game()
    game.add("Rest in Peace")
    refinery = game.add("Slagstone Refinery")
    memnite = game.add("Memnite")
    game.add("Powerstone", token=True)
    storm = game.add("Shatterstorm", zone="hand")
    mana(game, "Mountain", 4)
    game.cast(storm)
    game.resolve()
    moved = [e for e in game.log if e.kind is EventKind.ZONE_CHANGED
             and e.payload.reason == "destroy"]
    assert {e.payload.destination for e in moved} == {"exile"}
    assert all([a.effect for a in e.applied] == ["Rest in Peace"] for e in moved)
    assert game.obj(refinery.moved_to).zone is Zone.EXILE
    assert game.obj(memnite.moved_to).zone is Zone.EXILE
    assert [o.card.name for o in game.state.in_zone(Zone.EXILE)
            if o.card.name == "Shatterstorm"] == ["Shatterstorm"], "the spell is exiled too"
    assert storm.moved_to is not None
    assert [i.source_name for i in game.stack] == ["Slagstone Refinery"] * 2
    assert game.state.in_zone(Zone.GRAVEYARD) == []


def test_with_rest_in_peace_a_creature_that_dies_to_a_state_based_action_is_exiled():
    """Endless One cast with X=0 is a 0/0: the state-based action would put it into its
    owner's graveyard (CR 704.5f); Rest in Peace exiles it instead."""
    game = Game()
    game.add("Rest in Peace")
    one = game.add("Endless One", zone="hand")
    game.cast(one, x=0)
    game.resolve()
    (gone,) = [e for e in game.log if e.kind is EventKind.ZONE_CHANGED
               and e.cause is Cause.SBA]
    assert gone.payload.destination == "exile" and gone.applied[0].effect == "Rest in Peace"
    assert gone.text.endswith("would be put into its owner's graveyard, and is exiled instead")
    assert [o.card.name for o in game.state.in_zone(Zone.EXILE)] == ["Endless One"]
