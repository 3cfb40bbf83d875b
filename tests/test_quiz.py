"""The class quiz's data: the walkthroughs' own questions, gathered in order with
where each one sits (no second source), in the kernel's `Quiz` widget and the site's quiz
page; everything escaped. The page itself is driven in Chromium by tests/test_frames_browser.py."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest

from mtg_rulekit.display.front import css_text, module_text, page_module
from mtg_rulekit.display.quiz.questions import quiz_questions
from mtg_rulekit.display.walkthrough.frames import StepFrames
from mtg_rulekit.display.widgets import Quiz, Stepper
from mtg_rulekit.export.quiz import anchor, lesson_questions, render
from mtg_rulekit.export.views import VIEWS, view_html, view_traits
from mtg_rulekit.scenario import loads, shipped_dir

ASKING = sorted(p.stem for p in shipped_dir().glob("*.toml")
                if "[step.question]" in p.read_text("utf-8"))


@pytest.fixture(scope="module")
def walkthroughs() -> list[dict]:
    return [StepFrames(name, diagram=False).data() for name in ASKING[:4]]


def test_every_question_of_the_frames_in_order_and_nothing_else(walkthroughs) -> None:
    assert len(ASKING) >= 4, ASKING
    got = quiz_questions(walkthroughs, page="02_x.html")
    want = [(w["uid"], f["question"]) for w in walkthroughs for f in w["frames"]
            if f["question"]]
    assert len(got) == len(want) >= 4
    for q, (uid, asked) in zip(got, want, strict=True):
        # the frame's own question, word for word: the engine's answer recorded at build time
        for key in ("ask", "labels", "correct", "answer_label", "rule_texts", "step"):
            assert q[key] == asked.get(key), key
        slug = next(w["slug"] for w in walkthroughs if w["uid"] == uid)
        # the one step-address scheme: the walkthrough's slug and the step, as "Copy a link"
        assert q["uid"] == uid and q["href"] == f"02_x.html#{slug}/{asked['step']}"
        frames = next(w["frames"] for w in walkthroughs if w["uid"] == uid)
        # asked on the frame before its step, which says the situation
        assert q["situation"] == frames[asked["step"] - 1]["narration"]
        assert q["label"] == frames[asked["step"]]["label"]
    assert quiz_questions(walkthroughs)[0]["href"] == ""  # no page: no link
    json.dumps(got)  # plain data


def test_a_walkthrough_without_questions_gives_none() -> None:
    plain = HOSTILE.split("[step.question]")[0]
    data = StepFrames(loads(plain, name="plain.toml"), diagram=False).data()
    assert not any(f["question"] for f in data["frames"])
    assert quiz_questions([data], page="x.html") == []


def test_the_kernel_quiz_takes_the_steppers_frames_and_turns_them_to_a_step() -> None:
    walk = Stepper(ASKING[0], diagram=False)
    quiz = Quiz(walk, ASKING[1])
    assert quiz.rk_view == "quiz" and quiz.index == 0 and quiz.linked == [walk.uid]
    mine = quiz_questions([{"title": walk.title, "uid": walk.uid, "slug": walk.slug,
                            "frames": walk.frames}], page="")
    assert quiz.questions[:len(mine)] == mine and mine
    # a walkthrough the notebook doesn't show has no link; one it shows links to its step
    assert all(q["href"] == "" for q in quiz.questions[len(mine):])
    assert all(q["href"] == f"#{walk.slug}/{q['step']}" for q in mine)
    assert all(q["href"] == walk.step_link(q["step"]).replace(walk.link_base, "") for q in mine)
    step = mine[0]["step"]
    quiz._on_msg(quiz, {"show": walk.uid, "step": step}, [])
    assert walk.step == step
    quiz._on_msg(quiz, {"show": walk.uid, "step": 999}, [])  # out of range: ignored
    quiz._on_msg(quiz, {"show": "rk-nothing", "step": 0}, [])
    quiz._on_msg(quiz, "not a dict", [])
    assert walk.step == step and not quiz.show("rk-nothing", 0)
    assert quiz._esm == module_text("quiz") and ".rk-quiz" in quiz._css


def test_the_module_is_an_afm_a_page_can_inline() -> None:
    text = module_text("quiz")
    assert text.rstrip().endswith("export default {render};")
    assert "eval(" not in text and "new Function" not in text and "innerHTML" not in text
    assert page_module("quiz").rstrip().endswith('.views["quiz"] = {render};')
    assert ".rk-quiz-screen" in css_text("quiz")
    assert VIEWS["quiz"] == ("title", "questions", "index", "linked")


HOSTILE = '''
title = "Quiz </script><b>x</b>"
[setup]
turn = 3
step = "main1"
[[setup.permanent]]
card = "Forest"
name = "forest"
[[step]]
narration = "<img src=x> taps the Forest & more"
do = "tap_for_mana"
object = "forest"
[step.question]
ask = "</script><script>alert(1)</script> What will Alice's pool hold?"
about = "pool.Alice"
rule = "106.4"
why = "<i>The</i> Forest adds {G} </script>."
choices = [{ value = ["G"], because = "<u>one</u> {G}" }, []]
'''


def test_the_quiz_page_escapes_everything_and_links_each_lesson() -> None:
    data = StepFrames(loads(HOSTILE, name="hostile.toml"), diagram=False).data()
    nb = {"cells": [{"cell_type": "code", "outputs": [
        {"data": {"text/html": view_html("stepper", data)}}]}]}
    assert view_traits(nb, "stepper") == [json.loads(json.dumps(data))]
    questions = lesson_questions(nb, "02_x y")
    assert len(questions) == 1 and questions[0]["href"] == \
        f"02_x%20y.html#{data['slug']}/{questions[0]['step']}"
    page = render([("02_x y", "Lesson <2> & more", questions), ("03_none", "Zzz without questions", [])])
    body = page.split("</style>", 2)[-1]
    # no markup from the scenario or the title: the quiz's data is \u003c-escaped JSON
    assert "<b>x</b>" not in page and "<img src=x>" not in page
    assert "<i>The</i>" not in page and "<u>one</u>" not in page
    assert page.count("</script>") == 3  # the module, the host, the quiz's data
    assert "alert(1)" in page and "<script>alert" not in page
    assert "Lesson &lt;2&gt; &amp; more" in body and "Zzz without" not in body
    assert f'href="#{anchor("02_x y")}"' in page and anchor("02_x y") == "quiz-02_x-y"
    found = re.search(r'data-rk-view="quiz"><script type="application/json">(.*?)</script>',
                      page, re.S)
    assert found
    traits = json.loads(found.group(1))
    assert traits["questions"] == questions and traits["linked"] == [] and traits["title"] == ""
    assert unescape('href="02_x%20y.html"') in page  # "Open the lesson"


def test_a_quiz_page_without_questions_says_so_and_loads_no_module() -> None:
    from mtg_rulekit.export import index, quiz

    page = render([("01_a", "A", [])], index.SITE_CSS)
    assert "No lesson has questions yet." in page and "<script" not in page
    assert index.SITE_CSS in page and quiz.TEACHERS == index.TEACHERS


def test_the_quiz_reads_the_traits_of_a_view_with_its_page_id():
    """A walkthrough's rk-view carries its page id (the address's slug): the quiz still finds
    its traits (a regex that expected no id once left every lesson without its quiz link)."""
    from mtg_rulekit.export.views import view_html, view_traits

    traits = {"uid": "rk-x", "frames": []}
    nb = {"cells": [{"cell_type": "code", "outputs": [
        {"data": {"text/html": view_html("stepper", traits, "x")}},
        {"data": {"text/html": view_html("stepper", {"uid": "rk-y"})}}]}]}
    assert [t["uid"] for t in view_traits(nb, "stepper")] == ["rk-x", "rk-y"]
