"""The lesson widgets, driven as objects: the Stepper's frames and jslinks (stepping needs no
Python, so it works in exported HTML) and the Sandbox's buttons (click, then the game changed;
an illegal click shows the RulesError and changes nothing)."""

from __future__ import annotations

import re
from html import unescape

import pytest

from mtg_rulekit import Game
from mtg_rulekit.display.escape import html_text
from mtg_rulekit.display.svg import inline_svg
from mtg_rulekit.display.walkthrough.frames import resolve_scenario
from mtg_rulekit.display.walkthrough.reveal import groups_of, reveal
from mtg_rulekit.display.widgets import Sandbox, Stepper
from mtg_rulekit.scenario import load, loads, shipped_dir

pytestmark = pytest.mark.usefixtures("dot")  # see conftest.py


# ------------------------------------------------------------------ Stepper
@pytest.fixture(scope="module")
def r08() -> Stepper:
    return Stepper("r08_paying_untap")  # small enough for "so far" diagrams


def test_one_frame_per_step_plus_setup(r08):
    scenario = load(shipped_dir() / "r08_paying_untap.toml")
    assert len(r08) == len(scenario.steps) + 1 == len(r08.frames) == len(r08.frame_html)
    assert [f["step"] for f in r08.frames] == list(range(len(r08)))
    assert r08.frames[0]["label"] == "Set-up (step 0)"
    assert [f["narration"] for f in r08.frames[1:]] == [r.narration for r in r08.results[1:]]
    assert [f["announce"] for f in r08.frames] == r08.announcements


def test_the_stepper_is_an_anywidget_with_plain_data_traits(r08):
    import json

    import anywidget

    from mtg_rulekit.display.front import css_text, module_text

    assert isinstance(r08, anywidget.AnyWidget) and r08.widget is r08
    assert r08._esm == module_text("stepper") and r08._css == css_text("stepper")
    assert "export default" in r08._esm and "eval(" not in r08._esm
    synced = {name for name in r08.trait_names(sync=True) if not name.startswith("_")}
    assert {"frames", "svg", "uid", "title", "step", "rk_view"} <= synced
    assert r08.step == 0 and r08.rk_view == "stepper" and r08.title == r08.scenario.title
    json.dumps([r08.frames, r08.svg])  # plain data: JSON as it is
    # "so far": one drawing, each frame the groups it shows and what it adds
    assert r08.svg.startswith("<svg") and set(groups_of(r08.svg)) >= {"s0", "s3"}
    for k, f in enumerate(r08.frames):
        assert f["diagram"]["show"] == [f"s{j}" for j in range(k + 1)]
        assert f["diagram"]["new"] == [f"s{k}"]
    refused = r08.frames[1]
    assert refused["refused"] and "Refused" in r08.frame_html[1]
    board = refused["tables"][0]
    assert board["caption"] == "Board" and board["columns"][:2] == ["id", "card"]
    assert any(row["card"] == "Pili-Pala" for row in board["rows"])
    bundle = r08._repr_mimebundle_()
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    assert "application/vnd.jupyter.widget-view+json" in data


def test_frames_show_narration_tables_checks_and_inline_svg(r08):
    scenario = r08.scenario
    setup = r08.frame_html[0]
    assert html_text(scenario.title) in setup
    assert "<svg" in setup and "Board" in setup
    for k, step in enumerate(scenario.steps, start=1):
        html = r08.frame_html[k]
        assert html_text(step["narration"]) in html
        assert "<svg" in html and "<?xml" not in html and "<!DOCTYPE" not in html
        assert "Players: life and mana pools" in html
        assert "The engine agrees" in html  # every expectation of r08 holds
    refused = r08.frame_html[1]  # the untapped Pili-Pala can't pay {Q}
    assert "Refused" in refused and "107.6" in refused
    assert r08.diagram_mode == "so far"
    assert "Event and trigger diagram up to step 3" in r08.frame_html[3]


