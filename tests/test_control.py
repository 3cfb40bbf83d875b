"""Control changes (Act of Treason, Control Magic, CR 302.6), Auras and Equipment, linked exile
(Oblivion Ring, Silkwrap), ward and "counter unless that player pays" (R12), layers, spells."""

import pytest

from mtg_rulekit import Cause, EventKind, Game, RulesError, Step, Zone
from mtg_rulekit.core import payloads as p
from tests.helpers import cast_from_hand, end_the_turn, events, mana

R12 = pytest.mark.ruling("R12")


def current(game: Game, name: str, zone: str = "battlefield"):
    return game.find(name, zone=zone)


# --------------------------------------------------------------- control
def test_act_of_treason_gains_control_untaps_and_gives_haste_until_end_of_turn():
    game = Game()
    bears = game.add("Grizzly Bears", player="Bob", tapped=True)
    cast_from_hand(game, "Act of Treason", "Mountain", 3, targets=[bears])
    game.resolve()
    assert game.controller_of(bears) == "Alice" and not bears.tapped
    assert bears.sick and game.chars(bears).has_keyword("Haste")
    (changed,) = events(game, EventKind.CONTROL_CHANGED)
    assert changed.rules == ("613.1b", "302.6") and changed.cause is Cause.ABILITY
    game.advance("declare_attackers")
    game.declare_attackers([bears])  # haste: it may attack this turn
    end_the_turn(game)
    assert game.controller_of(bears) == "Bob" and not game.chars(bears).has_keyword("Haste")
    back = events(game, EventKind.CONTROL_CHANGED)[-1]
    assert back.payload.player == "Bob"
    cleanup = [e for e in events(game, EventKind.STEP_BEGAN) if e.payload.step == "cleanup"][-1]
    bobs_turn = events(game, EventKind.TURN_BEGAN)[-1]
    assert cleanup.id < back.id < bobs_turn.id  # in the cleanup step (CR 514.2), still turn 1


def test_control_magic_steals_and_the_creature_is_summoning_sick_for_its_new_controller():
    game = Game()
    bears = game.add("Grizzly Bears", player="Bob")
    magic = cast_from_hand(game, "Control Magic", "Island", 4, targets=[bears])
    game.resolve()
    aura = current(game, "Control Magic")
    assert aura.attached_to == bears.id and game.controller_of(bears) == "Alice"
    (changed,) = events(game, EventKind.CONTROL_CHANGED)
    entered = game.log[changed.parent]
    assert entered.kind is EventKind.ZONE_CHANGED and entered.payload.object == magic.moved_to
    assert bears.sick
    game.advance("declare_attackers")
    before = game.snapshot_json()
    with pytest.raises(RulesError) as err:
        game.declare_attackers([bears])
    assert err.value.rule == "302.6" and game.snapshot_json() == before
    game.next_turn()
    game.next_turn()
    assert not bears.sick and game.controller_of(bears) == "Alice"


def test_control_returns_when_control_magic_leaves():
    game = Game()
    bears = game.add("Grizzly Bears", player="Bob")
    aura = game.add("Control Magic", attached_to=bears.id)
    assert game.controller_of(bears) == "Alice"
    game.destroy([aura])
    assert game.controller_of(bears) == "Bob" and bears.control_seen == "Bob"
    last = events(game, EventKind.CONTROL_CHANGED)[-1]
    assert last.payload.player == "Bob" and game.log[last.parent].payload.object == aura.id


def test_control_magic_goes_to_the_graveyard_when_its_creature_leaves():
    game = Game()
    bears = game.add("Grizzly Bears", player="Bob")
    aura = game.add("Control Magic", attached_to=bears.id)
    game.destroy([bears])
    assert aura.moved_to is not None
    sba = events(game, EventKind.SBA)[-1]
    assert sba.rules == ("704.5m",)


