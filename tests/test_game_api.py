"""The Game's contracts: causal log, determinism, atomic actions, undo, turn structure."""

import json

import pytest

from mtg_rulekit import Cause, EventKind, Game, RulesError, Step, UsageError
from mtg_rulekit.core.events import LOG_FORMAT
from tests.helpers import mana, pool


def sample_game() -> Game:
    game = Game()
    forest = game.add("Forest")
    game.add("Wild Growth", attached_to=forest.id)
    game.add("City of Brass")
    game.add("Mana Reflection")
    game.tap_for_mana(forest)
    game.tap_for_mana(game.find("City of Brass"), "W")
    game.resolve()
    return game


def test_every_event_has_a_cause_and_an_earlier_parent():
    game = sample_game()
    for event in game.log:
        if event.kind is EventKind.ACTION:
            assert event.parent is None and event.cause is Cause.ACTION
        else:
            assert event.parent is not None and event.parent < event.id
            assert game.log.ancestors(event.id)[-1].kind is EventKind.ACTION


def test_log_is_json_and_deterministic():
    first, second = sample_game(), sample_game()
    assert first.log.dumps() == second.log.dumps()
    dumped = json.loads(first.log.dumps())
    assert dumped["format"] == LOG_FORMAT == 2  # docs/engine.md, "The log's JSON"
    data = dumped["events"]
    assert data[0]["id"] == 1 and {"cause", "parent", "rules", "text"} <= set(data[0])
    replaced = [e for e in data if e.get("applied")]
    assert replaced and replaced[0]["proposed"]["mana"][0]["type"] == "G"


def test_replay_rebuilds_the_same_game():
    game = sample_game()
    again = game.replay()
    assert again.snapshot_json() == game.snapshot_json()
    assert again.log.dumps() == game.log.dumps()


def test_undo_takes_back_the_last_action():
    game = Game()
    forest = game.add("Forest")
    before, log_len = game.snapshot_json(), len(game.log)
    game.tap_for_mana(forest)
    assert pool(game) == ["G"]
    game.undo()
    assert game.snapshot_json() == before and len(game.log) == log_len
    with pytest.raises(UsageError, match="nothing to undo"):
        Game().undo()


def test_refused_action_changes_nothing_even_when_it_fails_late():
    game = Game()
    grave = game.add("Watery Grave")
    game.add("Mana Flare")
    before, log_len = game.snapshot_json(), len(game.log)
    with pytest.raises(RulesError):
        game.tap_for_mana(grave, "U", added_mana="B")  # fails inside the triggered ability
    assert game.snapshot_json() == before and len(game.log) == log_len
    assert len(game.actions) == 2


def test_mana_empties_between_steps():
    game = Game()
    game.tap_for_mana(game.add("Forest"))
    game.advance()
    assert game.step is Step.BEGIN_COMBAT
    assert pool(game) == []
    emptied = game.log.of_kind(EventKind.MANA_EMPTIED)
    assert emptied and emptied[0].cause is Cause.TURN and "500.5" in emptied[0].rules


def test_one_land_per_turn():
    game = Game()
    game.play_land(game.add("Forest", zone="hand"))
    with pytest.raises(RulesError) as err:
        game.play_land(game.add("Island", zone="hand"))
    assert err.value.rule == "305.2"


def test_sorcery_speed_and_priority():
    game = Game()
    bears = game.add("Grizzly Bears", zone="hand")
    game.tap_for_mana(game.add("Forest"))
    game.tap_for_mana(game.add("Forest"))
    game.pass_priority()
    with pytest.raises(RulesError, match="Bob has priority") as err:
        game.cast(bears)
    assert err.value.rule == "117.1"


def test_passing_with_an_empty_stack_moves_through_the_turn():
    game = Game()
    game.next_turn()
    assert (game.turn, game.active, game.step) == (2, "Bob", Step.MAIN1)
    steps = [e.payload.step for e in game.log.of_kind(EventKind.STEP_BEGAN)]
    assert steps[:3] == ["beginning_of_combat", "declare_attackers", "end_of_combat"], (
        "no attackers: blockers and damage steps are skipped (CR 508.8)")
    assert "untap" in steps and "upkeep" in steps and "cleanup" in steps


