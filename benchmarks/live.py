"""p6: the live sandbox of the exported lessons (issues 17, 26), in headless Chromium from file://
with everything outside the site blocked:

- `p6_sandbox_ready_s`: a fresh page, click "Start the live sandbox" to ready (cold: nothing
  loaded before the click), median of `starts` loads;
- `p6_pyodide_floor_s`: a bare Pyodide start from the same files in the same folder (load the
  scripts, decode the bytes, `loadPyodide`), from a click too, same run: what the sandbox's
  start can't go below;
- `p6_ready_after_view_s`: click to ready after the sandbox has been in view for 10 s (it loads
  while in view, so Start only switches it on);
- `p6_click_ms`: one sandbox click (engine in Pyodide, tables, diagram drawn by Viz.js and
  retitled; timed inside the page), median of `clicks`;
- `p6_assets_mb`: the shared sandbox files on disk."""

from __future__ import annotations

import json
import re
import statistics
import time
from contextlib import nullcontext
from pathlib import Path
from typing import Any

# a lesson whose sandbox has a land to tap (Forest enchanted with Wild Growth, Mana Reflection)
PAGE = "03_*.html"
IN_VIEW_S = 10.0
FLOOR_PAGE = "_rk_pyodide_floor.html"  # written next to the lessons for the run, then removed

# the part of the page back-end's start that is Pyodide's alone (rulekit/display/front/
# sandbox_backend.js): the same script files, bytes answered from memory, loadPyodide
FLOOR_JS = """
const cfg = JSON.parse(document.getElementById("cfg").textContent);
const base = new URL(cfg.base, document.baseURI).href;
const load = (url) => new Promise((ok, no) => { const s = document.createElement("script");
  s.src = url; s.async = false; s.addEventListener("load", ok);
  s.addEventListener("error", () => no(new Error(url))); document.head.appendChild(s); });
async function bytesOf(name) {
  const a = globalThis.rulekitAssets[name];
  let b = Uint8Array.fromBase64(a.base64);
  if (a.gzip) b = new Uint8Array(await new Response(new Blob([b]).stream()
    .pipeThrough(new DecompressionStream("gzip"))).arrayBuffer());
  return b;
}
document.getElementById("go").addEventListener("click", async () => {
  await Promise.all(cfg.scripts.map((n) => load(base + n)));
  globalThis.rulekitPyodideBase = base + "pyodide.asm.mjs";
  const answers = {"pyodide.asm.wasm": [await bytesOf("pyodide.asm.wasm"), "application/wasm"],
                   "python_stdlib.zip": [await bytesOf("python_stdlib.zip"), "application/zip"]};
  const real = globalThis.fetch;
  globalThis.fetch = (input, init) => {
    const url = typeof input === "string" ? input : (input && input.url) || String(input);
    const a = answers[url.split(/[?#]/)[0].split("/").pop()];
    return a ? Promise.resolve(new Response(a[0], {headers: {"Content-Type": a[1]}}))
             : real.call(globalThis, input, init); };
  const py = await loadPyodide({indexURL: base, packageBaseUrl: base,
    lockFileContents: globalThis.rulekitPyodideLock,
    createPyodideModule: globalThis.rulekitCreatePyodide});
  globalThis.fetch = real;
  py.runPython("1 + 1");
  document.body.dataset.state = "ready";
});
"""


def live_page(site: Path) -> Path | None:
    pages = sorted(site.glob(PAGE)) or sorted(p for p in site.glob("*.html")
                                              if 'data-rk-view="sandbox"' in p.read_text("utf-8"))
    return pages[0] if pages else None


def _floor_page(site: Path, page: Path) -> Path:
    """A page next to the lessons that starts Pyodide alone, from the lesson's own config."""
    found = re.search(r'<script[^>]*\bid="rk-live-config"[^>]*>(.*?)</script>',
                      page.read_text("utf-8"), re.S)
    assert found, f"{page.name} has no live sandbox config"
    cfg = json.loads(found.group(1))
    cfg["scripts"] = [s for s in cfg["scripts"] if s.startswith(("pyodide", "python"))]
    floor = site / FLOOR_PAGE
    floor.write_text("<!doctype html><html lang='en'><head><meta charset='utf-8'><title>floor"
                     "</title></head><body><button id='go'>go</button><script type="
                     f"'application/json' id='cfg'>{json.dumps(cfg)}</script><script>{FLOOR_JS}"
                     "</script></body></html>", "utf-8")
    return floor