# ------------------------------------------------------------- Equipment
def test_bonesplitter_equips_at_sorcery_speed_for_plus_two():
    game = Game()
    bears = game.add("Grizzly Bears")
    splitter = game.add("Bonesplitter")
    mana(game, "Wastes", 1)
    game.set_turn(step=Step.BEGIN_COMBAT)
    before = game.snapshot_json()
    with pytest.raises(RulesError, match="main phase"):
        game.activate(splitter, targets=[bears])
    assert game.snapshot_json() == before
    game.set_turn(step=Step.MAIN1)
    mana(game, "Wastes", 1)
    game.activate(splitter, targets=[bears])
    game.resolve()
    (attached,) = events(game, EventKind.ATTACHED)
    assert attached.rules == ("702.6a", "301.5") and splitter.attached_to == bears.id
    assert game.chars(bears).pt == "4/2"


def test_equip_targets_only_a_creature_you_control():
    game = Game()
    splitter = game.add("Bonesplitter")
    theirs = game.add("Grizzly Bears", player="Bob")
    mana(game, "Wastes", 1)
    with pytest.raises(RulesError, match="not a legal target"):
        game.activate(splitter, targets=[theirs])


def test_paradise_mantle_gives_a_mana_ability_that_summoning_sickness_stops():
    game = Game()
    fresh = game.add("Grizzly Bears", sick=True)
    mantle = game.add("Paradise Mantle", attached_to=fresh.id)
    assert [a.text for a in game.chars(fresh).abilities] == ["{T}: Add one mana of any color."]
    with pytest.raises(RulesError) as err:
        game.tap_for_mana(fresh, "W")
    assert err.value.rule == "302.6"
    game.next_turn()
    game.next_turn()
    game.tap_for_mana(fresh, "W")
    assert [u.type.value for u in game.pool("Alice")] == ["W"]
    assert mantle.attached_to == fresh.id


def test_equipment_stays_on_the_battlefield_unattached_when_its_creature_dies():
    game = Game()
    bears = game.add("Grizzly Bears")
    splitter = game.add("Bonesplitter", attached_to=bears.id)
    game.destroy([bears])
    assert splitter.zone is Zone.BATTLEFIELD and splitter.attached_to is None
    (unattached,) = events(game, EventKind.ATTACHED)
    assert unattached.rules == ("704.5n",) and unattached.cause is Cause.SBA


# ------------------------------------------------------------ linked exile
def test_oblivion_ring_exiles_and_returns_the_card_when_it_leaves():
    game = Game()
    bears = game.add("Grizzly Bears", player="Bob")
    cast_from_hand(game, "Oblivion Ring", "Plains", 3)
    game.resolve(target=bears.id)  # the ring enters; its trigger targets as it goes on the stack
    game.resolve()
    on_battlefield = current(game, "Oblivion Ring")
    exiled = game.obj(bears.moved_to)
    assert exiled.zone is Zone.EXILE and on_battlefield.linked == (exiled.id,)
    game.destroy([on_battlefield])
    game.resolve()
    back = game.obj(exiled.moved_to)
    assert back.zone is Zone.BATTLEFIELD and game.controller_of(back) == "Bob"
    assert back.id != bears.id  # a new object (CR 400.7)


def test_oblivion_ring_leaving_before_its_etb_resolves_exiles_forever():
    game = Game()
    bears = game.add("Grizzly Bears", player="Bob")
    cast_from_hand(game, "Oblivion Ring", "Plains", 3)
    game.resolve(target=bears.id)
    game.destroy([current(game, "Oblivion Ring")])
    game.resolve()  # leaves trigger: nothing exiled yet
    game.resolve()
    assert game.obj(bears.moved_to).zone is Zone.EXILE


def test_silkwrap_returns_the_creature_at_once_without_the_stack():
    game = Game()
    bears = game.add("Grizzly Bears", player="Bob")
    cast_from_hand(game, "Silkwrap", "Plains", 2)
    game.resolve(target=bears.id)
    game.resolve()
    mark = len(game.log)
    game.destroy([current(game, "Silkwrap")])
    assert not game.stack
    left, back = [e for e in game.log.since(mark) if e.kind is EventKind.ZONE_CHANGED]
    assert back.parent == left.id and back.rules == ("610.3", "610.3c")
    assert game.controller_of(game.obj(back.payload.new)) == "Bob"


