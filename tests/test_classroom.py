"""The classroom view of the exported lessons (issue 16), in Debian's Chromium (Playwright), on
the site built once per session (`lesson_site`, see conftest.py), through the page contract of
docs/classroom.md (rk-stepper, rk-controls, rk-narration, rk-new):

- one step, one screen: at 1366x768, 1920x1080 and 1280x720, every step of every walkthrough
  of every page shows its controls, its narration and what it added to the diagram together;
  diagram text is never under 14 px, and no diagram is drawn under 1:1;
- a phone (390 px): no page scrolls sideways;
- axe-core (pinned, `rulekit.export.axe`): no critical or serious violation on any page, at
  step 0 and at the last step of every walkthrough; each diagram's aria-describedby names its
  "Describe this step" text;
- the keyboard: the first walkthrough's controls within 4 Tabs of its section's heading;
  presenter mode (full screen, Right/Space, Left, Home, End, Escape); the live region;
  "Describe this step".

Screenshots go to test-artifacts/classroom/ (ignored by git).
"""

from __future__ import annotations

from pathlib import Path

import pytest

# the pages of the built site, opened once (`opened`) on one worker
pytestmark = [pytest.mark.browser, pytest.mark.notebook, pytest.mark.xdist_group("classroom")]

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts" / "classroom"
SIZES = [(1366, 768), (1920, 1080), (1280, 720)]
MIN_FONT_PX = 14.0


def _pages(site: Path) -> list[Path]:
    return sorted(p for p in site.glob("*.html") if p.name != "index.html")


def _open(browser, site: Path, page: Path, size: tuple[int, int]):
    from rulekit.export.browser import open_page

    stepper = "rk-stepper" in page.read_text("utf-8")
    return open_page(browser, page, site, stepper=stepper, viewport=size), stepper


@pytest.fixture(scope="session")
def opened(lesson_site, browser):
    """Every page of the site (the index first), opened once for this module's checks of every
    page: {page: (visit, has walkthroughs)}. Each test brings the pages to its window size and
    every walkthrough back to step 0 (`_at`), as a teacher resizing the window would; opening
    a page costs seconds, and the same pages were opened once per test before. Per session
    (i.e. at most once per worker). Note: the module's `xdist_group("classroom")` does not
    keep its tests on one worker today: pytest 9.2 ignores the node-id suffix pytest-xdist
    3.8's `--dist loadgroup` relies on (pytest-dev/pytest-xdist#1386), so both workers open
    the pages (about 20 s each)."""
    site, _ = lesson_site
    visits = {page: _open(browser, site, page, SIZES[0])
              for page in [site / "index.html", *_pages(site)]}
    yield visits
    for visit, _has in visits.values():
        visit.page.close()


def _at(visit, has: bool, size: tuple[int, int]) -> None:
    """The page at `size`, every walkthrough at step 0, scrolled to the top."""
    from rulekit.export.checks import goto_step

    visit.page.set_viewport_size({"width": size[0], "height": size[1]})
    for i in range(visit.page.locator(".rk-stepper").count() if has else 0):
        goto_step(visit.page.locator(".rk-stepper").nth(i), 0)
    visit.page.evaluate("() => window.scrollTo(0, 0)")
    visit.page.wait_for_timeout(200)


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_every_step_fits_one_screen(opened, size) -> None:
    from rulekit.export.checks import diagram_font_px, goto_step, walk

    out = ARTIFACTS / f"{size[0]}x{size[1]}"
    out.mkdir(parents=True, exist_ok=True)
    misfits, fonts, scales, steps = [], [], set(), 0
    for page, (visit, has) in opened.items():
        if page.name == "index.html":
            continue
        _at(visit, has, size)
        for i in range(visit.page.locator(".rk-stepper").count() if has else 0):
            fits = walk(visit.page, i)
            steps += len(fits)
            misfits += [f"{page.stem} walkthrough {i} step {f.step}: {', '.join(f.why)}"
                        for f in fits if not f.ok]
            fonts.append(diagram_font_px(visit.page))  # at the last step
            scales.update(visit.page.evaluate(
                "() => Array.from(document.querySelectorAll('.rk-diagram svg'))"
                ".filter((s) => s.getClientRects().length)"
                ".map((s) => Math.round(s.getScreenCTM().a * 1000) / 1000)"))
            stepper = visit.page.locator(".rk-stepper").nth(i)
            if i == 0:
                stepper.screenshot(path=str(out / f"{page.stem}-last.png"))
                goto_step(stepper, 0)
                stepper.evaluate("(e) => e.scrollIntoView({block: 'start'})")
                visit.page.screenshot(path=str(out / f"{page.stem}-step0.png"))
        assert visit.console_errors == [], visit.console_errors
    assert steps > 50, "every walkthrough of every page was stepped"
    assert misfits == [], f"{len(misfits)} of {steps} steps don't fit:\n" + "\n".join(misfits)
    if size == (1366, 768):
        assert fonts and min(fonts) >= MIN_FONT_PX - 0.05, f"diagram text {min(fonts):.1f} px"
        # zoomed to fit what the step added (issue 28), never below 1:1 (16 px text)
        assert scales and min(scales) >= 1.0, f"diagrams drawn under 1:1: {sorted(scales)}"


