"""The classroom view of the exported lessons in Debian's Chromium (Playwright), on the site
built once per session (`lesson_site`, see conftest.py), through the page contract of
docs/classroom.md (rk-stepper, rk-controls, rk-narration, rk-new). One pass per page and
view (`_views`) steps every walkthrough with its own keys and measures every step once
(`mtg_rulekit.export.checks.step_views`); the tests read those measurements:

- one step, one screen: at 1280x720, 1366x768 and 1920x1080 and in Present, every step of
  every walkthrough shows its controls, its narration and what it added to the diagram
  together;
- the 95 % rule: each step's pane shows at least 95 % of what it added, its text at least
  16 px (18 in Present, 12 on a phone, where the picture is scrolled into view under the
  walkthrough's sticky bar);
- a phone (390x844): no page scrolls sideways; the bar stays at the top; events are folded;
- axe-core (pinned, `mtg_rulekit.export.axe`): no critical, serious or moderate violation on any
  page, at step 0 and at the last step of every walkthrough; each diagram's aria-describedby
  names its "Describe this step" text;
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
SIZES = [(1280, 720), (1366, 768), (1920, 1080)]
# "narrow": a window whose walkthrough is as large as JupyterLab's notebook panel at 1280x720
# with its file browser open (the picture's pane `mtg_rulekit.display.walkthrough.frames.PANES[0]`,
# which tests/test_jupyterlab.py measures in JupyterLab itself): every step's fit in
# JupyterLab is checked here, on the built pages
NARROW = (987, 600)
VIEWS = [*(f"{w}x{h}" for w, h in SIZES), "present", "narrow", "390x844"]
# a view's least text size in the step's new part, CSS px
FLOOR_PX = {"present": 18.0, "390x844": 12.0}
# The 95 % rule: every step after set-up shows at least 95 % of what it added, its text at
# least FLOOR_PX (16 px by default), in every view. A guard, not a target (`make bench` prints
# the figures). The steps that miss it are named here, by view, with the share measured: any
# other step that misses fails, and so does a named one that shows less. Why they miss
# (docs/classroom.md, "The 95 % rule"):
# - lesson 6's Shatterstorm, in both walkthroughs (its one engine action destroys every
#   artifact at once, the Refinery triggers for four of them, a token ceases to exist): its
#   focus box is larger than Present's pane at 18 px text, and JupyterLab's, in every layout
#   of `LAYOUTS`;
# - lesson 2's Springleaf Drum under Mana Reflection (one mana ability: two costs paid, the
#   mana as first proposed, the replacement, the mana made): a chain taller than Present's
#   and JupyterLab's panes in every layout;
# - lesson 7's copy compared with its original (Kiki-Jiki's ability, Metallic Mimic's
#   replacement, the note comparing copy and original): six boxes tall with the note beside,
#   at JupyterLab's size.
RULE_95_MISSES: dict[str, dict[tuple[str, str, int], float]] = {
    "present": {("06_slagstone_refinery", "refinery-leaves-together", 2): 0.89,
                ("06_slagstone_refinery", "refinery-rest-in-peace", 2): 0.90,
                ("02_mana_abilities_and_could_produce", "drum-taps-a-creature", 1): 0.91},
    "narrow": {("06_slagstone_refinery", "refinery-leaves-together", 2): 0.83,
               ("06_slagstone_refinery", "refinery-rest-in-peace", 2): 0.83,
               ("02_mana_abilities_and_could_produce", "drum-taps-a-creature", 1): 0.88,
               ("07_token_copies", "token-copy-enters", 5): 0.89}}


def _pages(site: Path) -> list[Path]:
    return sorted(p for p in site.glob("*.html") if p.name != "index.html")


def _open(browser, site: Path, page: Path, size: tuple[int, int]):
    from mtg_rulekit.export.browser import open_page

    stepper = "rk-stepper" in page.read_text("utf-8")
    return open_page(browser, page, site, stepper=stepper, viewport=size), stepper


@pytest.fixture(scope="session")
def opened(lesson_site, browser):
    """Every page of the site (the index first), opened once for this module's checks of every
    page: {page: (visit, has walkthroughs)}. Each check brings the pages to its window size
    and every walkthrough back to step 0 (`_at`), as a teacher resizing the window would."""
    site, _ = lesson_site
    visits = {page: _open(browser, site, page, SIZES[1])
              for page in [site / "index.html", *_pages(site)]}
    yield visits
    for visit, _has in visits.values():
        visit.page.close()


def _at(visit, has: bool, size: tuple[int, int]) -> None:
    """The page at `size`, every walkthrough at step 0, scrolled to the top."""
    from mtg_rulekit.export.checks import goto_step

    visit.page.set_viewport_size({"width": size[0], "height": size[1]})
    for i in range(visit.page.locator(".rk-stepper").count() if has else 0):
        goto_step(visit.page.locator(".rk-stepper").nth(i), 0)
    visit.page.evaluate("() => window.scrollTo(0, 0)")
    visit.page.wait_for_timeout(200)


def _presented(visit, stepper) -> list | None:
    """Present one walkthrough as a teacher would (its button, then full screen granted) and
    step it with its own keys: each step's `StepView`, or None when it left Present while it
    was stepped, twice. Only an exit from full screen leaves it that way (Escape, or the
    browser's own way), and Chromium under load has once left a walkthrough's full screen by
    itself just after the one before it left: it is presented and measured again, once."""
    from mtg_rulekit.export.checks import step_views

    for _ in range(2):
        if "rk-presenting" not in (stepper.get_attribute("class") or ""):
            stepper.locator(".rk-present").click()
        stepper.evaluate("(s) => new Promise((done) => { const t0 = Date.now(); "
                         "const wait = () => (document.fullscreenElement === s || "
                         "Date.now() - t0 > 5000) ? done() : setTimeout(wait, 20); "
                         "wait(); })")
        got = step_views(stepper)
        if "rk-presenting" in (stepper.get_attribute("class") or ""):
            return got
        visit.page.wait_for_function("() => !document.fullscreenElement", timeout=5000)
        visit.page.wait_for_timeout(500)  # the late exit delivered before asking again
    return None


_MEASURED: dict[str, dict[str, object]] = {}


def _views(opened, where: str) -> dict[str, object]:
    """Every step of every walkthrough of every lesson page in one view (`VIEWS`), measured
    once per test session: {"steps": [(page, walkthrough's slug, StepView) after set-up],
    "errors": console errors, "left": walkthroughs that left Present by themselves}. A
    screenshot of each page's first walkthrough at its last step."""
    from mtg_rulekit.export.checks import step_views

    if where in _MEASURED:
        return _MEASURED[where]
    present, phone = where == "present", where == "390x844"
    size = (1280, 720) if present else NARROW if where == "narrow" else \
        tuple(int(x) for x in where.split("x"))
    out = ARTIFACTS / where
    out.mkdir(parents=True, exist_ok=True)
    steps, errors, left = [], [], []
    for page, (visit, has) in opened.items():
        if page.name == "index.html" or not has:
            continue
        _at(visit, has, size)
        for i in range(visit.page.locator(".rk-stepper").count()):
            stepper = visit.page.locator(".rk-stepper").nth(i)
            slug = stepper.get_attribute("data-rk-slug")
            if present:
                got = _presented(visit, stepper)
                if got is None:
                    left.append(f"{page.stem} walkthrough {i}")
                    continue
            else:
                stepper.evaluate("(e) => e.scrollIntoView({block: 'start'})")
                got = step_views(stepper, picture=phone)
            steps += [(page.stem, slug, s) for s in got[1:]]
            if i == 0:
                visit.page.screenshot(path=str(out / f"{page.stem}-last.png"))
            if present:
                visit.page.keyboard.press("Escape")  # and full screen left, before the next
                visit.page.wait_for_function("() => !document.fullscreenElement", timeout=5000)
        errors += visit.console_errors
    _MEASURED[where] = {"steps": steps, "errors": errors, "left": left}
    return _MEASURED[where]


@pytest.mark.parametrize("where", VIEWS)
def test_every_step_fits_and_keeps_the_95_percent_rule(opened, where) -> None:
    """Each view measured once: controls (on a slide, "Step k / n"), narration and what the
    step added on screen together at every step (the desktop views and Present; a phone
    scrolls), and the 95 % rule."""
    got = _views(opened, where)
    assert got["errors"] == [] and got["left"] == [], (got["errors"], got["left"])
    floor_px = FLOOR_PX.get(where, 16.0)
    steps = got["steps"]
    if where != "390x844":
        misfits = [f"{page} {slug} step {s.step}: {', '.join(s.why)}"
                   for page, slug, s in steps if not s.together]
        assert misfits == [], (f"{len(misfits)} of {len(steps)} steps don't fit:\n"
                               + "\n".join(misfits))
    small = [f"{page} {slug} step {s.step}: {s.text_px:.1f} px"
             for page, slug, s in steps if s.text_px < floor_px - 0.05]
    known = RULE_95_MISSES.get(where, {})
    misses = {(page, slug, s.step): s for page, slug, s in steps if not s.ok(floor_px)}
    worse = [f"{page} {slug} step {k}: {s.share:.0%} ({s.note})"
             for (page, slug, k), s in misses.items()
             if s.share < known.get((page, slug, k), 0.95) - 1e-6]
    assert len(steps) > 50, "every walkthrough of every page was stepped"
    assert small == [], f"text under {floor_px} px:\n" + "\n".join(small)
    if where == "narrow":  # JupyterLab's picture pane (the widest: others sit beside words)
        from mtg_rulekit.display.walkthrough.frames import PANES

        widest = max((s.pane for _, _, s in steps if s.pane), default=None)
        assert widest and abs(widest[0] - PANES[0][0]) <= 3 and \
            abs(widest[1] - PANES[0][1]) <= 3, widest
    print(f"95 % rule at {where}: {len(steps) - len(misses)}/{len(steps)} steps")
    assert worse == [], (f"{len(misses)} of {len(steps)} steps miss the 95 % rule, these not "
                         "as RULE_95_MISSES allows:\n" + "\n".join(worse))


def test_a_phone_reads_words_picture_board_under_a_sticky_bar(opened) -> None:
    """At 390x844: no page scrolls sideways and no narration is cut; a walkthrough reads its
    words, then its picture, then its board; its bar (Back, "Step k / n", Next) stays at the
    top of the window while the picture is read; its events table is folded."""
    out = ARTIFACTS / "390x844"
    out.mkdir(parents=True, exist_ok=True)
    wide, order = [], []
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
        if not has:
            continue
        stepper = visit.page.locator(".rk-stepper").first
        stepper.locator(".rk-next").click()
        stepper.locator(".rk-diagram:visible").evaluate(
            "(e) => e.scrollIntoView({block: 'start'})")
        visit.page.wait_for_timeout(100)
        seen = stepper.evaluate("""(r) => {
          const top = (s) => Array.from(r.querySelectorAll(s)).find(
            (e) => e.getClientRects().length).getBoundingClientRect().top;
          const bar = r.querySelector('.rk-controls').getBoundingClientRect();
          const shown = (e) => e.getClientRects().length > 0;
          return {order: top('.rk-narration') < top('.rk-diagram') &&
                    top('.rk-diagram') < top('.rk-board-box'),
                  bar: Math.round(bar.top), barHeight: Math.round(bar.height),
                  controls: Array.from(r.querySelectorAll('.rk-controls button, '
                    + '.rk-controls summary')).filter((e) => shown(e) &&
                    !e.closest('.rk-more-box')).map((e) => e.className),
                  events: Array.from(r.querySelectorAll('.rk-frame details:has(table)'))
                    .filter((d) => !d.classList.contains('rk-tables')).map((d) => d.open)};
        }""")
        if not (seen["order"] and seen["bar"] == 0 and seen["barHeight"] <= 60
                and not any(seen["events"])
                and [c.split()[-1] for c in seen["controls"]] ==
                ["rk-back", "rk-next", "rk-button"]):
            order.append(f"{page.name}: {seen}")
    assert wide == [], wide
    assert order == [], order


def test_a_walkthrough_as_narrow_as_a_phone_shows_the_picture_laid_out_for_it(opened) -> None:
    """A step whose picture is too wide for a phone carries a second picture laid out for a
    phone's pane (`rk-phone`): at 390x844 the page shows it and its legend, and not the
    first; at 1280x720 the first and not it. One picture shows, and the zoom is its."""
    from mtg_rulekit.export.checks import goto_step

    shown_js = """(r) => Array.from(r.querySelectorAll(
        '.rk-frame :is(.rk-diagram, .rk-legend-box)')).filter(
        (e) => e.getClientRects().length > 0).map((e) => e.className)"""

    def first_with_a_phones_picture():
        for visit, has in opened.values():
            _at(visit, has, (390, 844))
            steppers = visit.page.locator(".rk-stepper")
            for i in range(steppers.count() if has else 0):
                for k in range(steppers.nth(i).locator(".rk-controls .rk-steps button").count()):
                    goto_step(steppers.nth(i), k)
                    if steppers.nth(i).locator(".rk-frame .rk-diagram.rk-phone").count():
                        return visit, steppers.nth(i), k
        raise AssertionError("no step ships a phone's picture")

    visit, stepper, k = first_with_a_phones_picture()
    phone = stepper.evaluate(shown_js)
    assert phone == ["rk-legend-box rk-phone", "rk-diagram rk-phone"], phone
    widths = stepper.evaluate("(r) => ['.rk-phone', ':not(.rk-phone)'].map((s) => "
                              "r.querySelector(`.rk-diagram${s} > svg`).style.width)")
    assert widths[0].endswith("px") and widths[1] == "", widths  # the one shown is fitted
    _at(visit, True, (1280, 720))
    goto_step(stepper, k)
    assert stepper.evaluate(shown_js) == ["rk-legend-box", "rk-diagram"]


def test_axe_finds_no_critical_serious_or_moderate_violation(opened) -> None:
    """... (moderate too: each walkthrough's board a landmark named after its walkthrough,
    headings in order) and every diagram is linked to its text description
    (aria-describedby)."""
    from mtg_rulekit.export.checks import SERIOUS, axe, goto_step, undescribed

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
    from mtg_rulekit.export.checks import diagram_descriptions

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
