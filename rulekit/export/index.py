"""`site/index.html`: the lessons and the rulings coverage table (R01-R19 -> lessons, tests,
diagrams), from `rulekit.repo.coverage.coverage()`. Every piece of text is HTML-escaped."""

from __future__ import annotations

import re
import shutil
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING

from rulekit.export.ownership import GENERATOR_TAG

if TYPE_CHECKING:
    from rulekit.export import BuildReport
    from rulekit.repo.coverage import Section

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
td code { font-size: 14px; word-break: break-all; } td ul { margin: 0; padding-left: 1.1em; }
.missing { color: #a00; font-weight: 600; }
.note { background: #fff4d6; border-left: 6px solid #b35900; padding: .5em .9em; }
details summary { cursor: pointer; }
.wide { max-width: 100%; overflow-x: auto; }
@media (max-width: 600px) { main { padding: .5rem .5rem 2rem; } td code { font-size: 13px; } }
"""

_MD = re.compile(r"[*_`#]")


def _norm(text: str) -> str:
    return " ".join(_MD.sub("", text).split()).lower()


def _lesson_link(entry: Section, pages: dict[str, dict[str, object]]) -> str:
    """A lesson section that covers a ruling as a link to it."""
    stem = entry.stem
    page = pages.get(stem)
    label = f"{entry.title}: {entry.heading.text}"  # the lesson's title, not its file
    if page is None:
        return f'{escape(label)} <span class="missing">(page not built)</span>'
    anchor = ""
    want = _norm(entry.heading.text)
    for hid, text in page.get("headings", []):  # type: ignore[attr-defined]
        if _norm(str(text)) == want:
            anchor = str(hid)
            break
    href = f"{stem}.html" + (f"#{anchor}" if anchor else "")
    return f'<a href="{escape(href)}">{escape(label)}</a>'


def _list(items: list[str], *, limit: int = 0, what: str = "") -> str:
    if not items:
        return '<span class="missing">none yet</span>'
    lis = "".join(f"<li>{i}</li>" for i in items)
    if limit and len(items) >= limit:
        return (f"<details><summary>{len(items)} {escape(what)}</summary><ul>{lis}</ul>"
                "</details>")
    return f"<ul>{lis}</ul>"


def _tests(tests: list[str]) -> str:
    return "test" if len(tests) == 1 else "tests"


def render(report: BuildReport, coverage: list, diagram_root: Path | None) -> str:
    pages = {str(e["stem"]): e for e in report.lessons}
    lesson_items = []
    for e in report.lessons:
        stem = str(e["stem"])
        ids = [str(i) for i in e.get("rulings", [])]  # type: ignore[attr-defined]
        tail = f' <span class="rulings">({escape(", ".join(ids))})</span>' if ids else ""
        # numbered as the lessons are (00_start_here is lesson 0)
        number = re.match(r"(\d+)", stem)
        value = f' value="{int(number.group(1))}"' if number else ""
        lesson_items.append(f'<li{value}><a href="{escape(stem)}.html">'
                            f'{escape(str(e["title"]))}</a>{tail}</li>')
    rows = []
    for c in coverage:
        r = c.ruling
        lessons = [_lesson_link(x, pages) for x in c.lessons]
        tests = [f"<code>{escape(t)}</code>" for t in c.tests]
        diagrams = []
        for d in c.diagrams:
            name = Path(d).name
            if diagram_root is not None and (diagram_root / "diagrams" / name).is_file():
                diagrams.append(f'<a href="diagrams/{escape(name)}">{escape(name)}</a>')
            else:
                diagrams.append(escape(d))
        rows.append(
            f'<tr id="{escape(r.id)}"><th scope="row">{escape(r.id)}</th>'
            f"<td>{escape(r.topic)}<br><small>CR {escape(', '.join(r.rules))}</small></td>"
            f"<td>{_list(lessons)}</td><td>{_list(tests, limit=1, what=_tests(tests))}</td>"
            f"<td>{_list(diagrams)}</td></tr>")
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
<table>
<thead><tr><th scope="col">Ruling</th><th scope="col">Topic and rules</th>
<th scope="col">Lessons</th><th scope="col">Tests</th><th scope="col">Diagrams</th></tr></thead>
<tbody>
{"".join(rows)}
</tbody>
</table>
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
                shutil.copyfile(src, dest / src.name)
    path = out / "index.html"
    path.write_text(render(report, cov, root), "utf-8")
    return path