def test_a_trigger_in_the_untap_step_waits_for_the_upkeep(monkeypatch):
    """No player gets priority in the untap step, so an ability that triggers there goes on
    the stack when a player would first get priority, in the upkeep (CR 502.4). No catalog card
    triggers on untapping, so the test gives City of Brass's trigger the untap event."""
    from dataclasses import replace

    from mtg_rulekit.cards import catalog

    city = catalog()["City of Brass"]
    trigger = replace(city.printed.abilities[0], on=frozenset({EventKind.UNTAPPED}))
    patched = replace(city, printed=city.printed.evolve(
        abilities=(trigger,) + city.printed.abilities[1:]))
    monkeypatch.setitem(catalog(), "City of Brass", patched)
    game = Game()
    game.add("City of Brass", player="Bob", tapped=True)
    game.next_turn()
    (put,) = [e for e in game.log.of_kind(EventKind.PUT_ON_STACK)]
    untapped = [e for e in game.log.of_kind(EventKind.UNTAPPED) if e.turn == 2]
    assert untapped and untapped[0].step == "untap"
    assert put.step == "upkeep" and put.parent == untapped[0].id
    assert game.life("Bob") == 19


def test_setting_the_turn_to_a_step_puts_its_beginning_triggers_on_the_stack():
    """Set-up to Alice's upkeep: Mana Vault's upkeep trigger goes on the stack then, in the
    upkeep, not later in whatever step the next action happens."""
    game = Game()
    game.add("Mana Vault", tapped=True)
    game.set_turn(turn=2, step="upkeep")
    assert [i.source_name for i in game.stack] == ["Mana Vault"]
    assert not game.state.pending
    (put,) = game.log.of_kind(EventKind.PUT_ON_STACK)
    assert put.step == "upkeep"


def test_mana_vault_does_not_untap():
    game = Game()
    vault = game.add("Mana Vault", tapped=True)
    forest = game.add("Forest", tapped=True)
    game.next_turn()
    game.next_turn()
    assert game.obj(vault).tapped and not game.obj(forest).tapped
    skipped = game.log.of_kind(EventKind.UNTAP_SKIPPED)
    assert skipped and "doesn't untap" in skipped[0].text
    assert game.life("Alice") == 19, "its draw-step trigger dealt 1 damage"


def _vault_triggers(game: Game) -> list:
    return [e for e in game.log.of_kind(EventKind.PUT_ON_STACK)
            if "Mana Vault" in e.text and e.step == "draw"]


def _to_draw_step(game: Game) -> None:
    """Through Alice's upkeep to the start of her draw step (she has a card to draw)."""
    game.add("Forest", zone="library")
    game.set_turn(turn=2, step="untap")
    game.pass_priority()
    game.pass_priority()
    game.resolve()  # the upkeep trigger: Alice doesn't pay {4}
    game.pass_priority()
    game.pass_priority()
    assert game.step is Step.DRAW


def test_mana_vault_untapped_at_the_draw_step_does_not_trigger():
    """Intervening "if" false as the step begins: no trigger at all (CR 603.4)."""
    game = Game()
    game.add("Mana Vault")
    _to_draw_step(game)
    assert not _vault_triggers(game), "nothing goes on the stack"
    assert game.life("Alice") == 20


def test_mana_vault_tapped_at_the_draw_step_triggers_and_deals_damage():
    game = Game()
    game.add("Mana Vault", tapped=True)
    _to_draw_step(game)
    assert [i.text for i in game.stack] == [
        "Mana Vault: At the beginning of your draw step, if this artifact is tapped, it deals 1 "
        "damage to you."]
    game.resolve()
    assert game.life("Alice") == 19


def test_mana_vault_condition_is_checked_again_on_resolution():
    """Untapped after it triggered: the ability resolves and does nothing (CR 603.4). No catalog
    card untaps an artifact at instant speed, so the test untaps the Vault by hand."""
    game = Game()
    vault = game.add("Mana Vault", tapped=True)
    _to_draw_step(game)
    assert game.stack
    game.obj(vault).tapped = False
    game.resolve()
    assert game.life("Alice") == 20
    note = game.log.of_kind(EventKind.NOTE)[-1]
    assert note.rules == ("603.4",) and "no longer true" in note.text


