"""Each action is declared once (mtg_rulekit.engine.arguments.ACTION_ARGS); the Game's methods, the
scenario format's actions (ACTION_KEYS, schema.json) and the argument names agree with it."""

from __future__ import annotations

import inspect
from pathlib import Path

from mtg_rulekit import Game
from mtg_rulekit.engine.arguments import ACTION_ARGS
from mtg_rulekit.scenario import ACTION_KEYS
from mtg_rulekit.scenario.model import schema

# a Game method's parameter -> the action argument it fills
RENAMED = {"obj": "object", "objs": "objects", "card_name": "card", "to": "to"}
SCENARIO_ONLY = {"look", "undo"}  # a step that only looks, and taking steps back
SCENARIO_RENAMED = {"card": "object"}  # a scenario names the card in hand to play or cast
# keys a scenario step adds to an action, which the runner handles itself
# (tests/test_scenario_format.py): `player`, who takes it (refused when the rules give the
# action to someone else); `resolve_triggers = false`, stop as a step begins
SCENARIO_KEYS = {"player", "resolve_triggers"}


def test_every_action_has_a_game_method_with_the_same_arguments():
    for name, spec in ACTION_ARGS.items():
        method = getattr(Game, name, None)
        assert method is not None, f"Game has no method for the action {name!r}"
        params = [p for p in inspect.signature(method).parameters.values()
                  if p.name != "self" and p.kind is not p.VAR_KEYWORD]
        for p in params:
            assert RENAMED.get(p.name, p.name) in spec, (name, p.name)
        takes_status = any(p.kind is p.VAR_KEYWORD for p in
                           inspect.signature(method).parameters.values())
        named = {RENAMED.get(p.name, p.name) for p in params}
        assert takes_status or named == set(spec), (name, sorted(set(spec) - named))


def test_every_scenario_action_is_an_engine_action_with_its_arguments():
    for do, keys in ACTION_KEYS.items():
        if do in SCENARIO_ONLY:
            continue
        assert do in ACTION_ARGS, do
        for key in set(keys) - SCENARIO_KEYS:
            assert SCENARIO_RENAMED.get(key, key) in ACTION_ARGS[do], (do, key)


def test_the_schema_lists_the_scenario_actions():
    step = schema()["$defs"]["step"]
    assert set(step["properties"]["do"]["enum"]) == set(ACTION_KEYS)


def test_one_rule_for_the_scenario_of_a_ruling():
    """The diagram of R05 (`diagrams/R05.dot`, what `make diagrams` writes), `Stepper("R05")`
    and the lessons show the same scenario: each ruling's committed diagram carries the title
    of the scenario that `Stepper(ruling)` plays, and no other scenario's."""
    from mtg_rulekit.display.walkthrough.frames import resolve_scenario
    from mtg_rulekit.scenario import by_ruling

    root = Path(__file__).resolve().parent.parent
    chosen = by_ruling()
    assert sorted(chosen) == [f"R{i:02d}" for i in range(1, 20)]
    for rid, path in chosen.items():
        played = resolve_scenario(rid)
        assert Path(played.path).resolve() == path.resolve(), rid
        header = (root / "diagrams" / f"{rid}.dot").read_text("utf-8").splitlines()[1]
        tooltip = header.split(' tooltip="', 1)[1]
        assert tooltip.endswith("\\n" + played.title.replace('"', '\\"') + '"'), (rid, tooltip)
