"""The lesson site's build under faults and hostile input:

- JSON in a page's `<script>` blocks can't end the block or hide the rest of the page;
- one build per site at a time (a lock); a killed build's workers and kernels die with it;
- pages are written whole; a recorded page that was damaged is rewritten, not refused;
- a cell has a time limit (`--timeout`), says it is still running, and fails by name;
- titles keep the `_`, `*` and backticks that aren't emphasis;
- a page over budget is named; a newline in a notebook's name can't break its link.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote

import nbformat
import pytest

from mtg_rulekit.export import PAGE_BUDGET, BuildReport, budget_warning, build, main
from mtg_rulekit.export.cards import render as render_cards
from mtg_rulekit.export.index import render as render_index
from mtg_rulekit.export.lesson import CellWatch, _describe, child_pids, exporter, script_json
from mtg_rulekit.export.ownership import (
    TMP_SUFFIX,
    BuildLock,
    Cache,
    OutError,
    check_out,
    is_ours,
    page_record,
    remove_stale_temporaries,
    write_atomic,
)
from mtg_rulekit.repo.outline import outline
from tests.helpers import write_notebook

BREAKOUTS = ("<!--<script>", "</script>", "<script>", "-->", "</SCRIPT >", "<!-- x <script> -->",
             "a</script><img src=x onerror=alert(1)>", "&lt;&amp;")
JSON_TYPES = ("application/json", "application/vnd.jupyter.widget-state+json",
              "application/vnd.jupyter.widget-view+json")


# ---------------------------------------------------------------- JSON inside <script>

def spec_script_end(page: str, start: int) -> int:
    """Where the HTML tokenizer (WHATWG "script data" states, with their escaped and
    double-escaped states) ends the script element whose text starts at `start`."""
    state, i, n = "data", start, len(page)

    def tag(name: str, at: int) -> bool:
        return page[at:at + len(name)].lower() == name and page[at + len(name):][:1] in \
            ("\t", "\n", "\f", " ", "/", ">")

    while i < n:
        if state in ("escaped", "double") and page.startswith("-->", i):
            state, i = "data", i + 3
        elif state == "data" and page.startswith("<!--", i):
            state, i = "escaped", i + 4
        elif state in ("data", "escaped") and tag("</script", i):
            return i
        elif state == "escaped" and tag("<script", i):
            state, i = "double", i + 7
        elif state == "double" and tag("</script", i):
            state, i = "escaped", i + 8
        else:
            i += 1
    return -1


def _script_elements(page: str) -> int:
    """How many script elements the page has, read as a browser reads it: a `<script` inside a
    script's own text (a module's comment quoting the page contract) opens none."""
    count, pos = 0, 0
    while (m := re.compile(r"<script\b[^>]*>").search(page, pos)) is not None:
        count, pos = count + 1, page.index("</script", m.end())
    return count


def json_scripts(page: str) -> list[tuple[str, str]]:
    """(type, text) of each JSON script block, each checked to end where it seems to."""
    found = []
    opening = re.compile(r"<script\b([^>]*)>")
    pos = 0
    # script by script: a script's own text (a module's comment quoting the page contract)
    # is not markup
    while (m := opening.search(page, pos)) is not None:
        close = page.index("</script", m.end())
        pos = close
        kind = re.search(r'type="([^"]+)"', m[1])
        if not kind or kind[1] not in JSON_TYPES:
            continue
        assert spec_script_end(page, m.end()) == close, f"{kind[1]} block runs past its end"
        found.append((kind[1], page[m.end():close]))
    return found


class _Counter(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.scripts = 0
        self.comments: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.scripts += tag == "script"

    def handle_comment(self, data: str) -> None:
        self.comments.append(data)


def test_the_checker_sees_the_old_breakout() -> None:
    """The tokenizer model above catches the old breakout as nbconvert's own filter left it (`/` only)."""
    old = "<script type=\"application/json\">" + json.dumps({"t": "<!--<script>"}).replace(
        "/", "\\/") + "</script><p>rest of the page</p></script>"
    start = old.index(">") + 1
    assert spec_script_end(old, start) != old.index("</script")