def test_mana_vault_that_left_is_judged_as_it_last_existed():
    """Bounced in response while tapped: as it last existed it was tapped (CR 603.4, 608.2h)."""
    game = Game()
    vault = game.add("Mana Vault", tapped=True)
    islands = [game.add("Island"), game.add("Island")]
    _to_draw_step(game)
    for island in islands:
        game.tap_for_mana(island)
    game.cast(game.add("Boomerang", zone="hand"), targets=[vault])
    game.resolve()
    assert game.obj(vault).zone.value != "battlefield"
    game.resolve()
    assert game.life("Alice") == 19


def test_every_catalog_card_does_all_its_oracle_text_says():
    """Each Oracle paragraph (reminder text aside) is the text of the card's abilities."""
    from mtg_rulekit.cards import catalog

    assert {name: c.unmodelled() for name, c in catalog().items() if c.unmodelled()} == {}


def test_add_refuses_a_card_whose_text_isnt_fully_modelled(monkeypatch):
    from dataclasses import replace

    from mtg_rulekit.cards import catalog
    from mtg_rulekit.core.errors import UsageError

    arena = catalog()["Arena of Glory"]
    cut = replace(arena, printed=arena.printed.evolve(abilities=arena.printed.abilities[:2]))
    monkeypatch.setitem(catalog(), "Arena of Glory", cut)
    with pytest.raises(UsageError) as err:
        Game().add("Arena of Glory")
    assert err.value.argument == "card"
    assert "isn't fully modelled" in str(err.value) and "Exert this land" in str(err.value)


def test_unknown_card_suggests_a_name():
    with pytest.raises(UsageError, match="did you mean 'Forest'"):
        Game().add("Forrest")


# ------------------------------------------------------ who made each decision
def _decided(game: Game, key: str) -> list[tuple]:
    return [(d.player, d.answer, d.given) for d in game.decisions if d.key == key]


def test_the_affected_player_orders_replacement_effects():
    """Bob taps his Forest under Alice's Contamination and his own Mana Reflection: Bob, the
    affected player, chooses the order (CR 616.1)."""
    game = Game()
    game.add("Contamination")
    game.add("Mana Reflection", player="Bob")
    forest = game.add("Forest", player="Bob")
    game.pass_priority()
    game.tap_for_mana(forest, replacement_order=["Mana Reflection"])
    assert _decided(game, "replacement_order") == [("Bob", "Mana Reflection", True)]
    assert pool(game, "Bob") == ["B"]


def test_each_player_orders_the_triggers_they_control():
    """Two Angel's Feathers each: Alice orders hers, then Bob his (CR 603.3b, APNAP)."""
    game = Game()
    mine = [game.add("Angel's Feather"), game.add("Angel's Feather")]
    his = [game.add("Angel's Feather", player="Bob"), game.add("Angel's Feather", player="Bob")]
    mana(game, "Plains", 2)
    lion = game.add("Silvercoat Lion", zone="hand")
    game.cast(lion, trigger_order=[mine[1].id, f"#{his[1].id}"])
    assert [i.source for i in game.stack[1:]] == [mine[1].id, mine[0].id, his[1].id,
                                                        his[0].id]
    assert _decided(game, "trigger_order") == [("Alice", mine[1].id, True),
                                               ("Bob", f"#{his[1].id}", True)]


def test_the_default_trigger_order_is_recorded_as_the_controllers_default():
    game = Game()
    first, _ = game.add("Angel's Feather"), game.add("Angel's Feather")
    mana(game, "Plains", 2)
    game.cast(game.add("Silvercoat Lion", zone="hand"))
    assert game.stack[1].source == first.id
    assert _decided(game, "trigger_order") == [("Alice", first.id, False)]


def test_a_trigger_order_naming_no_waiting_trigger_is_refused():
    game = Game()
    game.add("Angel's Feather"), game.add("Angel's Feather")
    mana(game, "Plains", 2)
    lion = game.add("Silvercoat Lion", zone="hand")
    before = game.snapshot_json()
    with pytest.raises(RulesError) as err:
        game.cast(lion, trigger_order=["Mana Vault"])
    assert err.value.rule == "603.3b" and game.snapshot_json() == before
    assert game.decisions == [], "a refused action leaves no decision behind"


