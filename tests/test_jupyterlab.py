"""A lesson in real JupyterLab in Debian's Chromium, started the way `make lab` starts it
(`mtg_rulekit.lab.command`) on 127.0.0.1 with a random token: open a lesson that has a sandbox,
Run > Run All Cells, tap a permanent for mana with the sandbox's button and see the board table
change; save, close the lesson, shut its kernel down, reopen it: the walkthroughs show from the
saved widget state; and `git status` of the notebooks is still clean. And the classroom view
in JupyterLab: every lesson's walkthroughs, one step one screen, presentation mode,
axe-core, described diagrams (`test_classroom_view_in_jupyterlab`). One server for both tests,
shut down at the end.

JupyterLab serves a temporary git clone of this checkout (committed files only) with the
bootstrap's nbstripout filter installed, so the test never dirties the real checkout; it has its
own config, runtime and workspace folders. Every request the browser makes outside the server is
blocked.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from mtg_rulekit.display.walkthrough.frames import PANES
from tests.helpers import clean_clone
from tests.hosts import free_port, only_from, run_all_cells
from tests.kernel_sandbox import kernel_sandbox

# no xdist group: the lessons' classroom checks spread over the workers, each worker starting
# one JupyterLab server of its own (`lab_server` is per session, i.e. per worker) at most
pytestmark = [pytest.mark.browser, pytest.mark.notebook, pytest.mark.lab]

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts" / "jupyterlab"
START_TIMEOUT_S = 120
RUN_TIMEOUT_MS = 240_000


def _sandbox_lesson(notebooks: Path) -> Path | None:
    """The first lesson whose code makes a Sandbox."""
    for path in sorted(notebooks.glob("*.ipynb")):
        nb = json.loads(path.read_text("utf-8"))
        code = "".join("".join(c.get("source", "")) for c in nb.get("cells", [])
                       if c.get("cell_type") == "code")
        if "Sandbox(" in code:
            return path
    return None


def _get(url: str, timeout: float = 2.0) -> int:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as resp:
            return resp.status
    except urllib.error.HTTPError as err:
        return err.code
    except OSError:
        return 0


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True,
                          check=True).stdout


@pytest.fixture(scope="session")
def lab_server(tmp_path_factory: pytest.TempPathFactory):
    """(base URL, token, notebooks folder, clone): one JupyterLab server on a clone for this
    session's tests (under pytest-xdist: this worker's), shut down at the end (its kernels
    with it)."""
    from mtg_rulekit import lab

    tmp_path = tmp_path_factory.mktemp("lab")
    clone = clean_clone(tmp_path)
    folder = clone / "notebooks"
    port, token = free_port(), secrets.token_hex(16)
    # short: IPC kernel sockets live in the runtime folder (paths <= 107 bytes)
    runtime = Path(tempfile.mkdtemp(prefix="rk-lab-"))
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(tmp_path / "config"),
               JUPYTER_RUNTIME_DIR=str(runtime), PYDEVD_DISABLE_FILE_VALIDATION="1")
    cmd = lab.command(folder, [f"--port={port}", f"--ServerApp.token={token}",
                               f"--LabApp.workspaces_dir={tmp_path / 'workspaces'}",
                               "--ServerApp.port_retries=0"])
    log = open(tmp_path / "jupyterlab.log", "wb")  # closed in finally
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
        yield base, token, folder, clone
    finally:
        _shutdown(proc, base, token)
        log.close()
        shutil.rmtree(runtime, ignore_errors=True)


@pytest.fixture()
def jupyterlab(lab_server):
    """(base URL, token, notebook, clone): the server, and the first lesson with a sandbox."""
    base, token, folder, clone = lab_server
    lesson = _sandbox_lesson(folder)
    assert lesson is not None, "no lesson with a Sandbox in notebooks/"
    yield base, token, folder / lesson.name, clone
    _stop_kernels(base, token)


def _stop_kernels(base: str, token: str) -> None:
    for session in _api(base, token, "/api/sessions"):  # type: ignore[union-attr]
        _api(base, token, f"/api/sessions/{session['id']}", "DELETE")


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


def _api(base: str, token: str, path: str, method: str = "GET") -> object:
    req = urllib.request.Request(f"{base}{path}", method=method,
                                 headers={"Authorization": f"token {token}"})
    with urllib.request.urlopen(req, timeout=30) as resp:
        body = resp.read()
    return json.loads(body) if body else None


@pytest.mark.timeout(900)
def test_run_all_tap_save_reopen_and_git_stays_clean(jupyterlab, browser) -> None:
    base, token, notebook, clone = jupyterlab
    outside: list[str] = []
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    # a laptop's screen (the sandbox's message and a walkthrough's step on one screen)
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    url = f"{base}/lab/tree/{notebook.name}?token={token}"
    try:
        page = context.new_page()

        page.route("**/*", only_from(outside, base + "/"))
        try:
            page.goto(url, timeout=120_000)
            page.locator(".jp-NotebookPanel .jp-Cell").first.wait_for(timeout=120_000)
            run_all_cells(page, lambda: _kernel_idle(page))
            sandbox = page.locator(".jp-NotebookPanel .rk-sandbox").first
            sandbox.wait_for(state="visible", timeout=RUN_TIMEOUT_MS)
            sandbox.scroll_into_view_if_needed()
            assert sandbox.get_attribute("data-state") == "ready"  # a kernel: ready at once
            board = sandbox.locator(".rk-live-tables table").first
            board.wait_for(state="visible", timeout=60_000)
            # the form sits under the board, in the collapsed "All controls"
            sandbox.locator("details.rk-all-controls > summary").click()
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

            # save, close the tab, stop the kernel: nothing of this run is left but the files
            state = _save(page, notebook)
            page.keyboard.press("Alt+w")  # File > Close Tab
            panel, dialog = page.locator(".jp-NotebookPanel"), page.locator(".jp-Dialog")
            deadline = time.monotonic() + 30
            while panel.count() and time.monotonic() < deadline:
                if dialog.count() and dialog.first.is_visible():
                    # a widget redrew after the save: "Save your work?" -> Save, as a user would
                    dialog.locator("button", has_text=re.compile(r"^Save$")).first.click()
                page.wait_for_timeout(250)
            assert panel.count() == 0, "the lesson did not close"
            _stop_kernels(base, token)
            saved = json.loads(state.read_text("utf-8"))
            assert saved["metadata"]["widgets"][
                "application/vnd.jupyter.widget-state+json"]["state"], "no widget state saved"

            # reopen: the walkthroughs show from the saved state, before anything runs
            page.goto(url, timeout=120_000)
            page.locator(".jp-NotebookPanel .jp-Cell").first.wait_for(timeout=120_000)
            shown = page.locator(".jp-NotebookPanel .rk-stepper")
            broken = page.locator(".jp-NotebookPanel .jp-OutputArea-output",
                                  has_text="Error displaying widget")
            # JupyterLab draws only the cells near the viewport: scroll down to the first one
            page.locator(".jp-NotebookPanel .jp-Cell").first.hover()
            for _ in range(120):
                if shown.count() or broken.count():
                    break
                page.mouse.wheel(0, 400)
                page.wait_for_timeout(250)
            page.wait_for_timeout(2000)  # any "model not found" would be drawn by now
            assert broken.count() == 0, broken.first.inner_text()
            assert shown.count() >= 1, "no walkthrough shows after reopening"
            shown.first.scroll_into_view_if_needed()
            shown.first.wait_for(state="visible", timeout=30_000)
            page.screenshot(path=str(ARTIFACTS / f"{notebook.stem}-reopened.png"))
        except Exception:
            page.screenshot(path=str(ARTIFACTS / f"{notebook.stem}-failure.png"))
            raise
        finally:
            page.close()
    finally:
        context.close()
    # JupyterLab itself asked for nothing outside the server
    assert not [u for u in outside if not u.startswith("data:")], outside
    # and the checkout is as committed: no outputs, no widget state, no stray files
    assert _git(clone, "status", "--porcelain", "--untracked-files=all") == ""


def _save(page, notebook: Path) -> Path:
    """Save with Ctrl+S, as a user would; the file where the outputs and widget state went."""
    from mtg_rulekit.lab.contents import STATE_DIR, SUFFIX

    state = notebook.parent / STATE_DIR / f"{notebook.stem}{SUFFIX}"
    page.locator(".jp-NotebookPanel .jp-Cell").first.click()
    page.keyboard.press("Control+s")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if state.is_file() and '"application/vnd.jupyter.widget-state+json"' in \
                state.read_text("utf-8"):
            return state
        page.wait_for_timeout(250)
    raise AssertionError(f"Ctrl+S wrote no widget state to {state}")


def _kernel_idle(page) -> None:
    """JupyterLab's status bar says the kernel is idle."""
    page.locator(".jp-StatusBar-TextItem", has_text="Python").filter(
        has_text="Idle").first.wait_for(timeout=120_000)


