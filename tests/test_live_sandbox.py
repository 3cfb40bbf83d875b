"""The live sandbox of exported lesson pages, in Debian's Chromium with every request outside
the site blocked: the one sandbox module (mtg_rulekit/display/front/sandbox.js) rendered by the
page's host, its clicks going to the page's back-end (the engine in Pyodide, in a Web Worker).
From file:// and from a local http.server on 127.0.0.1, a reader starts it, taps a land and sees
the pool change, is refused an illegal move with its CR number, exerts an attacker and sees it
stay tapped through the next untap step, and undoes. Every click is also run through
`SandboxModel` in CPython with the same inputs, and the page's `model_json()` (and the state the
module shows) must equal the kernel's: the same board, log, fields and message.

Before it is ready its controls look and are inactive; it loads as soon as it comes into view
(or Start is hovered or focused), so Start is then instant; "ready" is announced and focus
moves in. It degrades clearly: no WebAssembly, a page copied without `_static/`, a damaged
runtime file. The site is the session's `lesson_site` (see conftest.py).
"""

from __future__ import annotations

import json
import re
import shutil
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from mtg_rulekit.export.browser import LIVE
from mtg_rulekit.export.checks import axe
from mtg_rulekit.sandbox import CONTROLS, FIELDS, GROUPS, SandboxModel
from mtg_rulekit.sandbox.view import model_json, sandbox_state
from tests.helpers import unavailable

pytestmark = [pytest.mark.browser, pytest.mark.notebook]  # the pages of the built site

CR = re.compile(r"CR \d{3}\.\d+[a-z]?")
EXERT = ("Sandstorm Crasher", "Glory-Bound Initiate")
# lessons whose sandbox has an untapped land (tap it) or a creature with exert (attack with it)
TAP_LESSONS = ("01", "03")
EXERT_LESSONS = ("07", "08")
PLAYERS = "Players: life and mana pools"

LAYOUT_JS = """(box) => Array.from(box.querySelectorAll('.rk-sb fieldset'))
  .filter((g) => g.getClientRects().length && g.querySelector('[data-field], [data-control]'))
  .map((g) => [
  g.querySelector('legend').innerText,
  Array.from(g.querySelectorAll('[data-field], [data-control]')).map((e) => [
    e.dataset.field || e.dataset.control,
    e.dataset.field ? g.querySelector('label[for="' + e.id + '"]').innerText : e.innerText])])"""


def _same_controls_as_the_model(live: Any) -> None:
    """The page offers the model's fields and controls, in GROUPS order, with their labels:
    the groups of the controls the lesson's sandbox offers (`SandboxModel.groups`)."""
    shown = live.box.evaluate(LAYOUT_JS)
    offered = {n for _h, items in shown for n, _label in items if n in CONTROLS}
    groups = [(h, [n for n in names if n not in CONTROLS or n in offered])
              for h, names in GROUPS]
    expected = [[heading, [[n, (FIELDS[n].label if n in FIELDS else CONTROLS[n].label)]
                           for n in names]] for heading, names in groups
                if any(n in CONTROLS for n in names)]
    assert offered and shown == expected


def _page(site: Path, report: Any, prefix: str) -> Path:
    pages = sorted(site.glob(f"{prefix}_*.html"))
    if not pages:
        pytest.skip(f"no lesson {prefix} in this site")
    failed = [f.error for f in report.failures if Path(f.notebook).name.startswith(prefix)]
    assert not failed, failed
    return pages[0]


@pytest.fixture(scope="module")
def live_site(lesson_site):
    site, report = lesson_site
    if report.sandbox_note:
        unavailable(report.sandbox_note)
    return site, report


@contextmanager
def _visit(browser, site: Path, path: Path, how: str, **kwargs: Any):
    from mtg_rulekit.export.browser import open_page, serve

    if how == "http":
        with serve(site) as url:
            visit = open_page(browser, path, site, server=url, **kwargs)
            try:
                yield visit
            finally:
                visit.page.close()
    else:
        visit = open_page(browser, path, site, **kwargs)
        try:
            yield visit
        finally:
            visit.page.close()


def _titles(svg: str) -> list[str]:
    """The readable titles of a diagram's SVG (tooltips, what screen readers read), sorted."""
    return sorted(re.findall(r"<title>([^<]*)</title>", svg))


