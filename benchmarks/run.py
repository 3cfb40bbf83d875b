"""`make bench`: every benchmark, printed as a table; `benchmarks/results.json` gets the figures
of the table and, under "goals" and "met", each goal and whether it was met;
`benchmarks/raw.json` the raw timings behind them, the machine and the date (both files are
ignored by git).

Every figure is a median of at least five runs; each ratio is measured side by side in one run
(the two sides alternate). Nothing here is asserted: the goals are shown next to the figures.

    .venv/bin/python benchmarks/run.py [--quick]     # --quick: 5 runs (instead of 7)
    .venv/bin/python benchmarks/readability.py       # only the lessons' readability figures
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import authoring  # noqa: E402
import engine  # noqa: E402
import lessons  # noqa: E402
import lite  # noqa: E402
import live  # noqa: E402
import readability  # noqa: E402
import suite  # noqa: E402

from mtg_rulekit.export import PAGE_BUDGET  # noqa: E402

PAGE_BUDGET_KB = PAGE_BUDGET // 1024

PENDING = "n/a (engine part 2 pending)"
# the p9 figures: the 95 % rule in each view (lessons.RULE_95_VIEWS)
P9 = {"p9_steps_fully_visible": "1280x720", "p9_narrow": "narrow", "p9_present": "present",
      "p9_phone": "phone"}
# key, goal text, test of the goal (given the value and all the figures; None: a figure with
# no goal of its own), what it measures
TABLE = [
    ("p1_refinery_ratio_10k_1k", "<= 12", lambda v, r: v <= 12,
     "Slagstone Refinery + N artifacts destroyed, all triggers resolved: t(10,000) / t(1,000)"),
    ("p2_could_produce_ms", "< 50", lambda v, r: v < 50,
     '"could produce" for 200 Reflecting Pools + 200 Exotic Orchards, ms'),
    ("p3_build_ratio", "-", None,
     "build all lessons / build as many empty notebooks the same way (a figure: the required "
     "imports alone cost more than its old goal of 1.5)"),
    ("p3_over_floor", "<= 1.2", lambda v, r: v <= 1.2,
     "build all lessons / the same notebooks holding only their import lines, same build"),
    ("p3_one_lesson_s", "<= 1.5 x p3_one_empty_s", lambda v, r: v <= 1.5 * r["p3_one_empty_s"],
     "rebuild the site after editing one lesson, s"),
    ("p3_one_empty_s", "-", None,
     "rebuild the site of as many empty notebooks after editing one of them, s"),
    ("p4_click_ratio", "<= 2", lambda v, r: v <= 2,
     "one sandbox click (engine + tables + diagram) / one dot render of that diagram"),
    ("p5_page_kb", "-", None,
     "largest lesson page without the shared _static/ assets, KB (a guard, not a target: "
     "each page below)"),
    ("p5_page_gz_kb", "-", None,
     "the same page gzipped (what a web server sends), KB"),
    ("p5_static_kb", "<= 1024", lambda v, r: v <= 1024,
     "the shared site/_static/ without the live sandbox's files (_static/sandbox/), KB"),
    ("p5_load_s", "< 1", lambda v, r: v < 1,
     "time to a visible stepper in headless Chromium, s (median per page; the slowest page)"),
    ("p5_requests", "0", lambda v, r: v == 0,
     "requests outside site/ (all lesson pages, all loads)"),
    ("p6_sandbox_ready_s", "<= 1.3 x p6_pyodide_floor_s",
     lambda v, r: v <= 1.3 * r["p6_pyodide_floor_s"],
     'live sandbox: cold click on "Start the live sandbox" to ready, file://, s (median of 5 '
     "loads)"),
    ("p6_pyodide_floor_s", "-", None,
     "a bare Pyodide start from the same files, same run (from a click), s"),
    ("p6_longest_task_ms", "<= 200", lambda v, r: v <= 200,
     "live sandbox: the longest task on the page's main thread while the sandbox loads (the "
     "engine starts in a Web Worker), ms, over every load"),
    ("p6_first_click_ms", "< 100", lambda v, r: v < 100,
     "live sandbox: the first click after ready (a land tapped from its card's menu), ms"),
    ("p6_ready_after_view_s", "<= 0.3", lambda v, r: v <= 0.3,
     "live sandbox: click to ready after the sandbox has been in view 10 s (it preloads), s"),
    ("p6_click_ms", "< 100", lambda v, r: v < 100,
     "live sandbox: one click in the page (engine in Pyodide, tables, Viz.js diagram), ms"),
    ("p6_assets_mb", "<= 12", lambda v, r: v <= 12,
     "live sandbox: the shared files in site/_static/sandbox/, MB"),
    ("p7_fuzz_actions_per_s", ">= 1000", lambda v, r: v >= 1000,
     "random legal play over the whole catalog (10 recorded games x 60 actions), actions/s"),
    ("p7_reflection_64_ms", "< 100", lambda v, r: v < 100,
     "a Forest tapped with 64 Mana Reflections (2^64 mana), ms"),
    ("p8_verdicts_ms", "< 50", lambda v, r: v < 50,
     "every card's verdicts before the click (SandboxModel.card_actions) on the biggest "
     "lesson sandbox board, CPython, ms"),
    ("p8_verdicts_page_ms", "< 150", lambda v, r: v < 150,
     "the same verdicts in the exported page's live sandbox (Pyodide in headless Chromium), "
     "ms"),
    ("p9_steps_fully_visible", "1.0", lambda v, r: v >= 1.0,
     "walkthrough steps at 1280x720 showing >= 95 % of what they added to the diagram, text "
     ">= 16 px (every lesson page), fraction"),
    ("p9_narrow", "1.0", lambda v, r: v >= 1.0,
     "the same in a walkthrough as large as JupyterLab's beside its file browser at 1280x720 "
     "(a 987x600 window: its picture pane 690x598, as in JupyterLab), fraction"),
    ("p9_present", "1.0", lambda v, r: v >= 1.0,
     "the same in Present at 1280x720, text >= 18 px, fraction"),
    ("p9_phone", "1.0", lambda v, r: v >= 1.0,
     "the same at 390x844, the picture scrolled into view, text >= 12 px, fraction"),
    ("p11_lite_mb", "-", None,
     "the JupyterLite site of the lessons (make lite: Pyodide, the kernel's wheels, the app), MB"),
    ("p11_lite_first_output_s", "-", None,
     "JupyterLite: opening lesson 1 (HTTP, fresh profile) to the first output of Run All, s"),
    ("p10_preview_s", "<= 3", lambda v, r: v <= 3,
     "a scenario as a page: `python -m mtg_rulekit preview` of the longest shipped scenario, a new "
     "process from start to page written, s (CPU seconds in raw.json)"),
    ("read_longest_words", "<= 30", lambda v, r: v <= readability.MAX_WORDS,
     "the longest prose sentence of any lesson, words (per lesson below; "
     "benchmarks/readability.py says what counts as prose)"),
    ("read_grade_max", "<= 8", lambda v, r: v <= readability.MAX_GRADE,
     "the highest Flesch-Kincaid grade of a lesson's prose (syllables by Pyphen)"),
    ("read_narration_words", "<= 30", lambda v, r: v <= readability.MAX_WORDS,
     "the longest sentence a walkthrough shows (set-up, narration, question, why), words"),
    ("stepper_js_lines", "<= 700", lambda v, r: v <= 700,
     "mtg_rulekit/display/front/stepper.js, the walkthrough module's own part (its picture, "
     "questions and DOM helpers are diagram.js, question.js and dom.js), lines"),
    ("suite_check_s", "< 30", lambda v, r: v < 30,
     "the pytest phase of `make check` (the fast tier, every core), s"),
    ("suite_full_s", "<= 600", lambda v, r: v <= 600,
     "the pytest phase of `make test` (the whole suite, every core), s"),
]


def p1(runs: int) -> tuple[float | None, dict[str, object]]:
    """t(10,000) / t(1,000), alternating single runs, timed like `timeit` (the cyclic garbage
    collector paused); the raw figures also give the ratio with the collector running."""
    small, large, small_gc, large_gc = [], [], [], []
    try:
        for _ in range(runs):
            small += engine.refinery_run(1_000, runs=1)[1]
            large += engine.refinery_run(10_000, runs=1)[1]
            small_gc += engine.refinery_run(1_000, runs=1, collector=True)[1]
            large_gc += engine.refinery_run(10_000, runs=1, collector=True)[1]
    except (AssertionError, KeyError, LookupError, NotImplementedError) as exc:
        return None, {"error": f"{type(exc).__name__}: {exc}", "note": PENDING}
    with_gc = statistics.median(large_gc) / statistics.median(small_gc)
    return statistics.median(large) / statistics.median(small), {
        "n1000_s": small, "n10000_s": large, "with_collector": {
            "n1000_s": small_gc, "n10000_s": large_gc, "ratio": with_gc}}


def machine() -> str:
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        dot = subprocess.run(["dot", "-V"], capture_output=True, text=True).stderr.strip()
    except OSError:
        dot = "no dot"
    try:
        chromium = subprocess.run(
            [os.environ.get("RULEKIT_CHROMIUM", "/usr/bin/chromium"), "--version"],
            capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        chromium = "no chromium"
    return (f"{platform.system()} {platform.release()} {platform.machine()}, {os.cpu_count()} "
            f"cores ({cpu or 'unknown CPU'}), Python {platform.python_version()}, {dot}, "
            f"{chromium}")


def fmt(value: object) -> str:
    if value is None:
        return "n/a"
    if isinstance(value, str):
        return value
    if isinstance(value, int):
        return str(value)
    return f"{value:.2f}" if abs(value) < 100 else f"{value:.0f}"  # type: ignore[arg-type]


def met_goals(results: dict[str, object]) -> dict[str, bool | None]:
    """Each figure with a goal -> whether it was met (None: no value to judge)."""
    out: dict[str, bool | None] = {}
    for key, _goal, ok, _what in TABLE:
        if ok is None:
            continue
        try:
            out[key] = None if results.get(key) is None else bool(ok(results[key], results))
        except (KeyError, TypeError):  # a figure the goal depends on is missing
            out[key] = None
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="5 runs of each engine timing instead of 7")
    parser.add_argument("--no-full-suite", action="store_true",
                        help="skip suite_full_s (the whole suite, about 10 minutes)")
    args = parser.parse_args(argv)
    runs = 5 if args.quick else 7
    loads = 5
    started = time.perf_counter()
    raw: dict[str, object] = {"date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
                              "machine": machine(), "runs": runs}
    results: dict[str, object] = {}

    print("p1: Slagstone Refinery, 1,000 and 10,000 artifacts ...", flush=True)
    results["p1_refinery_ratio_10k_1k"], raw["p1"] = p1(runs)
    print("p2: could produce ...", flush=True)
    p2_ms, p2_raw = engine.could_produce_ms(max(runs, 7))
    results["p2_could_produce_ms"], raw["p2"] = p2_ms, {"ms": p2_raw}
    print("p3: building the lessons, as many empty notebooks and the floors (alternating) ...",
          flush=True)
    work = tempfile.TemporaryDirectory(prefix="rulekit-bench-")
    p3 = lessons.build_ratio(runs=5, work=Path(work.name))
    results["p3_build_ratio"] = p3.pop("ratio")
    results["p3_over_floor"] = p3.pop("over_floor", None)
    site = p3.pop("site", None)
    raw["p3"] = p3
    print("p3: rebuilding the site after editing one lesson / one empty notebook ...", flush=True)
    one = lessons.one_lesson_rebuild(runs=5, work=Path(work.name))
    results["p3_one_lesson_s"] = one.pop("lesson_s")
    results["p3_one_empty_s"] = one.pop("empty_s")
    raw["p3_one_lesson"] = one
    print("p4: a sandbox click and one dot render (alternating) ...", flush=True)
    p4 = lessons.click_ratio(runs)
    results["p4_click_ratio"] = p4.pop("ratio")
    raw["p4"] = p4
    print("p5: the exported pages in headless Chromium ...", flush=True)
    if site is not None and p3.get("offline", True):
        p5 = lessons.page_figures(Path(site), loads=loads)
        results["p5_page_kb"] = p5.pop("page_kb")
        results["p5_page_gz_kb"] = p5.pop("page_gz_kb")
        results["p5_static_kb"] = p5.pop("static_kb")
        results["p5_load_s"] = p5.pop("load_s")
        results["p5_requests"] = p5.pop("requests")
        raw["p5"] = p5
    else:
        results.update(p5_page_kb=None, p5_page_gz_kb=None, p5_static_kb=None, p5_load_s=None,
                       p5_requests=None)
        raw["p5"] = {"note": "no lesson site (no lessons, or CDN mode)"}
    print("p6: the live sandbox in headless Chromium ...", flush=True)
    p6 = live.live_figures(Path(site), starts=loads) if site is not None else {
        "note": "no lesson site"}
    results["p6_sandbox_ready_s"] = p6.pop("ready_s", None)
    results["p6_pyodide_floor_s"] = p6.pop("floor_s", None)
    results["p6_ready_after_view_s"] = p6.pop("ready_after_view_s", None)
    results["p6_longest_task_ms"] = p6.pop("longest_task_ms", None)
    results["p6_first_click_ms"] = p6.pop("first_click_ms", None)
    results["p6_click_ms"] = p6.pop("click_ms", None)
    results["p6_assets_mb"] = p6.pop("assets_mb", None)
    raw["p6"] = p6
    print("p8: every card's verdicts in the page's live sandbox ...", flush=True)
    biggest = lessons.biggest_sandbox()
    p8_page = live.page_verdicts_ms(Path(site), biggest) if site is not None and biggest \
        else {"note": "no lesson site"}
    results["p8_verdicts_page_ms"] = p8_page.pop("ms", None)
    raw["p8_page"] = p8_page
    print("p9: every walkthrough step, the 95 % rule, in each view ...", flush=True)
    p9_raw: dict[str, object] = {}
    for key, where in P9.items():
        p9 = lessons.rule_95(Path(site), where) if site is not None else {"fraction": None}
        results[key] = p9.pop("fraction")
        p9_raw[where] = p9
    raw["p9"] = p9_raw
    print("p11: the JupyterLite site: its size, and lesson 1 to its first output ...", flush=True)
    p11 = lite.lite_figures(Path(work.name))
    results["p11_lite_mb"] = p11.pop("mb", None)
    results["p11_lite_first_output_s"] = p11.pop("first_output_s", None)
    raw["p11"] = p11
    raw["load_average"] = os.getloadavg()
    work.cleanup()
    print("p7: random legal play, and a Forest with 64 Mana Reflections ...", flush=True)
    results["p7_fuzz_actions_per_s"], rates = engine.fuzz_actions_per_s(max(runs, 5))
    results["p7_reflection_64_ms"], reflection = engine.reflection_ms(64, max(runs, 5))
    raw["p7"] = {"actions_per_s": rates, "actions": engine.legal_mix(),
                 "reflection_64_ms": reflection}
    print("p8: every card's verdicts on the biggest lesson sandbox ...", flush=True)
    p8 = lessons.verdicts_ms(max(runs, 7))
    results["p8_verdicts_ms"] = p8.pop("ms")
    raw["p8"] = p8
    print("p10: a scenario as a page (python -m mtg_rulekit preview) ...", flush=True)
    p10 = authoring.preview_s(runs=max(runs, 5))
    results["p10_preview_s"] = p10.pop("s")
    raw["p10"] = p10
    print("readability: the lessons' prose ...", flush=True)
    lessons_read = readability.all_figures()
    read = readability.summary(lessons_read)
    results["read_longest_words"] = read.pop("longest_words")
    results["read_grade_max"] = read.pop("grade_max")
    narration = readability.narration_figures()
    results["read_narration_words"] = narration.longest_words
    read["narration"] = {"where": narration.where, "longest": narration.longest}
    raw["readability"] = read
    results["stepper_js_lines"] = len((HERE.parent / "mtg_rulekit" / "display" / "front" /
                                       "stepper.js").read_text("utf-8").splitlines())
    print("suite: make check's pytest" + ("" if args.no_full_suite else
                                          ", then make test's") + " ...", flush=True)
    runs_of_suite = suite.suite_figures(full=not args.no_full_suite)
    for key, run_of in (("suite_check_s", "check"), ("suite_full_s", "full")):
        got = runs_of_suite.get(run_of)
        # a red suite's time is no figure of the suite: n/a, and raw.json says why
        results[key] = got["s"] if isinstance(got, dict) and got["exit"] == 0 else None
    raw["suite"] = runs_of_suite
    raw["seconds"] = round(time.perf_counter() - started, 1)

    met = met_goals(results)
    document = {**results, "goals": {k: g for k, g, ok, _ in TABLE if ok is not None},
                "met": met}
    (HERE / "results.json").write_text(json.dumps(document, indent=2) + "\n", "utf-8")
    (HERE / "raw.json").write_text(json.dumps(raw, indent=2, default=str) + "\n", "utf-8")

    print()
    print(f"rulekit benchmarks, {raw['date']}")
    print(f"machine: {raw['machine']}")
    width = max(len(k) for k, *_ in TABLE)
    gw = max(len(g) for _k, g, *_ in TABLE)
    print(f"{'figure':<{width}}  {'value':>9}  {'goal':>{gw}}  met  what")
    for key, goal, _ok, what in TABLE:
        value = results[key]
        shown = PENDING if value is None and key.startswith("p1") and "note" in raw["p1"] \
            else fmt(value)  # type: ignore[operator]
        mark = {True: "yes", False: "NO", None: "-"}[met.get(key)]
        print(f"{key:<{width}}  {shown:>9}  {goal:>{gw}}  {mark:>3}  {what}")
    p3_floors = raw["p3"].get("floors") if isinstance(raw.get("p3"), dict) else None
    if p3_floors and results["p3_build_ratio"] is not None:
        print("\np3 and its floors (the same build of as many notebooks, / the empty ones):")
        for floor in p3_floors.values():
            print(f"  {floor['ratio']:.2f}  notebooks each of which {floor['what']}")
        print(f"  {results['p3_build_ratio']:.2f}  the lessons")
    sizes = raw["p5"].get("sizes_bytes") if isinstance(raw.get("p5"), dict) else None
    if sizes:
        print("\neach lesson page without _static/ (a guard: the build warns over "
              f"{PAGE_BUDGET_KB} KB):")
        for name, (size, gz) in sizes.items():
            print(f"  {size / 1024:7.0f} KB  {gz / 1024:6.0f} KB gzipped  {name}")
    print("\nreadability, per lesson:")
    print(readability.table(lessons_read))
    print(readability.narration_line(narration))
    print(f"\nraw timings: {HERE / 'raw.json'}; figures: {HERE / 'results.json'} "
          f"({raw['seconds']} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