def test_silkwrap_gone_before_its_trigger_resolves_exiles_nothing():
    game = Game()
    bears = game.add("Grizzly Bears", player="Bob")
    cast_from_hand(game, "Silkwrap", "Plains", 2)
    game.resolve(target=bears.id)
    game.destroy([current(game, "Silkwrap")])
    game.resolve()
    assert bears.zone is Zone.BATTLEFIELD and bears.moved_to is None
    assert events(game, EventKind.NOTE)[-1].rules == ("610.3b",)


def test_silkwrap_targets_only_cheap_creatures_an_opponent_controls():
    game = Game()
    mine = game.add("Grizzly Bears")
    big = game.add("Gigantosaurus", player="Bob")
    cast_from_hand(game, "Silkwrap", "Plains", 2)
    game.resolve()  # no legal target: the trigger is removed (CR 603.3d)
    assert not game.stack and "no legal target" in list(game.log)[-1].text
    game.undo()
    theirs = game.add("Memnite", player="Bob")
    for wrong in (mine, big):
        with pytest.raises(RulesError, match="not a legal target"):
            game.resolve(target=wrong.id)
    game.resolve(target=theirs.id)
    assert [i.targets for i in game.stack] == [(theirs.id,)]


# ------------------------------------------------------- ward / Mana Leak
@R12
def test_ward_is_paid_with_powerstone_mana_and_the_spell_resolves():
    game = Game()
    terror = game.add("Tolarian Terror", player="Bob")
    cast_from_hand(game, "Shock", "Mountain", 1, targets=[terror])
    targeted = events(game, EventKind.TARGETED)
    assert [e.payload.object for e in targeted] == [terror.id]
    assert [i.text for i in game.stack] == ["Shock", "Tolarian Terror: Ward {2}"]
    for _ in range(2):
        game.tap_for_mana(game.add("Powerstone"))
    game.resolve()
    (paid,) = [e for e in events(game, EventKind.MANA_SPENT)
               if e.payload.purpose == p.Spending(p.Paying.WARD, cost="{2}")]
    assert paid.cause is Cause.COST and "702.21a" in paid.rules
    assert game.pool("Alice") == []
    game.resolve()
    assert terror.damage == 2


@R12
def test_ward_not_paid_counters_the_spell_into_the_graveyard():
    game = Game()
    terror = game.add("Tolarian Terror", player="Bob")
    shock = game.add("Shock", zone="hand")
    mana(game, "Mountain", 1)
    game.tap_for_mana(game.add("Powerstone"))
    game.tap_for_mana(game.add("Powerstone"))
    game.cast(shock, targets=[terror])
    game.resolve(pay=False)
    (countered,) = events(game, EventKind.COUNTERED)
    assert countered.rules == ("702.21a", "701.6a") and not game.stack
    assert terror.damage == 0 and game.find_all("Shock", zone="graveyard")
    assert game.pool("Alice").total == 2


def test_ward_refuses_a_payment_the_pool_cant_make_and_nothing_changes():
    game = Game()
    terror = game.add("Tolarian Terror", player="Bob")
    cast_from_hand(game, "Shock", "Mountain", 1, targets=[terror])
    before = game.snapshot_json()
    with pytest.raises(RulesError, match="can't pay"):
        game.resolve(pay=True)
    assert game.snapshot_json() == before


def test_ward_counters_an_opponents_triggered_ability_too():
    game = Game()
    terror = game.add("Tolarian Terror")
    ring = game.add("Oblivion Ring", zone="hand", player="Bob")
    game.set_turn(active="Bob")
    mana(game, "Plains", 3, player="Bob")
    game.cast(ring)
    game.resolve(target=terror.id)  # the ring enters; its trigger targets the Terror
    assert [i.source_name for i in game.stack] == ["Oblivion Ring", "Tolarian Terror"]
    game.resolve()  # ward: Bob's pool is empty, so the trigger is countered
    (countered,) = events(game, EventKind.COUNTERED)
    assert "Oblivion Ring" in countered.text and not game.stack
    assert terror.zone is Zone.BATTLEFIELD and terror.moved_to is None


