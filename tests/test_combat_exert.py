"""Combat and exert: declaring (R17), exert's untap rules (R14, R16), reflexive triggers before
blockers, Vehicles and crew, blockers, trample, lifelink, an additional combat phase."""

import pytest

from mtg_rulekit import Cause, EventKind, Game, RulesError, Step
from tests.helpers import cast_from_hand, end_the_turn, events, mana

R14 = pytest.mark.ruling("R14")
R16 = pytest.mark.ruling("R16")
R17 = pytest.mark.ruling("R17")


def to_attack(game: Game) -> None:
    game.advance("declare_attackers")
    assert game.state.awaiting_attackers


def untap_events(game: Game, obj, turn: int) -> list:
    return [(e.kind.value, getattr(e.payload, "expired", False)) for e in game.log
            if e.turn == turn and e.step == "untap" and e.subject == obj.id
            and e.kind in (EventKind.UNTAPPED, EventKind.UNTAP_SKIPPED)]


# ------------------------------------------------------------------ R17
@R17
def test_exert_is_chosen_as_the_creature_is_declared_an_attacker():
    game = Game()
    initiate = game.add("Glory-Bound Initiate")
    to_attack(game)
    game.declare_attackers([initiate], exert=[initiate])
    (attacks,) = events(game, EventKind.ATTACKS)
    (exerted,) = events(game, EventKind.EXERTED)
    assert exerted.parent == attacks.id and exerted.cause is Cause.ACTION
    assert exerted.rules == ("508.1g", "701.43") and attacks.payload.declared is True
    assert initiate.skip_untap_for == ("Alice",) and initiate.exerted_turn == 1


@R17
def test_only_a_creature_being_declared_can_be_exerted_and_nothing_changes():
    game = Game()
    initiate = game.add("Glory-Bound Initiate")
    bears = game.add("Grizzly Bears")
    to_attack(game)
    before = game.snapshot_json()
    with pytest.raises(RulesError, match="only as it is declared") as err:
        game.declare_attackers([bears], exert=[initiate])
    assert err.value.rule == "508.1g" and "701.43d" in str(err.value)
    with pytest.raises(RulesError, match="no ability that lets it be exerted") as err:
        game.declare_attackers([bears], exert=[bears])
    assert err.value.rule == "701.43d"  # exert "as it attacks" is the creature's own option
    assert game.snapshot_json() == before


@R17
def test_a_creature_cant_be_exerted_later_in_combat():
    game = Game()
    initiate = game.add("Glory-Bound Initiate")
    to_attack(game)
    game.declare_attackers([initiate])
    with pytest.raises(RulesError) as err:
        game.declare_attackers([initiate], exert=[initiate])
    assert err.value.rule == "508.1"
    game.advance("declare_blockers")
    with pytest.raises(RulesError):
        game.declare_attackers([initiate], exert=[initiate])
    assert initiate.skip_untap_for == () and events(game, EventKind.EXERTED) == []


@R17
def test_sandstorm_crasher_token_enters_tapped_and_attacking_and_cant_be_exerted():
    game = Game()
    crasher = game.add("Sandstorm Crasher")
    initiate = game.add("Glory-Bound Initiate")
    to_attack(game)
    game.declare_attackers([crasher], exert=[crasher], target=initiate.id)
    game.resolve()
    (made,) = events(game, EventKind.TOKEN_CREATED)
    token = game.obj(made.payload.new)
    assert token.tapped and token.attacking and not token.declared_attacker
    assert made.payload.tapped and made.payload.attacking and "508.4" in made.rules
    assert [e.subject for e in events(game, EventKind.ATTACKS)] == [crasher.id]
    assert token.skip_untap_for == () and not game.stack  # no exert, no trigger
    with pytest.raises(RulesError) as refused:
        game.declare_attackers([token], exert=[token])
    assert refused.value.rule == "508.4" and "never declared" in str(refused.value)
    assert "exerted" in str(refused.value)  # the ruling's reason, not "declared twice"
    assert str(refused.value).endswith(")") and ") (" not in str(refused.value)  # one rule
    assert not initiate.attacking  # the original stays home


