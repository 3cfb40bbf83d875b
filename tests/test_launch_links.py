"""Each lesson page offers to open its lesson elsewhere, as plain links in its top bar (nothing
requested at load): "Open in JupyterLite" when the JupyterLite site is built beside the pages
(`site/lite/`, `make lite`), "Open on Binder" when the lessons' repository is given (`make
lessons REPO_URL=...`); without either, neither. The pages, already run, leave out the
"Run All Cells" hint every lesson starts with."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

from mtg_rulekit.export import build, main
from mtg_rulekit.export.launch import binder_url, links
from mtg_rulekit.repo.lessons import RUN_HINT
from tests.helpers import write_notebook

pytestmark = pytest.mark.notebook

REPO = "https://github.com/example-org/rulekit"
LAUNCH = re.compile(r'<a class="rk-launch" href="([^"]*)">([^<]*)</a>')


def _lesson(folder: Path) -> Path:
    """A lesson of text only (no kernel to start), its first cell ending with the hint."""
    path = write_notebook(folder, "01_words", "Lesson 1: Words")
    nb = nbformat.read(path, as_version=4)
    nb.cells[0].source += "\n\n" + RUN_HINT
    nbformat.write(nb, path)
    return path


def _links(page: Path) -> list[tuple[str, str]]:
    return [(label, href.replace("&amp;", "&")) for href, label in
            LAUNCH.findall(page.read_text("utf-8"))]


def test_pages_link_to_jupyterlite_when_built_beside_and_to_binder_when_configured(tmp_path):
    nbs, out, cache = tmp_path / "nbs", tmp_path / "site", tmp_path / "cache"
    _lesson(nbs)
    # the JupyterLite site first (make lite builds it, then the pages): the build takes it
    (out / "lite").mkdir(parents=True)
    (out / "lite" / "jupyter-lite.json").write_text("{}", "utf-8")
    report = build(nbs, out, jobs=1, widgets="cdn", cache_dir=cache, repo=REPO,
                   echo=lambda _l: None)
    assert report.ok, [f.error for f in report.failures]
    page = out / "01_words.html"
    assert _links(page) == [
        ("Open in JupyterLite", "lite/notebooks/index.html?path=01_words.ipynb"),
        ("Open on Binder", "https://mybinder.org/v2/gh/example-org/rulekit/HEAD"
                           "?urlpath=lab/tree/notebooks/01_words.ipynb")]
    assert "Nothing to step below" not in page.read_text("utf-8")
    # neither: no links, and the pages are made again (another cache key)
    (out / "lite" / "jupyter-lite.json").unlink()
    again = build(nbs, out, jobs=1, widgets="cdn", cache_dir=cache, echo=lambda _l: None)
    assert again.ok and not again.cached
    assert _links(page) == []


def test_a_repository_must_be_an_https_url(tmp_path, capsys):
    assert links(None, None) == ()
    with pytest.raises(ValueError):
        binder_url("git@github.com:org/rulekit.git")
    code = main(["--notebooks", str(tmp_path), "--out", str(tmp_path / "site"),
                 "--repo", "ftp://example.org/kit"])
    assert code == 2 and "--repo" in capsys.readouterr().err