_GROUP_G = re.compile(r"<g class='(?:node|cluster|edge) rk-(s\d+)'>.*?</g>")
_HEIGHT = re.compile(r"<svg [^>]*height='([\d.]+)(?:pt)?'")


def _svg(frame: str) -> str:
    return frame[frame.index("<svg"):frame.index("</svg>") + 6]


def test_so_far_frames_are_one_layout_revealed_step_by_step(r08):
    """One drawing of the whole walkthrough: frame k shows the set-up and steps 1..k, each
    element exactly where the last frame draws it, the picture cropped below step k."""
    svgs = [_svg(f) for f in r08.frame_html]
    last = svgs[-1]
    for k, svg in enumerate(svgs):
        assert groups_of(svg) == [f"s{j}" for j in range(k + 1)]
        for m in _GROUP_G.finditer(svg):  # same element, same place, in every frame
            assert m.group(0) in last
        assert f"aria-label='Event and trigger diagram of {html_text(r08.scenario.title)}, " \
            f"up to {'the set-up' if k == 0 else f'step {k}'}'" in svg
    heights = [float(_HEIGHT.search(svg).group(1)) for svg in svgs]
    assert heights == sorted(heights) and heights[0] < heights[-1] / 3
    assert "Legend" in svgs[0]  # the legend (no group) shows from the start


def forest_walkthrough(title: str, narration: str, more_steps: str = "") -> str:
    """A scenario (TOML text) whose first step taps Alice's Forest."""
    return f"""
title = "{title}"
ruling = ["R07"]
[setup]
players = ["Alice", "Bob"]
[[setup.permanent]]
card = "Forest"
name = "forest"
controller = "Alice"
[[step]]
narration = "{narration}"
do = "tap_for_mana"
object = "forest"
{more_steps}"""


def test_a_walkthrough_that_takes_actions_back_is_drawn_frame_by_frame():
    text = forest_walkthrough("Tap, then take it back", "Alice taps the Forest",
                              '[[step]]\nnarration = "She takes it back"\ndo = "undo"')
    stepper = Stepper(loads(text, name="undo.toml"))
    tapped, undone = (_svg(f) for f in stepper.frame_html[1:])
    assert "taps Forest" in tapped and "taps Forest" not in undone
    assert groups_of(undone) == ["s0", "s1", "s2"]


def test_reveal_keeps_everything_when_nothing_is_hidden_and_escapes_the_label(r08):
    whole = _svg(r08.frame_html[-1])
    assert reveal(whole, set(groups_of(whole))) == whole
    relabelled = reveal(whole, {"s0"}, label="<b>Step & go</b>")
    assert "aria-label='&lt;b&gt;Step &amp; go&lt;/b&gt;'" in relabelled


def test_failed_expectations_are_listed():
    text = (shipped_dir() / "r08_paying_untap.toml").read_text("utf-8")
    wrong = text.replace('tapped.pili_new = true\npool.Alice = ["R", "C", "C"]',
                         'tapped.pili_new = true\npool.Alice = ["R"]', 1)
    assert wrong != text
    stepper = Stepper(loads(wrong, name="wrong.toml"), diagram=False)
    last = stepper.frame_html[-1]
    assert "did not hold" in last and "pool.Alice" in last
    assert "<svg" not in last


def test_diagram_modes_and_budget():
    one_step = Stepper("r04_triggers_need_mana", diagram="step")
    assert one_step.diagram_mode == "step"
    assert "Event and trigger diagram of step 2" in one_step.frame_html[2]
    auto = Stepper("r04_triggers_need_mana", diagram_budget=1)  # too big: one step per frame
    assert auto.diagram_mode == "step"
    with pytest.raises(ValueError):
        Stepper("r04_triggers_need_mana", diagram="sometimes")


