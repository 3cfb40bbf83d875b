"""The fifteen-minute path of docs/teaching.md ("Your own lesson in fifteen minutes"), run as
written: its commands, in order, in a copy of the kit. A scenario copied and edited, played,
previewed, made a lesson with a goal, the lesson checks green on it, the site built with it (the
page shows the walkthrough and its question, the index the goal), the two files committed.

What the test can't do as a teacher does, it says: the first `make lessons` (the set-up) is
skipped, the shared virtualenv being there already; `--open --watch` are left off (no browser to
open, and watching never ends); `make check` runs its lesson checks on the new lesson (the rest
of `make check` is about the kit's code, which the path doesn't touch); the lessons but "Start
here" are set aside in the copy, so the new lesson is lesson 1 and the build is short."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.lesson_shape import lesson_notebooks
from tests.test_new_lesson import lesson_check_modules

pytestmark = [pytest.mark.notebook, pytest.mark.slow]

ROOT = Path(__file__).resolve().parent.parent
COPIED = ("rulekit", "notebooks", "tests", "benchmarks", "docs", "tools", "pyproject.toml", "Makefile",
          "constraints.txt", ".gitattributes")
FAST = "not browser and not notebook and not lab and not slow"


def path_commands() -> list[str]:
    """The commands of the path's shell block, in order (comments left out)."""
    text = (ROOT / "docs" / "teaching.md").read_text("utf-8")
    section = text.split("## Your own lesson in fifteen minutes", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block, "the path's commands are one ```sh block"
    return [line for line in block.group(1).splitlines()
            if line.strip() and not line.lstrip().startswith("#")]


def test_the_path_is_the_commands_a_teacher_needs():
    commands = path_commands()
    assert [c.split()[0:2] for c in commands] == [
        ["make", "lessons"], ["cp", "rulekit/scenarios/r12_powerstone_mana_uses.toml"],
        ["python3", "-m"], [".venv/bin/python", "-m"], [".venv/bin/python", "-m"],
        ["make", "check"], ["make", "lessons"], ["git", "add"], ["git", "commit"]]
    assert "--scenario" in commands[4] and "--goal" in commands[4]


def test_the_fifteen_minute_path_runs_as_written(tmp_path):
    kit = tmp_path / "kit"
    for name in COPIED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, kit / name, ignore=shutil.ignore_patterns(
                "__pycache__", ".ipynb_checkpoints"))
        else:
            shutil.copy2(source, kit / name)
    (kit / ".venv").symlink_to(ROOT / ".venv")
    for lesson in lesson_notebooks(kit / "notebooks"):
        lesson.unlink()
    env = {**os.environ, "PYTHONPATH": str(kit), "GIT_AUTHOR_NAME": "A Teacher",
           "GIT_AUTHOR_EMAIL": "teacher@example.org", "GIT_COMMITTER_NAME": "A Teacher",
           "GIT_COMMITTER_EMAIL": "teacher@example.org"}
    env.pop("RULEKIT_TEST_NOTEBOOKS", None)
    subprocess.run(["git", "init", "-q"], cwd=kit, check=True)

    def run(argv: list[str]) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(argv, cwd=kit, env=env, capture_output=True, text=True,
                              timeout=900)
        assert done.returncode == 0, (argv, done.stdout[-3000:], done.stderr[-3000:])
        return done

    commands = path_commands()
    outputs: dict[str, str] = {}
    stem = ""
    for i, line in enumerate(commands):
        if stem:  # the doc's lesson 9 is lesson 1 here
            line = line.replace("09_", stem[:3]).replace("Lesson 9", f"Lesson {int(stem[:2])}")
        argv = shlex.split(line)
        if argv[:2] == ["make", "lessons"] and i == 0:
            continue  # the set-up: the virtualenv is there
        if argv[:2] == ["make", "check"]:
            modules = lesson_check_modules()
            outputs["check"] = run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider",
                                    "-n", "0", "-q", "-rA", "-m", FAST, "-k", stem,
                                    *modules]).stdout
            continue
        if argv[0] == "make":
            argv = ["make", "-o", ".venv/.stamp-deps", *argv[1:]]
        if argv[0] == "python3":
            argv[0] = shutil.which("python3") or sys.executable
        argv = [a for a in argv if a not in ("--open", "--watch")]
        done = run(argv)
        outputs[line] = done.stdout + done.stderr
        if argv[0] == "cp":  # the teacher edits the copy
            scenario = kit / argv[2]
            text = scenario.read_text("utf-8")
            scenario.write_text(text.replace('title = "What Powerstone mana can pay for"',
                                             'title = "Powerstone mana, step by step"'), "utf-8")
        if "new-lesson" in argv:
            made = re.search(r"wrote notebooks/(\d+_[a-z_]+)\.ipynb", done.stdout)
            assert made, done.stdout
            stem = made.group(1)

    ran = outputs["python3 -m rulekit run rulekit/scenarios/powerstone_mana.toml"]
    assert "question (asked before the step): Alice has {G} and a Powerstone {C}." in ran
    assert re.search(r"all \d+ expectation\(s\) hold", ran)
    preview = (kit / "build" / "preview" / "powerstone_mana.html").read_text("utf-8")
    assert '"title":"Powerstone mana, step by step"' in preview
    assert stem == "01_powerstone_mana"
    assert f"PASSED tests/test_lesson_shape.py::test_lesson_has_the_shared_shape[{stem}]" in \
        outputs["check"]
    page = (kit / "site" / f"{stem}.html").read_text("utf-8")
    view = re.search(r'data-rk-view="stepper"[^>]*><script type="application/json">(.*?)'
                     r"</script>", page, re.S)
    assert view is not None
    data = json.loads(view.group(1))
    assert data["title"] == "Powerstone mana, step by step"
    assert any(f["question"] and f["question"]["ask"].startswith("Alice has {G} and a "
               "Powerstone {C}.") for f in data["frames"])
    index = (kit / "site" / "index.html").read_text("utf-8")
    assert "You will be able to tell which spells and abilities Powerstone mana can pay for" \
        in index
    log = run(["git", "log", "--stat", "--format=%s"]).stdout
    assert "Lesson 1: Powerstone mana" in log and "powerstone_mana.toml" in log
