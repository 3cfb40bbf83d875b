"""Decisions asked when the rules ask: for a sandbox click, which choices the action makes on
its way (which replacement effect first, a trigger's target, "you may", a color, the order of
triggers, the legend rule, Mana Flare's mana, which mana pays), who makes each and the rule
that says so, and each legal answer, so a front-end can offer a picker instead of a free-text
`choices` box. Standard library only (it runs in the page's Pyodide too).

What a click asks is learnt by trying it (`Game.what_if`): the engine records every choice it
made, with the player the rules name (`Game.decisions`). Each candidate answer is then tried
the same way, so an option is offered as legal exactly when choosing it is. A cost's choices
(the creature Springleaf Drum's cost taps) are costs, not targets: they are offered by the
card's menu (`SandboxModel.card_actions`, its "cost"), never here as a target.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

from rulekit.core.errors import RulesError, UsageError
from rulekit.core.events import EventKind
from rulekit.objects.state import Zone

if TYPE_CHECKING:
    from rulekit.core.decisions import Decision
    from rulekit.game import Game

WHY: dict[str, tuple[str | None, str]] = {
    "replacement_order": ("616.1", "{who} chooses which replacement effect applies first: "
                                   "the affected player (or the controller of the affected "
                                   "object) chooses"),
    "trigger_order": ("603.3b", "{who} chooses the order of their triggered abilities on "
                                "the stack: each player orders their own, active player first"),
    "target": ("601.2c", "{who} chooses the target: the controller of the spell or ability "
                         "chooses (for a trigger, as it goes on the stack, CR 603.3d)"),
    "may": ("603.5", "{who} chooses whether to do what the ability says they may do, as it "
                     "resolves"),
    "pay": ("118.12", "{who} chooses whether to pay: the player the effect names"),
    "pay_life": ("614.12", "{who} chooses whether to pay life as the land enters"),
    "color": ("614.12", "{who} chooses a color as the permanent enters"),
    "creature_type": ("614.12", "{who} chooses a creature type as the permanent enters"),
    "copy": ("707.5", "{who} chooses what the permanent enters as a copy of"),
    "legend_keep": ("704.5j", "{who} chooses which legendary permanent to keep: the others "
                              "with the same name go to the graveyard"),
    "added_mana": ("608.2d", "{who} chooses the type of mana the triggered ability adds, as "
                             "it resolves"),
    "pay_with": ("601.2h", "{who} chooses which mana in the pool pays the cost"),
    "mana_abilities": ("601.2g", "{who} chooses which mana abilities to activate while "
                                 "paying"),
    "sacrifice": ("701.21a", "{who} chooses the permanent to sacrifice"),
    "crew": ("702.122a", "{who} chooses the creatures that crew the Vehicle"),
    "discard": (None, "{who} chooses the card to discard"),
    "encode": ("702.99a", "{who} chooses the creature the spell is encoded on, or none"),
}
"""Decision key -> (the rule that says who chooses, the question in words)."""

_COLORS = ["W", "U", "B", "R", "G"]


@dataclass(frozen=True)
class Board:
    """What the game looked like at the end of a tried click: the objects that exist then
    (made by the click included), for the answers that name them."""

    players: list[str]
    permanents: list[tuple[int, str, bool, bool]]  # id, name, legendary, creature
    hand: list[tuple[int, str]]
    stack: list[tuple[int, str]]
    replacements: list[str]


def _board(game: Game) -> Board:
    perms = []
    for o in game.state.battlefield():
        chars = game.chars(o)
        perms.append((o.id, chars.name, "Legendary" in chars.supertypes, chars.is_a("Creature")))
    hand = [(o.id, game.chars(o).name) for o in game.state.in_zone(Zone.HAND)]
    stack = [(o.id, game.chars(o).name) for o in game.state.in_zone(Zone.STACK)]
    names = sorted({r.name for kind in EventKind for r in game.replacements_for(kind)})
    return Board(list(game.state.players), perms, hand, stack, names)


def _candidates(key: str, boards: list[Board]) -> list[tuple[str, Any]]:
    """(label, answer) pairs to try for decision `key`."""
    seen: dict[Any, str] = {}

    def add(label: str, value: Any) -> None:
        seen.setdefault(value, label)

    for b in boards:
        if key == "replacement_order":
            for name in b.replacements:
                add(name, name)
        elif key in ("may", "pay", "pay_life"):
            add("yes", "yes")
            add("no", "no")
        elif key in ("color", "added_mana"):
            for c in _COLORS + (["C"] if key == "added_mana" else []):
                add("{" + c + "}", c)
        elif key == "target":
            for p in b.players:
                add(p, p)
            for i, name, _, _ in b.permanents + [(i, n, False, False) for i, n in b.stack]:
                add(f"{name} (#{i})", f"#{i}")
        elif key == "trigger_order":
            for _, name, _, _ in b.permanents:
                add(name, name)
        elif key == "legend_keep":
            for i, name, legendary, _ in b.permanents:
                if legendary:
                    add(f"{name} (#{i})", f"#{i}")
        elif key in ("copy", "crew", "sacrifice", "encode"):
            for i, name, _, creature in b.permanents:
                if key == "sacrifice" or creature:
                    add(f"{name} (#{i})", f"#{i}")
            if key in ("copy", "encode"):
                add("none", "no")
        elif key == "discard":
            for i, name in b.hand:
                add(f"{name} (#{i})", f"#{i}")
        elif key == "creature_type":
            for t in ("Human", "Elf", "Goblin", "Thopter"):
                add(t, t)
    return [(label, value) for value, label in seen.items()]


def _with_choice(values: Mapping[str, Any], key: str, answer: Any) -> dict[str, Any]:
    """The click's values with `key=answer` added to its "choices" text."""
    out = dict(values)
    given = str(out.get("choices") or "").strip()
    out["choices"] = "; ".join(p for p in (given, f"{key}={answer}") if p)
    return out


