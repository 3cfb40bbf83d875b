"""Authoring benchmarks: p10 (a scenario as a page with `python -m mtg_rulekit preview`, as a teacher
runs it: a new Python process, from its start to the page written)."""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def longest_scenario() -> Path:
    """The shipped scenario with the most steps (then by name): the preview that takes longest."""
    import tomllib

    from mtg_rulekit.scenario import shipped

    def steps(path: Path) -> int:
        return len(tomllib.loads(path.read_text("utf-8")).get("step", []))

    return max(shipped(), key=lambda p: (steps(p), p.name))


def preview_s(runs: int = 5, scenario: Path | None = None) -> dict[str, object]:
    """p10: `python -m mtg_rulekit preview FILE --out DIR` for the longest shipped scenario, wall
    seconds from the process's start to its exit (median of `runs`), with the CPU seconds of
    the process and its children (Graphviz) beside them: what the load of others leaves out."""
    path = scenario or longest_scenario()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    wall, cpu = [], []
    with tempfile.TemporaryDirectory(prefix="rulekit-preview-") as out:
        for _ in range(runs):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            done = subprocess.run([sys.executable, "-m", "mtg_rulekit", "preview", str(path),
                                   "--out", out], cwd=ROOT, env=env, capture_output=True,
                                  text=True, timeout=300)
            wall.append(time.perf_counter() - start)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
            if done.returncode != 0:
                raise RuntimeError(f"preview failed: {done.stderr.strip()}")
        size = (Path(out) / f"{path.stem}.html").stat().st_size
    return {"s": statistics.median(wall), "wall_s": wall, "cpu_s": cpu,
            "scenario": path.name, "page_kb": round(size / 1024), "load_average": os.getloadavg()}
