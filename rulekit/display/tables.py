"""pandas views of a game: the board, the mana pools, the stack and the event log.

Each function returns a plain `pandas.DataFrame` (easy to test, filter and print). `to_html(df)`
renders one as the projector-friendly table the widgets show (large type, high contrast, no
index; pandas' own `DataFrame.to_html`, fast enough for the dozens of tables a walkthrough
renders up front); `styled(df)` gives the same look as a `Styler`, for further styling in a
notebook. Both escape every cell, so player and card names such as ``<script>`` show as text.

>>> from rulekit import Game
>>> from rulekit.display.tables import board, pools
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
from typing import TYPE_CHECKING, Any

import pandas as pd

from rulekit.mana import pool_text

if TYPE_CHECKING:
    from pandas.io.formats.style import Styler

    from rulekit.events import Event
    from rulekit.game import Game
    from rulekit.state import GameObject

__all__ = [
    "BOARD_COLUMNS", "board", "decisions", "event_rows", "events", "pools", "stack", "styled",
    "to_html",
    "TABLE_CSS", "TABLE_CSS_TEXT",
]

# columns every board table has; "owner", "token", "exerted" and "attacking" are added only
# when some permanent needs them (a borrowed creature, a token, an exerted or attacking one)
BOARD_COLUMNS = ["id", "card", "controller", "tapped", "summoning sick", "counters",
                 "attached to", "P/T"]

# Projector-friendly table style: >= 18px type, black on white, a dark header row, clear grid.
TABLE_CSS: list[dict[str, Any]] = [
    {"selector": "", "props": [("border-collapse", "collapse"), ("font-size", "18px"),
                               ("line-height", "1.35"), ("color", "#000"),
                               ("background", "#fff"), ("margin", "0.25em 0 0.75em 0"),
                               ("font-family", "'DejaVu Sans', Arial, Helvetica, sans-serif")]},
    {"selector": "caption", "props": [("caption-side", "top"), ("text-align", "left"),
                                      ("font-weight", "bold"), ("font-size", "20px"),
                                      ("padding", "0 0 0.25em 0"), ("color", "#000")]},
    {"selector": "th", "props": [("background", "#1b1b1b"), ("color", "#fff"),
                                 ("font-weight", "bold"), ("text-align", "left"),
                                 ("padding", "6px 12px"), ("border", "1px solid #1b1b1b")]},
    {"selector": "td", "props": [("padding", "6px 12px"), ("border", "1px solid #555"),
                                 ("vertical-align", "top"), ("color", "#000")]},
    {"selector": "tbody tr:nth-child(even) td", "props": [("background", "#eeeeee")]},
]

# The same style as a plain style sheet for `table.rk-table` (pages that hold many tables).
TABLE_CSS_TEXT = "".join(
    "table.rk-table" + (" " + rule["selector"] if rule["selector"] else "") + "{"
    + ";".join(f"{k}:{v}" for k, v in rule["props"]) + "}"
    for rule in TABLE_CSS)

_uuids = itertools.count(1)


# ------------------------------------------------------------------ helpers
def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def _counters(obj: GameObject) -> str:
    return ", ".join(f"{n} × {kind}" for kind, n in sorted(obj.counters.items()) if n)


def _card_text(game: Game, obj: GameObject) -> str:
    """The permanent's name now; a nontoken object copying something says what it really is."""
    name = game.chars(obj).name
    if not obj.token and name != obj.card.name:
        return f"{name} ({obj.card.name} copying it)"
    return name


def _seat(game: Game) -> dict[str, int]:
    return {name: i for i, name in enumerate(game.state.players)}