@R17
def test_exert_triggers_resolve_before_blockers_are_declared():
    game = Game()
    initiate = game.add("Glory-Bound Initiate")
    blocker = game.add("Grizzly Bears", player="Bob")
    to_attack(game)
    game.declare_attackers([initiate], exert=[initiate])
    assert game.step is Step.DECLARE_ATTACKERS
    (trigger,) = game.stack
    put = events(game, EventKind.PUT_ON_STACK)[-1]
    assert game.log[put.parent].kind is EventKind.EXERTED and "701.43d" in trigger.ability.rules
    with pytest.raises(RulesError, match="declare blockers step"):
        game.declare_blockers({blocker.id: initiate.id})
    game.advance("declare_blockers")
    assert not game.stack and game.chars(initiate).pt == "4/4"
    game.declare_blockers({blocker.id: initiate.id})
    game.advance("combat_damage")
    assert initiate.damage == 2 and blocker.moved_to is not None
    assert game.life("Alice") == 24  # lifelink: 4 damage dealt


@R17
def test_crasher_token_deals_damage_and_is_sacrificed_at_the_end_step():
    game = Game()
    crasher = game.add("Sandstorm Crasher")
    bears = game.add("Grizzly Bears")
    to_attack(game)
    game.declare_attackers([crasher], exert=[crasher], target=bears.id)
    game.resolve()
    game.advance("combat_damage")
    assert game.life("Bob") == 15
    game.advance("end")
    assert [o.id for o in game.permanents()] == [crasher.id, bears.id]


# ------------------------------------------------------------------ R16
@R16
def test_an_exerted_creature_that_stayed_untapped_loses_the_effect_unused():
    game = Game()
    game.add("Always Watching")  # vigilance: attacking doesn't tap it
    initiate = game.add("Glory-Bound Initiate")
    to_attack(game)
    game.declare_attackers([initiate], exert=[initiate])
    assert not initiate.tapped
    game.next_turn()  # Bob's turn
    game.next_turn()  # Alice's next untap step
    assert untap_events(game, initiate, 3) == [("untap_skipped", True)]
    assert initiate.skip_untap_for == () and not initiate.tapped
    skipped = [e for e in game.log if e.kind is EventKind.UNTAP_SKIPPED][-1]
    assert "already untapped" in skipped.text and skipped.rules == ("701.43",)


@R16
def test_an_exerted_creature_untapped_by_combat_celebrant_stays_untapped_and_effect_expires():
    game = Game()
    initiate = game.add("Glory-Bound Initiate")
    celebrant = game.add("Combat Celebrant")
    to_attack(game)
    game.declare_attackers([initiate, celebrant], exert=[initiate, celebrant])
    while game.stack:
        game.resolve()
    assert not initiate.tapped and celebrant.tapped
    game.next_turn()
    game.next_turn()
    assert untap_events(game, initiate, 3) == [("untap_skipped", True)]
    assert untap_events(game, celebrant, 3) == [("untap_skipped", False)]
    assert celebrant.tapped


@R16
def test_a_vigilant_exerted_creature_tapped_later_stays_tapped_in_the_next_untap_step():
    game = Game()
    game.add("Always Watching")
    initiate = game.add("Glory-Bound Initiate")
    copter = game.add("Smuggler's Copter")
    to_attack(game)
    game.declare_attackers([initiate], exert=[initiate])
    game.advance("main2")
    game.activate(copter, crew=[initiate.id])  # tapping it to crew
    assert initiate.tapped
    game.next_turn()
    game.next_turn()
    assert untap_events(game, initiate, 3) == [("untap_skipped", False)]
    assert initiate.tapped
    game.next_turn()
    game.next_turn()
    assert untap_events(game, initiate, 5) == [("untapped", False)]


# ------------------------------------------------------------------ R14
@R14
def test_a_stolen_creature_exerted_under_act_of_treason_untaps_in_its_owners_untap_step():
    game = Game()
    initiate = game.add("Glory-Bound Initiate", player="Bob", tapped=True)
    cast_from_hand(game, "Act of Treason", "Mountain", 3, targets=[initiate])
    game.resolve()
    assert game.controller_of(initiate) == "Alice" and not initiate.tapped
    to_attack(game)
    game.declare_attackers([initiate], exert=[initiate])
    assert initiate.exerted_by == "Alice"
    game.advance("end")
    assert game.controller_of(initiate) == "Alice" and initiate.tapped
    game.advance()  # cleanup: control returns (CR 514.2); then Bob's untap step
    assert game.controller_of(initiate) == "Bob"
    assert untap_events(game, initiate, 2) == [("untapped", False)]
    assert not initiate.tapped