def _floor_s(browser: Any, site: Path, floor: Path) -> float:
    from rulekit.export.browser import open_page

    visit = open_page(browser, floor, site, stepper=False)
    try:
        began = time.perf_counter()
        visit.page.click("#go")
        visit.page.wait_for_function("document.body.dataset.state === 'ready'", timeout=300_000)
        return time.perf_counter() - began
    finally:
        visit.page.close()


def live_figures(site: Path, starts: int = 5, clicks: int = 10, views: int = 3,
                 browser: Any = None) -> dict[str, object]:
    """p6_sandbox_ready_s, p6_pyodide_floor_s (medians of `starts` fresh page loads each,
    alternating), p6_ready_after_view_s (median of `views`), p6_click_ms (median of `clicks` clicks:
    tap a land, then undo, alternating), p6_assets_mb (site/_static/sandbox/). In `browser` (a
    Playwright Browser), else a Chromium of its own."""
    from rulekit.export import live
    from rulekit.export.browser import Live, chromium, open_page

    folder = site / "_static" / live.STATIC_SUBDIR
    page = live_page(site)
    if page is None or not folder.is_dir():
        return {"note": "no live sandbox in this site (built without npm?)"}
    ready_s: list[float] = []
    floor_s: list[float] = []
    view_s: list[float] = []
    loaded_in_view: list[bool] = []
    click_ms: list[float] = []
    stages: list[list[object]] = []
    outside: list[str] = []
    errors: list[str] = []
    floor = _floor_page(site, page)
    try:
        with (nullcontext(browser) if browser is not None else chromium()) as browser:
            for k in range(starts):
                floor_s.append(_floor_s(browser, site, floor))
                visit = open_page(browser, page, site)
                sandbox = Live(visit)
                ready_s.append(sandbox.start())
                assert sandbox.state == "ready", sandbox.box.inner_text()[:500]
                stages.append(sandbox.timings())
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
            for _ in range(views):
                visit = open_page(browser, page, site)
                sandbox = Live(visit)
                sandbox.root.wait_for(state="attached")
                sandbox.box.scroll_into_view_if_needed()
                visit.page.wait_for_timeout(IN_VIEW_S * 1000)
                loaded_in_view.append(sandbox.state == "loaded")
                view_s.append(sandbox.start())
                assert sandbox.state == "ready", sandbox.box.inner_text()[:500]
                outside += visit.outside
                errors += visit.console_errors
                visit.page.close()
    finally:
        floor.unlink(missing_ok=True)
    return {"ready_s": statistics.median(ready_s), "floor_s": statistics.median(floor_s),
            "ready_after_view_s": statistics.median(view_s),
            "click_ms": statistics.median(click_ms),
            "assets_mb": live.size_mb(folder), "page": page.name, "ready_runs_s": ready_s,
            "floor_runs_s": floor_s, "ready_after_view_runs_s": view_s,
            "loaded_after_10_s_in_view": loaded_in_view,
            "click_runs_ms": click_ms, "stages_ms": stages, "outside": outside,
            "console_errors": errors,
            "files_bytes": {p.name: p.stat().st_size for p in sorted(folder.iterdir())}}


def page_verdicts_ms(site: Path, stem: str, runs: int = 7,
                     browser: Any = None) -> dict[str, object]:
    """p8_verdicts_page_ms: every card's verdicts (`SandboxModel.card_actions()`) of lesson
    `stem`'s live sandbox, computed in the page's Pyodide (`rulekit.backends.sandbox.verdicts`),
    ms, median of `runs` after one warm-up."""
    from rulekit.export.browser import Live, chromium, open_page

    pages = sorted(site.glob(f"{stem}.html"))
    if not pages:
        return {"note": f"no page {stem}.html in the site"}
    with (nullcontext(browser) if browser is not None else chromium()) as browser:
        visit = open_page(browser, pages[0], site)
        try:
            sandbox = Live(visit)
            sandbox.start()
            assert sandbox.state == "ready", sandbox.box.inner_text()[:500]
            times = visit.page.evaluate(
                "([r, n]) => { const sid = Number(r.dataset.sid); const out = [];"
                " for (let i = 0; i <= n; i++) out.push(rulekit.backends.sandbox.verdicts(sid));"
                " return out.slice(1).map((v) => [v.ms, Object.values(v.verdicts)"
                ".reduce((a, e) => a + e.length, 0)]); }",
                [sandbox.root.element_handle(), runs])
        finally:
            visit.page.close()
    return {"ms": statistics.median(t for t, _ in times), "runs_ms": [t for t, _ in times],
            "verdicts": times[0][1], "page": pages[0].name}
