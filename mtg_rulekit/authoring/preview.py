"""`python -m mtg_rulekit preview FILE [--out DIR] [--open] [--watch]`: one scenario as a lesson page,
in seconds and without a kernel, to look at while writing it.

The page is the lesson page's own template and walkthrough (`mtg_rulekit.export.lesson`: the same
stepper module, board, diagram, questions and teacher's notes, the same security policy), with
the scenario's title and description above it and, below it, every question (its choices and
the engine's answer) and every note, step by step. It is written whole to `DIR/<name>.html`
(default `build/preview/`), so a browser reload never sees half of it. `--watch` writes it again
each time the file is saved; a save that breaks the file keeps the last good page and says why.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mtg_rulekit.scenario import Scenario

__all__ = ["DEFAULT_OUT", "Preview", "page_html", "stamp", "watch", "write"]

DEFAULT_OUT = Path("build") / "preview"
POLL_S = 0.3  # how often --watch looks at the file


@dataclass(frozen=True)
class Preview:
    page: Path
    title: str
    steps: int
    questions: int
    seconds: float


def _questions_html(scenario: Scenario, results: list[Any]) -> str:
    """Every question and note of the walkthrough, step by step, as the teacher checks them."""
    items = []
    for r in results[1:]:
        parts = []
        q = r.question
        if q is not None:
            choices = "".join(f"<li>{escape(label)}{' ✓' if i == q.correct else ''}</li>"
                              for i, label in enumerate(q.labels))
            rules = f" (CR {escape(', '.join(q.rules))})" if q.rules else ""
            why = f" {escape(q.why)}" if q.why else ""
            parts.append(f"<p><b>Asked before the step:</b> {escape(q.ask)}</p>"
                         + (f"<ul>{choices}</ul>" if choices else "")
                         + f"<p><b>The engine's answer:</b> "
                           f"{escape(q.answer_label)}{rules}.{why}</p>")
        if r.notes.strip():
            parts.append("<p><b>Notes for the teacher:</b></p><blockquote>"
                         + "".join(f"<p>{escape(p)}</p>" for p in r.notes.strip().split("\n\n"))
                         + "</blockquote>")
        if parts:
            items.append(f"<section><h3>Step {r.number}</h3><p>{escape(r.narration)}</p>"
                         + "".join(parts) + "</section>")
    if not items:
        return ("<p>This walkthrough asks no question and has no notes (docs/scenarios.md, "
                "\"Questions\" and \"Steps\").</p>")
    return "".join(items)


def page_html(path: Path) -> tuple[str, Scenario, list[Any]]:
    """The preview page of the scenario file `path`, with the scenario and its results.
    Raises `ScenarioError` for a file that can't be used."""
    import nbformat

    from mtg_rulekit.display.walkthrough.frames import StepFrames
    from mtg_rulekit.export.csp import secure
    from mtg_rulekit.export.lesson import (
        TEMPLATE,
        TEMPLATES,
        exporter,
        untab_prose,
        views_resources,
    )
    from mtg_rulekit.export.views import VIEWS, contents, view_html
    from mtg_rulekit.scenario import load

    scenario = load(path)
    frames = StepFrames(scenario)
    data = frames.data()
    traits = {k: data[k] for k in VIEWS["stepper"] if k in data}
    traits["step"] = 0
    md, code = nbformat.v4.new_markdown_cell, nbformat.v4.new_code_cell
    view = code("", outputs=[nbformat.v4.new_output(
        "display_data", data={"text/html": view_html("stepper", traits, str(data["slug"]))})])
    rulings = f" Rulings: {', '.join(scenario.rulings)}." if scenario.rulings else ""
    steps = len(frames.results) - 1
    nb = nbformat.v4.new_notebook(cells=[
        md(f"# Preview: {_md(scenario.title)}\n\n{_md(' '.join(scenario.description.split()))}"),
        md(f"*A preview of {_md(path.name)}: {steps} step(s).{_md(rulings)} Step through it as "
           "the class will; press **N** for your notes. The lesson pages come from `make "
           "lessons`.*"),
        view,
        md("## The questions and notes, step by step"),
        code("", outputs=[nbformat.v4.new_output(
            "display_data", data={"text/html": _questions_html(scenario, frames.results)})]),
    ])
    nb.metadata["title"] = f"Preview: {scenario.title}"
    css = (TEMPLATES / TEMPLATE / "rulekit.css").read_text("utf-8")
    resources = {"metadata": {"name": nb.metadata["title"]}, "rulekit_css": css,
                 "rulekit_views": views_resources({"stepper"}), "rulekit_cdn_note": "",
                 "rulekit_quiz": "", "rulekit_contents": contents(nb), "rulekit_next": None,
                 "rulekit_standalone": True,  # no index: a preview is a page on its own
                 "rulekit_lab_css": []}
    # no widget manager, no require.js: the walkthrough is the page host's own view
    page, _ = exporter("").from_notebook_node(nb, resources=resources)
    return secure(untab_prose(page)), scenario, frames.results


def _md(text: str) -> str:
    from mtg_rulekit.display.escape import markdown_text

    return markdown_text(text)


def write(path: Path, out: Path = DEFAULT_OUT) -> Preview:
    """Write the preview page of `path` to `out/<name>.html` (whole or not at all)."""
    from mtg_rulekit.export.ownership import write_atomic

    started = time.perf_counter()
    html, scenario, results = page_html(path)
    out.mkdir(parents=True, exist_ok=True)
    page = out / f"{path.stem}.html"
    write_atomic(page, html)
    return Preview(page, scenario.title, len(results) - 1,
                   sum(r.question is not None for r in results), time.perf_counter() - started)


def stamp(path: Path) -> tuple[int, int] | None:
    """What tells a saved file from the one read before: its modification time and size."""
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


def watch(path: Path, out: Path, say: Callable[[str], None], *,
          since: tuple[int, int] | None = None, once: bool = False) -> None:
    """Write the preview again each time `path` changes (`stamp`), until interrupted; a failed
    write says why and keeps the last good page. `since`: the file's stamp when the page was
    last written (default: now), so a save made meanwhile is not missed. `once`: return after
    the first rewrite (tests)."""
    from mtg_rulekit.core.errors import ScenarioError

    seen = since if since is not None else stamp(path)
    while True:
        time.sleep(POLL_S)
        now = stamp(path)
        if now == seen or now is None:
            continue
        seen = now
        try:
            made = write(path, out)
        except ScenarioError as err:
            say(f"{err} (the last good page stays)")
        except OSError as err:
            say(f"can't write the preview: {err} (the last good page stays)")
        else:
            say(f"rewrote {made.page} in {made.seconds:.1f} s: reload the page")
        if once:
            return
