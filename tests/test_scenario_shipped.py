"""Every shipped scenario (mtg_rulekit/scenarios/) plays and all its expectations hold, and every
ruling has one (the coverage report reads which rulings a scenario teaches from the file
itself). Scenarios marked `status = "pending-engine"` must still load and are not played."""

from __future__ import annotations

import pytest

from mtg_rulekit.core.rulings import all_rulings
from mtg_rulekit.scenario import game_at, load, play, shipped
from mtg_rulekit.scenario.text import failure_lines


def _play(path):
    sc = load(path)
    return sc, failure_lines(sc, play(sc))


@pytest.mark.parametrize("path", [p for p in shipped() if not load(p).pending],
                         ids=lambda p: p.name)
def test_shipped_scenario_passes(path):
    _, problems = _play(path)
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("path", shipped(), ids=lambda p: p.name)
def test_shipped_scenario_is_a_teachable_story(path):
    """Rulings named, 2-10 steps with narration, at least one expectation per scenario."""
    sc = load(path)
    assert sc.rulings, f"{path.name}: name the rulings it teaches (ruling = [\"R05\"])"
    assert sc.description.strip(), f"{path.name}: say what it shows in a description"
    assert 2 <= len(sc.steps) <= 10, f"{path.name}: {len(sc.steps)} steps; a walkthrough has 2 to 10"
    assert all(s["narration"].strip() for s in sc.steps)
    assert sum(bool(s.get("expect") or s.get("expect_error")) for s in sc.steps) >= 1


# the characters of a narration Present's slide shows whole at 32 px in the words' third of a
# 1280x720 slide (mtg_rulekit/display/front/stepper.css)
SLIDE_WORDS = 280


@pytest.mark.parametrize("path", shipped(), ids=lambda p: p.name)
def test_shipped_narration_fits_a_third_of_a_slide(path):
    """Each step's narration is what the class reads on Present's slide: it fits the slide's
    words' column, a third of a 1280x720 slide, at 32 px (`SLIDE_WORDS`). What else the
    teacher should say goes in the step's `notes` (docs/scenarios.md)."""
    long = [(k, len(s["narration"])) for k, s in enumerate(load(path).steps, 1)
            if len(" ".join(s["narration"].split())) > SLIDE_WORDS]
    assert long == [], f"steps (number, characters) whose narration fills a third: {long}"


@pytest.mark.parametrize("path", [p for p in shipped() if not load(p).pending],
                         ids=lambda p: p.name)
def test_game_at_rebuilds_every_step_exactly(path):
    """game_at(k) replays the recorded actions: the same state as when the step was played."""
    sc = load(path)
    for k, result in enumerate(play(sc)):
        assert game_at(sc, k).snapshot() == result.snapshot, f"step {k}"


@pytest.mark.parametrize("path", [p for p in shipped() if not load(p).pending],
                         ids=lambda p: p.name)
def test_nobody_draws_from_an_empty_library(path):
    """Walkthroughs give each player a library, so no lesson on tapping or exert shows a
    player who would have lost the game (CR 121.4, 704.5b)."""
    sc = load(path)
    missing = set(sc.players) - set(sc.spec["setup"].get("library", {}))
    assert not missing, (f"{path.name}: give {' and '.join(sorted(missing))} a library in "
                         "[setup.library] (a player who must draw from an empty library loses "
                         "the game, CR 121.4, 704.5b)")
    empty = [(r.number, e.text) for r in play(sc) for e in r.events
             if e.kind.value == "drew" and getattr(e.payload, "empty", None)]
    assert empty == []


def test_every_ruling_has_a_shipped_scenario():
    tagged = {rid for p in shipped() for rid in load(p).rulings}
    assert set(all_rulings()) <= tagged
