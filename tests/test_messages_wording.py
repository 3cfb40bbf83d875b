"""Messages that must read as sentences: a name that isn't there is quoted ("there is nothing
called 'no'", never "there is no no"); a failed `no_events` says what must not happen and what
did; a refusal names the card, not a bare "#1"."""

from __future__ import annotations

from pathlib import Path

import pytest

from mtg_rulekit import Game, RulesError
from mtg_rulekit.scenario import ScenarioError, loads, play
from mtg_rulekit.scenario.text import failure_lines

SCENARIOS = Path(__file__).resolve().parents[1] / "mtg_rulekit" / "scenarios"
R05 = (SCENARIOS / "r05_replacement_modifies_production.toml").read_text("utf-8")


def test_a_decision_naming_nothing_quotes_the_name():
    """`decisions.sacrifice = "no"`: "no" declines a copy, not a sacrifice, so it is a name,
    and nothing is called that."""
    text = R05.replace('object = "forest1"', 'object = "forest1"\ndecisions.sacrifice = "no"', 1)
    with pytest.raises(ScenarioError) as err:
        play(loads(text, name="s.toml"))
    message = str(err.value)
    assert "decisions.sacrifice: there is nothing called 'no' to use here" in message
    assert "no no" not in message


def test_a_failed_no_events_says_what_happened():
    text = R05.replace("triggered.wild = 1", 'triggered.wild = 1\nno_events = ["mana_added"]', 1)
    scenario = loads(text, name="s.toml")
    lines = failure_lines(scenario, play(scenario))
    assert lines == ['s.toml:59: step 1: no_events: expected none of ["mana_added"] to happen, '
                     'but ["mana_added"] did']


def test_a_cost_refusal_names_the_card_it_was_given():
    game = Game()
    game.add("Springleaf Drum")
    forest = game.add("Forest")
    with pytest.raises(RulesError) as err:
        game.activate(1, mana="G", tap=forest.id)
    assert str(err.value).startswith(f"Forest (#{forest.id}) is not an untapped creature you "
                                     "control")


def test_a_legend_rule_refusal_names_the_card_and_the_choices():
    game = Game()
    first = game.add("Kiki-Jiki, Mirror Breaker")
    forest = game.add("Forest")
    game.set_pool("Alice", [{"type": "R"}] * 5)
    second = game.add("Kiki-Jiki, Mirror Breaker", zone="hand")
    with pytest.raises(RulesError) as err:
        game.cast(second)
        game.resolve(legend_keep=forest.id)
    message = str(err.value)
    assert message.startswith(f"Forest (#{forest.id}) is not one of Alice's legendary "
                              f"permanents named Kiki-Jiki, Mirror Breaker: Kiki-Jiki, Mirror "
                              f"Breaker (#{first.id}), ")
    assert "#" + str(forest.id) + " is" not in message.split("(")[0]
