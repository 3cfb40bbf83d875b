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

from rulekit.core.decisions import LARGEST
from rulekit.core.errors import RulesError, UsageError
from rulekit.display.sandbox_view import diagram, message_html, tables_html
from rulekit.sandbox import (
    CONTROLS,
    FIELDS,
    GROUPS,
    MENU_CONTROLS,
    MENU_VALUES,
    Outcome,
    SandboxModel,
)

__all__ = ["choices", "click", "fields", "start", "state"]

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


def _values(model: SandboxModel, raw: Any, *, offered: bool = True) -> dict[str, Any]:
    """The inputs' values as the page sent them (JSON), checked against the sandbox's fields:
    a choice must be one of its options (`offered`: the options of now; else any id or
    text, as for `state`, which is asked about values sent before the game moved on), several
    choices a list of them, a text a string, a number a whole number; else UsageError naming
    the input. Unknown names are dropped."""
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise UsageError("values", "expected the inputs as {name: value}")
    values = {k: v for k, v in raw.items() if k in FIELDS}
    for name in list(values):
        field = model.fields(values)[name]
        value = values[name]
        allowed = [v for _, v in field.options]

        def fits(v: Any, allowed: list[Any] = allowed) -> bool:
            if isinstance(v, bool):
                return False
            return v in allowed if offered else isinstance(v, int | str)

        if field.kind == "choice":
            if value is not None and not fits(value):
                raise UsageError(name, f"{_shown(value)} is not one of the choices offered")
        elif field.kind == "multi":
            if value is None:
                continue
            if not isinstance(value, list) or not all(fits(v) for v in value):
                raise UsageError(name, f"expected a list of the choices offered, got "
                                       f"{_shown(value)}")
        elif field.kind == "text":
            if value is not None and not isinstance(value, str):
                raise UsageError(name, f"expected text, got {_shown(value)}")
        elif field.kind == "number" and value not in (None, ""):
            if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit() \
                    and len(value.strip()) <= 6:
                value = values[name] = int(value)
            if isinstance(value, bool) or not isinstance(value, int) \
                    or not 0 <= value <= LARGEST:
                raise UsageError(name, f"expected a whole number, got {_shown(value)}")
    return values


def _shown(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _refused(err: Exception) -> str:
    """A click the page's JSON made meaningless, answered like any refusal."""
    outcome = Outcome("refused", str(err), None, err)
    return json.dumps({"message": message_html(outcome), "outcome": outcome.to_json()})


def _parse(text: Any, what: str) -> Any:
    if not isinstance(text, str):
        raise UsageError(what, "expected JSON text")
    try:
        return json.loads(text)
    except ValueError as err:  # json.JSONDecodeError, or a number too long to read
        raise UsageError(what, f"not JSON ({err})") from None


def _position(text: Any) -> dict[str, Any]:
    position = _parse(text, "position")
    if not isinstance(position, dict) or not isinstance(position.get("actions"), list) \
            or not all(isinstance(a, list) and len(a) == 2 and isinstance(a[0], str)
                       and isinstance(a[1], dict) for a in position["actions"]) \
            or "players" not in position or "life" not in position:
        raise UsageError("position", "expected {players, life, actions: [[name, arguments], "
                                     "...]} as SandboxModel.position() gives it")
    history = position.get("history", 3)
    if isinstance(history, bool) or not isinstance(history, int) or not 0 <= history <= 100:
        raise UsageError("position.history", "expected a whole number from 0 to 100")
    return position


def _model(sid: Any) -> SandboxModel:
    if isinstance(sid, bool) or not isinstance(sid, int) or not 0 <= sid < len(_models):
        raise UsageError("sandbox", f"there is no sandbox {_shown(sid)} on this page")
    return _models[sid]


def start(position: str) -> str:
    """Build a sandbox on `position` (`SandboxModel.position()` as JSON); the first view with
    the sandbox's number (`id`, for the other calls) and the layout: `groups` (headings and
    names, in order) and `controls`. A position that can't be built gives `{"error": why}`."""
    try:
        model = SandboxModel.from_position(_position(position))
    except (UsageError, RulesError) as err:
        return json.dumps({"error": f"the sandbox's position can't be built: {err}"})
    _models.append(model)
    view = _view(_models[-1], {})
    view["id"] = len(_models) - 1
    view["groups"] = [[heading, list(names)] for heading, names in GROUPS]
    view["controls"] = {name: {"label": c.label, "help": c.help, "style": c.style}
                        for name, c in CONTROLS.items()}
    return json.dumps(view)


def click(sid: int, name: str, values: str) -> str:
    """Run sandbox `sid`'s control `name` with the inputs' `values` (JSON); the new view (the
    board and the diagram only when the click changed the game). Values the page could not
    have sent are refused with a message, like a refused click."""
    try:
        model = _model(sid)
        if not isinstance(name, str) or (name not in CONTROLS and name not in MENU_CONTROLS):
            raise UsageError("control", f"no sandbox control is called {_shown(name)}")
        raw = _parse(values, "values")
        parsed = _values(model, raw)
        if name in MENU_CONTROLS and isinstance(raw, dict):  # checked by the click itself
            parsed.update({k: raw[k] for k in MENU_VALUES[name] if k in raw})
    except UsageError as err:
        return _refused(err)
    outcome = model.click(name, parsed)
    return json.dumps(_view(model, parsed, board=outcome.ok))


def fields(sid: int, values: str) -> str:
    """The inputs' options for `values` (the ability list follows the chosen permanent)."""
    try:
        model = _model(sid)
        return json.dumps(_fields(model, _values(model, _parse(values, "values"))))
    except UsageError as err:
        return _refused(err)


def state(sid: int, values: str) -> str:
    """`SandboxModel.to_json(values)`: what the kernel's model gives for the same clicks."""
    try:
        model = _model(sid)
        return json.dumps(model.to_json(_values(model, _parse(values, "values"),
                                                offered=False)))
    except UsageError as err:
        return _refused(err)


def choices(sid: int, name: str, values: str) -> str:
    """`SandboxModel.choices_for(name, values)`: the decisions that click makes, who makes
    each and why, and each answer's verdict (for a picker instead of the "choices" box)."""
    try:
        model = _model(sid)
        if not isinstance(name, str) or name not in CONTROLS:
            raise UsageError("control", f"no sandbox control is called {_shown(name)}")
        return json.dumps(model.choices_for(name, _values(model, _parse(values, "values"))))
    except UsageError as err:
        return _refused(err)
