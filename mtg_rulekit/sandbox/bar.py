"""The sandbox's time bar: Undo, Pass or Resolve (what is on top of the stack), Next step and
Next turn, each labelled by what it will do now and judged before the click (tried in
`Game.what_if` and taken back, like every card's menu). Standard library and the engine only.

>>> from mtg_rulekit import Game
>>> from mtg_rulekit.sandbox.model import SandboxModel
>>> game = Game(["Alice", "Bob"])
>>> game.set_turn(turn=2, active="Alice", step="main1")
>>> [(b["name"], b["label"], b["legal"]) for b in time_bar(SandboxModel(game))]
... # doctest: +NORMALIZE_WHITESPACE
[('undo', 'Undo', False), ('pass', 'Pass to Bob', True),
 ('step', 'Next step: beginning of combat step', True), ('turn', "Next turn: Bob's turn 3", True)]
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mtg_rulekit.core.errors import RulesError, UsageError

if TYPE_CHECKING:
    from mtg_rulekit.game import Game
    from mtg_rulekit.sandbox.model import SandboxModel

__all__ = ["KEYS", "time_bar"]

KEYS = {"undo": "Z", "pass": "Space", "resolve": "Space"}
"""The keyboard shortcut of each button of the bar (Arena's Space to pass)."""


def _tried(model: SandboxModel, name: str) -> tuple[Exception | None, tuple[Any, ...]]:
    """Click `name` in a what-if and take it back: the error, and (turn, active, step label,
    priority) after it."""
    g = model.game
    act = model._actions()[name]
    after: tuple[Any, ...] = ()
    error: Exception | None = None
    try:
        with g.what_if():
            act({})
            s = g.state
            after = (s.turn, s.active, s.step.label, s.priority)
    except (RulesError, UsageError) as err:
        error = err
    return error, after


def _button(name: str, label: str, does: str, error: Exception | None) -> dict[str, Any]:
    reason = getattr(error, "reason", None) or (str(error) if error is not None else None)
    return {"name": name, "label": label, "does": does, "legal": error is None,
            "reason": reason, "rule": getattr(error, "rule", None), "key": KEYS.get(name)}


def _top(game: Game) -> str:
    from mtg_rulekit.objects.narrator import item_name

    return item_name(game.state.stack[-1])


def time_bar(model: SandboxModel) -> list[dict[str, Any]]:
    """The bar's buttons, in order: [{"name" (the control `click` takes), "label" (what it
    will do now, short), "does" (in a sentence), "legal", "reason", "rule", "key"}]."""
    g = model.game
    s = g.state
    out = []
    last = model.last_click_words()
    out.append(_button("undo", "Undo", f"Take back your last click: {last}" if last else
                       "Nothing to undo yet",
                       None if last else RulesError("nothing to undo yet")))
    if s.stack:
        top = _top(g)
        error, _ = _tried(model, "resolve")
        out.append(_button("resolve", f"Resolve {top}",
                           f"All players pass in turn: {top} resolves", error))
    else:
        error, after = _tried(model, "pass")
        if error is None and after[:3] != (s.turn, s.active, s.step.label):
            label = f"Pass: on to the {after[2]}"
            does = f"{s.priority} passes; every player has passed, so the {s.step.label} ends"
        else:
            who = after[3] if after else None
            label = f"Pass to {who}" if who else "Pass"
            does = f"{s.priority} passes priority" + (f": {who} gets it" if who else "")
        out.append(_button("pass", label, does, error))
    error, after = _tried(model, "step")
    out.append(_button("step", f"Next step: {after[2]}" if after else "Next step",
                       "All players pass until the next step" + (
                           f": {after[1]}'s {after[2]}" if after else ""), error))
    error, after = _tried(model, "turn")
    out.append(_button("turn", f"Next turn: {after[1]}'s turn {after[0]}" if after else
                       "Next turn", "All players pass until the next turn's main phase; its "
                       "untap step untaps the active player's permanents (CR 502.3)", error))
    return out
