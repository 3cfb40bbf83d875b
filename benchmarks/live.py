"""p6: the live sandbox of the exported lessons (issue 17), in headless Chromium from file:// with
everything outside the site blocked: click "Start the live sandbox" to ready, one sandbox click
(engine, tables, diagram drawn by Viz.js; timed inside the page), and the shared sandbox files
on disk."""

from __future__ import annotations

import statistics
from contextlib import nullcontext
from pathlib import Path
from typing import Any

# a lesson whose sandbox has a land to tap (Forest enchanted with Wild Growth, Mana Reflection)
PAGE = "03_*.html"


def live_page(site: Path) -> Path | None:
    pages = sorted(site.glob(PAGE)) or sorted(p for p in site.glob("*.html")
                                              if 'class="rk-live"' in p.read_text("utf-8"))
    return pages[0] if pages else None


def live_figures(site: Path, starts: int = 5, clicks: int = 10,
                 browser: Any = None) -> dict[str, object]:
    """p6_sandbox_ready_s (median of `starts` fresh page loads), p6_click_ms (median of `clicks`
    clicks: tap a land, then undo, alternating), p6_assets_mb (site/_static/sandbox/). In
    `browser` (a Playwright Browser), else a Chromium of its own."""
    from rulekit.export import live
    from rulekit.export.browser import Live, chromium, open_page

    folder = site / "_static" / live.STATIC_SUBDIR
    page = live_page(site)
    if page is None or not folder.is_dir():
        return {"note": "no live sandbox in this site (built without npm?)"}
    ready_s: list[float] = []
    click_ms: list[float] = []
    stages: list[list[object]] = []
    outside: list[str] = []
    errors: list[str] = []
    with (nullcontext(browser) if browser is not None else chromium()) as browser:
        for k in range(starts):
            visit = open_page(browser, page, site)
            sandbox = Live(visit)
            ready_s.append(sandbox.start())
            assert sandbox.state == "ready", sandbox.box.inner_text()[:500]
            stages.append(visit.page.evaluate("rulekitLive.timings"))
            if k == 0:
                land = next(v for _, v in sandbox.to_json()["fields"]["permanent"]["options"])
                sandbox.choose("permanent", land)
                for i in range(clicks):
                    shown = sandbox.click("undo" if i % 2 else "tap")
                    assert shown.startswith(("Done:", "Undone:")), shown
                    click_ms.append(sandbox.last_click_ms())
            outside += visit.outside
            errors += visit.console_errors
            visit.page.close()
    return {"ready_s": statistics.median(ready_s), "click_ms": statistics.median(click_ms),
            "assets_mb": live.size_mb(folder), "page": page.name, "ready_runs_s": ready_s,
            "click_runs_ms": click_ms, "stages_ms": stages, "outside": outside,
            "console_errors": errors,
            "files_bytes": {p.name: p.stat().st_size for p in sorted(folder.iterdir())}}
