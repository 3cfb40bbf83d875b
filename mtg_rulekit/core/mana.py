"""Mana: the six types, units that remember their source and restriction, costs and paying them.

CR 106.1a-b: the five colors and colorless are the six types of mana; colorless is a type, not a color.
CR 106.6: some mana can be spent only in certain ways (a spending restriction).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import Enum

from mtg_rulekit.core.errors import RulesError


class ManaType(str, Enum):
    """The six types of mana (CR 106.1b). `C` is colorless: a type, never a color."""

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


def sort_types(types: Iterable[ManaType]) -> list[ManaType]:
    """Types in WUBRGC order (deterministic display)."""
    return sorted(types, key=_ORDER.__getitem__)


def _amount_text(symbol: str, n: int) -> str:
    """`{G}{G}` for a few, `12 x {G}` past eight (huge amounts stay short: 2^64 mana is one line)."""
    return symbol * n if n <= 8 else f"{n:,} x {symbol}"


def pool_text(mana: Mana | ManaPool, *, words: bool = False) -> str:
    """`{G}{G} and {C} (can't be spent to cast a nonartifact spell)`: the mana in a sentence,
    each restriction and rider in its full words; "no mana" if empty. `words=True`: the notation
    every view shows instead (`shown`)."""
    groups: dict[tuple[ManaType, Restriction | None, Rider | None], int] = {}
    for u, n in mana.parts:
        key = (u.type, u.restriction, u.rider)
        groups[key] = groups.get(key, 0) + n
    parts = []
    for (t, r, d), n in sorted(groups.items(), key=lambda kv: (
            kv[0][1] is not None, kv[0][2] is not None, _ORDER[kv[0][0]])):
        notes = [x.words if words else x.text for x in (r, d) if x is not None]
        parts.append(_amount_text(t.symbol, n) + (f" ({'; '.join(notes)})" if notes else ""))
    return " and ".join(parts) if parts else "no mana"


def shown(mana: Mana | ManaPool) -> str:
    """The one notation for mana in every view (`run`, the pages' tables, board and questions):
    its symbols, and after a group with a restriction or a rider (CR 106.6) their few words in
    parentheses: `{G}{G} and {C}{C} (not for nonartifact spells)`, `{R} (gives haste)`; "no
    mana" if empty. Scenario files write the same mana `"C (powerstone)"`, `"R +haste"`."""
    return pool_text(mana, words=True)


def spent_text(mana: Mana) -> str:
    """The symbols of mana in the order given (`{G}{C}`), counted past eight of a kind."""
    return "".join(_amount_text(u.type.symbol, n) for u, n in mana.parts) or "no mana"


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

    @property
    def words(self) -> str:
        """The restriction in the few words every view shows next to the mana (`shown`)."""
        if self.key == "powerstone":
            return "not for nonartifact spells"
        return f"only {self.creature_type} spells"

    @property
    def made_by(self) -> str:
        """Whose mana it is, said aloud: "Powerstone", "Cavern of Souls"."""
        return {"powerstone": "Powerstone", "cavern": "Cavern of Souls"}.get(self.key, self.key)

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


@dataclass(frozen=True)
class Rider:
    """An extra effect of mana when it is spent (CR 106.6): Arena of Glory's haste, Cavern of
    Souls' "that spell can't be countered". It never changes what the mana can pay for."""

    key: str  # "haste" | "uncounterable"
    text: str

    @property
    def words(self) -> str:
        """The rider in the few words every view shows next to the mana (`shown`)."""
        return {"haste": "gives haste"}.get(self.key, "can't be countered")


HASTE_RIDER = Rider("haste", "a creature spell it is spent on gains haste until end of turn")
UNCOUNTERABLE = Rider("uncounterable", "a creature spell it is spent on can't be countered")


def cavern(creature_type: str) -> Restriction:
    return Restriction(
        "cavern", f"spend only to cast a {creature_type} creature spell", creature_type
    )


@dataclass(frozen=True, slots=True)
class ManaUnit:
    """One mana in a pool: its type, the object it came from, and any restriction."""

    type: ManaType
    source: int | None = None
    source_name: str = ""
    restriction: Restriction | None = None
    rider: Rider | None = None

    def text(self) -> str:
        notes = [x.text for x in (self.restriction, self.rider) if x is not None]
        extra = f" ({'; '.join(notes)})" if notes else ""
        return f"{self.type.symbol}{extra}"

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"type": self.type.value, "source": self.source}
        if self.restriction:
            out["restriction"] = self.restriction.text
        if self.rider:
            out["rider"] = self.rider.text
        if self.restriction or self.rider:  # as every view shows it (`shown`)
            out["words"] = "; ".join(x.words for x in (self.restriction, self.rider)
                                     if x is not None)
        return out


