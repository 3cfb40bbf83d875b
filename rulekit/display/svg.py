"""SVG: DOT text drawn by Graphviz's `dot` program, and SVG made fit to paste into HTML.

The one module that runs Graphviz (a subprocess, standard library only) and the one place SVG
text is processed:

- `render_svg(graph)` runs `dot` on a diagram's DOT text (`graph.source`) and turns its
  node, edge and cluster `<title>`s into readable sentences (`graph.titles`, see `retitle`);
  `run_dot(source)` is the bare run, `dot_version()` asks `dot -V`; a missing `dot` raises
  `GraphvizMissing`, whose message says how to install it;
- `strip_prolog(svg)`: an SVG document as markup (no XML prolog, DOCTYPE or leading comments);
- `inline_svg(svg, label=...)`: Graphviz SVG made small and fit to sit inline in a lesson page
  or a widget (no ids or comments, coordinates to 0.1 pt, `role="img"` with a label).

>>> strip_prolog('<?xml version="1.0"?>\\n<!DOCTYPE svg PUBLIC "x" "y">\\n<svg a="1"/>')
'<svg a="1"/>'
>>> retitle("<title>n1&#45;&gt;n2</title>", {"n1->n2": "Alice taps — pays → Forest"})
'<title>Alice taps — pays → Forest</title>'
"""

from __future__ import annotations

import html
import re
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol

from rulekit.display.escape import html_text

if TYPE_CHECKING:
    import subprocess

# `subprocess` is imported where `dot` runs: an exported page's sandbox (Pyodide) uses this
# module's SVG processing only, and importing subprocess there costs start-up time

__all__ = [
    "INSTALL_MESSAGE", "GraphvizMissing", "compact", "dot_version", "inline_svg", "render_svg",
    "retitle", "run_dot", "single_quotes", "strip_prolog",
]

INSTALL_MESSAGE = (
    "Graphviz's `dot` program was not found, so diagrams can't be drawn. Install Graphviz and "
    "run the command again: Debian/Ubuntu `sudo apt-get install graphviz`, macOS "
    "`brew install graphviz`, Windows `winget install graphviz` (or see "
    "https://graphviz.org/download/). `make diagrams` installs it when run as root."
)

DOT = "dot"  # Graphviz's program, found on PATH


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


def run_dot(source: str) -> str:
    """The SVG Graphviz draws from DOT text `source` (`dot -Kdot -Tsvg`, UTF-8; deterministic
    for a given Graphviz version). Raises `GraphvizMissing` when `dot` is not installed and
    `subprocess.CalledProcessError` (with dot's `stderr`) when it refuses the graph; what it
    warns about on a graph it draws goes to stderr."""
    import subprocess

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
    is not installed, `subprocess.CalledProcessError` when it fails."""
    import subprocess

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
