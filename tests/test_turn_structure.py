"""The turn's structure: who gets priority after each turn-based action (CR 117.3a), no
priority in the cleanup step unless something happens there (CR 514.3, 514.3a)."""

from __future__ import annotations

import pytest

from mtg_rulekit import EventKind, Game, RulesError, Step, UsageError, Zone
from mtg_rulekit.display.tables.rows import pools_table
from tests.helpers import events, mana


def _cleanups(game: Game, since: int = 0) -> list:
    return [e for e in events(game, EventKind.STEP_BEGAN, since) if e.payload.step == "cleanup"]


def _turn_note(game: Game, player: str) -> str:
    return next(r["turn"] for r in pools_table(game).rows if r["player"] == player)


# ------------------------------------------------------------------ cleanup (CR 514.3)
def test_nobody_gets_priority_in_an_uneventful_cleanup_step():
    """From the end step, the next step to stop in is the next turn's upkeep: the cleanup
    step happens (its turn-based actions are logged) but nobody gets priority in it."""
    game = Game()
    game.add("Forest", player="Bob", zone="library")
    game.advance("end")
    seen = len(game.log)
    game.advance()
    assert (game.turn, game.active, game.step) == (2, "Bob", Step.UPKEEP)
    (cleanup,) = _cleanups(game, seen)
    turn_began = events(game, EventKind.TURN_BEGAN, seen)[0]
    priority_in_cleanup = [e for e in events(game, EventKind.PRIORITY, seen)
                           if cleanup.id < e.id < turn_began.id]
    assert priority_in_cleanup == []
    assert "cleanup" not in _turn_note(game, "Bob") and "upkeep" in _turn_note(game, "Bob")


def test_advancing_to_the_cleanup_step_is_refused_and_changes_nothing():
    game = Game()
    before = game.snapshot_json()
    with pytest.raises(RulesError) as err:
        game.advance("cleanup")
    assert err.value.rule == "514.3" and game.snapshot_json() == before
    with pytest.raises(RulesError) as err:
        game.set_turn(step="cleanup")
    assert err.value.rule == "514.3" and game.snapshot_json() == before


def test_a_shock_cant_be_cast_between_the_end_step_and_the_next_turn():
    """The audit's probe: Next step from the end step, then Shock. The game is in Bob's upkeep
    by then, where Alice has no priority; she never had it in the cleanup step."""
    game = Game()
    game.add("Forest", player="Bob", zone="library")
    shock = game.add("Shock", zone="hand")
    game.add("Mountain")
    game.advance("end")
    game.advance()
    assert game.step is Step.UPKEEP and game.priority == "Bob"
    with pytest.raises(RulesError) as err:
        game.cast(shock, targets=["Bob"])
    assert err.value.rule == "117.1"


def _stolen_legend_returns(game: Game):
    """Alice borrows Bob's Kiki-Jiki until end of turn and Bob gets another one meanwhile; in
    the cleanup step the first returns, and Bob controls two legendary permanents with the
    same name."""
    game.add("Forest", player="Bob", zone="library")
    kiki = game.add("Kiki-Jiki, Mirror Breaker", player="Bob")
    treason = game.add("Act of Treason", zone="hand")
    mana(game, "Mountain", 3)
    game.cast(treason, targets=[kiki])
    game.resolve()
    assert game.controller_of(kiki) == "Alice"
    game.add("Kiki-Jiki, Mirror Breaker", player="Bob")
    game.advance("end")
    return kiki


def test_a_state_based_action_in_cleanup_gives_the_active_player_priority():
    """CR 514.3a: the legend rule applies in the cleanup step, so Alice gets priority there,
    may cast an instant, and once all pass another cleanup step begins (uneventful: the turn
    ends)."""
    game = Game()
    _stolen_legend_returns(game)
    shock = game.add("Shock", zone="hand")
    mountain = game.add("Mountain")
    seen = len(game.log)
    game.advance()
    assert (game.turn, game.step, game.priority) == (1, Step.CLEANUP, "Alice")
    assert len(game.find_all("Kiki-Jiki, Mirror Breaker")) == 1, "the legend rule (704.5j)"
    assert any(e.kind is EventKind.NOTE and "514.3a" in e.rules for e in game.log.since(seen))
    assert "cleanup step" in _turn_note(game, "Alice") and "has priority" in _turn_note(
        game, "Alice")
    game.tap_for_mana(mountain)
    game.cast(shock, targets=["Bob"])  # players may cast spells now (514.3a)
    game.resolve()
    assert game.life("Bob") == 18 and game.step is Step.CLEANUP
    game.advance()
    assert (game.turn, game.step) == (2, Step.UPKEEP)
    assert len(_cleanups(game, seen)) == 2, "another cleanup step followed (514.3a)"