@R14
def test_each_players_exert_waits_for_that_players_next_untap_step():
    """Alice exerts it, then Bob (who borrowed it) exerts it too: both effects wait, each tied to
    its own player's next untap step (CR 701.43a); Bob's exert doesn't erase Alice's."""
    game = Game()
    initiate = game.add("Glory-Bound Initiate")
    to_attack(game)
    game.declare_attackers([initiate], exert=[initiate])
    game.next_turn()  # Bob's turn 2
    treason = game.add("Act of Treason", player="Bob", zone="hand")
    mana(game, "Mountain", 3, player="Bob")
    game.cast(treason, targets=[initiate])
    game.resolve()  # Bob controls it, untapped, with haste
    to_attack(game)
    game.declare_attackers([initiate], exert=[initiate])
    assert initiate.skip_untap_for == ("Alice", "Bob")
    game.next_turn()  # Alice's untap step (turn 3): Alice's exert keeps it tapped
    assert game.controller_of(initiate) == "Alice" and initiate.tapped
    assert untap_events(game, initiate, 3) == [("untap_skipped", False)]
    assert initiate.skip_untap_for == ("Bob",)
    game.next_turn()  # Bob's untap step (turn 4): Alice controls it, Bob's effect just ends
    assert initiate.skip_untap_for == () and initiate.tapped
    game.next_turn()  # Alice's untap step (turn 5): it untaps as usual
    assert untap_events(game, initiate, 5) == [("untapped", False)]


def test_the_board_table_lists_every_player_an_exert_waits_for():
    from mtg_rulekit.display.tables.dataframes import board

    game = Game()
    initiate = game.add("Glory-Bound Initiate")
    to_attack(game)
    game.declare_attackers([initiate], exert=[initiate])
    game.next_turn()
    treason = game.add("Act of Treason", player="Bob", zone="hand")
    mana(game, "Mountain", 3, player="Bob")
    game.cast(treason, targets=[initiate])
    game.resolve()
    to_attack(game)
    game.declare_attackers([initiate], exert=[initiate])
    row = board(game).set_index("id").loc[initiate.id]
    assert row["exerted"] == "won't untap in Alice's or Bob's next untap step"


@R14
def test_the_exert_effect_ends_at_the_exerting_players_next_untap_step():
    game = Game()
    initiate = game.add("Glory-Bound Initiate", player="Bob")
    cast_from_hand(game, "Act of Treason", "Mountain", 3, targets=[initiate])
    game.resolve()
    to_attack(game)
    game.declare_attackers([initiate], exert=[initiate])
    game.next_turn()
    game.next_turn()  # Alice's untap step: Bob controls it, the effect just ends
    skipped = [e for e in game.log if e.kind is EventKind.UNTAP_SKIPPED and e.turn == 3]
    assert len(skipped) == 1 and skipped[0].payload.moved
    assert "another player controls it" in skipped[0].text
    assert initiate.skip_untap_for == ()


# ---------------------------------------------------------------- combat
def test_combat_celebrant_untaps_the_others_and_adds_a_combat_phase():
    game = Game()
    celebrant = game.add("Combat Celebrant")
    bears = game.add("Grizzly Bears")
    to_attack(game)
    game.declare_attackers([celebrant, bears], exert=[celebrant])
    game.resolve()
    assert not bears.tapped and celebrant.tapped and game.state.extra_combats == 1
    (extra,) = events(game, EventKind.EXTRA_COMBAT)
    assert extra.rules == ("500.8",) and extra.cause is Cause.ABILITY
    game.advance("end_of_combat")
    game.advance("declare_attackers")
    assert game.step is Step.DECLARE_ATTACKERS and game.state.extra_combats == 0
    game.declare_attackers([bears])
    game.advance("main2")
    assert game.life("Bob") == 20 - 4 - 2 - 2


def test_advance_to_declare_attackers_stops_at_the_extra_combats_step():
    """From a declare attackers step, the next declare attackers step is the extra combat's
    (CR 500.8), not the next turn's."""
    game = Game()
    celebrant = game.add("Combat Celebrant")
    bears = game.add("Grizzly Bears")
    to_attack(game)
    game.declare_attackers([celebrant, bears], exert=[celebrant])
    game.resolve()
    game.advance("declare_attackers")
    assert (game.turn, game.step) == (1, Step.DECLARE_ATTACKERS)
    assert game.state.awaiting_attackers and game.state.extra_combats == 0
    begun = [e.payload.step for e in events(game, EventKind.STEP_BEGAN)]
    assert begun.count("declare_attackers") == 2 and begun.count("beginning_of_combat") == 2
    game.declare_attackers([bears])
    assert bears.attacking