# The 95 % rule (issue 28): the fraction of steps after set-up, over every walkthrough of every
# page, that show at least 95 % of what they added to the diagram inside its pane and the
# window, with its text at least 16 CSS px (18 in Present). The goal is 1.0; the figures below
# are what the view reaches now (`make bench` prints p9_steps_fully_visible, the 1280x720 one):
# with the compact step view 80, 81, 88 and 60 of 90 (66, 69, 85-87 and 42 before it); with
# the legend in a few words flowing under the pane's tools and a trigger's target said once,
# 82, 83, 88 and 61, and 63 in Present with "Step k / n" on the title's line; with a step
# view's repeats folded to one chain and a box naming the others, 84, 85, 89 and 65
# (2026-12-02 15:15); the steps still missing at 1280x720 are lesson 6's Rest in Peace step
# (two more replaced chains beside the folded ones), lesson 8's exert step 6 and its long
# passage of time (walkthrough 2 step 2), lesson 3's chain of nine boxes and lesson 7's copy
# compared with its original, which no scale with 16 px text fits in the pane. With a step
# view in more than one shape (the pane shows the one that shows most of the step: issue 28's
# two layouts) and Present's legend under the words: 84, 86, 89 and 79 (2026-12-04); with a
# step view's same-kind leaves folded too and lesson 8's long passages of time told in more
# steps (93 steps now): 89, 90, 93 (every one) and 81 of 93. The misses at 1280x720: lesson
# 6's two Shatterstorm steps, lesson 3's chain of nine boxes, lesson 7's copy compared with
# its original. With a step view's short rows (a lone leaf beside its cause, its widening
# shapes' words wrapped wider, a replacement's result said once) and the shapes for
# Present's half-width pane beside long words: 92, 92, 93 and 87 of 93 (2026-12-04); the
# one miss at 1280x720 is lesson 6's Shatterstorm under Rest in Peace. With the brief shape
# (a fan-out's replaced events one box each), which only that step ships: 93, 93, 93 and 87
# of 93 (2026-12-04): every step at the three sizes; with three quarters of Present's
# slide for a large step beside words that fit the last quarter, 88 in Present; with "Step
# k / n" and the walkthrough's name at the head of the slide's words, 89; with a question's
# choices side by side on the slide, 90; with a slide's narration at its least size (32 px)
# where that lets a large step have three quarters, 92; with lesson 6's Shatterstorm under
# Rest in Peace told in a short narration (the rest in its speaker notes), 93: every step in
# every view. A drop fails the test (Present: one step of slack, its slide's text fit
# depends on when full screen settles).
RULE_95 = {"1280x720": 1.0, "1366x768": 1.0, "1920x1080": 1.0, "present": 0.98}


def _present_and_step(visit, stepper) -> list | None:
    """Present one walkthrough as a teacher would (its button, then full screen granted) and
    step it with its own keys: each step's `StepShare` after set-up, or None when it left
    Present while it was stepped, twice. Only an exit from full screen leaves it that way
    (Escape, or the browser's own way: `stepper.js`), and Chromium under load has once left
    a walkthrough's full screen by itself while it was stepped (CI, 2026-12-04: lesson 3's
    second walkthrough, just after the first's Escape); that walkthrough is presented and
    measured again, once. A Present that leaves by itself fails both times."""
    from rulekit.export.checks import step_shares

    for _ in range(2):
        if "rk-presenting" not in (stepper.get_attribute("class") or ""):
            stepper.locator(".rk-present").click()
        stepper.evaluate("(s) => new Promise((done) => { const t0 = Date.now(); "
                         "const wait = () => (document.fullscreenElement === s || "
                         "Date.now() - t0 > 5000) ? done() : setTimeout(wait, 20); "
                         "wait(); })")
        shares = step_shares(stepper)[1:]
        if "rk-presenting" in (stepper.get_attribute("class") or ""):
            return shares
        visit.page.wait_for_function("() => !document.fullscreenElement", timeout=5000)
        visit.page.wait_for_timeout(500)  # the late exit delivered before asking again
    return None


