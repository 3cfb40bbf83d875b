"""The pure sandbox model (mtg_rulekit.sandbox): one declaration of the controls, rendered by the
one sandbox module for the kernel's Sandbox and the page's; clicks are atomic and say what they
did."""

from __future__ import annotations

import json

import pytest

from mtg_rulekit import Game, Step, UsageError
from mtg_rulekit.display.widgets import Sandbox
from mtg_rulekit.sandbox import CONTROLS, FIELDS, GROUPS, SandboxModel
from mtg_rulekit.sandbox.view import model_json, tables


def test_every_field_and_control_is_laid_out_once():
    """All but the pickers' answers (`choices`: no free-text box, CR 616.1 orders and the
    rest are chosen in pickers)."""
    laid_out = [name for _, names in GROUPS for name in names]
    assert sorted(laid_out) == sorted([*(f for f in FIELDS if f != "choices"), *CONTROLS])
    assert len(laid_out) == len(set(laid_out))


def test_the_widget_state_carries_every_field_and_control():
    """The kernel widget's `state` (what the sandbox module renders) lays out every field and
    control of the model, each saying what it does."""
    state = Sandbox(Game()).state
    assert sorted(state["fields"]) == sorted(FIELDS)
    assert sorted(state["controls"]) == sorted(CONTROLS)
    assert [[h, list(n)] for h, n in GROUPS] == state["groups"]
    for name in [*FIELDS, *CONTROLS]:
        entry = state["fields"].get(name) or state["controls"][name]
        assert entry["help"], name  # every control says what it does


def forest_and_bears() -> tuple[SandboxModel, int, int]:
    model = SandboxModel(Game())
    forest = model.game.add("Forest").id
    bears = model.game.add("Grizzly Bears", sick=True).id
    model.start = len(model.game.actions)
    return model, forest, bears


def test_a_refused_click_changes_nothing_and_cites_the_rule():
    model, forest, bears = forest_and_bears()
    before = model.game.snapshot_json()
    outcome = model.click("attack", {"attackers": [bears]})
    assert outcome.kind == "refused" and outcome.rule == "508.1" and "CR 508.1" in outcome.text
    assert model.game.snapshot_json() == before


def test_a_click_missing_its_input_says_which():
    model, _, _ = forest_and_bears()
    outcome = model.click("destroy", {})
    assert outcome.kind == "refused" and "to_destroy: choose one or more permanents" in outcome.text


def test_undo_names_what_it_took_back_and_reset_goes_to_the_start():
    model, forest, _ = forest_and_bears()
    start = model.game.snapshot_json()
    assert model.click("tap", {"permanent": forest}).ok
    assert model.click("step", {}).ok
    assert model.click("undo", {}).text.startswith("Undone: All players pass")
    assert model.click("reset", {}).kind == "undone"
    assert model.game.snapshot_json() == start
    assert model.click("undo", {}).kind == "nothing"


def test_exert_then_the_untap_step_through_the_model():
    model = SandboxModel(Game())
    initiate = model.game.add("Glory-Bound Initiate").id
    model.game.set_turn(step=Step.BEGIN_COMBAT)
    assert model.click("combat", {}).ok
    assert model.click("attack", {"attackers": [initiate], "exert": [initiate]}).ok
    model.click("resolve", {})
    assert model.click("turn", {}).ok  # Bob's turn
    assert model.click("turn", {}).ok  # Alice's: the exerted Initiate stays tapped
    row = next(r for r in tables(model)["board"].rows if r["id"] == initiate)
    assert row["tapped"] == "yes"


def test_the_model_state_is_plain_json_and_deterministic():
    def run() -> str:
        model, forest, _ = forest_and_bears()
        model.click("tap", {"permanent": forest})
        model.click("tap", {"permanent": forest})
        return json.dumps(model_json(model, {"permanent": forest}), sort_keys=True)
    first = run()
    assert first == run()
    data = json.loads(first)
    assert data["last"]["kind"] == "refused" and data["last"]["rule"] == "107.5"
    assert data["tables"]["players"]["rows"][0]["mana pool"] == "{G}"


def test_unknown_control_is_a_usage_error():
    with pytest.raises(UsageError, match="no sandbox control"):
        SandboxModel(Game()).click("explode", {})


def test_the_ability_list_follows_the_chosen_permanent():
    model = SandboxModel(Game())
    forest = model.game.add("Forest").id
    drum = model.game.add("Springleaf Drum").id
    assert [t for t, _ in model.fields({"permanent": forest})["ability"].options] == [
        "{T}: Add {G}."]
    assert "Springleaf Drum" not in str(model.fields({"permanent": drum})["ability"].options[0])
    assert model.fields({"permanent": drum})["ability"].options[0][0].startswith("{T}, Tap")


def test_the_choices_box_makes_the_players_choices():
    """CR 616.1: Alice orders Contamination before Mana Reflection: {B}{B} (the default order
    would give {B})."""
    def tap(choices: str) -> str:
        model = SandboxModel(Game())
        forest = model.game.add("Forest").id
        model.game.add("Contamination")
        model.game.add("Mana Reflection")
        outcome = model.click("tap", {"permanent": forest, "choices": choices})
        assert outcome.ok, outcome.text
        return tables(model)["players"].rows[0]["mana pool"]
    assert tap("replacement_order=Contamination") == "{B}{B}"
    assert tap("replacement_order=Mana Reflection") == "{B}"


def test_a_misspelled_choice_is_refused_naming_it():
    model, forest, _ = forest_and_bears()
    outcome = model.click("tap", {"permanent": forest, "choices": "replacment_order=x"})
    assert outcome.kind == "refused" and "did you mean 'replacement_order'" in outcome.text
    assert model.click("tap", {"permanent": forest, "choices": "nonsense"}).kind == "refused"
