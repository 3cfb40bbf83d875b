"""A lesson notebook's outline: its title and its Markdown headings, each with the ruling ids
(R01-R19) it names and the id a page gives it. The one reader of notebook headings: the
coverage scan (`mtg_rulekit.repo.coverage`), the lesson lists (`mtg_rulekit.display.lesson`, the
site's index) and the exported pages' titles (`mtg_rulekit.export.lesson`) all use it.

A heading is an ATX heading line of a markdown cell (`## Tapped for mana (R04)`), not a line
inside a fenced code block; Setext headings (underlined) are not used by the lessons.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from mtg_rulekit.display.escape import markdown_plain

__all__ = ["RULING_ID", "Heading", "Outline", "outline", "read_outline"]

RULING_ID = re.compile(r"\bR(?:0[1-9]|1[0-9])\b")
_ATX = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


@dataclass(frozen=True)
class Heading:
    level: int  # 1 for `#`, 2 for `##`, ...
    source: str  # the heading's Markdown, without the #s: "Tapped for *mana* (R04)"

    @property
    def markdown(self) -> str:
        """The heading line as written: `## Tapped for *mana* (R04)`."""
        return f"{'#' * self.level} {self.source}"

    @property
    def text(self) -> str:
        """As the heading reads: no markup, emphasis or escapes (`Tapped for mana (R04)`)."""
        return markdown_plain(self.source)

    @property
    def rulings(self) -> tuple[str, ...]:
        """The ruling ids the heading names, in order, each once."""
        return tuple(dict.fromkeys(RULING_ID.findall(self.source)))

    @property
    def anchor(self) -> str:
        """The id nbconvert gives the heading in an exported page (its text, spaces as
        hyphens, URL-quoted as nbconvert quotes it); JupyterLab's id is the same unquoted,
        which browsers also match, so one link fragment serves both."""
        return quote(self.text.replace(" ", "-"), safe="?/:@!$&'()*+,;=")


@dataclass(frozen=True)
class Outline:
    title: str  # metadata `title`, else the first `# ` heading as it reads, else the fallback
    headings: tuple[Heading, ...]

    @property
    def rulings(self) -> tuple[str, ...]:
        """The ruling ids named in any heading, sorted."""
        return tuple(sorted({r for h in self.headings for r in h.rulings}))


def _source(cell: Mapping[str, Any]) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else str(src)


def _headings(text: str) -> list[Heading]:
    out, fence = [], ""
    for line in text.splitlines():
        m = _FENCE.match(line)
        if m:  # a fence closes with the same character, at least as long
            if not fence:
                fence = m.group(1)
            elif m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = ""
            continue
        h = None if fence else _ATX.match(line)
        if h:
            out.append(Heading(len(h.group(1)), h.group(2)))
    return out


def outline(nb: Mapping[str, Any], fallback: str = "") -> Outline:
    """The outline of a notebook given as its JSON (a dict, or an nbformat `NotebookNode`)."""
    headings = tuple(h for cell in nb.get("cells", []) if cell.get("cell_type") == "markdown"
                     for h in _headings(_source(cell)))
    meta = nb.get("metadata") or {}
    title = str(meta.get("title") or "") or next(
        (h.text for h in headings if h.level == 1), "") or fallback
    return Outline(title, headings)


def read_outline(path: Path) -> Outline | None:
    """The outline of the notebook file `path` (title fallback: its file name without
    `.ipynb`); None if it can't be read as a notebook."""
    try:
        nb = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return None
    return outline(nb, path.stem) if isinstance(nb, dict) else None
