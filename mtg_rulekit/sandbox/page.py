"""The live sandbox of an exported lesson page, Python side: its Pyodide back-end
(`window.rulekit.backends.sandbox`, in `mtg_rulekit/display/front/sandbox_backend.js`) sends JSON in
and hands the JSON that comes back to the sandbox module as its `state`, exactly as the kernel's
`Sandbox` widget does: both answer with `mtg_rulekit.sandbox.view.sandbox_state`. In the
page the diagram's DOT is drawn by Viz.js (the page's `rulekitRenderDot`), then given the same
titles as in a kernel.

>>> import json
>>> from mtg_rulekit import Game
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
import re
from itertools import accumulate
from typing import Any

from mtg_rulekit.core.errors import RulesError, UsageError
from mtg_rulekit.sandbox.challenges import attach
from mtg_rulekit.sandbox.model import CONTROLS, MENU_CONTROLS, Outcome, SandboxModel
from mtg_rulekit.sandbox.view import message_html, model_json, sandbox_state, with_symbols

__all__ = ["card_actions", "choices", "click", "fields", "search", "start", "state",
           "walkthrough", "warm"]

_models: list[tuple[SandboxModel, str]] = []  # (model, title): one per sandbox, by number


def _render(dot: str) -> str:
    """The DOT drawn by the page's Viz.js (`globalThis.rulekitRenderDot`); outside a page
    (CPython: tests, doctests) by Graphviz's `dot`, as in a kernel."""
    try:
        import js  # Pyodide's bridge to the page (no such module in CPython)
    except ImportError:
        from mtg_rulekit.display.svg import run_dot

        return run_dot(dot)
    return str(js.rulekitRenderDot(dot))


def _view(sid: int, values: dict[str, Any], *, board: bool = True) -> dict[str, Any]:
    model, title = _models[sid]
    out = sandbox_state(model, values, title=title, render=_render, board=board)
    out["id"] = sid
    out["outcome"] = out["last"]  # the page API's older name for it
    return out


