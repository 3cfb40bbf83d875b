"""SVG: DOT text drawn by Graphviz's `dot` program, and SVG made fit to paste into HTML.

The one module that runs Graphviz (a subprocess, standard library only) and the one place SVG
text is processed:

- `render_svg(graph)` runs `dot` on a diagram's DOT text (`graph.source`) and turns its
  node, edge and cluster `<title>`s into readable sentences (`graph.titles`, see `retitle`);
  `run_dot(source)` is the bare run, `dot_version()` asks `dot -V`; a missing `dot` raises
  `GraphvizMissing`, whose message says how to install it. Under Pyodide (a JupyterLite
  kernel: `sys.platform == "emscripten"`, where no program can run) Graphviz compiled to
  WebAssembly draws instead: Viz.js, as in an exported page's sandbox (see `_viz`);
- `strip_prolog(svg)`: an SVG document as markup (no XML prolog, DOCTYPE or leading comments);
- `inline_svg(svg, label=...)`: Graphviz SVG made small and fit to sit inline in a lesson page
  or a widget (no ids or comments, coordinates to 0.1 pt, `role="img"` with a label);
- `shapes(svg)`: the drawing's geometry (each cluster, node and edge: its box, its texts with
  their sizes, an edge's curve), for the checks on what a pane shows (`pane_fit`, `min_font`)
  and on edges crossing boxes and titles (`crossings`).

>>> strip_prolog('<?xml version="1.0"?>\\n<!DOCTYPE svg PUBLIC "x" "y">\\n<svg a="1"/>')
'<svg a="1"/>'
>>> retitle("<title>n1&#45;&gt;n2</title>", {"n1->n2": "Alice taps — pays → Forest"})
'<title>Alice taps — pays → Forest</title>'
"""

from __future__ import annotations

import html
import re
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from mtg_rulekit.display.escape import html_text

if TYPE_CHECKING:
    import subprocess

# `subprocess` is imported where `dot` runs: an exported page's sandbox (Pyodide) uses this
# module's SVG processing only, and importing subprocess there costs start-up time

__all__ = [
    "INSTALL_MESSAGE", "PANE", "GraphvizMissing", "Shape", "box_fit", "compact", "crossings",
    "dot_version", "focus_box", "inline_svg", "min_font", "new_box", "pane_fit", "render_svg", "retitle", "run_dot",
    "shapes", "single_quotes", "strip_prolog",
]

INSTALL_MESSAGE = (
    "Graphviz's `dot` program was not found, so diagrams can't be drawn. Install Graphviz and "
    "run the command again: Debian/Ubuntu `sudo apt-get install graphviz`, macOS "
    "`brew install graphviz`, Windows `winget install graphviz` (or see "
    "https://graphviz.org/download/). `make diagrams` installs it when run as root."
)

DOT = "dot"  # Graphviz's program, found on PATH
VIZ_JS = "viz.js"  # Viz.js's ES module, beside Pyodide's lock file (`make lite` puts it there)


class GraphvizMissing(RuntimeError):
    """Graphviz's `dot` executable is not installed (or not on PATH)."""

    def __init__(self, message: str = INSTALL_MESSAGE) -> None:
        super().__init__(message)


class Drawable(Protocol):
    """What `render_svg` draws: DOT text, and optionally readable titles by SVG `<title>`."""

    @property
    def source(self) -> str: ...


# ----------------------------------------------------------------------------- running dot
def _dot(args: list[str], stdin: str | None, encoding: str) -> subprocess.CompletedProcess[str]:
    import subprocess

    try:
        return subprocess.run([DOT, *args], input=stdin, capture_output=True, check=False,
                              encoding=encoding, errors="strict" if stdin else "replace")
    except FileNotFoundError:
        raise GraphvizMissing() from None
    except OSError as err:  # found but can't be run (no processes at all, permissions)
        raise GraphvizMissing(f"Graphviz's `dot` can't be run here ({err.strerror or err}). "
                              + INSTALL_MESSAGE) from None


_viz_instance: list[object] = []  # Viz.js's instance, made once per kernel
_FONT_LIST = re.compile(r'fontname="([^",]+),[^"]*"')


