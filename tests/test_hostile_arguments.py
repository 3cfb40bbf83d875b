"""Hostile values through the public API: values nested 100,000 deep, text of millions of
characters, values whose repr fails, wrong types for `Game.card`, `copy.copy(game)`. Each is
refused with a `UsageError` (or `RulesError`) that names the argument and quotes the value the
caller gave, and the game is exactly as it was."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from mtg_rulekit import Game, RulesError, UnknownCard, UsageError
from mtg_rulekit.engine.arguments import ACTION_ARGS
from mtg_rulekit.sandbox import SandboxModel
from mtg_rulekit.sandbox import page as sandbox_page
from tests.fuzz import Unprintable
from tests.fuzz import nested as deep


def position() -> Game:
    game = Game()
    game.add("Forest")
    game.add("Grizzly Bears")
    game.add("Giant Growth", zone="hand")
    return game


def state_of(game: Game) -> tuple[Any, ...]:
    return game.snapshot_json(), game.log.dumps(), repr(game.actions)


HOSTILE = [deep(list), deep(dict), Unprintable(), [Unprintable()], {Unprintable(): 1}]
HOSTILE_IDS = ["deep-list", "deep-dict", "bad-repr", "list-of-bad-repr", "dict-of-bad-repr"]


@pytest.mark.parametrize("value", HOSTILE, ids=HOSTILE_IDS)
def test_every_argument_of_every_action_refuses_a_hostile_value(value):
    game = position()
    before = state_of(game)
    for action, spec in ACTION_ARGS.items():
        for argument in [*spec, "decisions"]:
            call = {"decisions": {"target": value}} if argument == "decisions" else {argument: value}
            with pytest.raises((UsageError, RulesError)) as err:
                game.perform(action, **call)
            assert len(str(err.value)) <= 400
            assert state_of(game) == before, (action, argument)


VIEWS = {
    "find": lambda g, v: g.find(v), "find_all": lambda g, v: g.find_all("Forest", zone=v),
    "find_all_controller": lambda g, v: g.find_all("Forest", controller=v),
    "obj": lambda g, v: g.obj(v), "chars": lambda g, v: g.chars(v),
    "describe": lambda g, v: g.describe(v), "controller_of": lambda g, v: g.controller_of(v),
    "mana_value": lambda g, v: g.mana_value(v), "could_produce": lambda g, v: g.could_produce(v),
    "pool": lambda g, v: g.pool(v), "card": lambda g, v: g.card(v),
    "check": lambda g, v: g.check("tap_for_mana", object=v), "offers": lambda g, v: g.offers(v),
    "legal_actions": lambda g, v: g.legal_actions(v), "target_text": lambda g, v: g.target_text(v),
    "undo": lambda g, v: g.undo(v), "permanents": lambda g, v: g.permanents(v),
    "Game": lambda g, v: Game(v), "Game_life": lambda g, v: Game(life=v),
}


@pytest.mark.parametrize("view", sorted(VIEWS))
@pytest.mark.parametrize("value", HOSTILE, ids=HOSTILE_IDS)
def test_every_view_refuses_a_hostile_value(view, value):
    game = position()
    before = state_of(game)
    try:
        VIEWS[view](game, value)
    except (UsageError, RulesError) as err:
        assert len(str(err)) <= 400
    else:
        raise AssertionError(f"{view} took {type(value).__name__}")
    assert state_of(game) == before


def test_the_page_bridge_refuses_deep_json_with_a_message():
    """Parsing JSON 100,000 deep recurses, and in Pyodide that is a fatal error: the bridge
    measures the nesting first and answers like any refusal."""
    game = position()
    view = json.loads(sandbox_page.start(json.dumps(SandboxModel(game).position())))
    sid = view["id"]
    for text in ("[" * 100_000 + "]" * 100_000, '{"permanent": ' + "[" * 40 + "]" * 40 + "}"):
        for answer in (sandbox_page.click(sid, "tap", text), sandbox_page.fields(sid, text),
                       sandbox_page.state(sid, text), sandbox_page.choices(sid, "tap", text)):
            message = json.loads(answer)["message"]
            assert "values: nested more than 32 deep" in message
        start = json.loads(sandbox_page.start(text))
        assert start["error"].startswith("the sandbox's position can't be built: position: "
                                         "nested more than 32 deep")
    # brackets inside strings are text, not nesting
    fine = json.dumps({"choices": "[" * 100 + "{" * 100})
    assert "nested" not in json.loads(sandbox_page.fields(sid, fine)).get("message", "")
    huge = json.dumps({"choices": "x" * 1_100_000})
    assert "at most 1,000,000" in json.loads(sandbox_page.click(sid, "tap", huge))["message"]


@pytest.mark.parametrize("key, value, words", [
    ("cards", 5, "cards: expected a list of card names, got 5"),
    ("cards", [5], "cards: 5 is not a card of the catalog"),
    ("cards", "Forest", "cards: expected a list of card names"),
    ("offers", True, "actions: expected a list of kinds"),
    ("offers", [["mana"]], 'actions: ["mana"] is not a kind of action'),
])
def test_a_position_with_a_malformed_offer_is_refused_with_a_message(key, value, words):
    position_ = {**SandboxModel(position()).position(), key: value}
    answer = json.loads(sandbox_page.start(json.dumps(position_)))
    assert answer["error"].startswith(f"the sandbox's position can't be built: {words}")


# ------------------------------------------------------------------ Game.card
@pytest.mark.parametrize("value", [None, 5, True, 1.5, [], {}, b"Forest", deep(list)])
def test_game_card_refuses_what_is_not_a_name(value):
    with pytest.raises(UsageError, match=r"^card: expected a card name, got "):
        Game().card(value)


def test_game_card_names_an_unknown_card_and_the_nearest():
    with pytest.raises(UnknownCard) as err:
        Game().card("Forrest")
    assert str(err.value) == "card: unknown card 'Forrest'; did you mean 'Forest'?"
    assert isinstance(err.value, LookupError) and isinstance(err.value, UsageError)
    with pytest.raises(LookupError, match=r"^card: unknown card 'zzzz'$"):
        Game().card("zzzz")
    with pytest.raises(UnknownCard, match=r"unknown card 'xxxxx.*\.\.\.$"):
        Game().card("x" * 10_000_000)
    assert Game().card("forest").name == "Forest"


# ------------------------------------------------------------------ text, bounded
@pytest.mark.parametrize("call, words", [
    (lambda g: g.add("Forest", counters={"x" * 10**7: 1}),
     "counters key: 10,000,000 characters ('xxxx"),
    (lambda g: g.add("Utopia Sprawl", attached_to=1, choices={"color": "G" * 201}),
     "choices['color']: 201 characters"),
    (lambda g: g.add("Forest", choices={"c" * 41: "G"}), "choices key: 41 characters"),
    (lambda g: g.set_pool("Alice", [{"type": "C", "restriction": "cavern",
                                     "creature_type": "Elf" * 10**6}]),
     "mana[0].creature_type: 3,000,000 characters"),
    (lambda g: g.pass_priority(replacement_order="x" * 10**6),
     "decisions.replacement_order: 1,000,000 characters"),
    (lambda g: g.pass_priority(target="Alice" * 100), "decisions.target: 500 characters"),
    (lambda g: g.pass_priority(mana_abilities="#1:" + "G" * 300),
     "decisions.mana_abilities: 303 characters"),
    (lambda g: Game(["x" * 10_000, "Bob"]), "players[0]: 10,000 characters"),
])
def test_text_through_the_api_is_bounded_as_the_scenario_schema_bounds_it(call, words):
    game = position()
    before = state_of(game)
    with pytest.raises(UsageError) as err:
        call(game)
    assert str(err.value).startswith(words) and len(str(err.value)) <= 200
    assert state_of(game) == before


def test_text_at_the_bounds_is_taken():
    game = Game(["A" * 40, "Bob"])
    game.add("Forest", counters={"c" * 40: 1})
    game.set_pool("A" * 40, [{"type": "C", "restriction": "cavern", "creature_type": "E" * 40}])
    game.pass_priority(replacement_order="x" * 200)
    assert game.replay().snapshot_json() == game.snapshot_json()


# ------------------------------------------------------------------ copy.copy
def test_copy_copy_of_a_game_is_an_independent_game():
    game = position()
    game.tap_for_mana(1)
    before = state_of(game)
    twin = copy.copy(game)
    assert state_of(twin) == before
    twin.cast(3, targets=[2])
    twin.resolve()
    twin.add("Forest")
    assert state_of(game) == before
    game.undo()
    assert state_of(twin) != state_of(game)
    assert state_of(twin.replay()) == state_of(twin)


# ------------------------------------------------------------------ the value, not None
@pytest.mark.parametrize("value", ["1\u200b", " 1", "+1", "1e0", "#x", "", "#", "one"])
def test_a_refused_id_quotes_the_value_given(value):
    game = position()
    with pytest.raises(UsageError) as err:
        game.tap_for_mana(value)
    assert "None" not in str(err.value)
    assert str(err.value) == (f"object: expected an object id (a whole number such as 7, or "
                              f"'#7'), got {value!r}")
    with pytest.raises(UsageError) as err:
        game.destroy([value])
    assert "None" not in str(err.value) and repr(value) in str(err.value)
