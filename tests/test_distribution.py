"""The package a teacher installs: `mtg-rulekit`, its wheel built from this checkout (offline:
no build isolation, this virtualenv's setuptools), installed with no index into a fresh
virtualenv, whose `rulekit` command copies the lessons out and plays a scenario; what the wheel
carries (lessons, scenarios, data, the views' JavaScript, the JupyterLab settings) and its
metadata."""

from __future__ import annotations

import email
import json
import os
import shutil
import subprocess
import sys
import tomllib
import venv
import zipfile
from pathlib import Path

import pytest

from tests.helpers import unavailable

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
DIST = "mtg-rulekit"
SOURCES = ("pyproject.toml", "setup.py", "README.md", "mtg_rulekit", "notebooks")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel `python -m build` makes from a copy of the checkout's sources."""
    import importlib.util

    if importlib.util.find_spec("build") is None:
        unavailable("the `build` package is not installed (the lite extra)")
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    for name in SOURCES:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, src / name, ignore=shutil.ignore_patterns(
                "__pycache__", ".ipynb_checkpoints"))
        else:
            src.mkdir(exist_ok=True)
            shutil.copy2(path, src / name)
    run = subprocess.run([sys.executable, "-m", "build", "--wheel", "--no-isolation",
                          "--skip-dependency-check", "--outdir", str(tmp / "dist"), str(src)],
                         capture_output=True, text=True, timeout=300,
                         env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
    assert run.returncode == 0, (run.stdout + run.stderr)[-3000:]
    (found,) = (tmp / "dist").glob("*.whl")
    return found


def test_the_distribution_name_is_not_pypis_unrelated_rulekit():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    assert project["name"] == DIST
    assert project["scripts"] == {"rulekit": "mtg_rulekit.cli:console"}
    # the extras name the distribution itself, not PyPI's rulekit
    assert all("rulekit[" not in req or req.startswith(f"{DIST}[")
               for reqs in project["optional-dependencies"].values() for req in reqs)


def test_the_wheel_carries_lessons_scenarios_data_javascript_and_settings(wheel: Path):
    assert wheel.name == "mtg_rulekit-0.1.0-py3-none-any.whl"
    names = zipfile.ZipFile(wheel).namelist()
    lessons = sorted(p.name for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    assert sorted(n.rsplit("/", 1)[1] for n in names
                  if n.startswith("mtg_rulekit/lessons/") and n.count("/") == 2) == lessons
    assert "mtg_rulekit/lessons/templates/lesson.ipynb" in names
    scenarios = {p.name for p in (ROOT / "mtg_rulekit" / "scenarios").glob("*.toml")}
    assert {n.rsplit("/", 1)[1] for n in names if n.startswith("mtg_rulekit/scenarios/")} \
        >= scenarios
    for needed in ("mtg_rulekit/data/rules.toml", "mtg_rulekit/data/rulings.toml",
                   "mtg_rulekit/cards/catalog.toml", "mtg_rulekit/display/front/stepper.js",
                   "mtg_rulekit/display/front/sandbox.js", "mtg_rulekit/display/front/board.css",
                   "mtg_rulekit/lab/settings/overrides.json"):
        assert needed in names, needed
    settings = ("mtg_rulekit-0.1.0.data/data/share/jupyter/lab/settings/overrides.d/"
                "mtg-rulekit.json")
    assert settings in names
    assert not [n for n in names if n.startswith(("tests/", "notebooks/")) or "__pycache__" in n]
    meta = email.message_from_bytes(zipfile.ZipFile(wheel).read(
        "mtg_rulekit-0.1.0.dist-info/METADATA"))
    assert meta["Name"] == DIST and meta["Requires-Python"] == ">=3.11"
    assert "Intended Audience :: Education" in meta.get_all("Classifier")
    assert "Framework :: Jupyter :: JupyterLab" in meta.get_all("Classifier")
    assert meta["Description-Content-Type"] == "text/markdown"
    assert "notebook" in meta.get_all("Provides-Extra")
    entry = zipfile.ZipFile(wheel).read("mtg_rulekit-0.1.0.dist-info/entry_points.txt")
    assert b"rulekit = mtg_rulekit.cli:console" in entry


def test_a_fresh_virtualenv_installs_it_copies_the_lessons_and_plays_a_scenario(
        wheel: Path, tmp_path: Path):
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    bin_dir = env_dir / "bin"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PIP_NO_INDEX"] = "1"  # offline: the wheel has no dependencies to fetch
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    install = subprocess.run([str(bin_dir / "python"), "-m", "pip", "install", "--no-index",
                              str(wheel)], capture_output=True, text=True, env=env,
                             cwd=tmp_path, timeout=300)
    assert install.returncode == 0, install.stderr[-2000:]

    def rulekit(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(bin_dir / "rulekit"), *args], capture_output=True,
                              text=True, env=env, cwd=tmp_path, timeout=300)

    copied = rulekit("lessons", "class")
    assert copied.returncode == 0, copied.stderr
    lessons = sorted(p.name for p in (tmp_path / "class").glob("*.ipynb"))
    assert lessons == sorted(p.name for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    first = json.loads((tmp_path / "class" / lessons[1]).read_text("utf-8"))
    assert first["cells"] and first["cells"][0]["cell_type"] == "markdown"
    again = rulekit("lessons", "class")  # a teacher's copy is never overwritten
    assert again.returncode == 0 and "already there, kept" in again.stdout
    # the installed package, not this checkout: run from elsewhere, with no PYTHONPATH
    where = subprocess.run([str(bin_dir / "python"), "-c",
                            "import mtg_rulekit; print(mtg_rulekit.__file__)"],
                           capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60)
    assert Path(where.stdout.strip()).is_relative_to(env_dir), where
    scenario = Path(where.stdout.strip()).parent / "scenarios" / "r07_paying_tap.toml"
    played = rulekit("run", str(scenario))
    assert played.returncode == 0, played.stderr
    assert "expectation(s) hold" in played.stdout
    checked = rulekit("check")
    assert checked.returncode == 0 and checked.stdout.rstrip().endswith("0 failed"), \
        checked.stdout[-500:]
    # `rulekit lab` says what is missing instead of a traceback (no JupyterLab in this venv)
    lab = rulekit("lab", "class")
    assert lab.returncode == 2 and "mtg-rulekit[notebook]" in lab.stderr
    # JupyterLab and Notebook 7 started in this environment read the shipped settings: no
    # news question over a walkthrough
    from jupyterlab_server.settings_utils import _get_overrides

    overrides, error = _get_overrides(str(env_dir / "share" / "jupyter" / "lab" / "settings"))
    assert not error
    assert overrides["@jupyterlab/apputils-extension:notification"] == {
        "fetchNews": "false", "checkForUpdates": False}
