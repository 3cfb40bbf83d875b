"""`site/index.html`: the lessons and the rulings coverage table (R01-R19 -> lessons,
walkthroughs, tests, diagrams; `rulekit.display.coverage_table`, the same table as the
`00_start_here` lesson's). Every piece of text is HTML-escaped."""

from __future__ import annotations

import re
from collections.abc import Sequence
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

from rulekit.display.coverage_table import Targets, rows, table_html
from rulekit.export.ownership import GENERATOR_TAG, write_atomic

if TYPE_CHECKING:
    from rulekit.export import BuildReport
    from rulekit.repo.coverage import Coverage

CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
  font-size: 20px; line-height: 1.5; color: #111; background: #fff; margin: 0; }
main { max-width: 1280px; margin: 0 auto; padding: 1rem 1.2rem 3rem; }
h1 { font-size: 2.1em; margin: .3em 0; } h2 { font-size: 1.5em; border-bottom: 2px solid #ddd; }
a { color: #0b4f9c; } a:focus-visible { outline: 3px solid #e66100; outline-offset: 2px; }
ol.lessons li { margin: .35em 0; } .rulings { color: #444; font-size: .85em; }
table { border-collapse: collapse; width: 100%; font-size: 17px; }
th, td { border: 1px solid #bbb; padding: .35em .5em; text-align: left; vertical-align: top; }
th { background: #eef2f7; } tr:nth-child(even) td { background: #fafafa; }
td code { font-size: 14px; overflow-wrap: break-word; } td ul { margin: 0; padding-left: 1.1em; }
.missing { color: #a00; font-weight: 600; }
.note { background: #fff4d6; border-left: 6px solid #b35900; padding: .5em .9em; }
details summary { cursor: pointer; }
.wide { max-width: 100%; overflow-x: auto; }
@media (max-width: 600px) { main { padding: .5rem .5rem 2rem; } td code { font-size: 13px; } }
"""


def render(report: BuildReport, coverage: Sequence[Coverage], link_diagrams: bool = True) -> str:
    """The index page: the lessons built (`report.lessons`) and the coverage table, whose
    lesson links go to the built pages and diagram links (if `link_diagrams`) to `diagrams/`."""
    lesson_items = []
    for e in report.lessons:
        stem = str(e["stem"])
        ids = [str(i) for i in e.get("rulings", [])]  # type: ignore[attr-defined]
        tail = f' <span class="rulings">({escape(", ".join(ids))})</span>' if ids else ""
        # numbered as the lessons are (00_start_here is lesson 0)
        number = re.match(r"(\d+)", stem)
        value = f' value="{int(number.group(1))}"' if number else ""
        # percent-encoded: a newline or `#` in a notebook's name can't break the link
        lesson_items.append(f'<li{value}><a href="{escape(quote(stem + ".html"))}">'
                            f'{escape(str(e["title"]))}</a>{tail}</li>')
    targets = Targets(lesson_ext="html", diagrams_url="diagrams/" if link_diagrams else None,
                      built=frozenset(str(e["stem"]) for e in report.lessons))
    table = table_html(rows(coverage, targets))
    note = f'<p class="note">{escape(report.widgets_note)}</p>' if report.widgets_note else ""
    if report.sandbox_note:
        note += f'<p class="note">{escape(report.sandbox_note)}</p>'
    sandboxes = "The sandboxes need a running kernel: open the notebooks in JupyterLab for those."
    if report.live:
        sandboxes = ('Each lesson\'s sandbox also runs in the page: press <em>Start the live '
                     'sandbox</em> (the real rules engine, in the browser, offline; '
                     '<a href="_static/sandbox/LICENSES.txt">licences of its files</a>).')
    lessons_html = (f'<ol class="lessons">{"".join(lesson_items)}</ol>' if lesson_items
                    else '<p class="missing">No lessons built yet.</p>')
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
{GENERATOR_TAG}
<title>rulekit lessons</title>
<style>{CSS}</style>
</head>
<body>
<main>
<h1>rulekit lessons</h1>
<p>Magic: The Gathering rules that trip players up, one lesson per topic. Step each walkthrough
forward and back with its slider, its number box (arrow keys) or <em>Play</em>: no Python needed.
{sandboxes}
<a href="cards.html">The cards</a> lists every card the lessons and scenarios can use, with its
Oracle text.</p>
{note}
<h2>Lessons</h2>
{lessons_html}
<h2>Rulings and where they are covered</h2>
<div class="wide">
{table}
</div>
</main>
</body>
</html>
"""


def load_coverage() -> list:
    """`rulekit.repo.coverage.coverage()` for the checkout (loads every shipped scenario)."""
    from rulekit.repo.coverage import coverage, repo_root

    return coverage(repo_root())


def write_index(out: Path, report: BuildReport, cov: list | None = None) -> Path:
    """Write `out/index.html` (and copy the diagrams it links into `out/diagrams/`)."""
    from rulekit.repo.coverage import repo_root

    root = repo_root()
    cov = load_coverage() if cov is None else cov
    dest = out / "diagrams"
    for c in cov:
        for d in c.diagrams:
            src = root / d
            if src.is_file():
                dest.mkdir(parents=True, exist_ok=True)
                data = src.read_bytes()
                target = dest / src.name
                if not target.is_file() or target.read_bytes() != data:
                    write_atomic(target, data)
    path = out / "index.html"
    write_atomic(path, render(report, cov))
    return path
