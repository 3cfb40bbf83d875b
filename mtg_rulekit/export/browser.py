"""Opening exported lesson pages in Debian's Chromium through Playwright (never a downloaded
browser), as the browser tests and the benchmarks do: every request outside the site folder is
blocked and recorded, console errors are collected, the stepper can be stepped and the live
sandbox started and clicked. Pages open from file:// or, with `serve`, from a local web server.

Needs the `playwright` Python package (the `test` extra) and Chromium at /usr/bin/chromium (or
$RULEKIT_CHROMIUM).
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
STEPPER = ".rk-stepper"
# the lessons' stepper (Stepper adds "rk-stepper"); any widget box with a Play otherwise
STEPPER_ANY = f"{STEPPER}, .widget-vbox:has(> .widget-hbox > .widget-play):not({STEPPER} *)"

# What a reader sees of the stepper's current frame: narration text and the diagram's SVG.
SNAPSHOT_JS = """(root) => {
  const shown = (e) => e.getClientRects().length > 0;
  const frames = Array.from(root.querySelectorAll('.rk-frame')).filter(shown);
  const narr = Array.from(root.querySelectorAll('.rk-narration')).filter(shown);
  const text = (narr.length ? narr : frames).map((e) => e.innerText.trim()).join('\\n');
  const svg = Array.from(root.querySelectorAll('svg')).filter(shown)
      .map((s) => s.outerHTML).join('\\n');
  return {text: text, svg: svg};
}"""


def chromium_executable() -> str:
    return os.environ.get("RULEKIT_CHROMIUM", "/usr/bin/chromium")


@contextmanager
def chromium(executable: str | None = None) -> Iterator[Any]:
    """A headless Chromium (Playwright `Browser`), closed on exit."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=executable or chromium_executable(),
                                     args=CHROMIUM_ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


def full_page_shot(page: Any, path: Path) -> None:
    """A screenshot of the whole page (`page`: Playwright's) saved at `path`, asked again once
    when Chromium answers "Unable to capture screenshot": it does, now and then, with a tall
    page under load (seen once in CI, 2026-12-04)."""
    from playwright.sync_api import Error

    try:
        page.screenshot(path=str(path), full_page=True)
    except Error as e:
        if "Unable to capture screenshot" not in str(e):
            raise
        page.wait_for_timeout(500)
        page.screenshot(path=str(path), full_page=True)


@dataclass
class Visit:
    """One page opened with everything outside `site` blocked."""

    page: Any  # playwright Page
    url: str
    requests: list[str] = field(default_factory=list)  # every request made
    outside: list[str] = field(default_factory=list)  # requests outside the site (blocked)
    console_errors: list[str] = field(default_factory=list)
    load_s: float | None = None  # navigation start -> stepper and its diagram shown (or: load)

    def stepper(self, index: int = 0) -> Any:
        return self.page.locator(STEPPER_ANY).nth(index)

    def stepper_count(self) -> int:
        return self.page.locator(STEPPER_ANY).count()

    def snapshot(self, index: int = 0) -> dict[str, str]:
        return self.stepper(index).evaluate(SNAPSHOT_JS)

    def step_forward(self, index: int = 0, timeout_s: float = 10.0
                     ) -> tuple[dict[str, str], dict[str, str]]:
        """Press Right arrow on stepper `index`'s Next button; returns the snapshots before
        and after (after: once it changed, or at the timeout)."""
        stepper = self.stepper(index)
        stepper.scroll_into_view_if_needed()
        before = self.snapshot(index)
        stepper.locator(".rk-controls .rk-next").first.focus()
        self.page.keyboard.press("ArrowRight")
        deadline = time.monotonic() + timeout_s
        after = self.snapshot(index)
        while after == before and time.monotonic() < deadline:
            self.page.wait_for_timeout(100)
            after = self.snapshot(index)
        return before, after


