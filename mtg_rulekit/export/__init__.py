"""The lesson site: `python -m mtg_rulekit.export --out site` (what `make lessons` runs).

Every `notebooks/*.ipynb` is executed with nbclient (widget state stored, so the steppers step
in the browser with no kernel) and exported with nbconvert's HTMLExporter and the `lesson`
template (`mtg_rulekit/templates/lesson/`) to `site/<name>.html`; `site/index.html` lists the
lessons as a course; `site/teachers.html` planning, projecting, printing and the rulings
coverage table R01-R19; `site/cards.html` the card catalog; `site/quiz.html` the class quiz
(each lesson's walkthrough questions one a screen, `mtg_rulekit.export.quiz`).

- **Processes:** a pool of worker processes (one per core by default); each worker handles
  several notebooks in turn, so Python and nbconvert start once per worker and a kernel start is
  the cost per notebook. The longest lessons (by their last build) go first.
- **Cache:** `lessons.json` keeps, per lesson, a key hashing the notebook, every
  file of the `rulekit` package but the scenarios (engine, templates, this build), other files
  in the notebooks folder, the widget mode and the versions of nbconvert, nbclient, ipywidgets,
  ipykernel and Graphviz; the scenarios its kernel read (`mtg_rulekit.scenario.reads`) with a hash
  of their bytes (and of the folder's list of names, when the lesson listed it); and the
  sha256 of the page it wrote. A lesson whose keys and page are unchanged is not rebuilt: a
  new or edited scenario rebuilds only the lessons that read it. The cache and the kernel logs live outside the site, in the
  checkout's `build/lessons/` (see `ownership`), so copying `site/` publishes only the site.
- **Files:** the build overwrites and deletes only what it wrote itself (see `ownership`); an
  unusable `--out` is one line and exit 2, with nothing changed.
- **Offline:** the widget manager comes from `_static/html-manager/` (see `assets`); no
  require.js, MathJax or mermaid script. Without npm it falls back to the public CDN and says so.
- **Live sandbox:** Pyodide, Viz.js and the engine in `_static/sandbox/` (see `live`); each page
  gets the sandbox's starting position and the page script that starts it on a click. Without
  npm the pages keep the sandbox's picture and the build says why (`--sandbox auto|on|off`).
- **Executed notebooks** are kept in the cache too (`executed/<lesson>.ipynb`,
  `executed_notebook`): the tests check them instead of running every lesson a second time.
- **Failures** name the notebook and the cell (counted from 1, as JupyterLab counts, and its
  first line) and say why; the build exits 1. A lesson that fails keeps its last good page and
  its line in the index (both as the cache recorded them), and the build says so.
- **Time:** a cell may run `--timeout` seconds (600); one running long says so every 30 s.
- **One build per site:** a build holds `.rulekit-build.lock` in `--out` (its pid, under a
  `flock`; deleted when it is done) and `build.lock` in its cache folder; a second build into
  the same `--out`, whatever its `--cache`, or with the same cache, refuses (exit 2) while the
  first is alive. The workers exit, killing their kernels, when the build dies, even by
  `kill -9`.
- **Size:** a page over `PAGE_BUDGET` (1.5 MB, without the shared `_static/`) gets a warning
  naming the cell with the most output; a cell leaving over `lesson.MAX_CELL_OUTPUT` (10 MB)
  fails its lesson, named, before its page is made.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import shutil
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

from mtg_rulekit.export import assets as _assets
from mtg_rulekit.export import live as _live
from mtg_rulekit.export.index import SITE_CSS, load_coverage, write_index, write_teachers
from mtg_rulekit.export.launch import key as launch_key
from mtg_rulekit.export.launch import links as launch_links
from mtg_rulekit.export.lesson import CELL_TIMEOUT_S, PROGRESS_S, Job, Result
from mtg_rulekit.export.ownership import (
    BuildLock,
    Cache,
    OutError,
    cache_dir_for,
    check_out,
    is_ours,
    page_record,
    remove_stale_temporaries,
    write_atomic,
)

PACKAGE_DIR = Path(__file__).resolve().parent.parent
STATIC = "_static"
CACHE_FORMAT = 2
PAGE_BUDGET = 1536 * 1024
"""Bytes of one lesson page, a guard against accidental weight (a drawing or a module embedded
twice): a walkthrough ships one picture per step, a phone's where it needs one, and the whole
story's drawing, so five walkthroughs (lesson 8) weigh about 1.4 MB. `make bench` reports each
page (p5_page_kb, raw and gzipped)."""

__all__ = ["PAGE_BUDGET", "BuildReport", "OutError", "budget_warning", "build", "cache_key_base",
           "executed_notebook", "lesson_paths", "main", "write_error"]


@dataclass
class BuildReport:
    out: Path
    built: list[Result] = field(default_factory=list)  # executed this run (ok or not)
    cached: list[str] = field(default_factory=list)  # notebook stems not rebuilt
    kept: list[str] = field(default_factory=list)  # failed this run: the last good page stays
    lessons: list[dict[str, object]] = field(default_factory=list)  # index entries, in order
    offline: bool = True
    widgets_note: str = ""
    live: bool = False  # the pages have the live sandbox (site/_static/sandbox/)
    sandbox_note: str = ""  # why they don't, when the build tried
    seconds: float = 0.0

    @property
    def failures(self) -> list[Result]:
        return [r for r in self.built if not r.ok]

    @property
    def ok(self) -> bool:
        return not self.failures


def executed_notebook(out: Path, stem: str, cache_dir: Path | None = None) -> Path:
    """The executed copy of lesson `stem` (its outputs and widget state) that the last build of
    the site in `out` exported; it exists once that lesson was built."""
    return Cache(cache_dir or cache_dir_for(out), out).executed / f"{stem}.ipynb"


def lesson_paths(folder: Path) -> list[Path]:
    return sorted(p for p in folder.glob("*.ipynb") if p.is_file())


def _versions() -> str:
    parts = []
    for dist in ("nbconvert", "nbclient", "ipywidgets", "ipykernel", "pandas"):
        try:
            parts.append(f"{dist}={metadata.version(dist)}")
        except metadata.PackageNotFoundError:
            parts.append(f"{dist}=none")
    try:
        from mtg_rulekit.display.svg import dot_version

        parts.append("dot=" + dot_version())
    except Exception:  # no dot: the lessons fail anyway, with their own message
        parts.append("dot=none")
    parts.append(f"python={sys.version_info[:3]}")
    return ";".join(parts)


def _hash_tree(h: hashlib._Hash, root: Path, *, skip_suffixes: tuple[str, ...] = (),
               skip: Path | None = None) -> None:
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if not path.is_file() or "__pycache__" in path.parts or ".ipynb_checkpoints" in path.parts \
                or path.suffix in (".pyc", *skip_suffixes) \
                or (skip is not None and path.parent == skip and path.suffix == ".toml"):
            continue
        h.update(rel.encode() + b"\0" + path.read_bytes() + b"\0")


def cache_key_base(notebooks_dir: Path, widgets_key: str) -> str:
    """What every lesson's key shares: package sources (the scenarios are each lesson's own:
    `scenarios_key`), notebook-folder files, versions."""
    from mtg_rulekit.scenario import shipped_dir

    h = hashlib.sha256(f"format={CACHE_FORMAT};{widgets_key};{_versions()}".encode())
    _hash_tree(h, PACKAGE_DIR, skip=shipped_dir())
    _hash_tree(h, notebooks_dir, skip_suffixes=(".ipynb",))
    return h.hexdigest()


def scenarios_key(files: Sequence[str], listed: bool) -> str:
    """The hash of the scenarios a lesson's kernel read (`files`, names in the scenarios
    folder) as they are now, and of the folder's list of names when it `listed` it."""
    from mtg_rulekit.scenario import shipped_dir

    folder = shipped_dir()
    h = hashlib.sha256()
    if listed:
        h.update("\0".join(p.name for p in sorted(folder.glob("*.toml"))).encode() + b"\1")
    for name in sorted(files):
        path = folder / name
        data = path.read_bytes() if path.is_file() else b"(missing)"
        h.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
    return h.hexdigest()


