"""R10 (Powerstone is a predefined token with restricted {C}) and R12 (what that mana pays)."""

import pytest

from mtg_rulekit import EventKind, Game, RulesError
from mtg_rulekit.cards import card
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
    assert all(e.payload.tapped for e in created), "tapped because the effect says so"
    assert game.life("Alice") == 23


@R12
def test_powerstone_mana_cannot_cast_a_nonartifact_spell():
    game = powerstones(2)
    bears = game.add("Grizzly Bears", zone="hand")
    before = game.snapshot_json()
    with pytest.raises(RulesError) as err:
        game.cast(bears)
    assert err.value.rule == "106.6"
    assert game.snapshot_json() == before
    # one sentence that names the mana and its restriction, no stacked parentheses (N13)
    assert ("of the {C}{C} in the pool, the {C}{C} is Powerstone mana, which can't be spent "
            "to cast a nonartifact spell") in str(err.value)
    assert ") (" not in str(err.value).split(" (CR ")[0]


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


# ------------------------------------------------ the player chooses what pays (CR 601.2h)
def test_the_player_chooses_which_mana_pays_a_generic_cost():
    game = Game()
    for land in ("Forest", "Forest", "Mountain"):
        game.tap_for_mana(game.add(land))
    game.cast(game.add("Grizzly Bears", zone="hand"), pay_with="G R")
    assert pool(game) == ["G"], "the {R} paid the generic {1}: a {G} is kept"
    spent = [e for e in game.log if e.kind is EventKind.MANA_SPENT][-1]
    assert sorted(u.type.value for u in spent.payload.mana.units()) == ["G", "R"]
    assert [(d.player, d.answer, d.given) for d in game.decisions
            if d.key == "pay_with"] == [("Alice", "G R", True)]


def test_by_default_restricted_mana_pays_first_and_the_choice_is_recorded():
    game = powerstones(1)
    game.tap_for_mana(game.add("Wastes"))
    game.cast(game.add("Mana Vault", zone="hand"))
    assert pool(game) == ["C"], "the Powerstone's {C} paid, the Wastes' {C} is kept"
    assert [(d.answer, d.given) for d in game.decisions if d.key == "pay_with"] == [
        ("{C}", False)]


def test_the_player_names_the_source_of_the_mana_that_pays():
    game = powerstones(1)
    wastes = game.add("Wastes")
    game.tap_for_mana(wastes)
    game.cast(game.add("Mana Vault", zone="hand"), pay_with=f"C#{wastes.id}")
    assert pool(game) == ["C*"], "the Wastes paid: the Powerstone's {C} is kept"


def test_a_choice_that_does_not_pay_exactly_is_refused_and_changes_nothing():
    game = Game()
    for land in ("Forest", "Forest", "Mountain"):
        game.tap_for_mana(game.add(land))
    bears = game.add("Grizzly Bears", zone="hand")
    before = game.snapshot_json()
    with pytest.raises(RulesError, match="doesn't pay exactly") as err:
        game.cast(bears, pay_with="G")
    assert err.value.rule == "601.2h"
    with pytest.raises(RulesError, match="no {R} in the pool"):
        game.cast(bears, pay_with="R R")
    with pytest.raises(RulesError, match="doesn't pay exactly"):
        game.cast(bears, pay_with="G G R")  # three mana for a two-mana cost
    assert game.snapshot_json() == before and game.decisions == []


def test_restricted_mana_cant_be_chosen_for_what_it_cant_pay():
    game = powerstones(1)
    game.tap_for_mana(game.add("Forest"))
    stone = game.find("Powerstone")
    with pytest.raises(RulesError, match="no {C} from #"):
        game.cast(game.add("Grizzly Bears", zone="hand"), pay_with=f"G C#{stone.id}")


def test_a_malformed_payment_names_the_argument():
    from mtg_rulekit.core.errors import UsageError

    game = Game()
    game.tap_for_mana(game.add("Forest"))
    game.tap_for_mana(game.add("Forest"))
    with pytest.raises(UsageError) as err:
        game.cast(game.add("Grizzly Bears", zone="hand"), pay_with="two forests")
    assert err.value.argument == "decisions.pay_with"  # checked with the other decisions


