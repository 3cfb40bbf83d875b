"""Engine bugs found by trying the kit as a careless or hostile user would: each one
stuck a game, crashed the log or ran out of memory. One test per bug, through the public API."""

import json

import pytest

from mtg_rulekit import EventKind, Game, RulesError, Step


def test_two_state_based_actions_on_one_object_move_it_once():
    """CR 704.3: state-based actions happen at once. Rofellos (2/1) with a -1/-1 counter has 0
    toughness (704.5f), and the legend rule (704.5j) picks the same one: two reasons, one move."""
    game = Game()
    first = game.add("Rofellos, Llanowar Emissary", counters={"-1/-1": 1})
    game.add("Rofellos, Llanowar Emissary")
    game.advance()
    moved = [e for e in game.log if e.kind is EventKind.ZONE_CHANGED
             and getattr(e.payload, "object", None) == first.id and getattr(e.payload, "destination", None) == "graveyard"]
    assert len(moved) == 1
    sba = game.log[moved[0].parent]
    assert {"704.5f", "704.5j"} <= set(sba.rules)
    assert len(game.find_all("Rofellos, Llanowar Emissary")) == 1
    game.advance()  # the game goes on
    game.next_turn()


def test_the_log_serialises_after_a_delayed_trigger_is_created():
    """Sandstorm Crasher's token copy sets up "sacrifice it at the beginning of the next end
    step": a delayed trigger the log holds as plain data."""
    game = Game()
    crasher = game.add("Sandstorm Crasher")
    bears = game.add("Grizzly Bears")
    game.set_turn(step=Step.BEGIN_COMBAT)
    game.advance("declare_attackers")
    game.declare_attackers([crasher], exert=[crasher], target=bears.id)
    game.resolve()
    assert any(o.token for o in game.permanents())
    data = json.loads(game.log.dumps())["events"]
    delayed = [e for e in data if "delayed" in json.dumps(e)]
    assert delayed
    game.advance("end")
    json.loads(game.log.dumps())


def test_sixty_four_mana_reflections_make_two_to_the_sixty_four_mana():
    """Each Mana Reflection doubles the mana (CR 616.1): 2^64 {G}, kept as a count."""
    game = Game()
    forest = game.add("Forest")
    for _ in range(64):
        game.add("Mana Reflection")
    game.tap_for_mana(forest)
    pool = game.pool("Alice")
    assert pool.total == 2 ** 64
    json.loads(game.log.dumps())
    game.undo()
    assert game.pool("Alice").total == 0 and not game.obj(forest.id).tapped


def test_sorcery_timing_names_the_rule_of_each_action():
    """Casting a noninstant spell outside its time is refused by CR 117.1a (not the sorcery
    rule, 307.1, for a creature), playing a land by 305.1."""
    g = Game(["Alice", "Bob"])
    bears = g.add("Grizzly Bears", player="Alice", zone="hand")
    forest = g.add("Forest", player="Alice", zone="hand")
    g.set_turn(step=Step.UPKEEP)
    before = g.log.dumps()
    with pytest.raises(RulesError) as cast:
        g.cast(bears)
    assert cast.value.rule == "117.1a" and g.log.dumps() == before
    with pytest.raises(RulesError) as play:
        g.play_land(forest)
    assert play.value.rule == "305.1"
