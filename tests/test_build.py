"""The lesson build (`python -m mtg_rulekit.export`): pages, offline assets, cache, failures, index.

These build small notebooks of their own in a temporary folder (the same widget pattern as the
lessons: a Stack of HTML frames jslinked to Play / IntSlider / BoundedIntText / ToggleButtons,
plus an SVG output), so they hold whether or not `notebooks/` has lessons yet. The real lessons
are opened in Chromium by tests/test_browser.py.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import nbformat
import pytest

from mtg_rulekit.display.svg import strip_prolog
from mtg_rulekit.export import assets, build, main
from mtg_rulekit.export.index import render, render_teachers
from mtg_rulekit.export.lesson import first_line

pytestmark = [pytest.mark.notebook, pytest.mark.xdist_group("build")]  # one `built` site

STEPPER = '''import ipywidgets as widgets
from mtg_rulekit import Game
from mtg_rulekit.display import log_diagram
game = Game(["Alice", "Bob"])
forest = game.add("Forest")
frames = [widgets.HTML("<p class='rk-narration'>Set-up</p>" + log_diagram(game).svg())]
game.tap_for_mana(forest)
frames.append(widgets.HTML("<p class='rk-narration'>Alice taps the Forest</p>"
                           + log_diagram(game).svg()))
stack = widgets.Stack(frames, selected_index=0)
controls = [widgets.Play(min=0, max=1), widgets.IntSlider(min=0, max=1),
            widgets.BoundedIntText(min=0, max=1)]
for c in controls:
    widgets.jslink((c, "value"), (stack, "selected_index"))
toggles = widgets.ToggleButtons(options=[("Set-up", 0), ("1", 1)])
widgets.jslink((toggles, "index"), (stack, "selected_index"))
box = widgets.VBox([widgets.HBox(controls), toggles, stack])
box.add_class("rk-stepper")
box'''

SANDBOX = '''sandbox = widgets.VBox([widgets.Button(description="Tap for mana")])
sandbox.add_class("rk-sandbox")
sandbox'''


def _notebook(path: Path, cells: list) -> Path:
    nb = nbformat.v4.new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    for i, cell in enumerate(nb.cells):
        cell.id = f"cell{i}"
    nbformat.write(nb, path)
    return path


def _lesson(folder: Path, name: str = "01_tap", title: str = "Tapping <b>a</b> Forest") -> Path:
    md, code = nbformat.v4.new_markdown_cell, nbformat.v4.new_code_cell
    return _notebook(folder / f"{name}.ipynb", [
        md(f"# {title}\n\nWords.\n\n## The walkthrough (R03)"), code(STEPPER),
        code("log_diagram(game)"), code(SANDBOX)])


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory):
    """Two small lessons built once (two worker processes), with the build's stderr lines."""
    root = tmp_path_factory.mktemp("build")
    nbs = root / "notebooks"
    nbs.mkdir()
    _lesson(nbs)
    _notebook(nbs / "00_start.ipynb", [nbformat.v4.new_markdown_cell("# Start here"),
                                       nbformat.v4.new_code_cell("1 + 1")])
    lines: list[str] = []
    report = build(nbs, root / "site", jobs=2, cache_dir=root / "cache", echo=lines.append)
    return root, report, lines


def test_builds_every_page_and_the_index(built) -> None:
    root, report, lines = built
    site = root / "site"
    assert report.ok, [f.error for f in report.failures]
    assert sorted(p.name for p in site.glob("*.html")) == ["00_start.html", "01_tap.html",
                                                           "cards.html", "index.html",
                                                           "quiz.html", "teachers.html"]
    assert '<a href="cards.html">' in (site / "index.html").read_text("utf-8")
    cards = (site / "cards.html").read_text("utf-8")
    assert '<th scope="row">Slagstone Refinery</th>' in cards
    assert [e["title"] for e in report.lessons] == ["Start here", "Tapping a Forest"]
    assert any(re.fullmatch(r"\[[12]/2\] 01_tap\.\.\. \d+\.\d s \(\d+ KB\)", ln) for ln in lines)
    assert "2 built, 0 unchanged, 0 failed" in lines[-1]
    # a lesson page links the index at its top and the next lesson at its end
    start = (site / "00_start.html").read_text("utf-8")
    assert '<a href="index.html">← All lessons</a>' in start
    assert '<a href="01_tap.html" rel="next">Tapping a Forest →</a>' in start


