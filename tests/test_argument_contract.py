"""The engine's argument contract: what a caller may pass, and what a bad value gets (a
`UsageError` naming the argument, or a `RulesError` naming the rule; never another exception, and
the game unchanged). By topic: objects given where ids belong, the trigger limit, digits that
aren't ASCII, numbers too large, a game's own arguments, the sandbox page's values, and paying
with named sources."""

from __future__ import annotations

import json
import math

import pytest

from mtg_rulekit import Game, RulesError, UsageError
from mtg_rulekit import game as rk_game
from mtg_rulekit.core.decisions import DECISIONS, LARGEST, NAMING_DECISIONS
from mtg_rulekit.core.errors import ChoiceNeeded
from mtg_rulekit.engine import actions as rk_actions
from mtg_rulekit.sandbox import SandboxModel, choices
from mtg_rulekit.sandbox import page as sandbox_page

FEATHER = "Angel's Feather"


def state_of(game: Game) -> tuple:
    """Everything a refused action must leave as it was."""
    return (game.snapshot_json(), game.log.dumps(), list(game.actions),
            [d.to_json() for d in game.decisions])


def feathers_and_lion() -> tuple[Game, object, list]:
    """Two Angel's Feathers and two Plains for Alice, Silvercoat Lion ({1}{W}) in her hand."""
    game = Game()
    game.add(FEATHER)
    game.add(FEATHER)
    plains = [game.add("Plains"), game.add("Plains")]
    return game, game.add("Silvercoat Lion", zone="hand"), plains


# ---------------------------------------------------------------- objects given where ids belong
def test_mana_abilities_given_as_objects_are_recorded_as_ids_and_replay():
    game = Game()
    forest = game.add("Forest")
    game.add("Forest")
    bears = game.add("Grizzly Bears", zone="hand")
    game.cast(bears, mana_abilities=[forest, "#2"])
    assert game.actions[-1][1]["decisions"] == {"mana_abilities": [forest.id, 2]}
    again = game.replay()
    assert again.snapshot_json() == game.snapshot_json()
    assert again.log.dumps() == game.log.dumps()
    game.resolve()
    game.undo()  # replays the cast: the Forest must not be "already tapped"
    assert game.stack and game.find_all("Grizzly Bears", zone="stack")


def test_every_object_decision_turns_an_object_into_its_id():
    game, lion, plains = feathers_and_lion()
    seen = {}
    assert NAMING_DECISIONS == {"copy", "crew", "discard", "encode", "legend_keep", "sacrifice",
                                "target", "trigger_order", "mana_abilities"}
    for key in sorted(NAMING_DECISIONS):  # an answer nothing asks for is kept, unused
        game.pass_priority(**{key: plains[0]})
        seen[key] = game.actions[-1][1]["decisions"][key]
        assert game.replay().snapshot_json() == game.snapshot_json()
        game.undo()
    assert seen == {key: [plains[0].id] for key in NAMING_DECISIONS}


@pytest.mark.parametrize("key", sorted(set(DECISIONS) - NAMING_DECISIONS))
def test_an_object_where_no_object_belongs_is_a_usage_error(key):
    game, _, plains = feathers_and_lion()
    before = state_of(game)
    with pytest.raises(UsageError, match=f"decisions.{key}: .*got an object"):
        game.pass_priority(**{key: plains[0]})
    assert state_of(game) == before


def test_target_given_as_an_object_is_not_a_bare_value_error():
    game = Game()
    bears = game.add("Grizzly Bears")
    game.pass_priority(target=bears)  # nothing asks for a target: recorded, unused
    assert game.actions[-1][1]["decisions"] == {"target": [bears.id]}
    assert game.replay().snapshot_json() == game.snapshot_json()


def test_trigger_order_given_as_an_object_orders_by_its_id_without_a_repr():
    game, lion, plains = feathers_and_lion()
    second = game.find_all(FEATHER)[1]
    game.cast(lion, mana_abilities=plains, trigger_order=second)
    assert game.stack[-1].source != second.id  # put on the stack first: resolves last
    assert game.stack[1].source == second.id
    assert game.replay().snapshot_json() == game.snapshot_json()
    game.undo()
    with pytest.raises(RulesError) as err:
        game.cast(lion, mana_abilities=plains, trigger_order=lion)
    assert "GameObject(" not in str(err.value) and f"{lion.id} is not the source" in str(err.value)


