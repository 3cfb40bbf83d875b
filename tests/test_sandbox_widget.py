"""The kernel's Sandbox (an anywidget, mtg_rulekit.sandbox.widget) without a browser or a
kernel: the sandbox module's custom messages go in through the widget's comm handler, the answer
is the synced `state`, and what a page needs to render it comes with the output."""

from __future__ import annotations

import json
from typing import Any

import pytest

from mtg_rulekit import Game
from mtg_rulekit.display.front import css_text, module_text
from mtg_rulekit.sandbox import SandboxModel
from mtg_rulekit.sandbox.view import sandbox_state
from mtg_rulekit.sandbox.widget import SANDBOX_MIME, Sandbox


def comm_message(content: dict[str, Any]) -> dict[str, Any]:
    """A custom message as the comm delivers it from the front-end (`model.send(content)`)."""
    return {"content": {"data": {"method": "custom", "content": content}}, "buffers": []}


def forest_sandbox() -> tuple[Sandbox, int]:
    game = Game(["Alice", "Bob"])
    forest = game.add("Forest", player="Alice").id
    return Sandbox(game, title="Try it"), forest


def test_the_widget_is_the_sandbox_module():
    assert Sandbox._esm == module_text("sandbox") and "export default" in Sandbox._esm
    assert css_text("sandbox") in Sandbox._css and "table.rk-table" in Sandbox._css
    sandbox, _ = forest_sandbox()
    assert sandbox.status == {"state": "ready"}  # a kernel is always ready
    assert not any(hasattr(sandbox, a) for a in ("tap_button", "permanent", "notes"))


def test_a_click_message_round_trips_through_the_comm():
    sandbox, forest = forest_sandbox()
    sent: list[dict[str, Any]] = []
    sandbox.send_state = lambda key=None: sent.append({"key": key})  # what goes to the browser
    sandbox._handle_msg(comm_message({"click": "tap", "values": {"permanent": forest},
                                      "seq": 1}))
    assert sent and sent[-1]["key"] in ("state", ["state"], {"state"})
    state = sandbox.state
    assert state["seq"] == 1 and state["last"]["kind"] == "done"
    assert state["message"].startswith("<div class='rk-done' role='status'><b>Done:</b> Alice "
                                       "taps Forest")
    assert [u.type.value for u in sandbox.game.pool("Alice")] == ["G"]
    # the same click again: refused with its rule, the game unchanged, a new answer all the same
    before = sandbox.game.snapshot_json()
    sandbox._handle_msg(comm_message({"click": "tap", "values": {"permanent": forest},
                                      "seq": 2}))
    assert sandbox.state["seq"] == 2 and sandbox.state["last"]["rule"] == "107.5"
    assert sandbox.game.snapshot_json() == before
    # what the kernel shows is the model's JSON, and the same as a fresh model given the clicks
    model = SandboxModel.from_position(sandbox.position)
    model.click("tap", {"permanent": forest})
    model.click("tap", {"permanent": forest})
    mirror = json.loads(json.dumps(sandbox_state(model, {"permanent": forest}, title="Try it")))
    assert {k: v for k, v in sandbox.state.items() if k != "seq"} == mirror


def test_messages_the_model_cant_read_are_refused_or_ignored():
    sandbox, forest = forest_sandbox()
    start = sandbox.game.snapshot_json()
    sandbox._handle_custom_msg({"click": "explode", "values": {}, "seq": 3}, [])
    assert sandbox.state["seq"] == 3 and sandbox.state["last"]["kind"] == "refused"
    assert "explode" in sandbox.state["message"]
    sandbox._handle_custom_msg({"load": "view"}, [])  # the page back-end's: nothing to do here
    sandbox._handle_custom_msg("not a dict", [])
    assert sandbox.state["seq"] == 3 and sandbox.game.snapshot_json() == start
    sandbox._handle_custom_msg({"values": {"permanent": forest}, "seq": 4}, [])
    assert sandbox.state["seq"] == 4 and "diagram" in sandbox.state  # fields only: board kept


def test_the_widget_state_is_what_a_page_renders():
    """An exported page takes the view's traits from the saved widget state (export.views):
    the sandbox's are JSON data, named as the page contract says."""
    from mtg_rulekit.export.views import VIEWS

    sandbox, forest = forest_sandbox()
    traits = sandbox.get_state()
    assert traits["rk_view"] == "sandbox"
    page = {k: traits[k] for k in VIEWS["sandbox"]}
    json.dumps(page, allow_nan=False)
    assert page["position"]["actions"] and "<svg" in page["state"]["diagram"]
    assert page["state"]["last"] is None and page["state"]["message"] == ""
    assert sandbox._repr_mimebundle_()[0][SANDBOX_MIME]["title"] == "Try it"


def bears_sandbox(n: int = 12) -> Sandbox:
    game = Game(["Alice", "Bob"])
    for _ in range(n):
        game.add("Grizzly Bears", sick=False)
    game.set_turn(step="declare_attackers")
    return Sandbox(game)


