"""Lesson benchmarks: p3 (building the lessons against building empty notebooks, and against
their floor: the same notebooks holding only their import lines; rebuilding the site after one
lesson is edited, against one empty notebook rebuilt the same way), p4 (a sandbox
click against one `dot` render), p5 (exported page size, raw and gzipped, time to a usable
stepper in Chromium, requests outside the site), p9 (the 95 % rule in each view)."""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import nbformat

from mtg_rulekit.export import build, lesson_paths

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


def import_lines(path: Path) -> str:
    """The import lines of a notebook's code cells, in order, each once."""
    nb = nbformat.read(path, as_version=4)
    lines = [line for c in nb.cells if c.cell_type == "code" for line in c.source.splitlines()
             if line.startswith(("import ", "from "))]
    return "\n".join(dict.fromkeys(lines))


def lesson_imports(notebooks: Path = NOTEBOOKS) -> str:
    """The import lines of all the lessons (each once, in order)."""
    lines = [line for path in lesson_paths(notebooks) for line in import_lines(path).splitlines()]
    return "\n".join(dict.fromkeys(lines))


def import_only_notebooks(folder: Path, notebooks: Path = NOTEBOOKS) -> Path:
    """The lessons' floor: each lesson notebook (same file name, same kernel) holding only its
    own import lines, in one code cell."""
    folder.mkdir(parents=True, exist_ok=True)
    for path in lesson_paths(notebooks):
        nb = nbformat.read(path, as_version=4)
        nb.cells = [nbformat.v4.new_code_cell(import_lines(path))]
        nb.cells[0].id = "imports"
        nbformat.write(nb, folder / path.name)
    return folder


def floors(notebooks: Path = NOTEBOOKS) -> dict[str, tuple[str, str | None]]:
    """The lesson builds' floors above the empty notebooks: name -> (what, the one cell; None:
    each lesson's own import lines)."""
    return {
        "third_party": ("only imports pandas and ipywidgets (the brief's tables and widgets)",
                        "import pandas\nimport ipywidgets"),
        "lesson_imports": ("holds only its lesson's import lines (the lessons' floor)", None),
    }


def build_ratio(runs: int = 5, work: Path | None = None,
                with_floors: bool = True) -> dict[str, object]:
    """p3: build every lesson / build as many empty notebooks, the same way (same build code,
    no cache, default worker count), alternating, `runs` times each. With `with_floors`, in the
    same rotation: notebooks that only import pandas and ipywidgets, and the lessons holding only
    their import lines (`over_floor` = lessons / those). Returns the ratios of the medians, the
    raw seconds, the floors and the folder of the last lesson build (for p5)."""
    work = work or Path(tempfile.mkdtemp(prefix="rulekit-bench-"))
    count = len(lesson_paths(NOTEBOOKS))
    if count == 0:
        return {"ratio": None, "over_floor": None, "note": "no lessons in notebooks/"}
    site = work / "site-lessons"
    sides: list[tuple[str, Path, Path]] = [
        ("lessons", NOTEBOOKS, site),
        ("empty", one_cell_notebooks(work / "empty-notebooks", count), work / "site-empty")]
    found = floors() if with_floors else {}
    for name, (_what, cell) in found.items():
        folder = work / f"{name}-notebooks"
        made = one_cell_notebooks(folder, count, cell) if cell is not None \
            else import_only_notebooks(folder)
        sides.append((name, made, work / f"site-{name}"))
    times: dict[str, list[float]] = {label: [] for label, _, _ in sides}
    report = None
    for i in range(runs):
        for label, folder, out in sides:
            start = time.perf_counter()
            built = build(folder, out, force=True, cache_dir=work / f"cache-{label}",
                          echo=_quiet)
            times[label].append(time.perf_counter() - start)
            if not built.ok:
                raise RuntimeError(f"p3: the {label} build failed: {built.failures[0].error}")
            if label == "lessons":
                report = built
            print(f"  p3 run {i + 1}/{runs}: {label} {times[label][-1]:.1f} s", flush=True)
    empty = statistics.median(times["empty"])
    lessons_s = statistics.median(times["lessons"])
    floor_figures = {name: {"what": what, "cell": cell, "seconds": times[name],
                            "ratio": statistics.median(times[name]) / empty}
                     for name, (what, cell) in found.items()}
    over = lessons_s / statistics.median(times["lesson_imports"]) \
        if "lesson_imports" in times else None
    return {"ratio": lessons_s / empty, "over_floor": over,
            "lessons_s": times["lessons"], "empty_s": times["empty"], "notebooks": count,
            "floors": floor_figures, "site": site,
            "offline": report.offline if report is not None else True}


