""""Ask the diagram why", as data: for each box of a diagram, its chain of causes back to the
player's action, the rules it cites (the kit's own summaries, `mtg_rulekit/data/rules.toml`, with
their numbers), and for an event a replacement effect changed, the event before and after.
Plain JSON-able data from the causal log; a page renders it (a click or Enter on a box).

The boxes are named as the diagram names them (`n<event id>`, and `p<id>` / `r<id>_<i>` for a
replaced event as first proposed and each effect that changed it); in the SVG each box's
element carries the class `rkbox-<name>`, so a page finds a box's answer from its element.

>>> from mtg_rulekit import Game
>>> game = Game(["Alice", "Bob"])
>>> _ = game.add("Mana Reflection")
>>> game.tap_for_mana(game.add("Forest"))
>>> answers = why(game)
>>> mana = [a for a in answers.values() if a["says"].startswith("Alice adds {G}{G}")][0]
>>> [step["says"] for step in mana["chain"]][-1]
'Alice taps Forest (#2) for mana: {T}: Add {G}.'
>>> mana["replacement"]["before"], mana["replacement"]["after"]
('Alice would add {G} from Forest', 'Alice adds {G}{G} from Forest')
"""

from __future__ import annotations

from typing import Any

from mtg_rulekit.core.events import Event, EventKind, EventLog
from mtg_rulekit.core.payloads import stack_item
from mtg_rulekit.display.flow.grammar import relation_of
from mtg_rulekit.display.flow.words import after_text, proposed_text

__all__ = ["why"]


class _Model:
    def __init__(self, game: Any) -> None:
        self.game = game


def _rules(numbers: tuple[str, ...] | list[str]) -> list[dict[str, str]]:
    from mtg_rulekit.core.rules import all_rules

    known = all_rules()
    return [{"number": r, "title": known[r].title, "summary": known[r].summary}
            if r in known else {"number": r, "title": "", "summary": ""} for r in numbers]


def why(source: Any) -> dict[str, dict[str, Any]]:
    """For a `Game` (or an `EventLog`): box name -> {"box", "says" (the event's full words),
    "rules" (each {"number", "title", "summary"}), "chain" (its causes, nearest first, each
    {"box", "says", "how"}: how the one before it came of it, "does", "triggers",
    "resolves"...; the last is the player's action, or the set-up), "replacement" (None, or
    {"before", "after", "effects": [{"effect", "outcome", "rules"}]})}. A resolving spell or
    ability's chain goes through where it went on the stack (that is its cause); the action
    that let it resolve is the answer's "when"."""
    game = source if hasattr(source, "log") else None
    log: EventLog = source.log if game is not None else source
    model = _Model(game)
    events = {e.id: e for e in log}
    origins: dict[Any, int] = {}
    for e in log:
        item = stack_item(e.payload)
        if e.kind in (EventKind.PUT_ON_STACK, EventKind.ACTIVATED, EventKind.CAST) \
                and item is not None:
            origins.setdefault(item, e.id)

    def cause(e: Event) -> tuple[Event | None, str]:
        """The event `e` came of, and how (the edge's words in the diagram)."""
        if e.kind is EventKind.RESOLVED:
            origin = origins.get(stack_item(e.payload))
            if origin is not None and origin != e.parent and origin in events:
                return events[origin], "resolves"
        parent = events.get(e.parent) if e.parent is not None else None
        return parent, relation_of(e)

    roots = {e.action: e for e in log if e.kind is EventKind.ACTION and e.parent is None}
    answers: dict[str, dict[str, Any]] = {}
    for e in log:
        if e.kind is EventKind.PRIORITY:
            continue
        chain: list[dict[str, str]] = []
        at, seen = e, {e.id}
        while True:
            parent, how = cause(at)
            if parent is None or parent.id in seen:
                break
            chain.append({"box": f"n{parent.id}", "says": parent.text, "how": how})
            seen.add(parent.id)
            at = parent
        replacement = None
        if e.applied and e.payload is not None:
            replacement = {
                "before": proposed_text(model, e),
                "after": after_text(model, e, e.payload),
                "effects": [{"effect": a.effect, "outcome": a.outcome,
                             "rules": _rules(tuple(a.rules))} for a in e.applied],
            }
        root = roots.get(e.action)
        answer = {"box": f"n{e.id}", "says": e.text, "rules": _rules(e.rules), "chain": chain,
                  "replacement": replacement,
                  "when": root.text if root is not None and root.id != e.id else ""}
        answers[f"n{e.id}"] = answer
        if replacement is not None:
            answers[f"p{e.id}"] = {**answer, "box": f"p{e.id}",
                                   "says": replacement["before"], "rules": []}
            for i, a in enumerate(e.applied):
                answers[f"r{e.id}_{i}"] = {**answer, "box": f"r{e.id}_{i}",
                                           "says": f"{a.effect} {a.outcome} it",
                                           "rules": _rules(tuple(a.rules))}
    return answers

