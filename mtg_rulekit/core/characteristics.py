"""Characteristics: the frozen record of what an object is (CR 109.3), kept apart from its status.

Copiable values (CR 707.2) are exactly these fields, so a copy effect replaces the whole record and
never touches status such as tapped, counters or attachments.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import ClassVar

from mtg_rulekit.core.mana import ManaCost, ManaType

CARD_TYPES = (
    "Artifact", "Battle", "Creature", "Enchantment", "Instant", "Kindred", "Land",
    "Planeswalker", "Sorcery",
)
SUPERTYPES = ("Basic", "Legendary", "Snow", "World", "Token")
BASIC_LAND_TYPES = {
    "Plains": ManaType.W,
    "Island": ManaType.U,
    "Swamp": ManaType.B,
    "Mountain": ManaType.R,
    "Forest": ManaType.G,
}
DASH = "\u2014"


def parse_type_line(line: str) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """Split `Legendary Creature — Elf Druid` into (supertypes, card types, subtypes)."""
    left, _, right = line.partition(DASH)
    if not _:
        left, _, right = line.partition(" - ")
    words = left.split()
    supers = tuple(w for w in words if w in SUPERTYPES and w != "Token")
    types = tuple(w for w in words if w in CARD_TYPES)
    unknown = [w for w in words if w not in SUPERTYPES and w not in CARD_TYPES]
    if unknown or not types:
        raise ValueError(f"cannot read type line {line!r}")
    return supers, types, tuple(right.split())


@dataclass(frozen=True, eq=False)
class Ability:
    """Base of every ability (`mtg_rulekit.objects.abilities` has the kinds): it keeps its rules
    text for display. Kept here, below the abilities' callbacks, so that what an object is
    (and the game state that holds objects) never names the rules context those callbacks
    take."""

    text: str
    family: ClassVar[AbilityKind]  # what kind of ability it is in the rules (set below)

    @property
    def kind(self) -> str:
        return type(self).__name__.lower()


class AbilityKind(str, Enum):
    """The rules' kinds of ability (CR 113.3): what a payload says of an ability, so the
    narrator names it ("Forest's ability", "the 'when this creature enters' ability") from
    this fact, not from its text."""

    ACTIVATED = "activated"  # cost: effect (CR 602), mana abilities too (605)
    TRIGGERED = "triggered"  # when, whenever, at (CR 603), ward too (702.21)
    STATIC = "static"  # CR 604, keywords such as flying
    SPELL = "spell"  # an instant's or sorcery's effect (CR 113.3a)


Ability.family = AbilityKind.STATIC


@dataclass(frozen=True, eq=False)
class Keyword(Ability):
    """A keyword ability such as Flying, Haste or Vigilance (CR 702)."""

    keyword: str = ""


@dataclass(frozen=True)
class Characteristics:
    """Name, cost, colors, types, P/T, abilities and rules text of an object (CR 109.3)."""

    name: str
    mana_cost: ManaCost = field(default_factory=ManaCost)
    colors: frozenset[ManaType] = frozenset()
    supertypes: tuple[str, ...] = ()
    types: tuple[str, ...] = ()
    subtypes: tuple[str, ...] = ()
    power: int | None = None
    toughness: int | None = None
    abilities: tuple[Ability, ...] = ()
    oracle: str = ""

    def is_a(self, card_type: str) -> bool:
        return card_type in self.types

    def has_keyword(self, keyword: str) -> bool:
        return any(getattr(a, "keyword", None) == keyword for a in self.abilities)

    @property
    def type_line(self) -> str:
        left = " ".join((*self.supertypes, *self.types))
        return f"{left} {DASH} {' '.join(self.subtypes)}" if self.subtypes else left

    def mana_value(self, x: int = 0) -> int:
        """Mana value (CR 202.3): the total of the mana cost, each {X} counting as `x`, the
        number chosen for it while the object is on the stack, and 0 anywhere else (202.3e)."""
        return self.mana_cost.mana_value() + self.mana_cost.x_count * x

    @property
    def pt(self) -> str:
        return f"{self.power}/{self.toughness}" if self.power is not None else ""

    def to_json(self) -> dict[str, object]:
        """The copiable values in plain data (abilities by their rules text)."""
        return {"name": self.name, "mana_cost": str(self.mana_cost) if self.mana_cost.text else "",
                "type_line": self.type_line, "pt": self.pt,
                "colors": sorted(c.value for c in self.colors),
                "abilities": [a.text for a in self.abilities]}

    def evolve(self, **changes: object) -> Characteristics:
        """A changed copy (characteristics are immutable)."""
        return replace(self, **changes)  # type: ignore[arg-type]


REMINDER = re.compile(r"\s*\([^)]*\)")  # reminder text in parentheses


@dataclass(frozen=True)
class CardDef:
    """A card (or predefined token) as printed: its copiable values and Oracle text."""

    name: str
    printed: Characteristics
    token: bool = False

    @property
    def oracle(self) -> str:
        return self.printed.oracle

    def unmodelled(self) -> list[str]:
        """Oracle paragraphs (reminder text left out) that no ability of the card says: each
        paragraph must be the text of one ability, or of several in a row (exert and its "when
        you do"). `Game.add` refuses a card with any, rather than approximate it."""
        texts = [a.text for a in self.printed.abilities]
        runs = {" ".join(texts[i:j]) for i in range(len(texts))
                for j in range(i + 1, len(texts) + 1)}
        out = []
        for paragraph in self.oracle.split("\n"):
            said = REMINDER.sub("", paragraph).strip()
            if said and said not in runs:
                out.append(said)
        return out
