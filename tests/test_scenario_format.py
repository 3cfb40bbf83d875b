"""The scenario format: loading, the canonical dump and its round trip, the runner API."""

from __future__ import annotations

import json

import jsonschema
import pytest

from rulekit import Game, RulesError
from rulekit.scenario import (
    SCHEMA_PATH,
    Check,
    Scenario,
    ScenarioError,
    StepResult,
    dumps,
    load,
    loads,
    schema,
    shipped,
)

FULL = '''
title = "Every kind of field"
ruling = ["R04", "R05"]
description = """
Two lines of "description",
with a backslash \\\\ and unicode: Æther ✓.
"""

[setup]
players = ["Alice", "Bob"]
life = { Alice = 18, Bob = 7 }
turn = 4
active = "Alice"
step = "main1"

[setup.pool]
Alice = ["G", "C (powerstone)", "W (cavern:Elf)"]

[setup.hand]
Alice = ["Grizzly Bears", { card = "Hangarback Walker", name = "walker" }]

[setup.graveyard]
Bob = ["Shock"]

[setup.exile]
Bob = ["Memnite"]

[setup.library]
Alice = ["Forest", "Island"]

[[setup.permanent]]
card = "Forest"
name = "forest1"
tapped = false
sick = false
counters = {}

[[setup.permanent]]
card = "Wild Growth"
name = "wild"
attached_to = "forest1"

[[setup.permanent]]
card = "Vivid Crag"
name = "crag"
controller = "Bob"
owner = "Alice"
tapped = true
counters = { charge = 2 }

[[setup.permanent]]
card = "Cavern of Souls"
name = "cavern"
choices = { creature_type = "Elf" }

[[step]]
narration = "Look first."
do = "look"

[step.expect]
turn = 4
step = "main1"
active = "Alice"
life.Bob = 7
life.Alice = 18
pool.Alice = ["W (cavern:Elf)", "G", "C (powerstone)"]
controller.crag = "Bob"
attached.wild = "forest1"
could_produce.forest1 = ["G"]
counters.crag = { charge = 2 }
count.Forest = 1
tokens.Powerstone = 0
contents.Alice.hand = ["Hangarback Walker", "Grizzly Bears"]
contents.Bob.graveyard = ["Shock"]
contents.Bob.exile = ["Memnite"]
contents.Alice.library = ["Forest", "Island"]
stack = []
zone.walker = "hand"

[[step]]
narration = """Tap the Forest:
two lines of narration."""
do = "tap_for_mana"
object = "forest1"
decisions = { replacement_order = ["Mana Reflection"], may = true }

[step.expect]
"pool".Alice = ["G", "G", "G", "C (powerstone)", "W (cavern:Elf)"]
tapped.forest1 = true
triggered.wild = 1
triggered."Wild Growth" = 1
events = ["mana_added", "triggered"]
no_events = ["zone_changed"]
rules = ["605.1b"]
log = ["adds {G} from Wild Growth"]

[[step]]
narration = "The Forest can't be tapped twice."
do = "tap_for_mana"
object = "forest1"
expect_error = { rule = "107.5", contains = "already tapped" }

[[step]]
narration = "Take it back."
do = "undo"
n = 1

[step.expect]
tapped.forest1 = false
pool.Alice = ["G", "C (powerstone)", "W (cavern:Elf)"]
'''


def test_schema_is_a_valid_json_schema():
    jsonschema.Draft202012Validator.check_schema(schema())
    with open(SCHEMA_PATH, encoding="utf-8") as fh:
        assert json.load(fh) == schema()


@pytest.mark.parametrize("path", shipped(), ids=lambda p: p.name)
def test_shipped_scenario_round_trips(path):
    """Loading then saving gives the same scenario; saving is canonical (a fixed point)."""
    first = load(path)
    text = dumps(first)
    again = loads(text, name="dumped")
    assert again == first
    assert dumps(again) == text


def test_everything_in_the_format_round_trips_and_plays():
    sc = loads(FULL, name="full.toml")
    assert loads(dumps(sc)) == sc
    assert dumps(loads(dumps(sc))) == dumps(sc)
    results = sc.play()
    failures = [(r.number, c) for r in results for c in r.failures]
    assert failures == []
    assert "Æther ✓" in dumps(sc)


def test_the_canonical_dump_is_plain_toml_in_a_fixed_order():
    sc = loads(FULL)
    text = dumps(sc)
    assert text.index("title =") < text.index("[setup]") < text.index("[[setup.permanent]]") \
        < text.index("[[step]]")
    assert 'pool.Alice = ["W (cavern:Elf)", "G", "C (powerstone)"]' in text
    assert 'contents.Alice.hand = ["Hangarback Walker", "Grizzly Bears"]' in text


