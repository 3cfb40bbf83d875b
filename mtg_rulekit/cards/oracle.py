"""Simple abilities read straight from their Oracle text, so a card made only of them needs no
code: a catalog entry is the whole declaration (see docs/engine.md, "Adding a card").

Read: keyword lines ("Flying", "Haste"...), "{T}: Add {G}." (any fixed mana, e.g. "{C}{C}")
and "{T}: Add one mana of any color.". Anything else needs a behaviour
registered with `mtg_rulekit.cards.behaviour`; `read_simple` returns None for such a text.
"""

from __future__ import annotations

import re

from mtg_rulekit.cards.build import keyword, mana
from mtg_rulekit.core.characteristics import REMINDER
from mtg_rulekit.objects.abilities import Ability
from mtg_rulekit.objects.production import AnyColor, Fixed

KEYWORDS = ("Flying", "Haste", "Vigilance", "Lifelink", "Trample", "Reach", "Deathtouch",
            "First strike", "Defender", "Phasing")
_FIXED = re.compile(r"\{T\}: Add ((?:\{[WUBRGC]\})+)\.")


def read_ability(text: str) -> Ability | None:
    """The ability an Oracle paragraph (reminder text aside) says, if it is a simple one."""
    said = REMINDER.sub("", text).strip()
    if said in KEYWORDS:
        return keyword(said)
    if said == "{T}: Add one mana of any color.":
        return mana("{T}", AnyColor(), said)
    if m := _FIXED.fullmatch(said):
        return mana("{T}", Fixed(m.group(1).replace("{", "").replace("}", "")), said)
    return None


def read_simple(oracle: str) -> list[Ability] | None:
    """Every ability of a card whose Oracle text is only simple abilities, else None."""
    abilities = []
    for paragraph in (p for p in oracle.split("\n") if p.strip()):
        ability = read_ability(paragraph)
        if ability is None:
            return None
        abilities.append(ability)
    return abilities
