"""Every lesson notebook has the shared lesson shape (`tests/lesson_shape.py`): the notebooks are
the lesson source, edited in JupyterLab, and this test is what keeps them alike."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from tests.lesson_shape import (
    NOTEBOOKS,
    lesson_notebooks,
    number,
    numbered_notebooks,
    shape_problems,
)

ROOT = Path(__file__).resolve().parent.parent
LESSONS = lesson_notebooks()


def test_the_lessons_are_numbered_in_order():
    assert [number(p) for p in numbered_notebooks()] == list(range(len(numbered_notebooks())))
    assert sorted(NOTEBOOKS.glob("*.ipynb")) == sorted(numbered_notebooks()), \
        "every notebook of the lessons folder is numbered: NN_name.ipynb"
    assert len(LESSONS) >= 8


def test_a_lesson_is_checked_whatever_its_number(tmp_path):
    for name in ("00_start_here", "01_a", "09_b", "10_c", "123_d", "notes", "x_10"):
        (tmp_path / f"{name}.ipynb").write_text("{}")
    assert [p.stem for p in lesson_notebooks(tmp_path)] == ["01_a", "09_b", "10_c", "123_d"]


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem)
def test_lesson_has_the_shared_shape(path):
    assert shape_problems(nbformat.read(path, as_version=4), path.stem) == []


def test_no_generator_overwrites_the_notebooks():
    """The notebooks are the only source of the lesson text."""
    assert not (ROOT / "tools" / "make_notebooks.py").exists()


@pytest.mark.parametrize("damage, problem", [
    (lambda nb: nb.cells.pop(0), "first cell"),
    (lambda nb: setattr(nb.cells[-1], "source", "## Wrap-up"), "last cell"),
    (lambda nb: nb.cells.insert(-1, nbformat.v4.new_markdown_cell("## Stray (R19)")),
     "ruling sections"),
    (lambda nb: setattr(next(c for c in nb.cells if 'Stepper("' in c.source), "source",
                        'Stepper("no_such_walkthrough")'), "no such shipped scenario"),
    (lambda nb: setattr(nb.cells[-2], "source", "game = None"), "Sandbox"),
    (lambda nb: nb.cells.insert(3, nbformat.v4.new_markdown_cell(
        "## Predict\n\n<details><summary>Q?</summary>A</details>")), "<details> question"),
    (lambda nb: nb.cells.pop(next(i for i, c in enumerate(nb.cells)
                                  if c.source.startswith("### Walkthrough")) + 1),
     "is not followed by a Stepper"),
])
def test_a_departure_from_the_shape_is_named(damage, problem):
    path = ROOT / "notebooks" / "01_tapping_and_summoning_sickness.ipynb"
    nb = nbformat.read(path, as_version=4)
    damage(nb)
    problems = shape_problems(nb, path.stem)
    assert any(problem in p for p in problems), problems
