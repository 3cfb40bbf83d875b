"""The JupyterLite site of the lessons (`make lite`, mtg_rulekit/export/lite.py): built from the pinned
registry packages, served over HTTP on 127.0.0.1 with every other request blocked, a lesson
opens in Debian's Chromium ready to run: Run All Cells draws its walkthroughs (the diagrams by
Viz.js in the Pyodide kernel, with the same titles as Graphviz's), Next steps one, and a tap in
the sandbox is answered by the engine in the browser's Python. No install cell, no CDN.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

from tests.helpers import unavailable
from tests.hosts import only_from, run_all_cells, tap_a_forest

pytestmark = [pytest.mark.lite, pytest.mark.browser, pytest.mark.slow]

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts" / "lite"
LESSON = "01_tapping_and_summoning_sickness"


@pytest.fixture(scope="module")
def lite_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built once for this module from the checkout's lessons (npm and PyPI only
    the first time: their files are cached, checked by hash)."""
    import importlib.util

    if importlib.util.find_spec("jupyterlite_core") is None:
        unavailable("jupyterlite-core is not installed (the lite extra)")
    from mtg_rulekit.export.lite import build_lite, size_mb

    tmp = tmp_path_factory.mktemp("lite")
    try:
        site = build_lite(tmp / "lite", ROOT / "notebooks", work=tmp / "work", echo=print)
    except (RuntimeError, OSError) as exc:  # no npm or no registry on a developer's machine
        unavailable(f"the JupyterLite site could not be built: {exc}")
    assert site.out.is_dir() and size_mb(site.out) < 80
    return site.out


def test_the_site_preloads_every_package_and_fetches_nothing_outside(lite_site: Path):
    config = json.loads((lite_site / "jupyter-lite.json").read_text("utf-8"))
    kernel = config["jupyter-config-data"]["litePluginSettings"][
        "@jupyterlite/pyodide-kernel-extension:kernel"]
    assert kernel["pyodideUrl"] == "./static/pyodide/pyodide.mjs"
    assert kernel["disablePyPIFallback"] is True
    lock = json.loads((lite_site / "static" / "pyodide" / "pyodide-lock.json").read_text("utf-8"))
    preloaded = set(kernel["loadPyodideOptions"]["packages"])
    assert preloaded == set(lock["packages"])
    # what the kernel would otherwise install at start (piplite) and what the lessons import
    assert {"micropip", "ipykernel", "comm", "pyodide-kernel", "jedi", "ipython", "ipywidgets",
            "anywidget", "mtg-rulekit"} <= preloaded
    for entry in lock["packages"].values():
        assert (lite_site / "static" / "pyodide" / entry["file_name"]).is_file()
        assert set(entry["depends"]) <= set(lock["packages"]), entry["name"]
    assert lock["packages"]["mtg-rulekit"]["imports"] == ["mtg_rulekit"]
    assert (lite_site / "static" / "pyodide" / "viz.js").is_file()
    lessons = sorted(p.name for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    assert sorted(p.name for p in (lite_site / "files").glob("*.ipynb")) == lessons
    overrides = config["jupyter-config-data"]["settingsOverrides"]
    assert overrides["@jupyterlab/apputils-extension:notification"]["fetchNews"] == "false"
    # no address of a CDN in what the site is configured with
    assert "cdn.jsdelivr" not in json.dumps(config) and "pypi.org" not in json.dumps(config)


@pytest.mark.timeout(900)
def test_a_lesson_opens_runs_steps_and_plays_offline(lite_site: Path, browser) -> None:
    from mtg_rulekit.export.browser import serve

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with serve(lite_site) as base:
        # the service worker is JupyterLite's optional cache of the contents; blocked, so that
        # every request of the page and of its kernel's worker is seen (and it works without)
        context = browser.new_context(viewport={"width": 1366, "height": 768},
                                      service_workers="block")
        outside: list[str] = []

        context.route("**/*", only_from(outside, base, "data:", "blob:"))
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        try:
            started = time.monotonic()
            page.goto(f"{base}notebooks/index.html?path={LESSON}.ipynb", timeout=120_000)
            page.locator(".jp-NotebookPanel .jp-Cell").first.wait_for(timeout=120_000)
            # the lesson's top says how to run it (it has no outputs yet)
            page.locator(".jp-NotebookPanel .jp-Cell").first.locator(
                ".jp-RenderedMarkdown em", has_text="Run All Cells").wait_for(timeout=60_000)
            run_all_cells(page, lambda: page.locator(
                ".jp-Notebook-ExecutionIndicator[data-status='idle']").first.wait_for(
                state="attached", timeout=300_000))
            stepper = page.locator(".jp-NotebookPanel .rk-stepper").first
            stepper.wait_for(state="visible", timeout=600_000)
            first_s = time.monotonic() - started
            errors_shown = page.locator(".jp-OutputArea-output[data-mime-type="
                                        "'application/vnd.jupyter.stderr']").all_inner_texts()
            stepper.scroll_into_view_if_needed()
            step = lambda: int(stepper.locator(".rk-frame").first.get_attribute("data-step"))  # noqa: E731
            assert step() == 0
            for expected in (1, 2):
                stepper.locator(".rk-next").click()
                page.wait_for_timeout(300)
                assert step() == expected, "Next did not step"
            # drawn by Viz.js in the kernel, titled in words as Graphviz's drawings are (a
            # drawing's own titles are node names, "n3", and edges, "n3->n4")
            titles = stepper.locator(".rk-frame svg title").evaluate_all(
                "ts => ts.map((t) => t.textContent)")
            assert len(titles) >= 3, titles
            assert not [t for t in titles if re.fullmatch(r"[\w-]*\d[\w-]*", t) or "->" in t], \
                titles
            assert any(len(t.split()) >= 4 for t in titles[1:]), titles
            page.screenshot(path=str(ARTIFACTS / "stepped.png"))
            # the sandbox plays: its click goes to SandboxModel in the kernel (in Pyodide)
            sandbox = page.locator(".jp-NotebookPanel .rk-sandbox").first
            sandbox.wait_for(state="attached", timeout=600_000)
            sandbox.scroll_into_view_if_needed()
            assert sandbox.get_attribute("data-state") == "ready"
            said = tap_a_forest(page, sandbox, 60_000).inner_text()
            assert "taps Forest" in said and "Forest made" in said, said  # the narrator's words
            page.screenshot(path=str(ARTIFACTS / "sandbox.png"))
            print(f"lite: first walkthrough {first_s:.1f} s after opening")
        except Exception:
            page.screenshot(path=str(ARTIFACTS / "failure.png"))
            raise
        finally:
            page.close()
            context.close()
    assert not outside, outside[:10]
    assert not [t for t in errors_shown if "Traceback" in t or "Error" in t], errors_shown