def _shown(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _refused(err: Exception) -> str:
    """A click the page's JSON made meaningless, answered like any refusal."""
    outcome = Outcome("refused", str(err), None, err)
    return json.dumps({"message": message_html(outcome), "last": outcome.to_json(),
                       "outcome": outcome.to_json()})


MAX_JSON = 1_000_000
"""The longest JSON text the page sends (a position of 100 permanents is about 20,000)."""
MAX_DEPTH = 32
"""The deepest nesting of that JSON (a position nests 5 deep): checked before it is parsed,
since parsing a deeper value recurses, and in Pyodide too deep a recursion is fatal."""
_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"')
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")


def _depth(text: str) -> int:
    """How deep the arrays and objects of JSON `text` nest (brackets in strings left out)."""
    brackets = _NOT_BRACKETS.sub("", _STRINGS.sub("", text))
    return max(accumulate(1 if c in "[{" else -1 for c in brackets), default=0)


def _parse(text: Any, what: str) -> Any:
    if not isinstance(text, str):
        raise UsageError(what, "expected JSON text")
    if len(text) > MAX_JSON:
        raise UsageError(what, f"{len(text):,} characters of JSON; at most {MAX_JSON:,}")
    if _depth(text) > MAX_DEPTH:
        raise UsageError(what, f"nested more than {MAX_DEPTH} deep: not a value the page sends")
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as err:  # JSONDecodeError, a number too long to read
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
    return _models[sid][0]


def start(position: str) -> str:
    """Build a sandbox on `position` (`SandboxModel.position()` as JSON, with its `title`);
    its first `state` with the sandbox's number (`id`, for the other calls). A position that
    can't be built gives `{"error": why}`."""
    try:
        parsed = _position(position)
        model = attach(SandboxModel.from_position(parsed), parsed.get("challenges"))
    except (UsageError, RulesError) as err:
        return json.dumps({"error": f"the sandbox's position can't be built: {err}"})
    title = parsed.get("title")
    _models.append((model, title if isinstance(title, str) else "Sandbox"))
    return json.dumps(_view(len(_models) - 1, {}))


def click(sid: int, name: str, values: str) -> str:
    """Run sandbox `sid`'s control `name` with the inputs' `values` (JSON); the new state (the
    board's HTML and the diagram only when the click changed the game). Values the page could
    not have sent are refused with a message, like a refused click."""
    try:
        model = _model(sid)
        if not isinstance(name, str) or (name not in CONTROLS and name not in MENU_CONTROLS):
            raise UsageError("control", f"no sandbox control is called {_shown(name)}")
        parsed = model.values(_parse(values, "values"), control=name)
        outcome = model.click(name, parsed)
    except UsageError as err:
        return _refused(err)
    return json.dumps(_view(sid, parsed, board=outcome.ok))


def warm(sid: int) -> str:
    """Run what a first click runs (a legal card action, its words, the board, the tables
    and the diagram) once on a copy of sandbox `sid`'s board, so the student's first click is
    as quick as the next: the modules it needs are imported and its code warm. The sandbox
    itself is untouched. "{}" (or a refusal when there is no such sandbox)."""
    try:
        model = _model(sid)
    except UsageError as err:
        return _refused(err)
    position = model.position()
    if position is None:
        return "{}"
    copy = SandboxModel.from_position(position)
    entry = next((e for entries in copy.card_actions().values() for e in entries
                  if e["legal"] and not e["choose"]), None)
    if entry is not None:
        copy.click(entry["action"], entry["values"])
    else:
        copy.click("pass", {})
    sandbox_state(copy, {}, render=_render)
    copy.click("undo", {})
    return "{}"


def fields(sid: int, values: str) -> str:
    """The state for new `values` (the ability list follows the chosen permanent), without the
    board's HTML (nothing on the board changed)."""
    try:
        model = _model(sid)
        return json.dumps(_view(sid, model.values(_parse(values, "values")), board=False))
    except UsageError as err:
        return _refused(err)


def state(sid: int, values: str) -> str:
    """`mtg_rulekit.sandbox.view.model_json(values)`: what the kernel's model gives for the same
    clicks."""
    try:
        model = _model(sid)
        return json.dumps(model_json(model, model.values(_parse(values, "values"),
                                                         offered=False)))
    except UsageError as err:
        return _refused(err)


def card_actions(sid: int) -> str:
    """`SandboxModel.card_actions()`: every card's menu with its verdicts, computed now (what
    `make bench` times in the page, p8_verdicts_page_ms)."""
    try:
        return json.dumps({str(k): v for k, v in _model(sid).card_actions().items()})
    except UsageError as err:
        return _refused(err)


def choices(sid: int, name: str, values: str, field: str | None = None) -> str:
    """`SandboxModel.choices_for(name, values, field)`: the decisions that click makes, who
    makes each and why, and each answer's verdict; or the click's `field` (a menu entry's
    `choose`) with every answer's verdict (for a picker instead of the "choices" box)."""
    try:
        model = _model(sid)
        if not isinstance(name, str) or name not in CONTROLS:
            raise UsageError("control", f"no sandbox control is called {_shown(name)}")
        return json.dumps(with_symbols(model.choices_for(name, _parse(values, "values"),
                                                         field or None)))
    except UsageError as err:
        return _refused(err)


def search(sid: int, text: str) -> str:
    """`SandboxModel.search(text)`: free play's "add a card" box (matching catalog names, or
    the nearest: did you mean)."""
    try:
        model = _model(sid)
        if not isinstance(text, str):
            raise UsageError("search", "expected text")
        return json.dumps(model.search(text[:200]))
    except UsageError as err:
        return _refused(err)


def walkthrough(sid: int, title: str) -> str:
    """The session as a walkthrough (`mtg_rulekit.authoring.walkthrough`) as {"text", "name"} (the
    page offers it as a download named `name`.toml)."""
    import re

    from mtg_rulekit.authoring.walkthrough import walkthrough as session

    try:
        model = _model(sid)
        name = title if isinstance(title, str) and title.strip() else "A sandbox session"
        stem = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:40] or "sandbox"
        return json.dumps({"text": session(model, title=name), "name": f"{stem}-walkthrough"})
    except (UsageError, ValueError) as err:
        return json.dumps({"error": str(err)})