def _viz() -> object:
    """Viz.js in a Pyodide kernel: its ES module `VIZ_JS` imported from beside Pyodide's lock
    file, and the instance made once; Pyodide's `run_sync` waits for both (WebAssembly's
    stack switching, which Chromium has had on by default since version 137). Raises
    GraphvizMissing when either can't be done."""
    if _viz_instance:
        return _viz_instance[0]
    try:
        import pyodide_js  # Pyodide only
        from pyodide.code import run_js
        from pyodide.ffi import run_sync

        url = str(pyodide_js.lockfileBaseUrl or "") + VIZ_JS
        module = run_sync(run_js(f"import(new URL({_js_string(url)}, self.location.href).href)"))
        _viz_instance.append(run_sync(module.instance()))
    except Exception as err:  # no Pyodide API, no Viz.js there, no stack switching
        raise GraphvizMissing(f"Graphviz can't run in this Python (WebAssembly), and Viz.js "
                              f"could not be loaded instead ({err}). Viz.js needs a browser "
                              "with WebAssembly stack switching (JSPI), such as Chrome or Edge "
                              "137 or newer.") from None
    return _viz_instance[0]


def _js_string(text: str) -> str:
    import json

    return json.dumps(text)


def _viz_svg(source: str) -> str:
    """The SVG Viz.js draws from DOT `source`, as `dot -Tsvg` would. Viz.js sizes text with the
    metrics of a font it knows by name, and a list of fallbacks is not one: it gets the first
    family (as the exported page's sandbox does)."""
    import subprocess

    import js  # Pyodide only
    from pyodide.ffi import to_js

    viz: Any = _viz()
    options = to_js({"format": "svg", "engine": "dot"}, dict_converter=js.Object.fromEntries)
    try:
        return str(viz.renderString(_FONT_LIST.sub(r'fontname="\1"', source), options))
    except Exception as err:  # Viz.js refused the graph (JsException)
        raise subprocess.CalledProcessError(1, ["viz.js"], "", str(err)) from None


def run_dot(source: str) -> str:
    """The SVG Graphviz draws from DOT text `source` (`dot -Kdot -Tsvg`, UTF-8; deterministic
    for a given Graphviz version). Raises `GraphvizMissing` when `dot` is not installed and
    `subprocess.CalledProcessError` (with dot's `stderr`) when it refuses the graph; what it
    warns about on a graph it draws goes to stderr. Under Pyodide Viz.js draws it (`_viz`)."""
    import subprocess

    if sys.platform == "emscripten":
        return _viz_svg(source)
    proc = _dot(["-Kdot", "-Tsvg"], source, "utf-8")
    if proc.returncode:
        raise subprocess.CalledProcessError(proc.returncode, proc.args, proc.stdout, proc.stderr)
    if proc.stderr:
        sys.stderr.write(proc.stderr)
        sys.stderr.flush()
    return proc.stdout


_VERSION = re.compile(r"graphviz version (\d+)\.(\d+)(?:\.(\d+)(?:\.(\d+))?)?")


def dot_version() -> str:
    """The installed Graphviz version, "2.43.0" (`dot -V`). Raises `GraphvizMissing` when `dot`
    is not installed, `subprocess.CalledProcessError` when it fails. Under Pyodide: the
    Graphviz version Viz.js was built from."""
    import subprocess

    if sys.platform == "emscripten":
        viz: Any = _viz()
        return str(viz.graphvizVersion)  # type: ignore[attr-defined]
    proc = _dot(["-V"], None, "ascii")
    if proc.returncode:
        raise subprocess.CalledProcessError(proc.returncode, proc.args, proc.stdout, proc.stderr)
    m = _VERSION.search(proc.stderr + proc.stdout)
    if m is None:
        raise RuntimeError(f"can't read the Graphviz version from `dot -V`: "
                           f"{(proc.stderr + proc.stdout).strip()!r}")
    return ".".join(d for d in m.groups() if d is not None)


def render_svg(graph: Drawable) -> str:
    """Run `dot` on `graph.source` and return SVG text (deterministic for a given Graphviz
    version), its `<title>`s made readable with `graph.titles` when it has them (a
    `FlowDiagram` does). Raises `GraphvizMissing` when `dot` is not installed."""
    svg = run_dot(graph.source)
    titles: Mapping[str, str] = getattr(graph, "titles", {})
    return retitle(svg, titles) if titles else svg


_TITLE = re.compile(r"<title>([^<]*)</title>")


def retitle(svg: str, titles: Mapping[str, str]) -> str:
    """`svg` with each `<title>` Graphviz wrote (a node's name, "tail->head" for an edge, a
    cluster's name) replaced by its sentence in `titles`, which screen readers read and
    browsers show as the tooltip; titles not in `titles` stay as they are."""

    def one(match: re.Match[str]) -> str:
        text = titles.get(html.unescape(match.group(1)))
        if text is None:
            return match.group(0)
        return f"<title>{_xml(text)}</title>"

    return _TITLE.sub(one, svg)


