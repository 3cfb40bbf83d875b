"""The suite's own figures for `make bench`: how long the pytest phase of `make check` (the fast
tier) and of `make test` (everything) take on this machine, run as the Makefile runs them."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# the Makefile's FAST expression and options (tests/test_benchmarks.py checks they agree)
FAST = "not browser and not notebook and not lab and not slow"
CHECK_ARGS = ["-m", FAST, "-n", "auto", "--hypothesis-profile=check"]
FULL_ARGS = ["-n", "auto", "--dist", "loadgroup"]


def pytest_seconds(args: list[str], *, extra: list[str] | None = None,
                   timeout: float = 3600) -> dict[str, object]:
    """Run `python -m pytest ARGS` in the checkout once: its wall time, exit code and closing
    line (a failing suite is reported, not hidden: its time is not a figure of a green suite)."""
    argv = [sys.executable, "-m", "pytest", *args, "-q", "-p", "no:cacheprovider",
            *(extra or [])]
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, "CI": os.environ.get("CI", "")},
                          stdin=subprocess.DEVNULL)
    seconds = time.perf_counter() - start
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    return {"s": round(seconds, 1), "exit": done.returncode,
            "summary": lines[-1] if lines else done.stderr[-300:]}


def suite_figures(*, full: bool = True) -> dict[str, object]:
    """suite_check_s and (unless `full` is False) suite_full_s, with what each run printed."""
    out: dict[str, object] = {"check": pytest_seconds(CHECK_ARGS)}
    if full:
        out["full"] = pytest_seconds(FULL_ARGS)
    return out
