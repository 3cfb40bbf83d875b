"""A step's question (`[step.question]`, docs/scenarios.md "Questions"): the student predicts,
the engine answers. The answer is never written in the file: it is what the engine did, and a
choice list must hold it exactly once. The question names its deciding rules and a one-line
why, its choices read as their values ("Yes", "No: ...", "4"), and its words fit the fact it
reads (`mtg_rulekit.scenario.wording`)."""

from __future__ import annotations

import pytest

from mtg_rulekit.scenario import ScenarioError, dumps, loads, play
from mtg_rulekit.scenario.runner import answer_words

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


WHY = 'why = "Wild Growth adds {G} when the land is tapped for mana."'


def _question(text: str) -> str:
    """A `[step.question]` table: `text`, with a deciding rule and a why unless it has its own."""
    body = text.strip()
    if not any(line.startswith("rule =") for line in body.splitlines()):
        body += '\nrule = "605.1b"'
    if not any(line.startswith("why =") for line in body.splitlines()):
        body += "\n" + WHY
    return "\n[step.question]\n" + body + "\n"


def test_the_engine_answers_a_pool_question_and_the_right_choice_is_marked() -> None:
    sc = loads(SETUP + TAP_FOREST + _question('''
ask = "What will Alice's pool hold?"
about = "pool.Alice"
choices = [["G"], ["G", "G"], []]
'''))
    q = play(sc)[1].question
    assert q is not None and q.answer == ["G", "G"] and q.correct == 1
    assert q.labels == ("{G}", "{G}{G}", "Nothing")
    assert q.rules == ("605.1b",)  # the deciding rule; the step's other rules fold under it
    assert "106.12" in q.other_rules and "605.1b" not in q.other_rules
    assert q.to_json()["answer_label"] == "{G}{G}"
    assert q.to_json()["why"] == "Wild Growth adds {G} when the land is tapped for mana."


def test_a_refusal_question_is_answered_by_the_rule_that_refused() -> None:
    sc = loads(SETUP + TAP_ELVES + _question('''
ask = "Can Alice tap the Elves for mana?"
about = "refused"
rule = "302.6"
choices = [
    { value = "allowed", because = "a mana ability ignores summoning sickness" },
    { value = "302.6", because = "it arrived this turn" },
    { value = "107.5", because = "it is already tapped" },
]
'''))
    q = play(sc)[1].question
    assert q is not None and q.answer == "302.6" and q.correct == 1 and q.rules == ("302.6",)
    assert q.labels == ("Yes: a mana ability ignores summoning sickness",
                        "No: it arrived this turn", "No: it is already tapped")
    assert q.answer_label == "No: it arrived this turn"
    assert q.to_json()["choices"] == ["allowed", "302.6", "107.5"]


def test_an_allowed_action_answers_yes() -> None:
    sc = loads(SETUP + TAP_FOREST + _question('''
ask = "Can Alice tap the Forest?"
about = "refused"
choices = ["allowed", { value = "302.6", because = "it arrived this turn" }]
'''))
    q = play(sc)[1].question
    assert q.correct == 0 and q.labels == ("Yes", "No: it arrived this turn")


def test_two_choices_that_read_the_same_are_refused_at_their_line() -> None:
    with pytest.raises(ScenarioError, match=r'^q.toml:\d+: step 1: question.choices\[3\]: '
                       r"choices 2 and 3 both read 'No'"):
        loads(SETUP + TAP_ELVES + _question('''
ask = "Can Alice tap the Elves for mana?"
about = "refused"
choices = ["allowed", "302.6", "107.5"]
'''), name="q.toml")


def test_a_yes_no_question_needs_its_choices() -> None:
    with pytest.raises(ScenarioError, match="answered yes or no: give its choices"):
        loads(SETUP + TAP_ELVES + _question('ask = "Can Alice tap the Elves for mana?"\n'
                                            'about = "refused"'))