def test_the_executed_notebooks_are_kept_in_the_cache_not_the_site(built) -> None:
    """What the notebook tests read instead of executing every lesson again: each lesson as
    the build ran it, outputs included, in the cache folder (never published with the site)."""
    from mtg_rulekit.export import executed_notebook

    root, _, _ = built
    copy = executed_notebook(root / "site", "00_start", cache_dir=root / "cache")
    assert copy.is_file() and root / "site" not in copy.parents
    cell = nbformat.read(copy, as_version=4).cells[1]
    assert cell.outputs[0]["data"]["text/plain"] == "2"
    # a cache entry whose executed copy is gone is rebuilt, so the tests never read a stale one
    copy.unlink()
    again = build(root / "notebooks", root / "site", jobs=1, cache_dir=root / "cache",
                  echo=lambda _line: None)
    assert [Path(r.notebook).stem for r in again.built] == ["00_start"] and copy.is_file()


def test_kernels_talk_over_ipc_without_the_unencrypted_tcp_warning(built) -> None:
    """ipykernel warns "running over TCP without encryption" unless the kernel manager picks
    another transport; the build's kernels use IPC sockets (mtg_rulekit.lab.kernels)."""
    root, _, lines = built
    logs = sorted((root / "cache" / "logs").glob("*.kernel.log"))
    assert [p.name for p in logs] == ["00_start.kernel.log", "01_tap.kernel.log"]
    text = "\n".join([*lines, *(p.read_text("utf-8", "replace") for p in logs)])
    assert "without encryption" not in text


def test_page_stores_widget_state_and_loads_the_local_widget_manager(built) -> None:
    root, report, _ = built
    if not report.offline:
        pytest.skip("npm could not fetch the widget manager here: CDN mode")
    page = (root / "site" / "01_tap.html").read_text("utf-8")
    assert 'application/vnd.jupyter.widget-state+json' in page
    assert "_static/html-manager/embed.js" in page
    static = root / "site" / "_static"
    assert (static / "html-manager" / "embed.js").stat().st_size > 1_000_000
    assert list((static / "html-manager").glob("*.woff2"))
    assert (static / "lab" / "index.css").is_file()
    # nothing is loaded from anywhere else: no remote script, link or stylesheet
    for tag in re.findall(r"<(?:script|link|img)\b[^>]*>", page):
        assert not re.search(r"(?:src|href)=\"(?:https?:)?//", tag), tag
    assert "require.min.js" not in page and "mathjax" not in page.lower()


def test_svg_outputs_are_inline_not_base64(built) -> None:
    root, _, _ = built
    page = (root / "site" / "01_tap.html").read_text("utf-8")
    body = page.split("<main>", 1)[1]
    assert re.search(r'data-mime-type="image/svg\+xml"[^>]*>\s*<svg', body)
    assert "data:image/svg+xml;base64" not in body
    assert "&lt;svg" not in body.split('<script type="application/vnd.jupyter.widget-state')[0]


def test_index_lists_lessons_and_all_rulings(built) -> None:
    root, _, _ = built
    index = (root / "site" / "index.html").read_text("utf-8")
    # numbered as the lessons are (01_tap is lesson 1), titles as link text
    assert '<li value="1"><a href="01_tap.html">Tapping a Forest</a>' in index
    assert ">01_tap: " not in index and ">01_tap<" not in index
    assert '<a class="button" href="00_start.html">Start here</a>' in index
    assert re.search(r"\(about \d+ minutes\)", index) and 'href="teachers.html"' in index
    assert "<table" not in index and "<script" not in index  # the coverage is the teachers'
    teachers = (root / "site" / "teachers.html").read_text("utf-8")
    # tests are a count that opens the list, never raw ids inline
    assert re.search(r"<td><details><summary>\d+ tests?</summary>", teachers)
    assert not re.search(r"<td><ul><li><code>tests/", teachers)
    for i in range(1, 20):
        assert f'<tr id="R{i:02d}">' in teachers
    assert '<a href="01_tap.html">Tapping a Forest</a>' in teachers
    assert "Present" in teachers and "Printing" in teachers and "<script" not in teachers


