"""Challenges the engine checks (lichess Practice style): every lesson sandbox's challenges,
declared as data with the sandbox (`mtg_rulekit/sandboxes/`), are solved by their reference
solutions clicked on the board, answer their mistake with the hint, start on their own boards,
don't give their answer away, and are the same in the kernel's widget and in the page."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from mtg_rulekit import ScenarioError
from mtg_rulekit.sandbox import lessons
from mtg_rulekit.sandbox.widget import Sandbox
from tests.board_games import NOTEBOOKS, sandbox_name
from tests.helpers import rulekit_cli

SHIPPED = {p.stem: lessons.load(p) for p in lessons.shipped()}
CHALLENGES = [(stem, c.id) for stem, sb in SHIPPED.items() for c in sb.challenges]


def _challenge(stem: str, cid: str) -> lessons.Challenge:
    return next(c for c in SHIPPED[stem].challenges if c.id == cid)


@pytest.mark.parametrize(("stem", "cid"), CHALLENGES)
def test_the_reference_solution_solves_it_and_the_mistake_shows_the_hint(stem, cid):
    sandbox, challenge = SHIPPED[stem], _challenge(stem, cid)
    played = lessons.play(sandbox, challenge)
    assert played.solved, played.said
    assert played.mistake_wrong is True
    # the clicks of the solution, one by one: solved only at the last one
    model = sandbox.model()
    model.click("challenge", {"challenge": cid})
    for k, step in enumerate(challenge.solution):
        lessons.play_click(model, step, challenge.labels)
        assert (model.practice.last == "solved") is (k == len(challenge.solution) - 1), step
    shown = model.to_json()["practice"]
    assert shown["status"][cid] == "solved" and shown["last"] == "solved"
    assert "goal" not in json.dumps(shown["challenges"])  # the goal and solution stay hidden


def test_every_lesson_sandbox_has_challenges_and_every_lesson_starts_its_own():
    """Each shipped sandbox file is its lesson's (a lesson may also start a scenario's board,
    as a new lesson's template does, without challenges)."""
    named = {p.stem: sandbox_name(p.stem) for p in sorted(NOTEBOOKS.glob("*.ipynb"))}
    for stem in SHIPPED:
        assert named.get(stem) == stem, f"{stem}.ipynb doesn't start its sandbox file"
    for stem, sb in SHIPPED.items():
        assert len(sb.challenges) >= 2, stem
        assert sb.offers, f"{stem} offers every kind of action"
        nb = (NOTEBOOKS / f"{stem}.ipynb").read_text("utf-8")
        assert "Things to try" not in nb, stem  # the challenges replaced it


@pytest.mark.parametrize(("stem", "cid"), CHALLENGES)
def test_a_challenge_says_its_goal_not_its_answer(stem, cid):
    """What the student reads (and the hint) names none of the solution's choices: no card
    it targets or picks that the goal doesn't name itself (Kiki-Jiki may be named, the Goose
    it copies may not), no answer to a decision (Contamination first), no X."""
    challenge = _challenge(stem, cid)
    model = SHIPPED[stem].model()
    model.click("challenge", {"challenge": cid})
    g = model.game
    names = {label: g.chars(g.obj(i)).name for label, i in challenge.labels.items()}
    goal = json.dumps([challenge.goal, challenge.over])
    in_goal = {n for label, n in names.items() if label in goal or n in goal}
    chosen: set[str] = set()
    for step in challenge.solution:
        refs = [step.get("target"), *step.get("targets", []), *step.get("choices", {}).values()]
        chosen |= {names.get(r, r) for r in refs if r is not None}
        if "x" in step:
            for text in (challenge.say, challenge.hint):
                assert not re.search(rf"X ?= ?{step['x']}\b", text), (cid, text)
    for name in chosen - in_goal:
        assert name not in challenge.say and name not in challenge.hint, (cid, name)


def test_each_challenge_starts_and_starts_again_on_its_own_board():
    sb = SHIPPED["02_mana_abilities_and_could_produce"]
    model = sb.model()
    starts = {}
    for c in sb.challenges:
        assert model.click("challenge", {"challenge": c.id}).ok
        starts[c.id] = model.game.snapshot_json()
    own = next(c for c in sb.challenges if c.position != sb.position)  # {B}{B}: its own board
    assert starts[own.id] != starts[sb.challenges[0].id]
    first = sb.challenges[0]
    model.click("challenge", {"challenge": first.id})
    lessons.clicks(model, first.solution, first.labels)
    assert model.practice.status[first.id] == "solved"
    assert model.game.snapshot_json() != starts[first.id]
    assert model.click("challenge", {"challenge": first.id}).ok  # start again
    assert model.game.snapshot_json() == starts[first.id]
    assert model.practice.status[first.id] == "solved"  # progress stays
    assert model.practice.last == "" and model.practice.current == first.id
    assert model.click("challenge", {"challenge": "no-such"}).kind == "refused"


