"""`site/cards.html`: every card a lesson, scenario or sandbox can use (`mtg_rulekit.authoring.cards`), with
its Oracle text and links to the lessons that use it, by their titles. Linked from the index; all
text escaped.

Readable at every width: names and types break only between words; on a phone each
card is a block of its own, not a table row. A filter box (plain JavaScript in the page, no
kernel, no network) keeps the cards whose name, type, text or lessons hold every word typed;
without JavaScript the box stays hidden and the whole list shows.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from html import escape
from pathlib import Path
from urllib.parse import quote

from mtg_rulekit.authoring.cards import CardEntry, entries
from mtg_rulekit.export.csp import secure
from mtg_rulekit.export.index import CSS
from mtg_rulekit.export.ownership import GENERATOR_TAG, write_atomic

PAGE = "cards.html"
SCENARIOS_SHOWN = 3  # a card in more lessons or scenarios lists them behind "in N lessons"

_EXTRA_CSS = """
main { max-width: 80rem; }
table.cards { table-layout: auto; }
table.cards th[scope="row"] { min-width: 9em; font-size: 18px; }
table.cards td.oracle { white-space: pre-line; min-width: 16em; }
table.cards .cost { font-family: monospace; white-space: nowrap; }
table.cards td, table.cards th { overflow-wrap: normal; word-break: normal; hyphens: manual; }
table.cards td.oracle { overflow-wrap: break-word; }
table.cards td[data-label="Lessons"] { min-width: 15em; }
table.cards td[data-label="Scenarios"] code { font-size: 13px; }
table.cards tr[hidden] { display: none; }
.filter { margin: .8em 0; } .filter label { font-weight: 600; margin-right: .5em; }
.filter input { font-size: 18px; padding: .3em .5em; width: min(28em, 100%);
  border: 2px solid #555; border-radius: 4px; }
.filter input:focus-visible { outline: 3px solid #0b4f9c; outline-offset: 2px; }
#card-count { color: #333; margin: .3em 0; }
nav.site a { margin-right: 1.2em; }
@media (max-width: 700px) {
  table.cards, table.cards tbody, table.cards tr, table.cards th, table.cards td {
    display: block; width: auto; }
  table.cards thead { position: absolute; width: 1px; height: 1px; overflow: hidden;
    clip-path: inset(50%); }
  table.cards tr { border: 1px solid #bbb; border-radius: 6px; margin: .7em 0; padding: .2em .4em; }
  table.cards tr:nth-child(even) td { background: none; }
  table.cards td, table.cards th { border: 0; padding: .15em .2em; min-width: 0; }
  table.cards td[data-label]::before { content: attr(data-label) ": "; font-weight: 600; }
  table.cards td[data-label="Lessons"] { min-width: 0; }
  table.cards tr[hidden] { display: none; }
  #card-filter-help { display: block; font-size: .85em; }
}
"""

_SCRIPT = """
(function () {
  var box = document.getElementById("card-filter");
  var form = document.getElementById("card-filter-form");
  var count = document.getElementById("card-count");
  if (!box || !form || !count) { return; }
  var rows = Array.prototype.slice.call(document.querySelectorAll("table.cards tbody tr"));
  var texts = rows.map(function (row) { return row.textContent.toLowerCase(); });
  function apply() {
    var words = box.value.toLowerCase().split(/\\s+/).filter(Boolean);
    var shown = 0;
    rows.forEach(function (row, i) {
      var keep = words.every(function (w) { return texts[i].indexOf(w) !== -1; });
      row.hidden = !keep;
      if (keep) { shown += 1; }
    });
    count.textContent = words.length ? shown + " of " + rows.length + " cards shown"
                                     : rows.length + " cards";
  }
  form.hidden = false;
  form.addEventListener("submit", function (event) { event.preventDefault(); });
  box.addEventListener("input", apply);
  apply();
})();
"""


def _title(stem: str, titles: Mapping[str, str]) -> str:
    """A lesson's title; a lesson not built is named from its file ("05_powerstone_tokens" ->
    "Lesson 5: powerstone tokens")."""
    if titles.get(stem):
        return titles[stem]
    m = re.match(r"(\d+)_(.*)", stem)
    return f"Lesson {int(m.group(1))}: {m.group(2).replace('_', ' ')}" if m else stem


def _row(e: CardEntry, titles: Mapping[str, str]) -> str:
    lessons = "".join(
        f'<li><a href="{escape(quote(s + ".html"))}">{escape(_title(s, titles))}</a></li>'
        if s in titles else f"<li>{escape(_title(s, titles))}</li>" for s in e.lessons)
    if not lessons:
        lessons = "-"
    elif len(e.lessons) <= SCENARIOS_SHOWN:
        lessons = f"<ul>{lessons}</ul>"
    else:
        lessons = (f"<details><summary>in {len(e.lessons)} lessons</summary><ul>{lessons}</ul>"
                   "</details>")
    names = [f"<li><code>{escape(s)}</code></li>" for s in e.scenarios]
    if not names:
        scenarios = "-"
    elif len(names) <= SCENARIOS_SHOWN:
        scenarios = f"<ul>{''.join(names)}</ul>"
    else:
        scenarios = (f"<details><summary>used in {len(names)} scenarios</summary>"
                     f"<ul>{''.join(names)}</ul></details>")
    cost = f'<span class="cost">{escape(e.mana_cost)}</span><br>' if e.mana_cost else ""
    kind = cost + escape(e.type_line) + (f" <b>{escape(e.power_toughness)}</b>"
                                         if e.power_toughness else "") \
        + (" <small>(token)</small>" if e.token else "")
    anchor = escape("card-" + "-".join(e.name.lower().split()))
    return (f'<tr id="{anchor}"><th scope="row">{escape(e.name)}</th>'
            f'<td data-label="Cost and type">{kind}</td>'
            f'<td class="oracle" data-label="Oracle text">{escape(e.oracle) or "-"}</td>'
            f'<td data-label="Lessons">{lessons}</td>'
            f'<td data-label="Scenarios">{scenarios}</td></tr>')


def render(items: list[CardEntry], built: Mapping[str, str] | Collection[str]) -> str:
    """The page; `built` holds the lesson pages that exist (stem -> title, or stems only)."""
    titles = dict(built) if isinstance(built, Mapping) else {s: "" for s in built}
    rows = "\n".join(_row(e, titles) for e in items)
    return secure(f"""<!DOCTYPE html>
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
<nav class="site" aria-label="The site"><a href="index.html">&larr; All lessons</a>
<a href="teachers.html">For teachers</a></nav>
<h1>The cards</h1>
<p>The {len(items)} cards the engine knows, with their current Oracle text. A scenario or a
sandbox can use any of them. <code>python -m mtg_rulekit cards</code> prints the same list.</p>
<form class="filter" id="card-filter-form" role="search" hidden>
<label for="card-filter">Filter the cards</label>
<input type="search" id="card-filter" autocomplete="off" spellcheck="false"
  aria-describedby="card-filter-help card-count">
<span id="card-filter-help">a name, a type, a word of the text or a lesson</span>
</form>
<p id="card-count" aria-live="polite">{len(items)} cards</p>
<div class="wide" tabindex="0" role="region" aria-label="The cards">
<table class="cards">
<thead><tr><th scope="col">Card</th><th scope="col">Cost and type</th>
<th scope="col">Oracle text</th><th scope="col">Lessons</th><th scope="col">Scenarios</th></tr>
</thead>
<tbody>
{rows}
</tbody>
</table>
</div>
</main>
<script>{_SCRIPT}</script>
</body>
</html>
""")


def write_cards(out: Path, built: Mapping[str, str] | Collection[str],
                root: Path | None = None) -> Path:
    """Write `out/cards.html`; lessons in `built` (page stems, or stem -> title) are linked."""
    path = out / PAGE
    write_atomic(path, render(entries(root), built))
    return path