@pytest.mark.parametrize("where", [*[f"{w}x{h}" for w, h in SIZES], "present"])
def test_the_95_percent_rule(opened, where) -> None:
    from rulekit.export.checks import step_shares

    present = where == "present"
    size = (1280, 720) if present else tuple(int(x) for x in where.split("x"))
    floor_px = 18.0 if present else 16.0
    steps, misses, small = 0, [], []
    for page, (visit, has) in opened.items():
        if page.name == "index.html" or not has:
            continue
        _at(visit, has, size)  # one page per lesson, the window resized in place
        for i in range(visit.page.locator(".rk-stepper").count()):
            stepper = visit.page.locator(".rk-stepper").nth(i)
            if present:  # as a teacher would: once the slide is full screen
                shares = _present_and_step(visit, stepper)
                assert shares is not None, (
                    f"{page.stem} walkthrough {i} left Present while it was stepped, twice")
            else:
                stepper.evaluate("(e) => e.scrollIntoView({block: 'start'})")
                shares = step_shares(stepper)[1:]  # stepped with the module's own keys
            for got in shares:
                steps += 1
                if got.text_px < floor_px - 0.05:
                    small.append(f"{page.stem} walkthrough {i} step {got.step}: "
                                 f"{got.text_px:.1f} px")
                if not got.ok(floor_px):
                    misses.append(f"{page.stem} walkthrough {i} step {got.step}: "
                                  f"{got.share:.0%} ({got.note})")
            if present:
                visit.page.keyboard.press("Escape")  # and full screen left, before the next
                visit.page.wait_for_function("() => !document.fullscreenElement", timeout=5000)
                assert "rk-presenting" not in (stepper.get_attribute("class") or "")
    assert steps > 50, "every walkthrough of every page was stepped"
    assert small == [], f"text under {floor_px} px:\n" + "\n".join(small)
    fraction = (steps - len(misses)) / steps
    print(f"95 % rule at {where}: {steps - len(misses)}/{steps} steps ({fraction:.2f})")
    assert fraction >= RULE_95[where], (
        f"{len(misses)} of {steps} steps miss the 95 % rule:\n" + "\n".join(misses))


def test_no_page_scrolls_sideways_on_a_phone(opened) -> None:
    out = ARTIFACTS / "390x844"
    out.mkdir(parents=True, exist_ok=True)
    wide = []
    for page, (visit, has) in opened.items():
        _at(visit, has, (390, 844))
        got = visit.page.evaluate("""() => ({
          page: document.documentElement.scrollWidth,
          cut: Array.from(document.querySelectorAll('.rk-narration'))
               .filter((e) => e.getClientRects().length && e.scrollWidth > e.clientWidth + 1)
               .length})""")
        if got["page"] > 390 or got["cut"]:
            wide.append(f"{page.name}: {got}")
        visit.page.screenshot(path=str(out / f"{page.stem}.png"))
    assert wide == [], wide


def test_axe_finds_no_critical_serious_or_moderate_violation(opened) -> None:
    """... (moderate too: each walkthrough's board a landmark named after its walkthrough,
    headings in order) and every diagram is linked to its text description
    (aria-describedby)."""
    from rulekit.export.checks import SERIOUS, axe, goto_step, undescribed

    impacts = (*SERIOUS, "moderate")

    found, unlinked, described = {}, [], 0
    for page, (visit, has) in opened.items():
        _at(visit, has, (1366, 768))
        bad = axe(visit.page, impacts)
        # the sandbox's control groups fit their boxes: no stray scrollbars
        bars = visit.page.evaluate("""() => Array.from(
            document.querySelectorAll('.rk-sandbox fieldset')).filter((e) => {
              const s = getComputedStyle(e);
              return /(auto|scroll)/.test(s.overflowX + s.overflowY) &&
                (e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1);
            }).length""")
        if bars:
            bad = {**bad, "sandbox scrollbars": [f"{bars} box(es)"]}
        if bad:
            found[f"{page.name} step 0"] = bad
        if has:
            steppers = visit.page.locator(".rk-stepper")
            for i in range(steppers.count()):
                seen, bad = undescribed(steppers.nth(i))  # at step 0
                described += seen
                unlinked += [f"{page.name} walkthrough {i} {b}" for b in bad]
                n = steppers.nth(i).locator(".rk-controls .rk-steps button")
                goto_step(steppers.nth(i), n.count() - 1)
                seen, bad = undescribed(steppers.nth(i))  # at its last step
                described += seen
                unlinked += [f"{page.name} walkthrough {i} last step {b}" for b in bad]
            bad = axe(visit.page, impacts)
            if bad:
                found[f"{page.name} last step"] = bad
    assert found == {}, found
    assert described >= 2 * 21 and unlinked == [], (described, unlinked)


