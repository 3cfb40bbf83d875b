"""The kernel's Sandbox (an anywidget, rulekit.sandbox.widget) without a browser or a
kernel: the sandbox module's custom messages go in through the widget's comm handler, the answer
is the synced `state`, and what a page needs to render it comes with the output."""

from __future__ import annotations

import json
from typing import Any

from rulekit import Game
from rulekit.display.front import css_text, module_text
from rulekit.display.widgets import SANDBOX_MIME, Sandbox
from rulekit.sandbox import SandboxModel
from rulekit.sandbox.view import sandbox_state


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
    from rulekit.export.views import VIEWS

    sandbox, forest = forest_sandbox()
    traits = sandbox.get_state()
    assert traits["rk_view"] == "sandbox"
    page = {k: traits[k] for k in VIEWS["sandbox"]}
    json.dumps(page, allow_nan=False)
    assert page["position"]["actions"] and "<svg" in page["state"]["diagram"]
    assert page["state"]["last"] is None and page["state"]["message"] == ""
    assert sandbox._repr_mimebundle_()[0][SANDBOX_MIME]["title"] == "Try it"
