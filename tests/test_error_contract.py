"""The error contract (docs/engine.md, "Errors: who is to blame"): every public method either
acts or raises RulesError (the rules forbid it) or UsageError (a malformed call), and a refusal
leaves the game exactly as it was. Bad arguments are generated for every argument of every
action in mtg_rulekit.engine.arguments.ACTION_ARGS."""

from __future__ import annotations

from typing import Any

import pytest

from mtg_rulekit import Game, RulesError, Step, UsageError
from mtg_rulekit.core.decisions import DECISIONS
from mtg_rulekit.engine.arguments import ACTION_ARGS

BAD_VALUES: list[Any] = [True, 1.5, "zzz", -7, 10 ** 9, [], {}, [None], {"a": None}, b"x",
                         ("#",), "\u001b[2J", "x" * 10_000]


def position() -> tuple[Game, dict[str, Any]]:
    """A small position, and a well-formed value for every argument kind."""
    game = Game()
    forest = game.add("Forest")
    bears = game.add("Grizzly Bears")
    game.add("Giant Growth", zone="hand")
    good = {"card": "Forest", "player": "Alice", "object": forest.id, "objects": [bears.id],
            "mana": None, "blocks": {}, "life": 20}
    return game, good


def call_with(action: str, argument: str, value: Any, good: dict[str, Any]) -> dict[str, Any]:
    spec = ACTION_ARGS[action]
    kwargs = {k: good[k] for k, p in spec.items() if p.required and k != argument and k in good}
    if action == "set_pool" and argument != "mana":
        kwargs["mana"] = [{"type": "G"}]
    kwargs[argument] = value
    return kwargs


CASES = [(action, argument, i) for action, spec in ACTION_ARGS.items() for argument in spec
         for i in range(len(BAD_VALUES))]

# The values of BAD_VALUES that an argument takes after all, and why. Every other case must be
# refused with a UsageError naming the argument (or, in RULES_SAY_NO, by the rules).
ACCEPTED: dict[tuple[str, str, Any], str] = {
    **{("add", flag, "True"): "a status flag is a boolean"
       for flag in ("tapped", "sick", "token", "attacking")},
    ("add", "counters", "{}"): "no counters",
    ("add", "choices", "{}"): "no choices",
    ("set_turn", "turn", "1000000000"): "any turn number from 1",
    ("set_life", "life", "-7"): "a life total can be negative (CR 119.6)",
    ("set_life", "life", "1000000000"): "or large",
    ("set_pool", "mana", "[]"): "an empty pool",
    ("activate", "x", "-7"): "the Forest's ability has no X, so x is not used",
    ("activate", "x", "1000000000"): "the same",
    ("activate", "targets", "[]"): "the Forest's ability targets nothing",
    ("destroy", "objects", "[]"): "destroying nothing",
    ("exile", "objects", "[]"): "exiling nothing",
    ("gain_control", "until_end_of_turn", "True"): "a boolean",
}
# well-formed calls the rules refuse in this position, with the rule the refusal names
RULES_SAY_NO: dict[tuple[str, str, Any], str] = {
    ("cast", "x", "-7"): "601.2",  # the Forest is not in a hand
    ("cast", "x", "1000000000"): "601.2",
    ("cast", "targets", "[]"): "601.2",
    ("activate", "ability", "1000000000"): "no such ability",
    ("declare_attackers", "attackers", "[]"): "508.1",  # not the declare attackers step
    ("declare_attackers", "exert", "[]"): "508.1",
    ("declare_blockers", "blocks", "{}"): "509.1",
}


def expected(action: str, argument: str, i: int) -> tuple[str, str]:
    key = (action, argument, repr(BAD_VALUES[i]))
    if key in ACCEPTED:
        return "accepted", ACCEPTED[key]
    if key in RULES_SAY_NO:
        return "rules", RULES_SAY_NO[key]
    return "usage", argument


def test_the_expectations_name_real_cases():
    cases = {(a, b, repr(BAD_VALUES[i])) for a, b, i in CASES}
    assert set(ACCEPTED) <= cases and set(RULES_SAY_NO) <= cases