def test_ward_ignores_its_controllers_own_spells():
    game = Game()
    terror = game.add("Tolarian Terror")
    cast_from_hand(game, "Giant Growth", "Forest", 1, targets=[terror])
    assert [i.text for i in game.stack] == ["Giant Growth"]


def test_tolarian_terror_costs_one_less_per_instant_and_sorcery_in_your_graveyard():
    game = Game()
    for name in ("Shock", "Pyroclasm", "Giant Growth"):
        game.add(name, zone="graveyard")
    game.add("Grizzly Bears", zone="graveyard")  # not an instant or sorcery
    cast_from_hand(game, "Tolarian Terror", "Island", 4)
    (spent,) = events(game, EventKind.MANA_SPENT)
    assert spent.payload.cost == "{3}{U}"


@R12
def test_mana_leak_is_paid_with_powerstone_mana():
    game = Game()
    bears = game.add("Grizzly Bears", zone="hand", player="Bob")
    leak = game.add("Mana Leak", zone="hand")
    game.set_turn(active="Bob")
    mana(game, "Forest", 2, player="Bob")
    game.cast(bears)
    for _ in range(3):
        game.tap_for_mana(game.add("Powerstone", player="Bob"))
    game.pass_priority()
    mana(game, "Island", 2)
    game.cast(leak, targets=[game.obj(bears.moved_to)])
    game.resolve()
    paid = [e for e in events(game, EventKind.MANA_SPENT)
            if e.payload.purpose.paying is p.Paying.UNLESS
            and e.payload.purpose.source == "Mana Leak"]
    assert len(paid) == 1 and paid[0].payload.player == "Bob"
    game.resolve()
    assert game.find_all("Grizzly Bears", controller="Bob")


def test_mana_leak_counters_a_spell_whose_controller_cant_pay():
    game = Game()
    bears = game.add("Grizzly Bears", zone="hand", player="Bob")
    leak = game.add("Mana Leak", zone="hand")
    game.set_turn(active="Bob")
    mana(game, "Forest", 2, player="Bob")
    game.cast(bears)
    game.pass_priority()
    mana(game, "Island", 2)
    game.cast(leak, targets=[game.obj(bears.moved_to)])
    game.resolve()
    assert not game.stack and game.find_all("Grizzly Bears", zone="graveyard")
    assert game.find_all("Grizzly Bears") == []


def test_mana_leak_does_nothing_if_its_target_spell_is_gone():
    game = Game()
    shock = game.add("Shock", zone="hand")
    leaks = [game.add("Mana Leak", zone="hand") for _ in range(2)]
    mana(game, "Mountain", 1)
    game.cast(shock, targets=["Bob"])
    spell = game.obj(shock.moved_to)
    for leak in leaks:
        mana(game, "Island", 2)
        game.cast(leak, targets=[spell])
    game.resolve()  # the second Mana Leak: Alice can't pay {3}, Shock is countered
    game.resolve()  # the first: its target is gone
    (fizzled,) = events(game, EventKind.FIZZLED)
    assert fizzled.rules == ("608.2b",) and not game.stack
    assert game.life("Bob") == 20


def test_mana_leak_targets_only_spells():
    game = Game()
    bears = game.add("Grizzly Bears")
    leak = game.add("Mana Leak", zone="hand")
    mana(game, "Island", 2)
    before = game.snapshot_json()
    with pytest.raises(RulesError, match="not a legal target"):
        game.cast(leak, targets=[bears])
    assert game.snapshot_json() == before