def _xml(text: str) -> str:
    return html_text(text).replace("\n", "&#10;")


# ----------------------------------------------------------------------------- into HTML
_BEFORE_SVG = re.compile(r"\A(?:\s+|<\?xml[^>]*\?>|<!--.*?-->|<!DOCTYPE[^>]*>)*", re.S)
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_LINK_OPEN = re.compile(r'<g id="a_[^"]*"><a xlink:title="[^"]*">\n?')
_LINK_CLOSE = re.compile(r"</a>\n?</g>\n?")
_G_ID = re.compile(r'<g id="[^"]*" class=')
_FONT_ATTR = re.compile(r' font-family="[^"]*"')
_TAG = re.compile(r"<[^<>]+>")
_DQ_ATTR = re.compile(r'(\s[\w:.-]+)="([^"\']*)"')
_GEOMETRY = re.compile(r'(\s(?:points|d|x|y|viewBox|transform|width|height|font-size)=")([^"]*)"')
_DECIMAL = re.compile(r"(-?\d+)\.(\d+)")
_PT_SIZE = re.compile(r'(\s((width|height))=")[\d.]+pt"')
_VIEWBOX_WH = re.compile(r'viewBox="[-\d.]+ [-\d.]+ ([\d.]+) ([\d.]+)"')
_BETWEEN_TAGS = re.compile(r">[ \t]*\n\s*<")


def strip_prolog(svg: str) -> str:
    """An SVG document as markup to paste into HTML: no XML prolog, comments or DOCTYPE
    before the `<svg>` element."""
    return _BEFORE_SVG.sub("", svg, count=1)


def compact(html: str) -> str:
    """Drop the line breaks (and indentation) between tags: they render as nothing here."""
    return _BETWEEN_TAGS.sub("><", html)


def single_quotes(html: str) -> str:
    """Attribute values quoted with ' instead of " (when they hold no '): the same HTML, but
    about a tenth smaller once stored as a JSON string (widget state), where " costs two bytes."""
    return _TAG.sub(lambda m: _DQ_ATTR.sub(r"\1='\2'", m.group(0)), html)


def _round(m: re.Match[str]) -> str:
    value = round(float(m.group(0)), 1)
    text = f"{value:.1f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def round_geometry(svg: str) -> str:
    """Coordinates to one decimal (0.1pt: invisible at any zoom a lesson uses)."""
    return _GEOMETRY.sub(lambda m: m.group(1) + _DECIMAL.sub(_round, m.group(2)) + '"', svg)


def inline_svg(svg: str, *, label: str) -> str:
    """Graphviz SVG made fit to sit inline in HTML, and smaller: no XML prolog, DOCTYPE or
    comments; no element ids (several diagrams share a page); no `<a xlink:title>` tooltip
    wrappers (each element keeps its `<title>`, which browsers show as the tooltip and screen
    readers read); the font given by CSS (`FRAME_CSS`) instead of on every text; scales down to
    its container; `role="img"` with a label."""
    svg = _COMMENT.sub("", strip_prolog(svg))
    opened = len(_LINK_OPEN.findall(svg))
    if opened and opened == len(_LINK_CLOSE.findall(svg)) and svg.count("<a ") == opened:
        svg = _LINK_CLOSE.sub("", _LINK_OPEN.sub("", svg))
    svg = _G_ID.sub("<g class=", svg)
    svg = round_geometry(_FONT_ATTR.sub("", svg))
    # one scale for every diagram: 1 CSS px per point (Graphviz's 16 pt text is 16 px), so
    # text is never under 14 px and every walkthrough reads the same (docs/classroom.md)
    box = _VIEWBOX_WH.search(svg)
    if box is not None:  # exactly the viewBox: Graphviz rounds width and height to whole pt
        size = {"width": box.group(1), "height": box.group(2)}
        svg = _PT_SIZE.sub(lambda m: f'{m.group(1)}{size[m.group(3)]}"', svg, count=2)
    svg = svg.replace("<svg ", f'<svg role="img" aria-label="{html_text(label)}" ', 1)
    svg = "\n".join(line.strip() for line in svg.splitlines() if line.strip())
    return compact(single_quotes(svg))


# ----------------------------------------------------------------------------- geometry
PANE = (690.0, 560.0)
"""The diagram pane at 1280x720 in CSS px (= Graphviz points at the page's one scale): 690 wide
(the issue's measured 691), 560 high (the window less the walkthrough's heading, control row
and the figure's title)."""