# ------------------------------------------------ after each turn-based action (CR 117.3a)
def _bears_attack(game: Game):
    """Alice's Grizzly Bears attack; Bob has an untapped Llanowar Elves to block with."""
    bears = game.add("Grizzly Bears")
    elves = game.add("Llanowar Elves", player="Bob")
    game.advance("declare_attackers")
    return bears, elves


def test_after_blockers_are_declared_the_active_player_gets_priority():
    """Declaring blockers is a turn-based action (CR 509.1): Bob declares, and then Alice, the
    active player, gets priority (117.3a); Bob can act only once she passes."""
    game = Game()
    bears, elves = _bears_attack(game)
    game.declare_attackers([bears])
    game.advance("declare_blockers")
    assert "declares blockers" in _turn_note(game, "Bob")
    assert "has priority" not in _turn_note(game, "Alice")
    growth = game.add("Giant Growth", player="Bob", zone="hand")
    game.add("Forest", player="Bob")
    game.declare_blockers({elves.id: bears.id})
    assert (game.priority, game.state.passes) == ("Alice", 0)
    assert "has priority" in _turn_note(game, "Alice")
    before = game.snapshot_json()
    with pytest.raises(RulesError) as err:
        game.cast(growth, targets=[elves])
    assert err.value.rule == "117.1" and game.snapshot_json() == before
    game.pass_priority()
    assert game.priority == "Bob"


def test_after_attackers_are_declared_the_active_player_gets_priority():
    game = Game()
    bears, _ = _bears_attack(game)
    assert "declares attackers" in _turn_note(game, "Alice")
    game.declare_attackers([bears])
    assert (game.priority, game.state.passes) == ("Alice", 0)


@pytest.mark.parametrize("declare", ["attackers", "blockers"])
def test_no_one_acts_before_the_declaration_and_nothing_changes(declare):
    """Attackers (blockers) are declared first as the step begins (CR 508.1, 509.1); nobody
    has priority before that, so an instant is refused and the game is as it was."""
    game = Game()
    bears, _ = _bears_attack(game)
    if declare == "blockers":
        game.declare_attackers([bears])
        game.advance("declare_blockers")
    shock = game.add("Shock", zone="hand")
    game.add("Mountain")
    before = game.snapshot_json()
    with pytest.raises(RulesError) as err:
        game.cast(shock, targets=["Bob"])
    assert err.value.rule == ("508.1" if declare == "attackers" else "509.1")
    assert game.snapshot_json() == before


def test_after_the_draw_and_after_combat_damage_the_active_player_gets_priority():
    """The draw (CR 504.1) and combat damage (510.2) are turn-based actions: the active player
    gets priority after each, whoever had it before the step began."""
    game = Game()
    game.add("Forest", player="Bob", zone="library")
    game.set_turn(turn=2, active="Bob", step="upkeep")
    game.pass_priority()  # Bob passes
    assert game.priority == "Alice"
    game.pass_priority()  # Alice passes: the draw step begins
    assert game.step is Step.DRAW and len(game.state.owned_in("hand", "Bob")) == 1
    assert (game.priority, game.state.passes) == ("Bob", 0)
    game2 = Game()
    bears, _ = _bears_attack(game2)
    game2.declare_attackers([bears])
    game2.advance("declare_blockers")
    game2.pass_priority()
    game2.pass_priority()  # nobody blocks, both pass: combat damage
    assert game2.state.step is Step.COMBAT_DAMAGE and game2.life("Bob") == 18
    assert (game2.state.priority, game2.state.passes) == ("Alice", 0)


# ------------------------------------------------------- phasing (CR 502.1, 702.26)
def _libraries(game: Game) -> None:
    for player in ("Alice", "Bob"):
        for _ in range(6):
            game.add("Island", player=player, zone="library")