def _tap_something(page, sandbox, board, before: str) -> str | None:
    """Choose each untapped permanent in turn and press "Tap for mana" (typing a mana type
    when the game asks for one) until one taps; the card name of the one that did (or None).
    The sandbox is the one sandbox module (mtg_rulekit/display/front/sandbox.js), its clicks
    answered by the kernel (the widget's custom messages)."""
    select = sandbox.locator("[data-field='permanent']")
    mana = sandbox.locator("[data-field='mana']")
    button = sandbox.locator("button[data-control='tap']")
    message = sandbox.locator(".rk-message")
    labels = select.locator("option").evaluate_all(
        "os => os.map((o) => [o.value, o.textContent])")
    # lands first (the point of the test is tapping a land for mana), then anything else
    labels.sort(key=lambda lab: not _is_land(_card_name(lab[1])))
    for value, label in labels:
        if "tapped" in label:
            continue
        select.select_option(value=value)
        for _attempt in range(2):
            done = sandbox.get_attribute("data-done") or "0"
            button.click()
            page.wait_for_function(  # the kernel answers in well under a second
                "([el, n]) => (el.dataset.done || '0') !== n",
                arg=[sandbox.element_handle(), done], timeout=8000)
            if board.inner_text() != before:
                return _card_name(label)
            asked = re.search(r"choose one of: ([WUBRGC])", message.inner_text())
            if not asked:
                break
            mana.fill(asked.group(1))
        mana.fill("")
    return None