@pytest.mark.parametrize("text", BREAKOUTS)
def test_script_json_round_trips_and_has_no_markup(text: str) -> None:
    value = {"t": text, "nested": [text, {"k": text}]}
    safe = script_json(json.dumps(value))
    assert json.loads(safe) == value
    assert not set("<>&") & set(safe)


def _hostile_notebook(text: str) -> nbformat.NotebookNode:
    """A page's every kind of JSON embedding, each holding `text`: a widget that isn't ours
    (its view and its state, for nbconvert's html-manager) and a walkthrough's `rk-view` data
    (`mtg_rulekit.export.views.view_html`, what the build writes for a Stepper)."""
    from mtg_rulekit.export.views import view_html

    nb = nbformat.v4.new_notebook()
    nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {
        "version_major": 2, "version_minor": 0, "state": {"m1": {
            "model_name": "HTMLModel", "model_module": "@jupyter-widgets/controls",
            "model_module_version": "2.0.0", "state": {"value": text}}}}}
    data = {"text/plain": "x",
            "application/vnd.jupyter.widget-view+json": {"version_major": 2, "version_minor": 0,
                                                         "model_id": "m1", "note": text}}
    view = {"text/html": view_html("stepper", {"title": text, "frames": [], "step": 0})}
    nb.cells = [nbformat.v4.new_markdown_cell("# A lesson"),
                nbformat.v4.new_code_cell("x", outputs=[
                    nbformat.v4.new_output("display_data", data=data),
                    nbformat.v4.new_output("display_data", data=view)])]
    return nb


@pytest.mark.parametrize("text", [*BREAKOUTS, " ".join(BREAKOUTS)])
def test_every_json_embedding_in_a_page_survives_breakouts(text: str) -> None:
    """Widget state, widget view, a walkthrough's view data and the live sandbox's config: each
    parses back to what went in, and the page has exactly the scripts and comments it should."""
    from mtg_rulekit.export.lesson import views_resources

    nb = _hostile_notebook(text)
    resources = {"rulekit_css": "", "rulekit_cdn_note": "", "rulekit_lab_css": [],
                 "rulekit_views": views_resources({"stepper", "sandbox"},
                                                  {"config": {"base": text}})}
    page, _ = exporter(None).from_notebook_node(nb, resources=resources)
    found = json_scripts(page)
    assert sorted({kind for kind, _ in found}) == sorted(JSON_TYPES)
    parsed = [json.loads(body) for kind, body in found if kind == "application/json"]
    assert {"base": text} in parsed  # the live sandbox's config
    assert [p["title"] for p in parsed if "title" in p] == [text]  # the walkthrough's data
    blocks = dict(found)
    assert json.loads(blocks["application/vnd.jupyter.widget-view+json"])["note"] == text
    state = json.loads(blocks["application/vnd.jupyter.widget-state+json"])
    assert state["state"]["m1"]["state"]["value"] == text
    for kind, body in found:
        assert "<" not in body, kind
    counter = _Counter()
    counter.feed(page)
    assert counter.scripts == _script_elements(page)
    assert not [c for c in counter.comments if "script" in c.lower()]
    assert "onerror=alert" not in page.replace("\\u003cimg src=x onerror=alert", "")


def test_the_inlined_page_scripts_neither_close_their_tag_nor_open_a_comment() -> None:
    from mtg_rulekit.display.front import module_text, page_module, script_text

    for text in (module_text("host"), page_module("stepper"), page_module("sandbox"),
                 script_text("sandbox_backend")):
        assert spec_script_end(text + "</script>", 0) == len(text)
        assert "<!--" not in text


# ---------------------------------------------------------------- plain titles