def test_unchanged_lessons_are_not_rebuilt_and_a_changed_one_is(built) -> None:
    root, _, _ = built
    site, nbs = root / "site", root / "notebooks"
    before = (site / "00_start.html").stat().st_mtime_ns
    lines: list[str] = []
    again = build(nbs, site, jobs=2, cache_dir=root / "cache", echo=lines.append)
    assert sorted(again.cached) == ["00_start", "01_tap"] and not again.built
    assert "[1/2] 00_start unchanged (cached)" in lines
    nb = nbformat.read(nbs / "00_start.ipynb", as_version=4)
    nb.cells[1].source = "2 + 2"
    nbformat.write(nb, nbs / "00_start.ipynb")
    third = build(nbs, site, jobs=2, cache_dir=root / "cache", echo=lines.append)
    assert third.cached == ["01_tap"] and [Path(r.notebook).stem for r in third.built] == \
        ["00_start"]
    assert (site / "00_start.html").stat().st_mtime_ns != before


def test_a_failure_names_the_notebook_and_the_cell(tmp_path: Path, capsys) -> None:
    nbs = tmp_path / "notebooks"
    nbs.mkdir()
    code = nbformat.v4.new_code_cell
    _notebook(nbs / "03_broken.ipynb", [nbformat.v4.new_markdown_cell("# Broken"),
                                        code("x = 1"), code("  # a comment\nundefined_name + x")])
    # no live sandbox to prepare: what is checked is how a failing cell is reported
    assert main(["--notebooks", str(nbs), "--out", str(tmp_path / "site"), "--jobs", "1",
                 "--cache", str(tmp_path / "cache"), "--sandbox", "off"]) == 1
    err = capsys.readouterr().err
    assert re.search(r"FAILED \S*03_broken\.ipynb: cell 3 \(`# a comment`\): NameError: "
                     r"name 'undefined_name' is not defined", err), err
    assert not (tmp_path / "site" / "03_broken.html").exists()


def test_a_failed_build_keeps_the_last_good_page_and_its_index_entry(tmp_path: Path,
                                                                     capsys) -> None:
    """A typo in a walkthrough's name, ten minutes before class: the build fails naming the
    lesson, the cell (as JupyterLab counts) and the name it meant, and the lesson's last good
    page and its line in the index stay as they were."""
    from tests.helpers import write_notebook

    nbs = tmp_path / "notebooks"
    imports = "from mtg_rulekit.display.widgets import Stepper"
    path = write_notebook(nbs, "09_powerstone", "Lesson 9: Powerstone mana", imports,
                          'Stepper("r12_powerstone_mana_uses")')
    args = ["--notebooks", str(nbs), "--out", str(tmp_path / "site"), "--jobs", "1",
            "--cache", str(tmp_path / "cache"), "--sandbox", "off"]
    assert main(args) == 0
    page, index = tmp_path / "site" / "09_powerstone.html", tmp_path / "site" / "index.html"
    good = page.read_bytes()
    assert b"rk-view" in good and b'href="09_powerstone.html"' in index.read_bytes()
    capsys.readouterr()
    path.write_text(path.read_text("utf-8").replace("mana_uses", "mana_use"), "utf-8")
    assert main(args) == 1
    err = capsys.readouterr().err
    assert re.search(r"FAILED \S*09_powerstone\.ipynb: cell 3 \(`Stepper\(\"r12_powerstone_mana_use"
                     r"\"\)`\): FileNotFoundError: no scenario file 'r12_powerstone_mana_use' "
                     r"\(neither a path nor a shipped scenario\); did you mean "
                     r"'r12_powerstone_mana_uses'\?", err), err
    assert f"{page} stays as the last good build made it, and so does its line in the index" \
        in err
    assert page.read_bytes() == good
    assert '<a href="09_powerstone.html">Lesson 9: Powerstone mana</a>' in index.read_text("utf-8")
    # fixed: built again (the kept entry's key is the good notebook's, not this one's)
    path.write_text(path.read_text("utf-8").replace("mana_use", "mana_uses"), "utf-8")
    path.write_text(path.read_text("utf-8").replace("Powerstone mana", "Powerstone's mana"),
                    "utf-8")
    assert main(args) == 0
    assert "Powerstone&#x27;s mana" in index.read_text("utf-8") and page.read_bytes() != good