def test_combat_celebrant_cant_be_exerted_twice_in_a_turn():
    game = Game()
    celebrant = game.add("Combat Celebrant")
    game.add("Always Watching")  # vigilance: it is still untapped for the second combat
    to_attack(game)
    game.declare_attackers([celebrant], exert=[celebrant])
    game.resolve()
    game.advance("end_of_combat")
    game.advance("declare_attackers")
    before = game.snapshot_json()
    with pytest.raises(RulesError, match="already been exerted this turn"):
        game.declare_attackers([celebrant], exert=[celebrant])
    assert game.snapshot_json() == before
    game.declare_attackers([celebrant])  # attacking without exerting is fine


def test_tah_crop_elite_pumps_the_creatures_there_as_it_resolves():
    game = Game()
    elite = game.add("Tah-Crop Elite")
    bears = game.add("Grizzly Bears")
    to_attack(game)
    game.declare_attackers([elite], exert=[elite])
    game.resolve()
    late = game.add("Memnite")
    assert (game.chars(elite).pt, game.chars(bears).pt, game.chars(late).pt) == (
        "3/3", "3/3", "1/1")
    (began,) = [e for e in events(game, EventKind.EFFECT_BEGAN)]
    assert began.rules == ("611.2c",)


def test_trample_assigns_lethal_to_the_blocker_and_the_rest_to_the_player():
    game = Game()
    crasher = game.add("Sandstorm Crasher")
    memnite = game.add("Memnite", player="Bob")
    to_attack(game)
    game.declare_attackers([crasher])
    game.advance("declare_blockers")
    game.declare_blockers({memnite.id: crasher.id})
    game.advance("combat_damage")
    damage = {e.payload.target: e.payload.amount for e in events(game, EventKind.DAMAGE)
              if e.payload.source == crasher.id}
    assert damage == {memnite.id: 1, "Bob": 2}


def test_a_blocked_creature_whose_blocker_left_deals_no_damage():
    game = Game()
    bears = game.add("Grizzly Bears")
    memnite = game.add("Memnite", player="Bob")
    to_attack(game)
    game.declare_attackers([bears])
    game.advance("declare_blockers")
    game.declare_blockers({memnite.id: bears.id})
    assert bears.blocked
    game.exile([memnite])
    game.advance("combat_damage")
    assert events(game, EventKind.DAMAGE) == [] and game.life("Bob") == 20


def test_summoning_sick_creatures_cant_attack_and_vigilance_doesnt_tap():
    game = Game()
    sick = game.add("Grizzly Bears", sick=True)
    game.add("Always Watching")
    bears = game.add("Grizzly Bears")
    to_attack(game)
    with pytest.raises(RulesError) as err:
        game.declare_attackers([sick])
    assert err.value.rule == "302.6"
    game.declare_attackers([bears])
    assert bears.attacking and not bears.tapped
    assert events(game, EventKind.TAPPED) == []


# ---------------------------------------------------------------- Vehicles
def test_an_uncrewed_vehicle_isnt_a_creature_and_cant_attack():
    game = Game()
    copter = game.add("Smuggler's Copter")
    to_attack(game)
    with pytest.raises(RulesError, match="not a creature"):
        game.declare_attackers([copter])


def test_crew_needs_enough_power_and_a_refused_crew_changes_nothing():
    game = Game()
    caravan = game.add("Cultivator's Caravan")
    bears = game.add("Grizzly Bears")
    before = game.snapshot_json()
    with pytest.raises(RulesError, match="total power 2") as err:
        game.activate(caravan, ability=1, crew=[bears.id])
    assert err.value.rule == "702.122a"
    with pytest.raises(RulesError, match="can't crew"):
        game.activate(caravan, ability=1, crew=[caravan.id])
    assert game.snapshot_json() == before


def test_summoning_sick_creatures_can_crew_and_the_vehicle_attacks_and_loots():
    game = Game()
    copter = game.add("Smuggler's Copter")
    fresh = game.add("Llanowar Elves", sick=True)
    game.add("Island", zone="library")
    game.add("Forest", zone="library")
    game.activate(copter, crew=[fresh.id])
    tapped = events(game, EventKind.TAPPED)[-1]
    assert tapped.payload.crews == copter.id and tapped.cause is Cause.COST
    game.resolve()
    assert copter.crewed and game.chars(copter).types == ("Artifact", "Creature")
    to_attack(game)
    game.declare_attackers([copter])
    game.resolve()  # the loot trigger: draw, then discard the card drawn
    hand = [o.card.name for o in game.state.owned_in("hand", "Alice")]
    graveyard = [o.card.name for o in game.state.owned_in("graveyard", "Alice")]
    assert hand == [] and len(graveyard) == 1
    end_the_turn(game)
    assert not copter.crewed and game.chars(copter).types == ("Artifact",)