def test_hostile_text_is_escaped_in_frames():
    hostile = "<script>alert('x')</script>"
    text = forest_walkthrough("Hostile {T} & <b>bold</b>", f"{hostile} taps the Forest")
    stepper = Stepper(loads(text, name="hostile.toml"))
    for html in stepper.frame_html:
        assert "<script" not in html and "<b>bold" not in html
    assert "&lt;script&gt;" in stepper.frame_html[1]


def test_resolve_scenario_by_name_path_and_ruling():
    path = shipped_dir() / "r07_paying_tap.toml"
    assert resolve_scenario("r07_paying_tap").title == load(path).title
    assert resolve_scenario("r07_paying_tap.toml").title == load(path).title
    assert resolve_scenario(path).title == load(path).title
    assert "R07" in resolve_scenario("R07").rulings
    with pytest.raises(FileNotFoundError):
        resolve_scenario("no_such_scenario")


def test_inline_svg_is_small_inline_and_labelled():
    game = Game(["Alice", "Bob"])
    game.tap_for_mana(game.add("Forest"))
    from mtg_rulekit.display import log_diagram

    raw = log_diagram(game).svg()
    svg = inline_svg(raw, label="A <label>")
    assert svg.startswith("<svg role='img' aria-label='A &lt;label&gt;'")
    assert "<!--" not in svg and " id=" not in svg and "xlink:title" not in svg
    assert "<title>" in svg  # tooltips and screen readers keep the readable titles
    assert len(svg) < len(raw)


# ------------------------------------------------------------------ Sandbox
# The kernel's Sandbox is an anywidget: the sandbox module sends each click as a custom message,
# `Sandbox.click` goes through the same handler (`_handle_custom_msg`), and `state` is what the
# module shows (see also tests/test_sandbox_widget.py).
def forest_game(players=("Alice", "Bob")) -> tuple[Game, int, int]:
    game = Game(list(players))
    forest = game.add("Forest", player=players[0])
    tapped = game.add("Forest", player=players[0], tapped=True)
    return game, forest.id, tapped.id


def message(sandbox: Sandbox) -> str:
    return sandbox.state["message"]


def test_sandbox_tap_changes_the_pool_and_redraws():
    game, forest, _ = forest_game()
    sandbox = Sandbox(game)
    assert sandbox.click("tap", permanent=forest)
    assert [u.type.value for u in game.pool("Alice")] == ["G"]
    assert "Done" in message(sandbox) and sandbox.last_error is None
    assert "{G}" in sandbox.state["tables_html"]
    assert "<svg" in sandbox.state["diagram"]
    assert "What your last click did" in sandbox.state["tables_html"]
    labels = sandbox.state["fields"]["permanent"]["options"]
    assert labels[0][0].endswith("tapped)")  # the labels follow the board


def test_sandbox_illegal_click_shows_the_rule_and_changes_nothing():
    game, _, tapped = forest_game()
    sandbox = Sandbox(game)
    before, log = game.snapshot_json(), len(game.log)
    assert not sandbox.click("tap", permanent=tapped)
    assert game.snapshot_json() == before and len(game.log) == log
    assert sandbox.last_error is not None and sandbox.last_error.rule == "107.5"
    assert "Refused" in message(sandbox) and "107.5" in message(sandbox)
    assert "role='alert'" in message(sandbox)


def test_sandbox_undo_takes_back_the_last_click_only():
    game, forest, _ = forest_game()
    sandbox = Sandbox(game)
    start = game.snapshot_json()
    sandbox.click("undo")
    assert "Nothing to undo" in message(sandbox)
    sandbox.click("tap", permanent=forest)
    sandbox.click("undo")
    assert game.snapshot_json() == start and game.pool("Alice") == []
    assert "Undone: Alice taps Forest" in message(sandbox)  # says what was undone