# ---------------------------------------------------------------- layers
def test_always_watching_pumps_nontoken_creatures_you_control_and_gives_vigilance():
    game = Game()
    game.add("Always Watching")
    bears = game.add("Grizzly Bears")
    thopter = game.add("Thopter")
    theirs = game.add("Grizzly Bears", player="Bob")
    assert game.chars(bears).pt == "3/3" and game.chars(bears).has_keyword("Vigilance")
    assert game.chars(thopter).pt == "1/1" and game.chars(theirs).pt == "2/2"


def test_metallic_mimic_puts_an_extra_counter_on_creatures_of_the_chosen_type():
    game = Game()
    mimic = game.add("Metallic Mimic", choices={"creature_type": "Construct"})
    assert "Construct" in game.chars(mimic).subtypes
    game.add("Hardened Scales")
    walker = cast_from_hand(game, "Hangarback Walker", "Wastes", 2, x=1)
    game.resolve()
    entered = game.obj(walker.moved_to)
    entered = game.obj(entered.moved_to)
    assert entered.counters == {"+1/+1": 3}  # X=1, +1 Mimic, +1 Scales
    bears = cast_from_hand(game, "Grizzly Bears", "Forest", 2)
    game.resolve()
    assert game.obj(game.obj(bears.moved_to).moved_to).counters == {}


# ---------------------------------------------------------------- spells
def test_pyroclasm_deals_damage_to_each_creature_at_once():
    game = Game()
    bears = game.add("Grizzly Bears")
    theirs = game.add("Grizzly Bears", player="Bob")
    big = game.add("Gigantosaurus", player="Bob")
    cast_from_hand(game, "Pyroclasm", "Mountain", 2)
    game.resolve()
    damage = events(game, EventKind.DAMAGE)
    assert [e.payload.target for e in damage] == [bears.id, theirs.id, big.id]
    assert len({e.parent for e in damage}) == 1
    assert bears.moved_to and theirs.moved_to and big.moved_to is None and big.damage == 2


def test_shock_hits_a_player_or_a_creature_but_not_an_artifact():
    game = Game()
    shock = game.add("Shock", zone="hand")
    stone = game.add("Powerstone", player="Bob")
    mana(game, "Mountain", 1)
    with pytest.raises(RulesError, match="not a legal target"):
        game.cast(shock, targets=[stone])
    game.cast(shock, targets=["Bob"])
    game.resolve()
    assert game.life("Bob") == 18


def test_naturalize_destroys_an_artifact_or_enchantment():
    game = Game()
    ring = game.add("Always Watching", player="Bob")
    cast_from_hand(game, "Naturalize", "Forest", 2, targets=[ring])
    game.resolve()
    assert game.find_all("Always Watching", zone="graveyard")


def test_boomerang_returns_a_permanent_to_its_owners_hand():
    game = Game()
    bears = game.add("Grizzly Bears", player="Bob")
    game.gain_control(bears, "Alice")
    cast_from_hand(game, "Boomerang", "Island", 2, targets=[bears])
    game.resolve()
    back = game.obj(bears.moved_to)
    assert back.zone is Zone.HAND and back.owner == "Bob"


def test_mana_abilities_while_paying_for_mana_leak():
    """CR 605.3a: a player asked to pay mana may activate mana abilities then: Alice taps three
    lands while Mana Leak resolves and pays {3}."""
    game = Game()
    game.tap_for_mana(game.add("Forest"))
    game.tap_for_mana(game.add("Forest"))
    game.cast(game.add("Grizzly Bears", zone="hand"))
    lands = [game.add("Wastes"), game.add("Wastes"), game.add("Wastes")]
    game.pass_priority()
    for _ in range(2):
        game.tap_for_mana(game.add("Island", player="Bob"))
    game.cast(game.add("Mana Leak", player="Bob", zone="hand"),
              targets=[game.stack[-1].source])
    game.resolve(mana_abilities=lands)
    assert all(land.tapped for land in lands)
    spent = [e for e in game.log if e.kind is EventKind.MANA_SPENT][-1]
    assert spent.payload.player == "Alice" and spent.payload.mana.total == 3
    game.resolve()
    assert game.find("Grizzly Bears").zone is Zone.BATTLEFIELD
