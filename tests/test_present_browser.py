"""Present, navigation and links, in Debian's Chromium, on the site built once per
session (`lesson_site`): Present is a slide (narration at least 32 px at 1280x720, only
"Step k / n" of the controls, a key hint, no notes), its end card and the move to the next
walkthrough, Escape back to the same step in the page; the step in the address (`#slug/k`)
from file:// and over HTTP (a reload lands there); "Copy a link to this step" in a kernel-like
host; the keyboard path (every walkthrough and sandbox at most 10 Tabs from the top, no prose
in the Tab order); targets at least 24 px; axe-core on the page and in Present. Pages are opened
once and resized with `set_viewport_size`. Screenshots: test-artifacts/present/."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.lesson_shape import number

pytestmark = [pytest.mark.browser, pytest.mark.notebook, pytest.mark.xdist_group("present")]

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts" / "present"
LESSON = "07_token_copies.html"  # three walkthroughs and a sandbox
SIZES = [(1280, 720), (1920, 1080), (390, 844)]
STATE = """() => Array.from(document.querySelectorAll('.rk-stepper'), (s) => ({
  presenting: s.classList.contains('rk-presenting'),
  step: (s.querySelector('.rk-frame') || {dataset: {}}).dataset.step,
  end: !!s.querySelector('.rk-endcard'),
  slug: s.dataset.rkSlug}))"""


def _open(browser, site: Path, name: str = LESSON, size=(1280, 720), server=None, hash=""):
    from mtg_rulekit.export.browser import open_page

    visit = open_page(browser, site / name, site, viewport=size, server=server)
    if hash:
        visit.page.goto(visit.url + hash)
        visit.page.wait_for_selector(".rk-stepper svg")
    return visit


@pytest.fixture(scope="module")
def lesson(lesson_site, browser):
    site, _ = lesson_site
    visit = _open(browser, site)
    yield visit
    visit.page.close()


def _reset(page, size=(1280, 720)) -> None:
    from mtg_rulekit.export.checks import goto_step

    # no walkthrough left presenting by a test before (its slide would cover the page)
    page.evaluate("""async () => {
      for (const s of document.querySelectorAll('.rk-stepper.rk-presenting')) {
        s.dispatchEvent(new KeyboardEvent('keydown', {key: 'Escape', bubbles: true}));
      }
      if (document.fullscreenElement) await document.exitFullscreen().catch(() => {});
    }""")
    page.wait_for_function("() => !document.fullscreenElement && "
                           "!document.querySelector('.rk-stepper.rk-presenting')", timeout=5000)
    page.set_viewport_size({"width": size[0], "height": size[1]})
    for i in range(page.locator(".rk-stepper").count()):
        goto_step(page.locator(".rk-stepper").nth(i), 0)
    page.evaluate("() => window.scrollTo(0, 0)")


def _present_at(page, stepper, k: int) -> None:
    """Present walkthrough `stepper` (its slide full screen) at step k."""
    from mtg_rulekit.export.checks import goto_step

    stepper.locator(".rk-present").click()
    page.wait_for_function("() => document.fullscreenElement", timeout=5000)
    goto_step(stepper, k)
    page.wait_for_timeout(300)


def test_present_is_a_slide_then_an_end_card_then_the_next_walkthrough(lesson) -> None:
    from mtg_rulekit.export.checks import axe

    page = lesson.page
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    _reset(page)
    first = page.locator(".rk-stepper").first
    titles = [json.loads(t)["title"] for t in page.evaluate("""() => Array.from(
        document.querySelectorAll(".rk-view[data-rk-view='stepper'] > script"),
        (s) => s.textContent)""")]
    first.locator(".rk-next").click()
    first.locator(".rk-present").click()
    page.wait_for_timeout(300)
    slide = first.evaluate("""(root) => {
      const shown = (e) => e.getClientRects().length > 0;
      const px = (e) => parseFloat(getComputedStyle(e).fontSize);
      const narr = root.querySelector('.rk-narration');
      const pane = root.querySelector('.rk-diagram');
      return {narration: px(narr), status: root.querySelector('.rk-status').textContent,
        controls: Array.from(root.querySelectorAll('.rk-controls button, .rk-controls input,'
          + ' .rk-controls select, .rk-controls summary')).filter(shown).length,
        statusShown: shown(root.querySelector('.rk-status')),
        hint: shown(root.querySelector('.rk-hint')) ? root.querySelector('.rk-hint').textContent : '',
        tables: Array.from(root.querySelectorAll('.rk-table, .rk-describe, .rk-notes, .rk-ok'))
          .filter(shown).length,
        pane: pane.getBoundingClientRect().width / window.innerWidth,
        paneTop: pane.getBoundingClientRect().top,
        hintHeight: root.querySelector('.rk-hint').getBoundingClientRect().height,
        head: ['.rk-status', '.rk-title-text', '.rk-narration'].map((s) =>
          root.querySelector(s).getBoundingClientRect()).map((r) => [Math.round(r.top),
          r.right <= pane.getBoundingClientRect().left]),
        name: root.querySelector('.rk-title-text').textContent,
        asks: !!root.querySelector('.rk-frame .rk-question'),
        box: root.getBoundingClientRect().toJSON()};
    }""")
    # (a slide that asks a question: the question is its point, the narration 24 px or more)
    assert slide["narration"] >= (24 if slide["asks"] else 32), slide
    assert slide["statusShown"] and slide["status"] == f"Step 1 / {first.locator('.rk-steps button').count() - 1}"
    assert slide["controls"] == 0, "a control other than 'Step k / n' shows on the slide"
    assert "Esc" in slide["hint"] and "next" in slide["hint"]
    assert slide["tables"] == 0, "tables, checks, notes or 'Describe' on the slide"
    assert slide["pane"] >= 0.55, slide
    assert slide["box"]["width"] >= 1279 and slide["box"]["height"] >= 719
    # "Step k / n" and the walkthrough's name head the words' column: the diagram's pane
    # has the slide's whole height, from its top padding down (no row of the slide's own)
    tops = [top for top, _left in slide["head"]]
    assert tops == sorted(tops) and all(left for _top, left in slide["head"]), slide
    assert slide["name"] == f"Walkthrough: {titles[0]}" and slide["paneTop"] <= 24, slide
    # the key hint is one line, and goes once the focus moves into the slide (it never
    # covers what has the focus)
    assert slide["hintHeight"] < 50, slide
    page.keyboard.press("Tab")
    assert first.evaluate("(r) => document.activeElement !== r && "
                          "!r.querySelector('.rk-hint')"), "the hint outlived a Tab"
    first.evaluate("(r) => r.focus()")
    assert axe(page) == {}, "axe-core in Present"
    page.screenshot(path=str(ARTIFACTS / "present-1280x720.png"))
    # the last step, then Right: the end card, naming what comes next
    page.keyboard.press("End")
    page.keyboard.press("ArrowRight")
    page.wait_for_timeout(200)
    card = first.locator(".rk-endcard")
    assert card.is_visible()
    text = card.inner_text()
    assert f"End of {titles[0]}" in text and f"Next: {titles[1]}" in text, text
    assert "It showed:" in text
    head = first.evaluate("(r) => [r.querySelector('.rk-controls .rk-status').textContent, "
                          "r.querySelector('.rk-title').innerText]")
    assert head == ["End", f"Walkthrough: {titles[0]}"], head  # the card's head, as before
    page.screenshot(path=str(ARTIFACTS / "end-card-1280x720.png"))
    # Left goes back to the last step; Right twice: the next walkthrough, presented
    page.keyboard.press("ArrowLeft")
    page.wait_for_timeout(100)
    last = first.locator(".rk-steps button").count() - 1
    now = page.evaluate(STATE)[0]
    assert now["step"] == str(last) and not now["end"], now
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.querySelectorAll('.rk-stepper')[1]"
                           ".classList.contains('rk-presenting')", timeout=5000)
    state = page.evaluate(STATE)
    assert [s["presenting"] for s in state] == [False, True, False], state
    assert state[1]["step"] == "0"
    # (a key pressed while the browser is still moving full screen from one walkthrough to
    # the next may be lost under load: the teacher's next key comes once it has moved)
    page.wait_for_function("() => document.fullscreenElement === "
                           "document.querySelectorAll('.rk-stepper')[1]", timeout=5000)
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.querySelectorAll('.rk-stepper')[1]"
                           ".querySelector('.rk-frame').dataset.step === '1'", timeout=5000)
    # Escape: back in the page, at the same step of that walkthrough, in view and focused
    page.keyboard.press("Escape")
    page.wait_for_timeout(400)
    state = page.evaluate(STATE)
    assert not any(s["presenting"] for s in state) and state[1]["step"] == "1"
    second = page.locator(".rk-stepper").nth(1)
    top = second.bounding_box()["y"]
    assert -2 <= top <= 100, f"the walkthrough is not in view after Escape: top {top}"
    assert second.evaluate("(r) => r.contains(document.activeElement)")
    assert page.evaluate("() => location.hash") == f"#{state[1]['slug']}/1"
    # ... with "Step k / n" back in its control row, between Back and Next
    assert second.evaluate("(r) => [r.querySelector('.rk-status').previousElementSibling"
                           ".className, r.querySelector('.rk-status').textContent]") == \
        ["rk-button rk-back", "Step 1 / " + str(second.locator(".rk-steps button").count() - 1)]
    # the last walkthrough's end card: no next one, and Right stays there
    final = page.locator(".rk-stepper").last
    final.locator(".rk-present").click()
    page.keyboard.press("End")
    page.keyboard.press("ArrowRight")
    page.wait_for_timeout(150)
    assert "last walkthrough on this page" in final.locator(".rk-endcard").inner_text()
    page.keyboard.press("ArrowRight")
    page.wait_for_timeout(150)
    assert final.locator(".rk-endcard").is_visible()
    page.keyboard.press("Escape")
    page.wait_for_timeout(300)
    assert not any(s["presenting"] for s in page.evaluate(STATE))


def test_present_keys_board_strip_blank_screen_and_left_at_the_set_up(lesson) -> None:
    """In Present: C shows the board as a strip along the foot of the slide (C again hides
    it); B or . blanks the screen, and any key brings the slide back doing nothing else; Left
    at the set-up presents the walkthrough before, at its last step."""
    page = lesson.page
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    _reset(page)
    first, second = page.locator(".rk-stepper").nth(0), page.locator(".rk-stepper").nth(1)
    _present_at(page, second, 1)
    strip = second.locator(".rk-text > .rk-board-box")
    assert not strip.is_visible()
    page.keyboard.press("c")
    page.wait_for_timeout(150)
    assert strip.is_visible()
    box = strip.bounding_box()
    assert box["width"] >= 1200 and box["y"] + box["height"] <= 720 and box["y"] >= 300, box
    assert "The board is shown" in second.locator(".rk-announce").inner_text()
    page.screenshot(path=str(ARTIFACTS / "present-board-strip-1280x720.png"))
    page.keyboard.press("C")
    page.wait_for_timeout(150)
    assert not strip.is_visible()
    blank = "(r) => [r.classList.contains('rk-blank'), getComputedStyle(r, '::after')" \
            ".backgroundColor, r.querySelector('.rk-frame').dataset.step]"
    page.keyboard.press("b")
    page.wait_for_timeout(150)
    assert second.evaluate(blank) == [True, "rgb(0, 0, 0)", "1"]
    page.screenshot(path=str(ARTIFACTS / "present-blank-1280x720.png"))
    page.keyboard.press("ArrowRight")  # any key: the slide back, not the next step
    page.wait_for_timeout(150)
    assert second.evaluate(blank)[0::2] == [False, "1"]
    page.keyboard.press(".")
    page.wait_for_timeout(150)
    assert second.evaluate(blank)[0] is True
    page.keyboard.press("Escape")
    page.wait_for_timeout(300)
    assert not second.evaluate("(r) => r.classList.contains('rk-blank') || "
                               "r.classList.contains('rk-presenting')")
    _reset(page)
    _present_at(page, second, 0)
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("() => document.querySelectorAll('.rk-stepper')[0]"
                           ".classList.contains('rk-presenting')", timeout=5000)
    state = page.evaluate(STATE)
    last = first.locator(".rk-steps button").count() - 1
    assert [s["presenting"] for s in state] == [True, False, False], state
    assert state[0]["step"] == str(last), state
    page.keyboard.press("Escape")
    page.wait_for_timeout(300)
    _reset(page)


def test_present_at_once_after_leaving_it_stays_presenting(lesson) -> None:
    """Escape, then Present on the next walkthrough before the exit from full screen has
    finished (a quick teacher; a loaded machine): that exit must not undo the new request,
    which left the second walkthrough out of Present, its diagram at the page's zoom."""
    page = lesson.page
    _reset(page)
    page.locator(".rk-stepper").first.locator(".rk-present").click()
    page.wait_for_function("() => document.fullscreenElement", timeout=5000)
    page.evaluate("""() => {
      const [one, two] = document.querySelectorAll('.rk-stepper');
      one.dispatchEvent(new KeyboardEvent('keydown', {key: 'Escape', bubbles: true}));
      two.querySelector('.rk-present').click();  // in the same task: the exit is pending
    }""")
    page.wait_for_function("() => document.fullscreenElement === "
                           "document.querySelectorAll('.rk-stepper')[1]", timeout=5000)
    page.wait_for_timeout(300)
    assert [s["presenting"] for s in page.evaluate(STATE)] == [False, True, False]
    page.keyboard.press("Escape")
    page.wait_for_function("() => !document.fullscreenElement", timeout=5000)
    assert not any(s["presenting"] for s in page.evaluate(STATE))