def _card_name(label: str) -> str:
    """"#2 Forest (Alice)" -> "Forest" (the sandbox's labels)."""
    m = re.match(r"#\d+ (.+?) \(", label)
    return m.group(1) if m else label


def _is_land(name: str) -> bool:
    from mtg_rulekit.cards import card

    try:
        return card(name).printed.is_a("Land")
    except (KeyError, LookupError, ValueError):
        return False


# ------------------------------------------------------------------ the classroom view
# JupyterLab's window: 1280x720, its file browser open, the smallest picture pane of the views
# (`PANES[0]`; the panes nest, so a step that fits it fits JupyterLab's larger windows, which
# tests/test_classroom.py checks on the built pages at 1366x768 and 1920x1080)
SIZES = [(1280, 720)]
PRESENTING = (1920, 1080)
# the lessons stepped through at that size and in presentation mode, and through Present: the
# largest diagrams (lesson 6) and the longest set-up texts (lesson 7). Every other lesson's
# steps are checked at JupyterLab's pane size on the built pages (tests/test_classroom.py,
# "narrow"), the same module and the same pane, which these lessons measure here.
PANE_LESSONS = ("06_", "07_")

def _stepper_lessons(folder: Path) -> list[tuple[Path, int]]:
    """Each lesson whose code shows walkthroughs, with how many (one `Stepper(` each)."""
    out = []
    for path in sorted(folder.glob("*.ipynb")):
        nb = json.loads(path.read_text("utf-8"))
        code = "".join("".join(c.get("source", "")) for c in nb.get("cells", [])
                       if c.get("cell_type") == "code")
        if code.count("Stepper("):
            out.append((path, code.count("Stepper(")))
    return out


