"""Mana abilities activated while paying (decision `mana_abilities`, CR 601.2g, 605.3a): an
answer names the permanent and, when it has several mana abilities, the mana one makes,
written as the `mana` argument is: one mana or several ("#7:GG", "#7:{R}{R}{G}", any case).
An ability that makes two or three mana and has a sacrifice cost can be chosen so."""

from __future__ import annotations

import pytest

from mtg_rulekit import Game, UsageError
from tests.helpers import pool


@pytest.mark.parametrize("written", ["GG", "{G}{G}", "gg", "{g}G"])
def test_havenwood_battlegrounds_sacrifice_ability_pays_while_casting(written):
    """{T}, Sacrifice this land: Add {G}{G}: chosen by the mana it makes, while casting."""
    game = Game()
    land = game.add("Havenwood Battleground", sick=False)
    bears = game.add("Grizzly Bears", zone="hand")
    game.cast(bears, mana_abilities=[f"#{land.id}:{written}"])
    assert pool(game) == [] and game.find_all("Grizzly Bears", zone="stack")
    assert game.obj(land.id).zone.value == "nowhere" and game.find_all(
        "Havenwood Battleground", zone="graveyard")  # sacrificed (CR 701.21a)
    assert game.actions[-1][1]["decisions"] == {"mana_abilities": [f"#{land.id}:{written}"]}
    assert game.replay().snapshot_json() == game.snapshot_json()


def test_the_plain_ability_is_still_chosen_by_one_mana():
    game = Game()
    land = game.add("Havenwood Battleground", sick=False)
    game.tap_for_mana(game.add("Forest"))
    game.cast(game.add("Grizzly Bears", zone="hand"), mana_abilities=[f"#{land.id}:G"])
    assert game.obj(land.id).tapped and game.obj(land.id).zone.value == "battlefield"


def test_goblin_clearcutter_makes_three_mana_sacrificing_a_forest_while_casting():
    """{T}, Sacrifice a Forest: Add three mana in any combination of {R} and/or {G}."""
    game = Game()
    cutter = game.add("Goblin Clearcutter", sick=False)
    game.add("Forest")
    forest = game.add("Forest")
    game.cast(game.add("Grizzly Bears", zone="hand"), mana_abilities=[f"#{cutter.id}:RRG"],
              sacrifice=forest.id)
    assert pool(game) == ["R"]  # {R}{R}{G} made, {1}{G} paid
    assert game.obj(forest.id).zone.value == "nowhere" and cutter.tapped  # the one chosen
    assert game.find_all("Forest")  # the other stays
    said = [(d.key, d.answer, d.given) for d in game.decisions if d.key == "sacrifice"]
    assert said == [("sacrifice", forest.id, True)]
    assert game.replay().snapshot_json() == game.snapshot_json()


@pytest.mark.parametrize("written", ["#1:GQ", "#1:", "#1:2", "#x:G", "#1:" + "G" * 300])
def test_an_answer_that_is_no_mana_is_refused_naming_it(written):
    game = Game()
    game.add("Havenwood Battleground", sick=False)
    bears = game.add("Grizzly Bears", zone="hand")
    with pytest.raises(UsageError, match=r"^decisions\.mana_abilities: "):
        game.cast(bears, mana_abilities=[written])
    assert bears.zone.value == "hand"
