"""Shared pytest fixtures for rulekit (markers are declared in pyproject.toml)."""

import os
import shutil
from pathlib import Path

import pytest


@pytest.fixture
def dot() -> None:
    """Graphviz's `dot` is installed: skips without it on a developer's machine; fails under
    CI, where .ci/run installs it."""
    if shutil.which("dot") is None:
        message = "Graphviz's dot is not installed (sudo apt-get install graphviz)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


@pytest.fixture(scope="session")
def chromium_path() -> str:
    """Path of the Chromium that Playwright drives (never a downloaded browser).

    Skips when Chromium is missing on a developer's machine; fails under CI, where
    .ci/run installs it.
    """
    path = os.environ.get("RULEKIT_CHROMIUM", "/usr/bin/chromium")
    if Path(path).is_file() and os.access(path, os.X_OK):
        return path
    message = f"Chromium not found at {path} (install it: sudo apt-get install chromium)"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="session")
def browser(chromium_path: str):
    """One headless Chromium (Playwright, Debian's binary) for the whole session: Playwright's
    sync API allows one running instance per thread, so every browser test shares it."""
    from rulekit.export.browser import chromium

    with chromium(chromium_path) as b:
        yield b


@pytest.fixture(scope="session")
def lesson_site():
    """(site folder, build report): the real lessons, built (or found fresh) once per session
    with the lesson build's cache (site/, gitignored; RULEKIT_TEST_SITE overrides it;
    RULEKIT_TEST_NOTEBOOKS points at another folder of notebooks)."""
    from rulekit.export import build, lesson_paths

    root = Path(__file__).resolve().parent.parent
    notebooks = Path(os.environ.get("RULEKIT_TEST_NOTEBOOKS", root / "notebooks"))
    assert notebooks.is_dir() and lesson_paths(notebooks), f"no lesson notebooks in {notebooks}"
    site = Path(os.environ.get("RULEKIT_TEST_SITE", root / "site"))
    report = build(notebooks, site)
    if not report.offline:
        message = ("the widget manager could not be fetched with npm, so the pages load it from "
                   "the CDN and can't be tested offline: " + report.widgets_note)
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return site, report


from hypothesis import settings  # noqa: E402

settings.register_profile("ci", max_examples=1000, derandomize=True)
settings.register_profile("dev", max_examples=150)
settings.load_profile("ci" if os.environ.get("CI") else "dev")