def test_an_object_as_a_mana_ability_answer_refuses_with_the_real_reason_and_changes_nothing():
    """Two Angel's Feathers, an earlier cast paid with objects, then trigger_order="nonsense"."""
    game, lion, plains = feathers_and_lion()
    bears = game.add("Grizzly Bears", zone="hand")
    game.add("Forest")
    game.add("Forest")
    forests = game.find_all("Forest")
    game.cast(bears, mana_abilities=[forests[0], f"#{forests[1].id}"])
    while game.stack:
        game.resolve()
    before = state_of(game)
    with pytest.raises(RulesError, match="nonsense is not the source") as err:
        game.cast(lion, mana_abilities=plains, trigger_order="nonsense")
    assert err.value.rule == "603.3b"
    assert state_of(game) == before
    assert game.obj(lion.id).zone.value == "hand" and not game.stack


def test_a_rollback_whose_replay_fails_still_puts_the_game_back(monkeypatch):
    game, lion, plains = feathers_and_lion()
    game.add("Grizzly Bears", counters={"+1/+1": 2})
    before = state_of(game)

    def broken(self, actions):
        raise RuntimeError("the replay broke")

    monkeypatch.setattr(rk_game.Game, "_rebuild", broken)
    with pytest.raises(RulesError, match="nonsense is not the source"):
        game.cast(lion, mana_abilities=plains, trigger_order="nonsense")
    assert state_of(game) == before  # not half cast: the action's own error, nothing changed
    monkeypatch.undo()
    game.cast(lion, mana_abilities=plains)  # and the game goes on, replayable
    assert game.replay().log.dumps() == game.log.dumps()


# ---------------------------------------------------------------- the limit on waiting triggers
@pytest.mark.slow
def test_advance_resolves_600_feather_triggers():
    game = Game()
    for _ in range(600):
        game.add(FEATHER)
    game.set_pool("Alice", [{"type": "W"}] * 2)
    game.cast(game.add("Silvercoat Lion", zone="hand"))
    game.advance()
    assert not game.stack and game.life("Alice") == 620
    game.next_turn()
    assert game.turn == 2


def test_more_than_the_limit_is_a_rules_error_naming_it(monkeypatch):
    monkeypatch.setattr(rk_actions, "RESOLVE_LIMIT", 2)
    game, lion, plains = feathers_and_lion()
    game.cast(lion, mana_abilities=plains)  # the Lion and two Feather triggers: 3 to resolve
    before = state_of(game)
    for call in (game.advance, game.next_turn):
        with pytest.raises(RulesError, match="more than 2 spells and abilities") as err:
            call()
        assert err.value.rule == "117.4" and "bug" not in str(err.value)
        assert state_of(game) == before


# ---------------------------------------------------------------- digits that are not ASCII
@pytest.mark.parametrize("digits", ["²", "#²", "٣", "#１"])
def test_non_ascii_digits_are_usage_errors_naming_the_argument(digits):
    game = Game()
    game.add("Forest")
    bears = game.add("Grizzly Bears")
    before = state_of(game)
    calls = {
        "object": lambda: game.tap_for_mana(digits),
        "objects[0]": lambda: game.destroy([digits]),
        "targets[0]": lambda: game.cast(bears, targets=[digits]),
        "blocks key": lambda: game.declare_blockers({digits: bears.id}),
        "sacrifice": lambda: game.activate(bears, sacrifice=digits),
        "decisions.legend_keep": lambda: game.pass_priority(legend_keep=digits),
        "decisions.mana_abilities": lambda: game.pass_priority(mana_abilities=[digits]),
        "decisions.target": lambda: game.pass_priority(target=digits),
        "decisions.trigger_order": lambda: game.pass_priority(trigger_order=digits),
        "decisions.sacrifice": lambda: game.pass_priority(sacrifice=f"#{digits}"),
    }
    for argument, call in calls.items():
        with pytest.raises(UsageError, match="digits 0-9") as err:
            call()
        assert err.value.argument == argument
    assert state_of(game) == before


def test_the_sandbox_choices_box_refuses_non_ascii_digits():
    assert choices({"choices": "target=#5; sacrifice=7"}) == {"target": [5], "sacrifice": [7]}
    with pytest.raises(UsageError, match="decisions.target: .*digits 0-9"):
        choices({"choices": "target=²"})
    game = Game()
    game.add("Forest")
    model = SandboxModel(game)
    outcome = model.click("pass", {"choices": "sacrifice=#²"})
    assert outcome.kind == "refused" and "digits 0-9" in outcome.text


# ---------------------------------------------------------------- numbers too large
HUGE = 10 ** 5000


