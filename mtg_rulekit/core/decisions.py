"""The decisions a caller can make for an action, declared once.

An action's `decisions` answer questions the engine would otherwise answer with a sensible
default (which color, which creature to sacrifice, in which order replacement effects apply).
Each key is listed here with what it answers; `Game.perform` refuses any other key, so a
misspelled one is never silently ignored.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mtg_rulekit.core.errors import UsageError

DECISIONS: dict[str, str] = {
    "added_mana": "the type of mana a triggered mana ability adds (Mana Flare: the type the land "
                  "produced)",
    "color": "a color chosen as a permanent enters (Utopia Sprawl)",
    "copy": "the creature a Clone-like permanent copies as it enters, or 'no'",
    "creature_type": "a creature type chosen as a permanent enters (Cavern of Souls, Metallic "
                     "Mimic)",
    "crew": "the creatures tapped to crew a Vehicle, one id per answer",
    "discard": "the card discarded: a looter's (by default the card just drawn), or, one per "
               "card, those the active player discards down to their maximum hand size in the "
               "cleanup step (CR 514.1; by default the cards that came into the hand last)",
    "encode": "cipher (CR 702.99a): the creature you control a resolving spell is exiled "
              "encoded on, or 'no' (the default)",
    "legend_keep": "the legendary permanent its controller keeps when they control two or more "
                   "with the same name (CR 704.5j); the others go to the graveyard",
    "mana_abilities": "while casting a spell, after its total cost is locked in (CR 601.2f-g): "
                      "a permanent whose mana ability is activated before paying, one per "
                      "answer; '#id:G' (or '#id:GG') says which mana it makes",
    "may": "yes or no for a 'you may' ability",
    "pay": "yes or no: pay an optional or ward cost",
    "pay_life": "yes or no: pay 2 life as a shockland enters",
    "pay_with": "which mana in the pool pays a cost (CR 601.2h), e.g. 'G C#7': one mana per "
                "symbol, '#N' naming the object it came from",
    "replacement_order": "which replacement effect applies first (CR 616.1), by name",
    "sacrifice": "the permanent sacrificed (by an effect, or by a mana ability's cost while "
                 "paying)",
    "target": "the target of a triggered ability as it goes on the stack",
    "trigger_order": "which of a player's waiting triggered abilities goes on the stack next "
                     "(CR 603.3b), by its source's id or name; the last one put there resolves "
                     "first",
}
"""Decision key -> what it answers."""

OBJECT_DECISIONS = frozenset({"copy", "crew", "discard", "encode", "legend_keep", "sacrifice"})
"""Decisions whose answers name an object (by id, `#id` or an object)."""

NAMING_DECISIONS = OBJECT_DECISIONS | {"mana_abilities", "target", "trigger_order"}
"""Every decision whose answer may name an object: the `OBJECT_DECISIONS`, plus `target` (or a
player), `trigger_order` (or a source's name) and `mana_abilities` (or "#id:G"). A
`GameObject` given to one becomes its id in the action record; given to any other decision, it
is a UsageError (`mtg_rulekit.engine.arguments.check_decisions`)."""


def yes(answer: Any) -> bool:
    """A yes/no answer: False, None, 0, "" and "no"/"false" (any case) mean no."""
    if isinstance(answer, str):
        return answer.strip().casefold() not in ("", "no", "false", "n")
    return bool(answer)


@dataclass(frozen=True)
class Decision:
    """One choice made while an action happened, kept in `Game.decisions`: who made it (the
    affected player orders replacement effects, CR 616.1; each player orders their own
    triggers, 603.3b; a spell's or ability's controller chooses its targets, 601.2c, 603.3d;
    the controller of same-named legends keeps one, 704.5j), what was asked, the answer, and
    whether the caller gave it (`given`) or the documented default was used."""

    action: int  # the number of the action it belongs to (1 = the first in `Game.actions`)
    event: int  # the id of the next event logged after it: the first one it shaped
    key: str
    player: str | None
    answer: Any
    given: bool

    def to_json(self) -> dict[str, Any]:
        answer = self.answer if isinstance(self.answer, (str, int, bool, type(None))) else str(
            self.answer)
        return {"action": self.action, "event": self.event, "key": self.key,
                "player": self.player, "answer": answer, "given": self.given}


LARGEST = 10**9
"""The largest whole number any argument or decision may be, either way (a life total, a
number of counters, X, an id): far beyond any game, and far below the 4,300 digits Python
refuses to print, so the log, the snapshot and a replay always work."""
_ID_DIGITS = len(str(LARGEST))


def show_number(n: int) -> str:
    """How long `n` is, in words (`str(n)` fails past 4,300 digits)."""
    about = int(n.bit_length() * 0.30103) + 1
    return f"a number with about {about:,} digits"


LONGEST_NAME = 40
"""The longest name an argument takes: a player's, a counter kind, a choice's name, a creature
type (the scenario schema's bounds are 31 to 40)."""
LONGEST_TEXT = 200
"""The longest text answer a decision or a set-up choice takes."""


def bounded_text(name: str, value: str, limit: int = LONGEST_TEXT) -> str:
    """`value` if it is at most `limit` characters, else UsageError naming `name`: the log,
    the snapshot and every view quote what an argument names, so it is bounded like a number."""
    if len(value) > limit:
        raise UsageError(name, f"{len(value):,} characters ({shown(value, 30)}); at most {limit}")
    return value


def shown(value: Any, limit: int = 60) -> str:
    """A value a caller gave, as a refusal quotes it: its repr, cut to `limit` characters. A
    number too long to print says how long it is; a value whose repr can't be made (nested
    too deeply, or its own `__repr__` fails) is named by its type."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > LARGEST:
        return show_number(value)
    if isinstance(value, str) and len(value) > limit:
        value = value[:limit]  # no copy of a huge text just to cut it
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001  (anything a caller's object raises: still a refusal)
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[:limit - 3] + "..."


def bounded_int(name: str, value: int) -> int:
    """`value` if it is at most `LARGEST` either way, else UsageError naming `name`."""
    if abs(value) > LARGEST:
        raise UsageError(name, f"{show_number(value)} is too large: a whole number here is at most "
                               f"{LARGEST:,} either way")
    return value


def written_id(name: str, value: str) -> int | None:
    """The id written in `value` ("7" or "#7"), or None if it isn't written as a number.
    Only the ASCII digits 0-9 are digits here: "²" or "٣" (which `str.isdigit` accepts and
    `int` refuses or reads differently) is a UsageError naming `name`."""
    body = value.lstrip("#")
    if body.isascii() and body.isdigit():
        if len(body) > _ID_DIGITS:
            raise UsageError(name, f"a number with {len(body):,} digits is not an object id in "
                                   f"this game (ids are at most {LARGEST:,})")
        return int(body)
    if body and all(c.isnumeric() or c.isascii() and c.isdigit() for c in body):
        raise UsageError(name, f"{shown(value)} is not written with the digits 0-9; an id is "
                               "a number such as 7 or '#7'")
    return None


COLORS = "WUBRG"


def choice_value(name: str, key: str, value: Any) -> str:
    """A choice made as a permanent enters: a color letter, or a creature type's name."""
    if key == "color":
        letter = value.strip("{}").upper() if isinstance(value, str) else None
        if not letter or letter not in COLORS or len(letter) != 1:
            raise UsageError(name, f"{shown(value)} is not a color; choose one of W U B R G")
        return letter
    if not isinstance(value, str) or not value.strip():
        raise UsageError(name, f"expected a name, got {shown(value)}")
    return value