def test_screenshots_and_type_at_each_size(lesson) -> None:
    from mtg_rulekit.export.checks import axe, goto_step

    page = lesson.page
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for w, h in SIZES:
        _reset(page, (w, h))
        first = page.locator(".rk-stepper").first
        first.evaluate("(r) => r.scrollIntoView({block: 'start'})")
        goto_step(first, 2)  # (its step buttons: not on a phone's bar)
        page.wait_for_timeout(200)
        # one heading per walkthrough: the page's; the module draws none
        assert first.locator("h1, h2, h3, h4:not(details h4)").count() == 0
        assert not first.locator(".rk-title").is_visible()
        page.screenshot(path=str(ARTIFACTS / f"page-{w}x{h}.png"))
        if w < 600:  # a phone's bar has no Present (nor the step buttons, nor Play)
            assert not first.locator(".rk-present").is_visible()
            continue
        first.locator(".rk-present").click()
        page.wait_for_timeout(300)
        px = first.evaluate("(r) => parseFloat(getComputedStyle("
                            "r.querySelector('.rk-narration')).fontSize)")
        assert px >= 32, (w, h, px)
        assert not page.evaluate("() => document.documentElement.scrollWidth > "
                                 "document.documentElement.clientWidth + 1"), (w, h)
        page.screenshot(path=str(ARTIFACTS / f"present-{w}x{h}.png"))
        page.keyboard.press("Escape")
        page.wait_for_timeout(300)
    _reset(page)
    assert axe(page) == {}
    # reduced motion: the hint does not fade (it goes at once), nothing scrolls smoothly
    page.emulate_media(reduced_motion="reduce")
    try:
        first = page.locator(".rk-stepper").first
        first.locator(".rk-present").click()
        page.wait_for_timeout(200)
        assert first.evaluate("(r) => getComputedStyle(r.querySelector('.rk-hint'))"
                              ".animationName") == "rk-hint-gone"
        page.keyboard.press("Escape")
        page.wait_for_timeout(300)
        assert page.evaluate("() => Array.from(document.querySelectorAll('.rk-stepper, "
                             ".rk-stepper *, html')).every((e) => "
                             "getComputedStyle(e).scrollBehavior !== 'smooth')")
    finally:
        page.emulate_media(reduced_motion="no-preference")


