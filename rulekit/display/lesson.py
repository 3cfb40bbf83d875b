"""Tiny helpers the lesson notebooks call, so the notebooks stay a few lines each.

- `stepper(name)` / `sandbox(board)`: the lesson widgets (see `rulekit.display.widgets`);
- `show_rulings_table()`: the rulings R01-R19 with links to their lessons, their tests,
  scenarios and diagrams — generated from `rulekit.repo.coverage.coverage()`, never typed;
- `rulings_box(*ids)`: the rulings a lesson covers, in our own words, with CR numbers;
- `predict(question, answer_html)`: a "predict, then reveal" question as HTML `<details>`
  (reveals in any browser, no kernel needed).

Links in the rulings table point at notebooks (`.ipynb`) and at `../diagrams/`; an HTML export can
set `RULEKIT_LESSON_EXT=html` and `RULEKIT_DIAGRAMS_URL=<prefix>` while executing the notebooks
so the links match the exported site.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from rulekit.display.escape import html_text
from rulekit.scenario.model import skip_slow_optional_imports

if TYPE_CHECKING:
    from rulekit.display.widgets import Sandbox, Stepper
    from rulekit.game import Game
    from rulekit.scenario import Scenario

__all__ = ["HTML", "lessons", "predict", "rulings_box", "rulings_table_html", "sandbox",
           "show_lessons", "show_rulings_table", "stepper"]

skip_slow_optional_imports()  # a lesson kernel only needs rulekit (see the docstring)

# (no quotes inside: these go into single-quoted style attributes)
_BOX = ("font-family:DejaVu Sans,Arial,Helvetica,sans-serif;font-size:18px;line-height:1.4;"
        "color:#000;background:#fff")


class HTML:
    """HTML for Jupyter's rich display (`text/html`), also usable as a string (`str(x)`)."""

    def __init__(self, html: str) -> None:
        self.html = html

    def _repr_html_(self) -> str:
        return self.html

    def __str__(self) -> str:
        return self.html


def stepper(scenario: Scenario | str | os.PathLike[str], **kwargs: Any) -> Stepper:
    """A `Stepper` over a shipped scenario: its file name (`"r07_paying_tap"`), a path, a
    ruling id or a `Scenario`."""
    from rulekit.display.widgets import Stepper

    return Stepper(scenario, **kwargs)


def sandbox(board: Game | Scenario | str | os.PathLike[str] | None = None,
            **kwargs: Any) -> Sandbox:
    """A `Sandbox` on a `Game`, or on a fresh copy of a scenario's set-up."""
    from rulekit.display.widgets import Sandbox

    return Sandbox(board, **kwargs)


def predict(question: str, answer_html: str) -> HTML:
    """A "predict, then reveal" question: the question (escaped) as the `<summary>`, the answer
    (trusted HTML written by the lesson author) revealed by clicking. Works without a kernel."""
    return HTML(
        f"<details class='rk-predict' style='{_BOX};border:2px solid #0072b2;padding:8px 12px;"
        "margin:8px 0'><summary style='cursor:pointer'><b>Predict:</b> "
        f"{html_text(question)}</summary><div style='margin-top:8px'>{answer_html}</div>"
        "</details>")


_CELL = "padding:6px 10px;text-align:left"  # nbconvert's page style right-aligns table cells


def rulings_box(*ids: str) -> HTML:
    """The rulings a lesson covers, in our own words (`rulekit/data/rulings.toml`), with the
    Comprehensive Rules numbers each one rests on."""
    from rulekit.rulings import ruling

    rows = "".join(
        f"<tr><th scope='row' style='padding:6px 10px;text-align:left;vertical-align:top'>"
        f"{html_text(r.id)}</th><td style='{_CELL}'><b>{html_text(r.topic)}</b>. "
        f"{html_text(r.plain)}</td><td style='{_CELL};white-space:nowrap'>"
        f"{'<br>'.join(html_text('CR ' + n) for n in r.rules)}</td></tr>"  # one per line: narrow
        for r in (ruling(i) for i in ids))
    return HTML(f"<table class='rk-rulings' style='{_BOX};border-collapse:collapse;"
                "border:2px solid #1b1b1b'><caption style='text-align:left;font-weight:bold;"
                f"font-size:20px'>Rulings in this lesson</caption><tbody>{rows}</tbody></table>")


