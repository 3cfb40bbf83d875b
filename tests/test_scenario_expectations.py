"""Scenario expectations for an object's characteristics (on the stack too), damage marked on a
permanent and the mana that paid a cost."""

from __future__ import annotations

import pytest

from mtg_rulekit.scenario import ScenarioError, dumps, loads, play

CHARACTERISTICS = '''
title = "Characteristics on the stack and on the battlefield"
[setup]
[setup.pool]
Alice = ["G", "G", "G", "G"]
[setup.hand]
Alice = [{ card = "Hangarback Walker", name = "walker" }]
[[setup.permanent]]
card = "Kiki-Jiki, Mirror Breaker"
name = "kiki"
[[step]]
narration = "Cast the Walker for X = 2."
do = "cast"
card = "walker"
x = 2
[step.expect]
mana_value.walker = 4
types.walker = ["Creature", "Artifact"]
subtypes.walker = ["Construct"]
supertypes.walker = []
colors.walker = []
spent.Alice = ["G", "G", "G", "G"]
[[step]]
narration = "It resolves."
do = "resolve"
[step.expect]
mana_value.walker = 0
abilities.walker = ["{1}, {T}: Put a +1/+1 counter on this creature.", "This creature enters with X +1/+1 counters on it.", "When this creature dies, create a 1/1 colorless Thopter artifact creature token with flying for each +1/+1 counter on this creature."]
supertypes.kiki = ["Legendary"]
keywords.kiki = ["Haste"]
colors.kiki = ["R"]
mana_value.kiki = 5
spent.Alice = []
'''

WARD = '''
title = "Ward paid with Powerstone mana, then damage"
[setup]
[setup.pool]
Alice = ["R", "C (powerstone)", "C (powerstone)"]
[setup.hand]
Alice = [{ card = "Shock", name = "shock" }]
[[setup.permanent]]
card = "Tolarian Terror"
name = "terror"
controller = "Bob"
[[step]]
narration = "Shock the Terror."
do = "cast"
card = "shock"
targets = ["terror"]
[step.expect]
spent.Alice = ["R"]
mana_value.shock = 1
stack = ["Shock", "Tolarian Terror"]
[[step]]
narration = "Pay for ward."
do = "resolve"
decisions = { pay = true }
[step.expect]
spent.Alice = ["C (powerstone)", "C (powerstone)"]
damage.terror = 0
[[step]]
narration = "Shock resolves."
do = "resolve"
[step.expect]
damage.terror = 2
pt.terror = "5/5"
'''


def failures(text: str) -> list[tuple[int, str, object, object]]:
    sc = loads(text, name="x.toml")
    return [(r.number, c.description, c.expected, c.actual) for r in play(sc) for c in r.failures]


def test_characteristics_hold_on_the_stack_and_on_the_battlefield():
    assert failures(CHARACTERISTICS) == []


def test_mana_value_counts_x_only_on_the_stack():
    """CR 202.3e: X is the chosen number on the stack and 0 everywhere else."""
    wrong = CHARACTERISTICS.replace("mana_value.walker = 4", "mana_value.walker = 0").replace(
        "mana_value.walker = 0\nabilities", "mana_value.walker = 4\nabilities")
    assert failures(wrong) == [(1, "mana_value.walker", 0, 4), (2, "mana_value.walker", 4, 0)]


def test_a_wrong_characteristic_is_reported_with_what_it_is():
    wrong = (CHARACTERISTICS.replace('subtypes.walker = ["Construct"]', 'subtypes.walker = ["Thopter"]')
             .replace('keywords.kiki = ["Haste"]', 'keywords.kiki = []')
             .replace('colors.kiki = ["R"]', 'colors.kiki = ["G", "R"]'))
    assert failures(wrong) == [(1, "subtypes.walker", ["Thopter"], ["Construct"]),
                               (2, "colors.kiki", ["R", "G"], ["R"]),
                               (2, "keywords.kiki", [], ["Haste"])]


def test_damage_and_the_mana_that_paid_each_cost():
    assert failures(WARD) == []
    wrong = WARD.replace('spent.Alice = ["C (powerstone)", "C (powerstone)"]',
                         'spent.Alice = ["R", "C (powerstone)"]').replace(
        "damage.terror = 2", "damage.terror = 3")
    assert failures(wrong) == [(2, "spent.Alice", ["R", "C (powerstone)"],
                                ["C (powerstone)", "C (powerstone)"]),
                               (3, "damage.terror", 3, 2)]


def test_the_new_expectations_round_trip():
    for text in (CHARACTERISTICS, WARD):
        sc = loads(text)
        assert loads(dumps(sc)) == sc
        assert "mana_value.walker" in dumps(sc) or "damage.terror" in dumps(sc)


@pytest.mark.parametrize(("bad", "message"), [
    ('types.walker = ["Creatur"]', "a card type is one of"),
    ('colors.walker = ["C"]', "a color is one of W, U, B, R, G"),
    ('supertypes.walker = ["Token"]', "a supertype is one of"),
    ("mana_value.walker = -1", "mana_value.walker"),
    ('spent.Carol = ["G"]', "Carol"),
    ('damage.nobody = 1', "'nobody' is not a label or card name"),
])
def test_bad_characteristic_expectations_are_scenario_errors(bad, message):
    text = CHARACTERISTICS.split("[step.expect]")[0] + "[step.expect]\n" + bad + "\n"
    with pytest.raises(ScenarioError, match=message) as info:
        loads(text, name="bad.toml")
    assert str(info.value).startswith("bad.toml:")


DECIDED = '''
title = "Who orders the replacement effects"
[setup]
active = "Bob"
[setup.pool]
Bob = ["C", "C"]
[setup.hand]
Bob = [{ card = "Hangarback Walker", name = "walker" }]
[[setup.permanent]]
card = "Hardened Scales"
controller = "Bob"
[[setup.permanent]]
card = "Metallic Mimic"
controller = "Bob"
choices = { creature_type = "Construct" }
[[step]]
narration = "Bob casts the Walker for X = 1."
do = "cast"
card = "walker"
x = 1
[[step]]
narration = "It enters: Bob, who will control it, orders the two effects (CR 616.1)."
do = "resolve"
decisions = { replacement_order = ["Metallic Mimic"] }
[step.expect]
decided.replacement_order = "Bob"
counters.walker = { "+1/+1" = 3 }
'''


def test_who_made_a_decision_is_an_expectation():
    results = play(loads(DECIDED))
    assert all(c.ok for r in results for c in r.checks), [
        (c.description, c.expected, c.actual) for r in results for c in r.checks if not c.ok]
    wrong = DECIDED.replace('decided.replacement_order = "Bob"',
                            'decided.replacement_order = "Alice"')
    failed = [c for r in play(loads(wrong)) for c in r.checks if not c.ok]
    assert [(c.expected, c.actual) for c in failed] == [("Alice", "Bob")]


def test_the_schema_knows_every_decision():
    from mtg_rulekit.core.decisions import DECISIONS
    from mtg_rulekit.scenario.model import schema

    decided = schema()["$defs"]["expect"]["properties"]["decided"]
    assert sorted(decided["propertyNames"]["enum"]) == sorted(DECISIONS)


def test_every_expectation_name_has_one_reader():
    """The runner reads each expectation through a registry keyed by its name (as `COMMITS`
    is keyed by event kind): the names a scenario may write and the readers are the same set
    ("contents" is read zone by zone)."""
    from mtg_rulekit.scenario.model import EXPECT_ORDER
    from mtg_rulekit.scenario.runner import EXPECTATIONS

    assert set(EXPECTATIONS) == set(EXPECT_ORDER) - {"contents"}