@pytest.mark.parametrize(("action", "argument", "i"), CASES,
                         ids=[f"{a}-{b}-{i}" for a, b, i in CASES])
def test_every_argument_of_every_action_refuses_garbage_cleanly(action, argument, i):
    """Each bad value is refused with the documented error (UsageError naming the argument),
    unless it is listed above as well-formed; a refusal changes nothing."""
    game, good = position()
    before, log_len = game.snapshot_json(), len(game.log)
    kwargs = call_with(action, argument, BAD_VALUES[i], good)
    outcome, detail = expected(action, argument, i)
    if outcome == "accepted":
        game.perform(action, **kwargs)  # must not raise
        return
    if outcome == "rules":
        with pytest.raises(RulesError) as refused:
            game.perform(action, **kwargs)
        assert detail in str(refused.value)
    else:
        with pytest.raises(UsageError) as err:
            game.perform(action, **kwargs)
        assert err.value.argument.split("[")[0].split(".")[0].split(" ")[0] == argument, \
            str(err.value)
        assert len(str(err.value)) <= 400
    assert game.snapshot_json() == before and len(game.log) == log_len


@pytest.mark.parametrize("action", sorted(ACTION_ARGS))
def test_unknown_arguments_and_decisions_are_named(action):
    game, _ = position()
    with pytest.raises(UsageError) as err:
        game.perform(action, colour="G")
    assert err.value.argument == "colour"
    with pytest.raises(UsageError, match="did you mean 'replacement_order'"):
        game.perform(action, decisions={"replacment_order": ["x"]})


def test_unknown_action_is_a_usage_error():
    with pytest.raises(UsageError, match="did you mean 'advance'"):
        Game().perform("advanse")


# The cases a careless user hit, through the public methods.
USAGE = {
    "advance to a step that doesn't exist": lambda g, o: g.advance("nope"),
    "set_turn to a step that doesn't exist": lambda g, o: g.set_turn(step="zzz"),
    "a zone that doesn't exist": lambda g, o: g.add("Forest", zone="moon"),
    "the stack is not a set-up zone": lambda g, o: g.add("Giant Growth", zone="stack"),
    "destroy None": lambda g, o: g.destroy([None]),
    "a mana type that doesn't exist": lambda g, o: g.perform("set_pool", player="Alice",
                                                              mana=[{"type": "Q"}]),
    "a block on None": lambda g, o: g.declare_blockers({o["bears"]: None}),
    "x as text": lambda g, o: g.cast(o["growth"], x="2"),
    "a negative counter": lambda g, o: g.add("Grizzly Bears", counters={"+1/+1": -1}),
    "a counter count as text": lambda g, o: g.add("Grizzly Bears", counters={"+1/+1": "x"}),
    "a decision naming no object": lambda g, o: g.resolve(sacrifice="bears"),
    "a misspelled decision": lambda g, o: g.tap_for_mana(o["forest"], replacment_order="x"),
    "an object that isn't in the game": lambda g, o: g.tap_for_mana(999),
    "a player who isn't in the game": lambda g, o: g.set_life("Carol", 3),
    "an unknown card": lambda g, o: g.add("Forrest"),
    "Utopia Sprawl without its color": lambda g, o: g.add("Utopia Sprawl",
                                                          attached_to=o["forest"]),
    "a color that isn't one": lambda g, o: g.add("Utopia Sprawl", attached_to=o["forest"],
                                                 choices={"color": "C"}),
    "a choice the card doesn't make": lambda g, o: g.add("Forest", choices={"color": "G"}),
    "mana written wrongly": lambda g, o: g.tap_for_mana(o["forest"], "Q"),
    "undo with nothing to undo": lambda g, o: Game().undo(),
    "undo of zero actions": lambda g, o: g.undo(0),
}

