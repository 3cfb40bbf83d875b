"""The card catalog: Oracle data from `catalog.toml` plus behaviour written once per card.

`catalog.toml` holds each card's real Oracle text and printed characteristics (data); the
modules named by mechanic (`lands`, `mana_sources`, `mana_effects`, `artifacts`, `copies`,
`exert`, `control`, `spells`, `zones`; shared pieces in `common` and `build`) register each card's
abilities by card name.
"""

from __future__ import annotations

import difflib
import tomllib
from functools import cache, partial
from importlib import resources
from typing import Any

from mtg_rulekit.cards.registry import _BEHAVIOURS, AbilityFactory, behaviour
from mtg_rulekit.core.characteristics import CardDef, Characteristics, parse_type_line
from mtg_rulekit.core.decisions import shown
from mtg_rulekit.core.errors import UnknownCard, UsageError
from mtg_rulekit.core.mana import ManaCost, ManaType


def _pt(value: object) -> int | None:
    if value is None:
        return None
    return 0 if str(value) == "*" else int(str(value))


def card_from_entry(entry: dict[str, Any]) -> CardDef:
    """A card from its catalog entry: printed characteristics from the data, abilities from
    the behaviour registered for its name, or, for a card of simple abilities only (keywords,
    "{T}: Add {G}."), read from its Oracle text (`mtg_rulekit.cards.oracle`)."""
    _register_behaviours()
    name = entry["name"]
    supers, types, subs = parse_type_line(entry["type_line"])
    cost = ManaCost.parse(entry.get("mana_cost", ""))
    colors = (
        frozenset(ManaType(c) for c in entry["colors"])
        if "colors" in entry
        else cost.colors()
    )
    factory = _BEHAVIOURS.get(name)
    if factory is None:  # a card of simple abilities only: its Oracle text declares them
        from mtg_rulekit.cards.oracle import read_simple

        simple = read_simple(entry.get("oracle", ""))
        if simple is None:
            raise LookupError(f"card {name!r} has Oracle text that needs a behaviour, and "
                              "none is registered")
        factory = partial(list, simple)
    printed = Characteristics(
        name=name,
        mana_cost=cost,
        colors=colors,
        supertypes=supers,
        types=types,
        subtypes=subs,
        power=_pt(entry.get("power")),
        toughness=_pt(entry.get("toughness")),
        abilities=tuple(factory()),
        oracle=entry.get("oracle", ""),
    )
    return CardDef(name, printed, bool(entry.get("token", False)))


def _register_behaviours() -> None:
    from mtg_rulekit.cards import (  # noqa: F401  (each registers its cards' behaviours)
        artifacts,
        common,
        control,
        copies,
        exert,
        lands,
        mana_effects,
        mana_sources,
        spells,
        zones,
    )


def _load() -> dict[str, CardDef]:
    _register_behaviours()
    raw = tomllib.loads(resources.files("mtg_rulekit.cards").joinpath("catalog.toml").read_text("utf-8"))
    cards = {entry["name"]: card_from_entry(entry) for entry in raw["card"]}
    missing = sorted(set(_BEHAVIOURS) - set(cards))
    if missing:
        raise LookupError(f"behaviours without Oracle data: {missing}")
    return cards


@cache
def catalog() -> dict[str, CardDef]:
    """Every card the engine supports, by name."""
    return _load()


def card(name: str) -> CardDef:
    """The card called `name` (any case). A name that is not text is a `UsageError`; an unknown
    one an `UnknownCard` (a `UsageError` and a `LookupError`) suggesting the closest names."""
    if not isinstance(name, str):
        raise UsageError("card", f"expected a card name, got {shown(name)}")
    cards = catalog()
    if name in cards:
        return cards[name]
    folded = {n.casefold(): n for n in cards}
    if name.casefold() in folded:
        return cards[folded[name.casefold()]]
    close = difflib.get_close_matches(name, list(cards), n=3, cutoff=0.6) \
        if len(name) <= _LONGEST_NAME else []
    hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    raise UnknownCard("card", f"unknown card {shown(name, 80)}{hint}")


_LONGEST_NAME = 200
"""Longer than any card's name: no "did you mean" is looked for past it."""


__all__ = ["AbilityFactory", "behaviour", "card", "card_from_entry", "catalog"]
