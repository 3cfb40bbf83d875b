"""Browser helpers shared by the tests that drive a notebook host (JupyterLab, Notebook 7,
JupyterLite, marimo, JupyterHub) or a page in Chromium: a free port, a route that blocks every
request outside the host (and remembers it), and Jupyter's Run ▸ Run All Cells as a user
clicks it."""

from __future__ import annotations

import re
import socket
import time
from collections.abc import Callable
from typing import Any


def free_port() -> int:
    """A TCP port on 127.0.0.1 nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def only_from(outside: list[str], *allowed: str) -> Callable[[Any], None]:
    """A Playwright route handler: a request whose URL starts with one of `allowed` goes
    through; any other is blocked and its URL added to `outside`."""
    def route(r: Any) -> None:
        if r.request.url.startswith(allowed):
            r.continue_()
        else:
            outside.append(r.request.url)
            r.abort()
    return route


def run_all_cells(page: Any, idle: Callable[[], None]) -> None:
    """Run ▸ Run All Cells in a Jupyter front-end (JupyterLab, Notebook 7, JupyterLite), as a
    user clicks it, once `idle()` says the kernel is idle (a Run All sent while the session
    still connects runs nothing), accepting a "Select Kernel" dialog; tried again, three times
    in all, if no cell starts."""
    prompts = page.locator(".jp-NotebookPanel .jp-InputPrompt")
    dialog = page.locator(".jp-Dialog button.jp-mod-accept")
    for _attempt in range(3):
        idle()
        page.locator(".jp-NotebookPanel .jp-Cell").first.click()  # the notebook has the focus
        page.locator(".lm-MenuBar-item", has_text=re.compile(r"^Run$")).click()
        page.locator(".lm-Menu-item:visible",
                     has_text=re.compile(r"^Run All Cells")).first.click()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if dialog.count() and dialog.first.is_visible():
                dialog.first.click()
            if any(re.search(r"\[(\*|\d+)\]", t) for t in prompts.all_inner_texts()):
                return
            page.wait_for_timeout(250)
    raise AssertionError("Run > Run All Cells started no cell (three tries)")


def present_and_back(page: Any, stepper: Any, step: Callable[[], int], pause_ms: int,
                     shot: Any) -> None:
    """A walkthrough's Present button (`stepper`, at step 2): full screen, the arrow key steps
    it, Escape comes back at the same step. `step()` reads the step shown; a screenshot of the
    slide goes to `shot`."""
    stepper.locator(".rk-present").click()
    page.wait_for_timeout(pause_ms)
    box = stepper.bounding_box()
    assert box and box["x"] <= 0.5 and box["y"] <= 0.5 and box["width"] >= 1365 \
        and box["height"] >= 767, f"not full screen: {box}"
    page.keyboard.press("ArrowRight")
    page.wait_for_timeout(pause_ms // 2)
    assert step() == 3
    page.screenshot(path=str(shot))
    page.keyboard.press("Escape")
    page.wait_for_timeout(pause_ms)
    assert "rk-presenting" not in (stepper.get_attribute("class") or "")
    assert step() == 3, "Escape did not come back at the same step"


def tap_a_forest(page: Any, sandbox: Any, timeout_ms: int) -> Any:
    """Lesson 1's sandbox (`sandbox`, ready): an untapped Forest tapped through "All
    controls", answered by its engine (a kernel, or the page's); the message locator."""
    sandbox.locator("details.rk-all-controls > summary").click()
    select = sandbox.locator("[data-field='permanent']")
    forest = [v for v, label in select.locator("option").evaluate_all(
        "os => os.map((o) => [o.value, o.textContent])")
        if "Forest" in label and "tapped" not in label]
    assert forest, "no untapped Forest in lesson 1's sandbox"
    select.select_option(value=forest[0])
    done = sandbox.get_attribute("data-done") or "0"
    sandbox.locator("button[data-control='tap']").click()
    page.wait_for_function("([el, n]) => (el.dataset.done || '0') !== n",
                           arg=[sandbox.element_handle(), done], timeout=timeout_ms)
    return sandbox.locator(".rk-message").first