def _plain(data: Any) -> Any:
    return json.loads(json.dumps(data))


class Mirror:
    """The page's live sandbox and the same model in CPython, clicked with the same inputs."""

    def __init__(self, live: Any) -> None:
        from mtg_rulekit.sandbox.challenges import attach

        self.live = live
        position = live.position()
        self.model = attach(SandboxModel.from_position(position), position.get("challenges"))
        self.same()

    def same(self, values: dict[str, Any] | None = None) -> None:
        values = values if values is not None else self.live.values()
        page, kernel = self.live.to_json(values), _plain(model_json(self.model, values))
        for key in ("tables", "log", "last", "fields"):
            assert page[key] == kernel[key], f"the page's {key} differ from the kernel's"
        assert page == kernel
        shown = self.live.view_state()  # what the module renders: the same model JSON
        assert {k: shown[k] for k in kernel} == kernel
        # ... and the same diagram: Viz.js in the page, dot here, the same titles after both
        here = sandbox_state(self.model, values)
        assert _titles(shown["diagram"]) == _titles(here["diagram"]), "the diagrams differ"
        assert shown["tables_html"] == here["tables_html"] and shown["what"] == here["what"]
    def click(self, control: str, **inputs: Any) -> str:
        for name, value in inputs.items():
            self.live.choose(name, value)
        values = self.live.values()
        shown = self.live.click(control)
        outcome = self.model.click(control, values)
        assert outcome.text in shown
        if outcome.kind == "refused":
            assert shown.startswith("Refused:") and shown.endswith("Nothing changed.")
        elif outcome.kind == "done":
            assert shown.startswith("Done:")
        self.same(values)
        return shown

    def row(self, caption: str, key: str, value: Any) -> dict[str, str]:
        rows = [r for r in self.live.table(caption) if r[key] == str(value)]
        assert len(rows) == 1, (caption, key, value, rows)
        return rows[0]


def _message_under(live: Any, control: str) -> None:
    """The outcome of a click shows right under the button clicked: with the button
    in view at 1366x768, the message's first lines are in view too, no more than a line below."""
    page = live.visit.page
    size = page.viewport_size
    page.set_viewport_size({"width": 1366, "height": 768})
    try:
        button = live.box.locator(f"button[data-control='{control}']")
        button.evaluate("(b) => b.scrollIntoView({block: 'center'})")
        b = button.bounding_box()
        msg = live.box.locator(".rk-message").bounding_box()
        assert b is not None and msg is not None
        assert 0 <= msg["y"] - (b["y"] + b["height"]) <= 24, (b, msg)
        assert msg["y"] + min(msg["height"], 60) <= 768, (b, msg)
    finally:
        page.set_viewport_size(size)


def _tap_and_refuse(m: Mirror) -> None:
    g = m.model.game
    active = g.active
    land = next(o.id for o in m.model.permanents() if g.chars(o).is_a("Land")
                and not o.tapped and g.controller_of(o) == active)
    before = m.row(PLAYERS, "player", active)["mana pool"]
    shown = m.click("tap", permanent=land)
    after = m.row(PLAYERS, "player", active)["mana pool"]
    assert after != before and after != "no mana", (before, after, shown)
    assert m.row("Board", "id", land)["tapped"] == "yes"
    shown = m.click("tap", permanent=land)  # it is tapped now: {T} can't be paid
    assert shown.startswith("Refused:") and CR.search(shown), shown
    _message_under(m.live, "tap")
    assert m.row(PLAYERS, "player", active)["mana pool"] == after  # nothing changed
    shown = m.click("undo")
    assert shown.startswith("Undone:")
    assert m.row(PLAYERS, "player", active)["mana pool"] == before
    assert m.row("Board", "id", land)["tapped"] == "no"


