"""The benchmark code works (`make bench` must not break silently). Nothing here is timed or
compared with a goal: the figures live in `benchmarks/`, printed as tables."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import engine  # noqa: E402
import lessons  # noqa: E402
import run  # noqa: E402

ISSUE_KEYS = ["p1_refinery_ratio_10k_1k", "p2_could_produce_ms", "p3_build_ratio",
              "p4_click_ratio", "p5_page_kb", "p5_load_s", "p5_requests",
              "p6_sandbox_ready_s", "p6_click_ms", "p6_assets_mb"]


def test_the_table_has_exactly_the_ten_figures():
    assert [key for key, *_ in run.TABLE] == ISSUE_KEYS


def test_refinery_run_resolves_every_trigger():
    median, times = engine.refinery_run(20, runs=2)  # asserts N + 1 Powerstones itself
    assert len(times) == 2 and median > 0


def test_could_produce_board_is_the_issue_board():
    game = engine.could_produce_board()
    assert len(game.permanents("Alice")) == 400 and len(game.permanents("Bob")) == 5
    _, times = engine.could_produce_ms(runs=1)
    assert len(times) == 1


def test_p3_floor_cells_are_the_lessons_imports_and_run(tmp_path):
    imports = lessons.lesson_imports()
    for path in lessons.lesson_paths(lessons.NOTEBOOKS):
        nb = nbformat.read(path, as_version=4)
        first = next(c.source for c in nb.cells if c.cell_type == "code")
        for line in first.splitlines():
            if line.startswith(("import ", "from ")):
                assert line in imports.splitlines(), (path.name, line)
    for name, (what, cell) in lessons.floors().items():
        assert what and cell, name
        done = subprocess.run([sys.executable, "-c", cell], capture_output=True, text=True,
                              cwd=ROOT, timeout=120)
        assert done.returncode == 0, (name, done.stderr)
    folder = lessons.one_cell_notebooks(tmp_path, 2, "import pandas")
    written = sorted(folder.glob("*.ipynb"))
    assert len(written) == 2
    assert nbformat.read(written[0], as_version=4).cells[0].source == "import pandas"


@pytest.mark.parametrize("value, shown", [(None, "n/a"), (3, "3"), (1.654, "1.65"), (681.4, "681")])
def test_figures_print_readably(value, shown):
    assert run.fmt(value) == shown


@pytest.mark.browser
def test_live_sandbox_figures_are_measured(lesson_site, browser):
    """p6 runs on a built site: one start, two clicks (no timing compared with a goal)."""
    import live

    site, report = lesson_site
    if not report.live or live.live_page(site) is None:
        pytest.skip(report.sandbox_note or "no lesson with a live sandbox in this site")
    figures = live.live_figures(site, starts=1, clicks=2, browser=browser)
    assert figures["ready_s"] > 0 and len(figures["click_runs_ms"]) == 2
    assert figures["assets_mb"] > 1 and figures["outside"] == []
    assert figures["console_errors"] == []