# -------------------------------------------- Cavern of Souls: "can't be countered"
def _cavern_spell(game: Game, creature_type: str = "Bear"):
    cavern = game.add("Cavern of Souls", choices={"creature_type": creature_type})
    game.tap_for_mana(cavern, "G")
    game.tap_for_mana(game.add("Forest"))
    bears = game.add("Grizzly Bears", zone="hand")
    game.cast(bears)
    return bears


def _mana_leak(game: Game) -> None:
    for _ in range(2):
        game.tap_for_mana(game.add("Island", player="Bob"))
    game.cast(game.add("Mana Leak", player="Bob", zone="hand"),
              targets=[game.stack[-1].source])


def test_cavern_mana_makes_the_creature_spell_uncounterable():
    game = Game()
    _cavern_spell(game)
    game.pass_priority()
    _mana_leak(game)
    game.resolve()  # Mana Leak: Alice can't pay {3}; the counter does nothing
    note = [e for e in game.log if e.kind is EventKind.NOTE][-1]
    assert note.rules == ("101.2",) and "can't be countered" in note.text
    game.resolve()
    assert game.find("Grizzly Bears").zone.value == "battlefield"


def test_without_cavern_mana_mana_leak_counters_the_creature_spell():
    game = Game()
    game.tap_for_mana(game.add("Forest"))
    game.tap_for_mana(game.add("Forest"))
    game.cast(game.add("Grizzly Bears", zone="hand"))
    game.pass_priority()
    _mana_leak(game)
    game.resolve()
    assert not game.stack and not game.find_all("Grizzly Bears")


# ------------------------------------- mana abilities while casting (CR 601.2f-h)
def test_mana_abilities_can_be_activated_while_casting_after_the_cost_is_locked():
    game = Game()
    forest, mountain = game.add("Forest"), game.add("Mountain")
    game.cast(game.add("Grizzly Bears", zone="hand"), mana_abilities=[forest, mountain])
    cast = [e for e in game.log if e.kind is EventKind.CAST][-1]
    kinds = [e.kind for e in game.log.since(cast.id - 1)]
    assert kinds.index(EventKind.CAST) < kinds.index(EventKind.MANA_ADDED) \
        < kinds.index(EventKind.MANA_SPENT), "cast, then mana abilities, then paying"
    added = [e for e in game.log.since(cast.id) if e.kind is EventKind.MANA_ADDED]
    assert len(added) == 2 and pool(game) == [] and game.stack
    assert forest.tapped and mountain.tapped


def test_a_mana_ability_while_casting_can_say_which_mana():
    game = Game()
    city = game.add("City of Brass")
    game.tap_for_mana(game.add("Forest"))
    game.cast(game.add("Grizzly Bears", zone="hand"), mana_abilities=[f"#{city.id}:G"])
    assert pool(game) == []
    # City of Brass's damage trigger waits until the spell is cast, then goes above it
    assert [i.source_name for i in game.stack] == ["Grizzly Bears", "City of Brass"]


def test_not_enough_mana_while_casting_is_refused_and_changes_nothing():
    game = Game()
    forest = game.add("Forest")
    bears = game.add("Grizzly Bears", zone="hand")
    before = game.snapshot_json()
    with pytest.raises(RulesError) as err:
        game.cast(bears, mana_abilities=[forest])
    assert err.value.rule == "601.2h" and game.snapshot_json() == before


def test_only_your_own_mana_abilities_while_casting():
    game = Game()
    game.tap_for_mana(game.add("Forest"))
    bobs = game.add("Forest", player="Bob")
    with pytest.raises(RulesError) as err:
        game.cast(game.add("Grizzly Bears", zone="hand"), mana_abilities=[bobs])
    assert err.value.rule == "602.2"


def test_mana_abilities_while_activating_an_ability():
    """CR 602.2b: activating follows 601.2f-h too: Vedalken Mastermind's {U} is made by an
    Island tapped after the ability is on the stack."""
    game = Game()
    mastermind = game.add("Vedalken Mastermind")
    island = game.add("Island")
    bears = game.add("Grizzly Bears")
    game.activate(mastermind, targets=[bears], mana_abilities=[island])
    activated = [e for e in game.log if e.kind is EventKind.ACTIVATED][-1]
    kinds = [e.kind for e in game.log.since(activated.id - 1)]
    assert kinds.index(EventKind.ACTIVATED) < kinds.index(EventKind.MANA_ADDED) \
        < kinds.index(EventKind.MANA_SPENT)
    assert island.tapped and mastermind.tapped and pool(game) == []
