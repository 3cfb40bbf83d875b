"""A lesson in real JupyterLab in Debian's Chromium: start `jupyter lab` on 127.0.0.1 with a
random token, open a lesson that has a sandbox, Run > Run All Cells, tap a permanent for mana
with the sandbox's button and see the board table change; then shut the server down.

JupyterLab serves a copy of notebooks/ in a temporary folder (it autosaves outputs and writes
checkpoints, which must not dirty the checkout), with its own config, runtime and workspace
folders. Every request the browser makes outside the server is blocked.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.notebook]

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = Path(os.environ.get("RULEKIT_TEST_NOTEBOOKS", ROOT / "notebooks"))
ARTIFACTS = ROOT / "test-artifacts" / "jupyterlab"
START_TIMEOUT_S = 120
RUN_TIMEOUT_MS = 240_000


def _sandbox_lesson() -> Path | None:
    """The first lesson whose code makes a Sandbox."""
    for path in sorted(NOTEBOOKS.glob("*.ipynb")):
        nb = json.loads(path.read_text("utf-8"))
        code = "".join("".join(c.get("source", "")) for c in nb.get("cells", [])
                       if c.get("cell_type") == "code")
        if "Sandbox(" in code:
            return path
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str, timeout: float = 2.0) -> int:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as resp:
            return resp.status
    except urllib.error.HTTPError as err:
        return err.code
    except OSError:
        return 0


@pytest.fixture()
def jupyterlab(tmp_path: Path):
    """(base URL, token, notebook folder): a JupyterLab server, shut down afterwards."""
    lesson = _sandbox_lesson() if NOTEBOOKS.is_dir() else None
    if lesson is None:
        pytest.skip("no lesson with a Sandbox in notebooks/ yet")
    folder = tmp_path / "notebooks"
    shutil.copytree(NOTEBOOKS, folder, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    port, token = _free_port(), secrets.token_hex(16)
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(tmp_path / "config"),
               JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"),
               PYDEVD_DISABLE_FILE_VALIDATION="1")
    cmd = [str(Path(sys.executable).with_name("jupyter")), "lab", "--ip=127.0.0.1",
           f"--port={port}", "--no-browser", f"--ServerApp.token={token}",
           f"--notebook-dir={folder}", f"--LabApp.workspaces_dir={tmp_path / 'workspaces'}",
           "--ServerApp.port_retries=0"]
    if hasattr(os, "getuid") and os.getuid() == 0:
        cmd.append("--allow-root")
    log = open(tmp_path / "jupyterlab.log", "wb")  # noqa: SIM115 - closed in finally
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                            env=env, cwd=folder, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while _get(f"{base}/api/status?token={token}") != 200:
            if proc.poll() is not None:
                pytest.fail(f"jupyter lab exited with {proc.returncode}: "
                            + (tmp_path / "jupyterlab.log").read_text("utf-8", "replace")[-2000:])
            if time.monotonic() > deadline:
                pytest.fail(f"jupyter lab did not answer within {START_TIMEOUT_S} s")
            time.sleep(0.25)
        yield base, token, folder / lesson.name
    finally:
        _shutdown(proc, base, token)
        log.close()


def _shutdown(proc: subprocess.Popen, base: str, token: str) -> None:
    """Ask the server to shut down (it stops its kernels), then terminate, then kill."""
    if proc.poll() is None:
        req = urllib.request.Request(f"{base}/api/shutdown", method="POST",
                                     headers={"Authorization": f"token {token}"})
        try:
            urllib.request.urlopen(req, timeout=10).close()
        except OSError:
            pass
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)  # our own session: server and kernels
                proc.wait(timeout=15)


@pytest.mark.timeout(600)
def test_run_all_then_tap_a_land_in_the_sandbox(jupyterlab, browser) -> None:
    base, token, notebook = jupyterlab
    outside: list[str] = []
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    # a laptop's screen (issue 16: the sandbox's message and a walkthrough's step on one screen)
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = context.new_page()

        def route(r) -> None:  # noqa: ANN001
            if r.request.url.startswith(base + "/"):
                r.continue_()
            else:
                outside.append(r.request.url)
                r.abort()

        page.route("**/*", route)
        try:
            page.goto(f"{base}/lab/tree/{notebook.name}?token={token}", timeout=120_000)
            page.locator(".jp-NotebookPanel .jp-Cell").first.wait_for(timeout=120_000)
            _run_all_cells(page)
            _walkthrough_fits_and_axe(page, notebook.stem)
            sandbox = page.locator(".jp-NotebookPanel .rk-sandbox").first
            sandbox.wait_for(state="visible", timeout=RUN_TIMEOUT_MS)
            sandbox.scroll_into_view_if_needed()
            board = sandbox.locator("table").first
            board.wait_for(state="visible", timeout=60_000)
            before = board.inner_text()
            tapped = _tap_something(page, sandbox, board, before)
            after = board.inner_text()
            # the outcome shows right under the button clicked, without scrolling
            message = sandbox.locator(".rk-message:visible").first
            box, view = message.bounding_box(), page.viewport_size
            assert message.inner_text().strip(), "no message after the click"
            assert box and box["y"] >= 0 and box["y"] + box["height"] <= view["height"], box
            board.scroll_into_view_if_needed()
            page.screenshot(path=str(ARTIFACTS / f"{notebook.stem}-sandbox.png"))
            assert tapped, ("no permanent could be tapped for mana: "
                            + sandbox.locator(".rk-message").inner_text())
            assert after != before, "the board table did not change"
            assert re.search(rf"{re.escape(tapped)}\s.*\byes\b", after), (tapped, after)
        except Exception:
            page.screenshot(path=str(ARTIFACTS / f"{notebook.stem}-failure.png"))
            raise
        finally:
            page.close()
    finally:
        context.close()
    # JupyterLab itself asked for nothing outside the server
    assert not [u for u in outside if not u.startswith("data:")], outside


def _walkthrough_fits_and_axe(page, stem: str) -> None:  # noqa: ANN001
    """The lesson's first walkthrough in JupyterLab, file browser open, at 1366x768: at every
    step its controls and narration are in the notebook panel together (the diagram pane opens
    at its newest part, but without the exported pages' script it does not follow a step
    sideways: printed, not asserted); axe-core finds no critical or serious violation in the
    notebook's outputs (JupyterLab's own interface is not ours)."""
    from rulekit.export.checks import SCROLL_JS, axe, goto_step, walk

    stepper = page.locator(".jp-NotebookPanel .rk-stepper").first
    stepper.wait_for(state="visible", timeout=RUN_TIMEOUT_MS)
    stepper.locator("svg").first.wait_for(state="visible", timeout=60_000)
    # JupyterLab lays out the cells it scrolls past (estimated heights become real): let the
    # notebook settle around the walkthrough once before stepping
    stepper.evaluate(SCROLL_JS)
    page.wait_for_timeout(1500)
    fits = walk(page, 0)
    page.screenshot(path=str(ARTIFACTS / f"{stem}-walkthrough.png"))
    goto_step(stepper, 0)
    stepper.evaluate(SCROLL_JS)
    page.screenshot(path=str(ARTIFACTS / f"{stem}-walkthrough-step0.png"))
    print("JupyterLab walkthrough fit:", [(f.step, f.ok, f.why) for f in fits])
    found = axe(page, within=".jp-NotebookPanel .jp-OutputArea-output")
    off = [(f.step, f.why) for f in fits
           if any(w.startswith(("controls", "narration")) for w in f.why)]
    assert off == [] and found == {}, (off, found)


def _run_all_cells(page) -> None:  # noqa: ANN001
    """Run > Run All Cells, as a user would, once the kernel is idle (a Run All sent while
    the session is still connecting runs nothing); tried again if no cell starts."""
    status = page.locator(".jp-StatusBar-TextItem", has_text="Python")
    prompts = page.locator(".jp-NotebookPanel .jp-InputPrompt")
    dialog = page.locator(".jp-Dialog button.jp-mod-accept")
    for _attempt in range(3):
        status.filter(has_text="Idle").first.wait_for(timeout=120_000)
        page.locator(".jp-NotebookPanel .jp-Cell").first.click()  # the notebook has the focus
        page.locator(".lm-MenuBar-item", has_text=re.compile(r"^Run$")).click()
        page.locator(".lm-Menu-item:visible",
                     has_text=re.compile(r"^Run All Cells")).first.click()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if dialog.count() and dialog.first.is_visible():
                dialog.first.click()  # "Select Kernel"
            if any(re.search(r"\[(\*|\d+)\]", t) for t in prompts.all_inner_texts()):
                return
            page.wait_for_timeout(250)
    raise AssertionError("Run > Run All Cells started no cell (three tries)")


def _tap_something(page, sandbox, board, before: str) -> str | None:  # noqa: ANN001
    """Choose each untapped permanent in turn and press "Tap for mana" (choosing a mana type
    when the game asks for one) until one taps; the card name of the one that did (or None)."""
    select = sandbox.locator("select").first  # "Permanent"
    mana = sandbox.locator("select").nth(1)  # "Mana type"
    button = sandbox.locator("button", has_text="Tap for mana").first
    message = sandbox.locator(".rk-message").first
    # (by value: ipywidgets shows the labels with no-break spaces)
    labels = select.locator("option").evaluate_all("os => os.map((o) => o.value)")
    # lands first (the point of the test is tapping a land for mana), then anything else
    labels.sort(key=lambda lab: not _is_land(_card_name(lab)))
    for label in labels:
        if "tapped" in label:
            continue
        select.select_option(value=label)
        for _attempt in range(2):
            old = message.inner_text()
            button.click()
            deadline = time.monotonic() + 8  # the kernel answers in well under a second
            while time.monotonic() < deadline and board.inner_text() == before:
                if message.inner_text() != old:
                    break
                page.wait_for_timeout(150)
            if board.inner_text() != before:
                return _card_name(label)
            asked = re.search(r"choose one of: ([WUBRGC])", message.inner_text())
            if not asked:
                break
            mana.select_option(value=None, label=next(
                t for t in mana.locator("option").all_inner_texts() if f"{{{asked.group(1)}}}" in t))
        mana.select_option(index=0)
    return None


def _card_name(label: str) -> str:
    """"#2 Forest (Alice)" -> "Forest" (the sandbox's labels)."""
    m = re.match(r"#\d+ (.+?) \(", label)
    return m.group(1) if m else label


def _is_land(name: str) -> bool:
    from rulekit.cards import card

    try:
        return card(name).printed.is_a("Land")
    except (KeyError, LookupError, ValueError):
        return False
