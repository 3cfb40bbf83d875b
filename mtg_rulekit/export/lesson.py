"""One lesson page: execute a notebook with nbclient (widget state stored), export it with
nbconvert's HTMLExporter and the `lesson` template. Runs inside the build's worker processes;
each worker keeps its exporter and handles several notebooks.

- **Time:** each cell has `Job.timeout` seconds (`--timeout`, default 600); a cell still running
  after `Job.progress` seconds (30) says so on stderr every `progress` seconds
  (`lesson 02_x: cell 3 (`while True:`) still running (60 s of 600 s)`), and one over its limit
  fails with "did not finish within 600 s".
- **Parent death:** a worker watches its parent (`watch_parent`): when the build is gone (even
  after `kill -9`), the worker kills the kernels it started and exits, so no orphan keeps writing
  pages. Pages are written whole (`ownership.write_atomic`).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from mtg_rulekit.display.svg import strip_prolog
from mtg_rulekit.export.csp import secure
from mtg_rulekit.export.ownership import write_atomic
from mtg_rulekit.scenario.reads import READS_ENV
from mtg_rulekit.scenario.reads import read as read_scenarios

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
TEMPLATE = "lesson"
CELL_TIMEOUT_S = 600
PROGRESS_S = 30  # a long cell says it is still running this often
MAX_CELL_OUTPUT = 10 * 1024 * 1024
"""Characters of output one cell may leave (text, images, widget views): the page carries all of
it, so a cell printing more fails its lesson, named, before the page is made."""
KERNEL_ENV = {"RULEKIT_LESSON_EXT": "html", "RULEKIT_DIAGRAMS_URL": "diagrams/",
              "PYDEVD_DISABLE_FILE_VALIDATION": "1"}



@dataclass
class Job:
    notebook: str  # path of the .ipynb
    page: str  # path of the .html to write
    widget_renderer_url: str | None  # relative URL of embed.js; None: nbconvert's CDN default
    cdn_note: str = ""  # shown in the page's top bar when the page needs a network
    lab_css: tuple[str, ...] = ()  # relative URLs of the shared JupyterLab style sheets
    log: str = ""  # where the kernel's own output goes (the build cache, outside the site)
    live: dict[str, object] | None = None  # the live sandbox's runtime config (and cache key)
    timeout: float = CELL_TIMEOUT_S  # seconds a cell may run
    progress: float = PROGRESS_S  # seconds between "still running" lines
    executed: str = ""  # where the executed notebook is kept (the build cache); "" for nowhere
    next_lesson: tuple[str, str] = ("", "")  # the next lesson's page and title ("": the last)
    launch: tuple[tuple[str, str], ...] = ()  # (label, URL with {stem}): "Open in JupyterLite"...


@dataclass
class Result:
    notebook: str
    page: str
    ok: bool
    seconds: float
    title: str = ""
    rulings: list[str] = field(default_factory=list)  # the ruling ids its headings name
    size: int = 0
    scenarios: list[str] = field(default_factory=list)  # the scenario files its kernel read
    listed: bool = False  # its kernel listed the scenarios folder
    error: str = ""
    warnings: list[str] = field(default_factory=list)
    heaviest: str = ""  # the cell with the most output, in words (`heaviest_output`)


def cell_named(index: int, source: str) -> str:
    """A cell as a message names it: counted from 1, as JupyterLab counts them (its first cell
    is cell 1), with its first line: ``cell 7 (`Stepper("r05_x")`)``."""
    return f"cell {index + 1} (`{first_line(source)}`)"


def first_line(source: str) -> str:
    for line in source.splitlines():
        if line.strip():
            text = line.strip()
            return text if len(text) <= 80 else text[:77] + "..."
    return "(empty cell)"


@cache
def _css() -> str:
    return (TEMPLATES / TEMPLATE / "rulekit.css").read_text("utf-8")


def views_resources(names: set[str], live: dict[str, object] | None = None
                    ) -> dict[str, object] | None:
    """What a page with the views `names` needs: their style sheets, their modules (each
    registering itself with the page's host) and the host (`mtg_rulekit/display/front/`); with a
    sandbox and the live runtime (`live`, from the build), the sandbox's back-end and the
    runtime's config. None for a page without views."""
    from mtg_rulekit.display.front import css_parts, module_text, page_module, script_text

    names = {n for n in names if n in ("stepper", "sandbox", "quiz")}
    if not names:
        return None
    backend = None
    if "sandbox" in names and live is not None:
        backend = {"config": live["config"], "script": script_text("sandbox_backend")}
    # each style sheet once (a walkthrough and a sandbox both build on the frame's and board's)
    css = dict.fromkeys(part for n in sorted(names) for part in css_parts(n))
    return {"css": "\n".join(css),
            "modules": [page_module(n) for n in sorted(names)], "host": module_text("host"),
            "live": backend}


@cache
def exporter(widget_renderer_url: str | None):  # nbconvert is imported lazily
    from nbconvert import HTMLExporter

    kw: dict[str, object] = {}
    if widget_renderer_url is not None:
        # offline: the standalone embed.js (no require.js); fonts load next to it
        kw = {"widget_renderer_url": widget_renderer_url, "require_js_url": ""}
    exp = HTMLExporter(
        template_name=TEMPLATE, extra_template_basedirs=[str(TEMPLATES)],
        exclude_input=True, exclude_input_prompt=True, exclude_output_prompt=True,
        mathjax_url="", mermaid_js_url="", mermaid_layout_elk_js_url="",
        html_manager_semver_range="1.0.15", **kw)
    exp.register_filter("rulekit_inline_svg", strip_prolog)
    # every JSON the templates (ours and nbconvert's lab template) put in a <script>
    exp.register_filter("escape_html_script", script_json)
    return exp


def script_json(text: str) -> str:
    r"""JSON text made safe inside a `<script>` block: `<`, `>` and `&` become `\u003c`,
    `\u003e` and `\u0026` (valid only inside JSON strings, which is the only place JSON has
    them), so no `</script>`, `<!--` or `<script` can end the block or put the HTML parser in
    its "script data escaped" states (nbconvert's own filter escapes only `/`). `JSON.parse`
    reads the same value back.

    >>> script_json('{"t": "<!--<script></script>-->&"}')
    '{"t": "\\u003c!--\\u003cscript\\u003e\\u003c/script\\u003e--\\u003e\\u0026"}'
    """
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


# nbconvert's HTMLExporter makes every cell's input and output wrapper a Tab stop
# (tabindex="0"): on a lesson page that is every paragraph and heading
_TAB_STOP = re.compile(r'(<div class="(?:jp-Cell-inputWrapper|[^"]*\bjp-OutputArea-output\b[^"]*)"'
                       r'[^>]*?) tabindex="0"')


def untab_prose(page: str) -> str:
    """`page` with the prose out of the Tab order: no `tabindex="0"` on the cells'
    input and output wrappers, so Tab goes from control to control (the walkthroughs' own
    scrolling panes stay focusable).

    >>> untab_prose('<div class="jp-Cell-inputWrapper" tabindex="0"><p>Hi</p></div>')
    '<div class="jp-Cell-inputWrapper"><p>Hi</p></div>'
    >>> untab_prose('<div class="rk-diagram" tabindex="0">')
    '<div class="rk-diagram" tabindex="0">'
    """
    return _TAB_STOP.sub(r"\1", page)


_NOTEBOOK_LINK = re.compile(r'href="(\d\d_[A-Za-z0-9_]+)\.ipynb(#[^"]*)?"')
_GLOSSARY_LINK = re.compile(r'href="(\d\d_[A-Za-z0-9_]+\.html)#glossary-([a-z0-9-]+)"')


def lesson_links(page: str) -> str:
    """`page` with its links to other lesson notebooks (`02_x.ipynb#y`, written in a lesson's
    markdown so they work in JupyterLab) pointing at their pages (`02_x.html#y`), and each link
    to a glossary entry titled with its meaning (`mtg_rulekit/data/glossary.toml`): a pointer
    shows the definition without leaving the lesson.

    >>> lesson_links('<a href="00_start_here.ipynb#glossary-token">token</a>')[:92]
    '<a href="00_start_here.html#glossary-token" title="A permanent that is not a card: an effect'
    """
    from html import escape

    from mtg_rulekit.core.glossary import glossary

    means = {t.id: t.means for t in glossary()}
    page = _NOTEBOOK_LINK.sub(lambda m: f'href="{m.group(1)}.html{m.group(2) or ""}"', page)
    return _GLOSSARY_LINK.sub(
        lambda m: m.group(0) + (f' title="{escape(means[m.group(2)])}"'
                                if m.group(2) in means else ""), page)


def lab_css_files() -> list[Path]:
    """nbconvert's JupyterLab style sheets the lab template would paste into every page (found
    where nbconvert finds its templates, without importing nbconvert: about a second)."""
    from jupyter_core.paths import jupyter_path

    for folder in jupyter_path("nbconvert", "templates", "lab", "static"):
        static = Path(folder)
        if (static / "index.css").is_file() and (static / "theme-light.css").is_file():
            return [static / "index.css", static / "theme-light.css"]
    return []


def _stderr_warnings(nb: object, rel: str) -> list[str]:
    out = []
    for i, cell in enumerate(getattr(nb, "cells", [])):
        for o in cell.get("outputs", []) if cell.get("cell_type") == "code" else []:
            if o.get("output_type") == "stream" and o.get("name") == "stderr":
                text = first_line(str(o.get("text", "")))
                out.append(f"{rel}: {cell_named(i, cell.source)} wrote to stderr: "
                           f"{text}")
    return out


def output_sizes(nb: Any) -> list[tuple[int, int]]:
    """(cell index, characters of its outputs) for each code cell with outputs, largest
    first."""
    sizes = []
    for i, cell in enumerate(getattr(nb, "cells", [])):
        outputs = cell.get("outputs", []) if cell.get("cell_type") == "code" else []
        total = sum(len(v if isinstance(v, str) else json.dumps(v)) for o in outputs
                    for v in [o.get("text", ""), *(o.get("data") or {}).values()])
        if total:
            sizes.append((i, total))
    return sorted(sizes, key=lambda s: -s[1])


def heaviest_output(nb: Any, rel: str, limit: int = MAX_CELL_OUTPUT) -> tuple[str, str]:
    """The cell with the most output, in words (`cell 3 (`print(...)`), 2.0 MB of output`),
    and, when that is over `limit`, the error that fails the lesson ("" else)."""
    sizes = output_sizes(nb)
    if not sizes:
        return "", ""
    index, size = sizes[0]
    cell = nb.cells[index]
    where = cell_named(index, cell.source)
    words = f"{where}, {size / 1024 / 1024:.1f} MB of output"
    if size <= limit:
        return words, ""
    return words, (f"{rel}: {where}: its output is {size / 1024 / 1024:.1f} MB, over the "
                   f"{limit / 1024 / 1024:g} MB a lesson page may carry (the page holds all of "
                   "it): print less, or clear that output")


def has_code(nb: object) -> bool:
    """Whether notebook `nb` has code to run (a page of text only starts no kernel)."""
    return any(c.cell_type == "code" and c.source.strip() for c in getattr(nb, "cells", []))


def needs_kernel(path: Path) -> bool:
    """Whether the notebook at `path` has code to run; True when it can't be read (its job
    then runs, and fails, in a worker like any other)."""
    import nbformat

    try:
        return has_code(nbformat.read(path, as_version=4))
    except Exception:
        return True


def run(job: Job) -> Result:
    """Execute and export one notebook; never raises (a failure is a Result with `error`)."""
    import nbformat
    from nbclient import NotebookClient

    from mtg_rulekit.lab.kernels import kernel_config
    from mtg_rulekit.repo.outline import outline

    start = time.perf_counter()
    path = Path(job.notebook)
    rel = _shown(path)
    current: dict[str, int] = {"index": -1}
    nb = None
    watch = CellWatch(path.stem, job.progress, job.timeout)

    def started(cell: dict, cell_index: int) -> None:
        current["index"] = cell_index
        if cell.get("cell_type") == "code":
            watch.start(cell_index, str(cell.get("source", "")))
        else:
            watch.stop()

    try:
        nb = nbformat.read(path, as_version=4)
        client = NotebookClient(
            nb, kernel_name="python3", store_widget_state=True, timeout=job.timeout,
            **kernel_config(),  # type: ignore[arg-type]  # IPC sockets (mtg_rulekit.lab.kernels)
            # every output is in once the last cell is done: no need to wait for a graceful exit
            shutdown_kernel="immediate",
            resources={"metadata": {"path": str(path.parent)}},
            on_cell_start=started,
            on_cell_executed=lambda **_kw: watch.stop())
        log = Path(job.log or os.devnull)
        if job.log:
            log.parent.mkdir(parents=True, exist_ok=True)
        # the scenarios the kernel reads (mtg_rulekit.scenario.reads): its page depends on them
        reads = Path(job.log).with_name(f"{path.stem}.scenarios") if job.log else None
        if reads is not None:
            reads.unlink(missing_ok=True)
        with open(log, "wb") as kernel_log:  # the kernel's own stderr (start-up chatter)
            try:
                if has_code(nb):
                    # for the kernels this worker starts: links between lessons point at the
                    # exported pages, and diagrams at the site's copy of diagrams/ (see
                    # mtg_rulekit.display.lesson)
                    os.environ.update(KERNEL_ENV)
                    env = {**os.environ, READS_ENV: str(reads)} if reads else dict(os.environ)
                    client.execute(stdout=kernel_log, stderr=subprocess.STDOUT, env=env)
                # else: nothing to run, no kernel to start (a page of text only)
            finally:
                watch.close()
        heaviest, too_much = heaviest_output(nb, rel)
        if too_much:  # before the page (and its copies in memory) is made
            return Result(job.notebook, job.page, False, time.perf_counter() - start,
                          error=too_much)
        # every cell ran: the outputs as the page shows them (kept once the page is written)
        executed = nbformat.writes(nb) if job.executed else ""
        from mtg_rulekit.export.live import page_status
        from mtg_rulekit.export.views import contents, to_views, view_names

        # the page is run already: no "Run All Cells" hint (mtg_rulekit.repo.lessons.RUN_HINT)
        from mtg_rulekit.repo.lessons import drop_run_hint

        if nb.cells and nb.cells[0].cell_type == "markdown":
            nb.cells[0].source = drop_run_hint(nb.cells[0].source)
        # the walkthroughs and sandboxes as rk-view markup (mtg_rulekit.export.views); a sandbox
        # in a page starts inactive, until its engine is loaded (or says why it can't be)
        to_views(nb, overrides={"sandbox": {"status": page_status(job.live)}})
        from mtg_rulekit.export.quiz import PAGE as QUIZ
        from mtg_rulekit.export.quiz import anchor, lesson_questions

        # a lesson with questions links to its class quiz (mtg_rulekit.export.quiz)
        quiz = f"{QUIZ}#{anchor(path.stem)}" if lesson_questions(nb, path.stem) else ""
        found = outline(nb, path.stem)  # title and rulings (mtg_rulekit.repo.outline)
        title = found.title
        nb.metadata["title"] = title
        resources = {"metadata": {"name": title, "path": str(path.parent)},
                     "rulekit_css": _css(),
                     "rulekit_views": views_resources(view_names(nb), job.live),
                     "rulekit_cdn_note": job.cdn_note, "rulekit_quiz": quiz,
                     "rulekit_contents": contents(nb),
                     "rulekit_next": job.next_lesson if job.next_lesson[0] else None,
                     "rulekit_launch": [(label, url.replace("{stem}", path.stem))
                                        for label, url in job.launch],
                     "rulekit_lab_css": list(job.lab_css)}
        page, _ = exporter(job.widget_renderer_url).from_notebook_node(nb, resources=resources)
        page = secure(untab_prose(lesson_links(page)))
    except Exception as exc:  # reported with the notebook and the cell
        return Result(job.notebook, job.page, False, time.perf_counter() - start,
                      error=_describe(exc, rel, nb, current["index"], job.timeout))
    write_atomic(Path(job.page), page)
    if executed:
        Path(job.executed).parent.mkdir(parents=True, exist_ok=True)
        write_atomic(Path(job.executed), executed)
    warnings = _stderr_warnings(nb, rel)
    if nb.metadata.get("widgets"):  # widget outputs that are none of the kit's views
        warnings.append(f"{rel}: its Jupyter widgets (ipywidgets) work in JupyterLab, not in the "
                        "page: their widget manager needs eval, which the pages' security "
                        "policy does not allow (docs/classroom.md)")
    scenarios, listed = read_scenarios(reads) if reads is not None else ([], False)
    return Result(job.notebook, job.page, True, time.perf_counter() - start, title=title,
                  rulings=list(found.rulings), size=len(page.encode("utf-8")),
                  warnings=warnings, heaviest=heaviest, scenarios=scenarios, listed=listed)


def _shown(path: Path) -> str:
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return str(path)


def _describe(exc: Exception, rel: str, nb: object, index: int,
              timeout: float = CELL_TIMEOUT_S) -> str:
    """`notebooks/x.ipynb: cell 4 (`first line`): NameError: name 'y' is not defined`; a cell
    over its time: `...: cell 4 (`while True:`): did not finish within 600 s (--timeout)`."""
    from nbclient.exceptions import CellTimeoutError

    cells = getattr(nb, "cells", None)
    if cells is not None and 0 <= index < len(cells):
        where = cell_named(index, cells[index].source)
    elif nb is None:
        where = "can't be read"
    else:
        where = "before the first cell (kernel start)"
    if isinstance(exc, CellTimeoutError):
        return (f"{rel}: {where}: did not finish within {_seconds(timeout)} s (the limit per "
                "cell; raise it with --timeout SECONDS)")
    ename = getattr(exc, "ename", None) or type(exc).__name__
    evalue = getattr(exc, "evalue", None)
    if evalue is None:
        evalue = str(exc).strip().splitlines()[-1] if str(exc).strip() else ""
    return f"{rel}: {where}: {ename}: {evalue}"


def _seconds(value: float) -> str:
    return f"{value:g}"


def _stderr(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


class CellWatch:
    """Says on `say` (stderr) every `interval` seconds that a cell is still running:
    `lesson 02_x: cell 3 (`while True:`) still running (60 s of 600 s)`."""

    def __init__(self, lesson: str, interval: float, limit: float,
                 say: Callable[[str], None] = _stderr) -> None:
        self.lesson, self.interval, self.limit, self.say = lesson, interval, limit, say
        self._cell: tuple[int, str, float] | None = None
        self._next = 0.0
        self._lock = threading.Lock()
        self._closed = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self, index: int, source: str) -> None:
        with self._lock:
            self._cell = (index, source, time.monotonic())
            self._next = self.interval
        if self._thread is None and self.interval > 0:
            self._thread = threading.Thread(target=self._run, daemon=True,
                                            name="rulekit-cell-watch")
            self._thread.start()

    def stop(self) -> None:
        with self._lock:
            self._cell = None

    def close(self) -> None:
        self.stop()
        self._closed.set()

    def _run(self) -> None:
        tick = min(1.0, self.interval / 4)
        while not self._closed.wait(tick):
            with self._lock:
                if self._cell is None:
                    continue
                index, source, since = self._cell
                elapsed = time.monotonic() - since
                if elapsed < self._next:
                    continue
                self._next += self.interval
            self.say(f"lesson {self.lesson}: {cell_named(index, source)} still running "
                     f"({elapsed:.0f} s of {_seconds(self.limit)} s)")


def watch_parent(parent: int, interval: float = 0.5) -> None:
    """In a build worker: a thread that, once `parent` (the build) is gone, kills the
    processes this worker started (its kernels, with their process groups) and exits."""

    def run() -> None:
        while os.getppid() == parent:
            time.sleep(interval)
        kill_children(os.getpid())
        os._exit(1)

    threading.Thread(target=run, daemon=True, name="rulekit-parent-watch").start()


def child_pids(pid: int) -> list[int]:
    """The processes whose parent is `pid` (Linux: /proc; elsewhere none are found)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields[1:2] == [str(pid)]:
            found.append(int(stat.parent.name))
    return found


def kill_children(pid: int) -> None:
    """SIGKILL the children of `pid`, each with its process group when it leads one (a kernel
    runs in a session of its own, with its own children)."""
    for child in child_pids(pid):
        try:
            if os.getpgid(child) == child:
                os.killpg(child, signal.SIGKILL)
            else:
                os.kill(child, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
