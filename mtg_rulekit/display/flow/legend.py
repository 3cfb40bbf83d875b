"""The legend as a strip of small HTML, outside the scrolling diagram: one swatch and its words
for each shape the shown part of a diagram uses, and nothing else (the legend inside
the SVG scrolled away at nearly every step, and the set-up's held one item in a third of the
pane). Standard library only; a page (the stepper's front-end) puts it above the diagram pane.

>>> from mtg_rulekit import Game
>>> from mtg_rulekit.display.flow import log_diagram
>>> game = Game(["Alice", "Bob"])
>>> game.tap_for_mana(game.add("Forest"))
>>> strip = legend_strip(log_diagram(game))
>>> strip.startswith("<ul class='rk-legend'")
True
>>> [k for k in ROLES if f"data-role='{k}'" in strip]
['action', 'setup', 'cost', 'resolve', 'event', 'mana']
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from mtg_rulekit.display.escape import html_text
from mtg_rulekit.display.flow.grammar import ROLES, SHAPE_WORDS

__all__ = ["LEGEND_CSS", "legend_roles", "legend_strip", "swatch"]

W, H = 34, 20  # a swatch's size in CSS px

# the outline of each shape, in a W x H box (Graphviz's shapes, simplified)
_OUTLINES: dict[str, str] = {
    "box": "<rect x='2' y='3' width='30' height='14'/>",
    "rounded": "<rect x='2' y='3' width='30' height='14' rx='4'/>",
    "folder": "<path d='M2 5h18l2-2h8l2 2v12H2z'/>",
    "hexagon": "<polygon points='2,10 8,3 26,3 32,10 26,17 8,17'/>",
    "box3d": "<path d='M2 6h26v11H2zM2 6l4-3h26l-4 3M28 17l4-3V3'/>",
    "house": "<polygon points='2,8 17,2 32,8 32,17 2,17'/>",
    "cds": "<polygon points='2,3 26,3 32,10 26,17 2,17'/>",
    "cylinder": "<path d='M2 5c0-3 30-3 30 0v10c0 3-30 3-30 0z'/>",
    "rarrow": "<polygon points='2,6 22,6 22,2 32,10 22,18 22,14 2,14'/>",
    "octagon": "<polygon points='8,2 26,2 32,7 32,13 26,18 8,18 2,13 2,7'/>",
    "note": "<path d='M2 3h24l6 5v9H2z'/>",
}
_DASH = {"dashed": "4,2", "dotted": "1,2"}

LEGEND_CSS = (
    ".rk-legend{display:flex;flex-wrap:wrap;gap:4px 14px;list-style:none;margin:0 0 4px 0;"
    "padding:0;font-size:16px;line-height:1.3}"
    ".rk-legend li{display:flex;align-items:center;gap:6px}"
    ".rk-legend svg{flex:none}"
)


def _outline(key: str) -> str:
    role = ROLES[key]
    if role.shape == "box":
        return _OUTLINES["rounded" if "rounded" in role.style else "box"]
    return _OUTLINES.get(role.shape, _OUTLINES["box"])


def swatch(key: str) -> str:
    """A small SVG of role `key`'s shape in its colors (aria-hidden: its words say it);
    "fold" is the double outline of folded repeats."""
    if key == "fold":
        return (f"<svg width='{W}' height='{H}' viewBox='0 0 {W} {H}' aria-hidden='true'>"
                "<g fill='#FFFFFF' stroke='#000' stroke-width='1.2'>"
                "<rect x='1' y='1' width='32' height='18' rx='4'/>"
                "<rect x='4' y='4' width='26' height='12' rx='3'/></g></svg>")
    role = ROLES[key]
    dash = next((v for k, v in _DASH.items() if k in role.style), "")
    width = "2.5" if "bold" in role.style else "1.2"
    extra = ("<path d='M2 7l4-4M28 3l4 4M2 13l4 4M28 17l4-4' fill='none'/>"
             if "diagonals" in role.style else "")
    stroke = f" stroke-dasharray='{dash}'" if dash else ""
    return (f"<svg width='{W}' height='{H}' viewBox='0 0 {W} {H}' aria-hidden='true'>"
            f"<g fill='{role.fill}' stroke='#000' stroke-width='{width}'{stroke}>"
            f"{_outline(key)}{extra}</g></svg>")


def legend_roles(graph: Any, groups: Collection[str] | None = None) -> list[str]:
    """The legend roles (`ROLES` keys, and "fold") that the boxes of `groups` use ("s3", or
    "rk-s3"; None: the whole drawing), in the legend's order."""
    used: list[str] = list(getattr(graph, "used", []))
    tags: dict[str, set[str]] = getattr(graph, "role_tags", {})
    wanted = None if groups is None else {g if g.startswith("rk-") else f"rk-{g}"
                                          for g in groups}
    order = list(ROLES) + ["fold"]
    return [k for k in order if k in used
            and (wanted is None or tags.get(k, set()) & wanted)]


def legend_strip(graph: Any, groups: Collection[str] | None = None) -> str:
    """The legend of what `graph` (a `FlowDiagram`) shows, as a small HTML list: only the
    shapes the boxes of `groups` use (all of the drawing's with None). For a step view, the
    shapes on screen are all of them (`legend_strip(step_diagram(sc, k))`); for a frame of the
    "so far" drawing, those of the steps shown (`groups={"s0", ..., "sk"}`). "" when nothing
    is drawn. Style: `LEGEND_CSS` (class `rk-legend`)."""
    keys = legend_roles(graph, groups)
    if not keys:
        return ""
    items = []
    for key in keys:  # a few words each (the strip shares a row with the pane's tools), the
        # shape and the whole words in its title
        full = ("Many events of the same shape, drawn once" if key == "fold"
                else ROLES[key].legend)
        words = "Repeats, drawn once" if key == "fold" else ROLES[key].short or full
        shape = "double outline" if key == "fold" else SHAPE_WORDS.get(key, ROLES[key].shape)
        title = shape if words == full else f"{shape}: {full}"
        items.append(f"<li data-role='{key}' title='{html_text(title)}'>{swatch(key)}"
                     f"<span>{html_text(words)}</span></li>")
    return (f"<ul class='rk-legend' aria-label='What the shapes mean'>{''.join(items)}</ul>")