@dataclass(frozen=True, slots=True)
class Mana:
    """An amount of mana as counts, in order: `((unit, how many), ...)`.

    What an ability adds, a cost spends or a pool holds is kept as counts, never as one object
    per mana, so a Forest doubled by 64 Mana Reflections (2^64 mana) is as small as {G}{G}.

    >>> g = ManaUnit(ManaType.G, 1, "Forest")
    >>> Mana.of([g, g]).times(2**63).total == 2**64
    True
    """

    parts: tuple[tuple[ManaUnit, int], ...] = ()

    @classmethod
    def of(cls, units: Iterable[ManaUnit]) -> Mana:
        """Equal units counted together, in the order each kind first appears."""
        counts: dict[ManaUnit, int] = {}
        for u in units:
            counts[u] = counts.get(u, 0) + 1
        return cls(tuple(counts.items()))

    @property
    def total(self) -> int:
        return sum(n for _, n in self.parts)

    def __bool__(self) -> bool:
        return any(n for _, n in self.parts)

    def units(self) -> Iterator[ManaUnit]:
        """Each mana one by one (for small amounts: a test, a table)."""
        for u, n in self.parts:
            for _ in range(n):
                yield u

    def types(self) -> frozenset[ManaType]:
        return frozenset(u.type for u, n in self.parts if n)

    def times(self, factor: int) -> Mana:
        """N times as much of that mana (Mana Reflection, CR 106.12b)."""
        return Mana(tuple((u, n * factor) for u, n in self.parts))

    def first(self) -> ManaUnit | None:
        return next((u for u, n in self.parts if n), None)

    def to_json(self) -> list[dict[str, object]]:
        return [{**u.to_json(), "n": n} for u, n in self.parts]


class ManaPool:
    """A player's mana pool (CR 106.4): counts by (type, source, restriction), in arrival order.

    Iterating yields each mana one by one, for small pools (tests, notebooks); `parts` and
    `total` work at any size.
    """

    __slots__ = ("_counts",)

    def __init__(self, mana: Mana | None = None) -> None:
        self._counts: dict[ManaUnit, int] = {}
        if mana is not None:
            self.add(mana)

    @property
    def parts(self) -> tuple[tuple[ManaUnit, int], ...]:
        return tuple(self._counts.items())

    def contents(self) -> Mana:
        return Mana(self.parts)

    @property
    def total(self) -> int:
        return sum(self._counts.values())

    def add(self, mana: Mana) -> None:
        for u, n in mana.parts:
            if n:
                self._counts[u] = self._counts.get(u, 0) + n

    def spend(self, mana: Mana) -> None:
        for u, n in mana.parts:
            left = self._counts.get(u, 0) - n
            if left < 0:
                raise AssertionError(f"the pool has no {n} x {u.text()} to spend")
            if left:
                self._counts[u] = left
            else:
                del self._counts[u]

    def clear(self) -> Mana:
        """Empty the pool; returns what was in it."""
        gone = self.contents()
        self._counts.clear()
        return gone

    def __bool__(self) -> bool:
        return bool(self._counts)

    def __iter__(self) -> Iterator[ManaUnit]:
        return self.contents().units()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ManaPool):
            return self._counts == other._counts
        if isinstance(other, (list, tuple)):
            return Mana.of(other).parts == self.parts if self.total == len(other) else False
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<ManaPool {pool_text(self)}>"

    def to_json(self) -> list[dict[str, object]]:
        return self.contents().to_json()


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
        """The cost to pay once X is chosen (CR 601.2b, 107.3), written with X's value:
        `{X}{G}` with X=2 is `{2}{G}`, so refusals show what is really owed."""
        if x < 0:
            raise RulesError("X can't be negative", rule="107.3")
        if not self.x_count:
            return self
        return ManaCost.of(self.generic + x * self.x_count, self.colored)

    @classmethod
    def of(cls, generic: int, colored: tuple[ManaType, ...]) -> ManaCost:
        """A cost with no X, its text written out: `{3}{G}{G}`; `{0}` when free."""
        text = (f"{{{generic}}}" if generic else "") + "".join(t.symbol for t in colored)
        return cls(generic, colored, 0, text or "{0}")

    def is_free(self) -> bool:
        return self.generic == 0 and not self.colored and self.x_count == 0

    def __str__(self) -> str:
        return self.text or "{0}"