def rulings_table_html(root: Path | None = None) -> str:
    """The coverage table as HTML: one row per ruling with its topic, CR numbers, lesson
    sections (links), scenarios, tests and diagrams, all discovered by `rulekit.repo.coverage`."""
    from rulekit.repo.coverage import coverage

    ext = os.environ.get("RULEKIT_LESSON_EXT", "ipynb").lstrip(".")
    diagrams_url = os.environ.get("RULEKIT_DIAGRAMS_URL", "../diagrams/")
    cell = "padding:6px 10px;border:1px solid #555;vertical-align:top;text-align:left"
    head = "".join(f"<th scope='col' style='{cell};background:#1b1b1b;color:#fff'>{h}</th>"
                   for h in ("Ruling", "What it says", "CR", "Lesson", "Walkthroughs",
                             "Tests", "Diagram"))
    rows = []
    for cov in coverage(root):
        r = cov.ruling
        lessons = []
        for entry in cov.lessons:
            name, title = entry.stem, entry.heading.text
            href = f"{quote(name)}.{ext}#{entry.heading.anchor}"
            short = f"Lesson {int(name[:2])}" if name[:2].isdigit() else name
            lessons.append(f"<a href='{html_text(href)}' title='{html_text(name)}'>"
                           f"{html_text(short)}</a>: {html_text(title)}")
        scenarios = [html_text(Path(s).name) for s in cov.scenarios]
        tests = [html_text(t.split("::", 1)[-1]) for t in cov.tests]
        if tests:
            n = len(tests)
            test_html = (f"<details><summary>{n} test{'s' if n != 1 else ''}</summary>"
                         f"<div style='font-size:15px'>{'<br>'.join(tests)}</div></details>")
        else:
            test_html = "<b style='color:#a00000'>none yet</b>"
        diagrams = [f"<a href='{html_text(diagrams_url + Path(d).name)}'>"
                    f"{html_text(Path(d).name)}</a>" for d in cov.diagrams]
        missing = "<b style='color:#a00000'>none yet</b>"
        rows.append(
            f"<tr><th scope='row' style='{cell}'>{html_text(r.id)}</th>"
            f"<td style='{cell}'><b>{html_text(r.topic)}</b><br>{html_text(r.plain)}</td>"
            f"<td style='{cell};white-space:nowrap'>{'<br>'.join(html_text(n) for n in r.rules)}"
            f"</td><td style='{cell}'>{'<br>'.join(lessons) or missing}</td>"
            f"<td style='{cell};font-size:15px'>{'<br>'.join(scenarios) or missing}</td>"
            f"<td style='{cell}'>{test_html}</td>"
            f"<td style='{cell}'>{'<br>'.join(diagrams) or missing}</td></tr>")
    return (f"<table class='rk-coverage' style='{_BOX};border-collapse:collapse'>"
            "<caption style='text-align:left;font-weight:bold;font-size:20px;padding:4px 0'>"
            "The rulings R01-R19 and where the kit covers each one (generated by "
            "<code>rulekit.repo.coverage.coverage()</code>)</caption>"
            f"<thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>")


def lessons(root: Path | None = None) -> list[tuple[str, str, list[str]]]:
    """(notebook stem, title, ruling ids) of each lesson notebook (not `00_start_here`), from
    its outline (`rulekit.repo.outline`): the title, and the rulings its headings name."""
    from rulekit.repo.coverage import repo_root
    from rulekit.repo.outline import read_outline

    out = []
    for path in sorted(((root or repo_root()) / "notebooks").glob("*.ipynb")):
        found = None if path.stem.startswith("00") else read_outline(path)
        if found is not None:
            out.append((path.stem, found.title, list(found.rulings)))
    return out


def show_lessons(root: Path | None = None) -> HTML:
    """The lesson notebooks as a linked list with the rulings each covers (generated)."""
    ext = os.environ.get("RULEKIT_LESSON_EXT", "ipynb").lstrip(".")
    items = "".join(
        f"<li><a href='{html_text(quote(stem))}.{html_text(ext)}'>{html_text(title)}</a>"
        f"{' — ' + html_text(', '.join(ids)) if ids else ''}</li>"
        for stem, title, ids in lessons(root))
    return HTML(f"<ul class='rk-lessons' style='{_BOX}'>{items}</ul>")


def show_rulings_table(root: Path | None = None) -> HTML:
    """`rulings_table_html()` for display in a notebook (the last expression of a cell)."""
    return HTML(rulings_table_html(root))
