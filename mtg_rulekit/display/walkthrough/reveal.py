"""One drawing, shown a group at a time: a walkthrough's frames cut from a single Graphviz layout.

A `Stepper` draws its whole scenario once (`scenario_diagram`, one `dot` run) and each frame
keeps only the steps up to it. Every node stays where it is from one frame to the next (on a
projector, the picture grows downwards instead of being laid out afresh at every step) and
the kernel runs `dot` once per walkthrough instead of once per frame.

The drawing's clusters, nodes and edges carry the class of their group (`flow.group_class`:
"rk-s0" for the set-up, "rk-s1" for step 1, ...); anything without one (the title, the legend)
is always shown. `reveal` removes the elements of hidden groups and crops the picture's height
to what is left, so an early frame is not a tall empty canvas.

>>> svg = ("<svg width='100pt' height='300pt' viewBox='0 0 100 300'>"
...        "<g class='graph' transform='scale(1 1) rotate(0) translate(4 296)'>"
...        "<g class='node rk-s0'><text x='10' y='-250'>set-up</text></g>"
...        "<g class='node rk-s1'><text x='10' y='-20'>step 1</text></g></g></svg>")
>>> frame = reveal(svg, {"s0"})
>>> "set-up" in frame, "step 1" in frame
(True, False)
>>> frame.startswith("<svg width='100pt' height='56pt' viewBox='0 0 100 56'>")
True
>>> reveal(svg, {"s0", "s1"}) == svg                    # nothing hidden: the drawing as it is
True
"""

from __future__ import annotations

import html
import re
from collections.abc import Collection

from mtg_rulekit.display.escape import html_text

__all__ = ["NEW", "groups_of", "mark_new", "reveal"]

NEW = "rk-new"  # the class of what the current step added (the page contract: docs/classroom.md)

_G = re.compile(r"<g\b([^>]*)>|</g>")
_CLASS = re.compile(r"""\bclass=(["'])(.*?)\1""")
_GROUP = re.compile(r"\brk-(?!uses-|new\b)([\w-]+)")
_USES = re.compile(r"\brk-uses-([\w-]+)")
_SVG_TAG = re.compile(r"<svg\b[^>]*>")
_TRANSLATE = re.compile(r"translate\(\s*(-?[\d.]+)[ ,]+(-?[\d.]+)\s*\)")
_PAIR_ATTR = re.compile(r"""\s(?:points|d)=["']([^"']*)["']""")
_PAIR = re.compile(r"-?[\d.]+,(-?[\d.]+)")
_Y_ATTR = re.compile(r"""\s(?:y|cy)=["'](-?[\d.]+)["']""")
_HEIGHT = re.compile(r"""(\sheight=["'])([\d.]+)(pt)?(["'])""")
_VIEWBOX = re.compile(r"""(\sviewBox=["'])(\S+)\s+(\S+)\s+(\S+)\s+(\S+)(["'])""")
TEXT_DESCENT = 6.0  # points below a text's baseline that its letters may reach


def _group_of(attrs: str) -> str | None:
    m = _CLASS.search(attrs)
    if m is None:
        return None
    found = _GROUP.search(html.unescape(m.group(2)))  # Graphviz writes "-" as "&#45;"
    return found.group(1) if found else None


def _elements(svg: str) -> list[tuple[int, int, str | None]]:
    """(start, end, group or None) of each element drawn directly in the graph (depth 2:
    clusters, nodes, edges), in document order."""
    out: list[tuple[int, int, str | None]] = []
    depth, start, group = 0, 0, None
    for m in _G.finditer(svg):
        if m.group(0) == "</g>":
            if depth == 2:
                out.append((start, m.end(), group))
            depth -= 1
            continue
        depth += 1
        if depth == 2:
            start, group = m.start(), _group_of(m.group(1) or "")
    return out


def groups_of(svg: str) -> list[str]:
    """The groups an SVG drawing is made of, in the order they first appear."""
    return list(dict.fromkeys(g for _, _, g in _elements(svg) if g is not None))


