"""The site's way in: the index as a course, the teachers' page, a readable cards page.

The fast tests render the pages from a build report of the shipped lessons (their notebooks are
read for the goals and minutes, `mtg_rulekit.repo.course`); the browser test opens the built site at
a laptop's and a phone's size, saves screenshots (`test-artifacts/course/`), runs axe-core and
uses the cards page's filter box."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mtg_rulekit.authoring.cards import CardEntry
from mtg_rulekit.core.rulings import Ruling
from mtg_rulekit.export import BuildReport
from mtg_rulekit.export.cards import SCENARIOS_SHOWN
from mtg_rulekit.export.cards import render as render_cards
from mtg_rulekit.export.index import TEACHERS, render, render_teachers
from mtg_rulekit.repo.course import course_entry, read_course_entry
from mtg_rulekit.repo.coverage import Coverage, Section
from mtg_rulekit.repo.outline import Heading, read_outline
from tests.lesson_shape import lesson_notebooks, number, numbered_notebooks

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = numbered_notebooks()
ARTIFACTS = ROOT / "test-artifacts" / "course"


def report() -> BuildReport:
    """A build report of the shipped lessons, as the build writes it (no page built)."""
    lessons = []
    for path in NOTEBOOKS:
        found = read_outline(path)
        assert found is not None
        lessons.append({"stem": path.stem, "title": found.title, "rulings": list(found.rulings),
                        "notebook": str(path)})
    return BuildReport(out=Path("site"), lessons=lessons, live=True)


def coverage() -> list[Coverage]:
    return [Coverage(Ruling("R07", "Paying {T}", "Tapped can't pay {T}.", ("107.5",), ""),
                     tests=["tests/test_x.py::test_t"],
                     lessons=[Section("notebooks/01_tapping_and_summoning_sickness.ipynb",
                                      "Lesson 1", Heading(2, "Paying {T} (R07)"))])]


@pytest.mark.parametrize("path", lesson_notebooks(), ids=lambda p: p.stem)
def test_every_lesson_says_what_you_will_be_able_to_do_and_how_long_it_takes(path):
    entry = read_course_entry(path)
    assert entry is not None and entry.goal, f"{path.stem}: no goal (the notebook's metadata " \
        "rulekit.goal: docs/teaching.md)"
    assert entry.minutes % 5 == 0 and 5 <= entry.minutes <= 60, (path.stem, entry.minutes)


def test_the_estimate_grows_with_the_lesson():
    # the estimate grows with the lesson: a walkthrough's steps count
    bare = {"cells": [{"cell_type": "markdown", "source": "word " * 100}]}
    walk = {"cells": [*bare["cells"], *[{"cell_type": "code",
                                         "source": 'Stepper("r19_exert_copy_values")'}] * 4]}
    assert course_entry(walk).minutes > course_entry(bare).minutes
    assert course_entry(bare).goal == ""


def test_the_index_is_a_course_with_a_start_an_order_minutes_and_goals():
    page = render(report(), [])
    items = re.findall(r'<li value="(\d+)"><a href="([^"]+)">([^<]+)</a> '
                       r'<span class="minutes">\(about (\d+) minutes\)</span>'
                       r'<p class="goal">You will be able to ([^<]+)</p></li>', page)
    assert [(int(n), href) for n, href, *_ in items] == [
        (number(p), f"{p.stem}.html") for p in NOTEBOOKS]
    assert items[1][2] == "Lesson 1: Tapping, untapping and summoning sickness"
    assert '<a class="button" href="00_start_here.html">Start here: how to use rulekit</a>' in page
    total = sum(int(m) for *_, m, _goal in items)
    assert f"About {total // 60} h {total % 60:02d} min in all." in page
    assert f'href="{TEACHERS}"' in page and 'href="cards.html"' in page
    assert "<table" not in page and "Start the live sandbox" in page
    assert "need a running kernel" not in page


def test_the_teachers_page_has_the_plan_present_printing_and_the_coverage_table():
    page = render_teachers(report(), coverage())
    assert page.count('<tr><th scope="row"><a href="') == len(NOTEBOOKS)  # the plan
    assert "R07: Paying {T}" in page  # each lesson's rulings by topic
    assert '<tr id="R07">' in page and "1 test</summary>" in page  # the coverage table
    for heading in ("Planning a class", "Projecting a walkthrough", "Printing",
                    "Rulings and where they are covered"):
        assert f"<h2>{heading}</h2>" in page
    assert "<kbd>Esc</kbd>" in page and "Presentation Mode" in page
    assert "<script" not in page


def _card(name: str, scenarios: int = 1, cost: str = "{1}") -> CardEntry:
    return CardEntry(name=name, mana_cost=cost, type_line="Artifact", oracle="{T}: Add {C}.",
                     power_toughness="", token=False,
                     lessons=("05_powerstone_tokens", "09_unbuilt_lesson"),
                     scenarios=tuple(f"s{i}" for i in range(scenarios)))


def test_the_cards_page_names_lessons_by_title_and_filters_without_a_kernel():
    titles = {"05_powerstone_tokens": "Lesson 5: Powerstone tokens"}
    page = render_cards([_card("Exotic Orchard", scenarios=20), _card("Wastes", cost="")],
                        titles)
    assert '<th scope="row">Exotic Orchard</th>' in page
    assert '<a href="05_powerstone_tokens.html">Lesson 5: Powerstone tokens</a>' in page
    assert "<li>Lesson 9: unbuilt lesson</li>" in page  # not built: named, not linked
    assert ">05_powerstone_tokens<" not in page
    assert "<summary>used in 20 scenarios</summary>" in page
    many = render_cards([CardEntry(name="Island", mana_cost="", type_line="Land", oracle="",
                                   power_toughness="", token=False, scenarios=(),
                                   lessons=tuple(f"0{i}_x" for i in range(1, 6)))], {})
    assert "<summary>in 5 lessons</summary>" in many
    assert page.count("<code>s0</code>") == 2 and SCENARIOS_SHOWN < 20
    assert '<span class="cost">{1}</span>' in page and '<span class="cost"></span>' not in page
    # names and types break only between words; a phone gets one block per card
    assert "anywhere" not in page and "@media (max-width: 700px)" in page
    assert 'data-label="Oracle text"' in page
    # the filter: a labelled search box, hidden until the page's script shows it
    assert '<label for="card-filter">' in page and 'id="card-filter-form" role="search" hidden' \
        in page
    script = page.split("<script>", 1)[1].split("</script>", 1)[0]
    assert 'addEventListener("input"' in script and "eval(" not in script
    assert not re.search(r"\son[a-z]+=", page)  # no inline handlers


@pytest.mark.browser
@pytest.mark.notebook  # the built site
def test_course_pages_at_a_laptops_and_a_phones_size(lesson_site, browser):
    from mtg_rulekit.export.browser import open_page
    from mtg_rulekit.export.checks import axe

    site, _ = lesson_site
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for name in ("index", "teachers", "cards"):
        for width, height in ((1366, 768), (390, 844)):
            visit = open_page(browser, site / f"{name}.html", site, stepper=False,
                              viewport=(width, height))
            page = visit.page
            try:
                page.screenshot(path=str(ARTIFACTS / f"{name}-{width}.png"))
                assert axe(page) == {}, (name, width)
                assert page.evaluate("document.documentElement.scrollWidth") <= width, \
                    (name, width)  # nothing scrolls sideways but the tables' own regions
                assert visit.outside == [] and visit.console_errors == []
                if name == "teachers":
                    assert page.locator("table.rk-coverage tbody tr").count() == 19
                if name == "cards":
                    cell = page.locator('th[scope="row"]', has_text="Exotic Orchard")
                    box = cell.bounding_box()
                    assert box is not None and box["width"] > 90, box  # a name, not letters
                    lines = page.evaluate(
                        "el => { const r = document.createRange(); r.selectNodeContents(el);"
                        " return new Set([...r.getClientRects()].map(b => Math.round(b.top)))"
                        ".size; }", cell.element_handle())
                    assert lines <= 2, lines  # the name on one or two lines
                    rows = page.locator("table.cards tbody tr")
                    total = rows.count()
                    page.fill("#card-filter", "powerstone token")
                    shown = page.locator("table.cards tbody tr:not([hidden])")
                    assert 0 < shown.count() < total
                    assert all("powerstone" in t.lower() and "token" in t.lower()
                               for t in shown.evaluate_all("els => els.map(e => e.textContent)"))
                    assert page.inner_text("#card-count") == \
                        f"{shown.count()} of {total} cards shown"
                    page.screenshot(path=str(ARTIFACTS / f"cards-filtered-{width}.png"))
            finally:
                page.close()


@pytest.mark.browser
@pytest.mark.notebook  # the built site
def test_a_lesson_ends_on_the_next_and_its_contents_stay_in_view_on_a_wide_screen(
        lesson_site, browser):
    """Page to page: each lesson page ends with a link to the next lesson in the course (the
    last one's to the index), named with its title; on a wide screen (1920x1080) the page's
    contents (its walkthroughs, its questions and its sandbox) are a panel beside the page
    that stays in view as the page scrolls, outside the lesson's own column; at 1366x768
    they sit at the top of the page."""
    from mtg_rulekit.export.browser import open_page

    site, _ = lesson_site
    pages = sorted(p for p in site.glob("*.html") if number(p) is not None)
    titles = {p.name: read_outline(ROOT / "notebooks" / f"{p.stem}.ipynb").title  # type: ignore[union-attr]
              for p in pages}
    for path, then in zip(pages, [*pages[1:], None]):
        html = path.read_text("utf-8")
        end = html[html.index('class="rk-next-lesson"'):]
        if then is None:
            assert 'href="index.html"' in end[:300], path.name
        else:
            assert f'href="{then.name}" rel="next">{titles[then.name]}' in end[:400], path.name
    lesson = site / "06_slagstone_refinery.html"
    visit = open_page(browser, lesson, site, viewport=(1920, 1080))
    page = visit.page
    try:
        links = page.evaluate("() => Array.from(document.querySelectorAll('.rk-contents a'),"
                              " (a) => a.textContent)")
        assert "Sandbox" in links and len(links) >= 4, links  # 3 walkthroughs, the sandbox
        before = page.locator(".rk-contents").bounding_box()
        page.evaluate("() => window.scrollTo(0, document.body.scrollHeight / 2)")
        page.wait_for_timeout(100)
        after = page.locator(".rk-contents").bounding_box()
        main = page.locator("main .jp-Cell").first.bounding_box()
        assert before == after and after["y"] >= 0, (before, after)  # in view
        assert after["x"] + after["width"] <= main["x"], (after, main)  # beside the page
        page.screenshot(path=str(ARTIFACTS / "contents-1920.png"))
        page.locator(".rk-contents a").nth(2).click()  # the third walkthrough (its questions)
        page.wait_for_timeout(100)
        third = page.locator(".rk-view[data-rk-view='stepper']").nth(2)
        assert abs(third.bounding_box()["y"]) < 50
        page.set_viewport_size({"width": 1366, "height": 768})
        page.evaluate("() => window.scrollTo(0, 0)")
        assert page.evaluate("() => getComputedStyle(document.querySelector('.rk-contents'))"
                             ".position") == "static"
    finally:
        page.close()
