"""The follow-up questions learners ask (rules audit 2, teaching item 3; issue 29) are predict
questions in their lessons, and each answer is what the engine does: every test reads the
question and the answer from the notebook's "Predict, then reveal" cell, then plays the
position on the engine and checks the answer the text gives. A rewrite that drops a question or
changes its answer fails here and asks for the test to follow."""

from __future__ import annotations

import re

import nbformat
import pytest

from rulekit import Game, Step
from tests.helpers import cast_from_hand, end_the_turn, pool
from tests.lesson_shape import NOTEBOOKS, lesson_stems

QUESTION = re.compile(r"<details>\s*<summary><b>Predict:</b>(.*?)</summary>(.*?)</details>", re.S)


def questions(stem: str) -> list[tuple[str, str]]:
    """(question, answer) of each predict question of a lesson, whitespace folded."""
    nb = nbformat.read(NOTEBOOKS / f"{stem}.ipynb", as_version=4)
    cell = next(c.source for c in nb.cells if c.cell_type == "markdown"
                and c.source.lstrip().startswith("## Predict, then reveal"))
    return [(" ".join(q.split()), " ".join(a.split())) for q, a in QUESTION.findall(cell)]


def answer(stem: str, *question_words: str) -> str:
    """The answer of the one question of `stem` that says all of `question_words`."""
    found = [a for q, a in questions(stem) if all(w in q for w in question_words)]
    assert len(found) == 1, f"{stem}: {len(found)} questions say {question_words}"
    return found[0]


@pytest.mark.parametrize("stem", lesson_stems())
def test_every_lesson_has_two_to_six_questions_each_with_an_answer(stem):
    found = questions(stem)
    assert 2 <= len(found) <= 6, f"{stem}: {len(found)} predict questions"
    for q, a in found:
        assert q.endswith("?"), f"{stem}: a question ends with '?': {q!r}"
        assert a.startswith("**"), f"{stem}: an answer starts with its words in bold: {a!r}"


def test_lesson_1_asks_nothing_about_tapping_for_mana_before_lesson_2_defines_it():
    text = " ".join(q + " " + a for q, a in questions("01_tapping_and_summoning_sickness"))
    assert "Mana Reflection" not in text and "tapped for mana" not in text
    moved = answer("02_mana_abilities_and_could_produce", "Mana Reflection", "Pili-Pala")
    assert moved.startswith("**One.**")
    game = Game()
    game.add("Mana Reflection")
    pili = game.add("Pili-Pala", tapped=True)
    for _ in range(2):
        game.tap_for_mana(game.add("Wastes"))
    game.activate(pili, mana="R")
    assert pool(game).count("R") == 1  # one {R}: untapping is not tapping for mana


def test_lesson_2_teaches_r03_then_r02_then_r01():
    nb = nbformat.read(NOTEBOOKS / "02_mana_abilities_and_could_produce.ipynb", as_version=4)
    sections = [re.search(r"\((R\d\d)\)", c.source.splitlines()[0]) for c in nb.cells
                if c.cell_type == "markdown" and c.source.startswith("## ")]
    assert [m.group(1) for m in sections if m] == ["R03", "R02", "R01"]
    walks = [c.source for c in nb.cells if c.cell_type == "code" and "Stepper(" in c.source]
    assert walks == ['Stepper("r03_only_tap_abilities")', 'Stepper("r02_could_produce_chains")',
                     'Stepper("r02_could_produce_replacements")',
                     'Stepper("r01_undefined_mana")']
    first = nb.cells[0].source.split("\n\n")[1]
    assert "**mana ability**: an ability that makes mana" in first  # defined before it is used


def test_r16_exerted_and_tapped_again_before_the_untap_step_stays_tapped():
    text = answer("08_exert", "vigilant", "Springleaf Drum")
    assert text.startswith("**No, it stays tapped.**")
    game = Game()
    game.add("Always Watching")
    initiate = game.add("Glory-Bound Initiate")
    drum = game.add("Springleaf Drum")
    game.advance("declare_attackers")
    game.declare_attackers([initiate], exert=[initiate])
    game.resolve()
    assert not initiate.tapped  # vigilance
    game.advance("main2")
    game.activate(drum, tap=initiate, mana="W")
    game.next_turn()
    game.next_turn()
    assert game.state.active == "Alice" and initiate.tapped  # her next untap step skipped it
    game.next_turn()
    game.next_turn()
    assert not initiate.tapped  # "It untaps in the untap step after that"


def test_r11_bouncing_the_refinery_and_another_artifact_triggers_nothing():
    text = answer("06_slagstone_refinery", "Boomerang")
    assert text.startswith("**None.**")
    game = Game()
    refinery = game.add("Slagstone Refinery")
    memnite = game.add("Memnite")
    cast_from_hand(game, "Boomerang", "Island", 2, targets=[memnite])
    cast_from_hand(game, "Boomerang", "Island", 2, targets=[refinery])
    start = len(game.log)
    while game.state.stack:
        game.resolve()
    assert game.find_all("Slagstone Refinery", zone="hand") and \
        game.find_all("Memnite", zone="hand")
    assert game.find_all("Powerstone") == []
    assert not [e for e in game.log.since(start) if "triggers" in e.text]


def test_r18_the_copy_of_a_kiki_jiki_token_is_not_sacrificed_at_end_of_turn():
    text = answer("07_token_copies_and_reflexive_triggers", "end step", "sacrificed")
    assert text.startswith("**No.**")
    game = Game()
    bears = game.add("Grizzly Bears")
    kiki = game.add("Kiki-Jiki, Mirror Breaker")
    game.activate(kiki, targets=[bears])
    game.resolve()
    token = next(o for o in game.state.battlefield() if o.token)
    cast_from_hand(game, "Cackling Counterpart", "Island", 3, targets=[token])
    game.resolve()
    copy = next(o for o in game.state.battlefield() if o.token and o.id != token.id)
    assert game.chars(copy).has_keyword("Haste")
    end_the_turn(game)
    left = [o.id for o in game.state.battlefield() if o.token]
    assert left == [copy.id]  # Kiki-Jiki's token is gone, the copy stays


def test_r05_contamination_plus_wild_growth_gives_black_and_green():
    text = answer("03_tapped_for_mana_triggers_and_replacements", "Contamination", "Wild Growth")
    assert text.startswith("**{B}{G}.**")
    game = Game()
    forest = game.add("Forest")
    game.add("Wild Growth", attached_to=forest.id)
    game.add("Contamination")
    game.tap_for_mana(forest)
    assert pool(game) == ["B", "G"]


def test_r19_a_copy_of_a_crewed_vehicle_is_not_attacking():
    text = answer("07_token_copies_and_reflexive_triggers", "crewed Copter")
    assert text.startswith("**No.**") and "enters tapped" in text
    game = Game()
    crasher = game.add("Sandstorm Crasher")
    copter = game.add("Smuggler's Copter")
    memnite = game.add("Memnite")
    game.set_turn(step=Step.BEGIN_COMBAT)
    game.activate(copter, crew=[memnite.id])
    game.resolve()
    game.advance("declare_attackers")
    game.declare_attackers([crasher], exert=[crasher], target=copter.id)
    game.resolve()
    token = next(o for o in game.state.battlefield() if o.token)
    assert game.chars(token).name == "Smuggler's Copter" and not token.crewed
    assert token.tapped and not token.attacking and not game.chars(token).is_a("Creature")
