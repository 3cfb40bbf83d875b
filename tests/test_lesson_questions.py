"""Each lesson's questions are its walkthroughs' checked questions, asked where the chapter's
walkthrough reaches the point (`[step.question]`, answered by the engine): at least three a
lesson, every one in the class quiz, and the follow-ups learners ask (rules audit 3) among them.
Each follow-up is also played again here on the engine's public API, so a scenario edit that
changes what it shows fails twice."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

from mtg_rulekit import Game, Step
from mtg_rulekit.authoring.new_lesson import MIN_QUESTIONS
from mtg_rulekit.display.quiz.questions import quiz_questions
from mtg_rulekit.display.walkthrough.frames import StepFrames
from mtg_rulekit.repo.course import read_course_entry
from mtg_rulekit.scenario import load, play, shipped_dir
from mtg_rulekit.scenario.runner import Question
from tests.helpers import cast_from_hand, end_the_turn, pool
from tests.lesson_shape import lesson_notebooks

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
LESSONS = lesson_notebooks(NOTEBOOKS)
STEPPER = re.compile(r"""Stepper\(["']([a-z0-9_]+)["']\)""")


def walkthroughs(stem: str) -> list[str]:
    """The scenarios a lesson's walkthroughs play, in order."""
    nb = nbformat.read(NOTEBOOKS / f"{stem}.ipynb", as_version=4)
    return [m for c in nb.cells if c.cell_type == "code" for m in STEPPER.findall(c.source)]


def questions(stem: str) -> list[tuple[str, int, Question]]:
    """(scenario, step, question) of every checked question of a lesson, in order."""
    out = []
    for name in walkthroughs(stem):
        for r in play(load(shipped_dir() / f"{name}.toml")):
            if r.question is not None:
                out.append((name, r.number, r.question))
    return out


def asked(stem: str, scenario: str, about: str) -> Question:
    """The one question of `stem`'s walkthrough `scenario` about `about`."""
    found = [q for name, _, q in questions(stem) if name == scenario and q.about == about]
    assert len(found) == 1, f"{stem}: {len(found)} questions about {about} in {scenario}"
    return found[0]


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem)
def test_every_lesson_has_at_least_three_checked_questions_all_in_its_quiz(path):
    found = questions(path.stem)
    assert len(found) >= MIN_QUESTIONS, [q.ask for _, _, q in found]
    data = [StepFrames(name, diagram=False).data() for name in walkthroughs(path.stem)]
    quiz = quiz_questions(data, page=f"{path.stem}.html")
    assert [q["ask"] for q in quiz] == [q.ask for _, _, q in found]
    for item, (_, step, q) in zip(quiz, found):
        assert item["step"] == step and item["answer_label"] == q.answer_label
        assert item["why"] == q.why and [r["number"] for r in item["rule_texts"]] == list(q.rules)


def test_every_question_has_reasons_a_why_and_one_or_two_deciding_rules():
    for path in LESSONS:
        for name, step, q in questions(path.stem):
            where = f"{name} step {step}"
            assert 1 <= len(q.rules) <= 2 and q.why, where
            assert q.choices and q.correct is not None, where  # a choice to click, not to type
            assert any(": " in label for label in q.labels), where  # reasons, not bare values


def test_chapters_are_short_and_exert_is_taught_before_the_crasher_token():
    """Each ruling's chapter says it in 3-5 sentences before its walkthrough; R19 (the
    Crasher's token) is lesson 8's last chapter, after exert (R17); lesson 7 fits 30 minutes
    by the course's own estimate."""
    import sys

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from readability import prose_sentences

    for path in LESSONS:
        nb = nbformat.read(path, as_version=4)
        for cell in nb.cells:
            if cell.cell_type == "markdown" and re.match(r"## .*\(R\d\d\)", cell.source):
                n = len(prose_sentences(cell.source))
                assert 3 <= n <= 5, (path.stem, cell.source.splitlines()[0], n)
    chapters = [re.search(r"\((R\d\d)\)", c.source).group(1)
                for c in nbformat.read(NOTEBOOKS / "08_exert.ipynb", as_version=4).cells
                if c.cell_type == "markdown" and re.match(r"## .*\(R\d\d\)", c.source)]
    assert chapters[-1] == "R19" and chapters.index("R17") < chapters.index("R19")
    seventh = next(p for p in LESSONS if p.stem.startswith("07_"))
    assert read_course_entry(seventh).minutes <= 30
    assert "R19" not in "".join(c.source for c in nbformat.read(seventh, as_version=4).cells)


# ------------------------------------------------------------------ the follow-ups
def test_a_creature_that_arrived_this_turn_can_block():
    blocks = [q for name, _, q in questions("01_tapping_and_summoning_sickness")
              if name == "r07_paying_tap" and "block" in q.ask]
    assert len(blocks) == 1 and blocks[0].answer_label.startswith("Yes")
    game = Game()
    elves = game.add("Llanowar Elves", sick=True)
    game.next_turn()
    bears = game.add("Grizzly Bears", player="Bob")
    game.advance("declare_attackers")
    game.declare_attackers([bears])
    game.advance("declare_blockers")
    game.declare_blockers({elves.id: bears.id})  # still "new" to Alice, and it blocks
    assert elves.blocking


def test_r03_the_drums_creature_is_not_tapped_for_mana():
    q = asked("02_mana_abilities_and_could_produce", "r03_drum_taps_a_creature", "pool.Alice")
    assert q.answer == ["G", "G"] and q.answer_label.startswith("{G}{G}:")
    game = Game()
    game.add("Mana Reflection")
    drum = game.add("Springleaf Drum")
    game.activate(drum, tap=game.add("Llanowar Elves"), mana="G")
    assert pool(game) == ["G", "G"]  # the Drum's {G}, doubled; nothing for the Elves


def test_r16_exerted_and_tapped_again_before_the_untap_step_stays_tapped():
    q = asked("08_exert", "r16_exert_already_untapped", "tapped.initiate2")
    assert q.answer is True and q.answer_label.startswith("Yes")
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
    assert game.active == "Alice" and initiate.tapped  # her next untap step skipped it
    game.next_turn()
    game.next_turn()
    assert not initiate.tapped  # "It untaps in the untap step after that"


def test_r11_bouncing_the_refinery_and_another_artifact_triggers_nothing():
    q = asked("06_slagstone_refinery", "r11_refinery_boomerang", "triggered.refinery")
    assert q.answer == 0
    assert asked("06_slagstone_refinery", "r11_refinery_boomerang",
                 "tokens.Powerstone").answer == 0
    game = Game()
    refinery = game.add("Slagstone Refinery")
    memnite = game.add("Memnite")
    cast_from_hand(game, "Boomerang", "Island", 2, targets=[memnite])
    cast_from_hand(game, "Boomerang", "Island", 2, targets=[refinery])
    start = len(game.log)
    while game.stack:
        game.resolve()
    assert game.find_all("Slagstone Refinery", zone="hand") and \
        game.find_all("Memnite", zone="hand")
    assert game.find_all("Powerstone") == []
    assert not [e for e in game.log.since(start) if "triggers" in e.text]


def test_r18_the_copy_of_a_kiki_jiki_token_is_not_sacrificed_at_end_of_turn():
    stem = next(p.stem for p in LESSONS if p.stem.startswith("07_"))
    q = asked(stem, "r18_copy_of_a_token", "tokens.Grizzly Bears")
    assert q.answer == 1
    game = Game()
    bears = game.add("Grizzly Bears")
    kiki = game.add("Kiki-Jiki, Mirror Breaker")
    game.activate(kiki, targets=[bears])
    game.resolve()
    token = next(o for o in game.permanents() if o.token)
    cast_from_hand(game, "Cackling Counterpart", "Island", 3, targets=[token])
    game.resolve()
    copy = next(o for o in game.permanents() if o.token and o.id != token.id)
    assert game.chars(copy).has_keyword("Haste")
    end_the_turn(game)
    left = [o.id for o in game.permanents() if o.token]
    assert left == [copy.id]  # Kiki-Jiki's token is gone, the copy stays


def test_r19_a_copy_of_a_crewed_vehicle_is_not_a_creature_nor_attacking():
    q = asked("08_exert", "r19_token_of_a_crewed_vehicle", "types.copter_token")
    assert q.answer == ["Artifact"]
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
    token = next(o for o in game.permanents() if o.token)
    assert game.chars(token).name == "Smuggler's Copter" and not token.crewed
    assert token.tapped and not token.attacking and not game.chars(token).is_a("Creature")


def test_r14_a_borrowed_exerted_creature_untaps_in_its_owners_untap_step():
    """W1: the question asks what it checks ('still tapped?'), and its answer is No."""
    q = asked("08_exert", "r14_exert_borrowed_creature", "tapped.initiate")
    assert "still tapped" in q.ask and q.answer is False
    assert q.answer_label.startswith("No") and "701.43a" in q.rules


def test_every_shipped_question_is_tied_to_its_fact_and_hides_its_answer():
    """Over every shipped question (in a lesson or not): its yes/no words match the fact's
    polarity (Yes exactly when the engine's value is true or "allowed"), its words fit the fact
    (`mtg_rulekit.scenario.wording`: checked at load, so every shipped file loads), and its answer
    is not on screen before it."""
    from mtg_rulekit.scenario import shipped
    from mtg_rulekit.scenario.wording import YES_NO

    seen = 0
    for path in shipped():
        for r in play(load(path)):
            q = r.question
            if q is None:
                continue
            seen += 1
            key = q.about.partition(".")[0]
            if key in YES_NO:
                values = [c["value"] if isinstance(c, dict) and "value" in c else c
                          for c in q.choices]
                for value, label in zip(values, q.labels):
                    assert label.startswith("Yes") == (value is True or value == "allowed"), \
                        (path.name, r.number, label)
            hidden = [c for c in r.checks if c.description.startswith("question:")]
            assert len(hidden) == 1 and hidden[0].ok, (path.name, r.number, hidden)
    assert seen >= 40
