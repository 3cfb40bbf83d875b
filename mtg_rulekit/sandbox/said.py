"""What a sandbox click did, in the narrator's words: the action, then what it changed that a
player looks for (the pool after and why, what went on the stack, what resolved, exert, tokens,
the turn it is now), read from the click's own events. Standard library and the engine only
(it runs in the page too).

>>> from mtg_rulekit import Game
>>> game = Game(["Alice", "Bob"])
>>> forest = game.add("Forest")
>>> _ = game.add("Mana Reflection")
>>> since = len(game.log)
>>> game.tap_for_mana(forest)
>>> click_words(game, since)
"Alice taps Forest (#1) for mana. Alice's pool: {G}{G} (Forest made {G}{G}: Mana Reflection doubled it)."
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from mtg_rulekit.core import payloads as p
from mtg_rulekit.core.events import EventKind
from mtg_rulekit.core.mana import pool_text, spent_text

if TYPE_CHECKING:
    from mtg_rulekit.core.events import Event
    from mtg_rulekit.game import Game

__all__ = ["MAX_FACTS", "click_words", "lead"]

MAX_FACTS = 6
"""The most facts a click's words list; the rest is counted (the events table has them all)."""

_SKIPPED = {EventKind.PRIORITY, EventKind.STEP_BEGAN, EventKind.TURN_BEGAN, EventKind.ACTION,
            EventKind.ACTIVATED, EventKind.MANA_ABILITY, EventKind.TAPPED, EventKind.UNTAPPED,
            EventKind.DECLARED, EventKind.EFFECT_ENDED,
            EventKind.TRIGGERED, EventKind.PUT_ON_STACK, EventKind.CAST, EventKind.TARGETED,
            EventKind.MANA_ADDED, EventKind.MANA_EMPTIED, EventKind.DREW}
"""Kinds said another way (the pool, the stack, the position) or not worth a sentence here."""


def lead(event: Event) -> str:
    """A root action in words, without echoing the ability's Oracle text: "Alice taps Forest
    (#1) for mana", "Alice activates Kiki-Jiki, Mirror Breaker (#1)'s ability"."""
    a = event.payload
    if isinstance(a, p.Activating) and a.player:
        if a.mana:
            return f"{a.player} {'taps' if a.taps else 'activates'} {a.card} for mana"
        return f"{a.player} activates {a.card}'s ability"
    if isinstance(a, p.AtOnce):
        import re

        names = [re.sub(r" \(#\d+\)$", "", n) for n in a.objects]
        if a.count > len(names):
            names.append(f"{a.count - len(names)} more")
        listed = ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]
        done = {"destroy": "Destroyed", "exile": "Exiled"}.get(a.action, a.action.capitalize())
        return f"{done} at once: {listed}"
    return event.text.rstrip(".")


def _fact(event: Event) -> str:
    """An event as a fact of the click: a resolving ability named as players say it (its
    Oracle text is not repeated: what it did follows), anything else in the narrator's
    words."""
    r = event.payload
    if isinstance(r, p.Resolved):
        from mtg_rulekit.objects.narrator import stack_object

        return stack_object(r.item_kind, r.source_name, r.ability, r.text,
                            r.ability_kind) + " resolves"
    return event.text


def _pools(game: Game, events: list[Event]) -> list[str]:
    """Each player whose pool got mana: the pool now, and where each part came from."""
    out = []
    added = [e for e in events if isinstance(e.payload, p.ManaAdded)
             and not (e.payload.what_if or e.payload.setup) and e.payload.mana.total]
    for player in game.state.players:
        mine = [e for e in added if e.payload.player == player]  # type: ignore[union-attr]
        if not mine:
            continue
        parts: list[str] = []
        for e in mine:
            m = e.payload
            assert isinstance(m, p.ManaAdded)
            name = m.source_name or "it"
            changed = [a.effect for a in e.applied]
            if m.tapped_for_mana or not parts:
                parts.append(f"{name} made {spent_text(m.mana)}"
                             + (f": {' and '.join(changed)} changed it" if len(changed) > 1 else
                                f": {changed[0]} doubled it" if changed and _doubled(e) else
                                f": {changed[0]} changed it" if changed else ""))
            else:
                parts.append(f"{name} added {spent_text(m.mana)}")
        pool = pool_text(game.state.players[player].pool)
        out.append(f"{player}'s pool: {pool} ({'; '.join(parts)})")
    return out


def _doubled(event: Event) -> bool:
    """The one replacement made the mana twice what was proposed (Mana Reflection)."""
    before, after = event.proposed, event.payload
    return isinstance(before, p.ManaAdded) and isinstance(after, p.ManaAdded) and \
        after.mana.total == 2 * before.mana.total


def _stack(game: Game, events: list[Event]) -> str | None:
    """What the click put on the stack that is still there, top first."""
    ids = {e.id for e in events}
    items = [item for item in reversed(game.state.stack) if item.origin_event in ids]
    if not items:
        return None
    names = Counter(_item(item) for item in items)
    said = ", ".join(name + (f" ×{n}" if n > 1 else "") for name, n in names.items())
    top = "it" if len(items) == 1 else "the top one"
    return f"On the stack now: {said}. Resolve {top} from the bar (Space)"


def _item(item: object) -> str:
    from mtg_rulekit.objects.narrator import item_name

    return item_name(item)  # type: ignore[arg-type]


def _collapsed(texts: list[str]) -> list[str]:
    """The same words said several times (four tokens alike) once, counted."""
    import re

    counts: Counter[str] = Counter()
    order: list[str] = []
    for text in texts:
        key = re.sub(r" \(#\d+\)", "", text)
        if key not in counts:
            order.append(key)
        counts[key] += 1
    return [key + (f" (×{counts[key]})" if counts[key] > 1 else "") for key in order]


def _now(game: Game, events: list[Event]) -> str | None:
    """Where the game is now, when the click moved time on."""
    if not any(e.kind in (EventKind.STEP_BEGAN, EventKind.TURN_BEGAN) for e in events):
        return None
    s = game.state
    return f"Now: turn {s.turn}, {s.active}'s {s.step.label}"


def click_words(game: Game, since: int) -> str:
    """What the actions logged after `since` did, in sentences: the actions themselves, each
    pool that got mana (the pool after, and which source or effect made what), then the other
    facts a player looks for, at most `MAX_FACTS`, and where the game is now."""
    events = game.log.since(since)
    roots = [lead(e) for e in events if e.kind is EventKind.ACTION and e.parent is None]
    facts = _pools(game, events)
    texts = [_fact(e) for e in events if e.kind not in _SKIPPED and not e.prevented
             and not (isinstance(e.payload, p.Drew) and e.payload.empty)
             and not (isinstance(e.payload, p.ZoneChanged) and e.payload.reason == "destroy"
                      and any(isinstance(r.payload, p.AtOnce) for r in events))]
    facts += [t for t in _collapsed(texts) if not any(r.endswith(": " + t) for r in roots)]
    if len(facts) > MAX_FACTS:
        more = len(facts) - MAX_FACTS
        facts = facts[:MAX_FACTS] + [f"and {more} more (the events table lists them)"]
    for extra in (_stack(game, events), _now(game, events)):
        if extra:
            facts.append(extra)
    words = ". ".join(t[:1].upper() + t[1:] for t in [*(roots or ["Nothing"]), *facts])
    return words + ("" if words.endswith(".") else ".")
