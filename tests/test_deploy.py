"""The class recipes (issue 29, docs/teaching.md), checked without starting anything: the shipped
JupyterHub config loads as JupyterHub loads it and picks how the lessons reach students; its
pre-spawn hook gives a student every lesson once and never overwrites their work; the Binder
(repo2docker) files install the kit's notebook extra at the suite's pins with Graphviz; and the
nbgitpuller and Binder links in the docs open a lesson that exists. The hub itself, with three
students, is tests/test_jupyterhub.py."""

from __future__ import annotations

import importlib.util
import logging
import os
import re
import tomllib
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import parse_qs, urlsplit

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "deploy" / "jupyterhub" / "jupyterhub_config.py"
BINDER = ROOT / "binder"
TEACHING = ROOT / "docs" / "teaching.md"


def _load(monkeypatch: pytest.MonkeyPatch, **env: str):
    """The shipped config as JupyterHub's loader reads it, with these RULEKIT_* variables."""
    from traitlets.config.loader import PyFileConfigLoader

    for name in ("RULEKIT_REPO", "RULEKIT_BRANCH", "RULEKIT_LESSONS"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return PyFileConfigLoader(SHIPPED.name, path=str(SHIPPED.parent)).load_config()


def _spawner(name: str, home: Path) -> SimpleNamespace:
    """What the hook reads of a spawner: the user's name, the home folder, a log."""
    return SimpleNamespace(user=SimpleNamespace(name=name), home_dir=str(home),
                           log=logging.getLogger("test"))


def test_the_config_copies_the_lessons_from_a_checkout(monkeypatch, tmp_path: Path) -> None:
    config = _load(monkeypatch, RULEKIT_LESSONS=str(ROOT / "notebooks"))
    spawner = config.Spawner
    assert spawner.default_url == "/lab/tree/rulekit-lessons/00_start_here.ipynb"
    assert (ROOT / "notebooks" / "00_start_here.ipynb").is_file()
    assert callable(spawner.pre_spawn_hook)
    # the server options name real things: the contents manager class, culling in seconds
    options = dict(a.removeprefix("--").split("=", 1) for a in spawner.args)
    module, _, name = options["ServerApp.contents_manager_class"].rpartition(".")
    spec = importlib.util.find_spec(module)  # not imported: Jupyter Server is slow to import
    assert spec and spec.origin and f"class {name}(" in Path(spec.origin).read_text("utf-8")
    assert int(options["MappingKernelManager.cull_idle_timeout"]) > 0
    assert re.fullmatch(r"\d+[KMG]", spawner.mem_limit)
    if not Path("/opt/tljh").is_dir():  # part 2: a plain hub, students as accounts, loopback
        assert config.JupyterHub.authenticator_class == "pam"
        assert config.JupyterHub.bind_url.startswith("http://127.0.0.1:")


def test_with_a_repository_every_log_in_goes_through_nbgitpuller(monkeypatch) -> None:
    config = _load(monkeypatch, RULEKIT_REPO="https://github.com/example/rulekit.git",
                   RULEKIT_LESSONS=str(ROOT / "notebooks"))
    url = urlsplit(config.Spawner.default_url)
    assert url.path == "/git-pull"
    query = {k: v[0] for k, v in parse_qs(url.query).items()}
    assert query == {"repo": "https://github.com/example/rulekit.git", "branch": "main",
                     "urlpath": "lab/tree/rulekit/notebooks/00_start_here.ipynb"}
    assert "pre_spawn_hook" not in config.Spawner  # nbgitpuller's clone, not a copy as well


def test_without_lessons_on_the_hub_the_students_start_in_jupyterlab(monkeypatch,
                                                                     tmp_path: Path) -> None:
    config = _load(monkeypatch, RULEKIT_LESSONS=str(tmp_path / "missing"))
    assert config.Spawner.default_url == "/lab"
    assert "pre_spawn_hook" not in config.Spawner


def test_the_hook_gives_every_lesson_once_and_keeps_the_students_work(monkeypatch,
                                                                      tmp_path: Path) -> None:
    lessons = tmp_path / "checkout" / "notebooks"
    (lessons / ".ipynb_checkpoints").mkdir(parents=True)
    (lessons / "templates").mkdir()
    (lessons / "01_a.ipynb").write_text("lesson 1", "utf-8")
    (lessons / "templates" / "lesson.ipynb").write_text("template", "utf-8")
    (lessons / ".ipynb_checkpoints" / "01_a.outputs.ipynb").write_text("teacher's", "utf-8")
    hook = _load(monkeypatch, RULEKIT_LESSONS=str(lessons)).Spawner.pre_spawn_hook
    home = tmp_path / "home" / "rk-student"  # not made yet, as before a first start

    hook(_spawner("rk-student", home))
    copy = home / "rulekit-lessons"
    assert sorted(str(p.relative_to(copy)) for p in copy.rglob("*")) == [
        "01_a.ipynb", "templates", "templates/lesson.ipynb"]  # no teacher's outputs

    # the student edits lesson 1, the teacher adds lesson 2: the next start adds only lesson 2
    (copy / "01_a.ipynb").write_text("my notes", "utf-8")
    (lessons / "01_a.ipynb").write_text("lesson 1, revised", "utf-8")
    (lessons / "02_b.ipynb").write_text("lesson 2", "utf-8")
    hook(_spawner("rk-student", home))
    assert (copy / "01_a.ipynb").read_text("utf-8") == "my notes"
    assert (copy / "02_b.ipynb").read_text("utf-8") == "lesson 2"


def test_the_hook_skips_a_student_without_a_home_here(monkeypatch, tmp_path: Path,
                                                      caplog) -> None:
    lessons = tmp_path / "notebooks"
    lessons.mkdir()
    (lessons / "01_a.ipynb").write_text("lesson 1", "utf-8")
    hook = _load(monkeypatch, RULEKIT_LESSONS=str(lessons)).Spawner.pre_spawn_hook
    # a spawner with no home folder setting, for a user this machine has no account for (TLJH
    # creates its accounts later; KubeSpawner's homes are elsewhere)
    spawner = SimpleNamespace(user=SimpleNamespace(name="rk-nobody-here"),
                              log=logging.getLogger("test"))
    with caplog.at_level(logging.WARNING):
        hook(spawner)
    assert "no lessons copied for rk-nobody-here" in caplog.text


def test_binder_installs_the_notebook_extra_at_the_suites_pins_with_graphviz() -> None:
    lines = [line.split("#", 1)[0].strip()
             for line in (BINDER / "requirements.txt").read_text("utf-8").splitlines()]
    lines = [line for line in lines if line]
    # pip reads -c relative to the requirements file, a path relative to where it runs
    # (repo2docker: the repository's root)
    constraint = next(line.split(None, 1)[1] for line in lines if line.startswith("-c "))
    assert (BINDER / constraint).resolve() == ROOT / "constraints.txt"
    requirement = next(line for line in lines if not line.startswith("-"))
    found = re.fullmatch(r"\.\[(\w+)\]", requirement)
    assert found, requirement
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    assert found.group(1) in project["optional-dependencies"]
    assert "graphviz" in (BINDER / "apt.txt").read_text("utf-8").split()
    # repo2docker's Python (its default is older than the kit needs)
    version = re.fullmatch(r"python-(3)\.(\d+)\s*",
                           (BINDER / "runtime.txt").read_text("utf-8"))
    assert version, (BINDER / "runtime.txt").read_text("utf-8")
    minimum = re.fullmatch(r">=3\.(\d+)", project["requires-python"])
    assert minimum and int(version.group(2)) >= int(minimum.group(1))
    post = BINDER / "postBuild"
    assert os.access(post, os.X_OK)
    for path in re.findall(r"\brulekit/[\w/.-]+", post.read_text("utf-8")):
        assert (ROOT / path).is_file(), path


def _links(pattern: str) -> list[str]:
    return re.findall(pattern, TEACHING.read_text("utf-8"))


def test_the_nbgitpuller_link_in_the_docs_opens_a_lesson() -> None:
    links = _links(r"https://[\w.-]+/hub/user-redirect/git-pull\?[^\s)`>]+")
    assert links, "docs/teaching.md gives no nbgitpuller link"
    for link in links:
        query = {k: v[0] for k, v in parse_qs(urlsplit(link).query).items()}
        clone = query["repo"].rstrip("/").rsplit("/", 1)[-1].removesuffix(".git")
        prefix = f"lab/tree/{clone}/"
        assert query["urlpath"].startswith(prefix), query
        assert (ROOT / query["urlpath"].removeprefix(prefix)).is_file(), query
        assert query.get("branch"), query


def test_the_binder_link_in_the_docs_opens_a_lesson() -> None:
    links = _links(r"https://mybinder\.org/v2/gh/[^\s)`>]+")
    assert links, "docs/teaching.md gives no Binder link"
    for link in links:
        urlpath = parse_qs(urlsplit(link).query)["urlpath"][0]
        assert urlpath.startswith("lab/tree/"), link
        assert (ROOT / urlpath.removeprefix("lab/tree/")).is_file(), link
