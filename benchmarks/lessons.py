"""Lesson benchmarks: p3 (building the lessons against building empty notebooks), p4 (a sandbox
click against one `dot` render), p5 (exported page size, time to a usable stepper in Chromium,
requests outside the site)."""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

import nbformat

from rulekit.export import build, lesson_paths

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"


def _quiet(_line: str) -> None:
    pass


def empty_notebooks(folder: Path, count: int) -> Path:
    """`count` notebooks of one empty code cell each (what a build can't go below)."""
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(count):
        nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("")])
        nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                     "language": "python"}
        nb.cells[0].id = "empty"
        nbformat.write(nb, folder / f"{i:02d}_empty.ipynb")
    return folder


def build_ratio(runs: int = 5, work: Path | None = None) -> dict[str, object]:
    """p3: build every lesson / build as many empty notebooks, the same way (same build code,
    no cache, default worker count), alternating, `runs` times each. Returns the ratio of the
    medians, the raw seconds and the folder of the last lesson build (for p5)."""
    work = work or Path(tempfile.mkdtemp(prefix="rulekit-bench-"))
    count = len(lesson_paths(NOTEBOOKS))
    if count == 0:
        return {"ratio": None, "note": "no lessons in notebooks/"}
    empty = empty_notebooks(work / "empty-notebooks", count)
    lessons_s, empty_s = [], []
    site = work / "site-lessons"
    for i in range(runs):
        for label, folder, out, times in (("lessons", NOTEBOOKS, site, lessons_s),
                                          ("empty", empty, work / "site-empty", empty_s)):
            start = time.perf_counter()
            report = build(folder, out, force=True, echo=_quiet)
            times.append(time.perf_counter() - start)
            if not report.ok:
                raise RuntimeError(f"p3: the {label} build failed: {report.failures[0].error}")
            print(f"  p3 run {i + 1}/{runs}: {label} {times[-1]:.1f} s", flush=True)
    return {"ratio": statistics.median(lessons_s) / statistics.median(empty_s),
            "lessons_s": lessons_s, "empty_s": empty_s, "notebooks": count, "site": site,
            "offline": report.offline}


def click_ratio(runs: int = 7) -> dict[str, object]:
    """p4: one sandbox action as the kernel handles it (the Sandbox widget's "Tap for mana":
    engine action, tables, diagram re-render) / one `dot` render of the diagram it draws.
    Measured in this process on the widget objects (no Jupyter messaging), alternating."""
    from rulekit.display.dot import log_diagram, render_svg
    from rulekit.display.widgets import Sandbox

    sandbox = Sandbox("r05_replacement_modifies_production")
    game = sandbox.game
    land = next(o for o in game.permanents("Alice")
                if game.chars(o).is_a("Land") and not o.tapped)
    click_s, dot_s = [], []
    for _ in range(runs + 1):  # the first pair warms up (imports, caches) and is dropped
        sandbox.permanent.value = land.id
        start = time.perf_counter()
        sandbox.tap_button.click()
        click = time.perf_counter() - start
        assert sandbox.last_error is None, sandbox.last_error
        n = len(game.actions)
        graph = log_diagram(game, since_action=max(sandbox._start + 1, n - sandbox.history + 1))
        start = time.perf_counter()
        render_svg(graph)
        dot = time.perf_counter() - start
        click_s.append(click)
        dot_s.append(dot)
        sandbox.undo_button.click()
    click_s, dot_s = click_s[1:], dot_s[1:]
    return {"ratio": statistics.median(click_s) / statistics.median(dot_s),
            "click_s": click_s, "dot_s": dot_s, "action": f"tap {game.chars(land).name} "
            "for mana in Sandbox('r05_replacement_modifies_production')"}


def page_figures(site: Path, loads: int = 5) -> dict[str, object]:
    """p5: the largest lesson page (without the shared _static/ assets), in KB; each lesson
    page opened `loads` times in headless Chromium from file:// with everything outside the
    site blocked: time until its stepper and first diagram show, and requests outside the
    site."""
    from rulekit.export.browser import chromium, open_page

    pages = sorted(p for p in site.glob("*.html") if p.name != "index.html")
    sizes = {p.name: p.stat().st_size for p in pages}
    load_s: dict[str, list[float]] = {}
    outside: list[str] = []
    with chromium() as browser:
        for _ in range(loads):
            for page in pages:
                stepper = "rk-stepper" in page.read_text("utf-8")
                visit = open_page(browser, page, site, stepper=stepper)
                outside += visit.outside
                if stepper:
                    load_s.setdefault(page.name, []).append(visit.load_s or 0.0)
                visit.page.close()
    medians = {name: statistics.median(v) for name, v in load_s.items()}
    return {"page_kb": max(sizes.values()) / 1024 if sizes else None,
            "load_s": max(medians.values()) if medians else None,
            "requests": len(outside), "sizes_bytes": sizes, "load_s_by_page": load_s,
            "load_median_by_page": medians, "outside": outside}