@pytest.mark.parametrize(("markdown", "plain"), [
    ("pay_with and mana_abilities, 2*3 = 6", "pay_with and mana_abilities, 2*3 = 6"),
    ("The `pay_with` argument", "The pay_with argument"),
    ("Tapped for *mana* (R04)", "Tapped for mana (R04)"),
    ("**Ward** and _targets_: snake_case_name", "Ward and targets: snake_case_name"),
    ("A lone ` and a * star", "A lone ` and a * star"),
    ("`<b>` is *not* bold", "<b> is not bold"),
])
def test_titles_keep_marks_that_are_not_emphasis(markdown: str, plain: str) -> None:
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(f"# {markdown}")])
    title = outline(nb, "01_x").title
    assert title == plain
    report = BuildReport(out=Path("site"), lessons=[{"stem": "01_x", "title": title}])
    from html import escape

    assert f">{escape(plain)}</a>" in render_index(report, [])


# ---------------------------------------------------------------- links and budget

class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.hrefs += [v or "" for k, v in attrs if tag == "a" and k == "href"]


@pytest.mark.parametrize("stem", ["01_two\nlines", "02_tab\there", "03_#hash?q", '04_"q"<b>'])
def test_index_and_cards_links_survive_odd_notebook_names(stem: str) -> None:
    from mtg_rulekit.authoring.cards import CardEntry

    report = BuildReport(out=Path("site"), lessons=[{"stem": stem, "title": "T"}])
    card = CardEntry(name="Forest", mana_cost="", type_line="Basic Land - Forest",
                     power_toughness="", oracle="({T}: Add {G}.)", token=False,
                     lessons=(stem,), scenarios=())
    for page in (render_index(report, []), render_cards([card], {stem})):
        links = _Links()
        links.feed(page)
        target = [h for h in links.hrefs if unquote(h) == f"{stem}.html"]
        assert target, links.hrefs
        assert not re.search(r"[\s#?\"<>]", target[0])


def test_a_page_over_budget_is_named_with_its_size() -> None:
    assert budget_warning("01_small", PAGE_BUDGET) is None
    warning = budget_warning("07_big", 48 * 1024 * 1024)
    assert warning is not None and "07_big" in warning and "48.0 MB" in warning
    assert "over the 1.5 MB page budget" in warning


# ---------------------------------------------------------------- whole pages

