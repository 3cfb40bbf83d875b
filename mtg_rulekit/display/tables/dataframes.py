"""pandas views of a game: the board, the mana pools, the stack and the event log.

Each function returns a plain `pandas.DataFrame` (easy to test, filter and print). `to_html(df)`
renders one as the projector-friendly table the widgets show (large type, high contrast, no
index; pandas' own `DataFrame.to_html`, fast enough for the dozens of tables a walkthrough
renders up front); `styled(df)` gives the same look as a `Styler`, for further styling in a
notebook. Both escape every cell, so player and card names such as ``<script>`` show as text.

>>> from mtg_rulekit import Game
>>> from mtg_rulekit.display.tables.dataframes import board, pools
>>> game = Game(["Alice", "Bob"])
>>> forest = game.add("Forest")
>>> game.tap_for_mana(forest)
>>> board(game)[["id", "card", "controller", "tapped"]].to_dict("records")
[{'id': 1, 'card': 'Forest', 'controller': 'Alice', 'tapped': 'yes'}]
>>> pools(game).loc[0, "mana pool"]
'{G}'
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

import pandas as pd

from mtg_rulekit.display.tables.rows import (
    BOARD_COLUMNS,
    TABLE_CSS,
    TABLE_CSS_TEXT,
    Table,
    board_table,
    events_table,
    pools_table,
    stack_table,
)

if TYPE_CHECKING:
    from pandas.io.formats.style import Styler

    from mtg_rulekit.core.events import Event
    from mtg_rulekit.game import Game

__all__ = [
    "BOARD_COLUMNS", "board", "decisions", "event_rows", "events", "pools", "stack", "styled",
    "to_html",
    "TABLE_CSS", "TABLE_CSS_TEXT",
]

_uuids = itertools.count(1)


# ------------------------------------------------------------------ views
def _frame(table: Table) -> pd.DataFrame:
    return pd.DataFrame(list(table.rows), columns=list(table.columns))


def board(game: Game) -> pd.DataFrame:
    """One row per permanent on the battlefield (see `mtg_rulekit.display.tables.rows.board_table`)."""
    return _frame(board_table(game))


def pools(game: Game) -> pd.DataFrame:
    """One row per player: life, mana pool, turn and priority (see `rows.pools_table`)."""
    return _frame(pools_table(game))


def stack(game: Game) -> pd.DataFrame:
    """The stack, top first (see `rows.stack_table`); no rows when it is empty."""
    return _frame(stack_table(game))


def event_rows(game: Game, evs: list[Event]) -> pd.DataFrame:
    """The events `evs` as a table (see `rows.events_table`)."""
    return _frame(events_table(evs))


def decisions(game: Game) -> pd.DataFrame:
    """Every choice made so far, in order: the action, the event it shaped, who chose (CR
    616.1, 603.3b, 603.3d, 704.5j), what was asked, the answer, and whether it was given or
    the default."""
    from mtg_rulekit.core.decisions import DECISIONS

    rows = []
    for d in game.decisions:
        answer = d.answer
        if isinstance(answer, int) and not isinstance(answer, bool) and answer in \
                game.state.objects:
            answer = game.describe(answer)
        rows.append({"action": d.action, "event": d.event, "player": d.player or "",
                     "decision": d.key, "question": DECISIONS.get(d.key, ""),
                     "answer": str(answer), "given": "given" if d.given else "default"})
    return pd.DataFrame(rows, columns=["action", "event", "player", "decision", "question",
                                       "answer", "given"])


def events(game: Game, since: int = 0, *, priority: bool = False) -> pd.DataFrame:
    """Events after event id `since` (exclusive, like `EventLog.since`): id, what happened
    (replacement effects that changed it in brackets), what caused it (and the parent event's
    id), and the CR numbers. Priority passes are left out unless `priority`."""
    from mtg_rulekit.core.events import EventKind

    evs = [e for e in game.log.since(since) if priority or e.kind is not EventKind.PRIORITY]
    return event_rows(game, evs)


# ------------------------------------------------------------------ styling
def styled(df: pd.DataFrame, *, caption: str | None = None, uuid: str | None = None) -> Styler:
    """A projector-friendly Styler of `df`: 18px type, black on white with a dark header, no
    index, every cell (and the caption) HTML-escaped. `uuid` fixes the table's HTML id (for
    byte-identical output); by default a fresh one is used per call."""
    from pandas.io.formats.style import Styler  # imports jinja2: only when asked for

    from mtg_rulekit.display.escape import html_text

    styler = Styler(df, cell_ids=False).hide(axis="index").format(escape="html", na_rep="")
    styler = styler.set_table_styles(TABLE_CSS).set_table_attributes('class="rk-table"')
    styler = styler.set_uuid(uuid or f"rk{next(_uuids)}")
    if caption:
        styler = styler.set_caption(html_text(caption))
    return styler


def to_html(df: pd.DataFrame, *, caption: str | None = None, empty: str = "(none)",
            css: bool = True) -> str:
    """`df` as a `table.rk-table` (pandas' `DataFrame.to_html`: no index, every cell
    HTML-escaped) with an escaped `caption`, led by its own `<style>` (`TABLE_CSS_TEXT`), or
    `empty` in a paragraph when the table has no rows. `css=False` leaves the `<style>` out,
    for a page that already styles `table.rk-table`, such as a walkthrough frame. (Plain
    `to_html` rather than `styled()`: a walkthrough renders dozens of tables up front.)"""
    from mtg_rulekit.display.escape import html_text

    if df.empty:
        head = f"<p class='rk-caption'><b>{html_text(caption)}</b></p>" if caption else ""
        return f"{head}<p class='rk-empty'>{html_text(empty)}</p>"
    table = df.to_html(index=False, escape=True, na_rep="", border=0)
    opening = "<table class='rk-table'>"
    if caption:
        opening += f"<caption>{html_text(caption)}</caption>"
    table = opening + table[table.index(">") + 1:].replace(
        '<tr style="text-align: right;">', "<tr>", 1)
    return f"<style>{TABLE_CSS_TEXT}</style>{table}" if css else table
