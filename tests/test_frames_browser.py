"""Questions in an exported page (issue 29), in Debian's Chromium: one lesson built into a
temporary site, two questions answered by keyboard (one right, one wrong), the feedback and
the deciding rule shown, the answers kept in localStorage over a reload and never shown as
the answer on Present's projected view before the student answers there."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.notebook]

ROOT = Path(__file__).resolve().parent.parent
LESSON = "02_mana_abilities_and_could_produce.ipynb"
ARTIFACTS = ROOT / "test-artifacts" / "frames"


@pytest.fixture(scope="module")
def one_lesson(venv_kernel, tmp_path_factory) -> Path:
    from rulekit.export import build

    site = tmp_path_factory.mktemp("frames-site")
    report = build([ROOT / "notebooks" / LESSON], site, jobs=1, sandbox="off",
                   cache_dir=tmp_path_factory.mktemp("frames-cache"))
    assert not report.failures, report.failures
    return next(site.glob("02_*.html"))


def _questions(page) -> list[tuple[int, dict]]:
    """(walkthrough index, question) of every question on the page, in page order."""
    views = page.evaluate("""() => Array.from(document.querySelectorAll(
        ".rk-view[data-rk-view='stepper'] > script[type='application/json']"),
        (s) => s.textContent)""")
    out = []
    for i, text in enumerate(views):
        out += [(i, f["question"]) for f in json.loads(text)["frames"] if f.get("question")]
    return out


def _answer(page, stepper, q: dict, right: bool) -> str:
    """Answer `q` by keyboard on the frame before its step; returns what was answered."""
    from rulekit.export.checks import goto_step

    goto_step(stepper, q["step"] - 1)
    form = stepper.locator(".rk-question")
    assert form.count() == 1 and q["ask"] in form.locator("legend").inner_text()
    if q["labels"]:
        pick = q["correct"] if right else (q["correct"] + 1) % len(q["labels"])
        form.locator("input[type=radio]").first.focus()
        page.keyboard.press("Space")
        for _ in range(pick):
            page.keyboard.press("ArrowDown")
        page.keyboard.press("Enter")
        return q["labels"][pick]
    said = q["answer_label"] if right else "no such answer"
    form.locator("input[type=text]").focus()
    page.keyboard.type(said)
    page.keyboard.press("Enter")
    return said


def test_questions_by_keyboard_feedback_rule_and_storage(browser, one_lesson) -> None:
    from rulekit.export.browser import open_page
    from rulekit.export.checks import goto_step

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    visit = open_page(browser, one_lesson, one_lesson.parent, viewport=(1366, 768))
    page = visit.page
    try:
        asked = _questions(page)
        assert len(asked) >= 2, asked
        (i1, q1), (i2, q2) = asked[0], asked[1]
        steppers = page.locator(".rk-stepper")
        for (i, q), right in (((i1, q1), True), ((i2, q2), False)):
            stepper = steppers.nth(i)
            said = _answer(page, stepper, q, right)
            page.wait_for_timeout(200)
            # it moved on to the step, and says right or wrong, the engine's answer, the rule
            assert stepper.locator(".rk-frame").get_attribute("data-step") == str(q["step"])
            box = stepper.locator(".rk-q-feedback")
            assert box.count() == 1
            assert "rk-q-right" in box.get_attribute("class") if right else \
                "rk-q-wrong" in box.get_attribute("class")
            words = box.inner_text()
            assert q["answer_label"] in words and (right or said in words)
            for r in q["rule_texts"]:
                assert f"CR {r['number']}" in words and r["summary"] in words
            live = stepper.locator(".rk-announce").inner_text()
            assert live.startswith("Right" if right else "Not this time")
            page.screenshot(path=str(ARTIFACTS / f"answered_{'right' if right else 'wrong'}.png"))
        kept = page.evaluate("() => Object.keys(localStorage).filter((k) => "
                             "k.startsWith('rulekit:answer:'))")
        assert len(kept) == 2, kept

        page.reload()
        page.locator(".rk-stepper").first.wait_for(state="visible")
        for (i, q), right in (((i1, q1), True), ((i2, q2), False)):
            stepper = page.locator(".rk-stepper").nth(i)
            goto_step(stepper, q["step"] - 1)
            form = stepper.locator(".rk-question")
            assert form.locator("button.rk-check").is_disabled()
            assert form.locator(".rk-q-right" if right else ".rk-q-wrong").count() == 1
            # Present: the projected view never shows a stored answer
            stepper.locator(".rk-present").click()
            page.wait_for_timeout(200)
            assert stepper.locator(".rk-q-feedback").count() == 0
            assert not stepper.locator("button.rk-check").is_disabled()
            page.keyboard.press("Escape")
            page.wait_for_timeout(200)
        assert not visit.console_errors and not visit.outside
    finally:
        page.close()



def test_speaker_notes_show_for_the_teacher_and_never_while_presenting(browser,
                                                                       one_lesson) -> None:
    """A step's notes (lesson 2: Wastes and Mana Flare) behind their toggle and the N key in
    the page; while presenting they are not on the projected slide."""
    from rulekit.export.browser import open_page
    from rulekit.export.checks import goto_step

    visit = open_page(browser, one_lesson, one_lesson.parent, viewport=(1366, 768))
    page = visit.page
    try:
        views = page.evaluate("""() => Array.from(document.querySelectorAll(
            ".rk-view[data-rk-view='stepper'] > script[type='application/json']"),
            (s) => JSON.parse(s.textContent))""")
        where = [(i, f["step"], f["notes"]) for i, v in enumerate(views) for f in v["frames"]
                 if f.get("notes")]
        assert where, "no walkthrough of lesson 2 has speaker notes"
        i, k, notes = where[0]
        stepper = page.locator(".rk-stepper").nth(i)
        goto_step(stepper, k)
        box = stepper.locator(".rk-frame .rk-notes")
        assert box.is_visible() and notes not in stepper.locator(".rk-announce").inner_text()
        stepper.locator(".rk-steps button").first.focus()
        goto_step(stepper, k)
        page.keyboard.press("n")
        page.wait_for_timeout(200)
        assert notes in box.inner_text()
        stepper.locator(".rk-present").click()
        page.wait_for_timeout(300)
        assert not stepper.locator(".rk-frame .rk-notes").is_visible()
        page.keyboard.press("Escape")
        assert not visit.console_errors and not visit.outside
    finally:
        page.close()


def _axe(page) -> list:
    from rulekit.export.axe import axe_source

    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.evaluate(axe_source())  # (the page's security policy refuses an added <script>)
    return page.evaluate("""async () => (await axe.run(document, {preload: false})).violations.map(
        (v) => [v.id, v.impact, v.nodes.map((n) => n.target.join(" "))])""")


def test_the_class_quiz_one_question_a_screen_by_keyboard_reveal_link_and_axe(
        browser, one_lesson) -> None:
    """site/quiz.html (issue 29): lesson 2's questions are the lesson page's own walkthrough
    questions; one a screen; nothing of the answer in the page before Reveal; Right / Left /
    Enter; the reveal shows the engine's answer, the rule and a link that opens the lesson
    page's walkthrough at that step; axe finds nothing at 1280x720, 1920x1080 and 390x844."""
    from rulekit.display.quiz import quiz_questions
    from rulekit.export.browser import open_page
    from rulekit.export.quiz import anchor

    site, stem = one_lesson.parent, one_lesson.stem
    assert f'href="quiz.html#{anchor(stem)}"' in one_lesson.read_text("utf-8")
    lesson = open_page(browser, one_lesson, site, viewport=(1280, 720))
    walks = lesson.page.evaluate("""() => Array.from(document.querySelectorAll(
        ".rk-view[data-rk-view='stepper'] > script[type='application/json']"),
        (s) => JSON.parse(s.textContent))""")
    lesson.page.close()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for size in ((1280, 720), (1920, 1080), (390, 844)):
        visit = open_page(browser, site / "quiz.html", site, stepper=False, viewport=size)
        page = visit.page
        try:
            page.evaluate(f"() => {{ location.hash = '#{anchor(stem)}'; }}")
            quiz = page.locator(f"#{anchor(stem)} .rk-quiz")
            quiz.wait_for(state="visible")
            traits = json.loads(page.locator(
                f"#{anchor(stem)} .rk-view > script[type='application/json']").text_content())
            qs = traits["questions"]
            # no second source: the lesson page's walkthrough data gives the same questions
            assert qs == quiz_questions(walks, page=f"{stem}.html") and len(qs) >= 2
            screen = quiz.locator(".rk-quiz-screen")
            first = qs[0]
            assert first["ask"] in screen.inner_text()
            # before Reveal: no answer, no rule, no mark, no link in the document
            assert quiz.locator(".rk-quiz-answer, .rk-quiz-correct, .rk-quiz-step").count() == 0
            for r in first["rule_texts"]:
                assert r["summary"] not in page.locator("body").inner_text()
            page.screenshot(path=str(ARTIFACTS / f"quiz-{size[0]}x{size[1]}.png"))
            if size == (1280, 720):
                quiz.focus()
                page.keyboard.press("ArrowRight")
                assert f"Question 2 of {len(qs)}" in quiz.locator(".rk-quiz-count").inner_text()
                assert qs[1]["ask"] in screen.inner_text()
                assert qs[1]["ask"] in quiz.locator(".rk-quiz-live").inner_text()
                page.keyboard.press("ArrowLeft")
                assert first["ask"] in screen.inner_text()
                assert quiz.locator(".rk-quiz-back").is_disabled()
            quiz.focus()
            page.keyboard.press("Enter")  # reveal
            answer = quiz.locator(".rk-quiz-answer")
            assert answer.count() == 1 and first["answer_label"] in answer.inner_text()
            for r in first["rule_texts"]:
                assert f"CR {r['number']}" in answer.inner_text()
                assert r["summary"] in answer.inner_text()
            assert quiz.locator(".rk-quiz-reveal").get_attribute("aria-expanded") == "true"
            assert "The engine says" in quiz.locator(".rk-quiz-live").inner_text()
            if first["labels"]:
                mark = quiz.locator(".rk-quiz-correct")
                assert mark.count() == 1 and first["labels"][first["correct"]] in mark.inner_text()
            # the revealed screen fits the window (one question a screen)
            box = quiz.locator(".rk-quiz-screen").bounding_box()
            if size != (390, 844):
                assert box["y"] + box["height"] <= size[1], (size, box)
            page.screenshot(path=str(ARTIFACTS / f"quiz-{size[0]}x{size[1]}-revealed.png"))
            assert _axe(page) == [], size
            if size == (1280, 720):
                page.keyboard.press("Enter")  # hide again
                assert quiz.locator(".rk-quiz-answer").count() == 0
                page.keyboard.press("Enter")
                link = quiz.locator("a.rk-quiz-step")
                assert link.get_attribute("href") == first["href"]
                link.click()
                page.wait_for_url(f"**/{stem}.html#{first['slug']}/{first['step']}")
                page.locator(".rk-stepper").first.wait_for(state="visible")
                i = [w["uid"] for w in walks].index(first["uid"])
                frame = page.locator(".rk-stepper").nth(i).locator(".rk-frame")
                assert frame.get_attribute("data-step") == str(first["step"])
                assert frame.is_visible()
            assert not visit.console_errors and not visit.outside
        finally:
            page.close()
