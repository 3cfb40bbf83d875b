"""The decisions a caller can make for an action, declared once.

An action's `decisions` answer questions the engine would otherwise answer with a sensible
default (which color, which creature to sacrifice, in which order replacement effects apply).
Each key is listed here with what it answers; `Game.perform` refuses any other key, so a
misspelled one is never silently ignored.
"""

from __future__ import annotations

DECISIONS: dict[str, str] = {
    "added_mana": "the type of mana a triggered mana ability adds (Mana Flare: the type the land "
                  "produced)",
    "color": "a color chosen as a permanent enters (Utopia Sprawl)",
    "copy": "the creature a Clone-like permanent copies as it enters, or 'no'",
    "creature_type": "a creature type chosen as a permanent enters (Cavern of Souls, Metallic "
                     "Mimic)",
    "crew": "the creatures tapped to crew a Vehicle, one id per answer",
    "discard": "the card discarded",
    "may": "yes or no for a 'you may' ability",
    "pay": "yes or no: pay an optional or ward cost",
    "pay_life": "yes or no: pay 2 life as a shockland enters",
    "replacement_order": "which replacement effect applies first (CR 616.1), by name",
    "sacrifice": "the permanent sacrificed",
    "target": "the target of a triggered ability as it goes on the stack",
}
"""Decision key -> what it answers."""

OBJECT_DECISIONS = frozenset({"copy", "crew", "discard", "sacrifice"})
"""Decisions whose answers name an object (by id, `#id` or an object)."""
