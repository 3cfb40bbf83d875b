"""The lesson build overwrites and deletes only what it wrote itself.

Hostile or stale cache entries are ignored, a user's own files in `--out` survive, a build of
another notebooks folder leaves the first folder's pages alone, the cache and kernel logs stay out
of the published folder, and an unusable `--out` is one line, exit 2, with nothing changed.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import nbformat
import pytest

from mtg_rulekit.export import build, main
from mtg_rulekit.export.ownership import (
    CACHE_FORMAT,
    GENERATOR_TAG,
    OutError,
    cache_dir_for,
    is_ours,
    sha256_file,
)
from mtg_rulekit.repo.coverage import repo_root
from tests.helpers import write_notebook

pytestmark = pytest.mark.notebook


def _lesson(folder: Path, stem: str, title: str, *code: str) -> Path:
    """A lesson of text only unless `code` is given: what these tests check is which files a
    build writes, and a notebook with no code cell starts no kernel."""
    return write_notebook(folder, stem, title, *code)


def _build(nbs: Path, out: Path, cache: Path) -> object:
    report = build(nbs, out, jobs=1, widgets="cdn", cache_dir=cache, echo=lambda _l: None)
    assert report.ok, [f.error for f in report.failures]
    return report


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_hostile_cache_entries_are_ignored_and_nothing_else_is_touched(tmp_path: Path) -> None:
    nbs, out, cache = tmp_path / "notebooks", tmp_path / "site", tmp_path / "cache"
    _lesson(nbs, "01_one", "One")
    outside = tmp_path / "victim"
    outside.mkdir()
    (outside / "abs.html").write_text("outside --out")
    first = _build(nbs, out, cache)
    (out / "my_page.html").write_text("the user's own page")  # added to the built site
    assert [e["stem"] for e in first.lessons] == ["01_one"]
    # a cache that names pages outside --out, a path, the user's page, with the right format
    entry = {"key": "k", "sha256": "0" * 64, "notebook": str(tmp_path / "gone.ipynb")}
    hostile = {str(outside / "abs"): {**entry, "page": f"{outside}/abs.html"},
               "../victim/abs": {**entry, "page": "../victim/abs.html"},
               "my_page": {**entry, "page": "my_page.html"}}
    for file in (cache / "lessons.json", out / ".cache" / "lessons.json"):  # new and old place
        file.parent.mkdir(exist_ok=True)
        file.write_text(json.dumps({"format": CACHE_FORMAT, "out": str(out.resolve()),
                                    "lessons": hostile}))
    second = build(nbs, out, jobs=1, widgets="cdn", cache_dir=cache, echo=lambda _l: None)
    assert second.ok and not second.cached  # the untrusted cache was not used at all
    assert (outside / "abs.html").read_text() == "outside --out"
    assert (out / "my_page.html").read_text() == "the user's own page"
    assert [e["stem"] for e in second.lessons] == ["01_one"]
    # a well-formed cache naming the user's page with its true sha256: still not the build's page
    forged = {"my_page": {**entry, "page": "my_page.html",
                          "sha256": sha256_file(out / "my_page.html")}}
    (cache / "lessons.json").write_text(json.dumps({"format": CACHE_FORMAT,
                                                    "out": str(out.resolve()), "lessons": forged}))
    third = build(nbs, out, jobs=1, widgets="cdn", cache_dir=cache, echo=lambda _l: None)
    assert third.ok and (out / "my_page.html").read_text() == "the user's own page"
    assert [e["stem"] for e in third.lessons] == ["01_one"]


def test_a_users_page_with_a_recorded_name_but_other_content_stays(tmp_path: Path) -> None:
    nbs, out, cache = tmp_path / "notebooks", tmp_path / "site", tmp_path / "cache"
    gone = _lesson(nbs, "02_gone", "Gone")
    _lesson(nbs, "01_one", "One")
    _build(nbs, out, cache)
    gone.unlink()
    (out / "02_gone.html").write_text("the teacher rewrote this page by hand")
    _build(nbs, out, cache)
    assert (out / "02_gone.html").read_text() == "the teacher rewrote this page by hand"


def test_another_notebooks_folder_keeps_the_first_folders_pages(tmp_path: Path) -> None:
    lessons, extra = tmp_path / "notebooks", tmp_path / "one"
    out, cache = tmp_path / "site", tmp_path / "cache"
    _lesson(lessons, "01_one", "One")
    removed = _lesson(lessons, "02_two", "Two")
    _build(lessons, out, cache)
    _lesson(extra, "09_extra", "Extra")
    only = _build(extra, out, cache)
    assert {p.name for p in out.glob("*.html")} == {"01_one.html", "02_two.html",
                                                    "09_extra.html", "cards.html", "index.html",
                                                    "quiz.html", "teachers.html"}
    assert [e["stem"] for e in only.lessons] == ["01_one", "02_two", "09_extra"]
    # a lesson whose notebook is gone loses its page, and only that one
    removed.unlink()
    again = _build(lessons, out, cache)
    assert {p.name for p in out.glob("*.html")} == {"01_one.html", "09_extra.html", "cards.html",
                                                    "index.html", "quiz.html", "teachers.html"}
    assert [e["stem"] for e in again.lessons] == ["01_one", "09_extra"]


def test_cache_and_kernel_logs_live_outside_the_site(tmp_path: Path) -> None:
    nbs, out, cache = tmp_path / "notebooks", tmp_path / "site", tmp_path / "cache"
    _lesson(nbs, "01_one", "One", "1 + 1")  # a kernel, so a kernel log
    _build(nbs, out, cache)
    assert not (out / ".cache").exists()
    assert sorted(p.name for p in out.iterdir()) == ["01_one.html", "_static", "cards.html",
                                                     "diagrams", "index.html", "quiz.html",
                                                     "teachers.html"]
    assert (cache / "lessons.json").is_file() and (cache / "logs" / "01_one.kernel.log").is_file()
    assert is_ours(out / "01_one.html") and is_ours(out / "index.html")
    assert is_ours(out / "cards.html") and is_ours(out / "teachers.html")
    # by default: the checkout's build/ folder (removed by make clean), never inside --out
    default = cache_dir_for(out)
    assert default.parent == repo_root() / "build" / "lessons"
    assert default.name.startswith("site-")


def test_a_users_index_html_is_refused_before_anything_is_written(tmp_path: Path,
                                                                   capsys) -> None:
    nbs, out = tmp_path / "notebooks", tmp_path / "public"
    _lesson(nbs, "01_one", "One")
    out.mkdir()
    (out / "index.html").write_text("<h1>My class</h1>")
    before = _tree(out)
    code = main(["--notebooks", str(nbs), "--out", str(out), "--cache", str(tmp_path / "c")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1
    assert err[0] == (f"mtg_rulekit.export: --out {out} holds files mtg_rulekit.export did not write: "
                      "pick a new or empty folder for the site (e.g. site)")
    assert _tree(out) == before and sorted(os.listdir(out)) == ["index.html"]


def test_a_lesson_would_overwrite_a_users_page_in_a_rulekit_site(tmp_path: Path,
                                                                  capsys) -> None:
    nbs, out, cache = tmp_path / "notebooks", tmp_path / "site", tmp_path / "cache"
    _lesson(nbs, "01_one", "One")
    _build(nbs, out, cache)
    (out / "02_mine.html").write_text("mine")
    _lesson(nbs, "02_mine", "Mine")
    before = _tree(out)
    code = main(["--notebooks", str(nbs), "--out", str(out), "--cache", str(cache)])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1, err
    assert err[0].startswith(f"mtg_rulekit.export: {out}/02_mine.html was not written by "
                             "mtg_rulekit.export")
    assert _tree(out) == before


@pytest.mark.parametrize("case", ["existing file", "the checkout", "symlinked _static"])
def test_an_unusable_out_is_one_line_exit_2_and_nothing_changes(tmp_path: Path, capsys,
                                                                 monkeypatch, case: str) -> None:
    nbs = tmp_path / "notebooks"
    _lesson(nbs, "01_one", "One")
    if case == "existing file":
        out = tmp_path / "notes.txt"
        out.write_text("keep me")
        expected = f"--out {out} is a file, not a folder"
    elif case == "the checkout":
        monkeypatch.chdir(repo_root())
        out = Path(".")
        expected = "--out . is (or holds) the rulekit checkout"
    else:
        out = tmp_path / "site"
        out.mkdir()
        (out / "index.html").write_text(GENERATOR_TAG)
        (tmp_path / "elsewhere").mkdir()
        (out / "_static").symlink_to(tmp_path / "elsewhere")
        expected = f"{out}/_static is not a folder the build made"
    watched = tmp_path if case != "the checkout" else repo_root()
    before = sorted(os.listdir(watched))
    code = main(["--notebooks", str(nbs.resolve()), "--out", str(out),
                 "--cache", str(tmp_path / "cache")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1, err
    assert err[0].startswith(f"mtg_rulekit.export: {expected}"), err
    assert sorted(os.listdir(watched)) == before
    if case == "existing file":
        assert out.read_text() == "keep me"
    if case == "symlinked _static":
        assert not list((tmp_path / "elsewhere").iterdir())


def test_a_users_own_cards_page_is_never_overwritten(tmp_path: Path) -> None:
    """cards.html is the build's page like index.html: one that isn't refuses the build."""
    nbs, out, cache = tmp_path / "notebooks", tmp_path / "site", tmp_path / "cache"
    _lesson(nbs, "01_one", "One")
    _build(nbs, out, cache)
    assert GENERATOR_TAG in (out / "cards.html").read_text("utf-8")
    (out / "cards.html").write_text("the teacher's own card list")
    with pytest.raises(OutError, match="cards.html was not written by mtg_rulekit.export"):
        build(nbs, out, jobs=1, widgets="cdn", cache_dir=cache, echo=lambda _l: None)
    assert (out / "cards.html").read_text() == "the teacher's own card list"


def test_a_lesson_of_text_only_starts_no_kernel(tmp_path: Path) -> None:
    """Nothing to run, no kernel: its page is built from the notebook as it is (a kernel would
    have written its `language_info` into the executed copy, as it does for a lesson with code)."""
    from mtg_rulekit.export import executed_notebook

    nbs, out, cache = tmp_path / "notebooks", tmp_path / "site", tmp_path / "cache"
    _lesson(nbs, "01_text", "Text")
    _lesson(nbs, "02_code", "Code", "1 + 1")
    _build(nbs, out, cache)
    ran = {stem: nbformat.read(executed_notebook(out, stem, cache), as_version=4).metadata
           for stem in ("01_text", "02_code")}
    assert "language_info" not in ran["01_text"] and ran["02_code"]["language_info"]["name"] == \
        "python"
    assert "<h1" in (out / "01_text.html").read_text("utf-8")
