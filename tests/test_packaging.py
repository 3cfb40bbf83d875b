"""The engine installs and runs on the standard library alone (issue 15): `pip install rulekit`
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
from rulekit import Game
from rulekit.scenario import load, shipped
from rulekit.scenario.text import render
from rulekit.sandbox import SandboxModel

for path in shipped():
    scenario = load(path)
    results = scenario.play()
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
    scenario = ROOT / "rulekit" / "scenarios" / "r07_paying_tap.toml"
    code = (f"import sys; sys.path.insert(0, {str(ROOT)!r}); from rulekit.cli import main; "
            f"sys.exit(main(['run', {str(scenario)!r}]))")
    run = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True,
                         cwd=tmp_path, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "expectation(s) hold" in run.stdout
