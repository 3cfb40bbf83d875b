"""Every exported lesson page in Debian's Chromium (Playwright), opened from file:// with every
request outside site/ blocked and recorded: no request outside site/, no console error, the
stepper visible, and one step forward (ArrowUp in the step-number box) changes the narration and
the diagram. A screenshot per lesson goes to test-artifacts/lessons/ (ignored by git).

The site is built once per session (the `lesson_site` fixture in conftest.py) with the lesson
build's cache (`make lessons`'s output folder, site/, gitignored; RULEKIT_TEST_SITE overrides
it): a fresh site/ is reused as is.
RULEKIT_TEST_NOTEBOOKS points the tests at another folder of notebooks.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mtg_rulekit.export import lesson_paths
from mtg_rulekit.export.browser import full_page_shot

pytestmark = [pytest.mark.browser, pytest.mark.notebook]  # the pages of the built site

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = Path(os.environ.get("RULEKIT_TEST_NOTEBOOKS", ROOT / "notebooks"))
ARTIFACTS = ROOT / "test-artifacts" / "lessons"
LESSONS = [p.stem for p in lesson_paths(NOTEBOOKS)] if NOTEBOOKS.is_dir() else []


def _needs_stepper(stem: str) -> bool:
    """Every lesson steps through a walkthrough; the start page (00_*) may not."""
    return not stem.startswith("00_")


def _page(site: Path, report, stem: str) -> Path:
    page = site / f"{stem}.html"
    failed = [f.error for f in report.failures if Path(f.notebook).stem == stem]
    assert not failed, f"the build failed: {failed[0]}"
    assert page.is_file(), f"{page} was not built"
    return page


@pytest.mark.parametrize("stem", LESSONS or ["(none)"])
def test_lesson_page_works_offline_and_steps(lesson_site, browser, stem: str) -> None:
    from mtg_rulekit.export.browser import STEPPER_ANY, open_page

    site, report = lesson_site
    path = _page(site, report, stem)
    has_stepper = "rk-stepper" in path.read_text("utf-8") or _needs_stepper(stem)
    visit = open_page(browser, path, site, stepper=has_stepper)
    try:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        if has_stepper:
            assert visit.page.locator(STEPPER_ANY).first.is_visible()
            for i in range(visit.stepper_count()):  # every walkthrough on the page
                before, after = visit.step_forward(i)
                assert after["text"] and after["text"] != before["text"], \
                    f"stepper {i}: the narration did not change: {before['text']!r}"
                assert after["svg"] and after["svg"] != before["svg"], \
                    f"stepper {i}: the diagram did not change after one step forward"
        full_page_shot(visit.page, ARTIFACTS / f"{stem}.png")
        assert visit.outside == [], f"requests outside site/: {visit.outside}"
        assert visit.console_errors == [], f"console errors: {visit.console_errors}"
        assert all(u.startswith(site.resolve().as_uri()) for u in visit.requests)
    finally:
        visit.page.close()


def test_index_page_links_every_lesson_offline(lesson_site, browser) -> None:
    from mtg_rulekit.export.browser import open_page

    site, report = lesson_site
    visit = open_page(browser, site / "index.html", site, stepper=False)
    try:
        hrefs = visit.page.eval_on_selector_all("ol.lessons a", "els => els.map(e => "
                                                "e.getAttribute('href'))")
        assert hrefs == [f"{e['stem']}.html" for e in report.lessons]
        assert len(hrefs) == len(LESSONS)
        assert visit.page.locator("table").count() == 0  # the coverage is the teachers' page's
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        full_page_shot(visit.page, ARTIFACTS / "index.png")
        assert visit.outside == [] and visit.console_errors == []
    finally:
        visit.page.close()


def test_links_in_the_site_resolve_inside_it(lesson_site) -> None:
    """Every relative link of every page (the index, the lessons' rulings tables) names a file
    of the site, and its #anchor an id of that page; nothing links outside but http(s) links."""
    from html.parser import HTMLParser
    from urllib.parse import unquote, urlsplit

    class Collect(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.hrefs: list[str] = []
            self.ids: set[str] = set()

        def handle_starttag(self, tag: str, attrs: list) -> None:
            a = dict(attrs)
            if a.get("id"):
                self.ids.add(a["id"])
            if tag == "a" and a.get("href"):
                self.hrefs.append(a["href"])

    site, _ = lesson_site
    pages: dict[str, Collect] = {}
    for page in sorted(site.glob("*.html")):
        c = Collect()
        c.feed(page.read_text("utf-8"))
        pages[page.name] = c
    broken = []
    for name, c in pages.items():
        for href in c.hrefs:
            parts = urlsplit(href)
            if parts.scheme in ("http", "https", "mailto"):
                continue
            target = unquote(parts.path) or name
            if parts.scheme or not (site / target).is_file():
                broken.append(f"{name}: {href}")
            elif parts.fragment and target in pages and not (
                    {parts.fragment, unquote(parts.fragment)} & pages[target].ids):
                # (a browser matches the fragment as written, then percent-decoded)
                broken.append(f"{name}: {href} (no such anchor)")
    assert not broken, "\n".join(broken)


def test_the_rulings_box_fits_a_phone_in_jupyterlab(browser) -> None:
    """A lesson's rulings box (`lesson.rulings_box`) fits the 274 px a notebook output gets in
    JupyterLab at 390x844 with its side bar closed: a wider box made the output scroll
    sideways, which axe-core reports (scrollable-region-focusable: the keyboard cannot scroll
    it). Every ruling, each in a box of its own, in the same fonts as the notebook."""
    from mtg_rulekit.core.rulings import all_rulings
    from mtg_rulekit.display.lesson import rulings_box

    page = browser.new_page(viewport={"width": 390, "height": 844})
    try:
        boxes = "".join(f"<div class='out' style='width:274px;overflow:auto'>"
                        f"{rulings_box(r)}</div>" for r in sorted(all_rulings()))
        page.set_content(f"<!doctype html><html><body>{boxes}</body></html>")
        wide = page.evaluate("""() => Array.from(document.querySelectorAll('.out'))
            .filter((e) => e.scrollWidth > e.clientWidth)
            .map((e) => e.querySelector('th').textContent + ': ' + e.scrollWidth + ' px')""")
        assert len(sorted(all_rulings())) == 19
        assert wide == [], wide
    finally:
        page.close()
