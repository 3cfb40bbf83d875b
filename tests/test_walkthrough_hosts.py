"""A walkthrough in the hosts around it, in Debian's Chromium: a host that draws its widgets
in a shadow DOM (marimo's anywidget does) and the exported page without a sandbox.

- in a shadow root, Present goes full screen and Escape leaves it (the module asks the
  walkthrough's own root node for its full-screen element: the document's is the host), and
  leaving full screen the browser's way leaves Present;
- the board of a walkthrough's frame has the board's style sheet wherever it shows: in the
  shadow root (the widget's own `_css`, all marimo gives it) and on a lesson page with no
  sandbox (lesson 0);
- the layout follows the walkthrough's own width, not only the window's: in a column as
  narrow as marimo's (710 px) on a wide window it is one column, the words over the picture,
  nothing wider than the column, the step's events folded; in a wider column, two, the
  events open.
"""

from __future__ import annotations

import json
import shutil

import pytest

from tests.helpers import unavailable

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("walkthrough-hosts")]

# a page that renders the stepper module inside a shadow root, as marimo does: the widget's
# style sheet inside it, nothing of the page's
SHADOW_PAGE = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Shadow</title>
</head><body><main><div id="host"></div></main>
<script type="module">{module}</script>
<script type="module">
const traits = JSON.parse(document.getElementById("traits").textContent);
const model = {{get: (k) => traits[k], set: (k, v) => {{ traits[k] = v; }}, save_changes() {{}},
  on() {{}}, off() {{}}, send() {{}}, widget_manager: {{}}}};