@pytest.mark.parametrize("size", [(1280, 720), (960, 720)])
def test_the_control_row_is_the_same_in_every_walkthrough(lesson_site, browser, size) -> None:
    """Back, "Step k / n", Next, the step buttons, Play, Present, More: in that order in every
    walkthrough, at the head of the words' column and no wider than it ("Step k / n" left to
    the words' own heading), so the diagram's pane has the walkthrough's whole height: at
    1280x720, and in a walkthrough 882 px wide (a window 960 px wide; JupyterLab beside its
    file browser gives about 910)."""
    site, _ = lesson_site
    rows = set()
    for path in sorted(p for p in site.glob("*.html") if number(p) is not None):
        if "rk-view" not in path.read_text("utf-8"):
            continue
        visit = _open(browser, site, path.name, size=size)
        try:
            got = visit.page.evaluate("""() => Array.from(document.querySelectorAll(
              '.rk-stepper .rk-controls'), (c) => {
                const box = (e) => e.getBoundingClientRect();
                const root = c.closest('.rk-stepper');
                const text = root.querySelector('.rk-frame > .rk-text');
                const pane = root.querySelector('.rk-diagram');
                const shown = Array.from(c.querySelectorAll('button, summary'))
                  .filter((e) => e.getClientRects().length && !e.closest('.rk-more-box'));
                return {order: Array.from(c.querySelectorAll('.rk-back, .rk-status, .rk-next,'
                    + ' .rk-steps, .rk-play, .rk-present, .rk-more'),
                  (e) => e.className.split(' ').filter((x) => x.startsWith('rk-') &&
                    x !== 'rk-button').join('.')).join(' '),
                  status: c.querySelector('.rk-status').getClientRects().length > 0,
                  inColumn: shown.every((e) => box(e).left >= box(text).left - 1 &&
                    box(e).right <= box(text).right + 1),
                  above: Math.round(box(c).bottom - box(text).top),
                  paneTop: Math.round(box(pane).top - box(root).top)};
              })""")
        finally:
            visit.page.close()
        for g in got:
            assert not g["status"], (path.name, g)
            assert g["inColumn"] and g["above"] <= 1, (path.name, g)
            assert g["paneTop"] <= 10, (path.name, g)  # the pane from the top
        rows |= {g["order"] for g in got}
    assert rows == {"rk-back rk-status rk-next rk-steps rk-play rk-present rk-more"}, rows