def test_sandbox_destroys_several_artifacts_at_once():
    game = Game(["Alice", "Bob"])
    refinery = game.add("Slagstone Refinery", player="Alice")
    memnite = game.add("Memnite", player="Alice")
    drum = game.add("Springleaf Drum", player="Alice")
    sandbox = Sandbox(game)
    sandbox.click("destroy", to_destroy=[refinery.id, memnite.id, drum.id])
    assert sandbox.last_error is None
    assert game.permanents() == []
    assert [i.source_name for i in game.stack] == ["Slagstone Refinery"] * 3  # R11
    assert "Slagstone Refinery" in sandbox.state["tables_html"]
    sandbox.click("undo")
    assert len(game.permanents()) == 3 and not game.stack


def test_sandbox_activates_an_untap_ability():
    game = Game(["Alice", "Bob"])
    forests = [game.add("Forest", player="Alice") for _ in range(2)]
    pili = game.add("Pili-Pala", player="Alice", tapped=True)
    sandbox = Sandbox(game)
    for forest in forests:
        sandbox.click("tap", permanent=forest.id)
    sandbox._handle_custom_msg({"values": {"permanent": pili.id}, "seq": 9}, [])
    abilities = sandbox.state["fields"]["ability"]["options"]
    assert [text for text, _ in abilities] == ["{2}, {Q}: Add one mana of any color."]
    assert sandbox.state["seq"] == 9  # the answer names the message it answers
    chosen = {"permanent": pili.id, "ability": abilities[0][1], "mana": "R"}
    sandbox.click("activate", **chosen)
    assert sandbox.last_error is None, message(sandbox)
    assert not game.obj(pili.id).tapped
    assert [u.type.value for u in game.pool("Alice")] == ["R"]
    sandbox.click("activate", **chosen)  # now untapped: it can't pay {Q}
    assert sandbox.last_error is not None and sandbox.last_error.rule == "107.6"


def test_sandbox_attacks_and_exerts_then_watches_the_untap_step():
    game = Game(["Alice", "Bob"])
    initiate = game.add("Glory-Bound Initiate", player="Alice")
    sandbox = Sandbox(game)
    sandbox.click("attack", attackers=[initiate.id])
    assert sandbox.last_error is not None and sandbox.last_error.rule == "508.1"
    sandbox.click("combat")
    sandbox.click("attack", attackers=[initiate.id], exert=[initiate.id])
    assert sandbox.last_error is None, message(sandbox)
    assert game.obj(initiate.id).attacking and game.obj(initiate.id).tapped
    assert "won't untap in Alice's next untap step" in unescape(sandbox.state["tables_html"])
    sandbox.click("resolve")  # the exert trigger
    sandbox.click("turn")  # Bob's turn
    sandbox.click("turn")  # Alice's: exerted, it doesn't untap (CR 701.43a)
    assert game.active == "Alice" and game.obj(initiate.id).tapped
    sandbox.click("turn")
    sandbox.click("turn")  # the next one: it untaps
    assert not game.obj(initiate.id).tapped


def test_sandbox_creates_a_token_copy():
    game = Game(["Alice", "Bob"])
    bears = game.add("Grizzly Bears", player="Alice", counters={"+1/+1": 2})
    sandbox = Sandbox(game)
    sandbox.click("copy", copy_target=bears.id)
    assert sandbox.last_error is not None  # nothing here can make a copy
    assert "Kiki-Jiki" in message(sandbox)
    game.add("Kiki-Jiki, Mirror Breaker", player="Alice")
    sandbox = Sandbox(game)
    sandbox.click("copy", copy_target=bears.id)
    assert sandbox.last_error is None, message(sandbox)
    copies = [o for o in game.find_all("Grizzly Bears") if o.token]
    assert len(copies) == 1 and not copies[0].counters  # R19: counters aren't copied
    sandbox.click("undo")  # one click = one undo, although it was two actions
    assert not [o for o in game.find_all("Grizzly Bears") if o.token] and not game.stack