def test_write_atomic_replaces_whole_or_not_at_all(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    page = tmp_path / "01_x.html"
    write_atomic(page, "old page")
    write_atomic(page, "new page")
    assert page.read_text() == "new page"

    def full_disk(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full_disk)
    with pytest.raises(OSError):
        write_atomic(page, "half")
    assert page.read_text() == "new page"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["01_x.html"]


def test_stale_temporaries_are_removed(tmp_path: Path) -> None:
    (tmp_path / "diagrams").mkdir()
    stale = [tmp_path / f".01_x.html.123{TMP_SUFFIX}", tmp_path / f"diagrams/.a.svg.9{TMP_SUFFIX}"]
    for p in stale:
        p.write_text("<!DOC")
    keep = tmp_path / "notes.txt"
    keep.write_text("mine")
    assert sorted(remove_stale_temporaries(tmp_path)) == sorted(stale)
    assert [p.name for p in tmp_path.rglob("*") if p.is_file()] == ["notes.txt"]


def _recorded(tmp_path: Path) -> tuple[Path, Cache]:
    out = tmp_path / "site"
    out.mkdir()
    cache = Cache(tmp_path / "cache", out)
    page, index = out / "01_x.html", out / "index.html"
    page.write_text('<!DOCTYPE html>\n<html>\n<head><meta content="rulekit.export" '
                    'name="generator"></head><body>the whole page</body></html>')
    index.write_text('<!DOCTYPE html>\n<meta name="generator" content="rulekit.export"> index')
    cache.lessons = {"01_x": {"key": "k", "page": "01_x.html", **page_record(page),
                              "notebook": str(tmp_path / "01_x.ipynb")}}
    cache.pages = {"index.html": page_record(index)}
    cache.save()
    return out, Cache.load(cache.folder, out)


def test_a_damaged_page_the_cache_recorded_is_rewritten_not_refused(tmp_path: Path) -> None:
    out, cache = _recorded(tmp_path)
    assert cache.trusted and cache.pages
    (out / "01_x.html").write_text("<!DOCTYPE html>\n<ht")  # cut before the generator tag
    (out / "index.html").write_text("")  # emptied
    check_out(out, ["01_x"], cache, tmp_path / "notebooks")  # no OutError
    assert not cache.page_is_ours("01_x")  # ... and so it is rebuilt, not kept


def test_an_unrecorded_page_or_other_content_is_still_refused(tmp_path: Path) -> None:
    out, cache = _recorded(tmp_path)
    (out / "02_y.html").write_text("someone's own page")
    (out / "cards.html").write_text("someone's own cards")
    for stems in (["01_x", "02_y"], ["01_x"]):
        with pytest.raises(OutError, match="was not written by mtg_rulekit.export"):
            check_out(out, stems, cache, tmp_path / "notebooks")
    (out / "cards.html").unlink()
    for mine in ("the teacher rewrote it", "<!DOCTYPE html>\n<html>\n<head><title>Mine"):
        (out / "01_x.html").write_text(mine)  # a recorded name, but not what the build wrote
        with pytest.raises(OutError, match="01_x.html was not written by mtg_rulekit.export"):
            check_out(out, ["01_x"], cache, tmp_path / "notebooks")


def test_malformed_site_pages_in_the_cache_make_it_untrusted(tmp_path: Path) -> None:
    out, cache = _recorded(tmp_path)
    data = json.loads(cache.file.read_text())
    good = data["pages"]["index.html"]
    for bad in ({"../x.html": good}, {"index.html": {**good, "sha256": "nope"}},
                {"index.html": {**good, "head": None}}, {"index.html": "0" * 64}, ["index.html"]):
        cache.file.write_text(json.dumps({**data, "pages": bad}))
        assert not Cache.load(cache.folder, out).trusted


# ---------------------------------------------------------------- one build at a time

_HOLD = """
import sys, time
from pathlib import Path
from mtg_rulekit.export.ownership import BuildLock
lock = BuildLock(Path(sys.argv[1]), Path(sys.argv[2]))
lock.acquire()
print("held", flush=True)
time.sleep(60)
"""


def _holder(cache: Path, out: Path) -> subprocess.Popen[str]:
    proc = subprocess.Popen([sys.executable, "-c", _HOLD, str(cache), str(out)],
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
    return proc


def test_a_second_build_refuses_while_the_first_lives_and_takes_over_a_dead_ones_lock(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cache, out = tmp_path / "cache", tmp_path / "site"
    holder = _holder(cache, out)
    try:
        with pytest.raises(OutError, match=rf"being built by another build \(pid {holder.pid};"):
            build([], out, widgets="cdn", sandbox="off", index=False, cache_dir=cache,
                  echo=lambda _line: None)
        assert not out.exists()  # nothing was written
        nbs = tmp_path / "nbs"
        nbs.mkdir()
        code = main(["--notebooks", str(nbs), "--out", str(out), "--cache", str(cache)])
        assert code == 2
        assert f"pid {holder.pid}" in capsys.readouterr().err
    finally:
        holder.kill()
        holder.wait()
    # the holder died by SIGKILL: its pid is still in the file, its lock is gone
    assert (cache / "build.lock").read_text().strip() == str(holder.pid)
    report = build([], out, widgets="cdn", sandbox="off", index=False, cache_dir=cache,
                   echo=lambda _line: None)
    assert report.ok
    assert (cache / "build.lock").read_text() == ""  # released


def test_a_lock_file_naming_a_dead_pid_is_taken_over(tmp_path: Path) -> None:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()  # a pid that no longer runs
    (tmp_path / "build.lock").write_text(f"{proc.pid}\n")
    lock = BuildLock(tmp_path, tmp_path / "site")
    lock.acquire()
    try:
        assert (tmp_path / "build.lock").read_text() == f"{os.getpid()}\n"
        with pytest.raises(OutError):  # and it is held: a second taker refuses
            BuildLock(tmp_path, tmp_path / "site").acquire()
    finally:
        lock.release()


# ---------------------------------------------------------------- time limits

def test_a_timed_out_cell_is_named_with_its_limit() -> None:
    from nbclient.exceptions import CellTimeoutError

    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("import time"),
                                         nbformat.v4.new_code_cell("while True:\n    pass")])
    exc = CellTimeoutError.error_from_timeout_and_cell("Cell execution timed out", 42,
                                                       nb.cells[1])
    message = _describe(exc, "notebooks/09_loop.ipynb", nb, 1, 42)
    assert message.startswith("notebooks/09_loop.ipynb: cell 2 (`while True:`): "
                              "did not finish within 42 s")
    assert "--timeout" in message and "---" not in message and "CellTimeoutError" not in message


def test_a_long_cell_says_it_is_still_running() -> None:
    said: list[str] = []
    watch = CellWatch("09_loop", 0.2, 600, said.append)
    watch.start(3, "\nwhile True:\n    pass")
    time.sleep(0.75)
    watch.stop()
    seen = len(said)
    time.sleep(0.4)
    watch.close()
    assert seen >= 2 and len(said) == seen  # every 0.2 s while it ran, then nothing
    assert re.fullmatch(r"lesson 09_loop: cell 4 \(`while True:`\) still running "
                        r"\(0 s of 600 s\)", said[0])


@pytest.mark.parametrize("value", ["0", "-5", "soon", "nan", "inf"])
def test_timeout_must_be_a_positive_number(value: str, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--notebooks", str(tmp_path), "--out", str(tmp_path / "site"),
              "--timeout", value])
    assert exit_.value.code == 2
    assert "--timeout" in capsys.readouterr().err