def plan_payment(pool: Mana | ManaPool, cost: ManaCost, ctx: SpendContext) -> Mana | None:
    """Choose which mana of `pool` pays `cost`, honouring restrictions (CR 106.6, 601.2h).

    Returns the mana to spend (in pool order), or None if no valid assignment exists.
    Restricted mana is used first where it is allowed, so free mana is kept for what only it
    can pay. Deterministic; works on counts, so its cost doesn't grow with the amount of mana.
    """
    if cost.x_count:
        raise ValueError("choose X before paying")
    order = [u for u, _ in pool.parts]
    avail = dict(pool.parts)
    usable = [u for u in order if u.restriction is None or u.restriction.allows(ctx)]
    usable.sort(key=lambda u: u.restriction is None)  # stable: restricted first, then pool order
    chosen: dict[ManaUnit, int] = {}
    if not _assign(avail, usable, list(cost.colored), chosen):
        return None
    need = cost.generic
    for u in usable:
        if not need:
            break
        take = min(avail[u] - chosen.get(u, 0), need)
        if take > 0:
            chosen[u] = chosen.get(u, 0) + take
            need -= take
    if need:
        return None
    return Mana(tuple((u, chosen[u]) for u in order if chosen.get(u)))


def _assign(avail: dict[ManaUnit, int], usable: list[ManaUnit], needs: list[ManaType],
            chosen: dict[ManaUnit, int]) -> bool:
    """Backtracking match of colored/colorless symbols to kinds of mana (few symbols)."""
    if not needs:
        return True
    need, rest = needs[0], needs[1:]
    tried: set[tuple[ManaType, Restriction | None]] = set()
    for u in usable:
        key = (u.type, u.restriction)
        if u.type is not need or key in tried or chosen.get(u, 0) >= avail[u]:
            continue
        tried.add(key)
        chosen[u] = chosen.get(u, 0) + 1
        if _assign(avail, usable, rest, chosen):
            return True
        chosen[u] -= 1
        if not chosen[u]:
            del chosen[u]
    return False


# ------------------------------------------------------------------ scenario notation
# How scenarios write a unit of mana: `G`, `C (powerstone)`, `W (cavern:Elf)`; declared here,
# once, next to the mana it names (the scenario runner and `set_pool` both use it).
def restriction_named(key: str | None, creature_type: str = "Human") -> Restriction | None:
    """The spending restriction a scenario names ("powerstone", "cavern"); None for none;
    ValueError for an unknown name."""
    if not key:
        return None
    if key == "powerstone":
        return POWERSTONE
    if key == "cavern":
        return cavern(creature_type)
    raise ValueError(f"unknown mana restriction {key!r}")


def unit_notation(unit: ManaUnit) -> str:
    """A unit of mana in scenario notation: `G`, `C (powerstone)`, `W (cavern:Elf)`."""
    r = unit.restriction
    if r is None:
        return unit.type.value
    if r.key == "cavern":
        return f"{unit.type.value} (cavern:{r.creature_type})"
    return f"{unit.type.value} ({r.key})"


def notation_parts(text: str) -> dict[str, str]:
    """`"C (powerstone)"` -> `{"type": "C", "restriction": "powerstone"}` (what `set_pool`
    takes); `"W (cavern:Elf)"` adds `"creature_type": "Elf"`."""
    kind, _, rest = text.partition(" ")
    out = {"type": kind}
    rest = rest.strip("()")
    if rest:
        key, _, creature = rest.partition(":")
        out["restriction"] = key
        if creature:
            out["creature_type"] = creature
    return out


def _notation_unit(text: str) -> tuple[ManaUnit, int] | None:
    """`"2 x C (powerstone)"` -> (that unit, 2); None for text that isn't mana notation."""
    m = re.fullmatch(r"(?:([0-9][0-9,]*) x )?([WUBRGC])(?: \(([a-z]+)(?::([^)]*))?\))?"
                     r"((?: \+[a-z]+)*)", text)
    if m is None:
        return None
    count, kind, key, creature, riders = m.groups()
    try:
        restriction = restriction_named(key, creature or "Human")
    except ValueError:
        return None
    found = [{"haste": HASTE_RIDER, "uncounterable": UNCOUNTERABLE}.get(r)
             for r in riders.split(" +")[1:]]
    if None in found:
        return None
    unit = ManaUnit(ManaType(kind), restriction=restriction,
                    rider=found[0] if found else None)
    return unit, int(count.replace(",", "")) if count else 1


def notation_shown(text: str | Iterable[str]) -> str:
    """Mana in scenario notation as every view shows it (`shown`): `"C (powerstone)"` ->
    `"{C} (not for nonartifact spells)"`, `"R +haste"` -> `"{R} (gives haste)"`, `"2 x G"` ->
    `"{G}{G}"`, a pool's list `["G", "C (powerstone)"]` -> `"{G} and {C} (not for nonartifact
    spells)"`; text that isn't mana notation is returned as it is (a list: its items joined)."""
    items = [text] if isinstance(text, str) else list(text)
    units = [_notation_unit(t) for t in items]
    if not all(units):
        return ", ".join(items)
    return shown(Mana(tuple(u for u in units if u is not None)))


def sort_notation(items: Iterable[str]) -> list[str]:
    """Mana in notation in WUBRGC order (then by restriction)."""
    order = {t.value: i for i, t in enumerate(TYPES)}
    return sorted(items, key=lambda s: (order.get(s[:1], 9), s))