def test_a_question_may_name_one_or_two_rules_the_kit_lists_and_no_other() -> None:
    asked = SETUP + TAP_FOREST + _question('''
ask = "What will Alice's pool hold?"
about = "pool.Alice"
rule = RULE
''')

    def with_rule(rule: str) -> str:
        return asked.replace("RULE", rule)

    assert play(loads(with_rule('"605.1b"')))[1].question.rules == ("605.1b",)
    assert play(loads(with_rule('"302.6"')))[1].question.rules == ("302.6",)  # listed
    two = play(loads(with_rule('["106.12a", "605.1b"]')))[1].question
    assert two.rules == ("106.12a", "605.1b") and "106.12a" not in two.other_rules
    with pytest.raises(ScenarioError, match=r"question.rule: rule is one rule number, or a list "
                       r"of one or two"):
        loads(with_rule('["106.12a", "605.1b", "106.12"]'))
    with pytest.raises(ScenarioError, match=r"question: missing 'rule'"):
        loads(SETUP + TAP_FOREST + "\n[step.question]\nask = \"What will Alice's pool hold?\"\n"
              'about = "pool.Alice"\n' + WHY + "\n")
    with pytest.raises(ScenarioError) as err:
        loads(with_rule('"702.26z"'), name="q.toml")
    assert str(err.value).startswith("q.toml:")
    assert "step 1: question.rule: CR 702.26z is not a rule the kit lists " \
           "(mtg_rulekit/data/rules.toml" in str(err.value)
    assert "did you mean 702.26" in str(err.value)
    with pytest.raises(ScenarioError, match=r"CR 999\.1 is not a rule the kit lists"):
        loads(with_rule('"999.1"'))


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
ask = "Where is the Crocodile now?"
about = "zone.croc"
rule = "702.26d"
why = "A phased-out permanent is treated as though it doesn't exist, but it never leaves the battlefield."
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
ask = "Which step is it now, as Giant Growth resolves on the Elves?"
about = "step"
rule = "117.3b"
why = "After a spell resolves, the active player gets priority in the same step."
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
    ('[{ value = ["G", "G"], because = "one each" }, { value = ["G", "G"], because = "two" }]',
     r"more than one choice is right \(G, G\)"),
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
    ("pool.Alice", '[{ value = ["G"], because = "" }, ["G", "G"]]',
     r"choices\[1\].because: because is the choice's reason in words"),
    ("pool.Alice", '[{ value = ["G"], why = "x" }, ["G", "G"]]',
     r"choices\[1\].why: a choice takes value and because, not 'why'"),
    ("pool.Alice", '[{ value = "G" }, ["G", "G"]]', r"choices\[1\].value: expected a list"),
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
    ask = "Can Alice tap the Forest?" if about == "refused" else \
        "How many times does Wild Growth trigger?" if about.startswith("triggered") else \
        "What will Alice's pool hold?"
    with pytest.raises(ScenarioError, match=message):
        loads(SETUP + TAP_FOREST + _question(f'ask = "{ask}"\nabout = "{about}"\n'
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
        loads(SETUP + TAP_FOREST + _question(f'ask = "What is it?"\nabout = "{about}"'))


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


@pytest.mark.parametrize("about, ask, message", [
    # W1: a question about `tapped` that asks whether it will untap marks the right answer wrong
    ("tapped.forest", "Will the Forest untap in Bob's untap step?",
     r"question.ask: a question about 'tapped' says 'tapped' in its question sentence"),
    ("tapped.forest", "Is the Forest untapped now?", r"says 'tapped' in its question sentence"),
    ("tapped.forest", "Isn't the Forest tapped now?", r"asks without a negation"),
    ("tapped.forest", "What is the Forest now?", r"answered yes or no: ask it as a yes/no"),
    ("triggered.growth", "Does Wild Growth trigger?",
     r"a yes/no question can't be about 'triggered'"),
    ("triggered.growth", "Does Wild Growth trigger? How many times?", r"asks one thing"),
    ("triggered.growth", "How many times does it trigger?", r"say 'Wild Growth'"),
    ("triggered.growth", "How many mana does Wild Growth add?", r"says 'trigger'"),
    ("pool.Alice", "What will the pool hold?", r"say 'Alice'"),
    ("refused", "Is the Forest allowed to tap?", r"asks whether the action is possible: 'Can"),
])
def test_a_question_whose_words_dont_fit_its_fact_is_refused_at_load(
        about: str, ask: str, message: str) -> None:
    choices = "\nchoices = [true, false]" if about.startswith("tapped") else \
        '\nchoices = ["allowed", "302.6"]' if about == "refused" else ""
    with pytest.raises(ScenarioError, match=message):
        loads(SETUP + TAP_FOREST + _question(f'ask = "{ask}"\nabout = "{about}"{choices}'))


def test_the_fitting_words_load_and_yes_means_the_fact_holds() -> None:
    sc = loads(SETUP + TAP_FOREST + _question('''
ask = "Alice taps the Forest for mana. Is it tapped after that, in Bob's untap step terms?"
about = "tapped.forest"
choices = [{ value = true, because = "it paid {T}" }, false]
'''))
    q = play(sc)[1].question
    assert q.labels == ("Yes: it paid {T}", "No") and q.correct == 0


def test_a_why_is_one_short_sentence() -> None:
    base = SETUP + TAP_FOREST + '\n[step.question]\nask = "What will Alice\'s pool hold?"\n' \
        'about = "pool.Alice"\nrule = "605.1b"\n'
    with pytest.raises(ScenarioError, match=r"question.why: the why is one sentence"):
        loads(base + 'why = "Wild Growth adds mana. It triggers."\n')
    with pytest.raises(ScenarioError, match=r"question.why: the why has 31 words; at most 30"):
        loads(base + f'why = "{" ".join(["word"] * 31)}."\n')


def test_an_answer_on_screen_before_its_question_fails_the_walkthrough() -> None:
    """The set-up's words, the narration of every step before and the refusal on the frame it
    is asked on must not give the deciding rule's number or the right choice's reason."""
    told = SETUP.replace('title = "Questions"',
                         'title = "Questions"\nintro = "Wild Growth will add {G} (CR 605.1b)."')
    sc = loads(told + TAP_FOREST + _question('''
ask = "What will Alice's pool hold?"
about = "pool.Alice"
choices = [["G"], { value = ["G", "G"], because = "Wild Growth adds one" }]
'''))
    check = play(sc)[1].checks[-1]
    assert not check.ok and check.actual == "the set-up names CR 605.1b"
    said = SETUP + '''
[[step]]
narration = "Look: Wild Growth adds one."
do = "look"
''' + TAP_FOREST.replace("Alice taps", "Then Alice taps") + _question('''
ask = "What will Alice's pool hold?"
about = "pool.Alice"
choices = [["G"], { value = ["G", "G"], because = "Wild Growth adds one" }]
''')
    check = play(loads(said))[2].checks[-1]
    assert not check.ok and check.actual == "step 1's narration says 'Wild Growth adds one'"
    from mtg_rulekit.scenario.text import failure_lines

    assert any("question: its answer is not on screen before it" in line
               for line in failure_lines(loads(said), play(loads(said))))


@pytest.mark.parametrize("about, value, because, words", [
    ("refused", "allowed", "", "Yes"), ("refused", "302.6", "it arrived this turn",
                                        "No: it arrived this turn"),
    ("tapped", True, "", "Yes"), ("sick", False, "it has haste", "No: it has haste"),
    ("pool", ["G", "C (powerstone)"], "", "{G} and {C} (not for nonartifact spells)"), ("pool", [], "", "Nothing"),
    ("counters", {"+1/+1": 3}, "X was 2", "3 +1/+1 counters: X was 2"),
    ("counters", {}, "", "No counters"), ("could_produce", ["G", "B"], "", "{G} or {B}"),
    ("could_produce", [], "", "Nothing"), ("step", "declare_attackers", "",
                                           "Declare attackers step"),
    ("triggered", 4, "itself and three more", "4: itself and three more"),
    ("pt", "2/2", "", "2/2"),
])
def test_a_choice_reads_as_its_value_then_its_reason(about, value, because, words) -> None:
    from mtg_rulekit.scenario.wording import choice_label

    assert choice_label(about, value, because) == words