def test_a_scenario_change_rebuilds_only_the_lessons_that_read_it(tmp_path: Path) -> None:
    """The lessons' pages depend on the scenarios their kernels read: editing one rebuilds the
    lessons that read it, adding one rebuilds none but a lesson that lists the scenarios (the
    start page's coverage table). Built by `python -m mtg_rulekit.export` from a copy of the
    package, whose scenarios the test may change."""
    import os
    import subprocess
    import sys

    from tests.helpers import write_notebook

    pkg = tmp_path / "pkg"
    shutil.copytree(Path(__file__).resolve().parent.parent / "mtg_rulekit", pkg / "mtg_rulekit",
                    ignore=shutil.ignore_patterns("__pycache__"))
    scenarios = pkg / "mtg_rulekit" / "scenarios"
    nbs = tmp_path / "notebooks"
    imports = "from mtg_rulekit.display.widgets import Stepper"
    write_notebook(nbs, "01_tap", "Tap", imports, 'Stepper("r07_paying_tap")')
    write_notebook(nbs, "02_untap", "Untap", imports, 'Stepper("r08_paying_untap")')
    write_notebook(nbs, "03_all", "All", "from mtg_rulekit.display import lesson",
                   "lesson.show_rulings_table()")
    env = {**os.environ, "PYTHONPATH": str(pkg)}

    def build_lines() -> list[str]:
        done = subprocess.run(
            [sys.executable, "-m", "mtg_rulekit.export", "--notebooks", str(nbs), "--out",
             str(tmp_path / "site"), "--cache", str(tmp_path / "cache"), "--jobs", "1",
             "--widgets", "cdn", "--sandbox", "off"],
            cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr[-3000:]
        return sorted(line.split("] ", 1)[1].split("...")[0].split(" unchanged")[0]
                      for line in done.stderr.splitlines()
                      if line.startswith("[") and "unchanged" not in line)

    assert build_lines() == ["01_tap", "02_untap", "03_all"]
    assert build_lines() == []
    untap = scenarios / "r08_paying_untap.toml"
    untap.write_text(untap.read_text("utf-8") + "\n# edited\n", "utf-8")
    assert build_lines() == ["02_untap", "03_all"]  # the table read every scenario
    (scenarios / "r99_new.toml").write_bytes((scenarios / "r07_paying_tap.toml").read_bytes())
    assert build_lines() == ["03_all"]  # the new file is in its list of scenarios


def test_without_npm_the_build_says_so_and_uses_the_cdn(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("RULEKIT_CACHE", str(tmp_path / "empty-cache"))
    monkeypatch.setattr(assets.shutil, "which", lambda _name: None)
    found = assets.prepare()
    assert not found.offline and "npm is not installed" in found.reason
    nbs = tmp_path / "notebooks"
    nbs.mkdir()
    _notebook(nbs / "01_one.ipynb", [nbformat.v4.new_markdown_cell("# One"),
                                     nbformat.v4.new_code_cell(STEPPER)])
    lines: list[str] = []
    report = build(nbs, tmp_path / "site", cache_dir=tmp_path / "cache", echo=lines.append)
    assert report.ok and not report.offline
    notice = [ln for ln in lines if "public CDN" in ln]
    assert len(notice) == 1 and "npm is not installed" in notice[0]
    assert "need a network" in (tmp_path / "site" / "index.html").read_text("utf-8")
    page = (tmp_path / "site" / "01_one.html").read_text("utf-8")
    assert "@jupyter-widgets/html-manager@1.0.15/dist/embed-amd.js" in page
    assert "need a network" in page


def test_a_tampered_bundle_is_refused(tmp_path: Path, monkeypatch) -> None:
    def fake_pack(dest: Path) -> Path:
        dest.mkdir(parents=True, exist_ok=True)
        (dest / assets.TARBALL).write_bytes(b"not the pinned package")
        return dest / assets.TARBALL

    monkeypatch.setattr(assets, "_npm_pack", fake_pack)
    with pytest.raises(assets.AssetError, match="refusing it"):
        assets.prepare(tmp_path)
    assert not (tmp_path / "npm" / assets.TARBALL).exists()


def test_the_pinned_bundle_verifies(tmp_path: Path) -> None:
    """The cached tarball (fetched by npm at build time) matches the pinned sha512."""
    tarball = assets.cache_dir() / "npm" / assets.TARBALL
    if not tarball.is_file():
        if shutil.which("npm") is None:
            pytest.skip("npm is not installed")
        try:
            assets.fetch()
        except RuntimeError as exc:
            pytest.skip(f"the npm registry can't be reached: {exc}")
    assert assets.integrity_of(tarball.read_bytes()) == assets.INTEGRITY


def test_index_escapes_every_text() -> None:
    from mtg_rulekit.core.rulings import Ruling
    from mtg_rulekit.export import BuildReport
    from mtg_rulekit.repo.coverage import Coverage, Section
    from mtg_rulekit.repo.outline import Heading

    hostile = '<script>alert("x")</script>'
    report = BuildReport(out=Path("."), widgets_note=hostile)
    report.lessons = [{"stem": "01_x", "title": hostile, "rulings": [hostile]}]
    cov = [Coverage(Ruling("R01", hostile, hostile, (hostile,), ""), tests=[hostile],
                    lessons=[Section("notebooks/01_x.ipynb", hostile, Heading(2, hostile))],
                    diagrams=[f"diagrams/{hostile}.svg"])]
    for page in (render(report, cov, link_diagrams=False),
                 render_teachers(report, cov, link_diagrams=False)):
        assert "<script" not in page
        assert "&lt;script&gt;" in page


def test_small_helpers() -> None:
    svg = '<?xml version="1.0"?>\n<!DOCTYPE svg PUBLIC "x" "y">\n<!-- by dot\n -->\n<svg a="1"/>'
    assert strip_prolog(svg) == '<svg a="1"/>'
    assert first_line("\n\n   import os  \nx") == "import os"


@pytest.mark.browser
def test_jupyter_widgets_say_they_run_in_jupyterlab(built, browser) -> None:
    """ipywidgets outputs (not the kit's views) don't run under the page's security policy:
    their widget manager compiles its schemas with `new Function`, and the policy allows no
    eval (mtg_rulekit.export.csp). Each says so where it would be, and the build said so."""
    from mtg_rulekit.export.browser import open_page

    root, _, lines = built
    assert any("01_tap" in ln and "Jupyter widgets" in ln and "eval" in ln for ln in lines)
    visit = open_page(browser, root / "site" / "01_tap.html", root / "site", stepper=False)
    try:
        messages = visit.page.locator(".rk-widget-missing")
        assert messages.count() >= 2  # the stepper and the sandbox
        visit.page.wait_for_timeout(500)
        assert all(messages.nth(i).is_visible() for i in range(messages.count()))
        assert "open the notebook in JupyterLab" in " ".join(messages.first.inner_text().split())
        assert visit.page.locator(".widget-subarea").count() == 0  # refused, not half drawn
    finally:
        visit.page.close()
