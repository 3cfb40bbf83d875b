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