def _exert_through_untap(m: Mirror) -> None:
    g = m.model.game
    active = g.active
    mine = [o for o in m.model.permanents() if g.controller_of(o) == active
            and g.chars(o).is_a("Creature") and not o.tapped]
    exerter = next(o.id for o in mine if g.chars(o).name in EXERT)
    other = next(o.id for o in mine if g.chars(o).name == "Grizzly Bears")
    shown = m.click("attack", attackers=[exerter])  # still the main phase
    assert shown.startswith("Refused:") and "CR 508.1" in shown, shown
    m.click("combat")
    m.click("attack", attackers=[exerter, other], exert=[exerter])
    assert m.row("Board", "id", exerter)["tapped"] == "yes"
    assert "won't untap" in m.row("Board", "id", exerter)["exerted"]
    turn = g.turn
    m.click("turn")  # the opponent's turn
    m.click("turn")  # ours again: our untap step has happened
    assert f"turn {turn + 2}" in m.row(PLAYERS, "player", active)["turn"]
    assert m.row("Board", "id", other)["tapped"] == "no"  # untapped as usual (CR 502.3)
    assert m.row("Board", "id", exerter)["tapped"] == "yes"  # exerted: stayed tapped
    shown = m.click("undo")
    assert shown.startswith("Undone:")
    now = m.model.game.active  # back in the opponent's turn
    assert now != active and f"turn {turn + 1}" in m.row(PLAYERS, "player", now)["turn"]


def _inactive_before_ready(live: Any) -> None:
    """Before the engine is ready the controls are there, labelled, but look and are
    inactive: aria-disabled, and a click changes nothing."""
    controls = live.box.locator("[data-control]")
    fields = live.box.locator("[data-field]")
    # the lesson's sandbox offers some kinds of action (Sandbox(game, actions=...)): its
    # controls are some of the form's, never another
    names = set(controls.evaluate_all("(es) => es.map((e) => e.dataset.control)"))
    assert names and names <= set(CONTROLS), names
    assert 0 < fields.count() <= len(FIELDS)
    assert live.box.locator("[data-control]:not([aria-disabled='true'])").count() == 0
    assert live.box.locator("[data-field]:not([aria-disabled='true'])").count() == 0
    assert live.box.locator("[data-field]:enabled").count() == 0
    assert live.root.evaluate("(r) => r.classList.contains('rk-inactive')")
    live.show_controls()
    live.box.locator("button[data-control='pass']").click(force=True)  # aria-disabled
    assert live.root.get_attribute("data-done") is None
    assert live.box.locator(".rk-message").inner_text().strip() == ""


def _ready_is_announced_and_focus_moves_in(live: Any) -> None:
    assert "ready" in live.box.locator(".rk-announce").inner_text()
    assert live.root.evaluate("(r) => r.contains(document.activeElement) && "
                              "document.activeElement.matches('.rk-card-open, summary')")
    assert live.box.locator("[data-control][aria-disabled='true']").count() == 0
    assert live.box.locator("[data-field]:disabled").count() == 0


def _diagram_titles_are_sentences(live: Any) -> None:
    """The page's diagram (drawn by Viz.js) has the kernel's readable titles (tooltips and what
    screen readers read), not Graphviz's node ids."""
    titles = live.box.locator(".rk-live-diagram .rk-diagram svg title").evaluate_all(
        "(ts) => ts.map((t) => t.textContent)")
    assert titles and not [t for t in titles if re.fullmatch(r"[a-z_]*\d+(->[a-z_]*\d+)?", t)]
    assert live.box.locator(".rk-live-diagram .rk-diagram svg a").count() == 0  # no xlink
    assert live.box.locator(".rk-live-diagram svg[role='img'][aria-label]").count() == 1
    assert live.box.locator(".rk-live-diagram .rk-legend li").count() >= 1  # the HTML strip


# every lesson played from file://; over HTTP one of each kind (the same page, fetched another
# way: test_the_live_sandbox_plays_under_the_pages_own_policy loads both ways too)
CASES = [(p, "file") for p in TAP_LESSONS + EXERT_LESSONS] + [(p, "http") for p in ("01", "08")]