# ---------------------------------------------------------------- end to end (kernels)

def _notebook(folder: Path, stem: str, *code: str) -> Path:
    return write_notebook(folder, stem, stem, *code)


@pytest.mark.notebook
@pytest.mark.slow
def test_an_endless_cell_fails_by_name_after_its_timeout(tmp_path: Path,
                                                         capfd: pytest.CaptureFixture[str]) -> None:
    nbs = tmp_path / "nbs"
    _notebook(nbs, "09_loop", "import time", "while True:\n    time.sleep(0.05)")
    report = build(nbs, tmp_path / "site", jobs=1, widgets="cdn", sandbox="off", index=False,
                   cache_dir=tmp_path / "cache", timeout=3, progress=1,
                   echo=lambda _line: None)
    assert [f.error for f in report.failures] == [
        "%s: cell 3 (`while True:`): did not finish within 3 s (the limit per cell; raise it "
        "with --timeout SECONDS)" % (nbs / "09_loop.ipynb")]
    err = capfd.readouterr().err
    assert re.search(r"lesson 09_loop: cell 3 \(`while True:`\) still running \([12] s of 3 s\)",
                     err), err


def _descendants(pid: int) -> set[int]:
    found, todo = set(), [pid]
    while todo:
        for child in child_pids(todo.pop()):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.notebook
