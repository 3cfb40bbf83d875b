"""`rulekit lessons DIR` and `rulekit lab [DIR]`: the lessons copied out for a teacher (never
over their edits), and JupyterLab's settings shipped for any server started on them."""

from __future__ import annotations

import json
from pathlib import Path

from mtg_rulekit import cli
from mtg_rulekit.repo.lessons import copy_out, has_lessons, shipped
from tests.helpers import rulekit_cli

ROOT = Path(__file__).resolve().parent.parent


def test_the_shipped_lessons_are_the_checkouts_notebooks():
    assert shipped() == ROOT / "notebooks"
    assert has_lessons(shipped()) and not has_lessons(ROOT / "mtg_rulekit")


def test_lessons_copies_every_lesson_and_the_template_then_keeps_a_teachers_edit(tmp_path):
    run = rulekit_cli("lessons", str(tmp_path / "class"))
    assert run.returncode == 0, run.stderr
    copied = sorted(p.name for p in (tmp_path / "class").glob("*.ipynb"))
    assert copied == sorted(p.name for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    assert (tmp_path / "class" / "templates" / "lesson.ipynb").is_file()
    assert run.stdout.startswith(f"{len(copied) + 1} file(s) copied")
    edited = tmp_path / "class" / copied[0]
    edited.write_text("{}", "utf-8")
    again = copy_out(tmp_path / "class")
    assert again.written == [] and edited in again.kept
    assert edited.read_text("utf-8") == "{}"


def test_lessons_refuses_a_file_for_a_folder(tmp_path):
    (tmp_path / "f").write_text("x", "utf-8")
    run = rulekit_cli("lessons", str(tmp_path / "f"))
    assert run.returncode == 2 and "is a file, not a folder" in run.stderr


def test_only_lab_passes_unknown_arguments_on():
    run = rulekit_cli("cards", "Forest", "--port=1")
    assert run.returncode == 2 and "unrecognized arguments: --port=1" in run.stderr
    args, extra = cli._parser().parse_known_args(["lab", "class", "--port=9999"])
    assert args.folder == "class" and extra == ["--port=9999"]
    assert cli._parser().parse_args(["lab"]).folder == cli.LAB_FOLDER


def test_the_console_command_is_named_rulekit():
    assert cli._parser("rulekit").prog == "rulekit"


def test_the_environments_settings_turn_off_the_news_as_make_lab_does():
    """setup.py installs `overrides.d/mtg-rulekit.json` into the environment's JupyterLab
    settings (read by JupyterLab and Notebook 7 however they are started): the same news
    settings as `make lab`'s own folder."""
    settings = ROOT / "mtg_rulekit" / "lab" / "settings"
    shipped_d = json.loads((settings / "overrides.d" / "mtg-rulekit.json").read_text("utf-8"))
    make_lab = json.loads((settings / "overrides.json").read_text("utf-8"))
    key = "@jupyterlab/apputils-extension:notification"
    assert shipped_d == {key: make_lab[key]}
    assert "overrides.d/mtg-rulekit.json" in (ROOT / "setup.py").read_text("utf-8")


def test_every_lesson_says_at_its_top_how_to_run_it():
    """Opened as committed (no outputs), a lesson shows no walkthrough until it runs: its first
    cell ends with the kit's one hint (a new lesson gets it from the template)."""
    from mtg_rulekit.repo.lessons import RUN_HINT

    paths = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    assert paths
    for path in paths:
        first = json.loads(path.read_text("utf-8"))["cells"][0]
        assert first["cell_type"] == "markdown", path.name
        assert "".join(first["source"]).endswith("\n\n" + RUN_HINT), path.name
    template = json.loads((ROOT / "notebooks" / "templates" / "lesson.ipynb").read_text("utf-8"))
    title = next(c for c in template["cells"]
                 if "".join(c["source"]).startswith("# Lesson {{number}}"))
    assert "".join(title["source"]).endswith("\n\n" + RUN_HINT)
    assert "Run ▸ Run All Cells" in RUN_HINT


def test_the_exported_page_leaves_the_hint_out():
    from mtg_rulekit.repo.lessons import RUN_HINT, drop_run_hint

    assert drop_run_hint("# Lesson 1: X\n\nIntro.\n\n" + RUN_HINT) == "# Lesson 1: X\n\nIntro."
    assert drop_run_hint("# Lesson 1: X") == "# Lesson 1: X"