@pytest.mark.parametrize("how", ["file", "http"])
def test_the_step_is_in_the_address(lesson_site, browser, how) -> None:
    from mtg_rulekit.export.browser import serve

    site, _ = lesson_site

    def check(server=None) -> None:
        visit = _open(browser, site, server=server)
        page = visit.page
        try:
            slugs = [s["slug"] for s in page.evaluate(STATE)]
            page.goto(visit.url + f"#{slugs[2]}/2")
            page.reload()  # a shared link, or a clicker's reload key
            page.wait_for_function(
                "() => (document.querySelectorAll('.rk-stepper')[2] || {}).querySelector"
                "&& document.querySelectorAll('.rk-stepper')[2].querySelector('.rk-frame')")
            page.wait_for_timeout(300)
            third = page.locator(".rk-stepper").nth(2)
            assert page.evaluate(STATE)[2]["step"] == "2"
            assert third.evaluate("(r) => r.contains(document.activeElement)"), \
                "the linked walkthrough's controls are not focused"
            top = third.bounding_box()["y"]
            assert -2 <= top <= 100, top
            # stepping keeps the address up to date, without new history entries
            length = page.evaluate("() => history.length")
            third.locator(".rk-next").click()
            third.locator(".rk-next").click()
            assert page.evaluate("() => location.hash") == f"#{slugs[2]}/4"
            assert page.evaluate("() => history.length") == length
            page.reload()
            page.wait_for_selector(".rk-stepper >> nth=2")
            page.wait_for_timeout(300)
            assert page.evaluate(STATE)[2]["step"] == "4"
            # the page's contents list: a link to each walkthrough, followed in the page
            page.locator(f".rk-contents a[href='#{slugs[1]}']").click()
            page.wait_for_timeout(300)
            assert page.locator(".rk-stepper").nth(1).evaluate(
                "(r) => r.contains(document.activeElement)")
            # "Copy a link to this step" gives the page's own address
            first = page.locator(".rk-stepper").first
            first.locator(".rk-more summary").click()
            first.locator(".rk-copy-link").click()
            assert first.locator(".rk-link").input_value() == \
                visit.url.split("#")[0] + f"#{slugs[0]}/0"
        finally:
            page.close()

    if how == "http":
        with serve(site) as url:
            check(url)
    else:
        check()