def test_the_kernel_and_the_page_check_a_challenge_alike():
    from mtg_rulekit.sandbox import page

    stem = "03_tapped_for_mana_triggers_and_replacements"
    kernel = Sandbox(stem)
    view = json.loads(page.start(json.dumps({**kernel.position, "title": kernel.title})))
    challenge = SHIPPED[stem].challenges[0]
    kernel.click("challenge", challenge=challenge.id)
    page.click(view["id"], "challenge", json.dumps({"challenge": challenge.id}))
    forest = challenge.labels["forest2"]  # the mistake: the Forest without Wild Growth
    kernel.click("activate", permanent=forest, ability=0)
    answer = json.loads(page.click(view["id"], "activate",
                                   json.dumps({"permanent": forest, "ability": 0})))
    assert kernel.state["practice"] == answer["practice"]
    assert answer["practice"]["last"] == "wrong"
    assert answer["practice"]["status"] == {challenge.id: "wrong"}


def _bad(tmp_path: Path, text: str) -> str:
    path = tmp_path / "bad.toml"
    path.write_text(text, "utf-8")
    with pytest.raises(ScenarioError) as err:
        lessons.load(path)
    return str(err.value)


BOARD = """title = "t"
[setup]
[[setup.permanent]]
card = "Forest"
name = "forest"
"""


@pytest.mark.parametrize(("challenge", "said"), [
    ('id = "a"\nsay = "s"\nhint = "h"\nrule = "106.5"\ngoal = { tapped.forrest = true }\n'
     'solution = [{ bar = "pass" }]', r"bad\.toml:12: challenge\[1\]\.goal\.tapped\.forrest: 'forrest'.*did you mean 'forest'"),
    ('id = "a"\nsay = "s"\nhint = "h"\nrule = "106.99"\ngoal = { tapped.forest = true }\n'
     'solution = [{ bar = "pass" }]', r"bad\.toml:11: .*CR 106\.99 is not a rule the kit"),
    ('id = "a"\nsay = "s"\nhint = "h"\nrule = "106.5"\ngoal = { tapped.forest = true }\n'
     'solution = [{ card = "forst", do = "Tap for {G}" }]', r"bad\.toml:13: challenge\[1\]\.solution\[1\]: 'forst'"),
    ('id = "a"\nsay = "s"\nhint = "h"\nrule = "106.5"\ngoal = { tapped.forest = false }\n'
     'solution = [{ bar = "pass" }]', r"bad\.toml:12: .*holds on the challenge's starting"),
    ('id = "a"\nsay = "s"\nhint = "h"\nrule = "106.5"\ngoal = { tapped.forest = true }\n'
     'solution = [{ card = "forest" }]', r"bad\.toml:13: .*a click is"),
])
def test_a_bad_challenge_says_where(tmp_path, challenge, said):
    message = _bad(tmp_path, BOARD + "\n[[challenge]]\n" + challenge + "\n")
    assert re.search(said, message), message


def test_the_command_line_plays_every_reference_solution():
    done = rulekit_cli("challenges", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["total"] == len(CHALLENGES) == report["solved"]
    assert all(r["solved"] and r["mistake_shows_hint"] for r in report["challenges"])
    assert {(r["lesson"], r["id"]) for r in report["challenges"]} == set(CHALLENGES)
    one = lessons.shipped()[0]
    text = rulekit_cli("challenges", str(one)).stdout
    n = len(SHIPPED[one.stem].challenges)
    assert text.rstrip().endswith(f"{n} of {n} challenges solved")
    assert f"{one.stem}  {SHIPPED[one.stem].challenges[0].id}: " in text


def test_the_command_line_says_when_a_solution_does_not_solve_it(tmp_path):
    path = tmp_path / "unsolved.toml"
    path.write_text(BOARD + '\n[[challenge]]\nid = "a"\nsay = "s"\nhint = "h"\nrule = "106.5"\n'
                    'goal = { tapped.forest = true }\nsolution = [{ bar = "pass" }]\n', "utf-8")
    done = rulekit_cli("challenges", str(path))
    assert done.returncode == 1 and "a: s  NOT SOLVED" in done.stdout


@pytest.mark.parametrize("values", [[1, 2], {"challenge": [1]}, {"challenge": 5},
                                    {"challenge": "x" * 5000}, {"challenge": "four-gree"}])
def test_a_challenge_the_sandbox_lacks_is_refused_and_changes_nothing(values):
    stem = "03_tapped_for_mana_triggers_and_replacements"
    kernel = Sandbox(stem)
    before = kernel.game.snapshot_json()
    kernel._handle_custom_msg({"click": "challenge", "values": values, "seq": 1}, [])
    assert kernel.state["last"]["kind"] == "refused"
    assert kernel.game.snapshot_json() == before and kernel.model.practice.current is None


def test_a_picker_is_asked_only_for_what_a_click_chooses():
    kernel = Sandbox("03_tapped_for_mana_triggers_and_replacements")
    for ask, choose in (("activate", 5), ("activate", "permanent"), ("challenge", "target")):
        kernel._handle_custom_msg({"ask": ask, "values": {}, "choose": choose, "seq": 2}, [])
        assert kernel.state["last"]["kind"] == "refused", (ask, choose)
