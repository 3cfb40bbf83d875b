"""The board view: a game drawn as a table players know, one pure function of it.

Standard library only, plain data to static HTML with inline SVG mana symbols (no script):

- `board_data(game, *, viewer=None, changed=(), bottom=None)`: the board as JSON-able data
  (`mtg_rulekit.display.board.data`);
- `board_html(data_or_game, ...)`: that data as a `section.rk-board`
  (`mtg_rulekit.display.board.render`), styled by `board_css()` (`mtg_rulekit/display/front/board.css`);
- `board_for_step(game, changed, title)`: the board of a walkthrough frame (first player at the
  bottom throughout, every hand face up, what the step changed outlined; named after the
  walkthrough `title`);
  `step_changes(events)` says what a step changed, from the events it added to the log;
- `board_for_sandbox(game, changed)`: the board of a sandbox (the player whose turn it is at
  the bottom, viewing: the other hands are counts);
- `board_document(html)`: a standalone page around boards (to look at, screenshot, test).

>>> from mtg_rulekit import Game
>>> game = Game(["Alice", "Bob"])
>>> forest = game.add("Forest")
>>> game.tap_for_mana(forest)
>>> html = board_for_step(game, {forest.id, "Alice"})
>>> "class='rk-card rk-frame-land rk-tapped rk-changed'" in html
True
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from mtg_rulekit.display.board.data import board_data, step_changes
from mtg_rulekit.display.board.render import board_html, card_html
from mtg_rulekit.display.escape import html_text

if TYPE_CHECKING:
    from mtg_rulekit.game import Game

__all__ = ["CSS_PATH", "board_css", "board_data", "board_document", "board_for_sandbox",
           "board_for_step",
           "board_html", "card_html", "step_board_label", "step_changes"]

CSS_PATH = Path(__file__).resolve().parent.parent / "front" / "board.css"


def board_css() -> str:
    """The board's style sheet (`mtg_rulekit/display/front/board.css`)."""
    return CSS_PATH.read_text("utf-8")


def board_for_step(game: Game, changed: Iterable[int | str] = (), title: str = "") -> str:
    """The board of a walkthrough frame: the first player at the bottom at every step (nothing
    jumps), every hand face up (the class sees the whole table), what the step `changed`
    outlined and said (see `step_changes`); a landmark named after the walkthrough's `title`
    (a page with several walkthroughs has one board of each)."""
    first = next(iter(game.state.players))
    return board_html(game, viewer=None, changed=changed, bottom=first,
                      label=step_board_label(title))


def step_board_label(title: str = "") -> str:
    """The name of a walkthrough frame's board (its `aria-label`)."""
    return "The board after this step" + (f": {title}" if title else "")


def board_for_sandbox(game: Game, changed: Iterable[int | str] = (), *,
                      details: bool = True) -> str:
    """The board of a sandbox: the player whose turn it is at the bottom, their hand face up
    and the other hands as counts, what the last click `changed` outlined. `details=False`
    for a front-end whose cards open their menu of actions (no "Full text" toggles)."""
    active = game.state.active
    return board_html(game, viewer=active, changed=changed, bottom=active, details=details,
                      label="The sandbox's board")


def board_document(body: str, *, title: str = "The board") -> str:
    """`body` (one or more boards) as a standalone HTML page with the board's style sheet."""
    return ("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<title>{html_text(title)}</title><style>{board_css()}</style></head>"
            f"<body style='margin:0;background:#fff'><main>{body}</main></body></html>")
