"""`make clean` deletes only what the build made inside the checkout: no variable from
the environment (or the command line) can point a delete elsewhere, and JupyterLab's
`.ipynb_checkpoints/` (a user's backups) stay. Runs the real Makefile with GNU make in a copy."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="GNU make not installed")


def _checkout(tmp_path: Path) -> Path:
    """A copy of the Makefile with every kind of file `clean` must and must not touch."""
    repo = tmp_path / "repo"
    repo.mkdir()
    shutil.copy(ROOT / "Makefile", repo / "Makefile")
    for made in ("site/index.html", "build/export/site/lessons.json", "dist/x.whl",
                 ".pytest_cache/v", "mtg_rulekit/__pycache__/a.pyc", "benchmarks/results.json",
                 "test-artifacts/shot.png"):
        (repo / made).parent.mkdir(parents=True, exist_ok=True)
        (repo / made).write_text("made by the build")
    for kept in ("notebooks/.ipynb_checkpoints/01-checkpoint.ipynb", "notebooks/01.ipynb",
                 "mtg_rulekit/game.py", ".venv/lib/__pycache__/x.pyc"):
        (repo / kept).parent.mkdir(parents=True, exist_ok=True)
        (repo / kept).write_text("the user's")
    return repo


def _victim(tmp_path: Path) -> Path:
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "thesis.txt").write_text("years of work")
    return victim


@pytest.mark.parametrize("how", ["environment", "make -e", "command line"])
def test_clean_deletes_nothing_a_variable_names(tmp_path: Path, how: str) -> None:
    repo, victim = _checkout(tmp_path), _victim(tmp_path)
    env = {"PATH": "/usr/bin:/bin"}
    args = ["make", "-s", "clean"]
    names = ("SITE", "VENV", "BIN", "STAMP_DEPS")
    if how == "command line":
        args += [f"{n}={victim}" for n in names]
    else:
        env.update({n: str(victim) for n in names})
        if how == "make -e":
            args.insert(1, "-e")
    done = subprocess.run(args, cwd=repo, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert (victim / "thesis.txt").read_text() == "years of work"
    for made in ("site", "build", "dist", ".pytest_cache", "mtg_rulekit/__pycache__",
                 "benchmarks/results.json", "test-artifacts"):
        assert not (repo / made).exists(), made
    for kept in ("notebooks/.ipynb_checkpoints/01-checkpoint.ipynb", "notebooks/01.ipynb",
                 "mtg_rulekit/game.py", ".venv/lib/__pycache__/x.pyc"):
        assert (repo / kept).is_file(), kept


def test_every_path_clean_deletes_is_written_in_the_makefile(tmp_path: Path) -> None:
    """`make -n clean` with hostile variables: every rm/find operand is a literal `./` path."""
    env = {"PATH": "/usr/bin:/bin", "SITE": "/", "VENV": "/home"}
    done = subprocess.run(["make", "-n", "-e", "distclean"], cwd=_checkout(tmp_path), env=env,
                          capture_output=True, text=True, check=True)
    words = done.stdout.replace("\\\n", " ").split()
    operands = [w for w in words if "/" in w and not w.startswith("-")]
    assert operands and all(w.startswith(("./", "{}")) for w in operands), operands
    assert "/home" not in words and "/" not in words


def test_site_from_the_environment_does_not_redirect_the_build(tmp_path: Path) -> None:
    repo = _checkout(tmp_path)
    env = {"PATH": "/usr/bin:/bin", "SITE": str(tmp_path / "victim")}
    done = subprocess.run(["make", "-n", "-o", ".venv/.stamp-deps", "-o", "sysdeps-dot", "lessons"], cwd=repo, env=env, capture_output=True,
                          text=True, check=False)
    assert "--out site" in done.stdout and "victim" not in done.stdout
    cli = subprocess.run(["make", "-n", "-o", ".venv/.stamp-deps", "-o", "sysdeps-dot", "lessons",
                          "SITE=public"], cwd=repo, env=env,
                         capture_output=True, text=True, check=False)
    assert "--out public" in cli.stdout
