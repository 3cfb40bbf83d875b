"""What a sandbox shows, as HTML and DOT, for both of its front-ends: the ipywidgets `Sandbox`
(`rulekit.display.widgets`) in JupyterLab and the page script of an exported lesson (over
Pyodide, see `rulekit.sandbox_page`). Standard library only (the diagram is DOT text from
`rulekit.display.flow`), so a message or a caption is written once.

>>> from rulekit import Game
>>> from rulekit.sandbox import SandboxModel
>>> model = SandboxModel(Game(["Alice", "Bob"]))
>>> forest = model.game.add("Forest")
>>> model.click("tap", {"permanent": forest.id}).ok
True
>>> message_html(model.click("tap", {"permanent": forest.id}))[:61]
"<div class='rk-error' role='alert'><b>Refused:</b> Forest (#1"
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulekit.display.escape import html_text
from rulekit.display.rows import Table, table_html

if TYPE_CHECKING:
    from rulekit.sandbox import Outcome, SandboxModel

__all__ = ["diagram", "message_html", "tables_html"]

LAST_CLICK = "What your last click did"


def message_html(outcome: Outcome) -> str:
    """The outcome of a click in the narrator's words: "Refused: ... Nothing changed.",
    "Done: ...", "Undone: ..." (or why nothing happened)."""
    text = html_text(outcome.text)
    if outcome.kind == "refused":
        return ("<div class='rk-error' role='alert'><b>Refused:</b> "
                f"{text}<br>Nothing changed.</div>")
    if outcome.kind == "nothing":
        return f"<div class='rk-error' role='alert'>{text}</div>"
    if outcome.kind == "undone":
        return f"<div class='rk-done' role='status'>{text}</div>"
    return f"<div class='rk-done' role='status'><b>Done:</b> {text}</div>"


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
            parts.append(f"<details{flag}><summary><h4 style='display:inline'>{LAST_CLICK} "
                         f"({len(last.rows)})</h4></summary>{table_html(last)}</details>")
    return "".join(parts)


def diagram(model: SandboxModel) -> tuple[Any, str]:
    """(the event and trigger diagram of the last few clicks, or of the set-up before any; what
    it shows in words). The diagram is a `FlowDiagram`: `.source` is its DOT."""
    from rulekit.display.flow import log_diagram

    since = model.diagram_since()
    if since is None:
        return log_diagram(model.game), "the set-up"
    return log_diagram(model.game, since_action=since), "your last clicks"
