"""p6: the live sandbox of the exported lessons, in headless Chromium from file:// with
everything outside the site blocked:

- `p6_sandbox_ready_s`: a fresh page, click "Start the live sandbox" to ready (cold: nothing
  loaded before the click), median of `starts` loads;
- `p6_pyodide_floor_s`: a bare Pyodide start from the same files in the same folder (load the
  scripts, then in a worker decode the bytes, import the modules, `loadPyodide`), from a click
  too, same run: what the sandbox's start can't go below;
- `p6_ready_after_view_s`: click to ready after the sandbox has been in view for 10 s (it loads
  while in view, so Start only switches it on);
- `p6_longest_task_ms`: the longest task on the page's main thread while the sandbox loads
  (from the Start click, or from coming into view, to ready), over every load: the engine
  starts in a Web Worker, so the page can still repaint and answer;
- `p6_first_click_ms`: the first click after ready (a land tapped from the card's menu), median
  over the fresh loads;
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

# the part of the page back-end's start that is Pyodide's alone (mtg_rulekit/display/front/
# sandbox_backend.js and sandbox_worker.js): the same script files, a worker from a blob, the
# bytes answered from memory, the unmodified modules imported from blobs, loadPyodide
FLOOR_WORKER = """
self.importScripts = undefined;
async function bytesOf(a) {
  let b = Uint8Array.fromBase64(a.base64);
  if (a.gzip) b = new Uint8Array(await new Response(new Blob([b]).stream()
    .pipeThrough(new DecompressionStream("gzip"))).arrayBuffer());
  return b;
}
async function mod(a) {
  return import(URL.createObjectURL(new Blob([await bytesOf(a)], {type: "text/javascript"})));
}
self.onmessage = async (e) => {
  const {assets, base} = e.data;
  const answers = {"pyodide.asm.wasm": [await bytesOf(assets["pyodide.asm.wasm"]), "application/wasm"],
                   "python_stdlib.zip": [await bytesOf(assets["python_stdlib.zip"]), "application/zip"]};
  const real = self.fetch;
  self.fetch = (input, init) => {
    const url = typeof input === "string" ? input : (input && input.url) || String(input);
    const a = answers[url.split(/[?#]/)[0].split("/").pop()];
    return a ? Promise.resolve(new Response(a[0], {headers: {"Content-Type": a[1]}}))
             : real.call(self, input, init); };
  const {loadPyodide} = await mod(assets["pyodide.mjs"]);
  const asm = await mod(assets["pyodide.asm.mjs"]);
  const py = await loadPyodide({indexURL: base, packageBaseUrl: base,
    lockFileContents: JSON.parse(assets["pyodide-lock.json"].text),
    createPyodideModule: asm.default});
  self.fetch = real;
  py.runPython("1 + 1");
  self.postMessage("ready");
};
"""
FLOOR_JS = """
const cfg = JSON.parse(document.getElementById("cfg").textContent);
const base = new URL(cfg.base, document.baseURI).href;
const load = (url) => new Promise((ok, no) => { const s = document.createElement("script");
  s.src = url; s.async = true; s.addEventListener("load", ok);
  s.addEventListener("error", () => no(new Error(url))); document.head.appendChild(s); });
document.getElementById("go").addEventListener("click", async () => {
  await Promise.all(cfg.scripts.map((n) => load(base + n)));
  const source = document.getElementById("worker").textContent;
  const w = new Worker(URL.createObjectURL(new Blob([source], {type: "text/javascript"})));
  w.onmessage = () => { document.body.dataset.state = "ready"; };
  w.postMessage({assets: globalThis.rulekitAssets, base});
});
"""

# the longest tasks on the main thread, from the page's first script on
LONG_TASKS_JS = ("window.__rkLong=[];try{new PerformanceObserver((l)=>{for(const e of "
                 "l.getEntries())window.__rkLong.push([e.startTime,e.duration]);}).observe("
                 "{type:'longtask',buffered:true});}catch(e){}")


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
                     f"'application/json' id='cfg'>{json.dumps(cfg)}</script><script type="
                     f"'text/plain' id='worker'>{FLOOR_WORKER}</script><script>{FLOOR_JS}"
                     "</script></body></html>", "utf-8")
    return floor


def _floor_s(browser: Any, site: Path, floor: Path) -> float:
    from mtg_rulekit.export.browser import open_page

    visit = open_page(browser, floor, site, stepper=False)
    try:
        began = time.perf_counter()
        visit.page.click("#go")
        visit.page.wait_for_function("() => document.body.dataset.state === 'ready'",
                                     timeout=300_000)
        return time.perf_counter() - began
    finally:
        visit.page.close()


def _longest_since(visit: Any, since_ms: float) -> float:
    """The longest main-thread task that ended after `since_ms` (page time), ms (0: none)."""
    tasks = visit.page.evaluate("() => window.__rkLong || []")
    return max((d for t, d in tasks if t + d >= since_ms), default=0.0)


def _first_click_ms(visit: Any, sandbox: Any) -> float:
    """Tap the student's first untapped land from its card's menu, as a student does, right
    after ready: the click as the page times it (`data-click-ms`)."""
    state = sandbox.view_state()
    land = next(cid for cid, entries in state["card_actions"].items()
                for e in entries if e["legal"] and e["label"].startswith("Tap for {"))
    done = sandbox.root.get_attribute("data-done") or "0"
    sandbox.root.locator(f".rk-card[data-id='{land}'] .rk-card-open").click()
    sandbox.root.locator(".rk-actions .rk-action", has_text="Tap for").first.click()
    visit.page.wait_for_function(
        "([r, n]) => (r.dataset.done || '0') !== n && !r.hasAttribute('aria-busy')",
        arg=[sandbox.root.element_handle(), done])
    return sandbox.last_click_ms()


def live_figures(site: Path, starts: int = 5, clicks: int = 10, views: int = 3,
                 browser: Any = None) -> dict[str, object]:
    """p6_sandbox_ready_s, p6_pyodide_floor_s (medians of `starts` fresh page loads each,
    alternating), p6_ready_after_view_s (median of `views`), p6_longest_task_ms (over every
    load), p6_first_click_ms (median of the fresh loads' first clicks), p6_click_ms (median of
    `clicks` clicks: tap a land, then undo, alternating), p6_assets_mb (site/_static/sandbox/).
    In `browser` (a Playwright Browser), else a Chromium of its own."""
    from mtg_rulekit.export import live
    from mtg_rulekit.export.browser import Live, chromium, open_page

    folder = site / "_static" / live.STATIC_SUBDIR
    page = live_page(site)
    if page is None or not folder.is_dir():
        return {"note": "no live sandbox in this site (built without npm?)"}
    ready_s: list[float] = []
    floor_s: list[float] = []
    view_s: list[float] = []
    longest: list[float] = []
    first_ms: list[float] = []
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
                visit = open_page(browser, page, site, init_script=LONG_TASKS_JS)
                sandbox = Live(visit)
                began = visit.page.evaluate("() => performance.now()")
                ready_s.append(sandbox.start())
                assert sandbox.state == "ready", sandbox.box.inner_text()[:500]
                longest.append(_longest_since(visit, began))
                stages.append(sandbox.timings())
                first_ms.append(_first_click_ms(visit, sandbox))
                if k == 0:
                    land = next(v for _, v in sandbox.to_json()["fields"]["permanent"]["options"])
                    sandbox.choose("permanent", land)
                    for i in range(clicks):
                        shown = sandbox.click("tap" if i % 2 else "undo")
                        assert shown.startswith(("Done:", "Undone:")), shown
                        click_ms.append(sandbox.last_click_ms())
                outside += visit.outside
                errors += visit.console_errors
                visit.page.close()
            for _ in range(views):
                visit = open_page(browser, page, site, init_script=LONG_TASKS_JS)
                sandbox = Live(visit)
                sandbox.root.wait_for(state="attached")
                began = visit.page.evaluate("() => performance.now()")
                sandbox.box.scroll_into_view_if_needed()
                visit.page.wait_for_timeout(IN_VIEW_S * 1000)
                loaded_in_view.append(sandbox.state == "loaded")
                view_s.append(sandbox.start())
                assert sandbox.state == "ready", sandbox.box.inner_text()[:500]
                longest.append(_longest_since(visit, began))
                outside += visit.outside
                errors += visit.console_errors
                visit.page.close()
    finally:
        floor.unlink(missing_ok=True)
    return {"ready_s": statistics.median(ready_s), "floor_s": statistics.median(floor_s),
            "ready_after_view_s": statistics.median(view_s),
            "longest_task_ms": max(longest), "first_click_ms": statistics.median(first_ms),
            "click_ms": statistics.median(click_ms),
            "assets_mb": live.size_mb(folder), "page": page.name, "ready_runs_s": ready_s,
            "floor_runs_s": floor_s, "ready_after_view_runs_s": view_s,
            "longest_task_runs_ms": longest, "first_click_runs_ms": first_ms,
            "loaded_after_10_s_in_view": loaded_in_view,
            "click_runs_ms": click_ms, "stages_ms": stages, "outside": outside,
            "console_errors": errors,
            "files_bytes": {p.name: p.stat().st_size for p in sorted(folder.iterdir())}}


def page_verdicts_ms(site: Path, stem: str, runs: int = 7,
                     browser: Any = None) -> dict[str, object]:
    """p8_verdicts_page_ms: every card's verdicts (`SandboxModel.card_actions()`) of lesson
    `stem`'s live sandbox, computed in the page's Pyodide (`rulekit.backends.sandbox.verdicts`),
    ms, median of `runs` after one warm-up."""
    from mtg_rulekit.export.browser import Live, chromium, open_page

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
                "async ([r, n]) => { const sid = Number(r.dataset.sid); const out = [];"
                " for (let i = 0; i <= n; i++) out.push(await rulekit.backends.sandbox"
                ".verdicts(sid)); return out.slice(1).map((v) => [v.ms, Object.values("
                "v.verdicts).reduce((a, e) => a + e.length, 0)]); }",
                [sandbox.root.element_handle(), runs])
        finally:
            visit.page.close()
    return {"ms": statistics.median(t for t, _ in times), "runs_ms": [t for t, _ in times],
            "verdicts": times[0][1], "page": pages[0].name}