def open_page(browser: Any, path: Path, site: Path, *, stepper: bool = True,
              timeout_ms: int = 30_000, viewport: tuple[int, int] = (1280, 900),
              server: str | None = None, init_script: str | None = None) -> Visit:
    """Open `path` (a file under `site`) from file:// (or from `server`, the URL `serve`
    gives for `site`), block and record every request outside `site`, wait for the stepper (or
    the load event) and time it. `init_script` runs before the page's own scripts."""
    if server is None:
        base = site.resolve().as_uri().rstrip("/") + "/"
        url = path.resolve().as_uri()
    else:
        base = server.rstrip("/") + "/"
        url = base + path.resolve().relative_to(site.resolve()).as_posix()
    page = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
    visit = Visit(page, url)
    if init_script:
        page.add_init_script(init_script)

    def route(r: Any) -> None:
        req_url = r.request.url
        visit.requests.append(req_url)
        if req_url.startswith(base) or req_url.startswith("data:"):
            r.continue_()
        else:
            visit.outside.append(req_url)
            r.abort()

    page.route("**/*", route)
    page.on("console", lambda m: visit.console_errors.append(m.text) if m.type == "error"
            else None)
    page.on("pageerror", lambda e: visit.console_errors.append(f"page error: {e}"))
    start = time.perf_counter()
    # a walkthrough is drawn by the page's modules, which run before DOMContentLoaded: it is
    # visible and steppable then, whatever else (a widget manager's fonts) is still loading
    page.goto(url, wait_until="domcontentloaded" if stepper else "load", timeout=timeout_ms)
    if stepper:
        visit.stepper().wait_for(state="visible", timeout=timeout_ms)
        visit.stepper().locator("svg").first.wait_for(state="visible", timeout=timeout_ms)
    visit.load_s = time.perf_counter() - start
    if stepper:
        page.wait_for_load_state("load", timeout=timeout_ms)  # the rest, as before
    return visit


