"""The engine installs and runs on the standard library alone: `pip install mtg-rulekit`
pulls in nothing, and with no third-party package importable (`python -S`: no site-packages)
the engine plays every shipped scenario, prints its log as text, and drives the sandbox model
(what the in-browser sandbox runs)."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SCRIPT = """
import sys
sys.path.insert(0, {root!r})
from mtg_rulekit import Game
from mtg_rulekit.scenario import load, play, shipped
from mtg_rulekit.scenario.text import render
from mtg_rulekit.sandbox import SandboxModel

for path in shipped():
    scenario = load(path)
    results = play(scenario)
    assert all(c.ok for r in results for c in r.checks), path
    text = render(scenario, results)
    print(path.name, len(results), "steps;", len(text.splitlines()), "lines of text")
model = SandboxModel(Game())
forest = model.game.add("Forest")
assert model.click("tap", {{"permanent": forest.id}}).ok
print(model.click("tap", {{"permanent": forest.id}}).text)
heavy = sorted({{m.split(".")[0] for m in sys.modules}} & {{"graphviz", "pandas", "jsonschema",
               "ipywidgets", "numpy", "nbformat", "jinja2", "IPython"}})
assert not heavy, heavy
"""


def test_the_engine_declares_no_dependencies():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    assert project["dependencies"] == []
    assert {"authoring", "diagrams", "notebook", "export", "test"} <= set(
        project["optional-dependencies"])


def test_the_engine_plays_every_shipped_scenario_with_no_third_party_package(tmp_path):
    run = subprocess.run([sys.executable, "-S", "-c", SCRIPT.format(root=str(ROOT))],
                         capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.count(" steps;") >= 20
    assert "CR 107.5" in run.stdout  # the second tap is refused, citing the rule


def test_the_cli_prints_a_walkthrough_with_no_third_party_package(tmp_path):
    scenario = ROOT / "mtg_rulekit" / "scenarios" / "r07_paying_tap.toml"
    code = (f"import sys; sys.path.insert(0, {str(ROOT)!r}); from mtg_rulekit.cli import main; "
            f"sys.exit(main(['run', {str(scenario)!r}]))")
    run = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True,
                         cwd=tmp_path, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "expectation(s) hold" in run.stdout


FLOW_SCRIPT = """
import sys
sys.path.insert(0, {root!r})
from mtg_rulekit.display.flow import scenario_diagram
from mtg_rulekit.display.svg import render_svg
from mtg_rulekit.scenario import load, play, shipped

sizes = []
for path in shipped():
    graph = scenario_diagram(load(path))
    assert graph.source.startswith("digraph rulekit {{") and graph.titles, path
    sizes.append(len(graph.source))
svg = render_svg(graph)  # Graphviz's dot, run as a program: no Python package needed
assert "<svg" in svg and "<title>Legend: what the shapes and colors mean</title>" in svg
heavy = sorted({{m.split(".")[0] for m in sys.modules}} & {{"graphviz", "pandas", "ipywidgets"}})
assert not heavy, heavy
print(len(sizes), "diagrams,", sum(sizes), "bytes of DOT")
"""


def test_the_flow_model_draws_every_shipped_scenario_with_no_third_party_package(tmp_path):
    """`mtg_rulekit.display.flow` writes DOT with the standard library alone (the
    browser sandbox draws its diagram from it); SVG needs only Graphviz's `dot` program."""
    run = subprocess.run([sys.executable, "-S", "-c", FLOW_SCRIPT.format(root=str(ROOT))],
                         capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.startswith(f"{len(list((ROOT / 'mtg_rulekit' / 'scenarios').glob('*.toml')))} diagrams")
