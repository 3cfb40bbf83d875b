"""Mana: the six types, units that remember their source and restriction, costs and paying them.

CR 106.1: the five colors and colorless are the six types of mana; colorless is a type, not a color.
CR 106.6: some mana can be spent only in certain ways (a spending restriction).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from rulekit.errors import RulesError


class ManaType(str, Enum):
    """The six types of mana (CR 106.1). `C` is colorless: a type, never a color."""

    W = "W"
    U = "U"
    B = "B"
    R = "R"
    G = "G"
    C = "C"

    @property
    def is_color(self) -> bool:
        return self is not ManaType.C

    @property
    def symbol(self) -> str:
        return "{" + self.value + "}"

    @property
    def word(self) -> str:
        return _WORDS[self]


_WORDS = {
    ManaType.W: "white",
    ManaType.U: "blue",
    ManaType.B: "black",
    ManaType.R: "red",
    ManaType.G: "green",
    ManaType.C: "colorless",
}
COLORS: tuple[ManaType, ...] = (ManaType.W, ManaType.U, ManaType.B, ManaType.R, ManaType.G)
TYPES: tuple[ManaType, ...] = (*COLORS, ManaType.C)
_ORDER = {t: i for i, t in enumerate(TYPES)}


def sort_types(types: object) -> list[ManaType]:
    """Types in WUBRGC order (deterministic display)."""
    return sorted(types, key=_ORDER.__getitem__)  # type: ignore[arg-type]


def pool_text(units: list[ManaUnit]) -> str:
    """`{G}{G} and 2 x {C} (can't be spent to cast a nonartifact spell)`; "no mana" if empty."""
    groups: dict[tuple[ManaType, Restriction | None], int] = {}
    for u in units:
        groups[(u.type, u.restriction)] = groups.get((u.type, u.restriction), 0) + 1
    parts = []
    for (t, r), n in sorted(groups.items(), key=lambda kv: (kv[0][1] is not None, _ORDER[kv[0][0]])):
        parts.append(f"{t.symbol * n}" + (f" ({r.text})" if r else ""))
    return " and ".join(parts) if parts else "no mana"


def types_text(types: object) -> str:
    """`{W}{G}` style text for a collection of types; "nothing" when empty."""
    ordered = sort_types(types)
    return "".join(t.symbol for t in ordered) if ordered else "nothing"


@dataclass(frozen=True)
class SpendContext:
    """What mana is being spent on, so restrictions can be judged (CR 106.6)."""

    purpose: str  # "cast" | "activate" | "ward" | "other"
    is_artifact_spell: bool = False
    is_creature_spell: bool = False
    creature_types: frozenset[str] = frozenset()
    text: str = ""


@dataclass(frozen=True)
class Restriction:
    """A named spending restriction with its plain-words text (CR 106.6)."""

    key: str
    text: str
    creature_type: str = ""

    def allows(self, ctx: SpendContext) -> bool:
        if self.key == "powerstone":
            # "This mana can't be spent to cast a nonartifact spell."
            return not (ctx.purpose == "cast" and not ctx.is_artifact_spell)
        if self.key == "cavern":
            return (
                ctx.purpose == "cast"
                and ctx.is_creature_spell
                and self.creature_type in ctx.creature_types
            )
        raise AssertionError(f"unknown restriction {self.key}")


POWERSTONE = Restriction("powerstone", "can't be spent to cast a nonartifact spell")


def cavern(creature_type: str) -> Restriction:
    return Restriction(
        "cavern", f"spend only to cast a {creature_type} creature spell", creature_type
    )


@dataclass(frozen=True)
class ManaUnit:
    """One mana in a pool: its type, the object it came from, and any restriction."""

    type: ManaType
    source: int | None = None
    source_name: str = ""
    restriction: Restriction | None = None

    def text(self) -> str:
        extra = f" ({self.restriction.text})" if self.restriction else ""
        return f"{self.type.symbol}{extra}"

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"type": self.type.value, "source": self.source}
        if self.restriction:
            out["restriction"] = self.restriction.text
        return out


_SYMBOL = re.compile(r"\{([^}]*)\}")


@dataclass(frozen=True)
class ManaCost:
    """A mana cost such as `{X}{X}` or `{2}{G}{G}`: generic, colored, colorless and X symbols."""

    generic: int = 0
    colored: tuple[ManaType, ...] = ()  # includes {C} symbols
    x_count: int = 0
    text: str = ""

    @classmethod
    def parse(cls, text: str) -> ManaCost:
        text = text.strip()
        if _SYMBOL.sub("", text).strip():
            raise ValueError(f"not a mana cost: {text!r}")
        generic, colored, xs = 0, [], 0
        for sym in _SYMBOL.findall(text):
            if sym.isdigit():
                generic += int(sym)
            elif sym == "X":
                xs += 1
            elif sym in ManaType.__members__:
                colored.append(ManaType(sym))
            else:
                raise ValueError(f"unsupported mana symbol {{{sym}}} in {text!r}")
        return cls(generic, tuple(colored), xs, text)

    def mana_value(self) -> int:
        """Mana value (CR 202.3); X counts as 0 off the stack."""
        return self.generic + len(self.colored)

    def colors(self) -> frozenset[ManaType]:
        return frozenset(t for t in self.colored if t.is_color)

    def with_x(self, x: int) -> ManaCost:
        """The cost to pay once X is chosen (CR 601.2b, 107.3)."""
        if x < 0:
            raise RulesError("X can't be negative", rule="107.3")
        return ManaCost(self.generic + x * self.x_count, self.colored, 0, self.text)

    def is_free(self) -> bool:
        return self.generic == 0 and not self.colored and self.x_count == 0

    def __str__(self) -> str:
        return self.text or "{0}"


def plan_payment(
    pool: list[ManaUnit], cost: ManaCost, ctx: SpendContext
) -> list[int] | None:
    """Choose which units of `pool` pay `cost`, honouring restrictions (CR 106.6, 601.2h).

    Returns the indexes used, or None if no valid assignment exists. Restricted units are used
    first where they are allowed, so free mana is kept for what only it can pay. Deterministic.
    """
    if cost.x_count:
        raise ValueError("choose X before paying")
    usable = [i for i, u in enumerate(pool) if u.restriction is None or u.restriction.allows(ctx)]
    # restricted first, then by position: keeps unrestricted mana for later
    usable.sort(key=lambda i: (pool[i].restriction is None, i))
    needs = list(cost.colored)
    chosen: list[int] = []
    if not _assign(pool, usable, needs, chosen):
        return None
    rest = [i for i in usable if i not in chosen]
    if len(rest) < cost.generic:
        return None
    return sorted(chosen + rest[: cost.generic])


def _assign(pool: list[ManaUnit], usable: list[int], needs: list[ManaType], chosen: list[int]) -> bool:
    """Backtracking match of colored/colorless symbols to units (tiny sizes in practice)."""
    if not needs:
        return True
    need, rest = needs[0], needs[1:]
    tried: set[tuple[ManaType, Restriction | None]] = set()
    for i in usable:
        unit = pool[i]
        key = (unit.type, unit.restriction)
        if i in chosen or unit.type is not need or key in tried:
            continue
        tried.add(key)
        chosen.append(i)
        if _assign(pool, usable, rest, chosen):
            return True
        chosen.pop()
    return False