def _scenarios_unchanged(entry: dict[str, object]) -> bool:
    """Whether the scenarios the lesson of cache `entry` read are as they were then."""
    used = entry.get("scenarios")
    if not isinstance(used, dict) or not isinstance(used.get("files"), list):
        return False  # an entry from before the build recorded them
    files = [str(f) for f in used["files"]]
    return used.get("key") == scenarios_key(files, bool(used.get("listed")))


def _key(base: str, notebook: Path) -> str:
    return hashlib.sha256(base.encode() + notebook.read_bytes()).hexdigest()


def _stderr(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def build(notebooks: Sequence[Path] | Path, out: Path, *, jobs: int | None = None,
          force: bool = False, widgets: str = "auto", index: bool = True,
          cache_dir: Path | None = None, sandbox: str = "auto",
          timeout: float = CELL_TIMEOUT_S, progress: float = PROGRESS_S,
          repo: str | None = None, echo: Callable[[str], None] = _stderr) -> BuildReport:
    """Build the lesson pages (and index) for `notebooks` (a folder or a list of .ipynb files)
    into `out`. `widgets`: "auto" | "offline" | "cdn" (see `assets.prepare`); `sandbox`: the
    live sandbox in the pages, "auto" | "on" | "off" (see `live.prepare`). `cache_dir`: where
    the cache and kernel logs go (default: `ownership.cache_dir_for(out)`). `timeout`: seconds
    a cell may run; `progress`: seconds between a long cell's "still running" lines (stderr).
    `repo`: the lessons' repository (an https URL): each page links to the lesson on Binder;
    the pages link to the JupyterLite site when it is built in `out/lite/` (`make lite`).
    Raises `OutError`, before writing anything, when `out` is not the build's to write or
    another live build is writing it."""
    started = time.perf_counter()
    if isinstance(notebooks, Path):
        nb_dir, paths = notebooks, lesson_paths(notebooks)
    else:
        paths = sorted(Path(p) for p in notebooks)
        nb_dir = paths[0].parent if paths else Path("notebooks")
    folder = cache_dir or cache_dir_for(out)
    stems = [p.stem for p in paths]
    check_out(out, stems, Cache.load(folder, out), nb_dir)  # before the lock makes a folder
    locks = [BuildLock(folder, out), BuildLock.for_out(out)]  # one build per cache, per site
    try:
        for lock in locks:
            lock.acquire()
        cache = Cache.load(folder, out)  # again under the lock: as the last build left it
        check_out(out, stems, cache, nb_dir)
        return _build(paths, nb_dir, out, cache, stems, started, jobs=jobs, force=force,
                      widgets=widgets, index=index, sandbox=sandbox, timeout=timeout,
                      progress=progress, repo=repo, echo=echo)
    finally:
        for lock in reversed(locks):
            lock.release()


def _build(paths: list[Path], nb_dir: Path, out: Path, cache: Cache, stems: list[str],
           started: float, *, jobs: int | None, force: bool, widgets: str, index: bool,
           sandbox: str, timeout: float, progress: float, repo: str | None,
           echo: Callable[[str], None]) -> BuildReport:
    """`build` once it holds the lock and `out` was checked: plan (assets, and which lessons
    are unchanged), run (execute the others), publish (the index, teachers' and cards
    pages)."""
    out.mkdir(parents=True, exist_ok=True)
    remove_stale_temporaries(out)  # a killed build's half-written files
    cache.save()  # from now on this out is on record as the build's
    plan = _plan(paths, nb_dir, out, cache, stems, force=force, widgets=widgets,
                 sandbox=sandbox, launch=launch_links(out, repo), echo=echo)
    # the index's coverage table (loads every scenario: about a second) is read meanwhile
    side = ThreadPoolExecutor(1)
    try:
        coverage = side.submit(load_coverage) if index else None
        _run(plan, out, cache, len(paths), jobs=jobs, timeout=timeout, progress=progress,
             echo=echo)
        _publish(plan, out, cache, coverage.result() if coverage is not None else None)
    finally:
        side.shutdown()
    report = plan.report
    report.seconds = time.perf_counter() - started
    for failure in report.failures:
        echo(f"FAILED {failure.error}")
        stem = Path(failure.notebook).stem
        if stem in report.kept:
            echo(f"  {out / (stem + '.html')} stays as the last good build made it, and so does "
                 "its line in the index: fix the notebook and build again")
    built_ok = sum(r.ok for r in report.built)
    echo(f"mtg_rulekit.export: {built_ok} built, {len(report.cached)} unchanged, "
         f"{len(report.failures)} failed in {report.seconds:.1f} s -> {out}/index.html")
    return report


@dataclass
class _Plan:
    """What a build will do: its report so far, how pages load their assets, the index
    entries kept (unchanged lessons) and the lessons to execute, each with its cache key."""

    report: BuildReport
    renderer: str | None
    lab_css: tuple[str, ...]
    live_page: dict[str, object] | None
    entries: dict[str, dict[str, object]]
    todo: list[tuple[Path, str]]
    following: dict[str, tuple[str, str]]  # lesson stem -> the next lesson's page and title
    launch: tuple[tuple[str, str], ...] = ()  # the pages' "Open in ..." links


def _plan(paths: list[Path], nb_dir: Path, out: Path, cache: Cache, stems: list[str], *,
          force: bool, widgets: str, sandbox: str, launch: tuple[tuple[str, str], ...],
          echo: Callable[[str], None]) -> _Plan:
    """The assets installed (widget manager, JupyterLab's CSS, the live sandbox) and which
    lessons are unchanged since the last build (same cache key, page and executed notebook
    still there) and which must run."""
    wa = _assets.prepare(mode=widgets)
    report = BuildReport(out=out, offline=wa.offline)
    renderer = _assets.install(wa, out / STATIC)
    if not wa.offline:
        shutil.rmtree(out / STATIC / _assets.STATIC_SUBDIR, ignore_errors=True)
        report.widgets_note = ("These pages load the widget manager from a public CDN "
                               "(npm was not available when they were built): they need a "
                               "network connection.")
        echo(f"mtg_rulekit.export: can't fetch {_assets.PACKAGE}@{_assets.VERSION} with npm "
             f"({wa.reason}): pages will load it from the public CDN and need a network.")

    lab_css = _install_lab_css(out / STATIC)
    live_page = _prepare_live(out, report, sandbox if wa.offline else "off", echo)
    base = cache_key_base(nb_dir, wa.key + ";" + str((live_page or {}).get("key", "live:none"))
                          + ";" + launch_key(launch))
    entries = _keep_other_lessons(cache, set(stems))
    following = _following(paths)
    todo: list[tuple[Path, str]] = []
    for path in paths:
        # (a page links to the next lesson: its key holds that lesson's page and title)
        key = _key(base + repr(following.get(path.stem)), path)
        old = cache.lessons.get(path.stem)
        if not force and old and old.get("key") == key and _scenarios_unchanged(old) \
                and cache.page_is_ours(path.stem) \
                and (cache.executed / f"{path.stem}.ipynb").is_file():
            entries[path.stem] = old
            report.cached.append(path.stem)
        else:
            todo.append((path, key))
    return _Plan(report, renderer, lab_css, live_page, entries, todo, following, launch)


def _following(paths: list[Path]) -> dict[str, tuple[str, str]]:
    """Each lesson's next one in the course (the lessons in name order): its page and title."""
    from mtg_rulekit.repo.outline import read_outline

    out = {}
    for path, then in zip(paths, paths[1:]):
        found = read_outline(then)
        out[path.stem] = (f"{then.stem}.html", found.title if found else then.stem)
    return out


def _run(plan: _Plan, out: Path, cache: Cache, total: int, *, jobs: int | None,
         timeout: float, progress: float, echo: Callable[[str], None]) -> None:
    """Execute the lessons the plan says must run, in worker processes, recording each page
    in the cache as it is written (an interrupted build keeps its work)."""
    report, entries, todo = plan.report, plan.entries, plan.todo
    done = 0
    for stem in report.cached:
        done += 1
        echo(f"[{done}/{total}] {stem} unchanged (cached)")
    # longest first (by last build time) keeps both workers busy to the end
    todo.sort(key=lambda t: -float(cache.lessons.get(t[0].stem, {}).get("seconds", 1e9)))  # type: ignore[arg-type]
    note = report.widgets_note
    job_list = [Job(str(p), str(out / f"{p.stem}.html"), plan.renderer, note, plan.lab_css,
                    str(cache.logs / f"{p.stem}.kernel.log"), plan.live_page, timeout, progress,
                    str(cache.executed / f"{p.stem}.ipynb"),
                    plan.following.get(p.stem, ("", "")), plan.launch)
                for p, _ in todo]
    keys = {str(p): k for p, k in todo}
    workers = max(1, min(jobs or os.cpu_count() or 2, len(job_list)))
    if job_list:
        echo(f"mtg_rulekit.export: executing {len(job_list)} notebook(s) in {workers} process(es)"
             + ("" if report.offline else " [CDN mode]"))
    for result in _run_jobs(job_list, workers):
        done += 1
        stem = Path(result.notebook).stem
        report.built.append(result)
        if result.ok:
            over = budget_warning(stem, result.size, heaviest=result.heaviest)
            if over:
                result.warnings.append(over)
            used = {"files": result.scenarios, "listed": result.listed,
                    "key": scenarios_key(result.scenarios, result.listed)}
            entries[stem] = {"key": keys[result.notebook], "title": result.title,
                             "rulings": result.rulings, "seconds": round(result.seconds, 2),
                             "scenarios": used,
                             "page": f"{stem}.html", **page_record(Path(result.page)),
                             "notebook": str(Path(result.notebook).resolve())}
            echo(f"[{done}/{total}] {stem}... {result.seconds:.1f} s "
                 f"({result.size / 1024:.0f} KB)")
            for w in result.warnings:
                echo(f"  warning: {w}")
        else:  # the last good page and its index entry stay, as the cache recorded them
            old = cache.lessons.get(stem)
            if old is not None and cache.page_is_ours(stem):
                entries[stem] = old
                report.kept.append(stem)
            elif is_ours(Path(result.page)):  # a page of ours the cache has no record of
                Path(result.page).unlink()
            echo(f"[{done}/{total}] {stem}... FAILED after {result.seconds:.1f} s")
        cache.lessons = entries
        cache.save()  # after each lesson: an interrupted build keeps its work
    cache.lessons = entries
    cache.save()


def _publish(plan: _Plan, out: Path, cache: Cache, coverage: list[Any] | None) -> None:
    """The pages around the lessons: the index, the teachers' page and the cards page (when
    the build writes an index: `coverage` is then its coverage table)."""
    report = plan.report
    report.lessons = [{"stem": s, **plan.entries[s]} for s in sorted(plan.entries)]
    _drop_unused_widget_manager(out, report.lessons)
    if coverage is None:
        return
    from mtg_rulekit.export.cards import write_cards
    from mtg_rulekit.export.quiz import write_quiz

    quiz = [(str(e["stem"]), str(e["title"]), cache.executed / f"{e['stem']}.ipynb")
            for e in report.lessons]
    for page in (write_index(out, report, coverage), write_teachers(out, report, coverage),
                 write_cards(out, {str(e["stem"]): str(e["title"]) for e in report.lessons}),
                 write_quiz(out, quiz, SITE_CSS)):
        cache.pages[page.name] = page_record(page)
    cache.save()


def write_error(exc: OSError, out: Path) -> str:
    """One line for a write that failed: the file being written (a copy's destination, not
    its source in the cache; `--out` when the system named no file) and why."""
    return f"can't write {exc.filename2 or exc.filename or out}: {exc.strerror or exc}"


def budget_warning(stem: str, size: int, budget: int = PAGE_BUDGET, *,
                   heaviest: str = "") -> str | None:
    """The warning for a page of `size` bytes over `budget`, naming the lesson, the size and
    the cell with the most output (`heaviest`, from `lesson.heaviest_output`)."""
    if size <= budget:
        return None
    why = f"most of it: {heaviest}" if heaviest else "a large cell output?"
    return (f"lesson {stem}: the page is {size / 1024 / 1024:.1f} MB, over the "
            f"{budget / 1024 / 1024:g} MB page budget ({why}): it loads slowly in a classroom")


def _drop_unused_widget_manager(out: Path, lessons: list[dict[str, object]]) -> None:
    """No page loads the widget manager any more (its views are rendered by the page's own
    host, `mtg_rulekit.export.views`): its 2 MB leave `_static/`."""
    wanted = f"{STATIC}/{_assets.STATIC_SUBDIR}/"
    for entry in lessons:
        page = out / str(entry["page"])
        if page.is_file() and wanted in page.read_text("utf-8", errors="replace"):
            return
    shutil.rmtree(out / STATIC / _assets.STATIC_SUBDIR, ignore_errors=True)


def _keep_other_lessons(cache: Cache, stems: set[str]) -> dict[str, dict[str, object]]:
    """Cache entries of lessons not in this build: a page whose notebook is gone is deleted
    (only if it is the page the cache recorded); a page from another notebooks folder stays,
    and stays in the index; an entry whose page is missing or changed is dropped."""
    kept: dict[str, dict[str, object]] = {}
    for stem, entry in cache.lessons.items():
        if stem in stems or not cache.page_is_ours(stem):
            continue
        if Path(str(entry["notebook"])).is_file():
            kept[stem] = entry
        else:
            (cache.out / f"{stem}.html").unlink()
    return kept
def _prepare_live(out: Path, report: BuildReport, mode: str,
                  echo: Callable[[str], None]) -> dict[str, object] | None:
    """The live sandbox's runtime in `out/_static/sandbox/` and what every page with a sandbox
    needs to start it: the runtime's `config` for the page's back-end
    (`mtg_rulekit/display/front/sandbox_backend.js`) and the cache `key` (None, with
    `report.sandbox_note` saying why, when the runtime can't be had)."""
    found = _live.prepare(mode=mode)
    base = _live.install(found, out / STATIC)
    if base is None:
        if mode != "off":
            report.sandbox_note = (f"The sandboxes are pictures: the live sandbox's runtime "
                                   f"could not be fetched with npm ({found.reason}).")
        echo(f"mtg_rulekit.export: no live sandbox in the pages ({found.reason}): they show the "
             "sandbox's starting position with its 'needs JupyterLab' note.")
        return None
    stdlib = (found.folder / "STDLIB").read_text("utf-8").strip() if found.folder else ""
    if stdlib.startswith("source only"):
        echo(f"mtg_rulekit.export: the live sandbox's standard library is {stdlib}: it starts "
             "slower")
    mb = _live.size_mb(out / STATIC / _live.STATIC_SUBDIR)
    report.live = True
    return {"config": {"base": base, "scripts": list(_live.SCRIPTS), "mb": round(mb)},
            "key": found.key}


def _install_lab_css(static: Path) -> tuple[str, ...]:
    """Copy nbconvert's JupyterLab style sheets into `static/lab/` once for all pages; their
    URLs relative to the pages (empty: pages inline them, as nbconvert does)."""
    from mtg_rulekit.export.lesson import lab_css_files

    files = lab_css_files()
    if not files:
        return ()
    dest = static / "lab"
    dest.mkdir(parents=True, exist_ok=True)
    urls = []
    for src in files:
        data = src.read_bytes()
        target = dest / src.name
        if not target.is_file() or target.read_bytes() != data:
            write_atomic(target, data)
        urls.append(f"{static.name}/lab/{src.name}")
    return tuple(urls)


def _run_jobs(jobs: list[Job], workers: int):  # yields Result
    """Results as they complete. Workers are spawned (no forked zmq state) and reused; a
    lesson of text only (no kernel to start) is exported here, with no worker to spawn."""
    from mtg_rulekit.export.lesson import needs_kernel, run

    jobs = list(jobs)
    for job in [j for j in jobs if not needs_kernel(Path(j.notebook))]:
        jobs.remove(job)
        yield run(job)
    if not jobs:
        return
    from mtg_rulekit.export.lesson import watch_parent

    ctx = multiprocessing.get_context("spawn")
    # each worker exits (killing its kernels) once this process is gone, even after kill -9
    with ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=watch_parent,
                             initargs=(os.getpid(),)) as pool:
        futures = {pool.submit(run, job): job for job in jobs}
        for fut in as_completed(futures):
            job = futures[fut]
            try:
                yield fut.result()
            except Exception as exc:  # a worker died: name the notebook
                yield Result(job.notebook, job.page, False, 0.0,
                             error=f"{job.notebook}: the build worker died: {exc!r}")


