"""The sandbox's board and card menus as the kernel widget sends them, through the
widget's custom-message path (no browser, no kernel): the state carries the board's HTML (cards
as `rk-card` with their ids, what the last click changed outlined, no "Full text" toggles) and
every card's actions with verdicts; a card action's click, a decision's picker (`ask`) and
"Save as walkthrough" go in as messages and come back as state."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from mtg_rulekit import Game
from mtg_rulekit.authoring.walkthrough import walkthrough
from mtg_rulekit.display.board import board_for_sandbox
from mtg_rulekit.display.widgets import Sandbox
from tests.test_sandbox_widget import comm_message


def _ids(board: str) -> list[int]:
    return [int(n) for n in re.findall(r"class='rk-card[^']*' data-id='(\d+)'", board)]


def test_the_state_has_the_board_and_every_cards_menu() -> None:
    game = Game(["Alice", "Bob"])
    forest = game.add("Forest", player="Alice")
    bear = game.add("Grizzly Bears", player="Alice")
    sandbox = Sandbox(game)
    state = sandbox.state
    assert state["board"] == board_for_sandbox(game, details=False)
    assert "<details" not in state["board"] and "rk-changed" not in state["board"]
    assert sorted(_ids(state["board"])) == [forest.id, bear.id]
    menus = state["card_actions"]
    assert set(menus) == {str(forest.id), str(bear.id)}  # JSON: ids as text
    tap = next(e for e in sandbox.model.card_actions()[forest.id] if e["label"] == "Tap for {G}")
    assert tap["legal"]
    # choosing it, as the module does: the click message with the entry's values
    sandbox._handle_msg(comm_message({"click": tap["action"], "values": tap["values"],
                                      "seq": 1}))
    state = sandbox.state
    assert state["last"]["kind"] == "done" and state["seq"] == 1
    assert re.search(rf"class='rk-card[^']* rk-changed' data-id='{forest.id}'", state["board"])
    again = next(e for e in state["card_actions"][str(forest.id)]
                 if e["label"] == "Tap for {G}")
    assert not again["legal"] and again["rule"] == "107.5" and again["reason"]
    # the verdict shown is what choosing it does: refused, with that rule
    sandbox._handle_msg(comm_message({"click": again["action"], "values": again["values"],
                                      "seq": 2}))
    assert sandbox.state["last"]["kind"] == "refused"
    assert sandbox.state["last"]["rule"] == again["rule"]


def test_a_decision_is_asked_through_the_picker_message() -> None:
    game = Game(["Alice", "Bob"])
    forest = game.add("Forest", player="Alice")
    game.add("Mana Reflection", player="Alice")
    game.add("Nyxbloom Ancient", player="Alice")
    sandbox = Sandbox(game)
    tap = next(e for e in sandbox.model.card_actions()[forest.id] if e["label"] == "Tap for {G}")
    assert tap["asks"] and tap["asks"][0]["rule"] == "616.1"
    before = game.snapshot_json()
    sandbox._handle_msg(comm_message({"ask": tap["action"], "values": tap["values"], "seq": 3}))
    picker = sandbox.state["picker"]
    assert game.snapshot_json() == before  # asking changes nothing
    assert picker["seq"] == 3 and picker["action"] == tap["action"]
    (order,) = picker["decisions"]
    assert order["who"] == "Alice" and "(CR 616.1)" in order["why"]
    nyx = next(o for o in order["options"] if o["value"] == "Nyxbloom Ancient")
    sandbox._handle_msg(comm_message({"click": tap["action"], "seq": 4,
                                      "values": {**tap["values"], "choices": nyx["choices"]}}))
    assert sandbox.state["last"]["kind"] == "done"
    assert game.pool("Alice").total == 6


@pytest.mark.slow  # as_walkthrough replays the session
def test_save_as_walkthrough_writes_a_file_next_to_the_notebook(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    game = Game(["Alice", "Bob"])
    forest = game.add("Forest", player="Alice")
    sandbox = Sandbox(game, title="Try it")
    sandbox.click("tap", permanent=forest.id)
    sandbox._handle_msg(comm_message({"walkthrough": "Try it", "seq": 9}))
    saved = sandbox.state["walkthrough"]
    assert saved["seq"] == 9 and saved["file"] == "try-it-walkthrough.toml"
    text = (tmp_path / saved["file"]).read_text("utf-8")
    assert text == walkthrough(sandbox.model, title="Try it") and tomllib.loads(text)
    sandbox._handle_msg(comm_message({"walkthrough": "Try it", "seq": 10}))
    assert sandbox.state["walkthrough"]["file"] == "try-it-walkthrough-2.toml"  # not overwritten


def _lessons() -> list[tuple[str, Any, dict[str, Any]]]:
    from tests.board_games import lesson_sandboxes

    return list(lesson_sandboxes())


LESSON_SANDBOXES = [stem for stem, _, _ in _lessons()]


@pytest.mark.parametrize("stem", LESSON_SANDBOXES)
def test_every_lessons_verdicts_are_what_choosing_them_does_through_the_messages(
        stem: str) -> None:
    """The kernel host, for every lesson's sandbox (as the lesson declares it: what it offers):
    every card's every menu entry sent as the module sends it (each picker its entry leaves a
    choice to asked with an ask message and answered with its first legal answer, then the
    decisions the click makes asked and answered the same way, then the click message) comes
    back done when its verdict said legal (then undone), refused by the very rule shown when
    not; and decisions go through the picker message."""
    game, offers = next((g, kw) for s, g, kw in _lessons() if s == stem)
    sandbox = Sandbox(game, history=0, **offers)  # no diagram: the verdicts are the point
    counts = {"chosen": 0, "refused": 0, "asked": 0, "seq": 0}

    def send(content: dict[str, Any]) -> dict[str, Any]:
        counts["seq"] += 1
        sandbox._handle_msg(comm_message({**content, "seq": counts["seq"]}))
        assert sandbox.state["seq"] == counts["seq"]
        return sandbox.state

    def every_entry() -> None:
        start = sandbox.state["board"]
        for cid, entries in sandbox.state["card_actions"].items():
            for entry in entries:
                values = dict(entry["values"])
                for choice in entry["choose"] or ():
                    if choice["kind"] == "several":  # the permanents destroyed with it
                        continue
                    picker = send({"ask": entry["action"], "values": values,
                                   "choose": choice["field"]})["picker"]
                    (asked,) = picker["decisions"]
                    assert asked["key"] == choice["field"] and asked["options"], entry
                    pick = next((o for o in asked["options"] if o["legal"]),
                                asked["options"][0])
                    values = dict(pick["values"])
                    counts["asked"] += 1
                if entry["legal"] and entry["asks"]:
                    picker = send({"ask": entry["action"], "values": values})["picker"]
                    assert picker["seq"] == counts["seq"] and picker["decisions"], entry
                    first = next(o for o in picker["decisions"][0]["options"] if o["legal"])
                    values["choices"] = first["choices"]
                    counts["asked"] += 1
                last = send({"click": entry["action"], "values": values})["last"]
                where = f"{stem} #{cid} {entry['label']}: said {entry['legal']}, got {last}"
                if entry["legal"]:
                    assert last["kind"] == "done", where
                    counts["chosen"] += 1
                    send({"click": "undo", "values": {}})
                    assert sandbox.state["board"] == start, where
                else:
                    assert last["kind"] == "refused" and last["rule"] == entry["rule"], where
                    counts["refused"] += 1

    every_entry()
    if not counts["chosen"]:  # a combat lesson: its cards act in the declare attackers step
        assert send({"click": "combat", "values": {}})["last"]["kind"] == "done"
        every_entry()
    assert counts["chosen"] >= 1, (stem, counts)