# ------------------------------------------------------------------ a local web server
@contextmanager
def serve(site: Path, handler: Any = None) -> Iterator[str]:
    """`site` over http://127.0.0.1:<free port>/ (Python's http.server, in a thread, quiet),
    stopped on exit; yields the base URL. `handler`: a `SimpleHTTPRequestHandler` subclass to
    serve with (e.g. one that sends a Content-Security-Policy header)."""
    from functools import partial
    from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

    class Quiet(handler or SimpleHTTPRequestHandler):  # type: ignore[misc]
        def log_message(self, format: str, *args: Any) -> None:  # the base's name
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), partial(Quiet, directory=str(site)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(10)


# ------------------------------------------------------------------ the live sandbox
# an element's words with each mana symbol (`.rk-sym`, drawn by the board's
# `mana_symbols`) read back as written, "{G}", and its hidden spoken word left out
WORDS_JS = """(e) => { const c = e.cloneNode(true);
  c.querySelectorAll('.rk-sr').forEach((s) => s.remove());
  c.querySelectorAll('svg.rk-sym').forEach((s) => s.replaceWith('{' + (Array.from(
    s.classList).find((k) => k.startsWith('rk-sym-')) || 'rk-sym-?').slice(7).toUpperCase()
    + '}'));
  c.hidden = false; document.body.appendChild(c); const t = c.innerText; c.remove();
  return t; }"""
LIVE = ".rk-view[data-rk-view='sandbox']"  # a sandbox view (the page contract)
SANDBOX = ".rk-sb"  # the sandbox module's root inside it (data-state, data-done, data-sid)


class Live:
    """The live sandbox `index` of a visited page, driven like a reader would: choose in its
    inputs, click its buttons, read its message and tables."""

    def __init__(self, visit: Visit, index: int = 0) -> None:
        self.visit = visit
        self.index = index
        self.box = visit.page.locator(LIVE).nth(index)
        self.root = self.box.locator(SANDBOX)

    def _wait_state(self, states: tuple[str, ...], timeout_s: float) -> None:
        self.visit.page.wait_for_function(
            "([sel, i, states]) => { const r = document.querySelectorAll(sel)[i];"
            " return !!r && states.includes(r.dataset.state); }",
            arg=[f"{LIVE} {SANDBOX}", self.index, list(states)], timeout=timeout_s * 1000)

    def start(self, timeout_s: float = 180.0) -> float:
        """Click "Start the live sandbox" and wait until it is ready (or failed); seconds."""
        self.root.wait_for(state="attached")
        self.box.scroll_into_view_if_needed()
        began = time.perf_counter()
        # (while the engine loads, the page's thread can be busy for seconds at a time: the
        # click lands when it is free)
        self.box.get_by_role("button", name="Start the live sandbox").click(
            timeout=timeout_s * 1000)
        self._wait_state(("ready", "failed"), timeout_s)
        return time.perf_counter() - began

    def wait_loaded(self, timeout_s: float = 180.0) -> None:
        """Wait until the engine has loaded without Start being pressed (preloading)."""
        self._wait_state(("loaded", "ready", "failed"), timeout_s)

    @property
    def state(self) -> str | None:
        return self.root.get_attribute("data-state")

    def choose(self, field: str, value: Any) -> None:
        """Set an input: a choice (a value), a multi-choice (a list), a number or a text."""
        self.show_controls()
        box = self.box.locator(f"[data-field='{field}']")
        kind = box.get_attribute("data-kind")
        if kind == "choice":
            box.select_option(value=json.dumps(value))
        elif kind == "multi":
            box.select_option(value=[json.dumps(v) for v in value])
        else:
            box.fill(str(value))

    def click(self, control: str) -> str:
        """Click a control; the message it shows."""
        self.show_controls()
        done = self.root.get_attribute("data-done") or "0"
        self.box.locator(f"button[data-control='{control}']").click()
        self.visit.page.wait_for_function(
            "([sel, i, n]) => (document.querySelectorAll(sel)[i].dataset.done || '0') !== n",
            arg=[f"{LIVE} {SANDBOX}", self.index, done])
        return self.message()

    def show_controls(self) -> None:
        """Open the collapsed "All controls" section (the form under the board)."""
        self.root.evaluate("(r) => { const d = r.querySelector('details.rk-all-controls'); "
                           "if (d) d.open = true; }")

    def message(self) -> str:
        """The message's words, each mana symbol read back as it is written ("{G}")."""
        return self.box.locator(".rk-message").evaluate(WORDS_JS).strip()

    def table(self, caption: str) -> list[dict[str, str]]:
        """The rows of the table with this caption, as column -> cell text."""
        return self.box.locator(".rk-live-tables table").evaluate_all(
            """(tables, caption) => {
                 const t = tables.find((x) => x.caption && x.caption.innerText.trim() === caption);
                 if (!t) return [];
                 const head = Array.from(t.querySelectorAll('thead th')).map((h) => h.innerText);
                 return Array.from(t.querySelectorAll('tbody tr')).map((r) => Object.fromEntries(
                   Array.from(r.children).map((c, k) => [head[k], c.innerText])));
               }""", caption)

    def values(self) -> dict[str, Any]:
        """What the inputs say, as the model reads them."""
        return self.root.evaluate("(r) => r.rkSandbox.values()")

    def to_json(self, values: dict[str, Any] | None = None) -> dict[str, Any]:
        """The page's `SandboxModel.to_json(values)` (default: what the inputs say)."""
        return self.root.evaluate(
            "(r, v) => rulekit.backends.sandbox.state(Number(r.dataset.sid), v || "
            "r.rkSandbox.values())", values)

    def view_state(self) -> dict[str, Any]:
        """The view's `state` trait as the page host holds it (what the module renders)."""
        return self.visit.page.evaluate(
            "(i) => rulekit.host.models().filter((m) => m.name === 'sandbox')[i].model"
            ".get('state')", self.index)

    def last_click_ms(self) -> float:
        return float(self.root.evaluate("(r) => r.rkSandbox.lastClickMs"))

    def timings(self) -> list[list[Any]]:
        """[what, ms since the page opened] as the page's sandbox back-end got ready."""
        return self.visit.page.evaluate("rulekit.backends.sandbox.timings")

    def position(self) -> dict[str, Any]:
        """The starting position the page replays (its JSON data)."""
        traits = json.loads(self.box.locator(":scope > script[type='application/json']")
                            .text_content())
        return traits["position"]