def _first_lesson(site: Path) -> Path:
    return next(p for p in _pages(site) if "rk-stepper" in p.read_text("utf-8")
                and not p.name.startswith("00_"))


def test_keyboard_reaches_the_controls_and_steps(lesson_site, browser) -> None:
    from rulekit.export.checks import diagram_descriptions

    site, _ = lesson_site
    visit, _has = _open(browser, site, _first_lesson(site), (1366, 768))
    page = visit.page
    try:
        # the top of the first walkthrough's section: the last heading before it
        page.evaluate("""() => {
          const root = document.querySelector('.rk-stepper');
          const hs = Array.from(document.querySelectorAll('main h1, main h2'))
            .filter((h) => h.compareDocumentPosition(root) & Node.DOCUMENT_POSITION_FOLLOWING);
          const h = hs[hs.length - 1];
          h.setAttribute('tabindex', '-1'); h.focus(); }""")
        inside = "() => !!document.activeElement.closest('.rk-stepper .rk-controls')"
        tabs = 0
        while tabs < 4 and not page.evaluate(inside):
            page.keyboard.press("Tab")
            tabs += 1
        assert page.evaluate(inside), "the controls are more than 4 Tabs away"
        name = page.evaluate("() => document.activeElement.getAttribute('aria-label') || "
                             "document.activeElement.textContent")
        assert name.strip(), "the first control has no name"
        # every visible control of the walkthrough has a name
        unnamed = page.evaluate("""() => Array.from(document.querySelectorAll(
            '.rk-stepper button, .rk-stepper input, .rk-stepper [role=slider]'))
          .filter((e) => e.getClientRects().length)
          .filter((e) => !(e.getAttribute('aria-label') || e.textContent.trim() ||
                           (e.id && document.querySelector(`label[for="${e.id}"]`)) ||
                           (e.closest('label') && e.closest('label').textContent.trim())))
          .map((e) => e.outerHTML.slice(0, 80))""")
        assert unnamed == []
        # the live region reads the next step's narration
        stepper = page.locator(".rk-stepper").first
        stepper.locator(".rk-controls .rk-steps button").nth(1).click()
        page.wait_for_timeout(200)
        narration = stepper.locator(".rk-narration").first.inner_text().strip()
        live = stepper.locator(".rk-announce")
        assert live.get_attribute("aria-live") == "polite"
        assert narration and narration in live.inner_text()
        # said once: one live region per walkthrough, the module's
        assert stepper.locator("[aria-live]").count() == 1
        # "Describe this step": a toggle for everyone, text from the log
        frame = stepper.locator(".rk-frame").first
        frame.locator(".rk-describe summary").click()
        text = frame.locator(".rk-describe").inner_text()
        assert "This step adds" in text or "note" in text
        # ... and what a screen reader offers with the diagram (aria-describedby), open or
        # closed toggle alike
        frame.locator(".rk-describe summary").click()
        said = diagram_descriptions(page)
        assert len(said) == page.locator(".rk-stepper").count(), said
        assert all(said) and said[0].split()[:3] == text.split()[3:6], (said[0], text)
    finally:
        page.close()


def test_presenter_mode_steps_like_a_slide_deck(lesson_site, browser) -> None:
    site, _ = lesson_site
    visit, _has = _open(browser, site, _first_lesson(site), (1280, 720))
    page = visit.page
    try:
        stepper = page.locator(".rk-stepper").first
        step = lambda: int(stepper.locator(".rk-frame").first.get_attribute("data-step"))  # noqa: E731
        last = stepper.locator(".rk-controls .rk-steps button").count() - 1
        stepper.locator(".rk-present").click()
        page.wait_for_timeout(300)
        box = stepper.bounding_box()
        assert box["x"] <= 0.5 and box["y"] <= 0.5 and box["width"] >= 1279 \
            and box["height"] >= 719, f"not full screen: {box}"
        for key, want in [("ArrowRight", 1), (" ", 2), ("ArrowLeft", 1), ("End", last),
                          ("Home", 0)]:
            page.keyboard.press(key)
            page.wait_for_timeout(150)
            assert step() == want, f"{key!r}: step {step()}, not {want}"
        page.screenshot(path=str(ARTIFACTS / "presenter.png"))
        stepper.locator(".rk-steps button").nth(2).evaluate("(b) => b.click()")
        page.keyboard.press("Escape")
        page.wait_for_timeout(300)
        assert "rk-presenting" not in (stepper.get_attribute("class") or "")
        assert step() == 2, "Escape did not come back at the same step"
        page.evaluate("() => document.activeElement.blur()")
        page.keyboard.press("ArrowRight")  # the page's keys are its own again
        page.wait_for_timeout(150)
        assert step() == 2
    finally:
        page.close()