def asked(game: Game, run: Callable[[], None], *, board: bool = True
          ) -> tuple[list[Decision], Board | None, Exception | None]:
    """Try `run` (a click) and take it back: the decisions it made, the board at its end
    (if `board`) and the error that stopped it, if any."""
    decided = len(game.decisions)
    error: Exception | None = None
    made: list[Decision] = []
    end: Board | None = None
    try:
        with game.what_if():
            try:
                run()
            finally:
                made = list(game.decisions[decided:])
                end = _board(game) if board else None
    except (RulesError, UsageError) as err:
        error = err
    return made, end, error


def question(decision: Decision) -> dict[str, Any]:
    """One decision as plain data: its key, who decides, why (words and rule), the default."""
    rule, words = WHY.get(decision.key, (None, "{who} chooses"))
    who = decision.player or "the player"
    why = words.format(who=who) + (f" (CR {rule})" if rule else "")
    default = decision.answer if isinstance(decision.answer, (str, int, bool)) else None
    return {"key": decision.key, "who": decision.player, "why": why, "rule": rule,
            "default": default}


def choices_for(model: Any, control: str, values: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The decisions clicking `control` with `values` makes, each with its legal options:
    [{"key", "who", "why", "rule", "default", "options": [{"label", "value", "legal",
    "reason", "rule", "choices"}]}]; "choices" is the click's "choices" text with that
    answer, ready to send. Decisions the caller answered already are left out."""
    act = model._actions()[control]
    game = model.game
    made, end, _ = asked(game, lambda: act(values))
    boards = [_board(game)] + ([end] if end is not None else [])
    out: list[dict[str, Any]] = []
    for decision in made:
        if decision.given or any(q["key"] == decision.key for q in out):
            continue
        entry = question(decision)
        options = []
        # a decision with no list of answers to try here (which mana pays: `pay_with`) offers
        # the answer the engine chose by default
        candidates = _candidates(decision.key, boards) or (
            [(str(entry["default"]), entry["default"])] if entry["default"] is not None else [])
        for label, answer in candidates:
            tried = _with_choice(values, decision.key, answer)
            _, _, error = asked(game, partial(act, tried), board=False)
            options.append({"label": label, "value": answer, "legal": error is None,
                            "reason": getattr(error, "reason", None),
                            "rule": getattr(error, "rule", None),
                            "choices": tried["choices"]})
        entry["options"] = options
        out.append(entry)
    return out