RULES = {
    "no attackers, so no declare blockers step (508.8)": (
        lambda g, o: g.advance("declare_blockers"), "508.8"),
    "an instant can't be on the battlefield (304.4)": (
        lambda g, o: g.add("Giant Growth"), "304.4"),
    "Wild Growth enchants a land, not a creature (303.4c)": (
        lambda g, o: g.add("Wild Growth", attached_to=o["bears"]), "303.4c"),
    "a land can't be attached to anything (704.5p)": (
        lambda g, o: g.add("Swamp", attached_to=o["forest"]), "704.5p"),
    "Equipment equips only creatures (301.5c)": (
        lambda g, o: g.add("Bonesplitter", attached_to=o["forest"]), "301.5c"),
}


def careless_position() -> tuple[Game, dict[str, int]]:
    game = Game()
    objs = {"forest": game.add("Forest").id, "bears": game.add("Grizzly Bears").id,
            "growth": game.add("Giant Growth", zone="hand").id}
    return game, objs


@pytest.mark.parametrize("case", sorted(USAGE))
def test_malformed_calls_raise_usage_error_and_change_nothing(case):
    game, objs = careless_position()
    before, log_len = game.snapshot_json(), len(game.log)
    with pytest.raises(UsageError) as err:
        USAGE[case](game, objs)
    assert err.value.argument and str(err.value).startswith(err.value.argument)
    assert game.snapshot_json() == before and len(game.log) == log_len


@pytest.mark.parametrize("case", sorted(RULES))
def test_what_the_rules_forbid_raises_rules_error_citing_the_rule(case):
    game, objs = careless_position()
    before, log_len = game.snapshot_json(), len(game.log)
    do, rule = RULES[case]
    with pytest.raises(RulesError) as err:
        do(game, objs)
    assert err.value.rule == rule and f"CR {rule}" in str(err.value)
    assert game.snapshot_json() == before and len(game.log) == log_len


def test_set_up_with_its_choice_works():
    game, objs = careless_position()
    game.add("Utopia Sprawl", attached_to=objs["forest"], choices={"color": "u"})
    game.tap_for_mana(objs["forest"])
    assert sorted(u.type.value for u in game.pool("Alice")) == ["G", "U"]


def test_an_aura_whose_land_leaves_goes_to_the_graveyard():
    """CR 704.5m: an Aura attached to nothing is put into its owner's graveyard."""
    game = Game()
    forest = game.add("Forest")
    growth = game.add("Wild Growth", attached_to=forest.id)
    game.destroy([forest])
    assert growth.moved_to is not None and game.find("Wild Growth", zone="graveyard")


def test_equipment_on_a_creature_that_dies_stays_unattached():
    game = Game()
    bears = game.add("Grizzly Bears")
    splitter = game.add("Bonesplitter", attached_to=bears.id)
    game.destroy([bears])
    assert game.obj(splitter.id).zone.value == "battlefield"
    assert game.obj(splitter.id).attached_to is None


def test_every_decision_key_is_documented():
    assert all(isinstance(v, str) and len(v) > 10 for v in DECISIONS.values())


def test_advance_to_declare_blockers_after_attacking_still_works():
    game = Game()
    bears = game.add("Grizzly Bears")
    game.set_turn(step=Step.BEGIN_COMBAT)
    game.advance("declare_attackers")
    game.declare_attackers([bears])
    game.advance("declare_blockers")
    assert game.step is Step.DECLARE_BLOCKERS


def test_a_decision_naming_no_object_is_a_usage_error_and_changes_nothing():
    """Contamination's upkeep trigger: "sacrifice a creature" answered with an id not in the
    game is a malformed decision, named as such; a real creature is sacrificed."""
    game = Game()
    game.add("Contamination")
    bears = game.add("Grizzly Bears")
    game.set_turn(step=Step.UNTAP)
    before = game.snapshot_json()
    with pytest.raises(UsageError, match="decisions.sacrifice: there is no object 99"):
        game.advance("main1", sacrifice=99)
    assert game.snapshot_json() == before
    game.advance("main1", sacrifice=bears.id)
    assert [game.chars(o).name for o in game.permanents()] == ["Contamination"]