KERNEL_LIKE = """<!doctype html><html lang="en"><head><title>t</title><style>{css}</style></head>
<body><main><div id="out"></div></main><script type="module">{module}</script>
<script type="module">
const traits = JSON.parse(document.getElementById("traits").textContent);
const handlers = {{}};
const model = {{get: (k) => traits[k], set: (k, v) => {{ traits[k] = v; }}, save_changes() {{}},
  on() {{}}, off() {{}}, send() {{}}, widget_manager: {{}}}};  // no rk_page: a kernel host
globalThis.rulekit.views.stepper.render({{model, el: document.getElementById("out")}});
</script><script type="application/json" id="traits">{traits}</script></body></html>"""


@pytest.mark.parametrize("base", ["https://school.example/rulekit/08_exert.html", ""])
def test_copy_a_link_in_a_kernel_host(browser, base) -> None:
    """What the module gives in JupyterLab: the exported page's address from `link_base` (the
    kernel's `site_page()`), else from the notebook's own address (`.../08_exert.ipynb`)."""
    from mtg_rulekit.display.front import css_text, page_module
    from mtg_rulekit.display.widgets import Stepper
    from mtg_rulekit.export.lesson import script_json

    stepper = Stepper("r14_exert_borrowed_creature")
    stepper.link_base = base
    traits = {k: getattr(stepper, k) for k in ("frames", "svg", "uid", "title", "step", "slug",
                                               "about", "link_base")}
    html = KERNEL_LIKE.format(css=css_text("stepper"), module=page_module("stepper"),
                              traits=script_json(json.dumps(traits)))
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    try:
        url = "http://lab.test/lab/tree/notebooks/08_exert.ipynb"
        page.route("**/*", lambda r: r.fulfill(body=html, content_type="text/html")
                   if r.request.url == url else r.abort())
        page.goto(url)
        root = page.locator(".rk-stepper")
        root.locator(".rk-steps button").nth(3).click()
        root.locator(".rk-more summary").click()
        root.locator(".rk-copy-link").click()
        got = root.locator(".rk-link").input_value()
        assert got == f"{base or '08_exert.html'}#{stepper.slug}/3"
        if base:
            assert got == stepper.step_link(3), "the module and the kernel disagree"
        assert page.evaluate("() => location.hash") == "", "the notebook's address changed"
    finally:
        page.close()


