"""The game's tables as plain data (standard library only): board, players, stack, events.

Every view shows the same tables: pandas DataFrames in a notebook
(`mtg_rulekit.display.tables.dataframes`), HTML in walkthrough frames and in the sandbox, JSON in the
browser sandbox. They are all built from the `Table`s made here, so a column is named and filled
in one place.

>>> from mtg_rulekit import Game
>>> game = Game(["Alice", "Bob"])
>>> forest = game.add("Forest")
>>> game.tap_for_mana(forest)
>>> board_table(game).rows[0]["tapped"], pools_table(game).rows[0]["mana pool"]
('yes', '{G}')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mtg_rulekit.core.mana import shown

if TYPE_CHECKING:
    from mtg_rulekit.core.events import Event
    from mtg_rulekit.game import Game
    from mtg_rulekit.objects.state import GameObject

# columns every board table has; "owner", "token", "exerted" and "attacking" are added only
# when some permanent needs them (a borrowed creature, a token, an exerted or attacking one)
BOARD_COLUMNS = ["id", "card", "controller", "tapped", "summoning sick", "counters",
                 "attached to", "P/T"]


@dataclass(frozen=True)
class Table:
    """Named columns and one dict per row (values are str or int)."""

    columns: tuple[str, ...]
    rows: tuple[dict[str, Any], ...]

    def to_json(self) -> dict[str, Any]:
        return {"columns": list(self.columns), "rows": [dict(r) for r in self.rows]}


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


def board_table(game: Game) -> Table:
    """One row per permanent on the battlefield, sorted by controller (in seat order) then id.

    Columns: id, card, controller, [owner — only when some permanent's owner differs, blank
    where it is the controller], [token], tapped ("yes"/"no"), summoning sick ("yes"/"no" for
    creatures, blank otherwise; "no (haste)" when haste lets it act anyway), counters,
    attached to, P/T, and [exerted], [attacking] when any permanent is. A column no row uses
    is left out: counters and attached to when nothing has any, summoning sick and P/T when
    no creature is on the battlefield."""
    from mtg_rulekit.engine.paying import summoning_sick

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
    # columns with nothing in them say nothing: "summoning sick" and "P/T" only when a
    # creature is there, "counters" and "attached to" only when something has them
    creatures = any(game.chars(o).is_a("Creature") for o in perms)
    drop = {name for name in ("counters", "attached to") if not any(r[name] for r in rows)}
    if not creatures:
        drop |= {"summoning sick", "P/T"}
    columns = [c for c in columns if c not in drop]
    return Table(tuple(columns), tuple({c: r[c] for c in columns} for r in rows))


def pools_table(game: Game) -> Table:
    """One row per player (seat order): player, life, mana pool (`mtg_rulekit.core.mana.shown`), and
    whose turn it is / who has priority."""
    state = game.state
    rows = []
    for name, player in state.players.items():
        notes = []
        if name == state.active:
            notes.append(f"active player (turn {state.turn}, {state.step.label})")
        if state.awaiting_attackers or state.awaiting_blockers:
            # a turn-based action first: nobody has priority until it's done (CR 508.1, 509.1)
            declarer = state.active if state.awaiting_attackers else \
                state.opponents(state.active)[0]
            if name == declarer:
                notes.append("declares " + ("attackers" if state.awaiting_attackers
                                            else "blockers") + " (then the active player "
                             "gets priority)")
        elif name == state.priority:
            notes.append("has priority")
        rows.append({"player": name, "life": player.life, "mana pool": shown(player.pool),
                     "turn": ", ".join(notes)})
    return Table(("player", "life", "mana pool", "turn"), tuple(rows))


def stack_table(game: Game) -> Table:
    """The stack, top first: position (1 = top, resolves first), what it is, its kind,
    controller, targets and a spell's mana value (X counted, CR 202.3e). No rows when the
    stack is empty."""
    items = list(reversed(game.state.stack))
    rows = []
    for pos, item in enumerate(items, start=1):
        targets = ", ".join(game.target_text(t) for t in item.targets)
        spell = item.source if item.kind == "spell" else None
        rows.append({"position": "1 (top)" if pos == 1 else str(pos), "spell or ability": item.text,
                     "kind": item.kind, "controller": item.controller, "targets": targets,
                     "mana value": str(game.mana_value(spell)) if spell is not None else ""})
    return Table(("position", "spell or ability", "kind", "controller", "targets", "mana value"),
                 tuple(rows))


CAUSE_WORDS = {
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


TIME_RUN = 3
"""Consecutive events of time passing (steps and turns beginning, no attackers, the turn's
draw) that `events_table(fold_time=True)` tells as one row."""


def time_passing(e: Event) -> bool:
    """Whether `e` is only the turn structure moving on: a turn or step beginning, a declare
    attackers step with no attackers, the draw step's draw (as a diagram's "Time passes" box
    tells them)."""
    from mtg_rulekit.core.events import Cause
    from mtg_rulekit.core.payloads import Declared, Drew, StepBegan, TurnBegan, ZoneChanged

    d = e.payload
    return isinstance(d, (TurnBegan, StepBegan, Drew)) or (
        isinstance(d, Declared) and d.declared == "attackers" and d.count == 0) or (
        isinstance(d, ZoneChanged) and e.cause is Cause.TURN and d.reason == "draw")


def _time_runs(evs: list[Event]) -> list[Event | list[Event]]:
    """`evs` with each run of at least `TIME_RUN` consecutive time-passing events as a list."""
    out: list[Event | list[Event]] = []
    run: list[Event] = []
    for e in [*evs, None]:
        if e is not None and time_passing(e):
            run.append(e)
            continue
        out += [run] if len(run) >= TIME_RUN else run
        run = []
        if e is not None:
            out.append(e)
    return out


def events_table(evs: list[Event], *, fold_time: bool = False) -> Table:
    """Events as rows: id, what happened (replacement effects that changed it in brackets),
    what caused it (and the parent event's id), and the CR numbers. With `fold_time`, a run of
    steps and turns beginning is one row: "Time passes: end step → ... → turn 4 (Bob) → ...",
    its ids as a range."""
    from mtg_rulekit.objects.narrator import time_passes_text

    rows: list[dict[str, object]] = []
    items: list[Event | list[Event]] = _time_runs(evs) if fold_time else list(evs)
    for item in items:
        if isinstance(item, list):
            rules = sorted({r for e in item for r in e.rules})
            rows.append({"id": f"{item[0].id}–{item[-1].id}", "what": time_passes_text(item),
                         "caused by": "turn-based actions",
                         "rules": ", ".join(f"CR {r}" for r in rules)})
            continue
        e = item
        cause = CAUSE_WORDS.get(e.cause.value, e.cause.value)
        if e.parent is not None:
            cause += f" (from #{e.parent})"
        what = e.text
        if e.applied:
            what += " [changed by " + ", ".join(a.effect for a in e.applied) + "]"
        rows.append({"id": e.id, "what": what, "caused by": cause,
                     "rules": ", ".join(f"CR {r}" for r in e.rules)})
    return Table(("id", "what", "caused by", "rules"), tuple(rows))


def table_html(table: Table, *, caption: str | None = None, empty: str = "(none)") -> str:
    """`table` as a `table.rk-table` with every cell and the caption HTML-escaped, or `empty`
    in a paragraph when it has no rows (styled by `TABLE_CSS_TEXT`)."""
    from mtg_rulekit.display.escape import html_text

    if not table.rows:
        head = f"<p class='rk-caption'><b>{html_text(caption)}</b></p>" if caption else ""
        return f"{head}<p class='rk-empty'>{html_text(empty)}</p>"
    out = ["<table class='rk-table'>"]
    if caption:
        out.append(f"<caption>{html_text(caption)}</caption>")
    out.append("<thead><tr>" + "".join(f"<th>{html_text(c)}</th>" for c in table.columns)
               + "</tr></thead><tbody>")
    for row in table.rows:
        out.append("<tr>" + "".join(f"<td>{html_text(row.get(c, ''))}</td>"
                                    for c in table.columns) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)