const shadow = document.getElementById("host").attachShadow({{mode: "open"}});
const style = document.createElement("style");
style.textContent = JSON.parse(document.getElementById("css").textContent);
const out = document.createElement("div");
shadow.append(style, out);
globalThis.rulekit.views.stepper.render({{model, el: out}});
</script><script type="application/json" id="traits">{traits}</script>
<script type="application/json" id="css">{css}</script></body></html>"""

BOARD_STYLED = """(root) => {
  const board = root.querySelector('.rk-board');
  const card = board && board.querySelector('.rk-card');
  return !!card && getComputedStyle(board).borderTopLeftRadius === '6px' &&
    getComputedStyle(card).display !== 'inline' && card.getBoundingClientRect().width < 200;
}"""


@pytest.fixture()
def shadow_page(browser, tmp_path):
    if shutil.which("dot") is None:
        unavailable("Graphviz's dot is not installed (sudo apt-get install graphviz)")
    from mtg_rulekit.display.front import css_text, page_module
    from mtg_rulekit.display.widgets import Stepper
    from mtg_rulekit.export.lesson import script_json

    stepper = Stepper("r14_exert_borrowed_creature")
    traits = {k: getattr(stepper, k) for k in ("frames", "svg", "uid", "title", "step", "slug",
                                               "about", "board_parts", "legends")}
    path = tmp_path / "shadow.html"
    path.write_text(SHADOW_PAGE.format(module=page_module("stepper"),
                                       traits=script_json(json.dumps(traits)),
                                       css=script_json(json.dumps(css_text("stepper")))),
                    "utf-8")
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(path.as_uri())
    page.locator("#host .rk-stepper").wait_for()  # (Playwright's locators pierce it)
    yield page
    assert errors == []
    page.close()


def test_present_in_a_shadow_root_enters_and_leaves_full_screen(shadow_page) -> None:
    page = shadow_page
    stepper = page.locator("#host .rk-stepper")
    state = """() => {
      const shadow = document.getElementById('host').shadowRoot;
      const root = shadow.querySelector('.rk-stepper');
      return {presenting: root.classList.contains('rk-presenting'),
              document: document.fullscreenElement ? document.fullscreenElement.id : null,
              shadow: shadow.fullscreenElement === root};
    }"""
    stepper.locator(".rk-present").click()
    page.wait_for_function("() => !!document.fullscreenElement", timeout=5000)
    assert page.evaluate(state) == {"presenting": True, "document": "host", "shadow": True}
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Escape")  # the walkthrough's key: it leaves full screen too
    page.wait_for_function("() => !document.fullscreenElement", timeout=5000)
    assert page.evaluate(state) == {"presenting": False, "document": None, "shadow": False}
    # and leaving full screen the browser's way leaves Present, once the slide was shown (a
    # reader can't leave sooner: its "fullscreenchange" comes with the next frame, after
    # `document.fullscreenElement` is set; an exit before it looks like another's)
    stepper.locator(".rk-present").click()
    page.wait_for_function("() => !!document.fullscreenElement", timeout=5000)
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => "
                  "requestAnimationFrame(done)))")
    page.evaluate("() => document.exitFullscreen()")
    page.wait_for_function("() => !document.fullscreenElement", timeout=5000)
    page.wait_for_timeout(200)
    assert page.evaluate(state)["presenting"] is False


LAYOUT = """(root) => {
  const layout = root.querySelector('.rk-layout'), text = root.querySelector('.rk-narration');
  const pane = root.querySelector('.rk-diagram'), w = root.getBoundingClientRect();
  const t = text.getBoundingClientRect(), p = pane.getBoundingClientRect();
  const tools = Array.from(root.querySelectorAll('.rk-figure-tools .rk-button'))
    .map((b) => b.getBoundingClientRect());
  return {grid: getComputedStyle(layout).display === 'grid', stacked: p.top >= t.top + 10 &&
          Math.abs(p.left - t.left) < 20, inside: p.right <= w.right + 1 &&
          root.scrollWidth <= root.clientWidth + 1 && tools.length > 0 &&
          tools.every((b) => b.left >= w.left - 1 && b.right <= w.right + 1),
          tools: tools.map((b) => [Math.round(b.left - w.left), Math.round(b.right - w.left)]),
          words: Math.round(t.right - w.left),
          events: Array.from(root.querySelectorAll('.rk-frame details'))
            .filter((d) => d.querySelector(':scope > summary > h4')).map((d) => d.open)};
}"""


# marimo's medium column; JupyterLab's notebook beside its file browser at 1280x720 (the
# words' column about 200 px: its figure tools stay in it); a wide page
@pytest.mark.parametrize("column, columns", [(710, 1), (910, 2), (1100, 2)])
def test_the_layout_follows_the_walkthroughs_width(shadow_page, column: int,
                                                   columns: int) -> None:
    page = shadow_page
    page.evaluate(f"() => {{ document.getElementById('host').style.width = '{column}px'; }}")
    stepper = page.locator("#host .rk-stepper")
    stepper.locator(".rk-next").click()
    page.wait_for_timeout(200)
    got = stepper.evaluate(LAYOUT)
    assert got["grid"] is (columns == 2), got
    assert got["stacked"] is (columns == 1), got
    assert got["inside"], got
    # the step's events: open beside the picture, folded in one column
    assert got["events"] == [columns == 2], got
    if column == 910:  # "The whole story" and "1:1" in the words' column, beside nothing
        assert all(right <= got["words"] + 14 for _left, right in got["tools"]), got


def test_a_frames_board_is_styled_in_a_shadow_root(shadow_page) -> None:
    page = shadow_page
    assert page.locator("#host .rk-stepper").evaluate(BOARD_STYLED)


@pytest.mark.notebook
def test_a_frames_board_is_styled_on_a_page_without_a_sandbox(lesson_site, browser) -> None:
    """Lesson 0 shows a walkthrough (with its board) and no sandbox."""
    from mtg_rulekit.export.browser import open_page

    site, _ = lesson_site
    path = site / "00_start_here.html"
    html = path.read_text("utf-8")
    assert 'data-rk-view="stepper"' in html and 'data-rk-view="sandbox"' not in html
    visit = open_page(browser, path, site, viewport=(1280, 720))
    try:
        assert visit.page.locator(".rk-stepper").first.evaluate(BOARD_STYLED)
    finally:
        visit.page.close()
