"""Activation costs: {T}, {Q}, mana, sacrifices, counters, tapping other creatures, life.

A `Cost` is plain data; `mtg_rulekit.engine.paying` checks and pays it through the event pipeline.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from mtg_rulekit.core.mana import ManaCost


@dataclass(frozen=True)
class Cost:
    """The parts of an activation cost (CR 602.1a, 118)."""

    mana: ManaCost = ManaCost()
    tap: bool = False  # {T} (CR 107.5)
    untap: bool = False  # {Q} (CR 107.6)
    sacrifice_self: bool = False
    sacrifice: str = ""  # a filter such as "Forest" or "Food": "Sacrifice a Forest"
    tap_other: str = ""  # "tap an untapped creature you control" (not the source's {T})
    remove_counters: tuple[str, int | str] | None = None  # (kind, n or "X")
    exert: bool = False
    text: str = ""
    crew: int = 0  # "Crew N": tap other untapped creatures with total power N or more (CR 702.122a)

    @classmethod
    def parse(cls, text: str) -> Cost:
        """Read a cost as Oracle writes it, e.g. `{2}, {Q}` or `{T}, Sacrifice this land`."""
        mana, tap, untap, sac_self, sac, tap_other, remove, exert = "", False, False, False, "", "", None, False
        for part in (p.strip() for p in text.split(",")):
            low = part.lower()
            if part == "{T}":
                tap = True
            elif part == "{Q}":
                untap = True
            elif re.fullmatch(r"(\{[0-9WUBRGCX]+\})+", part):
                mana += part
            elif low.startswith("sacrifice this") or low == "sacrifice ~":
                sac_self = True
            elif m := re.fullmatch(r"sacrifice an? (\w+)", low):
                sac = m.group(1).capitalize()
            elif low.startswith("tap an untapped creature you control"):
                tap_other = "Creature"
            elif m := re.fullmatch(r"remove (a|an|one|x|\d+) (\w+) counters? from (it|this \w+)", low):
                n = m.group(1)
                amount: int | str = "X" if n == "x" else (1 if n in ("a", "an", "one") else int(n))
                remove = (m.group(2), amount)
            elif low.startswith("exert this"):
                exert = True
            else:
                raise ValueError(f"cannot read cost part {part!r} in {text!r}")
        return cls(ManaCost.parse(mana), tap, untap, sac_self, sac, tap_other, remove, exert, text)

    @property
    def has_x(self) -> bool:
        return bool(self.mana.x_count) or (
            self.remove_counters is not None and self.remove_counters[1] == "X"
        )
