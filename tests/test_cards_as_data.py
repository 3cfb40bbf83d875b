"""A card made only of simple abilities is one catalog entry: its Oracle text declares its
abilities (mtg_rulekit.cards.oracle), so adding a mana creature needs no code (docs/engine.md)."""

from __future__ import annotations

import tomllib

import pytest

from mtg_rulekit import Game, RulesError
from mtg_rulekit.cards import card_from_entry, catalog
from mtg_rulekit.cards.oracle import read_simple

ELVISH_MYSTIC = tomllib.loads('''
[[card]]
name = "Elvish Mystic"
mana_cost = "{G}"
type_line = "Creature — Elf Druid"
oracle = "{T}: Add {G}."
power = 1
toughness = 1
''')["card"][0]


@pytest.fixture
def mystic_in_catalog():
    cards = catalog()
    cards["Elvish Mystic"] = card_from_entry(ELVISH_MYSTIC)
    yield
    del cards["Elvish Mystic"]


@pytest.mark.usefixtures("mystic_in_catalog")
def test_a_mana_creature_is_one_catalog_entry():
    game = Game()
    elf = game.add("Elvish Mystic", sick=False)
    game.tap_for_mana(elf)
    assert [u.type.value for u in game.pool("Alice")] == ["G"]
    sick = game.add("Elvish Mystic", sick=True)
    with pytest.raises(RulesError, match="302.6"):
        game.tap_for_mana(sick)


def test_only_simple_text_is_read():
    assert [a.text for a in read_simple("Flying\n{T}: Add {C}{C}.")] == [
        "Flying", "{T}: Add {C}{C}."]
    assert read_simple("{T}: Add {G}. Activate only as a sorcery.") is None
    with pytest.raises(LookupError, match="needs a behaviour"):
        card_from_entry({**ELVISH_MYSTIC, "name": "Odd Elf",
                         "oracle": "{T}: Draw a card."})