def _edit(path: Path, n: int) -> None:
    """A teacher's edit: one more markdown cell at the end."""
    nb = nbformat.read(path, as_version=4)
    cell = nbformat.v4.new_markdown_cell(f"Edited ({n}).")
    cell.id = f"edit-{n}"
    nb.cells.append(cell)
    nbformat.write(nb, path)


def one_lesson_rebuild(runs: int = 5, work: Path | None = None,
                       **build_options: object) -> dict[str, object]:
    """p3_one_lesson_s: rebuild the site (`build`, with its cache, as `make lessons` does) after
    one lesson is edited; and the same for one empty notebook among as many empty ones. Copies
    of the notebooks are edited, in turn, alternating the two sides. Returns the medians.
    `build_options` go to every `build` (the smoke test's `sandbox="off"`)."""
    import shutil

    work = work or Path(tempfile.mkdtemp(prefix="rulekit-bench-"))
    count = len(lesson_paths(NOTEBOOKS))
    if count == 0:
        return {"lesson_s": None, "empty_s": None, "note": "no lessons in notebooks/"}
    lessons_dir = work / "edited-lessons"
    shutil.copytree(NOTEBOOKS, lessons_dir, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    sides = [("lesson", lessons_dir, work / "site-edited-lessons"),
             ("empty", one_cell_notebooks(work / "edited-empty", count),
              work / "site-edited-empty")]
    for label, folder, out in sides:  # the site as it stands before the edit
        if not build(folder, out, echo=_quiet, **build_options).ok:  # type: ignore[arg-type]
            raise RuntimeError(f"p3_one_lesson_s: the first {label} build failed")
    times: dict[str, list[float]] = {label: [] for label, _, _ in sides}
    edited: list[str] = []
    for i in range(runs):
        for label, folder, out in sides:
            path = lesson_paths(folder)[(i + 1) % count]  # not always the same one
            _edit(path, i)
            start = time.perf_counter()
            built = build(folder, out, echo=_quiet, **build_options)  # type: ignore[arg-type]
            times[label].append(time.perf_counter() - start)
            if not built.ok or [Path(r.notebook).name for r in built.built] != [path.name]:
                raise RuntimeError(f"p3_one_lesson_s: the {label} rebuild did not rebuild "
                                   f"just {path.name}")
            if label == "lesson":
                edited.append(path.stem)
            print(f"  p3 one-lesson run {i + 1}/{runs}: {label} {times[label][-1]:.1f} s",
                  flush=True)
    return {"lesson_s": statistics.median(times["lesson"]),
            "empty_s": statistics.median(times["empty"]), "lesson_runs_s": times["lesson"],
            "empty_runs_s": times["empty"], "edited": edited}


def click_ratio(runs: int = 7) -> dict[str, object]:
    """p4: one sandbox action as the kernel handles it (the Sandbox widget's "Tap for mana":
    engine action, tables, diagram re-render) / one `dot` render of the diagram it draws.
    Measured in this process on the widget objects (no Jupyter messaging), alternating."""
    from mtg_rulekit.display.flow import log_diagram
    from mtg_rulekit.display.svg import render_svg
    from mtg_rulekit.display.widgets import Sandbox

    sandbox = Sandbox("r05_replacement_modifies_production")
    game = sandbox.game
    land = next(o for o in game.permanents("Alice")
                if game.chars(o).is_a("Land") and not o.tapped)
    click_s, dot_s = [], []
    for _ in range(runs + 1):  # the first pair warms up (imports, caches) and is dropped
        start = time.perf_counter()
        sandbox.click("tap", permanent=land.id)  # through the widget's message handler
        click = time.perf_counter() - start
        assert sandbox.last_error is None, sandbox.last_error
        graph = log_diagram(game, since_action=sandbox.model.diagram_since())
        start = time.perf_counter()
        render_svg(graph)
        dot = time.perf_counter() - start
        click_s.append(click)
        dot_s.append(dot)
        sandbox.click("undo")
    click_s, dot_s = click_s[1:], dot_s[1:]
    return {"ratio": statistics.median(click_s) / statistics.median(dot_s),
            "click_s": click_s, "dot_s": dot_s, "action": f"tap {game.chars(land).name} "
            "for mana in Sandbox('r05_replacement_modifies_production')"}


def static_by_folder_kb(site: Path) -> dict[str, float]:
    """The shared `_static/` folder's size by its subfolder (files at its top: "."), KB."""
    static, out = site / "_static", {}
    for f in static.rglob("*") if static.is_dir() else []:
        if f.is_file():
            part = f.relative_to(static).parts
            key = part[0] if len(part) > 1 else "."
            out[key] = out.get(key, 0.0) + f.stat().st_size / 1024
    return {k: round(v, 1) for k, v in sorted(out.items())}


def static_kb(site: Path) -> float:
    """p5_static_kb: the shared `_static/` without the live sandbox's files (`sandbox/`), KB."""
    return round(sum(v for k, v in static_by_folder_kb(site).items() if k != "sandbox"), 1)


def page_sizes(site: Path) -> dict[str, tuple[int, int]]:
    """Each lesson page's size without the shared _static/ assets: (bytes, bytes gzipped at
    level 9, what a web server sends)."""
    import gzip

    return {p.name: (p.stat().st_size, len(gzip.compress(p.read_bytes(), 9)))
            for p in sorted(site.glob("*.html")) if p.name not in ("index.html", "cards.html")}


def page_figures(site: Path, loads: int = 5, browser: Any = None) -> dict[str, object]:
    """p5: the largest lesson page (without the shared _static/ assets), in KB, raw and
    gzipped, and each page's (`page_sizes`); the shared _static/ without the sandbox's
    files, in KB; each lesson page opened `loads` times in headless Chromium from file://
    with everything outside the site blocked: time until its stepper and first diagram
    show, and requests outside the site. `browser`: a running Playwright browser to use
    (default: one of its own)."""
    from mtg_rulekit.export.browser import chromium, open_page

    if browser is None:
        with chromium() as own:
            return page_figures(site, loads, own)

    sizes = page_sizes(site)
    pages = [site / name for name in sizes]
    load_s: dict[str, list[float]] = {}
    outside: list[str] = []
    for _ in range(loads):
        for page in pages:
            stepper = "rk-stepper" in page.read_text("utf-8")
            visit = open_page(browser, page, site, stepper=stepper)
            outside += visit.outside
            if stepper:
                load_s.setdefault(page.name, []).append(visit.load_s or 0.0)
            visit.page.close()
    medians = {name: statistics.median(v) for name, v in load_s.items()}
    return {"page_kb": max(raw for raw, _ in sizes.values()) / 1024 if sizes else None,
            "page_gz_kb": max(gz for _, gz in sizes.values()) / 1024 if sizes else None,
            "static_kb": static_kb(site), "static_by_folder_kb": static_by_folder_kb(site),
            "load_s": max(medians.values()) if medians else None,
            "requests": len(outside), "sizes_bytes": sizes, "load_s_by_page": load_s,
            "load_median_by_page": medians, "outside": outside}


# where p9 measures the 95 % rule: a window (or Present's slide, or a phone), and the least
# text size there; "narrow" is a window whose walkthrough is as large as JupyterLab's beside
# its file browser at 1280x720 (its picture pane 690x598, the smallest of the desktop views)
RULE_95_VIEWS = {"1280x720": ((1280, 720), 16.0), "narrow": ((987, 600), 16.0),
                 "present": ((1280, 720), 18.0), "phone": ((390, 844), 12.0)}


def rule_95(site: Path, where: str = "1280x720", browser: Any = None,
            pages: str = "[0-9]*.html") -> dict[str, object]:
    """p9: the fraction of the walkthrough steps after set-up, over every lesson page, that
    meet the 95 % rule in view `where` (`RULE_95_VIEWS`): at least 95 % of the box of what
    the step added to the diagram (`.rk-new`) inside the diagram pane and the window, its
    text at least the view's least size; each walkthrough scrolled to the top of the window
    (on a phone: its picture scrolled into view) or presented, and stepped with its own keys
    (`mtg_rulekit.export.checks.step_views`). Also the steps that miss it, with their share.
    `pages`: which of the site's pages (a glob; every lesson page by default)."""
    from mtg_rulekit.export.browser import chromium, open_page
    from mtg_rulekit.export.checks import step_views

    if browser is None:
        with chromium() as own:
            return rule_95(site, where, own, pages)
    size, floor_px = RULE_95_VIEWS[where]
    steps, misses = 0, []
    for page in sorted(site.glob(pages)):
        if "rk-stepper" not in page.read_text("utf-8"):
            continue
        visit = open_page(browser, page, site, viewport=size)
        try:
            for i in range(visit.page.locator(".rk-stepper").count()):
                stepper = visit.page.locator(".rk-stepper").nth(i)
                stepper.evaluate("(e) => e.scrollIntoView({block: 'start'})")
                if where == "present":
                    stepper.locator(".rk-present").click()
                    visit.page.wait_for_function("() => !!document.fullscreenElement",
                                                 timeout=5000)
                for s in step_views(stepper, picture=where == "phone")[1:]:
                    steps += 1
                    if not s.ok(floor_px):
                        misses.append(f"{page.stem} walkthrough {i} step {s.step}: "
                                      f"{s.share:.0%} at {s.text_px:.0f} px ({s.note})")
                if where == "present":
                    visit.page.keyboard.press("Escape")
                    visit.page.wait_for_function("() => !document.fullscreenElement",
                                                 timeout=5000)
        finally:
            visit.page.close()
    return {"fraction": (steps - len(misses)) / steps if steps else None, "steps": steps,
            "size": f"{size[0]}x{size[1]}", "misses": misses}


SANDBOX_HEADING = "## Sandbox: try it yourself"  # as tests/lesson_shape.py


def lesson_sandboxes(notebooks: Path = NOTEBOOKS) -> dict[str, Any]:
    """Each lesson's sandbox as the pure model (`mtg_rulekit.sandbox.SandboxModel`), as its
    "Sandbox" code cell makes it (`mtg_rulekit.sandbox.lessons.cell_model`), by notebook stem."""
    from mtg_rulekit.sandbox import lessons

    out: dict[str, Any] = {}
    for path in lesson_paths(notebooks):
        nb = nbformat.read(path, as_version=4)
        cells = nb.cells
        at = next((i for i, c in enumerate(cells) if c.cell_type == "markdown"
                   and c.source.lstrip().startswith(SANDBOX_HEADING)), None)
        if at is None or at + 1 >= len(cells):
            continue
        model = lessons.cell_model(cells[at + 1].source)
        if model is not None:
            out[path.stem] = model
    return out


def biggest_sandbox() -> str | None:
    """The lesson whose sandbox board p8 times: the most objects, then the most verdicts."""
    sizes = {stem: (len(m.game.state.objects), sum(len(v) for v in m.card_actions().values()))
             for stem, m in lesson_sandboxes().items()}
    return max(sizes, key=lambda s: sizes[s]) if sizes else None


def verdicts_ms(runs: int = 7) -> dict[str, object]:
    """p8: every card's verdicts (`SandboxModel.card_actions()`: each action each card offers,
    tried and taken back) on the biggest lesson sandbox board (the most objects; then the most
    verdicts), ms, median of `runs` after one warm-up; the other lessons' medians as raw
    figures."""
    models = lesson_sandboxes()
    per_lesson: dict[str, float] = {}
    cpu: dict[str, float] = {}  # this process's CPU time: what the load of others leaves out
    sizes: dict[str, tuple[int, int]] = {}
    for stem, model in models.items():
        sizes[stem] = (len(model.game.state.objects),
                       sum(len(v) for v in model.card_actions().values()))
        times, cpu_times = [], []
        for _ in range(runs):
            start, start_cpu = time.perf_counter(), time.process_time()
            model.card_actions()
            times.append((time.perf_counter() - start) * 1000)
            cpu_times.append((time.process_time() - start_cpu) * 1000)
        per_lesson[stem] = statistics.median(times)
        cpu[stem] = statistics.median(cpu_times)
    biggest = max(sizes, key=lambda s: sizes[s])
    return {"ms": per_lesson[biggest], "lesson": biggest, "objects": sizes[biggest][0],
            "verdicts": sizes[biggest][1], "per_lesson_ms": per_lesson, "cpu_ms": cpu,
            "slowest_lesson_ms": max(per_lesson.values()), "load_average": os.getloadavg()}
