"""p11: the JupyterLite site of the lessons (`make lite`, mtg_rulekit/export/lite.py): its size on disk
and the time from opening lesson 1 in headless Chromium (served over HTTP on 127.0.0.1, every
other request blocked, a fresh browser profile) to the first output of Run All Cells.

    .venv/bin/python benchmarks/lite.py
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LESSON = "01_tapping_and_summoning_sickness"
TIMEOUT_MS = 600_000


def first_output_s(site: Path) -> dict[str, object]:
    """Open the lesson, Run All Cells once the kernel is idle: seconds from opening to the
    notebook shown, to the first output and to the first walkthrough; requests outside."""
    from mtg_rulekit.export.browser import chromium, serve

    with chromium() as browser, serve(site) as base:
        context = browser.new_context(viewport={"width": 1366, "height": 768},
                                      service_workers="block")
        outside: list[str] = []
        context.route("**/*", lambda r: r.continue_() if r.request.url.startswith(
            (base, "data:", "blob:")) else (outside.append(r.request.url), r.abort()))
        page = context.new_page()
        started = time.monotonic()
        page.goto(f"{base}notebooks/index.html?path={LESSON}.ipynb", timeout=120_000)
        page.locator(".jp-NotebookPanel .jp-Cell").first.wait_for(timeout=120_000)
        shown = time.monotonic() - started
        page.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']").first.wait_for(
            state="attached", timeout=TIMEOUT_MS)
        idle = time.monotonic() - started
        page.locator(".jp-NotebookPanel .jp-Cell").first.click()
        page.locator(".lm-MenuBar-item", has_text=re.compile(r"^Run$")).click()
        page.locator(".lm-Menu-item:visible", has_text=re.compile(r"^Run All Cells")).first.click()
        page.locator(".jp-NotebookPanel .jp-OutputArea-output").first.wait_for(
            state="attached", timeout=TIMEOUT_MS)
        first = time.monotonic() - started
        page.locator(".jp-NotebookPanel .rk-stepper").first.wait_for(timeout=TIMEOUT_MS)
        walkthrough = time.monotonic() - started
        context.close()
    return {"first_output_s": round(first, 1), "notebook_shown_s": round(shown, 1),
            "kernel_idle_s": round(idle, 1), "walkthrough_s": round(walkthrough, 1),
            "outside_requests": len(outside), "load_average": os.getloadavg()}


def lite_figures(work: Path) -> dict[str, object]:
    """Build the site in `work` and measure it; {"note": why} when it can't be built."""
    from mtg_rulekit.export.lite import build_lite, size_mb

    try:
        site = build_lite(work / "lite", ROOT / "notebooks", work=work / "build",
                          echo=lambda _line: None)
    except (RuntimeError, OSError) as exc:
        return {"note": f"the JupyterLite site could not be built: {exc}"}
    figures: dict[str, object] = {"mb": round(size_mb(site.out), 1),
                                  "build_s": round(site.seconds, 1)}
    figures.update(first_output_s(site.out))
    return figures


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    with tempfile.TemporaryDirectory(prefix="rulekit-lite-") as tmp:
        print(lite_figures(Path(tmp)))
