"""A new lesson in minutes: `python -m rulekit new-lesson` starts the next numbered notebook from
the template (notebooks/templates/lesson.ipynb) with the shared lesson shape, and the real site
build picks it up. Everything happens in a temporary copy of notebooks/."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import nbformat
import pytest

from rulekit.authoring.new_lesson import create, next_number, slug
from rulekit.export import build
from tests.helpers import rulekit_cli
from tests.lesson_shape import shape_problems

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture()
def notebooks(tmp_path: Path) -> Path:
    folder = tmp_path / "notebooks"
    shutil.copytree(ROOT / "notebooks", folder,
                    ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    return folder


def new_lesson(folder: Path, *args: str, process: bool = False
               ) -> subprocess.CompletedProcess[str]:
    """`python -m rulekit new-lesson ARGS` (in this process unless `process`; see helpers)."""
    return rulekit_cli("new-lesson", *args, "--notebooks", str(folder), process=process)


def test_the_template_is_not_a_lesson():
    from rulekit.export import lesson_paths
    from rulekit.repo.coverage import lessons_by_ruling

    template = ROOT / "notebooks" / "templates" / "lesson.ipynb"
    assert template.is_file()
    assert template not in lesson_paths(ROOT / "notebooks")
    assert not any("templates" in e.notebook for entries in lessons_by_ruling(ROOT).values()
                   for e in entries)


@pytest.mark.notebook
def test_a_new_lesson_has_the_lesson_shape_and_the_site_build_picks_it_up(notebooks, tmp_path):
    number = next_number(notebooks)
    done = new_lesson(notebooks, "Ward & *X*: what-if", "--rulings", "R06")
    assert done.returncode == 0, done.stderr
    path = notebooks / f"{number:02d}_ward_x_what_if.ipynb"
    assert f"wrote {path}" in done.stdout
    nb = nbformat.read(path, as_version=4)
    assert shape_problems(nb, path.stem) == []
    assert 'lesson.rulings_box("R06")' in nb.cells[1].source
    assert [c.source for c in nb.cells if c.source.startswith("Stepper(")] == \
        ['Stepper("r06_x_in_enters")']
    assert nb.cells[0].source.startswith(f"# Lesson {number}: Ward &amp; \\*X\\*: what\\-if")
    assert all(c.get("outputs", []) == [] for c in nb.cells)

    # the real build of the folder (the other lessons set aside to keep it short)
    for other in notebooks.glob("*.ipynb"):
        if other != path:
            other.unlink()
    report = build(notebooks, tmp_path / "site", jobs=1, echo=lambda _line: None)
    assert report.ok, [f.error for f in report.failures]
    assert [e["title"] for e in report.lessons] == [f"Lesson {number}: Ward & *X*: what-if"]
    page = (tmp_path / "site" / f"{path.stem}.html").read_text("utf-8")
    assert "rk-stepper" in page and "rk-rulings" in page
    index = (tmp_path / "site" / "index.html").read_text("utf-8")
    assert f'href="{path.stem}.html"' in index and "Ward &amp; *X*: what-if" in index


def test_numbers_follow_the_last_lesson_and_never_overwrite(notebooks):
    first = create("Second try", ["R07"], notebooks=notebooks)
    second = create("Second try", ["R07"], notebooks=notebooks)
    assert second.number == first.number + 1 and second.path != first.path
    assert first.scenarios == ("r07_paying_tap",)
    assert slug("  Éxert: the *reprise*! ") == "xert_the_reprise"


@pytest.mark.parametrize("args, message", [
    (["Title"], "--rulings R05,R06"),
    (["Title", "--rulings", "R33"], "no ruling 'R33'"),
    (["  ", "--rulings", "R05"], "a lesson needs a title"),
])
def test_a_bad_request_is_one_line_and_exit_2(notebooks, args, message):
    before = sorted(notebooks.glob("*.ipynb"))
    done = new_lesson(notebooks, *args)
    assert done.returncode == 2 and message in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert sorted(notebooks.glob("*.ipynb")) == before