_SVG_NS = "{http://www.w3.org/2000/svg}"
_NUM = re.compile(r"-?\d+(?:\.\d+)?")
TEXT_WIDTH = 0.58  # a DejaVu Sans letter's mean advance, in font sizes (an estimate)

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in the drawing's points


@dataclass
class Text:
    """One line of text in the drawing: its estimated box and its font size."""

    box: Box
    size: float
    text: str


@dataclass
class Shape:
    """One cluster, node or edge of a Graphviz SVG drawing."""

    kind: str  # "cluster", "node" or "edge"
    classes: list[str]
    title: str
    outline: Box | None = None  # the box's or cluster's own outline (not for an edge)
    texts: list[Text] = field(default_factory=list)
    curve: list[tuple[float, float]] = field(default_factory=list)  # an edge's line, sampled
    head: Box | None = None  # an edge's arrowhead

    @property
    def box(self) -> Box | None:
        """Everything the element draws: outline, line, arrowhead, texts."""
        boxes = [b for b in [self.outline, self.head] + [t.box for t in self.texts] if b]
        if self.curve:
            xs, ys = [x for x, _ in self.curve], [y for _, y in self.curve]
            boxes.append((min(xs), min(ys), max(xs), max(ys)))
        return _union(boxes)


def _union(boxes: Iterable[Box | None]) -> Box | None:
    found = [b for b in boxes if b is not None]
    if not found:
        return None
    return (min(b[0] for b in found), min(b[1] for b in found),
            max(b[2] for b in found), max(b[3] for b in found))


def _points(text: str) -> list[tuple[float, float]]:
    nums = [float(n) for n in _NUM.findall(text)]
    return list(zip(nums[0::2], nums[1::2]))


def _bounds(pts: list[tuple[float, float]]) -> Box | None:
    if not pts:
        return None
    xs, ys = [x for x, _ in pts], [y for _, y in pts]
    return (min(xs), min(ys), max(xs), max(ys))


def _bezier(pts: list[tuple[float, float]], steps: int = 12) -> list[tuple[float, float]]:
    """Graphviz's edge path ("M p0 C p1 p2 p3 p4 p5 p6 ..."), a cubic spline, sampled."""
    out = pts[:1]
    for i in range(0, len(pts) - 3, 3):
        p0, p1, p2, p3 = pts[i:i + 4]
        for k in range(1, steps + 1):
            t = k / steps
            a, b, c, d = (1 - t) ** 3, 3 * t * (1 - t) ** 2, 3 * t * t * (1 - t), t ** 3
            out.append((a * p0[0] + b * p1[0] + c * p2[0] + d * p3[0],
                        a * p0[1] + b * p1[1] + c * p2[1] + d * p3[1]))
    return out


def _text(el: ET.Element) -> Text:
    size = float(el.get("font-size", "14"))
    words = "".join(el.itertext())
    x, y = float(el.get("x", "0")), float(el.get("y", "0"))
    width = len(words.strip()) * size * TEXT_WIDTH
    anchor = el.get("text-anchor", "start")
    x0 = x - width / 2 if anchor == "middle" else x - width if anchor == "end" else x
    return Text((x0, y - size * 0.8, x0 + width, y + size * 0.25), size, words)


def shapes(svg: str) -> list[Shape]:
    """Each cluster, node and edge of a Graphviz SVG (whole, or made inline), in document
    order, with its geometry in the drawing's coordinates (points)."""
    root = ET.fromstring(strip_prolog(svg).replace("&nbsp;", "&#160;"))
    out: list[Shape] = []
    for g in root.iter(f"{_SVG_NS}g"):
        classes = (g.get("class") or "").split()
        if not classes or classes[0] not in ("cluster", "node", "edge"):
            continue
        title = g.find(f"{_SVG_NS}title")
        shape = Shape(classes[0], classes[1:], (title.text or "") if title is not None else "")
        outlines: list[Box | None] = []
        for el in g.iter():
            tag = el.tag.removeprefix(_SVG_NS)
            if tag == "text":
                shape.texts.append(_text(el))
            elif tag == "path" and shape.kind == "edge":
                shape.curve = _bezier(_points(el.get("d", "")))
            elif tag in ("polygon", "polyline") and shape.kind == "edge":
                shape.head = _union([shape.head, _bounds(_points(el.get("points", "")))])
            elif tag in ("polygon", "polyline", "path"):
                outlines.append(_bounds(_points(el.get("points", el.get("d", "")))))
            elif tag == "ellipse":
                cx, cy = float(el.get("cx", "0")), float(el.get("cy", "0"))
                rx, ry = float(el.get("rx", "0")), float(el.get("ry", "0"))
                outlines.append((cx - rx, cy - ry, cx + rx, cy + ry))
        shape.outline = _union(outlines)
        out.append(shape)
    return out