def test_every_view_is_at_most_10_tabs_from_the_top(lesson_site, browser) -> None:
    """Tab from the top of each lesson page to its contents link, Enter, one more Tab: the
    focus is in that walkthrough's or sandbox's controls (or on the first question), in at
    most 10 Tabs; no paragraph or
    heading is a Tab stop on the way. (One load a page: the Tab order from the top is walked
    once, then each link is focused, followed and left by Tab.)"""
    site, _ = lesson_site
    worst = {}
    for path in sorted(p for p in site.glob("*.html") if number(p) is not None):
        if "rk-contents" not in path.read_text("utf-8"):
            continue
        visit = _open(browser, site, path.name)
        page = visit.page
        # the sandbox's engine would start loading when a link brings it into view (seconds
        # of the page's thread per page): not what this test is about
        page.route("**/_static/sandbox/**", lambda r: r.abort())
        try:
            assert page.locator(".jp-Cell-inputWrapper[tabindex], "
                                ".jp-OutputArea-output[tabindex]").count() == 0
            targets = page.evaluate("() => Array.from(document.querySelectorAll("
                                    "'.rk-contents a'), (a) => a.getAttribute('href'))")
            assert targets, path.name
            # one walk from the top, as loaded: where each contents link is in the Tab order
            page.wait_for_selector(".rk-stepper svg")
            page.evaluate("() => { document.activeElement && document.activeElement.blur();"
                          " window.scrollTo(0, 0); }")
            at: dict[str, int] = {}
            for tabs in range(1, 10):
                page.keyboard.press("Tab")
                tag, href = page.evaluate("() => [document.activeElement.tagName, "
                                          "document.activeElement.getAttribute('href')]")
                assert tag in ("A", "BUTTON", "INPUT", "SELECT", "SUMMARY"), (path.name, tag)
                at.setdefault(href, tabs)
            for href in targets:
                assert href in at, (path.name, href, "not within 9 Tabs", at)
                # that link, Enter, one more Tab: the focus is in the view it names
                page.evaluate("(h) => document.querySelector("
                              "`.rk-contents a[href='${h}']`).focus()", href)
                page.keyboard.press("Enter")
                page.wait_for_timeout(150)
                page.keyboard.press("Tab")
                tabs = at[href] + 1
                # (the questions' link is to their heading: the next stop, the first one)
                inside = page.evaluate("""(id) => { const t = document.getElementById(id);
                  const a = document.activeElement;
                  return !!a.closest('#' + CSS.escape(id)) || (/^H[1-6]$/.test(t.tagName) &&
                    a.tagName === 'SUMMARY' && !!(t.compareDocumentPosition(a) &
                    Node.DOCUMENT_POSITION_FOLLOWING)); }""", href[1:])
                assert inside, (path.name, href, page.evaluate(
                    "() => document.activeElement.outerHTML.slice(0, 120)"))
                assert tabs <= 10, (path.name, href, tabs)
                worst[f"{path.stem}{href}"] = tabs
        finally:
            page.close()
    assert max(worst.values()) <= 10, worst