def test_results_line_up_with_steps_and_game_at_replays_them():
    sc = loads(FULL, name="full.toml")
    results = sc.play()
    assert [r.number for r in results] == [0, 1, 2, 3, 4]
    assert all(isinstance(r, StepResult) for r in results)
    assert results[1].narration == "Look first."
    for k, r in enumerate(results):
        game = sc.game_at(k)
        assert isinstance(game, Game)
        assert game.snapshot() == r.snapshot
    fresh = sc.game_at(2)
    fresh.undo()  # a fresh game each time: changing it changes nothing else
    assert sc.game_at(2).snapshot() == results[2].snapshot
    with pytest.raises(IndexError):
        sc.game_at(9)


def test_step_results_carry_events_errors_and_checks():
    sc = loads(FULL)
    results = sc.play()
    tap, refused, undo = results[2], results[3], results[4]
    assert {e.kind.value for e in tap.events} >= {"mana_added", "triggered"}
    assert tap.error is None and refused.error is not None
    assert isinstance(refused.error, RulesError) and refused.error.rule == "107.5"
    assert refused.events == []  # a refused action leaves no trace
    desc, expected, actual, ok = tap.checks[0]  # a Check unpacks as a 4-tuple
    assert isinstance(tap.checks[0], Check) and ok and desc.startswith("pool.")
    assert undo.snapshot["players"][0]["pool"] == results[1].snapshot["players"][0]["pool"]
    assert results[0].action == {"do": "set-up"} and results[0].events


def test_labels_follow_a_card_through_its_zone_changes():
    sc = loads('''
title = "Cast and resolve"
[setup]
[setup.pool]
Alice = ["G", "G"]
[setup.hand]
Alice = [{ card = "Hangarback Walker", name = "walker" }]
[[step]]
narration = "Cast it."
do = "cast"
card = "walker"
x = 1
expect.zone.walker = "stack"
[[step]]
narration = "Resolve it."
do = "resolve"
expect.zone.walker = "battlefield"
expect.counters.walker = { "+1/+1" = 1 }
expect.pt.walker = "1/1"
''')
    results = sc.play()
    assert all(r.ok for r in results)
    ids = [r.labels["walker"] for r in results]
    assert len(set(ids)) == 3  # hand, stack, battlefield: three objects (CR 400.7)


def test_a_failed_expectation_is_reported_not_raised():
    sc = loads('''
title = "Wrong pool"
[setup]
[[setup.permanent]]
card = "Forest"
name = "f"
[[step]]
narration = "Tap."
do = "tap_for_mana"
object = "f"
[step.expect]
pool.Alice = ["G", "G"]
''', name="wrong.toml")
    results = sc.play()
    [check] = results[1].failures
    assert (check.description, check.expected, check.actual) == ("pool.Alice", ["G", "G"], ["G"])
    assert check.line == 12  # the text starts with a newline
    assert not sc.ok


def test_an_unexpected_illegal_action_is_a_scenario_error_with_its_line():
    sc = loads('''
title = "Illegal"
[setup]
[[setup.permanent]]
card = "Llanowar Elves"
name = "elves"
sick = true
[[step]]
narration = "Tap the new Elves."
do = "tap_for_mana"
object = "elves"
''', name="illegal.toml")
    with pytest.raises(ScenarioError) as info:
        sc.play()
    assert str(info.value).startswith("illegal.toml:10: step 1: ")
    assert "302.6" in str(info.value) and info.value.line == 10


def test_scenarios_compare_by_content():
    a = loads(FULL, name="a")
    b = loads(dumps(a), name="b")
    assert a == b and a.path != b.path
    assert a != Scenario(spec={**a.spec, "title": "other"})


def test_the_example_in_the_docs_plays_and_passes():
    from pathlib import Path

    doc = (Path(__file__).resolve().parent.parent / "docs" / "scenarios.md").read_text("utf-8")
    example = doc.split("```toml\n", 1)[1].split("```", 1)[0]
    sc = loads(example, name="docs/scenarios.md")
    assert sc.ok, [c for r in sc.play() for c in r.failures]
    assert loads(dumps(sc)) == sc


def test_any_text_survives_the_round_trip():
    from hypothesis import given, settings
    from hypothesis import strategies as st

    text = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=60)

    @settings(max_examples=150, deadline=None)
    @given(title=text, narration=text, description=st.text(
        st.characters(blacklist_categories=("Cs",)), max_size=80), counter=text,
        choice=st.text(st.characters(blacklist_categories=("Cs",)), max_size=20))
    def check(title, narration, description, counter, choice):
        data = {"title": title, "description": description,
                "setup": {"permanent": [{"card": "Forest", "name": "f",
                                         "counters": {counter[:40]: 1},
                                         "choices": {"color": choice}}]},
                "step": [{"narration": narration, "do": "look"}]}
        sc = loads(dumps(data))
        assert sc.spec == data
        assert dumps(sc) == dumps(data)

    check()
