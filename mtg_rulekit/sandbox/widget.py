"""The sandbox in a kernel: an `anywidget` whose front-end is the one sandbox module
(`mtg_rulekit/display/front/sandbox.js`) and whose back-end is `mtg_rulekit.sandbox.SandboxModel`, in
this process. The module sends each click as a custom message `{click, values, seq}`; it goes
to `SandboxModel.click`, and the answer is the `state` trait
(`mtg_rulekit.sandbox.view.sandbox_state`). Nothing is rendered in Python but that JSON;
JupyterLab, Notebook 7, VS Code and Colab host the module (no lab extension).

`click(name, **values)` is the same path without a browser (tests, scripts).

>>> from mtg_rulekit import Game
>>> sandbox = Sandbox(Game(["Alice", "Bob"]))
>>> forest = sandbox.game.add("Forest")
>>> sandbox.click("tap", permanent=forest.id)
True
>>> sandbox.state["last"]["text"], sandbox.state["seq"]
("Alice taps Forest (#1) for mana. Alice's pool: {G} (Forest made {G}).", 1)
>>> sandbox.click("tap", permanent=forest.id), sandbox.state["last"]["rule"]
(False, '107.5')
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anywidget
import traitlets

from mtg_rulekit.display.front import css_text, module_text

if TYPE_CHECKING:
    from mtg_rulekit.game import Game
    from mtg_rulekit.sandbox.model import Outcome
    from mtg_rulekit.scenario import Scenario

__all__ = ["SANDBOX_CSS", "SANDBOX_MIME", "Sandbox"]

SANDBOX_MIME = "application/vnd.rulekit.sandbox+json"
"""The sandbox's output carries its starting position (and title) under this type too, as plain
data (an exported page takes the view's traits from the saved widget state: export.views)."""


SANDBOX_CSS = css_text("sandbox")
"""The module's style sheet, after the frames' and tables' (both hosts use this one)."""

READY = {"state": "ready"}
MAX_SAVED_FILES = 20
"""The most walkthrough files one sandbox writes (each save is a new file)."""


class Sandbox(anywidget.AnyWidget):
    """A live game driven by the sandbox module's buttons (needs a running kernel).

    `Sandbox(game)` plays on that `Game` (changing it); `Sandbox(scenario_or_path)` starts from
    a fresh copy of a scenario's set-up. After each click `state` holds the fields' options,
    the outcome (`state["message"]`, shown right under the button clicked), the tables and the
    diagram of the last `history` actions; an illegal move is refused (`last_error` keeps the
    exception) and the game is unchanged.

    A lesson picks what its sandbox offers: `actions` (kinds from `mtg_rulekit.sandbox.ACTION_KINDS`,
    e.g. `["mana", "attack"]`: the card menus and the form show only those) and `cards` (the
    catalog cards free play's "add a card" finds; default the whole catalog). Both travel in the
    `position`, so an exported page offers the same.

    `Sandbox("03_tapped_for_mana_triggers_and_replacements")` (or a path) starts a lesson's
    sandbox from its file (`mtg_rulekit.sandbox.lessons`): its board, what it offers and its
    challenges, which travel in the position too."""

    _esm = module_text("sandbox")
    _css = SANDBOX_CSS
    rk_view = traitlets.Unicode("sandbox").tag(sync=True)  # the page's view (export.views)
    state = traitlets.Dict().tag(sync=True)
    status = traitlets.Dict(READY).tag(sync=True)
    position = traitlets.Dict(allow_none=True).tag(sync=True)
    title = traitlets.Unicode("Sandbox").tag(sync=True)

    def __init__(self, game: Game | Scenario | str | os.PathLike[str] | None = None, *,
                 history: int = 3, title: str | None = None,
                 actions: Iterable[str] | None = None,
                 cards: Iterable[str] | None = None) -> None:
        from mtg_rulekit.display.walkthrough.frames import resolve_scenario
        from mtg_rulekit.game import Game
        from mtg_rulekit.sandbox.model import SandboxModel
        from mtg_rulekit.sandbox.view import sandbox_state
        from mtg_rulekit.scenario import game_at

        lesson = _lesson_sandbox(game)
        if lesson is not None:
            model = lesson.model()
            title = title or lesson.title
            history = lesson.history
        else:
            if game is None:
                game = Game(["Alice", "Bob"])
            elif not isinstance(game, Game):
                game = game_at(resolve_scenario(game), 0)
            model = SandboxModel(game, history=history, actions=actions, cards=cards)
        title = title or "Sandbox"
        self.model = model
        self.history = history
        self.last_error: Exception | None = None
        self.saved: str | None = None  # the walkthrough file "Save as walkthrough" wrote
        self._written: list[str] = []  # the files "Save as walkthrough" wrote
        super().__init__(title=title, position=model.position(), status=dict(READY),
                         state=sandbox_state(model, title=title))
        self.on_msg(self._on_msg)

    @property
    def game(self) -> Game:
        return self.model.game

    # -- the module's messages
    def _on_msg(self, _widget: Any, content: Any, _buffers: Any) -> None:
        """A message from the module. Its values go through the model's check
        (`SandboxModel.values`), as the page's do: a value the view could not have sent is
        answered with a refusal, never acted on and never an exception out of the handler."""
        from mtg_rulekit.core.errors import UsageError
        from mtg_rulekit.sandbox.model import Outcome

        if not isinstance(content, dict):
            return
        seq = content.get("seq")
        seq = seq if isinstance(seq, int) and not isinstance(seq, bool) else 0
        values = content.get("values")
        try:
            if "click" in content:
                self._click(content["click"], values, seq)
            elif "ask" in content:
                self._ask(content["ask"], values, seq, content.get("choose"))
            elif "walkthrough" in content:
                self._save(content["walkthrough"], seq)
            elif "search" in content:  # free play's "add a card" box
                text = content["search"]
                if not isinstance(text, str):
                    raise UsageError("search", "expected text")
                found = self.model.search(text[:200])
                self.state = {**self.state, "seq": seq, "search": {**found, "seq": seq}}
            elif "values" in content:
                self._answer(self.model.values(values), seq, board=False)
            # {"load": ...}: the kernel is always ready
        except UsageError as err:
            self._refused(Outcome("refused", str(err), None, err), seq)

    def _answer(self, values: dict[str, Any], seq: int, *, board: bool) -> None:
        from mtg_rulekit.sandbox.view import sandbox_state

        new = sandbox_state(self.model, values, title=self.title, board=board)
        self.state = {**self.state, **new, "seq": seq}

    def _ask(self, action: Any, values: Any, seq: int, field: Any = None) -> None:
        """The decisions a card's action makes, or the input its entry leaves to a picker
        (`field`: `SandboxModel.choices_for`), for the picker."""
        from mtg_rulekit.sandbox.view import with_symbols

        checked = self.model.values(values, control=action if isinstance(action, str) else None)
        decisions = with_symbols(self.model.choices_for(action, checked, field))
        self.state = {**self.state, "seq": seq, "picker": {"seq": seq, "action": action,
                                                           "values": checked, "field": field,
                                                           "decisions": decisions}}

    def _save(self, title: Any, seq: int) -> None:
        """"Save as walkthrough": the session as a walkthrough (`mtg_rulekit.authoring.walkthrough`)
        written next to the notebook (the kernel's working folder), under a name not taken yet,
        which the module says. One sandbox writes at most `MAX_SAVED_FILES` files (a message
        says so past that)."""
        import re

        from mtg_rulekit.authoring.walkthrough import walkthrough

        name = title.strip()[:200] if isinstance(title, str) and title.strip() \
            else "A sandbox session"
        stem = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:40] or "sandbox"
        try:
            if len(self._written) >= MAX_SAVED_FILES:
                raise ValueError(f"this sandbox has saved {MAX_SAVED_FILES} walkthrough files "
                                 f"already (the last: {self._written[-1]}); delete the ones "
                                 "you don't need and run the cell again to save more")
            text = walkthrough(self.model, title=name)
            path = Path(f"{stem}-walkthrough.toml")
            k = 2
            while path.exists():
                path = Path(f"{stem}-walkthrough-{k}.toml")
                k += 1
            path.write_text(text, "utf-8")
            self._written.append(path.name)
            saved: dict[str, Any] = {"seq": seq, "file": path.name, "text": text}
        except (OSError, ValueError) as err:
            saved = {"seq": seq, "error": str(err)}
        self.saved = saved.get("file")
        self.state = {**self.state, "seq": seq, "walkthrough": saved}

    def _refused(self, outcome: Outcome, seq: Any) -> None:
        from mtg_rulekit.sandbox.view import message_html

        self.model.last = outcome
        self.last_error = outcome.error
        self.state = {**self.state, "last": outcome.to_json(), "message": message_html(outcome),
                      "seq": seq if isinstance(seq, int) else 0}

    def _click(self, name: Any, values: Any, seq: int) -> None:
        """A click: its values checked (UsageError, answered as a refusal), then played."""
        checked = self.model.values(values, control=name if isinstance(name, str) else None)
        outcome = self.model.click(name, checked)
        self.last_error = outcome.error
        self._answer(checked, seq, board=outcome.ok)

    def click(self, name: str, **values: Any) -> bool:
        """Click control `name` with these inputs (the model's field names), as the module
        does: through the widget's custom-message handler. True when the game changed."""
        seq = self.state.get("seq")
        seq = (seq if isinstance(seq, int) and not isinstance(seq, bool) else 0) + 1
        self._handle_custom_msg({"click": name, "values": values, "seq": seq}, [])
        return bool(self.state.get("last") and self.state["last"]["kind"] in ("done", "undone"))

    # -- an exported page
    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        """The widget, and its view's traits as `SANDBOX_MIME` data: an exported page renders
        the module from them and replays the position in the browser (`mtg_rulekit.sandbox.page`)."""
        bundle = super()._repr_mimebundle_(**kwargs)
        data = bundle[0] if isinstance(bundle, tuple) else bundle
        if isinstance(data, dict) and self.position is not None:
            data[SANDBOX_MIME] = {**self.position, "title": self.title}
        return bundle


def _lesson_sandbox(ref: Any) -> Any:
    """The lesson sandbox `ref` names (a shipped sandbox's name, or a sandbox file), else
    None (a game, a scenario or a walkthrough's name)."""
    from mtg_rulekit.sandbox import lessons

    if not isinstance(ref, str | os.PathLike):
        return None
    try:
        path = lessons.find(ref)
    except FileNotFoundError:
        return None
    if path.suffix != ".toml" or "[[step]]" in path.read_text("utf-8"):
        return None
    return lessons.load(path)
