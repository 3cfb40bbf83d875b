"""Questions in an exported page, in Debian's Chromium: one lesson built into a temporary site,
three questions answered by keyboard (one right, one wrong and then right on its one retry,
one wrong twice), the feedback, the why and the deciding rules shown only once the answer is
final (the step's other rules folded), the answers kept in localStorage over a reload and never
shown as the answer on Present's projected view before the student answers there."""

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
    from mtg_rulekit.export import build

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


def _choose(page, form, q: dict, pick: int, tried: int | None = None) -> str:
    """Choose `pick` by keyboard in `form` (the choice `tried` is disabled: a retry) and press
    Enter; returns the words chosen."""
    if q["labels"]:
        radios = form.locator("input[type=radio]:not([disabled])")
        radios.first.focus()
        page.keyboard.press("Space")
        open_ = [i for i in range(len(q["labels"])) if i != tried]
        for _ in range(open_.index(pick)):
            page.keyboard.press("ArrowDown")
        page.keyboard.press("Enter")
        return q["labels"][pick]
    said = q["answer_label"] if pick == q["correct"] else "no such answer"
    form.locator("input[type=text]").focus()
    page.keyboard.press("Control+A")
    page.keyboard.type(said)
    page.keyboard.press("Enter")
    return said


def _wrong(q: dict, n: int = 1) -> int:
    """The n-th wrong choice of `q`."""
    return [i for i in range(len(q["labels"])) if i != q["correct"]][(n - 1) % (
        len(q["labels"]) - 1)]


def answer_three_ways(page, stepper_of, asked: list[tuple[int, dict]], shots: Path,
                      prefix: str = "") -> list[str]:
    """In the walkthroughs `stepper_of(i)` gives, by keyboard: the first question answered
    right; the second wrong, then right on its retry; the third wrong twice. After each, what
    the walkthrough shows and says: the step (or, after one wrong answer, the question still,
    with Try again and no answer); the answer, the why and the deciding rules once final, the
    other rules folded. What went wrong, if anything (a page and JupyterLab share it)."""
    from mtg_rulekit.export.checks import goto_step

    wrong: list[str] = []
    plans = [("right", [True]), ("retried", [False, True]), ("wrong twice", [False, False])]
    for (i, q), (name, tries) in zip(asked, plans):
        stepper = stepper_of(i)
        where = f"walkthrough {i} question {q['step']} ({name})"
        goto_step(stepper, q["step"] - 1)
        form = stepper.locator(".rk-question")
        if form.count() != 1 or q["ask"] not in form.locator("legend").inner_text():
            wrong.append(f"{where}: the question is not on the frame before its step")
            continue
        said, tried = "", None
        for n, right in enumerate(tries, start=1):
            pick = q["correct"] if right else _wrong(q, n)
            if n == 2:  # the retry, by keyboard: Try again has the focus
                retry = stepper.locator(".rk-retry")
                if retry.count() != 1 or not retry.evaluate("(b) => b === document.activeElement"):
                    wrong.append(f"{where}: Try again is missing or not focused")
                    break
                page.keyboard.press("Enter")
                page.wait_for_timeout(100)
            said = _choose(page, stepper.locator(".rk-question"), q, pick, tried)
            tried = pick
            page.wait_for_timeout(250)
            live = stepper.locator(".rk-announce").inner_text()
            step_now = stepper.locator(".rk-frame").get_attribute("data-step")
            if n == 1 and not right:  # not final: the question stays, the answer unsaid
                box = stepper.locator(".rk-question .rk-q-feedback")
                words = box.inner_text() if box.count() == 1 else ""
                if step_now != str(q["step"] - 1):
                    wrong.append(f"{where}: a first wrong answer moved on to the step")
                if "Not this time" not in words or q["answer_label"] in words or "CR " in words:
                    wrong.append(f"{where}: the first wrong answer's feedback says {words!r:.200}")
                if "Try again" not in live:
                    wrong.append(f"{where}: the live region says {live!r:.120}")
                page.screenshot(path=str(shots / f"{prefix}{name}-first.png"))
                continue
            if step_now != str(q["step"]):
                wrong.append(f"{where}: did not move on to the step")
                break
            box = stepper.locator(".rk-q-feedback")
            words = box.inner_text() if box.count() == 1 else ""
            kind = "rk-q-right" if right else "rk-q-wrong"
            if box.count() != 1 or kind not in (box.get_attribute("class") or ""):
                wrong.append(f"{where}: no {kind} feedback")
            if q["answer_label"] not in words or not (right or said in words):
                wrong.append(f"{where}: the feedback says {words!r:.200}")
            if q["why"] not in words:
                wrong.append(f"{where}: no why in the feedback")
            wrong += [f"{where}: no CR {r['number']}" for r in q["rule_texts"]
                      if f"CR {r['number']}" not in words or r["summary"] not in words]
            others = box.locator("details.rk-q-others")
            if q.get("other_rule_texts") and (others.count() != 1
                                              or others.get_attribute("open") is not None):
                wrong.append(f"{where}: the other rules are not folded")
            if not live.startswith("Right" if right else "Not this time"):
                wrong.append(f"{where}: the live region says {live!r:.120}")
            page.screenshot(path=str(shots / f"{prefix}{name}.png"))
    return wrong


def test_questions_right_wrong_and_retried_by_keyboard_kept_and_not_presented(
        browser, one_lesson) -> None:
    from mtg_rulekit.export.browser import open_page
    from mtg_rulekit.export.checks import goto_step

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    visit = open_page(browser, one_lesson, one_lesson.parent, viewport=(1366, 768))
    page = visit.page
    try:
        asked = [(i, q) for i, q in _questions(page) if q["labels"]][:3]
        assert len(asked) == 3, asked
        steppers = page.locator(".rk-stepper")
        assert answer_three_ways(page, steppers.nth, asked, ARTIFACTS, "page-") == []
        kept = page.evaluate("() => Object.keys(localStorage).filter((k) => "
                             "k.startsWith('rulekit:answer:'))")
        assert len(kept) == 3, kept

        page.reload()
        page.locator(".rk-stepper").first.wait_for(state="visible")
        for (i, q), right in zip(asked, (True, True, False)):
            stepper = page.locator(".rk-stepper").nth(i)
            goto_step(stepper, q["step"] - 1)
            form = stepper.locator(".rk-question")
            assert form.locator("button.rk-check").is_disabled()
            assert form.locator(".rk-q-right" if right else ".rk-q-wrong").count() == 1
            assert form.locator(".rk-retry").count() == 0  # final: no more tries
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
    from mtg_rulekit.export.browser import open_page
    from mtg_rulekit.export.checks import goto_step

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
    from mtg_rulekit.export.axe import axe_source

    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.evaluate(axe_source())  # (the page's security policy refuses an added <script>)
    return page.evaluate("""async () => (await axe.run(document, {preload: false})).violations.map(
        (v) => [v.id, v.impact, v.nodes.map((n) => n.target.join(" "))])""")


def test_the_class_quiz_one_question_a_screen_by_keyboard_reveal_link_and_axe(
        browser, one_lesson) -> None:
    """site/quiz.html: lesson 2's questions are the lesson page's own walkthrough
    questions; one a screen; nothing of the answer in the page before Reveal; Right / Left /
    Enter; the reveal shows the engine's answer, the rule and a link that opens the lesson
    page's walkthrough at that step; axe finds nothing at 1280x720, 1920x1080 and 390x844."""
    from mtg_rulekit.display.quiz.questions import quiz_questions
    from mtg_rulekit.export.browser import open_page
    from mtg_rulekit.export.quiz import anchor

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