def test_a_crewed_caravan_is_summoning_sick_for_its_mana_ability_the_turn_it_arrived():
    game = Game()
    caravan = game.add("Cultivator's Caravan", sick=True)
    game.add("Gigantosaurus")
    game.tap_for_mana(caravan, "G")  # not a creature: {T} is fine
    game.next_turn()
    game.next_turn()
    fresh = game.add("Cultivator's Caravan", sick=True)
    game.activate(fresh, ability=1)
    game.resolve()
    before = game.snapshot_json()
    with pytest.raises(RulesError) as err:
        game.tap_for_mana(fresh, "G")
    assert err.value.rule == "302.6" and game.snapshot_json() == before


# ------------------------------------------------------------ lands
def test_mishras_factory_becomes_a_creature_and_pumps_an_assembly_worker():
    game = Game()
    factory = game.add("Mishra's Factory")
    other = game.add("Mishra's Factory")
    mana(game, "Wastes", 1)
    game.activate(factory, ability=1)
    game.resolve()
    chars = game.chars(factory)
    assert chars.types == ("Artifact", "Creature", "Land") and chars.pt == "2/2"
    assert "Assembly-Worker" in chars.subtypes
    game.activate(other, ability=2, targets=[factory])
    game.resolve()
    assert game.chars(factory).pt == "3/3"
    end_the_turn(game)
    assert game.chars(factory).types == ("Land",) and game.chars(factory).pt == ""


def test_arena_of_glory_enters_tapped_without_a_mountain_and_exerts_for_two():
    game = Game()
    arena = game.add("Arena of Glory", zone="hand")
    game.play_land(arena)
    played = game.obj(arena.moved_to)
    assert played.tapped
    game.next_turn()
    game.next_turn()
    assert not played.tapped
    mana(game, "Mountain", 1)
    game.activate(played, ability=2)  # {R}, {T}, Exert this land: Add {R}{R}
    assert sorted(u.type.value for u in game.pool("Alice")) == ["R", "R"]
    assert played.skip_untap_for == ("Alice",)
    game.next_turn()
    game.next_turn()
    assert played.tapped  # exerted: it didn't untap


def test_arena_of_glory_enters_untapped_with_a_mountain():
    game = Game()
    game.add("Mountain")
    arena = game.add("Arena of Glory", zone="hand")
    game.play_land(arena)
    assert not game.obj(arena.moved_to).tapped


def _arena_mana(game: Game):
    """Alice's Arena of Glory exerted for {R}{R} (paid with a Mountain's {R})."""
    arena = game.add("Arena of Glory")
    mana(game, "Mountain", 1)
    game.activate(arena, ability=2)
    return arena


def test_arena_of_glory_mana_gives_the_creature_spell_haste():
    """"If that mana is spent on a creature spell, it gains haste until end of turn": the
    permanent the spell becomes keeps it (CR 106.6, 400.7a), so it can attack at once."""
    game = Game()
    _arena_mana(game)
    raiders = game.add("Mons's Goblin Raiders", zone="hand")
    game.cast(raiders)
    game.resolve()
    creature = game.find("Mons's Goblin Raiders")
    assert creature.sick and game.chars(creature).has_keyword("Haste")
    to_attack(game)
    game.declare_attackers([creature])
    assert creature.attacking
    end_the_turn(game)
    assert not game.chars(creature).has_keyword("Haste"), "until end of turn"


def test_arena_of_glory_pool_shows_the_rider():
    game = Game()
    _arena_mana(game)
    (unit, n), = game.pool("Alice").parts
    assert n == 2 and unit.rider is not None and "haste" in unit.text()


def test_other_mana_gives_no_haste():
    game = Game()
    _arena_mana(game)
    game.tap_for_mana(game.add("Mountain"))
    raiders = game.add("Mons's Goblin Raiders", zone="hand")
    mountain_r = [u for u in game.pool("Alice") if u.rider is None][0]
    game.cast(raiders, pay_with=f"R#{mountain_r.source}")
    game.resolve()
    creature = game.find("Mons's Goblin Raiders")
    assert not game.chars(creature).has_keyword("Haste")
    to_attack(game)
    with pytest.raises(RulesError) as err:
        game.declare_attackers([creature])
    assert err.value.rule == "302.6"


def test_arena_of_glory_mana_on_a_noncreature_spell_does_nothing_more():
    game = Game()
    _arena_mana(game)
    game.add("Grizzly Bears", player="Bob")
    game.cast(game.add("Shock", zone="hand"), targets=["Bob"])
    assert not [e for e in game.log if e.kind is EventKind.EFFECT_BEGAN]