def test_targets_are_at_least_24_px_and_focus_rings_are_not_clipped(lesson) -> None:
    page = lesson.page
    _reset(page)
    first = page.locator(".rk-stepper").first
    first.locator(".rk-more summary").click()
    small = page.evaluate("""() => Array.from(document.querySelectorAll(
        '.rk-stepper .rk-controls button, .rk-stepper .rk-controls summary,'
        + ' .rk-stepper .rk-controls input, .rk-stepper .rk-controls select, .rk-contents a,'
        + ' .rk-bar a'))
      .filter((e) => e.getClientRects().length && !e.hidden)
      .map((e) => [e.className || e.tagName, e.getBoundingClientRect()])
      .filter(([, r]) => r.width < 24 || r.height < 24)
      .map(([n, r]) => `${n}: ${Math.round(r.width)}x${Math.round(r.height)}`)""")
    assert small == []
    # each control's 3 px ring (2 px off it) is inside every box that clips it
    clipped = page.evaluate("""() => {
      const out = [];
      for (const e of document.querySelectorAll('.rk-stepper .rk-controls button,'
          + ' .rk-stepper .rk-controls summary')) {
        if (!e.getClientRects().length) continue;
        const r = e.getBoundingClientRect();
        for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
          const s = getComputedStyle(p);
          if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
          const b = p.getBoundingClientRect();
          if (r.left - 5 < b.left || r.right + 5 > b.right || r.top - 5 < b.top ||
              r.bottom + 5 > b.bottom) out.push(`${e.className} in ${p.className}`);
        }
      }
      return out;
    }""")
    assert clipped == []
    first.locator(".rk-more summary").click()


def test_every_slide_shows_its_whole_text(lesson) -> None:
    """Lesson 7 in Present at 1280x720, every step of every walkthrough: the narration is all
    on the slide; at least 32 px, but for the longer words of the set-up's description
    (beside half the slide) and of a step with its question (28 px: never under 24)."""
    from mtg_rulekit.export.checks import FIT_JS

    page = lesson.page
    _reset(page)
    small, off = [], []
    for i in range(page.locator(".rk-stepper").count()):
        stepper = page.locator(".rk-stepper").nth(i)
        stepper.locator(".rk-present").click()
        page.keyboard.press("Home")
        for k in range(stepper.locator(".rk-steps button").count()):
            page.wait_for_timeout(80)
            got = stepper.evaluate(FIT_JS)
            px = stepper.evaluate("(r) => parseFloat(getComputedStyle("
                                  "r.querySelector('.rk-narration')).fontSize)")
            if not got["narration"]:
                off.append((i, k, got["why"]))
            long = k == 0 or stepper.locator(".rk-question").count() > 0
            if px < 24 or (px < 32 and not long):
                small.append((i, k, px))
            page.keyboard.press("ArrowRight")
        page.keyboard.press("Escape")
        page.wait_for_timeout(300)
    assert off == [] and small == [], (off, small)


