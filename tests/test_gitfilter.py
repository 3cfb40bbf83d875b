"""Notebook outputs never reach a commit: the nbstripout clean filter (`mtg_rulekit.lab.gitfilter`, set
up by the bootstrap) turns a lesson as JupyterLab saves it, run and with its widget state, back
into the committed notebook, byte for byte; so `git status` stays clean after a lesson is used."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import nbformat
import pytest

from mtg_rulekit.lab import gitfilter

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def as_jupyterlab_saves_it(text: str) -> str:
    """A committed notebook after Run All and Save in JupyterLab (with widget state saving on)."""
    nb = json.loads(text)
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] == "code":
            cell["execution_count"] = i + 1
            cell["outputs"] = [{"output_type": "stream", "name": "stdout", "text": ["hi\n"]},
                               {"output_type": "display_data", "metadata": {},
                                "data": {"text/plain": ["x"]}}]
            cell["metadata"]["execution"] = {"iopub.status.idle": "2026-01-01T00:00:00Z"}
    nb["metadata"]["widgets"] = {"application/vnd.jupyter.widget-state+json": {
        "state": {}, "version_major": 2, "version_minor": 0}}
    nb["metadata"]["language_info"] = {
        "codemirror_mode": {"name": "ipython", "version": 3}, "file_extension": ".py",
        "mimetype": "text/x-python", "name": "python", "nbconvert_exporter": "python",
        "pygments_lexer": "ipython3", "version": "3.11.2"}
    return json.dumps(nb, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def clean(text: str) -> str:
    argv = [*shlex.split(gitfilter.clean_command()), "--extra-keys", gitfilter.EXTRA_KEYS]
    done = subprocess.run(argv, input=text, capture_output=True, text=True, check=True)
    return done.stdout


def test_the_filter_gives_back_the_committed_notebooks():
    """What the filter does, in this process (`gitfilter.strip`, the function nbstripout runs),
    for every lesson; the command git runs is checked on the same notebooks below (slow)."""
    for path in NOTEBOOKS:
        committed = path.read_text("utf-8")
        saved = as_jupyterlab_saves_it(committed)
        assert saved != committed
        nb = gitfilter.strip(nbformat.reads(saved, as_version=4))
        assert nbformat.writes(nb) + "\n" == committed, path.name
        nb = gitfilter.strip(nbformat.reads(committed, as_version=4))
        assert nbformat.writes(nb) + "\n" == committed, path.name  # stripping dirties nothing


@pytest.mark.slow  # nbstripout processes
def test_the_filter_command_gives_back_the_committed_notebooks():
    """The command git runs (`python -m nbstripout` with the kit's keys) does what
    `gitfilter.strip` does above: checked on the first lesson (each process costs seconds;
    the function it runs is checked on every lesson, and git runs it on the last one in
    `test_install_strips_on_git_add`)."""
    for path in NOTEBOOKS[:1]:
        committed = path.read_text("utf-8")
        saved = as_jupyterlab_saves_it(committed)
        assert clean(saved) == committed, path.name
        assert clean(committed) == committed, path.name  # installing the filter dirties nothing


@pytest.mark.slow  # git runs nbstripout
def test_install_strips_on_git_add(tmp_path):
    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", str(tmp_path), *args], capture_output=True,
                              text=True, check=True).stdout

    git("init", "-q")
    git("config", "user.email", "t@example.org")
    git("config", "user.name", "t")
    (tmp_path / ".gitattributes").write_bytes((ROOT / ".gitattributes").read_bytes())
    lesson = tmp_path / "lesson.ipynb"
    committed = NOTEBOOKS[-1].read_text("utf-8")
    lesson.write_text(committed, "utf-8")
    assert gitfilter.install(tmp_path, sys.executable)
    git("add", ".")
    git("commit", "-qm", "lesson")
    lesson.write_text(as_jupyterlab_saves_it(committed), "utf-8")
    assert git("diff") == ""  # (git status says "M" until `git add` refreshes the index)
    git("add", "-A")
    assert git("status", "--porcelain") == ""
    assert git("show", ":lesson.ipynb") == committed
    assert '"output_type": "stream"' in lesson.read_text("utf-8")  # the working file keeps them


def test_install_outside_a_checkout_does_nothing(tmp_path):
    assert gitfilter.install(tmp_path) is False


# one thread for every `run` (an executor starts its thread at the first task)
_LOOP_THREAD = ThreadPoolExecutor(max_workers=1, thread_name_prefix="rk-asyncio")


def run(coroutine):
    """`asyncio.run` in a thread of its own: a browser test (Playwright's sync API) may have
    left an event loop running in this one. Always the same thread: Jupyter's notary opens
    its SQLite store in the thread that first signs a notebook and refuses it in any other
    (a thread per call failed once in a while, when the new thread's id was not the old's)."""
    import asyncio

    return _LOOP_THREAD.submit(asyncio.run, coroutine).result()


@pytest.mark.slow  # imports jupyter_server
def test_jupyterlab_saves_a_lesson_as_committed_and_reopens_it_with_its_outputs(tmp_path,
                                                                              monkeypatch):
    """`make lab`'s contents manager: Save writes the committed bytes (git status clean with no
    `git add`), and opening the lesson gives back what was saved, widget state included."""
    from mtg_rulekit.lab.contents import LessonContentsManager

    committed = NOTEBOOKS[-1].read_text("utf-8")
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "lesson.ipynb").write_text(committed, "utf-8")
    (repo / ".gitignore").write_bytes((ROOT / ".gitignore").read_bytes())
    for args in (["init", "-q"], ["add", "."],
                 ["-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-qm", "l"]):
        subprocess.run(["git", "-C", str(repo), *args], check=True)
    saved = json.loads(as_jupyterlab_saves_it(committed))
    for cell in saved["cells"]:  # run by the user: JupyterLab sends them trusted
        if cell["cell_type"] == "code":
            cell["metadata"]["trusted"] = True
    monkeypatch.setenv("JUPYTER_DATA_DIR", str(tmp_path / "data"))  # the notary's signatures
    manager = LessonContentsManager(root_dir=str(tmp_path / "repo"))

    async def save_then_open() -> dict:
        await manager.save({"type": "notebook", "format": "json", "content": saved},
                           "lesson.ipynb")
        return await manager.get("lesson.ipynb")

    model = run(save_then_open())
    assert (repo / "lesson.ipynb").read_text("utf-8") == committed
    status = subprocess.run(["git", "-C", str(repo), "status", "--porcelain"],
                            capture_output=True, text=True, check=True).stdout
    assert status == ""
    assert model["content"]["metadata"]["widgets"] == saved["metadata"]["widgets"]
    code = [c for c in model["content"]["cells"] if c["cell_type"] == "code"]
    assert code and all(c["outputs"] for c in code)
    assert all(c["metadata"].get("trusted") for c in code)  # so its widgets render
    # the lesson changed since (an edit made elsewhere): it opens as it is, without stale outputs
    (repo / "lesson.ipynb").write_text(committed.replace("Lesson 8", "Lesson 8 (edited)"))
    fresh = run(manager.get("lesson.ipynb"))
    assert "widgets" not in fresh["content"]["metadata"]
    assert "(edited)" in fresh["content"]["cells"][0]["source"]