def new_box(svg: str, cls: str = "rk-new") -> Box | None:
    """The box of everything in `svg` carrying class `cls` (what a step added: "rk-new" in a
    frame, "rk-s3" for step 3 of a scenario's drawing), in points."""
    return _union(s.box for s in shapes(svg) if cls in s.classes)


_GRAPH_G = re.compile(r"""<g\b[^>]*\bclass=["']graph["'][^>]*>""")
_TRANSLATE = re.compile(r"translate\(\s*(-?[\d.]+)[ ,]+(-?[\d.]+)\s*\)")


def focus_box(svg: str, cls: str = "rk-new") -> Box | None:
    """`new_box` in the coordinates of the drawing's `viewBox` (Graphviz draws in a group
    translated into it): where a page zooms and scrolls to, rounded to whole points.

    >>> svg = ("<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 200 100'>"
    ...        "<g class='graph' transform='translate(4 96)'>"
    ...        "<g class='node rk-new'><polygon points='10,-80 50,-80 50,-60 10,-60'/></g>"
    ...        "</g></svg>")
    >>> focus_box(svg)
    (14, 16, 54, 36)
    """
    box = new_box(svg, cls)
    if box is None:
        return None
    graph = _GRAPH_G.search(svg)
    move = _TRANSLATE.search(graph.group(0)) if graph else None
    dx, dy = (float(move.group(1)), float(move.group(2))) if move else (0.0, 0.0)
    return (round(box[0] + dx), round(box[1] + dy), round(box[2] + dx), round(box[3] + dy))


def pane_fit(svg: str, cls: str = "rk-new", pane: tuple[float, float] = PANE) -> float:
    """The largest share (0 to 1) of the box of what carries `cls` that a `pane` (width,
    height in CSS px) can show at once, at the page's one scale (1 CSS px per point): 1.0 when
    it fits, 0.25 when it is twice as wide and twice as high. 1.0 when nothing has `cls`."""
    return box_fit(new_box(svg, cls), pane)


def box_fit(box: Box | None, pane: tuple[float, float] = PANE) -> float:
    """`pane_fit` of a box (x0, y0, x1, y1 in points): 1.0 for None."""
    if box is None:
        return 1.0
    w, h = max(box[2] - box[0], 1e-9), max(box[3] - box[1], 1e-9)
    return min(w, pane[0]) * min(h, pane[1]) / (w * h)


def min_font(svg: str, cls: str | None = None) -> float:
    """The smallest font size (points = CSS px at the page's scale) of the texts of what
    carries `cls` (of everything, with None)."""
    sizes = [t.size for s in shapes(svg) if cls is None or cls in s.classes for t in s.texts]
    return min(sizes) if sizes else 0.0


def _inside(p: tuple[float, float], b: Box, margin: float) -> bool:
    return b[0] + margin < p[0] < b[2] - margin and b[1] + margin < p[1] < b[3] - margin


def crossings(svg: str, *, margin: float = 2.0) -> list[str]:
    """Where an edge's line runs through a box that is neither its tail nor its head, through
    a cluster's title, or through another edge's label: one sentence each ([] when none).
    Point by point along each edge's sampled curve, `margin` points in from each box's edge
    (an arrow that ends on a box's border touches it; it doesn't cross it)."""
    drawn = shapes(svg)
    nodes = {s.title: s for s in drawn if s.kind == "node" and s.outline}
    titles = [(s.title, s.texts[0].box) for s in drawn if s.kind == "cluster" and s.texts]
    found: list[str] = []
    for edge in (s for s in drawn if s.kind == "edge" and s.curve):
        ends = set(edge.title.split("->")) if "->" in edge.title else set()
        for name, node in nodes.items():
            if name in ends or node.outline is None:
                continue
            if any(_inside(p, node.outline, margin) for p in edge.curve):
                found.append(f"edge {edge.title} crosses box {name}")
        for name, box in titles:
            if any(_inside(p, box, margin) for p in edge.curve):
                found.append(f"edge {edge.title} crosses the title of {name}")
        for other in drawn:
            if other is edge or other.kind != "edge" or not other.texts:
                continue
            for t in other.texts:
                if any(_inside(p, t.box, margin) for p in edge.curve):
                    found.append(f"edge {edge.title} crosses the label of edge {other.title}")
    return found