# ------------------------------------------------------------------ views
def board(game: Game) -> pd.DataFrame:
    """One row per permanent on the battlefield, sorted by controller (in seat order) then id.

    Columns: id, card, controller, [owner — only when some permanent's owner differs, blank
    where it is the controller], [token], tapped ("yes"/"no"), summoning sick ("yes"/"no" for
    creatures, blank otherwise; "no (haste)" when haste lets it act anyway), counters,
    attached to, P/T, and [exerted], [attacking] when any permanent is."""
    from rulekit.paying import summoning_sick

    seat = _seat(game)
    perms = sorted(game.permanents(),
                   key=lambda o: (seat.get(game.controller_of(o), len(seat)),
                                  game.controller_of(o), o.id))
    rows = []
    for obj in perms:
        chars = game.chars(obj)
        controller = game.controller_of(obj)
        creature = chars.is_a("Creature")
        if not creature:
            sick = ""
        elif obj.sick and not summoning_sick(game, obj):
            sick = "no (haste)"
        else:
            sick = _yes(obj.sick)
        host = obj.attached_to
        rows.append({
            "id": obj.id,
            "card": _card_text(game, obj),
            "controller": controller,
            "owner": obj.owner if obj.owner != controller else "",
            "token": "token" if obj.token else "",
            "tapped": _yes(obj.tapped),
            "summoning sick": sick,
            "counters": _counters(obj),
            "attached to": game.describe(host) if host is not None else "",
            "P/T": chars.pt if creature else "",
            "exerted": ("won't untap in " + " or ".join(
                f"{p}'s" for p in obj.skip_untap_for) + " next untap step"
                        if obj.skip_untap_for else ""),
            "attacking": "attacking" if obj.attacking else "",
        })
    columns = list(BOARD_COLUMNS)
    optional = {"owner": 3, "token": 4}
    for name, at in optional.items():
        if any(r[name] for r in rows):
            columns.insert(min(at, len(columns)), name)
    for name in ("exerted", "attacking"):
        if any(r[name] for r in rows):
            columns.append(name)
    return pd.DataFrame(rows, columns=columns)


def pools(game: Game) -> pd.DataFrame:
    """One row per player (seat order): player, life, mana pool (restrictions in words), and
    whose turn it is / who has priority."""
    state = game.state
    rows = []
    for name, player in state.players.items():
        notes = []
        if name == state.active:
            notes.append(f"active player (turn {state.turn}, {state.step.label})")
        if name == state.priority:
            notes.append("has priority")
        rows.append({"player": name, "life": player.life, "mana pool": pool_text(player.pool),
                     "turn": ", ".join(notes)})
    return pd.DataFrame(rows, columns=["player", "life", "mana pool", "turn"])


def stack(game: Game) -> pd.DataFrame:
    """The stack, top first: position (1 = top, resolves first), what it is, its kind,
    controller, targets and a spell's mana value (X counted, CR 202.3e). Empty (with these
    columns) when the stack is empty."""
    items = list(reversed(game.state.stack))
    rows = []
    for pos, item in enumerate(items, start=1):
        targets = ", ".join(game.target_text(t) for t in item.targets)
        spell = item.kind == "spell" and item.source is not None
        rows.append({"position": "1 (top)" if pos == 1 else str(pos), "spell or ability": item.text,
                     "kind": item.kind, "controller": item.controller, "targets": targets,
                     "mana value": str(game.mana_value(item.source)) if spell else ""})
    return pd.DataFrame(rows, columns=["position", "spell or ability", "kind", "controller",
                                       "targets", "mana value"])


_CAUSE_WORDS = {
    "action": "a player's action",
    "cost": "paying a cost",
    "ability": "an ability or spell resolving",
    "trigger": "a triggered ability",
    "replacement": "a replacement effect",
    "note": "a rule note",
    "sba": "a state-based action",
    "turn": "a turn-based action",
    "rule": "a game rule",
}


def event_rows(game: Game, evs: list[Event]) -> pd.DataFrame:
    """The events `evs` as a table (see `events`)."""
    rows = []
    for e in evs:
        cause = _CAUSE_WORDS.get(e.cause.value, e.cause.value)
        if e.parent is not None:
            cause += f" (from #{e.parent})"
        what = e.text
        if e.applied:
            what += " [changed by " + ", ".join(a.effect for a in e.applied) + "]"
        rows.append({"id": e.id, "what": what, "caused by": cause,
                     "rules": ", ".join(f"CR {r}" for r in e.rules)})
    return pd.DataFrame(rows, columns=["id", "what", "caused by", "rules"])


def decisions(game: Game) -> pd.DataFrame:
    """Every choice made so far, in order: the action, the event it shaped, who chose (CR
    616.1, 603.3b, 603.3d, 704.5j), what was asked, the answer, and whether it was given or
    the default."""
    from rulekit.decisions import DECISIONS

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
    from rulekit.events import EventKind

    evs = [e for e in game.log.since(since) if priority or e.kind is not EventKind.PRIORITY]
    return event_rows(game, evs)


# ------------------------------------------------------------------ styling
def styled(df: pd.DataFrame, *, caption: str | None = None, uuid: str | None = None) -> Styler:
    """A projector-friendly Styler of `df`: 18px type, black on white with a dark header, no
    index, every cell (and the caption) HTML-escaped. `uuid` fixes the table's HTML id (for
    byte-identical output); by default a fresh one is used per call."""
    from pandas.io.formats.style import Styler  # imports jinja2: only when asked for

    from rulekit.display.escape import html_text

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
    from rulekit.display.escape import html_text

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
