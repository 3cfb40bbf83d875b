"""The fifteen-minute path of docs/teaching.md ("Your own lesson in fifteen minutes"), run as
written: its commands, in order, in a copy of the kit. A scenario copied and edited, played,
previewed, made a lesson with a goal, the lesson checks green on it, the site built with it (the
page shows the walkthrough and its question, the index the goal), the two files committed.

What the test can't do as a teacher does, it says: the first `make lessons` (the set-up) is
skipped, the shared virtualenv (and the tools `make` installs in `.cache/`) being there
already; `--open --watch` are left off (no browser to open, and watching never ends); `make
check` runs the part of its tests a new lesson and scenario can change, on the copy: the
fast-tier modules that read all the lessons or scenarios (`tests.lesson_shape.
lesson_check_modules`: they hold every test named after a lesson or a scenario,
`test_every_test_named_after_a_lesson_or_scenario_is_in_those_modules`; the rest of the fast
tier reads neither, and runs in the suite itself), not its linters (the path changes no
code); before the last `make lessons` the other lessons are set aside, so the build is the new
lesson's (and "Start here"'s, which lists every scenario) and short."""

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

from tests.lesson_shape import lesson_check_modules, lesson_notebooks

pytestmark = [pytest.mark.notebook, pytest.mark.slow]

ROOT = Path(__file__).resolve().parent.parent
FAST = "not browser and not notebook and not lab and not slow"


def path_commands() -> list[str]:
    """The commands of the path's shell block, in order (comments left out)."""
    text = (ROOT / "docs" / "teaching.md").read_text("utf-8")
    section = text.split("## Your own lesson in fifteen minutes", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block, "the path's commands are one ```sh block"
    return [line for line in block.group(1).splitlines()
            if line.strip() and not line.lstrip().startswith("#")]


def test_every_test_named_after_a_lesson_or_scenario_is_in_those_modules():
    """What the path's `make check` leaves out can't name a lesson or a scenario: the fast
    tests whose ids name one (a lesson's stem, a scenario's) are all in
    `lesson_check_modules`."""
    lesson = lesson_notebooks(ROOT / "notebooks")[-1].stem
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider",
                           "--collect-only", "-q", "-m", FAST, "-k",
                           f"{lesson} or r12_powerstone_mana_uses"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    named = {line.split("::")[0] for line in done.stdout.splitlines() if "::" in line}
    assert len(named) > 5, done.stdout[-2000:]
    assert named <= set(lesson_check_modules(ROOT)), named - set(lesson_check_modules(ROOT))


def test_the_path_is_the_commands_a_teacher_needs():
    commands = path_commands()
    assert [c.split()[0:2] for c in commands] == [
        ["make", "lessons"], ["cp", "mtg_rulekit/scenarios/r12_powerstone_mana_uses.toml"],
        ["python3", "-m"], [".venv/bin/python", "-m"], [".venv/bin/python", "-m"],
        ["make", "check"], ["make", "lessons"], ["git", "add"], ["git", "commit"]]
    assert "--scenario" in commands[4] and "--goal" in commands[4]


def test_the_fifteen_minute_path_runs_as_written(tmp_path):
    kit = tmp_path / "kit"  # a clone of this checkout, as it is: every file git tracks
    tracked = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True,
                             check=True).stdout.decode("utf-8").split("\0")
    for name in filter(None, tracked):
        if (ROOT / name).is_file():
            (kit / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, kit / name)
    (kit / ".venv").symlink_to(ROOT / ".venv")
    if (ROOT / ".cache").is_dir():  # what the first `make lessons`/`make check` installs (ESLint)
        (kit / ".cache").symlink_to(ROOT / ".cache")
    env = {**os.environ, "PYTHONPATH": str(kit), "GIT_AUTHOR_NAME": "A Teacher",
           "GIT_AUTHOR_EMAIL": "teacher@example.org", "GIT_COMMITTER_NAME": "A Teacher",
           "GIT_COMMITTER_EMAIL": "teacher@example.org"}
    env.pop("RULEKIT_TEST_NOTEBOOKS", None)
    subprocess.run(["git", "init", "-q"], cwd=kit, check=True)

    def run(argv: list[str]) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(argv, cwd=kit, env=env, capture_output=True, text=True,
                              timeout=900)
        failed = [ln for ln in done.stdout.splitlines() if ln.startswith(("FAILED", "ERROR"))]
        assert done.returncode == 0, (argv, failed or done.stdout[-3000:], done.stderr[-3000:])
        return done

    commands = path_commands()
    outputs: dict[str, str] = {}
    assert (kit / "mtg_rulekit" / "scenarios" / "r12_powerstone_mana_uses.toml").is_file()
    stem = ""
    for i, line in enumerate(commands):
        argv = shlex.split(line)
        if argv[:2] == ["make", "lessons"] and i == 0:
            continue  # the set-up: the virtualenv is there
        if argv[:2] == ["make", "check"]:  # its tests of lessons and scenarios (one process:
            # the suite's own workers have the cores)
            pytest = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-m", FAST,
                      "-n", "0", "--hypothesis-profile=check", "-q", "-rA"]
            outputs["check"] = run([*pytest, *lesson_check_modules(kit)]).stdout
            continue
        if argv[:2] == ["make", "lessons"]:
            for lesson in lesson_notebooks(kit / "notebooks"):
                if lesson.stem != stem:
                    lesson.unlink()
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

    ran = outputs["python3 -m mtg_rulekit run mtg_rulekit/scenarios/powerstone_mana.toml"]
    assert "question (asked before the step): Alice has {G} and a Powerstone {C} left." in ran
    assert re.search(r"all \d+ expectation\(s\) hold", ran)
    preview = (kit / "build" / "preview" / "powerstone_mana.html").read_text("utf-8")
    assert '"title":"Powerstone mana, step by step"' in preview
    assert stem == "09_powerstone_mana"
    check = outputs["check"]
    passed = {line.split("::")[1].split("[")[0] for line in check.splitlines()
              if line.startswith("PASSED ") and f"[{stem}" in line}
    assert {"test_lesson_has_the_shared_shape", "test_each_lesson_sandbox_offers_what_it_is_about",
            "test_every_lesson_says_what_you_will_be_able_to_do_and_how_long_it_takes",
            "test_committed_without_outputs_with_the_python3_kernel", "test_lesson_structure",
            "test_every_lesson_is_in_plain_words"} <= passed, sorted(passed)
    assert "PASSED tests/test_scenario_shipped.py::test_shipped_scenario_passes[powerstone_mana" \
        in check
    page = (kit / "site" / f"{stem}.html").read_text("utf-8")
    view = re.search(r'data-rk-view="stepper"[^>]*><script type="application/json">(.*?)'
                     r"</script>", page, re.S)
    assert view is not None
    data = json.loads(view.group(1))
    assert data["title"] == "Powerstone mana, step by step"
    assert any(f["question"] and f["question"]["ask"].startswith("Alice has {G} and a "
               "Powerstone {C} left.") for f in data["frames"])
    index = (kit / "site" / "index.html").read_text("utf-8")
    assert "You will be able to tell which spells and abilities Powerstone mana can pay for" \
        in index
    log = run(["git", "log", "--stat", "--format=%s"]).stdout
    assert "Lesson 9: Powerstone mana" in log and "powerstone_mana.toml" in log
