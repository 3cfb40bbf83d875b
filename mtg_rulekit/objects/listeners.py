"""Which battlefield abilities and effects listen for which events: the game's index of them.

Kept apart from `context.py` so that what the rules see of a game (`RulesContext`) names no
ability or effect type, and the abilities' callbacks can name it without an import cycle.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mtg_rulekit.core.events import EventKind
    from mtg_rulekit.objects.abilities import Static, Triggered
    from mtg_rulekit.objects.effects import ContinuousEffect
    from mtg_rulekit.objects.replacement import ReplacementEffect
    from mtg_rulekit.objects.state import GameObject


@dataclass
class ListenerIndex:
    """Which battlefield abilities listen for which events, rebuilt when the board's shape
    changes (a permanent with such abilities arrives or leaves, an effect begins or ends)."""

    version: int = -1
    triggers: dict[EventKind, list[tuple[GameObject, Triggered]]] = field(default_factory=dict)
    statics: list[tuple[GameObject, Static]] = field(default_factory=list)
    effects: list[ContinuousEffect] = field(default_factory=list)
    replacements: dict[EventKind, list[ReplacementEffect]] = field(default_factory=dict)

