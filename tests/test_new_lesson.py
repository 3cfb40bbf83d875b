"""A new lesson in minutes: `python -m mtg_rulekit new-lesson` starts the next numbered notebook from
the template (notebooks/templates/lesson.ipynb) with the shared lesson shape, its walkthroughs,
a sandbox from the first one's set-up and its goal, and it passes the lesson checks of
`make check` as it is. Everything happens in a temporary copy of notebooks/."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import nbformat
import pytest

from mtg_rulekit.authoring.new_lesson import create, next_number, sandbox_actions, slug
from mtg_rulekit.core.errors import UsageError
from mtg_rulekit.export import build
from mtg_rulekit.repo.course import read_course_entry
from mtg_rulekit.scenario import load, shipped_dir
from tests.helpers import rulekit_cli
from tests.lesson_shape import shape_problems

ROOT = Path(__file__).resolve().parent.parent
GOAL = "Tell which spells a Powerstone's mana can pay for"


@pytest.fixture()
def notebooks(tmp_path: Path) -> Path:
    folder = tmp_path / "notebooks"
    shutil.copytree(ROOT / "notebooks", folder,
                    ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    return folder


def new_lesson(folder: Path, *args: str, process: bool = False
               ) -> subprocess.CompletedProcess[str]:
    """`python -m mtg_rulekit new-lesson ARGS` (in this process unless `process`; see helpers)."""
    return rulekit_cli("new-lesson", *args, "--notebooks", str(folder), process=process)


def test_the_template_is_not_a_lesson():
    from mtg_rulekit.export import lesson_paths
    from mtg_rulekit.repo.coverage import lessons_by_ruling

    template = ROOT / "notebooks" / "templates" / "lesson.ipynb"
    assert template.is_file()
    assert template not in lesson_paths(ROOT / "notebooks")
    assert not any("templates" in e.notebook for entries in lessons_by_ruling(ROOT).values()
                   for e in entries)


def test_a_lesson_from_a_scenario_has_its_walkthroughs_sandbox_and_goal(notebooks):
    number = next_number(notebooks)
    done = new_lesson(notebooks, "Ward & *X*: what-if", "--scenario", "r12_powerstone_mana_uses",
                      "mtg_rulekit/scenarios/r10_powerstone_token.toml", "--goal", f"  {GOAL} ")
    assert done.returncode == 0, done.stderr
    path = notebooks / f"{number:02d}_ward_x_what_if.ipynb"
    assert f"wrote {path}" in done.stdout and "sandbox: from r12_powerstone_mana_uses" in \
        done.stdout
    nb = nbformat.read(path, as_version=4)
    assert shape_problems(nb, path.stem) == []
    # the rulings are the scenarios' own, in order; one section each
    assert 'lesson.rulings_box("R12", "R10")' in nb.cells[1].source
    assert [c.source for c in nb.cells if c.source.startswith("Stepper(")] == \
        ['Stepper("r12_powerstone_mana_uses")', 'Stepper("r10_powerstone_token")']
    # the sandbox: the first walkthrough's set-up, offering what its steps do
    actions = sandbox_actions(load(shipped_dir() / "r12_powerstone_mana_uses.toml"))
    assert actions == ("abilities", "cast")
    assert nb.cells[-2].source == \
        'Sandbox("r12_powerstone_mana_uses", actions=["abilities", "cast"])'
    # the goal, where the index reads it
    assert nb.metadata["rulekit"]["goal"] == GOAL + "."  # a sentence, as in the index
    assert read_course_entry(path).goal == GOAL + "."  # type: ignore[union-attr]
    assert nb.cells[0].source.startswith(f"# Lesson {number}: Ward &amp; \\*X\\*: what\\-if")
    assert all(c.get("outputs", []) == [] for c in nb.cells)
    assert "Things to try" not in "".join(c.source for c in nb.cells)


def test_rulings_alone_leave_out_the_walkthroughs_other_lessons_show(tmp_path):
    folder = tmp_path / "notebooks"
    (folder / "templates").mkdir(parents=True)
    shutil.copy(ROOT / "notebooks" / "templates" / "lesson.ipynb", folder / "templates")
    first = create("Reflections", ["R05", "R12"], goal=GOAL, notebooks=folder)
    assert first.scenarios == ("r05_replacement_modifies_production", "r12_powerstone_mana_uses")
    second = create("More", ["R05", "R12", "R10", "R07"], goal=GOAL, notebooks=folder)
    assert second.scenarios == ("r10_powerstone_token", "r07_paying_tap")  # not the first's
    assert second.rulings == ("R10", "R07")  # R05 and R12 are the first lesson's chapters
    nb = nbformat.read(second.path, as_version=4)
    assert nb.cells[-2].source.startswith('Sandbox("r10_powerstone_token", ')
    with pytest.raises(UsageError, match=r"every shipped walkthrough about R05 is in another "
                       r"lesson already: r05_replacement_modifies_production \(lesson 01_"):
        create("Again", ["R05"], goal=GOAL, notebooks=folder)
    assert sorted(p.name for p in folder.glob("*.ipynb")) == ["01_reflections.ipynb",
                                                             "02_more.ipynb"]


def test_a_lesson_asks_at_least_three_questions(notebooks):
    before = sorted(notebooks.glob("*.ipynb"))
    with pytest.raises(UsageError, match=r"walkthroughs ask 2 question\(s\); a lesson asks at "
                       r"least 3: add a \[step.question\]"):
        create("Powerstone mana", scenarios=["r12_powerstone_mana_uses"], goal=GOAL,
               notebooks=notebooks)
    assert sorted(notebooks.glob("*.ipynb")) == before


def test_numbers_follow_the_last_lesson_and_never_overwrite(notebooks):
    first = create("Second try", scenarios=["r07_paying_tap"], goal=GOAL, notebooks=notebooks)
    second = create("Second try", scenarios=["r07_paying_tap"], goal=GOAL, notebooks=notebooks)
    assert second.number == first.number + 1 and second.path != first.path
    assert first.scenarios == ("r07_paying_tap",) and first.rulings == ("R07",)
    assert slug("  Éxert: the *reprise*! ") == "xert_the_reprise"
    (notebooks / "123_far_on.ipynb").write_text("{}")
    assert next_number(notebooks) == 124


@pytest.mark.parametrize("args, message", [
    (["Title", "--goal", "x"], "--scenario FILE"),
    (["Title", "--scenario", "r07_paying_tap"], '--goal "'),
    (["Title", "--rulings", "R33", "--goal", "x"], "no ruling 'R33' (the kit knows R01 to R"),
    (["  ", "--rulings", "R05", "--goal", "x"], "a lesson needs a title"),
    (["Title", "--scenario", "r07_paying_tab", "--goal", "x"], "did you mean 'r07_paying_tap'?"),
    (["Title", "--scenario", "r07_paying_tap", "--rulings", "R05", "--goal", "x"],
     "is about R07, none of the lesson's rulings (R05)"),
    (["Title", "--scenario", "tests/bad_scenarios/unknown_card.toml", "--goal", "x"],
     "is not in mtg_rulekit/scenarios/"),
])
def test_a_bad_request_is_one_line_and_exit_2(notebooks, args, message):
    before = sorted(notebooks.glob("*.ipynb"))
    done = new_lesson(notebooks, *args)
    assert done.returncode == 2 and message in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert sorted(notebooks.glob("*.ipynb")) == before


@pytest.mark.notebook
def test_the_site_build_picks_a_new_lesson_up(notebooks, tmp_path):
    made = create("Ward & *X*: what-if", scenarios=["r06_x_in_enters"], goal=GOAL,
                  notebooks=notebooks)
    path = made.path
    for other in notebooks.glob("*.ipynb"):  # the other lessons set aside to keep it short
        if other != path:
            other.unlink()
    report = build(notebooks, tmp_path / "site", jobs=1, echo=lambda _line: None)
    assert report.ok, [f.error for f in report.failures]
    assert [e["title"] for e in report.lessons] == [f"Lesson {made.number}: Ward & *X*: what-if"]
    page = (tmp_path / "site" / f"{path.stem}.html").read_text("utf-8")
    assert "rk-stepper" in page and "rk-rulings" in page
    index = (tmp_path / "site" / "index.html").read_text("utf-8")
    assert f'href="{path.stem}.html"' in index and "Ward &amp; *X*: what-if" in index
    assert "You will be able to tell which spells a Powerstone&#x27;s mana" in index
