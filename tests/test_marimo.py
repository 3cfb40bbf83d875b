"""A lesson in marimo: `marimo convert` turns lesson 1 into a marimo notebook, `marimo run` serves
it on 127.0.0.1 (headless; marimo runs every cell when the page opens), and Debian's Chromium
steps a walkthrough with Next, enters Present (full screen, Right steps) and leaves it with
Escape at the same step, then taps a Forest in the sandbox, answered by the engine in marimo's
kernel. The walkthrough and the sandbox are the same anywidget modules as in JupyterLab (marimo
mounts each in its own shadow root; Playwright's locators reach inside). Every request outside
the server is blocked.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.helpers import unavailable
from tests.hosts import free_port, only_from, present_and_back, tap_a_forest

pytestmark = [pytest.mark.marimo, pytest.mark.browser, pytest.mark.lab]

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts" / "marimo"
LESSON = "01_tapping_and_summoning_sickness"
START_TIMEOUT_S = 120


def _marimo() -> str:
    found = Path(sys.executable).with_name("marimo")  # this virtualenv's
    if not found.exists():
        unavailable("marimo is not installed (the marimo extra: pip install 'mtg-rulekit[marimo]')")
    return str(found)


def _up(base: str) -> bool:
    try:
        with urllib.request.urlopen(f"{base}/health", timeout=5) as resp:
            return resp.status == 200
    except (OSError, urllib.error.HTTPError):
        return False


@pytest.fixture(scope="module")
def marimo_lesson(tmp_path_factory: pytest.TempPathFactory):
    """(base URL, the converted notebook): lesson 1 converted and served by `marimo run`."""
    marimo = _marimo()
    tmp = tmp_path_factory.mktemp("marimo")
    env = dict(os.environ, PYTHONPATH=str(ROOT), MARIMO_SKIP_UPDATE_CHECK="1",
               XDG_CONFIG_HOME=str(tmp / "config"), XDG_STATE_HOME=str(tmp / "state"))
    app = tmp / f"{LESSON}.py"
    convert = subprocess.run([marimo, "convert", str(ROOT / "notebooks" / f"{LESSON}.ipynb"),
                              "-o", str(app)], capture_output=True, text=True, env=env,
                             cwd=tmp, timeout=120, stdin=subprocess.DEVNULL)
    assert convert.returncode == 0 and app.is_file(), convert.stderr[-2000:]
    source = app.read_text("utf-8")
    assert "import marimo" in source and 'Stepper("r07_paying_tap")' in source
    port = free_port()
    log_path = tmp / "marimo.log"
    log = open(log_path, "wb")  # closed in finally
    proc = subprocess.Popen([marimo, "run", str(app), "--headless", "--host", "127.0.0.1",
                             "--port", str(port), "--no-token", "--no-sandbox"],
                            stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                            env=env, cwd=tmp, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while not _up(base):
            if proc.poll() is not None:
                pytest.fail(f"marimo run exited with {proc.returncode}: "
                            + log_path.read_text("utf-8", "replace")[-2000:])
            if time.monotonic() > deadline:
                pytest.fail(f"marimo run did not answer within {START_TIMEOUT_S} s")
            time.sleep(0.25)
        yield base, app
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)  # our own session: the server and its kernel
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=10)
        log.close()
        shutil.copy(log_path, tmp / "marimo.log.kept")


@pytest.mark.timeout(600)
def test_a_lesson_in_marimo_steps_presents_and_plays(marimo_lesson, browser) -> None:
    base, _app = marimo_lesson
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    outside: list[str] = []
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()

    page.route("**/*", only_from(outside, base + "/", "ws://127.0.0.1", "data:", "blob:"))
    errors: list[tuple[str, str]] = []
    page.on("pageerror", lambda e: errors.append((str(e), e.stack or "")))
    try:
        started = time.monotonic()
        page.goto(base + "/", timeout=120_000)
        # marimo runs the notebook when the session starts: the first walkthrough appears
        stepper = page.locator(".rk-stepper").first
        stepper.wait_for(state="visible", timeout=240_000)
        first_s = time.monotonic() - started
        stepper.scroll_into_view_if_needed()
        step = lambda: int(stepper.locator(".rk-frame").first.get_attribute("data-step"))  # noqa: E731
        assert step() == 0
        # the diagram Graphviz drew in marimo's kernel, its boxes titled in words
        assert stepper.locator(".rk-frame svg title").count() >= 2, "no diagram"
        for expected in (1, 2):
            stepper.locator(".rk-next").click()
            page.wait_for_timeout(300)
            assert step() == expected, "Next did not step"
        live = stepper.locator(".rk-announce")
        assert "Step 2" in live.inner_text()
        page.screenshot(path=str(ARTIFACTS / "stepped.png"))
        # Present: full screen, the keyboard steps it, Escape comes back at the same step
        present_and_back(page, stepper, step, 600, ARTIFACTS / "present.png")
        assert page.evaluate("() => document.fullscreenElement === null"), \
            "the page is still full screen after Present ended"
        # the sandbox plays: its click goes to SandboxModel in marimo's kernel
        sandbox = page.locator(".rk-sandbox").first
        sandbox.scroll_into_view_if_needed()
        sandbox.wait_for(state="visible", timeout=60_000)
        assert sandbox.get_attribute("data-state") == "ready"
        said = tap_a_forest(page, sandbox, 30_000).inner_text()
        assert "taps Forest" in said and "Forest made" in said, said  # the narrator's words
        sandbox.scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / "sandbox.png"))
        print(f"marimo: first walkthrough {first_s:.1f} s after opening")
    except Exception:
        page.screenshot(path=str(ARTIFACTS / "failure.png"))
        raise
    finally:
        page.close()
        context.close()
    assert not outside, outside
    assert [m for m, stack in errors if "blob:" in stack or "rk-" in m] == [], errors
