"""The scenario format: loading, the canonical dump and its round trip, the runner API."""

from __future__ import annotations

import json

import jsonschema
import pytest

from mtg_rulekit import Game, RulesError
from mtg_rulekit.scenario import (
    SCHEMA_PATH,
    Check,
    Scenario,
    ScenarioError,
    StepResult,
    dumps,
    game_at,
    load,
    loads,
    play,
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
    results = play(sc)
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
    results = play(sc)
    assert [r.number for r in results] == [0, 1, 2, 3, 4]
    assert all(isinstance(r, StepResult) for r in results)
    assert results[1].narration == "Look first."
    for k, r in enumerate(results):
        game = game_at(sc, k)
        assert isinstance(game, Game)
        assert game.snapshot() == r.snapshot
    fresh = game_at(sc, 2)
    fresh.undo()  # a fresh game each time: changing it changes nothing else
    assert game_at(sc, 2).snapshot() == results[2].snapshot
    with pytest.raises(IndexError):
        game_at(sc, 9)


def test_step_results_carry_events_errors_and_checks():
    sc = loads(FULL)
    results = play(sc)
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
    results = play(sc)
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
    results = play(sc)
    [check] = results[1].failures
    assert (check.description, check.expected, check.actual) == ("pool.Alice", ["G", "G"], ["G"])
    assert check.line == 12  # the text starts with a newline
    assert not all(r.ok for r in results)


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
        play(sc)
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
    assert all(r.ok for r in play(sc)), [c for r in play(sc) for c in r.failures]
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


# ------------------------------------------------- what a teacher writes
LABELLED_MANA = '''
title = "Labels, not object ids"

[setup]
hand.Alice = ["Mana Vault", "Grizzly Bears"]

[[setup.permanent]]
card = "Powerstone"
name = "stone"
token = true

[[setup.permanent]]
card = "Wastes"
name = "wastes"

[[setup.permanent]]
card = "Forest"
name = "forest1"

[[setup.permanent]]
card = "Forest"
name = "forest2"

[[setup.permanent]]
card = "Powerstone"
name = "bob_stone"
controller = "Bob"
token = true

[[step]]
narration = "Alice taps her Powerstone, then (next step) Wastes."
do = "tap_for_mana"
object = "stone"
player = "Alice"

[[step]]
narration = "Alice taps Wastes."
do = "tap_for_mana"
object = "wastes"

[[step]]
narration = "Alice casts Mana Vault with the Wastes' {C}: the Powerstone's is kept."
do = "cast"
card = "Mana Vault"
decisions = { pay_with = "C from wastes" }

[step.expect]
pool.Alice = ["C (powerstone)"]

[[step]]
narration = "Alice tries to tap Bob's Powerstone."
do = "tap_for_mana"
object = "bob_stone"
player = "Alice"
expect_error = { rule = "602.2", contains = "Bob controls it" }

[[step]]
narration = "Mana Vault resolves."
do = "resolve"

[[step]]
narration = "Alice casts Grizzly Bears, tapping both Forests while paying."
do = "cast"
card = "Grizzly Bears"
decisions = { mana_abilities = ["forest1", "forest2:G"], pay_with = "G#forest1 G from forest2" }

[step.expect]
tapped.forest1 = true
tapped.forest2 = true
pool.Alice = ["C (powerstone)"]
spent.Alice = ["G", "G"]
'''


def test_pay_with_and_mana_abilities_take_labels():
    sc = loads(LABELLED_MANA)
    results = play(sc)
    assert all(r.ok for r in results), [c for r in results for c in r.failures]
    game = results[6].game
    ids = {label: results[6].labels[label] for label in ("wastes", "forest1", "forest2")}
    answers = [(d.key, d.answer) for d in game.decisions if d.given]
    # what reached the engine: object ids, as if the author had counted them
    assert ("pay_with", f"C#{ids['wastes']}") in answers
    assert ("mana_abilities", ids["forest1"]) in answers
    assert ("mana_abilities", f"#{ids['forest2']}:G") in answers
    assert ("pay_with", f"G#{ids['forest1']} G#{ids['forest2']}") in answers
    # the engine's own default would have spent the Powerstone's {C} on an artifact
    default = loads(LABELLED_MANA.replace('decisions = { pay_with = "C from wastes" }', ""))
    assert [c.actual for c in play(default)[3].checks] == [["C"]]


def test_ids_keep_working_in_pay_with():
    sc = loads(LABELLED_MANA)
    wastes = play(sc)[0].labels["wastes"]
    again = loads(LABELLED_MANA.replace('"C from wastes"', f'"C#{wastes}"'))
    assert all(r.ok for r in play(again))


def test_an_action_names_the_player_who_takes_it_and_the_rules_refuse_a_stranger():
    results = play(loads(LABELLED_MANA))
    refused = results[4]
    assert refused.error is not None and refused.error.rule == "602.2"
    assert "Alice can't activate an ability of Powerstone" in str(refused.error)
    assert refused.snapshot == results[3].snapshot  # nothing changed
    assert refused.events == []


def test_casting_someone_elses_card_is_refused_with_cr_601_3():
    text = '''
title = "Bob's card"
[setup]
pool.Alice = ["G", "G"]
hand.Bob = [{ card = "Grizzly Bears", name = "bears" }]

[[step]]
narration = "Alice tries to cast Bob's Grizzly Bears."
do = "cast"
card = "bears"
player = "Alice"
expect_error = { rule = "601.3" }
'''
    results = play(loads(text))
    assert results[1].ok and "it is Bob's card" in str(results[1].error)
    with pytest.raises(ScenarioError, match="doesn't take 'player'"):
        loads(text.replace('do = "cast"', 'do = "resolve"').replace('card = "bears"\n', ""))


TWO_TRIGGERS = '''
title = "Stack entries name their controllers"
[setup]
pool.Alice = ["W", "W"]
hand.Alice = ["Silvercoat Lion"]

[[setup.permanent]]
card = "Angel's Feather"
name = "feather1"

[[setup.permanent]]
card = "Angel's Feather"
name = "feather2"

[[setup.permanent]]
card = "Angel's Feather"
name = "feather3"

[[setup.permanent]]
card = "Angel's Feather"
name = "feather4"
controller = "Bob"

[[setup.permanent]]
card = "Angel's Feather"
name = "feather5"
controller = "Bob"

[[step]]
narration = "Alice casts Silvercoat Lion: her Feather and Bob's trigger."
do = "cast"
card = "Silvercoat Lion"

[step.expect]
stack = ["Silvercoat Lion (Alice)", "Angel's Feather (Alice)", "Angel's Feather (Alice)",
         "Angel's Feather (Alice)", "Angel's Feather (Bob)", "Angel's Feather (Bob)"]
decided.trigger_order = ["Alice", "Bob"]
'''


def test_a_stack_expectation_can_name_controllers():
    sc = loads(TWO_TRIGGERS)
    (decided, check) = play(sc)[1].checks
    assert check.description == "stack" and check.ok, check
    # APNAP (CR 603.3b): Alice's triggers go on the stack first, Bob's on top
    alice_last = "\"Angel's Feather (Alice)\", \"Angel's Feather (Bob)\""
    wrong = loads(TWO_TRIGGERS.replace(alice_last, alice_last.replace("Alice", "X")
                                       .replace("Bob", "Alice").replace("X", "Bob")))
    assert not play(wrong)[1].checks[1].ok
    plain = loads(TWO_TRIGGERS.replace(" (Alice)", "").replace(" (Bob)", ""))
    assert play(plain)[1].checks[1].ok


def test_decided_says_who_chose_in_which_order():
    # Alice ordered her three triggers (two prompts), then Bob his two (one prompt)
    checks = play(loads(TWO_TRIGGERS))[1].checks
    assert checks[0].description == "decided.trigger_order" and checks[0].ok, checks[0]
    every_prompt = loads(TWO_TRIGGERS.replace('["Alice", "Bob"]', '["Alice", "Alice", "Bob"]'))
    assert play(every_prompt)[1].checks[0].ok
    wrong = loads(TWO_TRIGGERS.replace('["Alice", "Bob"]', '["Bob", "Alice"]'))
    assert not play(wrong)[1].checks[0].ok


def test_pool_notation_shows_riders():
    text = '''
title = "Arena of Glory's mana gives haste"
[setup]
pool.Alice = ["R"]

[[setup.permanent]]
card = "Arena of Glory"
name = "arena"

[[step]]
narration = "Alice exerts Arena of Glory for {R}{R}."
do = "activate"
object = "arena"
ability = "Exert"

[step.expect]
pool.Alice = ["R +haste", "R +haste"]
'''
    sc = loads(text)
    check = play(sc)[1].checks[0]
    assert check.ok, check
    assert not all(r.ok for r in play(loads(text.replace('["R +haste", "R +haste"]', '["R", "R"]'))))


ADVANCE_TO_BEGINNING = '''
title = "Stop as the draw step begins"

[setup]
turn = 2
step = "upkeep"

[setup.library]
Alice = ["Forest", "Forest"]

[[setup.permanent]]
card = "Mana Vault"
name = "vault"
tapped = true

[[step]]
narration = "The draw step begins: Mana Vault's trigger waits on the stack."
do = "advance"
to = "draw"
resolve_triggers = false

[step.expect]
step = "draw"
stack = ["Mana Vault (Alice)"]
life.Alice = 20

[[step]]
narration = "It resolves."
do = "resolve"

[step.expect]
life.Alice = 19
stack = []

[[step]]
narration = "Take both back."
do = "undo"
n = 2

[step.expect]
step = "upkeep"
stack = []
'''


def test_advance_can_stop_as_a_step_begins_with_its_triggers_waiting():
    sc = loads(ADVANCE_TO_BEGINNING)
    results = play(sc)
    assert all(r.ok for r in results), [c for r in results for c in r.failures]
    assert [i["text"] for i in results[1].snapshot["stack"]][0].startswith("Mana Vault")
    # a plain advance resolves the trigger on the way: the same step then fails its checks
    first = ADVANCE_TO_BEGINNING[:ADVANCE_TO_BEGINNING.index('[[step]]\nnarration = "It res')]
    plain = loads(first.replace("resolve_triggers = false\n", ""))
    failed = {c.description for c in play(plain)[1].failures}
    assert failed == {"life.Alice", "stack"}


def test_an_advance_that_stops_early_is_undone_as_one_step():
    results = play(loads(ADVANCE_TO_BEGINNING))
    assert results[3].snapshot == results[0].snapshot  # undo n = 2: the advance and the resolve
    assert len(results[1].actions) - len(results[0].actions) > 1  # several passes of priority


def test_advance_to_beginning_takes_no_decisions_and_refuses_like_advance():
    with pytest.raises(ScenarioError, match="takes no decisions"):
        play(loads(ADVANCE_TO_BEGINNING.replace('resolve_triggers = false\n',
                                           'resolve_triggers = false\ndecisions = { may = true }\n'
                                           )))
    blockers = ADVANCE_TO_BEGINNING.replace('step = "upkeep"', 'step = "declare_attackers"')
    blockers = blockers.replace('to = "draw"', 'to = "declare_blockers"')
    blockers = blockers.replace('[step.expect]\nstep = "draw"',
                                'expect_error = { rule = "508.8" }\n\n[step.expect]\nstep = "draw"')
    head = blockers[:blockers.index("[step.expect]")]
    result = play(loads(head))[1]
    assert result.ok and result.error is not None and result.error.rule == "508.8"
    assert result.snapshot == play(loads(head))[0].snapshot


LEGEND_TOKEN = '''
title = "Keep the token copy of a legend"

[setup]
pool.Alice = ["U", "U", "U"]
hand.Alice = ["Cackling Counterpart"]

[[setup.permanent]]
card = "Rofellos, Llanowar Emissary"
name = "rofellos"

[[step]]
narration = "Alice casts Cackling Counterpart on Rofellos."
do = "cast"
card = "Cackling Counterpart"
targets = ["rofellos"]

[[step]]
narration = "It resolves: a token copy of Rofellos. Alice keeps the token (CR 704.5j)."
do = "resolve"
labels = { rofellos_copy = "Rofellos, Llanowar Emissary" }
decisions = { legend_keep = "rofellos_copy" }

[step.expect]
zone.rofellos = "graveyard"
zone.rofellos_copy = "battlefield"
tokens."Rofellos, Llanowar Emissary" = 1
'''


def test_a_token_made_in_a_step_can_be_named_by_that_steps_decisions():
    sc = loads(LEGEND_TOKEN)
    results = play(sc)
    assert all(r.ok for r in results), [c for r in results for c in r.failures]
    kept = [d for d in results[2].game.decisions if d.key == "legend_keep"]
    assert [(d.answer, d.given) for d in kept] == [(results[2].labels["rofellos_copy"], True)]
    # keeping the original instead: the expectations see the difference
    other = loads(LEGEND_TOKEN.replace('legend_keep = "rofellos_copy"', 'legend_keep = "rofellos"'))
    assert {c.description for c in play(other)[2].failures} == {
        "zone.rofellos", "zone.rofellos_copy", "tokens.Rofellos, Llanowar Emissary"}
    # the try ahead is taken back: the step made one token, once, and replays the same
    assert [e.kind.value for e in results[2].events].count("token_created") == 1
    assert results[2].snapshot == game_at(sc, 2).snapshot()


# ---------------------------------------------------------------- speaker notes
def test_speaker_notes_are_read_kept_and_never_in_the_narration_or_a_frame(tmp_path):
    from mtg_rulekit.display.walkthrough.frames import StepFrames
    from mtg_rulekit.scenario import dumps, load, loads, shipped_dir

    sc = load(shipped_dir() / "r19_exert_copy_values.toml")
    results = play(sc)
    noted = [r for r in results if r.notes]
    assert [r.number for r in noted] == [2, 3]
    note = noted[0].notes
    assert note.startswith("Ask the class what the token")
    assert note not in noted[0].narration and "notes" not in noted[0].action
    assert loads(dumps(sc)) == sc and 'notes = "Ask the class what the token' in dumps(sc)
    frames = StepFrames(sc, diagram=False)
    assert not any("Ask the class what" in html for html in frames.frame_html)
    assert not any("Ask the class what" in said for said in frames.announcements)
    text = (shipped_dir() / "r19_exert_copy_values.toml").read_text("utf-8")
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace('notes = "Ask', 'notes = 3\nx = "Ask', 1), "utf-8")
    from mtg_rulekit import ScenarioError

    with pytest.raises(ScenarioError):  # the schema: notes are text
        load(bad)
