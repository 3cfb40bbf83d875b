"""The live sandbox of an exported lesson page, Python side: the page script (running this in
Pyodide) sends JSON in and renders the JSON that comes back. Everything it shows comes from
`rulekit.sandbox.SandboxModel` (fields, controls, what a click does) and
`rulekit.display.sandbox_view` (messages, tables, the diagram's DOT), as in JupyterLab.

>>> import json
>>> from rulekit import Game
>>> game = Game(["Alice", "Bob"])
>>> forest = game.add("Forest")
>>> view = json.loads(start(json.dumps(SandboxModel(game).position())))
>>> [heading for heading, _ in view["groups"]][:2]
['Mana and abilities', 'Spells']
>>> json.loads(click(view["id"], "tap", json.dumps({"permanent": forest.id})))["message"][:47]
"<div class='rk-done' role='status'><b>Done:</b>"
"""

from __future__ import annotations

import json
from typing import Any

from rulekit.display.sandbox_view import diagram, message_html, tables_html
from rulekit.sandbox import CONTROLS, GROUPS, SandboxModel

__all__ = ["click", "fields", "start", "state"]

_models: list[SandboxModel] = []  # one per sandbox on the page, by number


def _fields(model: SandboxModel, values: dict[str, Any]) -> dict[str, Any]:
    return {k: f.to_json() for k, f in model.fields(values).items()}


def _view(model: SandboxModel, values: dict[str, Any], *, board: bool = True
          ) -> dict[str, Any]:
    out: dict[str, Any] = {"fields": _fields(model, values)}
    if model.last is not None:
        out["message"] = message_html(model.last)
        out["outcome"] = model.last.to_json()
    if board:
        graph, what = diagram(model)
        out["tables"] = tables_html(model.tables())
        out["dot"] = graph.source
        out["what"] = what
    return out


def start(position: str) -> str:
    """Build a sandbox on `position` (`SandboxModel.position()` as JSON); the first view with
    the sandbox's number (`id`, for the other calls) and the layout: `groups` (headings and
    names, in order) and `controls`."""
    _models.append(SandboxModel.from_position(json.loads(position)))
    view = _view(_models[-1], {})
    view["id"] = len(_models) - 1
    view["groups"] = [[heading, list(names)] for heading, names in GROUPS]
    view["controls"] = {name: {"label": c.label, "help": c.help, "style": c.style}
                        for name, c in CONTROLS.items()}
    return json.dumps(view)


def click(sid: int, name: str, values: str) -> str:
    """Run sandbox `sid`'s control `name` with the inputs' `values` (JSON); the new view (the
    board and the diagram only when the click changed the game)."""
    parsed = json.loads(values)
    outcome = _models[sid].click(name, parsed)
    return json.dumps(_view(_models[sid], parsed, board=outcome.ok))


def fields(sid: int, values: str) -> str:
    """The inputs' options for `values` (the ability list follows the chosen permanent)."""
    return json.dumps(_fields(_models[sid], json.loads(values)))


def state(sid: int, values: str) -> str:
    """`SandboxModel.to_json(values)`: what the kernel's model gives for the same clicks."""
    return json.dumps(_models[sid].to_json(json.loads(values)))