def test_huge_integers_are_usage_errors_everywhere():
    game = Game()
    game.add("Forest")
    vault = game.add("Mana Vault")
    spell = game.add("Grizzly Bears", zone="hand")
    before = state_of(game)
    calls = {
        "counters['+1/+1']": lambda: game.add("Grizzly Bears", counters={"+1/+1": HUGE}),
        "life": lambda: game.set_life("Alice", HUGE),
        "turn": lambda: game.set_turn(turn=HUGE),
        "x": lambda: game.cast(spell, x=HUGE),
        "ability": lambda: game.activate(vault, HUGE),
        "object": lambda: game.tap_for_mana(HUGE),
        "decisions.sacrifice": lambda: game.pass_priority(sacrifice=HUGE),
        "decisions.may": lambda: game.pass_priority(may=HUGE),
        "n": lambda: game.undo(HUGE),
    }
    for argument, call in calls.items():
        with pytest.raises(UsageError, match="digits") as err:
            call()
        assert err.value.argument == argument
        assert len(str(err.value)) < 400
    assert state_of(game) == before
    with pytest.raises(UsageError, match="5,000 digits"):
        game.tap_for_mana("9" * 5000)


@pytest.mark.parametrize("view", ["chars", "controller_of", "describe", "obj", "could_produce",
                                  "mana_value", "target_text", "pool", "find", "find_all"])
def test_views_refuse_huge_numbers_with_a_usage_error(view):
    game = Game()
    game.add("Forest")
    with pytest.raises(UsageError, match="digits"):
        getattr(game, view)(HUGE)


def test_find_refuses_what_is_not_a_name_or_zone():
    game = Game()
    game.add("Forest")
    with pytest.raises(UsageError, match="name: expected a card name"):
        game.find(None)
    for zone in ("moon", [1], "nowhere"):
        with pytest.raises(UsageError, match="is not a zone"):
            game.find("Forest", zone=zone)
    assert game.find("Forest", zone="battlefield").id == 1


def test_the_largest_number_allowed_still_dumps_snapshots_and_replays():
    game = Game()
    game.add("Grizzly Bears", counters={"+1/+1": LARGEST})
    game.set_life("Bob", -LARGEST)
    with pytest.raises(UsageError, match="at most 1,000,000,000"):
        game.set_life("Bob", LARGEST + 1)
    json.loads(game.log.dumps())
    assert json.loads(game.snapshot_json())["players"][1]["life"] == -LARGEST
    assert game.replay().snapshot_json() == game.snapshot_json()


# ---------------------------------------------------------------- a game's own arguments
@pytest.mark.parametrize("life", ["x", None, 20.0, float("nan"), math.inf, True, HUGE],
                         ids=["text", "None", "float", "nan", "inf", "bool", "huge"])
def test_life_must_be_a_whole_number(life):
    with pytest.raises(UsageError) as err:
        Game(life=life)
    assert err.value.argument == "life"


@pytest.mark.parametrize(("players", "argument"), [
    ("AB", "players"), (5, "players"), (["Alice"], "players"), (["Alice", "Alice"], "players"),
    (["Alice", ""], "players[1]"), (["Alice", 5], "players[1]"), (["Alice", "  "], "players[1]"),
    ([f"P{i}" for i in range(9)], "players"),
])
def test_players_must_be_a_list_of_distinct_names(players, argument):
    with pytest.raises(UsageError) as err:
        Game(players)
    assert err.value.argument == argument


def test_a_good_game_still_starts():
    game = Game(("Ann", "Ben", "Cy"), life=40)
    assert list(game.players) == ["Ann", "Ben", "Cy"]
    assert {p.life for p in game.state.players.values()} == {40}


# ---------------------------------------------------------------- the sandbox page's values
@pytest.fixture
def page() -> tuple[int, int]:
    """A page sandbox on a Forest and Mana Vault: (its id, the Vault's id)."""
    game = Game()
    game.add("Forest")
    vault = game.add("Mana Vault")
    view = json.loads(sandbox_page.start(json.dumps(SandboxModel(game).position())))
    return view["id"], vault.id