def _fmt(value: float) -> str:
    text = f"{value:.1f}".rstrip("0").rstrip(".")
    return text or "0"


def reveal(svg: str, visible: Collection[str], *, label: str | None = None) -> str:
    """`svg` (Graphviz output, whole or made inline) with only the groups in `visible` and
    what belongs to no group; its height cropped just below the lowest element left (the
    width is kept, so nothing moves sideways between frames). `label` replaces the
    `aria-label` of the `<svg>` element, if it has one."""
    elements = _elements(svg)

    def shown(a: int, g: str | None) -> bool:
        m = _CLASS.search(svg, a, svg.index(">", a))
        uses = _USES.findall(html.unescape(m.group(2))) if m else []
        if uses:  # a legend entry: shown when a shown group uses its shape
            return any(u in visible for u in uses)
        return g is None or g in visible

    keep = {a: shown(a, g) for a, _b, g in elements}
    hidden = [(a, b) for a, b, _g in elements if not keep[a]]
    if hidden:
        lowest = None
        for a, b, _g in elements:
            if not keep[a]:
                continue
            part = svg[a:b]
            ys = [float(y) for attr in _PAIR_ATTR.findall(part) for y in _PAIR.findall(attr)]
            ys += [float(y) + TEXT_DESCENT for y in _Y_ATTR.findall(part)]
            if ys:
                lowest = max(ys) if lowest is None else max(lowest, *ys)
        pieces, at = [], 0
        for a, b in hidden:
            pieces.append(svg[at:a])
            at = b
        pieces.append(svg[at:])
        svg = "".join(pieces)
        if lowest is not None:
            svg = _crop(svg, lowest)
    return svg if label is None else _relabel(svg, label)


def mark_new(svg: str, groups: Collection[str] | None = None) -> str:
    """`svg` with class `rk-new` added to the clusters, nodes and edges of `groups` (None: of
    every group), so a page can show what the current step added."""
    pieces, at = [], 0
    for a, _b, g in _elements(svg):
        if g is None or (groups is not None and g not in groups):
            continue
        tag_end = svg.index(">", a)
        m = _CLASS.search(svg, a, tag_end)
        if m is None:
            continue
        pieces.append(svg[at:m.end(2)])
        pieces.append(" " + NEW)
        at = m.end(2)
    pieces.append(svg[at:])
    return "".join(pieces)


def _relabel(svg: str, label: str) -> str:
    tag = _SVG_TAG.search(svg)
    if tag is None or "aria-label=" not in tag.group(0):
        return svg
    new_tag = re.sub(r"""aria-label=(["']).*?\1""",
                     lambda m: f"aria-label={m.group(1)}{html_text(label)}{m.group(1)}",
                     tag.group(0), count=1)
    return svg[:tag.start()] + new_tag + svg[tag.end():]


def _crop(svg: str, lowest: float) -> str:
    """Set the drawing's height to end `pad` below graph coordinate `lowest` (Graphviz draws
    at negative y, moved down by the graph's `translate`; the pad is its x offset)."""
    tag = _SVG_TAG.search(svg)
    move = _TRANSLATE.search(svg)
    if tag is None or move is None:
        return svg
    box = _VIEWBOX.search(tag.group(0))
    height = _HEIGHT.search(tag.group(0))
    if box is None or height is None:
        return svg
    pad, shift = float(move.group(1)), float(move.group(2))
    old = float(box.group(5))
    new = min(old, round(lowest + shift + pad, 1))
    if new >= old:
        return svg
    scale = float(height.group(2)) / old if old else 1.0
    new_tag = _VIEWBOX.sub(
        lambda m: f"{m.group(1)}{m.group(2)} {m.group(3)} {m.group(4)} {_fmt(new)}{m.group(6)}",
        tag.group(0), count=1)
    new_tag = _HEIGHT.sub(
        lambda m: f"{m.group(1)}{_fmt(new * scale)}{m.group(3) or ''}{m.group(4)}",
        new_tag, count=1)
    return svg[:tag.start()] + new_tag + svg[tag.end():]