def _positive(text: str) -> float:
    import argparse

    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 < value < 1e7:
        raise argparse.ArgumentTypeError(f"not a number of seconds above 0: {text!r}")
    return value


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m mtg_rulekit.export",
        description="Execute every lesson notebook and export the offline HTML site.")
    parser.add_argument("--out", type=Path, default=Path("site"), help="output folder (site)")
    parser.add_argument("--notebooks", type=Path, default=Path("notebooks"),
                        help="folder of lesson notebooks (notebooks)")
    parser.add_argument("--jobs", "-j", type=int, default=None,
                        help="worker processes (default: one per core)")
    parser.add_argument("--force", action="store_true", help="rebuild every lesson")
    parser.add_argument("--timeout", type=_positive, default=CELL_TIMEOUT_S, metavar="SECONDS",
                        help=f"seconds one cell may run before its lesson fails "
                             f"(default {CELL_TIMEOUT_S})")
    parser.add_argument("--cache", type=Path, default=None,
                        help="folder for the build cache and kernel logs (default: "
                             "build/lessons/ in the checkout; never inside --out)")
    parser.add_argument("--widgets", choices=("auto", "offline", "cdn"), default="auto",
                        help="widget manager from site/_static (offline) or the public CDN; "
                             "auto: offline when npm can fetch it")
    parser.add_argument("--repo", default=None, metavar="URL",
                        help="the lessons' repository (https://github.com/ORG/REPO): each page "
                             "offers the lesson on Binder")
    parser.add_argument("--sandbox", choices=("auto", "on", "off"), default="auto",
                        help="the live sandbox in the pages (Pyodide and Viz.js from npm, in "
                             "site/_static/sandbox); auto: when npm can fetch them")
    args = parser.parse_args(argv)
    from mtg_rulekit.scenario.model import skip_slow_optional_imports

    skip_slow_optional_imports()
    if not args.notebooks.is_dir():
        _stderr(f"mtg_rulekit.export: no folder {args.notebooks}/ (nothing to build)")
        return 1
    if args.repo:
        from mtg_rulekit.export.launch import binder_url

        try:
            binder_url(args.repo)
        except ValueError as exc:
            _stderr(f"mtg_rulekit.export: --repo: {exc}")
            return 2
    if not lesson_paths(args.notebooks):
        _stderr(f"mtg_rulekit.export: no notebooks in {args.notebooks}/ yet: building the index only")
    try:
        report = build(args.notebooks, args.out, jobs=args.jobs, force=args.force,
                       widgets=args.widgets, cache_dir=args.cache, sandbox=args.sandbox,
                       timeout=args.timeout, repo=args.repo or None)
    except OutError as exc:
        _stderr(f"mtg_rulekit.export: {exc}")
        return 2
    except _assets.AssetError as exc:
        _stderr(f"mtg_rulekit.export: {exc}")
        return 1
    except OSError as exc:
        _stderr(f"mtg_rulekit.export: {write_error(exc, args.out)}")
        return 2
    return 0 if report.ok else 1