@pytest.mark.parametrize("prefix, how", CASES, ids=[f"{p}-{h}" for p, h in CASES])
def test_the_live_sandbox_plays_in_the_page(live_site, browser, prefix: str, how: str) -> None:
    from mtg_rulekit.export.browser import Live

    site, report = live_site
    path = _page(site, report, prefix)
    with _visit(browser, site, path, how) as visit:
        live = Live(visit)
        live.root.wait_for(state="attached")
        assert live.state == "idle"  # out of view: nothing loads yet
        assert live.box.locator("progress").is_hidden()
        _inactive_before_ready(live)
        live.start()
        assert live.state == "ready", live.box.inner_text()
        shown = [what for what, _ in live.timings()]
        assert {"Loading the sandbox's files…", "Starting Python…", "ready"} <= set(shown)
        _ready_is_announced_and_focus_moves_in(live)
        _same_controls_as_the_model(live)
        m = Mirror(live)
        if prefix in TAP_LESSONS:
            _tap_and_refuse(m)
        else:
            _exert_through_untap(m)
        assert live.box.locator(".rk-live-diagram .rk-diagram svg").count() == 1
        _diagram_titles_are_sentences(live)
        assert visit.outside == [], f"requests outside the site: {visit.outside}"
        assert visit.console_errors == [], visit.console_errors
        if how == "http":
            assert all(u.startswith("http://127.0.0.1:") for u in visit.requests)


def test_the_page_and_the_kernel_give_the_same_json(live_site, browser) -> None:
    """Lesson 3's board (replacement effects, Mana Reflection, Mana Flare): the same clicks
    through the model in CPython and in the page give the same model_json() after every click."""
    from mtg_rulekit.export.browser import Live

    site, report = live_site
    with _visit(browser, site, _page(site, report, "03"), "file") as visit:
        live = Live(visit)
        live.start()
        m = Mirror(live)
        g = m.model.game
        forest, orchard = (g.find("Forest").id, g.find("Exotic Orchard").id)
        m.click("tap", permanent=forest)
        m.click("tap", permanent=orchard, mana="R")  # refused or done: the same in both
        m.click("tap", permanent=forest)  # refused: tapped
        m.click("resolve")
        m.click("step")
        m.click("undo")
        m.click("turn")
        m.click("reset")
        assert live.message().startswith("Reset:")
        assert visit.console_errors == [] and visit.outside == []


def _picture_still_steps(visit) -> None:
    before, after = visit.step_forward(0)
    assert after["text"] != before["text"]


def _picture_stays(box: Any) -> None:
    """The sandbox's starting board (tables, diagram) still shows, its controls inactive."""
    assert box.locator(".rk-live-tables table").count() >= 2
    assert box.locator(".rk-live-diagram .rk-diagram svg").count() == 1
    assert box.locator("[data-control]:not([aria-disabled='true'])").count() == 0


def test_no_webassembly_says_so(live_site, browser) -> None:
    site, report = live_site
    path = _page(site, report, "01")
    with _visit(browser, site, path, "file",
                init_script="delete globalThis.WebAssembly;") as visit:
        box = visit.page.locator(LIVE).first
        box.locator(".rk-live-problem").wait_for()
        assert box.get_by_role("button", name="Start the live sandbox").is_disabled()
        problem = box.locator(".rk-live-problem").inner_text()
        assert "no WebAssembly" in problem and "walkthroughs" in problem
        _picture_stays(box)
        _picture_still_steps(visit)
        assert visit.console_errors == []


def test_a_page_copied_without_static_says_what_to_do(live_site, browser, tmp_path) -> None:
    site, report = live_site
    alone = tmp_path / "copied"
    alone.mkdir()
    page = shutil.copy(_page(site, report, "01"), alone)
    with _visit(browser, alone, Path(page), "file", stepper=False) as visit:
        box = visit.page.locator(LIVE).first
        box.get_by_role("button", name="Start the live sandbox").click()
        visit.page.wait_for_function(f"() => document.querySelector({json.dumps(LIVE + ' .rk-sb')})"
                                     ".dataset.state === 'failed'")
        problem = box.locator(".rk-live-problem").inner_text()
        assert "files are missing" in problem and "_static/sandbox/" in problem
        assert "copy the whole site folder" in problem
        assert visit.outside == []


def test_a_load_failure_says_so(live_site, browser) -> None:
    site, report = live_site
    with _visit(browser, site, _page(site, report, "01"), "file") as visit:
        damaged = ("(globalThis.rulekitAssets=globalThis.rulekitAssets||{})"
                   "['pyodide.asm.wasm']={gzip:true,size:9,base64:'AAAAAAAA'};")
        visit.page.route("**/pyodide-wasm.js", lambda r: r.fulfill(
            body=damaged, content_type="text/javascript"))
        box = visit.page.locator(LIVE).first
        box.get_by_role("button", name="Start the live sandbox").click()
        visit.page.wait_for_function(f"() => document.querySelector({json.dumps(LIVE + ' .rk-sb')})"
                                     ".dataset.state === 'failed'", timeout=120_000)
        problem = box.locator(".rk-live-problem").inner_text()
        assert "could not start" in problem and "Reload the page" in problem
        assert box.get_by_role("button", name="Start the live sandbox").is_enabled()
        _picture_stays(box)
        _picture_still_steps(visit)
        assert visit.console_errors == [] and visit.outside == []


