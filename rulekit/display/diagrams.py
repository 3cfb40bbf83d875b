"""`diagrams/`: one event and trigger flow diagram per ruling R01-R19, from the shipped scenarios.

`python -m rulekit diagrams --out diagrams` (and `make diagrams`) call `build_all`. For each ruling
it picks the scenario of that ruling by the one rule every view uses
(`rulekit.scenario.by_ruling`) and writes `R04.dot` and `R04.svg`.
Same scenarios, same Graphviz version: same bytes, every run.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Callable, Iterable
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from rulekit.display.flow import scenario_diagram
from rulekit.display.svg import dot_version

RULINGS: tuple[str, ...] = tuple(f"R{i:02d}" for i in range(1, 20))
SCENARIO_DIR = Path(__file__).resolve().parent.parent / "scenarios"

__all__ = ["RULINGS", "build_all", "choose", "require_dot", "shipped_scenarios"]


def shipped_scenarios() -> list[Path]:
    """The scenario files shipped in `rulekit/scenarios/`, by name."""
    return sorted(SCENARIO_DIR.glob("*.toml"))


def choose(paths: Iterable[Path]) -> dict[str, Path]:
    """For each ruling, the scenario file that draws it: `rulekit.scenario.by_ruling`, the one
    rule every view uses."""
    from rulekit.scenario import by_ruling

    return by_ruling(list(paths))


@cache
def _topics() -> dict[str, str]:
    text = resources.files("rulekit").joinpath("data", "rulings.toml").read_text("utf-8")
    return {rid: str(r.get("topic", "")) for rid, r in tomllib.loads(text).get("ruling", {}).items()}


def require_dot() -> str:
    """The installed Graphviz version (`dot -V`); GraphvizMissing with how to install it."""
    return dot_version()


def _scenario_paths(scenarios: Iterable[str | os.PathLike[str]] | str | os.PathLike[str] | None
                    ) -> list[Path]:
    if scenarios is None:
        return shipped_scenarios()
    if isinstance(scenarios, (str, os.PathLike)):
        scenarios = [scenarios]
    out: list[Path] = []
    for item in scenarios:
        p = Path(item)
        out += sorted(p.glob("*.toml")) if p.is_dir() else [p]
    return out


def build_all(out_dir: str | os.PathLike[str], *,
              scenarios: Iterable[str | os.PathLike[str]] | str | os.PathLike[str] | None = None,
              echo: Callable[[str], object] = print) -> list[Path]:
    """Write `Rxx.dot` and `Rxx.svg` into `out_dir` for every ruling a scenario is tagged with
    (the shipped scenarios, or the files / directories in `scenarios`); returns the paths
    written. Prints a progress line per ruling. Raises GraphvizMissing (before writing
    anything) when `dot` is not installed, ScenarioError when a scenario can't be played."""
    from rulekit.scenario import load

    version = require_dot()
    out = Path(out_dir)
    chosen = choose(_scenario_paths(scenarios))
    echo(f"Drawing {len(chosen)} ruling diagram(s) into {out}/ with Graphviz {version}")
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    loaded: dict[Path, Any] = {}
    for rid in RULINGS:
        path = chosen.get(rid)
        if path is None:
            echo(f"  {rid}: no shipped scenario is tagged with this ruling yet - skipped")
            continue
        scenario = loaded.get(path) or load(path)
        loaded[path] = scenario
        topic = _topics().get(rid, "")
        title = f"{rid}: {topic}\n{scenario.title}" if topic else f"{rid}: {scenario.title}"
        graph = scenario_diagram(scenario, title=title)
        dot_path, svg_path = out / f"{rid}.dot", out / f"{rid}.svg"
        dot_path.write_bytes(graph.source.encode("utf-8"))
        svg_path.write_bytes(graph.svg().encode("utf-8"))
        written += [dot_path, svg_path]
        echo(f"  {rid}: {path.name} -> {dot_path.name}, {svg_path.name} "
             f"({graph.node_count} nodes)")
    echo(f"Wrote {len(written)} file(s) for {len(written) // 2} ruling(s).")
    return written
