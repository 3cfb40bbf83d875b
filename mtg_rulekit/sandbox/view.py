"""What a sandbox shows, for its one front-end module (`mtg_rulekit/display/front/sandbox.js`) and
both of its back-ends: the kernel (`mtg_rulekit.sandbox.widget.Sandbox`, an anywidget) and
the Pyodide of an exported page (`mtg_rulekit.sandbox.page`). `sandbox_state` is the module's `state`:
`SandboxModel.to_json()` plus the layout and the HTML to show (message, tables, diagram), all
made and escaped here. Standard library only (the diagram is DOT text from
`mtg_rulekit.display.flow`, drawn by whatever `render` the back-end has: Graphviz's `dot` in a
kernel, Viz.js in a page, then given the same readable titles by `mtg_rulekit.display.svg`).

>>> from mtg_rulekit import Game
>>> from mtg_rulekit.sandbox.model import SandboxModel
>>> model = SandboxModel(Game(["Alice", "Bob"]))
>>> forest = model.game.add("Forest")
>>> model.click("tap", {"permanent": forest.id}).ok
True
>>> message_html(model.click("tap", {"permanent": forest.id}))[:61]
"<div class='rk-error' role='alert'><b>Refused:</b> Forest (#1"
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from mtg_rulekit.core.events import EventKind
from mtg_rulekit.display.escape import html_text
from mtg_rulekit.display.tables.rows import (
    Table,
    board_table,
    events_table,
    pools_table,
    stack_table,
    table_html,
)

if TYPE_CHECKING:
    from mtg_rulekit.sandbox.model import Outcome, SandboxModel

__all__ = ["Render", "board_html", "diagram", "diagram_html", "layout", "message_html",
           "model_json", "sandbox_state", "tables", "tables_html", "with_symbols"]

Render = Callable[[str], str]
"""DOT text -> SVG text: `mtg_rulekit.display.svg.run_dot` in a kernel, Viz.js in a page."""

LAST_CLICK = "What your last click did"


def message_html(outcome: Outcome) -> str:
    """The outcome of a click in the narrator's words: "Refused: ... Nothing changed.",
    "Done: ...", "Undone: ..." (or why nothing happened); mana written as the board's
    symbols."""
    from mtg_rulekit.display.board.mana_symbols import text_html

    text = text_html(outcome.text)
    if outcome.kind == "refused":
        return ("<div class='rk-error' role='alert'><b>Refused:</b> "
                f"{text}<br>Nothing changed.</div>")
    if outcome.kind == "nothing":
        return f"<div class='rk-error' role='alert'>{text}</div>"
    if outcome.kind == "undone":
        return f"<div class='rk-done' role='status'>{text}</div>"
    return f"<div class='rk-done' role='status'><b>Done:</b> {text}</div>"


def with_symbols(data: Any) -> Any:
    """`data` (JSON: card menus, the time bar, a picker's decisions) with `label_html` and
    `reason_html` beside each `label` and `reason`: escaped, mana drawn as the board's
    symbols, so the menus write {G} as the cards do."""
    from mtg_rulekit.display.board.mana_symbols import text_html

    if isinstance(data, list):
        return [with_symbols(d) for d in data]
    if not isinstance(data, dict):
        return data
    out = {k: with_symbols(v) for k, v in data.items()}
    for key in ("label", "reason", "heading", "say", "hint"):
        if isinstance(data.get(key), str):
            out[f"{key}_html"] = text_html(data[key])
    return out


def tables(model: SandboxModel) -> dict[str, Table]:
    """Board, players (life and mana pools), stack, and, after a click, what it did."""
    g = model.game
    out = {"board": board_table(g), "players": pools_table(g), "stack": stack_table(g)}
    if model.last_log is not None:
        out["last"] = events_table([e for e in g.log.since(model.last_log)
                                    if e.kind is not EventKind.PRIORITY])
    return out


def model_json(model: SandboxModel, values: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """`model.to_json(values)` with the tables as rows: what the kernel and a page compare for
    the same clicks."""
    data = model.to_json(values)
    data["tables"] = {k: t.to_json() for k, t in tables(model).items()}
    data["card_actions"] = with_symbols(data["card_actions"])
    data["bar"] = with_symbols(data["bar"])
    data["practice"] = with_symbols(data["practice"])
    return data


def tables_html(tables: dict[str, Table]) -> str:
    """Board, players, stack and (after a click) what it did, with their captions."""
    parts = [table_html(tables["board"], caption="Board",
                        empty="No permanents on the battlefield."),
             table_html(tables["players"], caption="Players: life and mana pools"),
             table_html(tables["stack"], caption="Stack (top first)",
                        empty="The stack is empty.")]
    if "last" in tables:
        last = tables["last"]
        if not last.rows:
            parts.append(f"<h4>{LAST_CLICK}</h4><p class='rk-empty'>No events.</p>")
        else:
            flag = " open" if len(last.rows) <= 8 else ""
            parts.append(f"<details{flag}><summary><h4 class='rk-inline'>{LAST_CLICK} "
                         f"({len(last.rows)})</h4></summary>{table_html(last)}</details>")
    return "".join(parts)


def diagram(model: SandboxModel) -> tuple[Any, str]:
    """(the event and trigger diagram of the last few clicks, one cluster each named "Your
    click 3: ...", or of the set-up before any; what it shows in words). The diagram is a
    `FlowDiagram` (`.source` is its DOT) with no legend inside: `diagram_html` puts the
    walkthroughs' legend strip above it."""
    from mtg_rulekit.display.flow.draw import draw
    from mtg_rulekit.display.flow.model import Group, layout

    clicks = model.clicks()[-model.history:] if model.history else []
    g = model.game
    if not clicks:
        return draw(*layout(g.log, game=g), None, legend=False), "the set-up"
    groups = [Group(f"a{actions[0]}", f"Your click {k}: {_short(words)}", actions)
              for k, actions, words in clicks]
    return draw(*layout(g.log, game=g, groups=groups), None, legend=False), "your last clicks"


def _short(words: str, limit: int = 70) -> str:
    return words if len(words) <= limit else words[:limit - 1].rstrip() + "…"


def diagram_html(model: SandboxModel, render: Render | None) -> tuple[str, str]:
    """(the diagram of the last clicks as inline SVG in its `rk-diagram` box, under its
    legend strip, what it shows in words). `render` draws the DOT; its SVG gets the readable
    titles and the inline form the kernel's SVG gets everywhere (`retitle`, `inline_svg`), so
    a page's diagram has the same tooltips and screen-reader titles. A drawing that fails says
    why, in the box. With `history` 0: no diagram."""
    from mtg_rulekit.display.flow import legend_strip
    from mtg_rulekit.display.svg import GraphvizMissing, inline_svg, retitle, run_dot

    if not model.history:
        return "", ""
    graph, what = diagram(model)
    label = f"Event and trigger diagram of {what}"
    try:
        svg = (render or run_dot)(graph.source)
    except GraphvizMissing as err:
        return f"<p class='rk-empty'>{html_text(err)}</p>", what
    except Exception as err:  # noqa: BLE001  (Viz.js raises a JS error: say it, keep going)
        return f"<p class='rk-empty'>The diagram could not be drawn: {html_text(err)}</p>", what
    svg = inline_svg(retitle(svg, graph.titles), label=label)
    return f"{legend_strip(graph)}<div class='rk-diagram' tabindex='0' role='group' " \
           f"aria-label='{html_text(label)}'>{svg}</div>", what


def layout(model: SandboxModel | None = None) -> dict[str, Any]:
    """The controls' layout as JSON: `groups` ([heading, [names]] in reading order: those the
    `model`'s lesson offers, `SandboxModel.groups`) and `controls` (name -> label, help,
    style), from `mtg_rulekit.sandbox`."""
    from mtg_rulekit.sandbox.model import CONTROLS, GROUPS

    groups = GROUPS if model is None else model.groups()
    return {"groups": [[heading, list(names)] for heading, names in groups],
            "controls": {name: {"label": c.label, "help": c.help, "style": c.style}
                         for name, c in CONTROLS.items()}}


def board_html(model: SandboxModel) -> str:
    """The sandbox's board (`mtg_rulekit.display.board.board_for_sandbox`) with what the last
    click changed outlined; its cards open their menus (`card_actions`), so no "Full text"
    toggles (the full text stays in each card's title)."""
    from mtg_rulekit.display.board import board_for_sandbox, step_changes

    since = model.last_log
    changed = step_changes(model.game.log.since(since)) if since is not None else set()
    return board_for_sandbox(model.game, changed, details=False)


def sandbox_state(model: SandboxModel, values: Mapping[str, Any] | None = None, *,
                  title: str = "Sandbox", render: Render | None = None,
                  board: bool = True) -> dict[str, Any]:
    """Everything the sandbox module shows, as JSON data: `model.to_json(values)` (fields,
    tables as rows, last, log), the `layout()`, `title`, `message` (the last outcome in words,
    HTML), `board` (the board's HTML: `board()`), `tables_html` and `diagram` (HTML) and `what` the
    diagram shows. Without `board`
    (a click that changed nothing) the HTML of the board is left out: the front-end keeps
    what it shows."""
    state = model_json(model, values)
    state.update(layout(model))
    state["title"] = title
    state["message"] = message_html(model.last) if model.last is not None else ""
    if board:
        state["board"] = board_html(model)
        state["tables_html"] = tables_html(tables(model))
        state["diagram"], state["what"] = diagram_html(model, render)
    return state
