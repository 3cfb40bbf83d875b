"""Save as walkthrough: a sandbox session as scenario TOML that
`python -m mtg_rulekit run` passes unchanged, objects named by labels, for every lesson's sandbox
after a scripted session of a few clicks."""

from __future__ import annotations

import re

import pytest

from mtg_rulekit import Game, UsageError
from mtg_rulekit.authoring.walkthrough import walkthrough
from mtg_rulekit.sandbox import SandboxModel
from mtg_rulekit.scenario import loads, play
from tests.board_games import completed, sandbox
from tests.helpers import rulekit_cli
from tests.lesson_shape import lesson_stems

LESSONS = lesson_stems()


def scripted_session(model: SandboxModel, clicks: int = 3) -> list[str]:
    """Click the first legal action of the first cards that have one (not destroy), then
    go to the next step: what a student might do."""
    done: list[str] = []
    tried: set[int] = set()
    while len(done) < clicks:  # the verdicts change with each click: asked again each time
        entry = next((e for obj, entries in model.card_actions().items() if obj not in tried
                      for e in entries if e["legal"] and e["action"] != "destroy"), None)
        if entry is None:
            break
        tried.add(next(obj for obj, entries in model.card_actions().items() if entry in entries))
        outcome = model.click(entry["action"], completed(model, entry))
        assert outcome.ok, (entry, outcome.text)
        done.append(entry["label"])
    assert model.click("step", {}).ok
    return done


def saved_and_run(stem: str, tmp_path) -> None:
    model = sandbox(stem)
    scripted_session(model)
    text = walkthrough(model, title=f"My session in {stem}")
    assert not re.search(r"#\d", text), "objects are named by labels, never by ids"
    assert text.count("[[step]]") == len(model.game.actions) - model.start
    assert "(Say what happens here, and why.)" in text and "[step.expect]" in text
    path = tmp_path / "session.toml"
    path.write_text(text, "utf-8")
    ran = rulekit_cli("run", str(path))
    assert ran.returncode == 0, ran.stdout[-2000:] + ran.stderr
    assert all(r.ok for r in play(loads(text)))


def test_a_lesson_sandbox_session_saves_as_a_walkthrough_that_runs(tmp_path):
    # lesson 7: a token copy, a new label, the stack
    saved_and_run("07_token_copies", tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("stem", LESSONS)
def test_every_lesson_sandbox_session_saves_as_a_walkthrough_that_runs(stem, tmp_path):
    saved_and_run(stem, tmp_path)


def test_the_saved_file_names_cards_by_label_and_keeps_what_the_engine_saw():
    model = sandbox("05_powerstone_tokens")
    g = model.game
    stone = next(o for o in g.permanents("Alice") if g.chars(o).name == "Powerstone"
                 and not o.tapped)
    assert model.click("tap", {"permanent": stone.id}).ok
    bears = g.find("Grizzly Bears", zone="hand")
    forest = g.find("Forest")
    assert model.click("tap", {"permanent": forest.id}).ok
    model.click("cast", {"hand_card": bears.id})  # refused: not saved (no action taken)
    text = walkthrough(model)
    scenario = loads(text)
    assert [s["do"] for s in scenario.steps] == ["tap_for_mana", "tap_for_mana"]
    assert scenario.steps[0]["object"] == "powerstone"
    assert scenario.steps[0]["expect"]["pool"]["Alice"] == ["C (powerstone)"]
    assert scenario.steps[0]["expect"]["tapped"] == {"powerstone": True}
    assert sorted(scenario.steps[1]["expect"]["pool"]["Alice"]) == ["C (powerstone)", "G"]
    assert all(r.ok for r in play(scenario))


def test_undone_clicks_are_not_saved_and_an_empty_session_is_one_look():
    model = sandbox("01_tapping_and_summoning_sickness")
    forest = model.game.find_all("Forest")[1]
    model.click("tap", {"permanent": forest.id})
    model.click("undo", {})
    scenario = loads(walkthrough(model))
    assert [s["do"] for s in scenario.steps] == ["look"] and all(r.ok for r in play(scenario))


def test_a_board_reached_by_play_is_not_a_set_up():
    game = Game()
    game.tap_for_mana(game.add("Forest"))
    with pytest.raises(UsageError, match="reached by playing"):
        walkthrough(SandboxModel(game))
