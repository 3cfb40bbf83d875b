"""Lesson benchmarks: p3 (building the lessons against building empty notebooks, with the floors
in between: notebooks that only import what lessons need), p4 (a sandbox
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


def one_cell_notebooks(folder: Path, count: int, source: str = "") -> Path:
    """`count` notebooks of one code cell each (`source`; empty: what a build can't go below)."""
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(count):
        nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source)])
        nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                     "language": "python"}
        nb.cells[0].id = "only"
        nbformat.write(nb, folder / f"{i:02d}_one_cell.ipynb")
    return folder


def lesson_imports(notebooks: Path = NOTEBOOKS) -> str:
    """The import lines the lessons start with (from their first code cells, in order)."""
    lines: list[str] = []
    for path in lesson_paths(notebooks):
        nb = nbformat.read(path, as_version=4)
        code = next((c.source for c in nb.cells if c.cell_type == "code"), "")
        lines += [line for line in code.splitlines() if line.startswith(("import ", "from "))]
    return "\n".join(dict.fromkeys(lines))


def floors(notebooks: Path = NOTEBOOKS) -> dict[str, tuple[str, str]]:
    """The lesson builds' floors above the empty notebooks: name -> (what, the one cell)."""
    return {
        "third_party": ("only imports pandas and ipywidgets (the brief's tables and widgets)",
                        "import pandas\nimport ipywidgets"),
        "lesson_imports": ("only runs the lessons' import lines (rulekit.display, widgets, "
                           "pandas)", lesson_imports(notebooks)),
    }


def build_ratio(runs: int = 5, work: Path | None = None,
                with_floors: bool = True) -> dict[str, object]:
    """p3: build every lesson / build as many empty notebooks, the same way (same build code,
    no cache, default worker count), alternating, `runs` times each. With `with_floors`, the
    same number of one-cell notebooks that only import what lessons need are built in the same
    rotation: how far the ratio is above 1 before any lesson does its work. Returns the ratio of
    the medians, the raw seconds, the floors and the folder of the last lesson build (for p5)."""
    work = work or Path(tempfile.mkdtemp(prefix="rulekit-bench-"))
    count = len(lesson_paths(NOTEBOOKS))
    if count == 0:
        return {"ratio": None, "note": "no lessons in notebooks/"}
    site = work / "site-lessons"
    sides: list[tuple[str, Path, Path]] = [
        ("lessons", NOTEBOOKS, site),
        ("empty", one_cell_notebooks(work / "empty-notebooks", count), work / "site-empty")]
    found = floors() if with_floors else {}
    for name, (_what, cell) in found.items():
        sides.append((name, one_cell_notebooks(work / f"{name}-notebooks", count, cell),
                      work / f"site-{name}"))
    times: dict[str, list[float]] = {label: [] for label, _, _ in sides}
    report = None
    for i in range(runs):
        for label, folder, out in sides:
            start = time.perf_counter()
            built = build(folder, out, force=True, echo=_quiet)
            times[label].append(time.perf_counter() - start)
            if not built.ok:
                raise RuntimeError(f"p3: the {label} build failed: {built.failures[0].error}")
            if label == "lessons":
                report = built
            print(f"  p3 run {i + 1}/{runs}: {label} {times[label][-1]:.1f} s", flush=True)
    empty = statistics.median(times["empty"])
    floor_figures = {name: {"what": what, "cell": cell, "seconds": times[name],
                            "ratio": statistics.median(times[name]) / empty}
                     for name, (what, cell) in found.items()}
    return {"ratio": statistics.median(times["lessons"]) / empty,
            "lessons_s": times["lessons"], "empty_s": times["empty"], "notebooks": count,
            "floors": floor_figures, "site": site,
            "offline": report.offline if report is not None else True}


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

    pages = sorted(p for p in site.glob("*.html") if p.name not in ("index.html", "cards.html"))
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
