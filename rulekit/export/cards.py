"""`site/cards.html`: every card a lesson, scenario or sandbox can use (`rulekit.authoring.cards`), with
its Oracle text and links to the lessons that use it. Linked from the index; all text escaped."""

from __future__ import annotations

from html import escape
from pathlib import Path
from urllib.parse import quote

from rulekit.authoring.cards import CardEntry, entries
from rulekit.export.index import CSS
from rulekit.export.ownership import GENERATOR_TAG, write_atomic

PAGE = "cards.html"

_EXTRA_CSS = """
td.oracle { white-space: pre-line; } td.cost { white-space: nowrap; font-family: monospace; }
td, th { overflow-wrap: anywhere; }
.rk-scroll { overflow-x: auto; max-width: 100%; }
"""


def _row(e: CardEntry, built: set[str]) -> str:
    lessons = ", ".join(
        f'<a href="{escape(quote(s + ".html"))}">{escape(s)}</a>' if s in built else escape(s)
        for s in e.lessons) or "-"
    scenarios = ", ".join(f"<code>{escape(s)}</code>" for s in e.scenarios) or "-"
    kind = escape(e.type_line) + (f" <b>{escape(e.power_toughness)}</b>"
                                  if e.power_toughness else "") \
        + (" <small>(token)</small>" if e.token else "")
    anchor = escape("card-" + "-".join(e.name.lower().split()))
    return (f'<tr id="{anchor}"><th scope="row">{escape(e.name)}</th>'
            f'<td class="cost">{escape(e.mana_cost)}</td><td>{kind}</td>'
            f'<td class="oracle">{escape(e.oracle)}</td><td>{lessons}</td><td>{scenarios}</td>'
            "</tr>")


def render(items: list[CardEntry], built: set[str]) -> str:
    rows = "\n".join(_row(e, built) for e in items)
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
{GENERATOR_TAG}
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>rulekit cards</title>
<style>{CSS}{_EXTRA_CSS}</style>
</head>
<body>
<main>
<p><a href="index.html">&larr; rulekit lessons</a></p>
<h1>The cards</h1>
<p>The {len(items)} cards the engine knows, with their current Oracle text: a scenario or a
sandbox can use any of them. <code>python -m rulekit cards</code> prints the same list.</p>
<div class="rk-scroll" tabindex="0" role="region" aria-label="The cards">
<table>
<thead><tr><th scope="col">Card</th><th scope="col">Cost</th><th scope="col">Type</th>
<th scope="col">Oracle text</th><th scope="col">Lessons</th><th scope="col">Scenarios</th></tr>
</thead>
<tbody>
{rows}
</tbody>
</table>
</div>
</main>
</body>
</html>
"""


def write_cards(out: Path, built: set[str], root: Path | None = None) -> Path:
    """Write `out/cards.html`; lessons in `built` (page stems) are linked."""
    path = out / PAGE
    write_atomic(path, render(entries(root), built))
    return path
