"""A step's question (`[step.question]`, docs/scenarios.md "Questions"): the student predicts,
the engine answers. The answer is never written in the file: it is what the engine did, and a
choice list must hold it exactly once."""

from __future__ import annotations

import pytest

from rulekit.scenario import ScenarioError, dumps, loads, play
from rulekit.scenario.runner import answer_words

SETUP = '''
title = "Questions"
[setup]
turn = 3
step = "main1"
[[setup.permanent]]
card = "Llanowar Elves"
name = "elves"
sick = true
[[setup.permanent]]
card = "Forest"
name = "forest"
[[setup.permanent]]
card = "Wild Growth"
name = "growth"
attached_to = "forest"
'''

TAP_ELVES = '''
[[step]]
narration = "The Elves came under Alice's control this turn."
do = "tap_for_mana"
object = "elves"
expect_error = { rule = "302.6" }
'''

TAP_FOREST = '''
[[step]]
narration = "Alice taps the enchanted Forest."
do = "tap_for_mana"
object = "forest"
'''


def _question(text: str) -> str:
    return "\n[step.question]\n" + text.strip() + "\n"


def test_the_engine_answers_a_pool_question_and_the_right_choice_is_marked() -> None:
    sc = loads(SETUP + TAP_FOREST + _question('''
ask = "What will Alice's pool hold?"
about = "pool.Alice"
choices = [["G"], ["G", "G"], []]
'''))
    q = play(sc)[1].question
    assert q is not None and q.answer == ["G", "G"] and q.correct == 1
    assert q.labels == ("{G}", "{G}, {G}", "nothing")  # mana as every view shows it
    assert "605.1b" in q.rules and "106.12" in q.rules  # every rule the step's events cite
    assert q.to_json()["answer_label"] == "{G}, {G}"


def test_a_refusal_question_is_answered_by_the_rule_that_refused() -> None:
    sc = loads(SETUP + TAP_ELVES + _question('''
ask = "Can Alice tap the Elves for mana?"
about = "refused"
choices = ["allowed", "302.6", "107.5"]
'''))
    q = play(sc)[1].question
    assert q is not None and q.answer == "302.6" and q.correct == 1 and q.rules == ("302.6",)
    assert q.labels == ("allowed", "refused (CR 302.6)", "refused (CR 107.5)")


def test_an_allowed_action_answers_allowed() -> None:
    sc = loads(SETUP + TAP_FOREST + _question('''
ask = "Can Alice tap the Forest?"
about = "refused"
choices = ["allowed", "302.6"]
'''))
    assert play(sc)[1].question.correct == 0


def test_a_question_may_name_any_rule_the_kit_lists_and_no_other() -> None:
    asked = SETUP + TAP_FOREST + _question('''
ask = "What will Alice's pool hold?"
about = "pool.Alice"
rule = "{}"
''')
    assert play(loads(asked.format("605.1b")))[1].question.rules == ("605.1b",)
    assert play(loads(asked.format("302.6")))[1].question.rules == ("302.6",)  # listed
    with pytest.raises(ScenarioError) as err:
        loads(asked.format("702.26z"), name="q.toml")
    assert str(err.value).startswith("q.toml:")
    assert "step 1: question.rule: CR 702.26z is not a rule the kit lists " \
           "(rulekit/data/rules.toml" in str(err.value)
    assert "did you mean 702.26" in str(err.value)
    with pytest.raises(ScenarioError, match=r"CR 999\.1 is not a rule the kit lists"):
        loads(asked.format("999.1"))


PHASING = '''
title = "Phasing"
[setup]
turn = 2
active = "Bob"
step = "end"
library = { Alice = ["Forest", "Forest"], Bob = ["Island", "Island"] }
[[setup.permanent]]
card = "Sandbar Crocodile"
name = "croc"
controller = "Alice"
'''


def test_a_question_can_point_at_phasing_and_the_engine_cites_it_where_it_applies() -> None:
    """The Crocodile phases out in Alice's untap step: the event cites 702.26d (phasing moves
    nothing), so the answer's rules have it, and a question may name it."""
    sc = loads(PHASING + '''
[[step]]
narration = "Alice's turn begins: the Crocodile phases out."
do = "next_turn"

[step.question]
ask = "Is the Crocodile still on the battlefield?"
about = "zone.croc"
rule = "702.26d"
''')
    played = play(sc)
    q = played[1].question
    assert q is not None and q.answer == "battlefield" and q.rules == ("702.26d",)
    phased = [e for e in played[1].events if e.kind.value == "phased"]
    assert phased and all("702.26d" in e.rules for e in phased)


