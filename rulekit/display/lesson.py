"""Tiny helpers the lesson notebooks call, so the notebooks stay a few lines each.

- `stepper(name)` / `sandbox(board)`: the lesson widgets (see `rulekit.display.widgets`);
- `show_rulings_table()`: the rulings R01-R19 with links to their lessons, their tests,
  scenarios and diagrams — generated from `rulekit.repo.coverage.coverage()`, never typed
  (the same table as the site's index: `rulekit.display.coverage_table`);
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
    from rulekit.core.rulings import ruling

    rows = "".join(
        f"<tr><th scope='row' style='padding:6px 10px;text-align:left;vertical-align:top'>"
        f"{html_text(r.id)}</th><td style='{_CELL}'><b>{html_text(r.topic)}</b>. "
        f"{html_text(r.plain)}</td><td style='{_CELL};white-space:nowrap'>"
        f"{'<br>'.join(html_text('CR ' + n) for n in r.rules)}</td></tr>"  # one per line: narrow
        for r in (ruling(i) for i in ids))
    return HTML(f"<table class='rk-rulings' style='{_BOX};border-collapse:collapse;"
                "border:2px solid #1b1b1b'><caption style='text-align:left;font-weight:bold;"
                f"font-size:20px'>Rulings in this lesson</caption><tbody>{rows}</tbody></table>")


# inline: a notebook's output is reached by no style sheet (see rulekit.display.coverage_table)
_TABLE_STYLE = {
    "table": f"{_BOX};border-collapse:collapse",
    "caption": "text-align:left;font-weight:bold;font-size:20px;padding:4px 0",
    "col": f"{_CELL};border:1px solid #555;vertical-align:top;background:#1b1b1b;color:#fff",
    "cell": f"{_CELL};border:1px solid #555;vertical-align:top",
    "list": "margin:0;padding-left:1.1em",
    "code": "font-size:14px;overflow-wrap:break-word",
    "missing": "color:#a00000;font-weight:bold",
}


def rulings_table_html(root: Path | None = None) -> str:
    """The coverage table (`rulekit.display.coverage_table`) for a notebook: links to the
    lessons' `.ipynb` sections and to `../diagrams/` (or where `RULEKIT_LESSON_EXT` and
    `RULEKIT_DIAGRAMS_URL` say, when the site build executes the notebook)."""
    from rulekit.display.coverage_table import Targets, rows, table_html
    from rulekit.repo.coverage import coverage

    targets = Targets(lesson_ext=os.environ.get("RULEKIT_LESSON_EXT", "ipynb"),
                      diagrams_url=os.environ.get("RULEKIT_DIAGRAMS_URL", "../diagrams/"))
    return table_html(rows(coverage(root), targets), style=_TABLE_STYLE, caption=(
        "The rulings R01-R19 and where the kit covers each one (generated by "
        "rulekit.repo.coverage.coverage())"))


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