# the committed lessons (the server opens its clone's copy of each)
STEPPER_LESSONS = _stepper_lessons(ROOT / "notebooks")


def _open_and_run(page, base: str, token: str, lesson: Path, walkthroughs: int) -> None:
    """Open a lesson in a workspace of its own (nothing else reopens with it), Run All, and
    wait until every cell has run and every walkthrough is drawn."""
    page.goto(f"{base}/lab/workspaces/rk-{lesson.stem}/tree/{lesson.name}?token={token}",
              timeout=120_000)
    page.locator(".jp-NotebookPanel .jp-Cell").first.wait_for(timeout=120_000)
    run_all_cells(page, lambda: _kernel_idle(page))
    prompts = page.locator(".jp-NotebookPanel .jp-InputPrompt")
    steppers = page.locator(".jp-NotebookPanel .rk-stepper")
    deadline = time.monotonic() + RUN_TIMEOUT_MS / 1000
    while time.monotonic() < deadline:
        texts = prompts.all_inner_texts()
        if not any("[*]" in t for t in texts) and steppers.count() == walkthroughs and \
                page.locator(".jp-NotebookPanel .rk-stepper .rk-frame").count() >= walkthroughs:
            break
        page.wait_for_timeout(250)
    else:
        raise AssertionError(f"{lesson.name}: Run All did not finish with {walkthroughs} "
                             f"walkthroughs ({steppers.count()} drawn)")
    errors = page.locator(".jp-NotebookPanel .jp-OutputArea-output[data-mime-type="
                          "'application/vnd.jupyter.stderr']", has_text="Error")
    assert errors.count() == 0, errors.first.inner_text()


def _views(page) -> dict[str, object]:
    """Every step of every walkthrough of the open lesson, each walkthrough scrolled to the top
    of the notebook panel, in one pass (`mtg_rulekit.export.checks.step_views`): by "<its slug>
    step k", its `StepView` (on screen together with its controls and narration; the 95 %
    rule, in the notebook panel's view)."""
    from mtg_rulekit.export.checks import SCROLL_JS, step_views

    steppers = page.locator(".jp-NotebookPanel .rk-stepper")
    out: dict[str, object] = {}
    for i in range(steppers.count()):
        # JupyterLab lays out the cells it scrolls past (estimated heights become real): let
        # the notebook settle around the walkthrough before stepping it
        steppers.nth(i).evaluate(SCROLL_JS)
        page.wait_for_timeout(250)
        slug = steppers.nth(i).get_attribute("data-rk-slug")
        for s in step_views(steppers.nth(i)):
            out[f"{slug} step {s.step}"] = s
    return out


# The 95 % rule in JupyterLab beside its file browser, the smallest pane of the desktop views
# (mtg_rulekit.display.walkthrough.frames.PANES): every step after set-up shows at least 95 % of what it
# added, at each size. A guard, not a target: the steps that miss it are named here, by
# lesson and size, with the share measured; any other step that misses fails, and so does a
# named one that shows less. Why they miss (docs/classroom.md, "The 95 % rule"):
# - lesson 6's Shatterstorm, in both walkthroughs (one engine action destroys every artifact
#   at once, the Refinery triggers for four of them, a token ceases to exist): its focus box
#   is larger than JupyterLab's pane in every layout of `LAYOUTS`;
# - lesson 7's copy compared with its original (Kiki-Jiki's copy of Metallic Mimic, the
#   replacement effect that makes it a Goblin, the note comparing the two): the same at
#   1280x720.
RULE_95_LAB_MISSES: dict[tuple[str, str], dict[str, float]] = {
    ("06_slagstone_refinery", "1280x720"): {"refinery-leaves-together step 2": 0.85,
                                            "refinery-rest-in-peace step 2": 0.85},
    ("07_token_copies", "1280x720"): {"token-copy-enters step 5": 0.90},
}