def test_sandbox_casts_from_hand_with_x():
    game = Game(["Alice", "Bob"])
    lands = [game.add(name, player="Alice") for name in ("Forest", "Wastes")]
    walker = game.add("Hangarback Walker", player="Alice", zone="hand")
    sandbox = Sandbox(game)
    for land in lands:
        sandbox.click("tap", permanent=land.id)
    sandbox.click("cast", hand_card=walker.id, x=1)
    assert sandbox.last_error is None, message(sandbox)
    sandbox.click("resolve")
    entered = game.find("Hangarback Walker")
    assert entered.counters == {"+1/+1": 1}  # R06: X of the spell


def test_sandbox_from_a_scenario_and_next_step():
    sandbox = Sandbox("r07_paying_tap")
    assert sandbox.game.turn == 3
    step = sandbox.game.step
    sandbox.click("step")
    assert sandbox.game.step != step
    sandbox.click("pass")
    assert sandbox.last_error is None


def test_sandbox_escapes_hostile_names():
    hostile = "<script>alert('x')</script>"
    game, _, tapped = forest_game((hostile, "Bob"))
    sandbox = Sandbox(game)
    sandbox.click("tap", permanent=tapped)
    state = sandbox.state
    for html in (state["message"], state["tables_html"], state["diagram"], state["title"]):
        assert "<script" not in html
    assert "<script" not in Sandbox(game, title=hostile).state["diagram"]


def test_sandbox_controls_are_described_for_keyboard_and_screen_readers():
    state = Sandbox(Game(["Alice", "Bob"])).state
    assert len(state["controls"]) >= 11
    for control in state["controls"].values():
        assert control["label"] and control["help"]
    for f in state["fields"].values():
        assert f["label"] and f["help"]


def test_sandbox_mana_in_any_combination_and_x_in_a_counter_cost():
    game = Game(["Alice", "Bob"])
    wastes = game.add("Wastes", player="Alice")
    pools = game.add("Calciform Pools", player="Alice", counters={"storage": 2})
    sandbox = Sandbox(game)
    sandbox.click("tap", permanent=wastes.id)
    sandbox._handle_custom_msg({"values": {"permanent": pools.id}, "seq": 5}, [])
    ability = next(i for text, i in sandbox.state["fields"]["ability"]["options"]
                   if "Remove X" in text)
    # typed as on a card: any combination of {W} and/or {U}
    sandbox.click("activate", permanent=pools.id, ability=ability, x=2, mana="{W}{U}")
    assert sandbox.last_error is None, message(sandbox)
    assert sorted(u.type.value for u in game.pool("Alice")) == ["U", "W"]
    assert not game.obj(pools.id).tapped and not game.obj(pools.id).counters  # R03: no {T}


def test_sandbox_lesson_2_reflecting_pool_makes_white_from_calciform_pools():
    """The lesson 2 position: Calciform Pools with storage counters could produce {W} and {U}
    (CR 106.7 ignores costs, so X can be anything), so Reflecting Pool can make {W}."""
    game = Game(["Alice", "Bob"])
    game.add("Calciform Pools", player="Alice", counters={"storage": 2})
    reflecting = game.add("Reflecting Pool", player="Alice")
    sandbox = Sandbox(game)
    sandbox.click("tap", permanent=reflecting.id, mana="W")
    assert sandbox.last_error is None, message(sandbox)
    assert [u.type.value for u in game.pool("Alice")] == ["W"]


def test_sandbox_target_chooses_what_a_cost_taps():
    game = Game(["Alice", "Bob"])
    drum = game.add("Springleaf Drum", player="Alice")
    game.add("Grizzly Bears", player="Alice")
    elves = game.add("Llanowar Elves", player="Alice", sick=True)  # R07: fine for the Drum
    sandbox = Sandbox(game)
    sandbox.click("activate", permanent=drum.id, ability=0, target=elves.id, mana="G")
    assert sandbox.last_error is None, message(sandbox)
    assert game.obj(elves.id).tapped and not game.find("Grizzly Bears").tapped
