"""The rulings coverage table (R01-R19 -> lesson sections, walkthroughs, tests, diagrams), built
once for its two places: the `00_start_here` notebook (`mtg_rulekit.display.lesson.
show_rulings_table`) and the site's `index.html` (`mtg_rulekit.export.index`).

`rows()` turns `mtg_rulekit.repo.coverage.coverage()` into the table's cells and link targets as
plain data; `table_html()` writes them. What differs between the two places is given, not
coded twice: where links point (`Targets`: `.ipynb` or `.html` lessons, the diagrams folder,
which lesson pages exist) and how the table is styled (inline styles for a notebook output,
which no style sheet reaches; the page's style sheet on the site). Every text is escaped.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

from mtg_rulekit.display.escape import html_text

if TYPE_CHECKING:
    from mtg_rulekit.repo.coverage import Coverage

__all__ = ["COLUMNS", "Link", "Row", "Targets", "rows", "table_html"]

_BREAKS = re.compile(r"(::|[_/.](?!$))")
_WBR = r"\1<wbr>"
COLUMNS = ("Ruling", "What it says", "Lessons", "Walkthroughs", "Tests", "Diagrams")


@dataclass(frozen=True)
class Targets:
    """Where the table's links point."""
    lesson_ext: str = "ipynb"  # a lesson is `<stem>.<lesson_ext>`: "ipynb" in JupyterLab, "html"
    diagrams_url: str | None = "../diagrams/"  # prefix of a diagram's file name; None: no links
    built: frozenset[str] | None = None  # stems of the lesson pages that exist; None: all do


@dataclass(frozen=True)
class Link:
    text: str
    href: str | None  # None: there is nothing to link to (the text is shown as it is)


@dataclass(frozen=True)
class Row:
    """One ruling's cells."""
    id: str
    topic: str
    plain: str  # the ruling in our own words
    rules: tuple[str, ...]  # CR numbers
    lessons: tuple[Link, ...]  # "Lesson title: section heading" -> the section
    walkthroughs: tuple[str, ...]  # scenario file names
    tests: tuple[str, ...]  # pytest node ids
    diagrams: tuple[Link, ...]  # file name -> the SVG


def rows(coverage: Sequence[Coverage], targets: Targets = Targets()) -> list[Row]:
    """The table's rows, one per ruling of `coverage`, with links as `targets` says."""
    ext = targets.lesson_ext.lstrip(".")
    out = []
    for c in coverage:
        lessons = tuple(
            Link(f"{s.title}: {s.heading.text}",
                 None if targets.built is not None and s.stem not in targets.built
                 else f"{quote(s.stem)}.{ext}#{s.heading.anchor}")
            for s in c.lessons)
        diagrams = tuple(
            Link(Path(d).name, targets.diagrams_url + quote(Path(d).name)) if targets.diagrams_url
            is not None else Link(d, None) for d in c.diagrams)
        r = c.ruling
        out.append(Row(r.id, r.topic, r.plain, tuple(r.rules), lessons,
                       tuple(Path(s).name for s in c.scenarios), tuple(c.tests), diagrams))
    return out


def table_html(table: Sequence[Row], *, caption: str = "",
               style: Mapping[str, str] | None = None) -> str:
    """The rows as an HTML table (class `rk-coverage`, a row's id is its ruling's id), with
    `caption` (text) if given. `style`:
    inline CSS per part, for where no style sheet reaches: "table", "caption", "col" (column
    headers), "cell" (every other cell), "list", "code", "missing" (the "none yet" marks)."""
    style = style or {}

    def attr(part: str) -> str:
        return f' style="{html_text(style[part])}"' if style.get(part) else ""

    def items(parts: Sequence[str]) -> str:
        if not parts:
            return f'<span class="missing"{attr("missing")}>none yet</span>'
        return f"<ul{attr('list')}>" + "".join(f"<li>{p}</li>" for p in parts) + "</ul>"

    def link(item: Link) -> str:
        if item.href is None:
            return (f'{html_text(item.text)} <span class="missing"{attr("missing")}>'
                    "(page not built)</span>")
        return f'<a href="{html_text(item.href)}">{html_text(item.text)}</a>'

    def code(text: str) -> str:  # file names and test ids: may break after _ / . ::
        return f"<code{attr('code')}>{_BREAKS.sub(_WBR, html_text(text))}</code>"

    td = f"<td{attr('cell')}>"
    body = []
    for r in table:
        n = len(r.tests)
        tests = (f"<details><summary>{n} test{'s' if n != 1 else ''}</summary>"
                 f"{items([code(t) for t in r.tests])}</details>" if r.tests else items([]))
        diagrams = [link(d) if d.href else code(d.text) for d in r.diagrams]
        body.append(
            f'<tr id="{html_text(r.id)}"><th scope="row"{attr("cell")}>{html_text(r.id)}</th>'
            f"{td}<b>{html_text(r.topic)}</b><br>{html_text(r.plain)}<br>"
            f"<small>CR {html_text(', '.join(r.rules))}</small></td>"
            f"{td}{items([link(x) for x in r.lessons])}</td>"
            f"{td}{items([code(w) for w in r.walkthroughs])}</td>"
            f"{td}{tests}</td>{td}{items(diagrams)}</td></tr>")
    head = "".join(f'<th scope="col"{attr("col")}>{html_text(h)}</th>' for h in COLUMNS)
    cap = f"<caption{attr('caption')}>{html_text(caption)}</caption>" if caption else ""
    return (f'<table class="rk-coverage"{attr("table")}>{cap}<thead><tr>{head}</tr></thead>'
            f"<tbody>{''.join(body)}</tbody></table>")