def test_a_crocodile_phases_out_then_in_and_is_not_summoning_sick():
    """Sandbar Crocodile arrives (summoning sick), phases out in Alice's next untap step and
    is treated as though it doesn't exist; it phases in during the one after and attacks at
    once: phasing changes neither zone nor control (CR 702.26d, 302.6)."""
    game = Game()
    _libraries(game)
    croc = game.add("Sandbar Crocodile", sick=True)
    shock = game.add("Shock", player="Bob", zone="hand")
    game.next_turn()
    game.next_turn()  # Alice's turn 3: it phased out first thing in her untap step
    assert croc.phased_out and croc.zone.value == "battlefield"
    assert game.permanents("Alice") == []
    phased = [e for e in game.log if e.kind is EventKind.PHASED]
    assert [(e.turn, e.step, e.payload.phased_in) for e in phased] == [(3, "untap", False)]
    game.advance("declare_attackers")
    before = game.snapshot_json()
    with pytest.raises(RulesError) as err:
        game.declare_attackers([croc])
    assert err.value.rule == "702.26b" and game.snapshot_json() == before
    game.pass_priority()  # Alice declares no attackers and passes: Bob has priority
    assert game.priority == "Bob"
    game.tap_for_mana(game.add("Mountain", player="Bob"))
    before = game.snapshot_json()
    with pytest.raises(RulesError) as err:
        game.cast(shock, targets=[croc])  # it can't be targeted: it "doesn't exist"
    assert err.value.rule == "115.1" and game.snapshot_json() == before
    game.next_turn()
    game.next_turn()  # Alice's turn 5: it phases in, the same permanent
    assert not croc.phased_out and not croc.sick and croc.moved_to is None
    game.advance("declare_attackers")
    game.declare_attackers([croc])
    game.advance("end_of_combat")
    assert game.life("Bob") == 14


def test_phasing_comes_before_untapping_and_takes_attached_equipment_along():
    """In the untap step phasing happens first (CR 502.1), so a tapped Crocodile phasing in
    untaps in the same step; a Bonesplitter attached to it phases out and in with it."""
    game = Game()
    _libraries(game)
    croc = game.add("Sandbar Crocodile", tapped=True)
    splitter = game.add("Bonesplitter", attached_to=croc)
    game.next_turn()
    game.next_turn()
    assert croc.phased_out and splitter.phased_out and croc.tapped
    game.next_turn()
    game.next_turn()
    assert not croc.phased_out and not splitter.phased_out
    assert not croc.tapped and splitter.attached_to == croc.id
    assert game.chars(croc).pt == "8/4", "the Bonesplitter works again"
    untap = [e for e in game.log if e.turn == 5 and e.step == "untap"
             and e.kind in (EventKind.PHASED, EventKind.UNTAPPED)]
    assert [e.kind for e in untap] == [EventKind.PHASED, EventKind.PHASED, EventKind.UNTAPPED]
    assert untap[1].payload.indirectly


def test_passing_before_blockers_are_declared_declares_none():
    """As with attackers, passing while blockers are still to be declared is declaring none
    (CR 509.1); then the active player has priority and the step goes on as usual."""
    game = Game()
    bears, _ = _bears_attack(game)
    game.declare_attackers([bears])
    game.advance("declare_blockers")
    game.pass_priority()
    (declared,) = [e for e in events(game, EventKind.DECLARED)
                   if e.payload.declared == "blockers"]
    assert (declared.payload.player, declared.payload.count) == ("Bob", 0)
    assert not game.state.awaiting_blockers and game.priority == "Bob"
    with pytest.raises(RulesError) as err:
        game.declare_blockers({})
    assert err.value.rule == "509.1"


# ------------------------------------------------------------------ skipping combat steps
def _steps(game: Game, since: int) -> list[str]:
    return [e.payload.step for e in events(game, EventKind.STEP_BEGAN, since)]


def _attack_with_bears() -> tuple[Game, object]:
    game = Game()
    bears = game.add("Grizzly Bears", sick=False)
    game.add("Mountain")
    game.add("Shock", zone="hand")
    game.advance("declare_attackers")
    game.declare_attackers([bears])
    return game, bears


def test_an_attacker_that_leaves_combat_still_has_its_blockers_and_damage_steps():
    """CR 506.1, 508.8 skip the declare blockers and combat damage steps only when no creature
    was declared as an attacker (or put onto the battlefield attacking): the only attacker
    dying in the declare attackers step leaves both steps in place, with nothing in them."""
    game, bears = _attack_with_bears()
    game.tap_for_mana(game.find("Mountain"))
    game.cast(game.find("Shock", zone="hand"), targets=[bears])
    game.resolve()
    assert game.find_all("Grizzly Bears", zone="graveyard") and game.step is \
        Step.DECLARE_ATTACKERS
    seen = len(game.log)
    game.advance()
    assert game.step is Step.DECLARE_BLOCKERS
    game.advance("end_of_combat")
    assert _steps(game, seen) == ["declare_blockers", "combat_damage", "end_of_combat"]
    assert not events(game, EventKind.DAMAGE, seen) and game.life("Bob") == 20
    assert game.replay().snapshot_json() == game.snapshot_json()


