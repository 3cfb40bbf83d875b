"""Decisions asked when the rules ask: for a sandbox click, which choices the action makes on
its way (which replacement effect first, a trigger's target, "you may", a color, the order of
triggers, the legend rule, Mana Flare's mana, which mana pays), who makes each and the rule
that says so, and each legal answer, so a front-end can offer a picker instead of a free-text
`choices` box. Standard library only (it runs in the page's Pyodide too).

What a click asks is learnt by trying it (`Game.what_if`): the engine records every choice it
made, with the player the rules name (`Game.decisions`). Each candidate answer is then tried
the same way, so an option is offered as legal exactly when choosing it is. A click's own
inputs a menu entry leaves to a picker (`input_choices`: its target, or the permanent its cost
taps or sacrifices, which is a cost, never called a target; X; which mana) are judged the same
way, every card and player of the board one by one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

from mtg_rulekit.core.errors import RulesError, UsageError
from mtg_rulekit.core.events import EventKind
from mtg_rulekit.objects.state import Zone

if TYPE_CHECKING:
    from mtg_rulekit.core.decisions import Decision
    from mtg_rulekit.game import Game

WHY: dict[str, tuple[str | None, str]] = {
    "replacement_order": ("616.1", "{who} chooses which replacement effect applies first: "
                                   "the affected player (or the controller of the affected "
                                   "object) chooses"),
    "trigger_order": ("603.3b", "{who} chooses the order of their triggered abilities on "
                                "the stack: each player orders their own, active player first"),
    "target": ("603.3d", "{who} chooses: a triggered ability's controller chooses its target "
                         "as it goes on the stack"),
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

HEADINGS: dict[str, str] = {
    "replacement_order": "Which replacement effect applies first?",
    "trigger_order": "Which trigger goes on the stack next? (The last one put there resolves "
                     "first.)",
    "target": "Choose a target",
    "may": "Do it? (The ability says you may.)",
    "pay": "Pay the cost?",
    "pay_life": "Pay 2 life as the land enters?",
    "color": "Choose a color",
    "creature_type": "Choose a creature type",
    "copy": "Choose the creature it enters as a copy of",
    "legend_keep": "Two legends with the same name: choose the one to keep",
    "added_mana": "Choose the type of mana to add",
    "pay_with": "Choose the mana that pays",
    "mana_abilities": "Choose the mana abilities to activate while paying",
    "sacrifice": "Choose a permanent to sacrifice",
    "crew": "Choose the creatures that crew the Vehicle",
    "discard": "Choose a card to discard",
    "encode": "Choose a creature to encode the spell on",
    "x": "Choose X",
    "mana": "Choose the type of mana",
}
"""Decision key (or a click's own input, "x") -> the question in plain words, as a picker's
heading (who decides and the rule that says so are `WHY`'s, under it)."""

ON_THE_BOARD = frozenset({"target", "copy", "legend_keep", "sacrifice", "crew", "encode"})
"""Decisions answered by choosing a card or a player on the board (lit up, the others dimmed
with their reason), not from a list."""

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
    made, end, error, _ = _tried(game, run, board=board)
    return made, end, error


def _tried(game: Game, run: Callable[[], None], *, board: bool = True
           ) -> tuple[list[Decision], Board | None, Exception | None, dict[int, str]]:
    """`asked`, and for each decision (by its index in the list) what it is for, in words
    ("Sandstorm Crasher's 'when you do' ability"), when the event it shaped says."""
    decided = len(game.decisions)
    error: Exception | None = None
    made: list[Decision] = []
    end: Board | None = None
    purpose: dict[int, str] = {}
    try:
        with game.what_if():
            try:
                run()
            finally:
                made = list(game.decisions[decided:])
                end = _board(game) if board else None
                purpose = _purposes(game, made)
    except (RulesError, UsageError) as err:
        error = err
    return made, end, error, purpose


def _purposes(game: Game, made: list[Decision]) -> dict[int, str]:
    """What each target decision chose for: the ability the event it shaped put on the stack,
    named as players say it, with what it may target."""
    from mtg_rulekit.objects.narrator import item_name

    out: dict[int, str] = {}
    for i, d in enumerate(made):
        item = next((s for s in game.state.stack if s.origin_event == d.event), None)
        if d.key != "target" or item is None:
            continue
        spec = getattr(item.ability, "target", None)
        what = "" if spec is None else " (a " + spec.text[len("target "):] + ")" \
            if spec.text.startswith("target ") else f" ({spec.text})"
        out[i] = item_name(item) + what
    return out


def question(decision: Decision, purpose: str | None = None) -> dict[str, Any]:
    """One decision as plain data: its key, the question in plain words (`heading`; what it
    is for, when known: `purpose`), who decides and why (words and rule), the default, and
    whether it is answered on the board (`board`: a card or a player)."""
    rule, words = WHY.get(decision.key, (None, "{who} chooses"))
    who = decision.player or "the player"
    why = words.format(who=who) + (f" (CR {rule})" if rule else "")
    default = decision.answer if isinstance(decision.answer, (str, int, bool)) else None
    heading = HEADINGS.get(decision.key, "Choose")
    if purpose:
        heading = f"{heading} for {purpose}"
    return {"key": decision.key, "who": decision.player, "why": why, "rule": rule,
            "default": default, "heading": heading, "board": decision.key in ON_THE_BOARD}


def choices_for(model: Any, control: str, values: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The decisions clicking `control` with `values` makes, each with its legal options:
    [{"key", "who", "why", "rule", "default", "options": [{"label", "value", "legal",
    "reason", "rule", "choices"}]}]; "choices" is the click's "choices" text with that
    answer, ready to send. Decisions the caller answered already are left out, and so are
    those no answer is offered for (which mana in the pool pays: the engine's way)."""
    act = model._actions()[control]
    game = model.game
    made, end, _, purposes = _tried(game, lambda: act(values))
    boards = [_board(game)] + ([end] if end is not None else [])
    out: list[dict[str, Any]] = []
    for i, decision in enumerate(made):
        if decision.given or any(q["key"] == decision.key for q in out):
            continue
        entry = question(decision, purposes.get(i))
        options = []
        # a decision with no list of answers to try here (which mana pays: `pay_with`) offers
        # the answer the engine chose by default
        candidates = _candidates(decision.key, boards) or (
            [(str(entry["default"]), entry["default"])] if entry["default"] is not None else [])
        for label, answer in candidates:
            tried = _with_choice(values, decision.key, answer)
            _, _, error = asked(game, partial(act, tried), board=False)
            options.append(_option(label, answer, error, tried, game.state.players,
                                   choices=tried["choices"]))
        if options:  # a decision offered no answer to pick from is left to the engine
            entry["options"] = options
            out.append(entry)
    return out


def _option(label: str, answer: Any, error: Exception | None, values: dict[str, Any],
            players: Any, **extra: Any) -> dict[str, Any]:
    """One answer with its verdict: `values` are the click's with it (ready to send); `id`
    or `player` say which card or player on the board it is."""
    found = answer[1:] if isinstance(answer, str) and answer.startswith("#") else None
    return {"label": label, "value": answer, "legal": error is None,
            "reason": getattr(error, "reason", None), "rule": getattr(error, "rule", None),
            "says": str(error) if error is not None else None, "values": values,
            "id": int(found) if found and found.isdigit() else
            answer if isinstance(answer, int) and not isinstance(answer, bool) else None,
            "player": answer if isinstance(answer, str) and answer in players else None,
            **extra}


MAX_X = 20
"""The largest X a picker offers (a board a lesson builds never pays more)."""


def input_choices(model: Any, control: str, values: Mapping[str, Any], field: str,
                  heading: str) -> dict[str, Any]:
    """A click's own input chosen in a picker instead of typed: its `target` (or the
    permanent its cost taps or sacrifices), answered on the board, each card and player with
    its verdict; or its `x`, from 0 up, each with its verdict. Shaped like one of
    `choices_for`'s decisions (`heading` says what it is for). An answer the input doesn't
    take at all (a player for a cost that taps a creature) is left out."""
    act = model._actions()[control]
    game = model.game
    if field == "x":
        pool = sum(game.state.players[p].pool.total for p in game.state.players)
        counters = max((sum(o.counters.values()) for o in game.state.battlefield()), default=0)
        answers: list[tuple[str, Any]] = [(f"X = {x}", x) for x in range(
            min(max(pool, counters), MAX_X) + 1)]
    elif field == "mana":
        answers = [("{" + t + "}", t) for t in "WUBRGC"]
    elif field == "target":
        board = _board(game)
        answers = [(p, p) for p in board.players] + \
            [(f"{name} (#{i})", i) for i, name, _, _ in board.permanents + [
                (i, n, False, False) for i, n in board.stack]]
    else:
        raise UsageError("choose", f"{field!r:.40} is not an input a picker chooses")
    options = []
    for label, answer in answers:
        tried = {**values, field: answer}
        _, _, error = asked(game, partial(act, tried), board=False)
        if isinstance(error, UsageError):  # not an answer of this kind (a player for a cost)
            continue
        options.append(_option(label, answer, error, tried, game.state.players))
    return {"key": field, "who": game.state.priority, "why": "", "rule": None,
            "default": None, "heading": heading, "board": field == "target",
            "options": options}
