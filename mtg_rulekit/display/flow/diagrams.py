"""`diagrams/`: one event and trigger flow diagram per ruling R01-R19, from the shipped scenarios.

`python -m mtg_rulekit diagrams --out diagrams` (and `make diagrams`) call `build_all`. For each ruling
it picks the scenario of that ruling by the one rule every view uses
(`mtg_rulekit.scenario.by_ruling`) and writes `R04.dot` and `R04.svg`.
Same scenarios, same Graphviz version: same bytes, every run.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from mtg_rulekit.display.flow import scenario_diagram
from mtg_rulekit.display.svg import PANE, dot_version, min_font, pane_fit, render_svg

__all__ = ["build_all", "step_view_fit"]


def _scenario_paths(scenarios: Iterable[str | os.PathLike[str]] | str | os.PathLike[str] | None
                    ) -> list[Path]:
    if scenarios is None:
        from mtg_rulekit.scenario import shipped

        return shipped()
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
    from mtg_rulekit.core.rulings import all_rulings
    from mtg_rulekit.scenario import by_ruling, load

    version = dot_version()
    out = Path(out_dir)
    chosen = by_ruling(_scenario_paths(scenarios))
    echo(f"Drawing {len(chosen)} ruling diagram(s) into {out}/ with Graphviz {version}")
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    loaded: dict[Path, Any] = {}
    for rid, ruling in all_rulings().items():
        path = chosen.get(rid)
        if path is None:
            echo(f"  {rid}: no shipped scenario is tagged with this ruling yet - skipped")
            continue
        scenario = loaded.get(path) or load(path)
        loaded[path] = scenario
        topic = ruling.topic
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


def step_view_fit(scenarios: Iterable[Any] | None = None, *,
                  pane: tuple[float, float] = PANE) -> dict[tuple[str, int], tuple[float, float]]:
    """For every step after the set-up of every scenario (the shipped ones by default): the
    share of what the step added that a `pane` (CSS px, at the page's one scale) shows at
    once in its step view (`flow.step_diagram`), and the smallest text size in it. The 95 %
    rule: a step fits when the share is at least 0.95 and the text at least 16 px."""
    from mtg_rulekit.display.flow import step_diagram
    from mtg_rulekit.scenario import load, shipped

    found: dict[tuple[str, int], tuple[float, float]] = {}
    for sc in (scenarios if scenarios is not None else [load(p) for p in shipped()]):
        name = Path(sc.path).stem if getattr(sc, "path", None) else sc.title
        for k in range(1, len(sc.steps) + 1):
            svg = render_svg(step_diagram(sc, k))
            found[(name, k)] = (pane_fit(svg, f"rk-s{k}", pane), min_font(svg, f"rk-s{k}"))
    return found