@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/stat").is_file(), reason="needs /proc (Linux)")
def test_kill_9_of_the_build_takes_its_workers_and_kernels_with_it(tmp_path: Path) -> None:
    """While a build runs a cell, a second build into its --out refuses; `kill -9` of the
    first ends its worker and kernel within seconds; the next build takes the lock over."""
    nbs, out, cache = tmp_path / "nbs", tmp_path / "site", tmp_path / "cache"
    flag = tmp_path / "running"
    _notebook(nbs, "01_wait", "import pathlib, time\n"
              f"pathlib.Path({str(flag)!r}).write_text('yes')\n"
              f"while pathlib.Path({str(flag)!r}).exists():\n    time.sleep(0.1)")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    first = subprocess.Popen([sys.executable, "-m", "mtg_rulekit.export", "--notebooks", str(nbs),
                              "--out", str(out), "--cache", str(cache), "--widgets", "cdn",
                              "--sandbox", "off", "-j", "1"], env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    spawned: set[int] = set()
    try:
        deadline = time.monotonic() + 90
        while not flag.exists():  # the kernel is running the cell
            assert first.poll() is None and time.monotonic() < deadline
            time.sleep(0.2)
        spawned = _descendants(first.pid)
        assert len(spawned) >= 2  # at least a worker and its kernel
        with pytest.raises(OutError, match=rf"another build \(pid {first.pid};"):
            build(nbs, out, widgets="cdn", sandbox="off", cache_dir=cache,
                  echo=lambda _line: None)
        os.kill(first.pid, signal.SIGKILL)
        first.wait()
        deadline = time.monotonic() + 15
        while any(_alive(p) for p in spawned) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not [p for p in spawned if _alive(p)]
    finally:
        for pid in spawned | {first.pid}:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
        first.wait()
    flag.unlink()
    _notebook(nbs, "01_wait", "print('done')")  # the next build: its lock taken over, it builds
    report = build(nbs, out, jobs=1, widgets="cdn", sandbox="off", cache_dir=cache,
                   echo=lambda _line: None)
    assert report.ok and [Path(r.page).name for r in report.built] == ["01_wait.html"]
    assert not list(out.glob(f".*{TMP_SUFFIX}"))
    # a page cut short and an emptied index (as an old build's kill left them) are rebuilt
    page = out / "01_wait.html"
    page.write_bytes(page.read_bytes()[:100])
    (out / "index.html").write_text("")
    again = build(nbs, out, jobs=1, widgets="cdn", sandbox="off", cache_dir=cache,
                  echo=lambda _line: None)
    assert again.ok and [Path(r.page).name for r in again.built] == ["01_wait.html"]
    assert is_ours(page) and is_ours(out / "index.html") and "done" in page.read_text("utf-8")


_HOLD_OUT = """
import sys, time
from pathlib import Path
from mtg_rulekit.export.ownership import BuildLock
lock = BuildLock.for_out(Path(sys.argv[1]))
lock.acquire()
print("held", flush=True)
time.sleep(60)
"""


@pytest.mark.slow  # three builds of an empty site (each writes its index, cards and quiz)
def test_two_builds_into_one_out_with_different_caches_refuse_each_other(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The lock lives in --out too: a second build with its own --cache still refuses."""
    from mtg_rulekit.export.ownership import OUT_LOCK

    out = tmp_path / "site"
    build([], out, widgets="cdn", sandbox="off", cache_dir=tmp_path / "a",
          echo=lambda _line: None)  # its index.html is rulekit's to any cache
    assert not (out / OUT_LOCK).exists()  # a finished build leaves no lock in the site
    holder = subprocess.Popen([sys.executable, "-c", _HOLD_OUT, str(out)],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        before = sorted(p.name for p in out.iterdir())
        with pytest.raises(OutError, match=rf"being built by another build \(pid {holder.pid}; "
                                           rf"lock {out}/{OUT_LOCK}\)"):
            build([], out, widgets="cdn", sandbox="off", index=False,
                  cache_dir=tmp_path / "b", echo=lambda _line: None)
        assert sorted(p.name for p in out.iterdir()) == before
        nbs = tmp_path / "nbs"
        nbs.mkdir()
        assert main(["--notebooks", str(nbs), "--out", str(out), "--cache",
                     str(tmp_path / "c")]) == 2
        assert f"pid {holder.pid}" in capsys.readouterr().err
    finally:
        holder.kill()
        holder.wait()
    # killed: its lock file stays, naming it, and is taken over, then deleted
    assert (out / OUT_LOCK).read_text().strip() == str(holder.pid)
    report = build([], out, widgets="cdn", sandbox="off", index=False,
                   cache_dir=tmp_path / "b", echo=lambda _line: None)
    assert report.ok and not (out / OUT_LOCK).exists()


def test_the_out_lock_never_follows_a_symlink(tmp_path: Path) -> None:
    from mtg_rulekit.export.ownership import OUT_LOCK

    out, target = tmp_path / "site", tmp_path / "precious.txt"
    out.mkdir()
    target.write_text("keep me")
    (out / OUT_LOCK).symlink_to(target)
    with pytest.raises(OSError):
        BuildLock.for_out(out).acquire()
    assert target.read_text() == "keep me"