def _record_rule95(stem: str, sizes: dict[str, dict[str, object]]) -> None:
    """Each step's share and text size at each size, as JSON in
    test-artifacts/jupyterlab/<lesson>-rule95.json ({"1280x720": {"<slug> step 1":
    {...}}, ...}: the figures docs/classroom.md quotes)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / f"{stem}-rule95.json").write_text(json.dumps(
        {size: {k: {"share": s.share, "text_px": s.text_px,  # type: ignore[attr-defined]
                    "note": s.note} for k, s in shares.items()}  # type: ignore[attr-defined]
         for size, shares in sizes.items()}, indent=1), "utf-8")


def _all_to(page, last: bool) -> None:
    from mtg_rulekit.export.checks import goto_step

    steppers = page.locator(".jp-NotebookPanel .rk-stepper")
    for i in range(steppers.count()):
        n = steppers.nth(i).locator(".rk-controls .rk-steps button").count()
        goto_step(steppers.nth(i), n - 1 if last else 0)


def _shoot(page, path: Path) -> None:
    """The first walkthrough scrolled into view, as the class sees it."""
    from mtg_rulekit.export.checks import SCROLL_JS

    page.locator(".jp-NotebookPanel .rk-stepper").first.evaluate(SCROLL_JS)
    page.wait_for_timeout(200)
    page.screenshot(path=str(path))


def _present(page) -> list[str]:
    """The first walkthrough's Present button, in JupyterLab: it fills the screen, the keyboard
    steps it (Home, then Right to the last step) and every step fits; Escape leaves. What went
    wrong, if anything."""
    from mtg_rulekit.export.checks import FIT_JS, SCROLL_JS

    stepper = page.locator(".jp-NotebookPanel .rk-stepper").first
    stepper.evaluate(SCROLL_JS)
    step = lambda: int(stepper.locator(".rk-frame").first.get_attribute("data-step"))  # noqa: E731
    last = stepper.locator(".rk-controls .rk-steps button").count() - 1
    stepper.locator(".rk-present").click()
    page.wait_for_timeout(500)
    box, view = stepper.bounding_box(), page.viewport_size
    wrong = [] if box and box["x"] <= 0.5 and box["y"] <= 0.5 and \
        box["width"] >= view["width"] - 1 and box["height"] >= view["height"] - 1 else \
        [f"Present: not full screen: {box}"]
    page.keyboard.press("Home")
    for k in range(last + 1):
        page.wait_for_timeout(150)
        if step() != k:
            wrong.append(f"Present: step {step()}, not {k}")
            break
        got = stepper.evaluate(FIT_JS)
        if not (got["controls"] and got["narration"] and got["fresh"]):
            wrong.append(f"Present step {k}: {', '.join(got['why'])}")
        if k == last:
            page.screenshot(path=str(ARTIFACTS / "present-button-1920x1080.png"))
        page.keyboard.press("ArrowRight")
    page.keyboard.press("Escape")
    page.wait_for_timeout(300)
    if "rk-presenting" in (stepper.get_attribute("class") or ""):
        wrong.append("Present: Escape did not leave")
    return wrong


def _presentation_mode(page) -> None:
    """View > Appearance > Presentation Mode, as a teacher would
    (`application:toggle-presentation-mode`)."""
    page.locator(".lm-MenuBar-item", has_text=re.compile(r"^View$")).click()
    page.locator(".lm-Menu-item:visible", has_text=re.compile(r"^Appearance")).first.hover()
    page.locator(".lm-Menu-item:visible", has_text=re.compile(r"^Presentation Mode")).first.click()
    page.wait_for_timeout(500)


# the lessons whose check also answers two questions in the kernel's walkthroughs
QUESTION_LESSONS = ("02_",)


def _kernel_questions(lesson: Path) -> list[tuple[int, dict]]:
    """(walkthrough index, question) of a lesson's walkthroughs, in order: the frames its
    `Stepper("name")` cells show, made here from the same scenarios."""
    from mtg_rulekit.display.walkthrough.frames import StepFrames

    nb = json.loads(lesson.read_text("utf-8"))
    code = "\n".join("".join(c.get("source", "")) for c in nb.get("cells", [])
                     if c.get("cell_type") == "code")
    out = []
    for i, name in enumerate(re.findall(r'Stepper\(\s*"([^"]+)"', code)):
        frames = StepFrames(name, diagram=False).data()["frames"]
        out += [(i, f["question"]) for f in frames if f.get("question")]
    return out


def _answer_right_wrong_and_retried(page, lesson: Path) -> list[str]:
    """In the running lesson, by keyboard, as in an exported page
    (tests/test_frames_browser.py `answer_three_ways`): a question right, one wrong then right
    on its retry, one wrong twice, from the frames the kernel made (no kernel round trip
    needed to check). What went wrong, if anything."""
    from mtg_rulekit.export.checks import SCROLL_JS
    from tests.test_frames_browser import answer_three_ways

    asked = [(i, q) for i, q in _kernel_questions(lesson) if q["labels"]][:3]
    assert len(asked) == 3, f"{lesson.stem} has fewer than three questions with choices"

    def stepper_of(i: int):
        stepper = page.locator(".jp-NotebookPanel .rk-stepper").nth(i)
        stepper.evaluate(SCROLL_JS)
        return stepper

    return [f"{lesson.stem} {w}" for w in
            answer_three_ways(page, stepper_of, asked, ARTIFACTS, f"{lesson.stem}-answered-")]


def test_every_lesson_with_walkthroughs_is_checked() -> None:
    """The classroom check below runs once per lesson that shows walkthroughs: all of them, the
    two that go through Present among them."""
    assert len(STEPPER_LESSONS) >= 8, STEPPER_LESSONS
    assert all(any(p.stem.startswith(s) for p, _ in STEPPER_LESSONS) for s in PANE_LESSONS)


@pytest.mark.timeout(600)
@pytest.mark.parametrize("lesson, walkthroughs", STEPPER_LESSONS,
                         ids=[p.stem for p, _ in STEPPER_LESSONS])
def test_classroom_view_in_jupyterlab(lab_server, browser, lesson: Path,
                                      walkthroughs: int) -> None:
    """The classroom view inside JupyterLab, after Run All, with the file browser open, one
    lesson:

    - in lessons 6 and 7 (`PANE_LESSONS`), at 1280x720 (`SIZES`) and at 1920x1080 in
      JupyterLab's presentation mode (View > Appearance > Presentation Mode), one pass a
      size (`_views`): every step of every walkthrough shows its controls, its
      narration and what it added to the diagram together once the walkthrough is scrolled
      into view, its diagram text at least 16 px; at 1280x720 the 95 % rule
      (the notebook panel's view) is measured, a guard (`RULE_95_LAB_MISSES`: each step's
      figures by size in test-artifacts/jupyterlab/<lesson>-rule95.json), and at 1280x720
      the picture's pane is the one the built pages are checked in (`PANES[0]`); every
      lesson, at 1280x720: axe-core finds no
      critical or serious violation in the notebook's outputs (JupyterLab's own interface
      is not ours) with every walkthrough at step 0, then at its last step; every diagram
      shown is described (its aria-describedby names its "Describe this step" text, and
      Chromium's accessibility tree gives that text);
    - in lessons 6 and 7, the first walkthrough's Present button at 1920x1080 (full screen, stepped with the
      keyboard, every step fits, Escape leaves): the same mechanism in every walkthrough;
    - in lesson 2, a question answered right, one wrong then right on its retry and one wrong
      twice, by keyboard, in the kernel's walkthroughs (the predictions are checked in both
      hosts);
    - the lesson's sandbox, in the kernel (tests/kernel_sandbox.py): each card's verdicts
      shown are the engine's, and every challenge is solved by clicking on the board after
      its mistake showed the hint (targets picked on the board, the time bar), Z and Space
      from the keyboard.

    One test per lesson, so the workers share them.

    Screenshots: test-artifacts/jupyterlab/<lesson>-<size>.png (the first walkthrough),
    <lesson>-sandbox-challenges.png."""
    from mtg_rulekit.export.checks import SCROLL_JS, axe, diagram_descriptions, undescribed

    base, token, folder, _clone = lab_server
    lesson = folder / lesson.name  # the server's clone of it
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(viewport={"width": SIZES[0][0], "height": SIZES[0][1]})
    outside: list[str] = []
    steps, misfits, found, unlinked, described = 0, [], {}, [], 0
    rule95: dict[str, dict[str, object]] = {}  # each size's steps' StepViews
    phases: dict[str, float] = {}
    clock = [time.monotonic()]

    def lap(name: str) -> None:
        now = time.monotonic()
        phases[name] = round(phases.get(name, 0.0) + now - clock[0], 1)
        clock[0] = now

    def check(page, where: str, shot: str) -> None:
        nonlocal steps, misfits
        views = _views(page)
        steps += len(views)
        misfits += [f"{where} {k}: {', '.join(v.why)}" for k, v in views.items()  # type: ignore[attr-defined]
                    if not v.together]  # type: ignore[attr-defined]
        after = {k: v for k, v in views.items() if not k.endswith(" step 0")}
        misfits += [f"{where} {k}: diagram text {v.text_px:.1f} px"  # type: ignore[attr-defined]
                    for k, v in after.items() if v.text_px < 15.95]  # type: ignore[attr-defined]
        if "presentation" not in where:
            rule95[where.rsplit(" ", 1)[1]] = after
        _shoot(page, ARTIFACTS / f"{shot}.png")
        lap(f"walk {where.split(' ', 1)[1]}")

    page = context.new_page()
    page.route("**/*", only_from(outside, base + "/"))
    try:
        page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})
        lap("other")
        _open_and_run(page, base, token, lesson, walkthroughs)
        lap("open and run")
        w, h = SIZES[0]
        stepped = lesson.stem.startswith(PANE_LESSONS)
        if stepped:
            check(page, f"{lesson.stem} {w}x{h}", f"{lesson.stem}-{w}x{h}")
        else:
            _shoot(page, ARTIFACTS / f"{lesson.stem}-{w}x{h}.png")
        for last in (True, False):  # each walkthrough at its last step, then at 0
            _all_to(page, last)
            bad = axe(page, within=".jp-NotebookPanel .jp-OutputArea-output")
            if bad:
                found[f"{lesson.stem} {'last step' if last else 'step 0'}"] = bad
            for i in range(walkthroughs):
                seen, bad = undescribed(page.locator(".jp-NotebookPanel .rk-stepper").nth(i))
                described += seen
                unlinked += [f"{lesson.stem} walkthrough {i} {b}" for b in bad]
            # what Chromium gives a screen reader with each diagram (each walkthrough in view:
            # JupyterLab skips laying out cells far off screen)
            for i in range(walkthroughs):
                stepper = page.locator(".jp-NotebookPanel .rk-stepper").nth(i)
                stepper.evaluate(SCROLL_JS)
                stepper.evaluate("(e) => e.setAttribute('data-rk-probe', '')")
                said = diagram_descriptions(page, "[data-rk-probe] .rk-frame "
                                            ".rk-diagram svg[role]")
                stepper.evaluate("(e) => e.removeAttribute('data-rk-probe')")
                if len(said) != 1 or not said[0].strip():
                    unlinked.append(f"{lesson.stem} walkthrough {i}: described as "
                                    f"{said!r:.200}")
        lap("axe and aria-describedby")
        for w, h in SIZES[1:] if stepped else ():
            page.set_viewport_size({"width": w, "height": h})
            page.wait_for_timeout(300)
            check(page, f"{lesson.stem} {w}x{h}", f"{lesson.stem}-{w}x{h}")
        if stepped:
            page.set_viewport_size({"width": PRESENTING[0], "height": PRESENTING[1]})
            misfits += [f"{lesson.stem} {why}" for why in _present(page)]
            lap("Present button")
            page.set_viewport_size({"width": PRESENTING[0], "height": PRESENTING[1]})
            _presentation_mode(page)
            assert page.locator(".jp-mod-presentationMode").count(), \
                "presentation mode did not switch on"
            check(page, f"{lesson.stem} presentation-mode",
                  f"{lesson.stem}-presentation-1920x1080")
            _presentation_mode(page)  # off again: the next lesson opens as usual
        if lesson.stem.startswith(QUESTION_LESSONS):
            page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})
            misfits += _answer_right_wrong_and_retried(page, lesson)
            lap("questions answered")
        page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})
        misfits += kernel_sandbox(page, lesson.stem, ARTIFACTS)
        lap("sandbox: menus and challenges")
    except Exception:
        page.screenshot(path=str(ARTIFACTS / f"{lesson.stem}-classroom-failure.png"))
        raise
    finally:
        page.close()
        context.close()
        _stop_kernels(base, token)
    print(f"JupyterLab classroom view of {lesson.stem}, seconds:", phases)
    assert misfits == [], f"{len(misfits)} steps don't fit:\n" + "\n".join(misfits)
    assert found == {}, found
    assert described >= 2 * walkthroughs and unlinked == [], (described, unlinked)
    assert not [u for u in outside if not u.startswith("data:")], outside
    if not stepped:
        return
    _record_rule95(lesson.stem, rule95)
    for size, shares in rule95.items():
        met = sum(1 for x in shares.values() if x.ok())  # type: ignore[attr-defined]
        print(f"95 % rule in JupyterLab at {size}, {lesson.stem}: {met}/{len(shares)}",
              {k: round(x.share, 2) for k, x in shares.items()})  # type: ignore[attr-defined]
    assert set(rule95) == {f"{w}x{h}" for w, h in SIZES}, f"the 95 % rule at {sorted(rule95)}"
    for size, shares in rule95.items():
        known = RULE_95_LAB_MISSES.get((lesson.stem, size), {})
        worse = {k: x for k, x in shares.items() if not x.ok()  # type: ignore[attr-defined]
                 and x.share < known.get(k, 0.95) - 1e-6}  # type: ignore[attr-defined]
        said = [f"{k}: {x.share:.0%} ({x.note})" for k, x in worse.items()]  # type: ignore[attr-defined]
        assert worse == {}, (f"{lesson.stem} at {size}: steps that miss the 95 % rule, not as "
                             "RULE_95_LAB_MISSES allows:\n" + "\n".join(said))
    # every step of every walkthrough at 1280x720 and in presentation mode
    assert steps >= 2 * (walkthroughs + 1), f"only {steps} steps were checked"
    # the pane the built pages are checked in ("narrow"; the widest: others sit beside words)
    widest = max((x.pane for x in rule95["1280x720"].values() if x.pane),  # type: ignore[attr-defined]
                 default=None)
    assert widest and abs(widest[0] - PANES[0][0]) <= 3 and abs(widest[1] - PANES[0][1]) <= 3, \
        f"JupyterLab's picture pane: {widest}"