HOSTILE_VALUES: list[tuple[str, dict[str, Any], str]] = [
    ("destroy", {"to_destroy": "12"}, "to_destroy: expected a list of the choices offered"),
    ("destroy", {"to_destroy": 8}, "to_destroy: expected a list"),
    ("destroy", {"to_destroy": [1, [2]]}, "to_destroy: expected a list"),
    ("destroy", {"to_destroy": [True]}, "to_destroy: expected a list"),
    ("attack", {"attackers": True}, "attackers: expected a list"),
    ("attack", {"attackers": [1], "exert": True}, "exert: expected a list"),
    ("tap", {"permanent": "1"}, 'permanent: "1" is not one of the choices offered'),
    ("tap", {"permanent": 99}, "permanent: 99 is not one of the choices offered"),
    ("tap", {"permanent": 1, "mana": ["G"]}, "mana: expected text"),
    ("tap", {"permanent": 1, "choices": "may=" + "y" * 5000}, "choices: 5,004 characters; at most 2,000"),
    ("cast", {"x": -1}, "x: expected a whole number, got -1"),
    ("pass", [], "values: expected the inputs as {name: value}"),
]


@pytest.mark.parametrize("control, values, words", HOSTILE_VALUES,
                         ids=[f"{c}-{i}" for i, (c, _, _) in enumerate(HOSTILE_VALUES)])
def test_the_kernel_widget_checks_values_as_the_page_does(control, values, words):
    """One check (`SandboxModel.values`) for both hosts: the widget's messages are refused with
    the page bridge's very words, nothing escapes the handler, the game is unchanged."""
    from mtg_rulekit.sandbox import page as sandbox_page

    sandbox = bears_sandbox()
    before = sandbox.game.snapshot_json(), sandbox.game.log.dumps()
    sandbox._on_msg(sandbox, {"click": control, "values": values, "seq": 5}, [])
    assert sandbox.state["seq"] == 5 and sandbox.state["last"]["kind"] == "refused"
    assert sandbox.state["last"]["text"].startswith(words), sandbox.state["last"]["text"]
    assert (sandbox.game.snapshot_json(), sandbox.game.log.dumps()) == before
    page = json.loads(sandbox_page.start(json.dumps(sandbox.model.position())))
    answer = json.loads(sandbox_page.click(page["id"], control, json.dumps(values)))
    assert answer["last"]["text"] == sandbox.state["last"]["text"]
    # and the model itself, as a script calls it
    assert sandbox.model.click(control, values).text == sandbox.state["last"]["text"]


def test_the_review_to_destroy_12_destroys_nothing():
    sandbox = bears_sandbox()
    sandbox._on_msg(sandbox, {"click": "destroy", "values": {"to_destroy": "12"}, "seq": 1}, [])
    assert "Destroy" not in sandbox.state["last"]["text"]
    assert len(sandbox.game.permanents()) == 12
    sandbox._on_msg(sandbox, {"click": "destroy", "values": {"to_destroy": [1, 2]}, "seq": 2}, [])
    assert sandbox.state["last"]["kind"] == "done" and len(sandbox.game.permanents()) == 10


@pytest.mark.parametrize("content", [
    {"ask": "destroy", "values": {"to_destroy": "12"}},
    {"ask": ["destroy"], "values": {}},
    {"search": ["Forest"]},
    {"search": None},
    {"values": {"permanent": [[[]]]}},
    {"values": "permanent"},
    {"click": {"tap": 1}},
    {"click": "tap", "values": {"permanent": 1}, "seq": "abc"},
    {"walkthrough": ["x"] * 3, "seq": True},
])
def test_no_message_raises_out_of_the_handler(content, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sandbox = bears_sandbox(2)
    before = sandbox.game.snapshot_json()
    sandbox._on_msg(sandbox, content, [])
    assert isinstance(sandbox.state["seq"], int)
    if "click" not in content:
        assert sandbox.game.snapshot_json() == before


def test_a_seq_the_front_end_set_to_text_does_not_break_click():
    sandbox = bears_sandbox(1)
    sandbox.state = {**sandbox.state, "seq": "abc"}
    assert sandbox.click("tap", permanent=1) is False  # Grizzly Bears makes no mana: refused
    assert sandbox.state["seq"] == 1 and sandbox.state["last"]["kind"] == "refused"


def test_save_as_walkthrough_writes_a_bounded_number_of_files(tmp_path, monkeypatch):
    from mtg_rulekit.sandbox.widget import MAX_SAVED_FILES

    monkeypatch.chdir(tmp_path)
    sandbox = bears_sandbox(1)
    monkeypatch.setattr("mtg_rulekit.authoring.walkthrough.walkthrough",
                        lambda model, title: f'title = "{title}"\n')
    for k in range(MAX_SAVED_FILES + 5):
        sandbox._on_msg(sandbox, {"walkthrough": f"Try {k % 3}", "seq": k}, [])
    assert len(list(tmp_path.glob("*.toml"))) == MAX_SAVED_FILES
    saved = sandbox.state["walkthrough"]
    assert "file" not in saved and saved["error"].startswith(
        f"this sandbox has saved {MAX_SAVED_FILES} walkthrough files already")


def test_a_permanent_given_as_true_is_not_object_1():
    """True == 1 in Python: the fields of a sandbox whose first permanent is #1 must not take
    `permanent: true` for it (the check then refuses it, naming the input)."""
    sandbox = bears_sandbox(2)
    fields = sandbox.model.fields({"permanent": True})
    assert fields["permanent"].options[0][1] == 1
    sandbox._on_msg(sandbox, {"click": "tap", "values": {"permanent": True}, "seq": 3}, [])
    assert sandbox.state["last"]["text"] == "permanent: true is not one of the choices offered"
