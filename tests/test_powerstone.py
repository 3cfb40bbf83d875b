"""R10 (Powerstone is a predefined token with restricted {C}) and R12 (what that mana pays)."""

import pytest

from rulekit import EventKind, Game, RulesError
from rulekit.cards import card
from tests.helpers import pool

R10 = pytest.mark.ruling("R10")
R12 = pytest.mark.ruling("R12")


def powerstones(n: int, game: Game | None = None) -> Game:
    game = game or Game()
    for _ in range(n):
        game.add("Powerstone")
    for stone in game.find_all("Powerstone"):
        game.tap_for_mana(stone)
    return game


@R10
def test_powerstone_is_a_predefined_artifact_token():
    stone = card("Powerstone")
    assert stone.token
    assert stone.printed.types == ("Artifact",) and stone.printed.subtypes == ("Powerstone",)
    assert stone.oracle == "{T}: Add {C}. This mana can't be spent to cast a nonartifact spell."


@R10
def test_powerstone_adds_restricted_colorless():
    game = powerstones(1)
    (unit,) = game.pool("Alice")
    assert unit.type.value == "C"
    assert unit.restriction is not None and "nonartifact" in unit.restriction.text


@R10
def test_fallaji_excavation_creates_three_tapped_powerstones():
    game = Game()
    for _ in range(5):
        game.tap_for_mana(game.add("Forest"))
    game.cast(game.add("Fallaji Excavation", zone="hand"))
    game.resolve()
    stones = game.find_all("Powerstone")
    assert len(stones) == 3 and all(s.tapped and s.token for s in stones)
    created = game.log.of_kind(EventKind.TOKEN_CREATED)
    assert all(e.data["tapped"] for e in created), "tapped because the effect says so"
    assert game.state.players["Alice"].life == 23


@R12
def test_powerstone_mana_cannot_cast_a_nonartifact_spell():
    game = powerstones(2)
    bears = game.add("Grizzly Bears", zone="hand")
    before = game.snapshot_json()
    with pytest.raises(RulesError) as err:
        game.cast(bears)
    assert err.value.rule == "106.6"
    assert game.snapshot_json() == before


@R12
def test_powerstone_mana_casts_artifact_spells():
    game = powerstones(2)
    game.cast(game.add("Fellwar Stone", zone="hand"))
    assert pool(game) == []


@R12
def test_powerstone_mana_pays_for_abilities_of_nonartifact_permanents():
    game = powerstones(1)
    game.add("Nantuko Shade")
    with pytest.raises(RulesError, match="can't pay"):
        game.activate(game.find("Nantuko Shade"))  # {B}: colorless can't pay a black symbol
    walker = game.add("Hangarback Walker", counters={"+1/+1": 1})
    game.activate(walker)  # {1}, {T}: any ability, artifact or not, may use it
    game.resolve()
    assert game.obj(walker).counters == {"+1/+1": 2}


@R12
def test_restricted_mana_is_spent_first_where_it_is_allowed():
    game = powerstones(1)
    game.tap_for_mana(game.add("Forest"))
    game.cast(game.add("Fellwar Stone", zone="hand"))
    assert pool(game) == []
    game = powerstones(1)
    game.tap_for_mana(game.add("Forest"))
    game.tap_for_mana(game.add("Forest"))
    game.cast(game.add("Memnite", zone="hand"))
    game.resolve()
    game.cast(game.add("Mana Vault", zone="hand"))
    assert pool(game) == ["G", "G"], "the Powerstone {C} paid for Mana Vault, keeping {G}{G}"
