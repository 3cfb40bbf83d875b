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