def test_an_attacker_removed_by_set_up_still_leaves_the_steps_and_none_declared_skips_them():
    game, bears = _attack_with_bears()
    game.destroy([bears])
    seen = len(game.log)
    game.advance("end_of_combat")
    assert _steps(game, seen) == ["declare_blockers", "combat_damage", "end_of_combat"]
    # the next combat, with no attacker declared: skipped again (CR 508.8)
    game.next_turn()
    game.next_turn()
    game.advance("declare_attackers")
    game.declare_attackers([])
    seen = len(game.log)
    with pytest.raises(RulesError, match=r"508\.8"):
        game.advance("declare_blockers")
    game.advance()
    assert _steps(game, seen) == ["end_of_combat"]


# ------------------------------------------------------------------ discard to hand size (CR 514.1)
def _full_hand(cards: int = 9, bob: int = 0) -> Game:
    game = Game()
    for _ in range(cards):
        game.add("Forest", zone="hand")
    for _ in range(bob):
        game.add("Island", zone="hand", player="Bob")
    game.add("Forest", zone="library", player="Bob")
    game.advance("end")
    return game


def _in(game: Game, zone: str, player: str = "Alice") -> list[int]:
    return sorted(o.id for o in game.state.owned_in(Zone(zone), player))


def test_the_active_player_discards_down_to_seven_in_the_cleanup_step():
    """By default the cards that came into the hand last go, all at once, as the first thing
    in the cleanup step (CR 514.1), each a discard (701.9a); the choice is on record as
    Alice's, made by default."""
    game = _full_hand(9, bob=9)
    seen = len(game.log)
    game.next_turn()
    assert _in(game, "hand") == list(range(1, 8)) and len(_in(game, "graveyard")) == 2
    discards = [e for e in game.log.since(seen) if e.kind is EventKind.ZONE_CHANGED
                and e.payload.reason == "discard"]
    assert [e.text for e in discards] == ["Alice discards Forest (#9)",
                                          "Alice discards Forest (#8)"]
    assert all(e.rules == ("514.1", "701.9a") for e in discards)
    cleanup = next(e for e in game.log.since(seen) if e.kind is EventKind.STEP_BEGAN
                   and e.payload.step == "cleanup")
    assert discards[0].id > cleanup.id and discards[0].parent == discards[1].parent
    assert [(d.key, d.player, d.answer, d.given) for d in game.decisions[-2:]] == [
        ("discard", "Alice", 9, False), ("discard", "Alice", 8, False)]
    assert len(_in(game, "hand", "Bob")) == 10  # not Bob's cleanup: he keeps his (and drew)
    assert game.replay().snapshot_json() == game.snapshot_json()


def test_the_active_player_chooses_which_cards_to_discard():
    game = _full_hand(9)
    game.next_turn(discard=[1, "#3"])
    assert _in(game, "hand") == [2, 4, 5, 6, 7, 8, 9]
    assert [o.card.name for o in game.state.owned_in(Zone.GRAVEYARD, "Alice")] == ["Forest"] * 2
    assert [(d.answer, d.given) for d in game.decisions if d.key == "discard"] == [(1, True),
                                                                                  (3, True)]


@pytest.mark.parametrize("answers", [[1, 1], [10], [99], ["Alice"]])
def test_discarding_what_is_not_in_the_hand_is_refused_and_changes_nothing(answers):
    game = _full_hand(9, bob=1)
    before = game.snapshot_json(), game.log.dumps()
    with pytest.raises((RulesError, UsageError)) as err:
        game.next_turn(discard=answers)
    assert isinstance(err.value, UsageError) or err.value.rule == "514.1"
    assert (game.snapshot_json(), game.log.dumps()) == before


def test_seven_cards_or_fewer_are_kept():
    game = _full_hand(7)
    seen = len(game.log)
    game.next_turn()
    assert len(_in(game, "hand")) == 7 and not _in(game, "graveyard")
    assert not any(e.payload is not None and getattr(e.payload, "reason", "") == "discard"
                   for e in game.log.since(seen))


def test_a_creature_set_up_attacking_has_its_blockers_and_damage_steps():
    """Set-up may put a creature onto the battlefield attacking before combat: it is attacking
    as the declare attackers step ends, so it was put there attacking (CR 508.8)."""
    game = Game()
    game.add("Grizzly Bears", attacking=True, sick=False)
    game.advance("declare_attackers")
    seen = len(game.log)
    game.advance("end_of_combat")
    assert _steps(game, seen) == ["declare_blockers", "combat_damage", "end_of_combat"]
    assert game.life("Bob") == 18
