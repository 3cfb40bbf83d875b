"""`Game.check`, `Game.what_if`, `Game.offers` and `Game.legal_actions`: the verdict of
an action before it is taken, with the rule that forbids it, changing nothing."""

from __future__ import annotations

import json

import pytest

from mtg_rulekit import Game, RulesError, UsageError


def everything(game: Game) -> str:
    """The game's whole state and record as text: what `check` must leave as it was."""
    s = game.state
    return json.dumps({
        "state": game.snapshot(), "log": game.log.dumps(), "actions": game.actions,
        "decisions": [repr(d) for d in game.decisions], "next_id": s.next_id,
        "timestamp": s.next_timestamp, "version": s.version, "shape": s.shape_version,
        "passes": s.passes, "pending": len(s.pending), "delayed": len(s.delayed),
        "children": {e.id: [k.id for k in game.log.children(e.id)] for e in game.log},
    }, sort_keys=True, default=str)


def lesson_three() -> Game:
    game = Game(["Alice", "Bob"])
    game.set_turn(turn=4, active="Alice", step="main1")
    forest = game.add("Forest", player="Alice")
    game.add("Wild Growth", player="Alice", attached_to=forest.id)
    game.add("Forest", player="Alice", tapped=True)
    game.add("Mana Reflection", player="Alice")
    game.add("Mana Flare", player="Bob")
    game.add("Llanowar Elves", player="Alice", sick=True)
    game.add("Grizzly Bears", player="Alice", zone="hand")
    return game


def test_a_legal_check_is_none_and_changes_nothing():
    game = lesson_three()
    forest = game.find("Forest")
    before = everything(game)
    assert game.check("tap_for_mana", object=forest.id) is None
    assert everything(game) == before
    game.tap_for_mana(forest)  # and the action itself still happens as it would have
    assert game.pool("Alice").total == 4  # {G}{G} (Reflection), Wild Growth, Mana Flare


def test_an_illegal_check_returns_the_error_perform_raises_and_changes_nothing():
    game = lesson_three()
    tapped = game.find_all("Forest")[1]
    before = everything(game)
    verdict = game.check("tap_for_mana", object=tapped.id)
    assert isinstance(verdict, RulesError) and verdict.rule == "107.5"
    assert "already tapped" in verdict.reason
    assert everything(game) == before
    with pytest.raises(RulesError) as raised:
        game.tap_for_mana(tapped)
    assert str(raised.value) == str(verdict)


def test_a_refusal_after_events_were_logged_is_taken_back_too():
    """Casting Grizzly Bears with an empty pool fails while paying, after the cast began."""
    game = lesson_three()
    bears = game.find("Grizzly Bears", zone="hand")
    before = everything(game)
    verdict = game.check("cast", object=bears.id)
    assert verdict is not None and verdict.rule is not None
    assert everything(game) == before
    forest = game.find("Forest")
    game.tap_for_mana(forest)
    before = everything(game)
    assert game.check("cast", object=bears.id) is None
    assert everything(game) == before


def test_a_malformed_check_raises_usage_error_like_perform():
    game = lesson_three()
    before = everything(game)
    with pytest.raises(UsageError, match="^object: "):
        game.check("tap_for_mana", object=999)
    with pytest.raises(UsageError, match="^action: "):
        game.check("tap_for_mna")
    with pytest.raises(UsageError, match="decisions.replacment_order"):
        game.check("pass_priority", decisions={"replacment_order": "x"})
    assert everything(game) == before


def test_check_takes_decisions_like_perform():
    game = lesson_three()
    forest = game.find("Forest")
    verdict = game.check("tap_for_mana", object=forest.id, decisions={"added_mana": ["U"]})
    assert verdict is not None and verdict.rule == "106.12a"  # Mana Flare: a type it made
    assert game.check("tap_for_mana", object=forest.id,
                      decisions={"added_mana": ["G"]}) is None
    assert game.decisions == [] or all(d.action <= len(game.actions) for d in game.decisions)


def test_what_if_puts_back_several_actions_and_nests():
    game = lesson_three()
    forest = game.find("Forest")
    bears = game.find("Grizzly Bears", zone="hand")
    before = everything(game)
    with game.what_if():
        game.tap_for_mana(forest)
        game.cast(bears)
        inner = everything(game)
        with game.what_if():
            game.resolve()
            assert game.find("Grizzly Bears")
        assert everything(game) == inner
    assert everything(game) == before
    with pytest.raises(RulesError), game.what_if():
        game.tap_for_mana(forest)
        game.tap_for_mana(forest)
    assert everything(game) == before


def test_ids_made_in_a_check_are_made_again_by_the_action():
    game = lesson_three()
    bears = game.find("Grizzly Bears", zone="hand")
    game.tap_for_mana(game.find("Forest"))
    next_id = game.state.next_id
    assert game.check("cast", object=bears.id) is None
    assert game.state.next_id == next_id
    game.cast(bears)
    assert game.replay().snapshot_json() == game.snapshot_json()
    assert game.replay().log.dumps() == game.log.dumps()


def test_legal_actions_are_the_offers_check_allows():
    game = lesson_three()
    offers = game.offers("Alice")
    legal = game.legal_actions("Alice")
    assert {o.label for o in legal} == {"Tap for {G}", "Pass priority", "Go to the next step",
                                        "Go to the next turn"}
    refused = {o.label: game.check(o.action, **o.arguments) for o in offers if o not in legal}
    assert refused["Tap for {G}"].rule in ("107.5", "302.6")
    assert refused["Cast Grizzly Bears"] is not None
    for offer in legal:  # each is a call perform takes as it is
        with game.what_if():
            game.perform(offer.action, **offer.arguments)
    assert game.legal_actions("Bob") == []  # Bob has no priority and nothing to tap


def test_offers_name_each_mana_and_each_cost_choice():
    game = Game(["Alice", "Bob"])
    game.add("Springleaf Drum", player="Alice")
    game.add("Llanowar Elves", player="Alice")
    game.add("Grizzly Bears", player="Alice")
    game.add("Reflecting Pool", player="Alice")
    game.add("Forest", player="Alice")
    game.add("Island", player="Alice")
    drum = [o for o in game.offers("Alice") if o.object == game.find("Springleaf Drum").id]
    assert len(drum) == 2 * 5  # two creatures to tap, five colors
    assert drum[0].label == "Tap for {W}, tapping Llanowar Elves"
    assert drum[0].cost == game.find("Llanowar Elves").id and "targets" not in drum[0].arguments
    pool = [o.label for o in game.offers("Alice") if o.object == game.find("Reflecting Pool").id]
    assert pool == ["Tap for {U}", "Tap for {G}"]
    assert all(game.check(o.action, **o.arguments) is None for o in game.legal_actions())


def test_what_if_puts_back_an_undo_and_a_reset_inside_it():
    game = lesson_three()
    game.tap_for_mana(game.find("Forest"))
    before = everything(game)
    with game.what_if():
        game.undo(2)
        game.advance()
    assert everything(game) == before
    assert game.replay().log.dumps() == game.log.dumps()