def test_it_loads_while_in_view_so_start_is_instant(live_site, browser) -> None:
    """Preloading: scrolled into view, the sandbox loads its engine without a click (and stays
    inactive); then Start makes it ready at once."""
    from mtg_rulekit.export.browser import Live

    site, report = live_site
    with _visit(browser, site, _page(site, report, "03"), "file") as visit:
        live = Live(visit)
        live.root.wait_for(state="attached")
        assert live.state == "idle"
        live.box.scroll_into_view_if_needed()
        live.wait_loaded()
        assert live.state == "loaded", live.box.inner_text()[:300]
        _inactive_before_ready(live)
        assert live.box.locator("progress").is_hidden()  # nobody asked: no progress bar
        assert axe(visit.page, within=LIVE) == {}  # inactive, but named and readable
        seconds = live.start()
        assert live.state == "ready" and seconds < 5, seconds
        _ready_is_announced_and_focus_moves_in(live)
        m = Mirror(live)
        m.click("pass")
        m.click("tap", permanent=m.model.game.find("Forest").id)
        assert axe(visit.page, within=LIVE) == {}
        assert visit.console_errors == [] and visit.outside == []


@pytest.mark.parametrize("how", ["hover", "focus"])
def test_hovering_or_focusing_start_loads_it(live_site, browser, how: str) -> None:
    """Hovering or focusing Start starts loading, before any click (here with no
    IntersectionObserver, so coming into view can't be what started it)."""
    from mtg_rulekit.export.browser import Live

    site, report = live_site
    with _visit(browser, site, _page(site, report, "01"), "file",
                init_script="delete globalThis.IntersectionObserver;") as visit:
        live = Live(visit)
        live.root.wait_for(state="attached")
        start = live.box.get_by_role("button", name="Start the live sandbox")
        start.scroll_into_view_if_needed()
        visit.page.wait_for_timeout(300)
        assert live.state == "idle"
        getattr(start, how)()
        live.wait_loaded()
        assert live.state == "loaded", live.box.inner_text()[:300]
        assert visit.console_errors == []


# violations, as the page sees them (a CSP report), before any of its own scripts run
WATCH = """window.rkViolations = [];
document.addEventListener('securitypolicyviolation', (e) =>
  window.rkViolations.push(`${e.violatedDirective}: ${e.blockedURI} ${e.sample || ''}`));"""


@pytest.mark.parametrize("how", ["file", "http"])
def test_the_live_sandbox_plays_under_the_pages_own_policy(live_site, browser, how) -> None:
    """The page's own Content-Security-Policy (mtg_rulekit.export.csp: WebAssembly but no eval, no
    inline script or style but its own by hash) enforced: the sandbox starts, clicks and draws
    its diagram, and the browser reports no violation."""
    from mtg_rulekit.export.browser import Live
    from mtg_rulekit.export.csp import policy_of

    site, report = live_site
    path = _page(site, report, "03")
    policy = policy_of(path.read_text("utf-8"))
    assert "'wasm-unsafe-eval'" in policy["script-src"]
    assert "'unsafe-eval'" not in policy["script-src"]
    # the engine's worker, and the modules it imports, come from blobs the page makes
    assert policy["worker-src"] == ["blob:"] and "blob:" in policy["script-src"]
    assert "worker-src" not in policy_of((site / "index.html").read_text("utf-8"))
    with _visit(browser, site, path, how, init_script=WATCH) as visit:
        live = Live(visit)
        live.start()
        assert live.state == "ready", live.box.inner_text()[:300]
        Mirror(live).click("pass")
        assert live.box.locator(".rk-live-diagram .rk-diagram svg").count() == 1
        assert visit.page.evaluate("() => window.rkViolations") == []
        assert visit.console_errors == [] and visit.outside == []
