"""The rulings coverage table (`mtg_rulekit.display.tables.coverage`): one set of rows and one
renderer for the start-here notebook and the site's index, which differ only in their link
targets and in where the table's style comes from."""

from __future__ import annotations

from html.parser import HTMLParser

from mtg_rulekit.core.rulings import Ruling
from mtg_rulekit.display.escape import clean
from mtg_rulekit.display.tables.coverage import COLUMNS, Link, Targets, rows, table_html
from mtg_rulekit.repo.coverage import Coverage, Section
from mtg_rulekit.repo.outline import Heading

HOSTILE = ['<script>alert("x")</script>', "it's & <b>bold</b>", "\" onmouseover='x'",
           "back\\slash # *star* {T}", "ünïcödé ✓ \u202eevil", "&amp; &lt;i&gt;"]


def _coverage(text: str = "Tapping") -> list[Coverage]:
    return [
        Coverage(Ruling("R04", "Tapped for mana", text, ("106.12", "605.1a"), ""),
                 tests=["tests/test_a.py::test_one", "tests/test_a.py::test_two"],
                 lessons=[Section("notebooks/03_mana.ipynb", "Lesson 3: Mana",
                                  Heading(2, '"Tapped *for* mana" (R04)'))],
                 diagrams=["diagrams/R04-a b.svg"], scenarios=["mtg_rulekit/scenarios/r04_x.toml"]),
        Coverage(Ruling("R05", "Replacements", text, ("614.1",), "")),
    ]


def test_rows_hold_the_cells_and_the_links_the_targets_say():
    notebook, site = rows(_coverage()), rows(_coverage(), Targets(
        lesson_ext="html", diagrams_url="diagrams/", built=frozenset({"00_start_here"})))
    r04 = notebook[0]
    assert (r04.id, r04.rules, r04.walkthroughs) == ("R04", ("106.12", "605.1a"), ("r04_x.toml",))
    assert r04.tests == ("tests/test_a.py::test_one", "tests/test_a.py::test_two")
    # the lesson's title and the section as it reads; the link lands on the section's id
    assert r04.lessons == (Link('Lesson 3: Mana: "Tapped for mana" (R04)',
                                "03_mana.ipynb#%22Tapped-for-mana%22-(R04)"),)
    assert r04.diagrams == (Link("R04-a b.svg", "../diagrams/R04-a%20b.svg"),)
    assert site[0].lessons == (Link('Lesson 3: Mana: "Tapped for mana" (R04)', None),)  # not built
    assert site[0].diagrams == (Link("R04-a b.svg", "diagrams/R04-a%20b.svg"),)
    built = rows(_coverage(), Targets(lesson_ext=".html", built=frozenset({"03_mana"})))
    assert built[0].lessons[0].href == "03_mana.html#%22Tapped-for-mana%22-(R04)"
    unlinked = rows(_coverage(), Targets(diagrams_url=None))
    assert unlinked[0].diagrams == (Link("diagrams/R04-a b.svg", None),)
    assert notebook[1].lessons == notebook[1].tests == notebook[1].diagrams == ()


def test_table_shows_a_test_count_that_opens_the_tests_and_marks_gaps():
    page = table_html(rows(_coverage()))
    assert "".join(f'<th scope="col">{c}</th>' for c in COLUMNS) in page
    assert '<tr id="R04"><th scope="row">R04</th>' in page
    assert ("<td><details><summary>2 tests</summary><ul><li><code>"  # breaks only between words
            "tests/<wbr>test_<wbr>a.<wbr>py::<wbr>test_<wbr>one</code>" in page)
    assert '<a href="03_mana.ipynb#%22Tapped-for-mana%22-(R04)">' in page
    r05 = page.split('<tr id="R05">', 1)[1]
    assert r05.count('<span class="missing">none yet</span>') == 4  # lessons, walkthroughs, ...
    assert "style=" not in page and "<caption" not in page
    site = table_html(rows(_coverage(), Targets(built=frozenset())))
    assert 'Lesson 3: Mana: &quot;Tapped for mana&quot; (R04) <span class="missing">' \
           "(page not built)</span>" in site


def test_style_goes_inline_where_no_style_sheet_reaches():
    page = table_html(rows(_coverage()), caption="Where each ruling is covered",
                      style={"cell": "padding:6px", "missing": "color:#a00000"})
    assert '<caption>Where each ruling is covered</caption>' in page
    assert '<th scope="row" style="padding:6px">R04</th>' in page
    assert '<td style="padding:6px"><b>Tapped for mana</b>' in page
    assert '<span class="missing" style="color:#a00000">none yet</span>' in page
    assert '<th scope="col">Ruling</th>' in page  # a part without a style gets no attribute


class _Parts(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: set[str] = set()
        self.attrs: set[str] = set()
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        self.attrs |= {a for a, _ in attrs}

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def test_every_text_is_escaped():
    for text in HOSTILE:
        cov = [Coverage(Ruling("R01", text, text, (text,), ""), tests=[text],
                        lessons=[Section(f"notebooks/{text}.ipynb", text, Heading(2, text))],
                        diagrams=[f"diagrams/{text}.svg"], scenarios=[f"{text}.toml"])]
        for targets in (Targets(), Targets(diagrams_url=None, built=frozenset())):
            page = table_html(rows(cov, targets), caption=text, style={"table": text})
            parts = _Parts()
            parts.feed(page)
            assert parts.tags <= {"table", "caption", "thead", "tbody", "tr", "th", "td", "b",
                                  "br", "small", "ul", "li", "a", "code", "span", "details",
                                  "summary", "wbr"}, text
            assert parts.attrs <= {"class", "style", "id", "scope", "href"}, text
            assert "<script" not in page
            assert clean(text) in "".join(parts.text), text