def test_a_slides_picture_is_the_steps_one_picture_and_its_boxes_answer(lesson_site,
                                                                        browser) -> None:
    """On a slide the step's one picture is zoomed so its text is at least 18 px (the page
    draws the same SVG at 16 px and more): lesson 2's "she taps Calciform Pools" at
    1280x720. The boxes of the picture still answer "why" and walk by arrow keys; the legend
    sits at the foot of the words."""
    site, _ = lesson_site
    visit = _open(browser, site, "02_mana_abilities_and_could_produce.html")
    page = visit.page
    scale = "(r) => r.querySelector('.rk-diagram > svg').getScreenCTM().a"
    try:
        stepper = page.locator(".rk-stepper").first
        from mtg_rulekit.export.checks import goto_step

        goto_step(stepper, 2)
        page.wait_for_timeout(200)
        svg = stepper.evaluate("(r) => r.querySelector('.rk-diagram > svg').outerHTML.length")
        assert stepper.evaluate(scale) >= 1.0 - 1e-3
        _present_at(page, stepper, 2)
        assert stepper.evaluate("(r) => r.querySelector('.rk-diagram > svg').outerHTML"
                                ".length") == svg  # the same picture
        assert stepper.evaluate(scale) >= 18 / 16 - 1e-3
        legend = stepper.locator(".rk-legend-box:not(.rk-phone)").bounding_box()
        narration = stepper.locator(".rk-narration").bounding_box()
        assert legend["y"] > narration["y"] + narration["height"] - 1
        assert legend["x"] + legend["width"] <= \
            stepper.locator(".rk-diagram:not(.rk-phone)").bounding_box()["x"] + 1
        page.screenshot(path=str(ARTIFACTS / "slide-picture-present-1280.png"))
        box = stepper.locator(".rk-diagram:not(.rk-phone) > svg .rk-box").first
        said = box.get_attribute("aria-label")
        box.click()
        assert stepper.locator(".rk-why").count() == 1
        page.keyboard.press("Escape")  # the panel closes, the focus back on its box
        assert page.evaluate("() => document.activeElement.getAttribute('aria-label')") == said
        page.keyboard.press("ArrowRight")  # along its arrow
        assert page.evaluate("""() => document.activeElement.classList.contains('rk-box') &&
          !!document.activeElement.closest('.rk-diagram > svg')""")
        assert page.evaluate("() => document.activeElement.getAttribute('aria-label')") != said
        page.keyboard.press("Escape")  # leaves Present
        page.wait_for_function("() => !document.fullscreenElement", timeout=5000)
    finally:
        page.close()


def test_a_slide_shows_a_whole_question_and_its_step_keeps_two_thirds(
        lesson_site, browser) -> None:
    """Present at 1280x720, lesson 1's second walkthrough at step 2 (the tapped Pili-Pala
    pays {Q}), the question on step 3 under its narration: its choices (reasons, a line each)
    and Check are all on the slide, the narration at least 24 px, and the step's new part
    fits the diagram's two thirds."""
    from mtg_rulekit.export.checks import FIT_JS, goto_step, step_views

    site, _ = lesson_site
    visit = _open(browser, site, "01_tapping_and_summoning_sickness.html")
    page = visit.page
    try:
        stepper = page.locator(".rk-stepper").nth(1)
        _present_at(page, stepper, 2)
        got = stepper.evaluate("""(r) => {
          const items = Array.from(r.querySelectorAll('.rk-question .rk-q-choice, .rk-check'));
          const text = r.querySelector('.rk-text').getBoundingClientRect();
          return {items: items.length, px: parseFloat(getComputedStyle(
              r.querySelector('.rk-narration')).fontSize),
            inside: items.every((e) => { const b = e.getBoundingClientRect();
              return b.bottom <= Math.min(window.innerHeight, text.bottom) + 1 && b.top >= 0; })};
        }""")
        assert got["items"] == 4 and got["inside"], got
        assert got["px"] >= 24, got  # (the question's slide: its narration at least 24 px)
        assert stepper.evaluate(FIT_JS)["narration"]
        goto_step(stepper, 0)
        shares = {s.step: s for s in step_views(stepper)}
        assert shares[2].ok(min_px=18.0), shares[2]
        page.keyboard.press("Escape")
        page.wait_for_function("() => !document.fullscreenElement", timeout=5000)
    finally:
        page.close()
