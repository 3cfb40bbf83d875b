"""Opening exported lesson pages in Debian's Chromium through Playwright (never a downloaded
browser), as the browser tests and the benchmarks do: every request outside the site folder is
blocked and recorded, console errors are collected, and the stepper can be stepped.

Needs the `playwright` Python package (the `test` extra) and Chromium at /usr/bin/chromium (or
$RULEKIT_CHROMIUM).
"""

from __future__ import annotations

import os
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
  const frames = Array.from(root.querySelectorAll('.widget-html-content')).filter(shown);
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


@dataclass
class Visit:
    """One page opened with everything outside `site` blocked."""

    page: Any  # playwright Page
    url: str
    requests: list[str] = field(default_factory=list)  # every request made
    outside: list[str] = field(default_factory=list)  # requests outside the site (blocked)
    console_errors: list[str] = field(default_factory=list)
    load_s: float | None = None  # navigation start -> stepper (or page) shown

    def stepper(self, index: int = 0) -> Any:
        return self.page.locator(STEPPER_ANY).nth(index)

    def stepper_count(self) -> int:
        return self.page.locator(STEPPER_ANY).count()

    def snapshot(self, index: int = 0) -> dict[str, str]:
        return self.stepper(index).evaluate(SNAPSHOT_JS)

    def step_forward(self, index: int = 0, timeout_s: float = 10.0
                     ) -> tuple[dict[str, str], dict[str, str]]:
        """Press ArrowUp in stepper `index`'s step-number box (a BoundedIntText); returns the
        snapshots before and after (after: once it changed, or at the timeout)."""
        stepper = self.stepper(index)
        stepper.scroll_into_view_if_needed()
        before = self.snapshot(index)
        box = stepper.locator(".widget-text input[type=number]").first
        box.focus()
        self.page.keyboard.press("ArrowUp")
        deadline = time.monotonic() + timeout_s
        after = self.snapshot(index)
        while after == before and time.monotonic() < deadline:
            self.page.wait_for_timeout(100)
            after = self.snapshot(index)
        return before, after


def open_page(browser: Any, path: Path, site: Path, *, stepper: bool = True,
              timeout_ms: int = 30_000, viewport: tuple[int, int] = (1280, 900)) -> Visit:
    """Open `path` (a file under `site`) from file://, block and record every request outside
    `site`, wait for the stepper (or the load event) and time it."""
    base = site.resolve().as_uri().rstrip("/") + "/"
    url = path.resolve().as_uri()
    page = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
    visit = Visit(page, url)

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
    page.goto(url, wait_until="load", timeout=timeout_ms)
    if stepper:
        visit.stepper().wait_for(state="visible", timeout=timeout_ms)
        visit.stepper().locator("svg").first.wait_for(state="visible", timeout=timeout_ms)
    visit.load_s = time.perf_counter() - start
    return visit
