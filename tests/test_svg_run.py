"""How `mtg_rulekit.display.svg` runs Graphviz: a `dot` that is there but can't be run (no
processes, as in Pyodide; no permission) is a missing Graphviz, said in plain words, never an
OSError from deep inside a diagram."""

from __future__ import annotations

import pytest

from mtg_rulekit.display import svg


def test_a_dot_that_cant_be_run_is_graphviz_missing(tmp_path, monkeypatch):
    unrunnable = tmp_path / "dot"
    unrunnable.write_text("not a program", "utf-8")
    unrunnable.chmod(0o644)
    monkeypatch.setattr(svg, "DOT", str(unrunnable))
    with pytest.raises(svg.GraphvizMissing, match="can't be run here"):
        svg.run_dot("digraph { a -> b }")


def test_outside_pyodide_viz_js_is_not_loaded():
    """`_viz` needs Pyodide's API (a JupyterLite kernel): in CPython it says so."""
    with pytest.raises(svg.GraphvizMissing, match="Viz.js could not be loaded"):
        svg._viz()