def test_the_controller_chooses_a_triggers_target():
    game = Game()
    bears = game.add("Grizzly Bears", player="Bob")
    mana(game, "Plains", 3)
    game.cast(game.add("Oblivion Ring", zone="hand"))
    game.resolve(target=bears.id)
    assert _decided(game, "target") == [("Alice", bears.id, True)]
    (d,) = [d for d in game.decisions if d.key == "target"]
    assert game.log[d.event].kind is EventKind.PUT_ON_STACK


def _two_kikis(game: Game):
    old = game.add("Kiki-Jiki, Mirror Breaker")
    mana(game, "Mountain", 5)
    new = game.add("Kiki-Jiki, Mirror Breaker", zone="hand")
    game.cast(new)
    return old


def test_legend_rule_keeps_the_one_its_controller_chooses():
    game = Game()
    old = _two_kikis(game)
    game.resolve(legend_keep=old.id)
    assert [o.id for o in game.find_all("Kiki-Jiki, Mirror Breaker")] == [old.id]
    assert len(game.find_all("Kiki-Jiki, Mirror Breaker", zone="graveyard")) == 1
    assert _decided(game, "legend_keep") == [("Alice", old.id, True)]


def test_legend_rule_keeps_the_newest_by_default():
    game = Game()
    old = _two_kikis(game)
    game.resolve()
    (kept,) = game.find_all("Kiki-Jiki, Mirror Breaker")
    assert kept.id != old.id
    assert _decided(game, "legend_keep") == [("Alice", kept.id, False)]


def test_legend_rule_refuses_keeping_something_else():
    game = Game()
    _two_kikis(game)
    before = game.snapshot_json()
    with pytest.raises(RulesError) as err:
        game.resolve(legend_keep=9999)
    assert err.value.rule == "704.5j" and game.snapshot_json() == before


def test_every_ability_says_only_what_its_card_says():
    """The converse: each ability's text is a passage of its card's Oracle text (the card's
    words are written once, in the catalog; a behaviour can't claim a clause the card lacks)."""
    from mtg_rulekit.cards import catalog

    claimed = {name: [a.text for a in c.printed.abilities if a.text and a.text not in c.oracle]
               for name, c in catalog().items()}
    assert {name: texts for name, texts in claimed.items() if texts} == {}
def test_a_you_may_answered_no_in_words_is_a_no():
    game = Game()
    game.add("Angel's Feather")
    mana(game, "Plains", 2)
    game.cast(game.add("Silvercoat Lion", zone="hand"))
    game.resolve(may="no")
    assert game.life("Alice") == 20
    assert _decided(game, "may") == [("Alice", "no", True)]


def test_the_controller_of_the_entering_object_orders_its_replacement_effects():
    """Bob's Hangarback Walker enters with counters under his Hardened Scales and Metallic Mimic:
    Bob, who will control it, chooses the order (CR 616.1)."""
    game = Game()
    game.set_turn(active="Bob")
    game.add("Hardened Scales", player="Bob")
    game.add("Metallic Mimic", player="Bob", choices={"creature_type": "Construct"})
    mana(game, "Wastes", 2, player="Bob")
    game.cast(game.add("Hangarback Walker", player="Bob", zone="hand"), x=1)
    game.resolve(replacement_order=["Metallic Mimic"])
    decided = _decided(game, "replacement_order")
    assert decided[0] == ("Bob", "Metallic Mimic", True)
    assert {player for player, _, _ in decided} == {"Bob"}
    assert game.find("Hangarback Walker").counters == {"+1/+1": 3}


def test_undo_takes_back_the_decisions_of_the_undone_action():
    game = Game()
    game.add("Angel's Feather")
    mana(game, "Plains", 2)
    game.cast(game.add("Silvercoat Lion", zone="hand"))
    game.resolve(may="no")
    assert _decided(game, "may") == [("Alice", "no", True)]
    game.undo()
    assert _decided(game, "may") == []
    assert [d.key for d in game.decisions] == [d.key for d in game.replay().decisions]