@pytest.mark.parametrize(("control", "values"), [
    ("activate", {"permanent": 2, "ability": 99}),
    ("activate", {"permanent": 2, "ability": "0"}),
    ("activate", {"permanent": 2, "ability": True}),
    ("attack", {"exert": 5}),
    ("destroy", {"to_destroy": 1}),
    ("destroy", {"to_destroy": "12"}),
    ("destroy", {"to_destroy": [True]}),
    ("tap", {"permanent": [], "mana": None}),
    ("tap", {"permanent": None, "mana": []}),
    ("cast", {"x": "lots", "hand_card": None}),
    ("pass", {"choices": 7}),
    ("pass", []),
    ("pass", None),
    ("nope", {}),
    (None, {}),
])
def test_crafted_click_values_get_a_message_not_an_exception(page, control, values):
    sid, _ = page
    view = json.loads(sandbox_page.click(sid, control, json.dumps(values)))
    if values is None:  # no inputs at all: an ordinary click
        assert view["last"]["kind"] in ("done", "refused", "nothing")
        return
    assert view["last"]["kind"] == "refused"
    assert "Refused:" in view["message"] and "Traceback" not in view["message"]


def test_to_destroy_as_a_string_is_not_objects_one_and_two(page):
    sid, vault = page
    before = sandbox_page.state(sid, "{}")
    view = json.loads(sandbox_page.click(sid, "destroy", json.dumps({"to_destroy": "12"})))
    assert view["last"]["kind"] == "refused" and "to_destroy" in view["last"]["text"]
    assert sandbox_page.state(sid, "{}") == before  # neither #1 nor #2 was destroyed
    done = json.loads(sandbox_page.click(sid, "destroy", json.dumps({"to_destroy": [vault]})))
    assert done["last"]["kind"] == "done" and sandbox_page.state(sid, "{}") != before


def test_bad_json_and_unknown_sandboxes_are_answered(page):
    sid, vault = page
    for args in ((sid, "tap", "{not json"), (99, "tap", "{}"), ("0", "tap", "{}"),
                 (sid, "tap", "9" * 5000)):
        view = json.loads(sandbox_page.click(*args))
        assert view["last"]["kind"] == "refused"
    assert "refused" in sandbox_page.fields(99, "{}")
    good = json.loads(sandbox_page.click(sid, "tap", json.dumps({"permanent": 1})))
    assert good["last"]["kind"] == "done"


@pytest.mark.parametrize("position", [
    "{not json", "[]", "null", json.dumps({"players": ["Alice", "Bob"], "life": 20}),
    json.dumps({"players": "AB", "life": 20, "actions": []}),
    json.dumps({"players": ["Alice", "Bob"], "life": "x", "actions": []}),
    json.dumps({"players": ["Alice", "Bob"], "life": 20, "actions": [["add", []]]}),
    json.dumps({"players": ["Alice", "Bob"], "life": 20, "actions": [["fly", {}]]}),
    json.dumps({"players": ["Alice", "Bob"], "life": 20, "actions": [], "history": "3"}),
])
def test_a_bad_position_gives_an_error_message(position):
    view = json.loads(sandbox_page.start(position))
    assert set(view) == {"error"} and view["error"].startswith("the sandbox's position")


# ---------------------------------------------------------------- paying with named sources
@pytest.mark.parametrize("answer", ["G#1#2", "{G#1}#2", "G#²", "G#1 Q"])
def test_pay_with_naming_two_sources_for_one_mana_is_refused(answer):
    game = Game()
    forests = [game.add("Forest"), game.add("Forest")]
    for f in forests:
        game.tap_for_mana(f)
    bears = game.add("Grizzly Bears", zone="hand")
    before = state_of(game)
    with pytest.raises(UsageError) as err:
        game.cast(bears, pay_with=answer)
    assert err.value.argument == "decisions.pay_with"
    assert state_of(game) == before
    game.cast(bears, pay_with=f"G#{forests[0].id} G#{forests[1].id}")  # one source each


def test_choosing_among_several_abilities_cites_the_announcement_rule():
    game = Game()
    factory = game.add("Mishra's Factory", sick=False)
    with pytest.raises(ChoiceNeeded) as err:
        game.activate(factory)
    assert err.value.rule == "602.2a" and "CR 602.2a" in str(err.value)
    assert "choose one of: 0:" in str(err.value)


def test_the_kernel_model_refuses_a_bad_ability_index_or_x_too():
    game = Game()
    vault = game.add("Mana Vault")
    game.add("Forest")
    model = SandboxModel(game)
    before = state_of(game)
    for values in ({"permanent": vault.id, "ability": 99}, {"permanent": vault.id, "ability": "0"}):
        outcome = model.click("activate", values)
        assert outcome.kind == "refused" and outcome.text.startswith("ability:")
    assert state_of(game) == before
    endless = game.add("Endless One", zone="hand")
    before = state_of(game)
    outcome = model.click("cast", {"hand_card": endless.id, "x": "²"})
    assert outcome.kind == "refused" and outcome.text.startswith("x:")
    assert state_of(game) == before
