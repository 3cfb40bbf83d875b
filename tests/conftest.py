"""Shared pytest fixtures for rulekit, and the tiers of the suite (markers declared in
pyproject.toml).

The tiers: `browser` (drives Chromium), `notebook` (executes notebooks or starts kernels), `lab`
(starts a JupyterLab, Notebook 7 or JupyterHub server), `slow` (over ~2 s on the 2-core VM for
another reason). `make check` runs the tests that are none of these; `make test` runs them all,
in parallel. A test that uses such a fixture or starts such a program without its marker fails
the suite (`pytest_collection_modifyitems` and `_launched`, below), so the fast tier stays fast.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.helpers import unavailable

ROOT = Path(__file__).resolve().parent.parent

# the suite exists to run rulekit, as the CLI and the lesson build do: jsonschema's "iri"
# format (unused by the scenario schema) would build a parser grammar in every worker
from mtg_rulekit.scenario.model import skip_slow_optional_imports  # noqa: E402

skip_slow_optional_imports()
TIERS = ("browser", "notebook", "lab")
SLOW_S = 2.0  # an unmarked test slower than this is listed at the end of the run


# ------------------------------------------------------------------ tiers, checked
# fixtures that put a test in a tier (directly or through another fixture)
TIER_FIXTURES = {
    "chromium_path": "browser", "browser": "browser",
    "lesson_site": "notebook", "live_site": "notebook", "executed": "notebook",
    "venv_kernel": "notebook", "built": "notebook",
    "lab_server": "lab", "jupyterlab": "lab",
}


def _tier_of_command(argv: object) -> str | None:
    """The tier of a program a test starts, from its command line (None: no tier's program)."""
    words = [os.fspath(a) for a in argv] if isinstance(argv, list | tuple) else [str(argv)]
    text = " ".join(words)
    modules = {words[i + 1] for i, w in enumerate(words[:-1]) if w == "-m"}
    if "chromium" in text or "playwright" in text:
        return "browser"
    if modules & {"mtg_rulekit.lab", "jupyterlab", "notebook", "jupyterhub", "jupyter_server"} \
            or any(Path(w).name in {"jupyter-lab", "jupyter-notebook", "jupyterhub",
                                    "configurable-http-proxy"} for w in words):
        return "lab"
    if "ipykernel_launcher" in text or modules & {"ipykernel", "mtg_rulekit.export", "nbconvert"}:
        return "notebook"
    return None


_current: list[pytest.Item] = []  # the test being set up or run
_USED = pytest.StashKey[set]()


def _note(tier: str | None) -> None:
    if tier and _current:
        _current[-1].stash.setdefault(_USED, set()).add(tier)


def _audit(event: str, args: tuple) -> None:
    # every subprocess (subprocess.run, asyncio's, jupyter_client's) raises this audit event
    if event == "subprocess.Popen" and _current:
        _note(_tier_of_command(args[1]))


sys.addaudithook(_audit)


def _watch_the_build() -> None:
    """The lesson build runs its kernels in worker processes started by multiprocessing, which
    raises no audit event: note a call of `mtg_rulekit.export.build` itself."""
    import functools

    import mtg_rulekit.export as export

    build = export.build

    @functools.wraps(build)
    def watched(*args, **kwargs):
        if _has_notebooks(args[0] if args else kwargs.get("notebooks")):
            _note("notebook")
        return build(*args, **kwargs)

    def _has_notebooks(notebooks: object) -> bool:  # a build of none starts no kernel
        if isinstance(notebooks, list | tuple):
            return bool(notebooks)
        if isinstance(notebooks, str | os.PathLike) and Path(notebooks).is_dir():
            return any(Path(notebooks).glob("*.ipynb"))
        return True

    export.build = watched


_watch_the_build()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Refuse to run when a test uses a tier's fixture without the tier's marker."""
    problems = []
    for item in items:
        marks = {m.name for m in item.iter_markers()}
        for name in getattr(item, "fixturenames", ()):
            tier = TIER_FIXTURES.get(name)
            if tier and tier not in marks:
                problems.append(f"{item.nodeid}: uses the fixture {name!r} but is not marked "
                                f"@pytest.mark.{tier}")
    if problems:
        raise pytest.UsageError("tests outside their tier (see tests/conftest.py):\n  "
                                + "\n  ".join(sorted(set(problems))))
    # the longest first (JupyterLab, then the other browser and notebook tests), so that under
    # pytest-xdist no worker is left with a long test at the end while the other waits; a stable
    # sort, so each module's tests stay together and in order
    items.sort(key=lambda item: 0 if item.get_closest_marker("lab") else
               1 if item.get_closest_marker("browser") or item.get_closest_marker("notebook")
               else 2)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item):
    _current.append(item)
    try:
        return (yield)
    finally:
        _current.pop()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item):
    _current.append(item)
    start = time.perf_counter()
    try:
        result = yield
    finally:
        _current.pop()
        item.stash[_SECONDS] = time.perf_counter() - start
    _check_tiers(item)
    return result


_SECONDS = pytest.StashKey[float]()


def _check_tiers(item: pytest.Item) -> None:
    marks = {m.name for m in item.iter_markers()}
    missing = sorted(item.stash.get(_USED, set()) - marks)
    if missing:
        pytest.fail(f"this test starts what the {', '.join(missing)} tier starts (a browser, a "
                    f"kernel or a server) but is not marked {', '.join(missing)}: mark it "
                    "(see tests/conftest.py)", pytrace=False)


def pytest_terminal_summary(terminalreporter) -> None:
    """List unmarked tests over SLOW_S: candidates for the `slow` marker (a hint, never a
    failure: timings on a shared VM are not assertions)."""
    slow = []
    for reports in terminalreporter.stats.values():
        for report in reports:
            if getattr(report, "when", None) == "call" and report.duration > SLOW_S \
                    and not set(report.keywords) & {*TIERS, "slow"}:
                slow.append((report.duration, report.nodeid))
    if slow:
        terminalreporter.section("unmarked tests over 2 s (mark them slow?)")
        for seconds, nodeid in sorted(slow, reverse=True)[:20]:
            terminalreporter.write_line(f"{seconds:6.1f} s  {nodeid}")


# ------------------------------------------------------------------ fixtures
@pytest.fixture
def dot() -> None:
    """Graphviz's `dot` is installed (see `unavailable`)."""
    if shutil.which("dot") is None:
        unavailable("Graphviz's dot is not installed (sudo apt-get install graphviz)")


@pytest.fixture(scope="session")
def chromium_path() -> str:
    """Path of the Chromium that Playwright drives (never a downloaded browser)."""
    path = os.environ.get("RULEKIT_CHROMIUM", "/usr/bin/chromium")
    if Path(path).is_file() and os.access(path, os.X_OK):
        return path
    unavailable(f"Chromium not found at {path} (install it: sudo apt-get install chromium)")


@pytest.fixture(scope="session")
def browser(chromium_path: str):
    """One headless Chromium (Playwright, Debian's binary) for the whole session (per worker
    under pytest-xdist): Playwright's sync API allows one running instance per thread, so every
    browser test of a process shares it."""
    from mtg_rulekit.export.browser import chromium

    with chromium(chromium_path) as b:
        yield b


@contextmanager
def _exclusive(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on `path` (the pytest-xdist workers take turns)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


@pytest.fixture(scope="session")
def venv_kernel(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A "python3" kernelspec that runs *this* Python (the venv's), found first.

    The venv's own spec (`sys.prefix/share/jupyter/kernels/python3`, installed with ipykernel)
    says `python`, which jupyter_client maps to `sys.executable`; but a user-level spec of the
    same name (`~/.local/share/jupyter/kernels/python3`, from another Python) would be found
    before it. A spec written for this interpreter and put first on JUPYTER_PATH can't be."""
    from ipykernel.kernelspec import install
    from jupyter_client.kernelspec import KernelSpecManager

    prefix = tmp_path_factory.mktemp("kernelspec")
    install(prefix=str(prefix), kernel_name="python3")
    old = os.environ.get("JUPYTER_PATH")
    os.environ["JUPYTER_PATH"] = os.pathsep.join(
        [str(prefix / "share" / "jupyter"), *([old] if old else [])])
    spec = KernelSpecManager().get_kernel_spec("python3")
    assert spec.argv[0] == sys.executable, spec.argv
    yield spec.argv[0]
    if old is None:
        os.environ.pop("JUPYTER_PATH", None)
    else:
        os.environ["JUPYTER_PATH"] = old


@pytest.fixture(scope="session")
def lesson_site(venv_kernel: str):
    """(site folder, build report): the real lessons, built (or found fresh) once per session
    on this virtualenv's kernel (`venv_kernel`) with the lesson build's cache (site/, gitignored; RULEKIT_TEST_SITE overrides it;
    RULEKIT_TEST_NOTEBOOKS points at another folder of notebooks). Under pytest-xdist the first
    worker builds it and the others, waiting on a lock, find it fresh in the cache."""
    from mtg_rulekit.export import build, lesson_paths

    notebooks = Path(os.environ.get("RULEKIT_TEST_NOTEBOOKS", ROOT / "notebooks"))
    assert notebooks.is_dir() and lesson_paths(notebooks), f"no lesson notebooks in {notebooks}"
    site = Path(os.environ.get("RULEKIT_TEST_SITE", ROOT / "site"))
    with _exclusive(ROOT / "build" / "test-site.lock"):
        report = build(notebooks, site)
    if not report.offline:
        unavailable("the widget manager could not be fetched with npm, so the pages load it "
                    "from the CDN and can't be tested offline: " + report.widgets_note)
    return site, report


from hypothesis import settings  # noqa: E402

# `ci` under CI (make test there), `dev` otherwise; `make check` picks `check` on its command
# line (--hypothesis-profile=check): a bounded run that keeps the fast tier under a minute
settings.register_profile("ci", max_examples=1000, derandomize=True)
settings.register_profile("dev", max_examples=150)
settings.register_profile("check", max_examples=40, derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") else "dev")