def test_a_question_can_point_at_priority_after_a_spell_resolves() -> None:
    """A resolving spell gives the active player priority: its event cites 117.3b."""
    with_growth = SETUP.replace("[[setup.permanent]]",
                                '[setup.hand]\nAlice = ["Giant Growth"]\n\n[[setup.permanent]]', 1)
    sc = loads(with_growth + TAP_FOREST + '''
[[step]]
narration = "Alice casts Giant Growth on the Elves."
do = "cast"
card = "Giant Growth"
targets = ["elves"]

[[step]]
narration = "It resolves: Alice, the active player, gets priority."
do = "resolve"

[step.question]
ask = "Which step is it now?"
about = "step"
rule = "117.3b"
''')
    played = play(sc)
    assert played[3].question is not None and played[3].question.rules == ("117.3b",)
    resolved = [e for e in played[3].events if e.kind.value == "resolved"]
    assert resolved and all(e.rules == ("608.2", "117.3b") for e in resolved)


def test_a_typed_question_has_no_choices_and_the_engines_number() -> None:
    sc = loads(SETUP + TAP_FOREST + _question('''
ask = "How many times does Wild Growth trigger?"
about = "triggered.growth"
'''))
    q = play(sc)[1].question
    assert q.choices == () and q.correct is None and q.answer == 1


@pytest.mark.parametrize("choices, message", [
    ('[["G"], []]', r"none of the choices is what the engine does \(G, G\)"),
    ('[["G", "G"], ["G", "G"]]', r"more than one choice is right \(G, G\)"),
])
def test_choices_must_hold_the_engines_answer_exactly_once(choices: str, message: str) -> None:
    sc = loads(SETUP + TAP_FOREST + _question(f'''
ask = "What will Alice's pool hold?"
about = "pool.Alice"
choices = {choices}
'''))
    with pytest.raises(ScenarioError, match=message):
        play(sc)


@pytest.mark.parametrize("about, choices, message", [
    ("pool.Alice", '[[["G"]], ["G", "G"]]', r"^q.toml:\d+: step 1: question.choices\[1\]\[1\]: "
     r"expected text in quotes, got a list$"),
    ("pool.Alice", '[{ G = 2 }, ["G", "G"]]', r"question.choices\[1\]: expected a list"),
    ("pool.Alice", '[["G", "Q"], ["G", "G"]]', r"choices\[1\]\[2\]: mana is W, U, B, R, G or C"),
    ("pool.Alice", "[[" + ", ".join(['"G"'] * 400) + '], ["G", "G"]]',
     r"question.choices\[1\]: 400 entries \(limit 20\)$"),
    ("triggered.growth", '[1, "2"]', r"choices\[2\]: expected a whole number"),
    ("triggered.growth", "[1, 100001]", r"choices\[2\]: .*100000"),
    ("refused", '["allowed", "refusedd"]', r'choices\[2\]: a choice is "allowed", "refused" or '
     r'a rule number'),
    ("refused", '["allowed", ["302.6"]]', r"choices\[2\]: expected text in quotes, got a list"),
])
def test_a_choice_is_written_as_the_expectation_is_or_refused_at_its_line(
        about: str, choices: str, message: str) -> None:
    """A choice that is no answer the expectation could be is the author's mistake, one line
    at the question (never "a bug in rulekit"), and a choice is short enough for a button."""
    with pytest.raises(ScenarioError, match=message):
        loads(SETUP + TAP_FOREST + _question(f'ask = "?"\nabout = "{about}"\n'
                                             f'choices = {choices}'), name="q.toml")


@pytest.mark.parametrize("about, message", [
    ("poool.Alice", r"can't ask about 'poool'; did you mean 'pool'\?"),
    ("pool", r"say whose or which"),
    ("turn.Alice", r"'turn' takes nothing after it"),
    ("pool.Carol", r"Carol"),
    ("tapped.nobody", r"nobody"),
    ("log", r"can't ask about 'log'"),
])
def test_a_question_about_nothing_the_engine_can_answer_is_refused_at_load(
        about: str, message: str) -> None:
    with pytest.raises(ScenarioError, match=message):
        loads(SETUP + TAP_FOREST + _question(f'ask = "?"\nabout = "{about}"'))


def test_a_question_needs_its_words_and_round_trips() -> None:
    with pytest.raises(ScenarioError, match="ask"):
        loads(SETUP + TAP_FOREST + _question('about = "pool.Alice"'))
    text = SETUP + TAP_FOREST + _question('''
ask = "What will Alice's pool hold?"
about = "pool.Alice"
choices = [["G"], ["G", "G"]]
''')
    sc = loads(text)
    assert loads(dumps(sc)).spec == sc.spec


@pytest.mark.parametrize("value, words", [
    (["G", "C (powerstone)"], "G, C (powerstone)"), ([], "nothing"), ({"+1/+1": 3}, "+1/+1 x3"),
    (True, "yes"), (False, "no"), ("302.6", "refused (CR 302.6)"), ("allowed", "allowed"),
    (2, "2"), ("3/3", "3/3"),
])
def test_answers_in_words(value: object, words: str) -> None:
    assert answer_words(value) == words
