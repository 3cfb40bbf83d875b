"""The class recipes (docs/teaching.md), checked without starting anything: the shipped
JupyterHub config loads as JupyterHub loads it and picks how the lessons reach students; its
pre-spawn hook gives a student every lesson once and never overwrites their work; the Binder
(repo2docker) files install the kit's notebook extra at the suite's pins with Graphviz; and the
nbgitpuller and Binder links in the docs open a lesson that exists. The hub itself, with three
students, is tests/test_jupyterhub.py."""

from __future__ import annotations

import importlib.util
import logging
import os
import pwd
import re
import shutil
import tempfile
import tomllib
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.helpers import unavailable

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
    assert options["KernelManager.transport_encryption"] == "auto"  # students share 127.0.0.1
    assert re.fullmatch(r"\d+[KMG]", spawner.mem_limit) and spawner.cpu_limit > 0
    if not Path("/opt/tljh").is_dir():  # part 2: a plain hub, students as accounts, loopback
        assert config.JupyterHub.authenticator_class == "pam"
        assert "root" in config.Authenticator.blocked_users
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


# ------------------------------------------------------------------ the hook as root
# The hub runs as root: a student who puts a link where a lesson or a folder of lessons goes
# must get nothing outside their home (a root-owned scratch folder plays /etc), and their link
# stays as it is. The student is `nobody`, their home owned by them, as on a real hub.


@pytest.fixture
def hub_as_root(monkeypatch):
    """(hook, student's home, scratch /etc, the scratch folder) with lessons a student can read,
    a home owned by `nobody`, and `nobody`'s spawner."""
    if os.geteuid() != 0:
        unavailable("the hook's copy as the student needs root (the hub runs as root): "
                    "run this test as root to check it")
    try:
        student = pwd.getpwnam("nobody")
    except KeyError:
        unavailable("this machine has no `nobody` account to play the student")
    scratch = Path(tempfile.mkdtemp(prefix="rk-hub-hook-"))  # not under pytest's 0700 folders
    try:
        scratch.chmod(0o755)
        lessons = scratch / "notebooks"
        (lessons / "templates").mkdir(parents=True)
        (lessons / "01_a.ipynb").write_text("lesson 1", "utf-8")
        (lessons / "02_b.ipynb").write_text("lesson 2", "utf-8")
        (lessons / "templates" / "lesson.ipynb").write_text("template", "utf-8")
        for path in [lessons, *lessons.rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)
        etc = scratch / "etc"
        etc.mkdir(mode=0o755)
        (etc / "shadow").write_text("root's", "utf-8")
        home = scratch / "home"
        home.mkdir(mode=0o755)
        os.chown(home, student.pw_uid, student.pw_gid)
        hook = _load(monkeypatch, RULEKIT_LESSONS=str(lessons)).Spawner.pre_spawn_hook
        yield (lambda: hook(_spawner("nobody", home))), home, etc, scratch, student
    finally:
        shutil.rmtree(scratch)


def _outside(scratch: Path, home: Path) -> dict[str, tuple]:
    """Everything under `scratch` but inside `home`: path, owner, mode, size, time, link."""
    found = {}
    for folder, names, files in os.walk(scratch):
        for name in [*names, *files]:
            path = Path(folder, name)
            if path != home and home not in path.parents:
                st = path.lstat()
                found[str(path.relative_to(scratch))] = (
                    st.st_uid, st.st_gid, st.st_mode, st.st_size, st.st_mtime_ns,
                    os.readlink(path) if path.is_symlink() else None)
    return found


@pytest.mark.parametrize("replaced, target", [
    ("01_a.ipynb", "ld.so.preload"),  # a lesson: a link to a file that does not exist yet
    ("01_a.ipynb", "shadow"),  # a lesson: a link to root's file
    ("templates", ""),  # a folder of lessons: a link to root's folder
], ids=["dangling-file-link", "file-link", "folder-link"])
def test_a_students_link_in_the_lessons_reaches_nothing_outside_their_home(
        hub_as_root, replaced: str, target: str) -> None:
    copy_lessons, home, etc, scratch, student = hub_as_root
    copy_lessons()  # their first start
    lessons = home / "rulekit-lessons"
    made = sorted(str(p.relative_to(lessons)) for p in lessons.rglob("*"))
    assert made == ["01_a.ipynb", "02_b.ipynb", "templates", "templates/lesson.ipynb"]
    assert {(p.lstat().st_uid, p.lstat().st_gid) for p in [lessons, *lessons.rglob("*")]} \
        == {(student.pw_uid, student.pw_gid)}  # the student's, as their server's files are
    assert lessons.stat().st_mode & 0o077 == 0  # their work: not for the rest of the class

    # what the student does, then the next start of their server (lesson 2 was deleted: the
    # hook has something to copy again)
    link = lessons / replaced
    shutil.rmtree(link) if link.is_dir() else link.unlink()
    link.symlink_to(etc / target)
    (lessons / "02_b.ipynb").unlink()
    before = _outside(scratch, home)
    copy_lessons()
    assert _outside(scratch, home) == before  # nothing made, changed or chowned outside
    assert sorted(p.name for p in etc.iterdir()) == ["shadow"]
    assert (etc / "shadow").read_text("utf-8") == "root's"
    assert link.is_symlink() and os.readlink(link) == str(etc / target)  # theirs, kept
    assert (lessons / "02_b.ipynb").read_text("utf-8") == "lesson 2"  # copied again
    assert (lessons / "02_b.ipynb").lstat().st_uid == student.pw_uid


def test_the_hook_writes_only_what_the_student_could(hub_as_root, caplog) -> None:
    """The copy runs as the student: a folder in their home that they can't write (root's)
    stays empty, and the hub says why."""
    copy_lessons, home, _, _, _ = hub_as_root
    copy_lessons()
    lessons = home / "rulekit-lessons"
    shutil.rmtree(lessons / "templates")
    (lessons / "templates").mkdir(mode=0o755)  # root's, inside the student's home
    (lessons / "01_a.ipynb").unlink()
    with caplog.at_level(logging.WARNING):
        copy_lessons()
    assert list((lessons / "templates").iterdir()) == []
    assert "lessons not copied for nobody" in caplog.text and "PermissionError" in caplog.text
    assert (lessons / "01_a.ipynb").read_text("utf-8") == "lesson 1"  # where they can write


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
    for path in re.findall(r"\bmtg_rulekit/[\w/.-]+", post.read_text("utf-8")):
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
