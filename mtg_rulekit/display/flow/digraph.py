"""A tiny DOT writer: a directed graph as DOT text, standard library only.

It writes what the `graphviz` Python package (0.20, 0.21) would for the same calls, byte for
byte, so the committed `diagrams/*.dot` and `*.svg` did not change when the flow model stopped
importing it: identifiers are quoted only when DOT needs it, an HTML-like label (``<...>``)
is left as it is, a double quote is escaped, and attributes are written in name order (a
node's or an edge's `label` first). Text that comes from users is escaped before it gets here
(`mtg_rulekit.display.escape`).

>>> g = Digraph("demo")
>>> g.attr("node", shape="box")
>>> with g.subgraph(name="cluster_a") as c:
...     c.attr(label="<<B>A</B>>", color="#888888")
...     c.node("n1", label="one", tooltip='say "hi"')
>>> g.edge("n1", "n2", label=" then ", style="dashed")
>>> print(g.source.expandtabs(4), end="")  # (each level is indented by a tab)
digraph demo {
    node [shape=box]
    subgraph cluster_a {
        color="#888888" label=<<B>A</B>>
        n1 [label=one tooltip="say \\"hi\\""]
    }
    n1 -> n2 [label=" then " style=dashed]
}
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["Digraph", "quote"]

_HTML = re.compile(r"<.*>$", re.DOTALL)
_ID = re.compile(r"([a-zA-Z_][a-zA-Z0-9_]*|-?(\.[0-9]+|[0-9]+(\.[0-9]*)?))$")
_KEYWORDS = {"node", "edge", "graph", "digraph", "subgraph", "strict"}
_UNESCAPED_QUOTE = re.compile(r"(?P<backslashes>(?:\\{2})*)\\?(?P<quote>\")")


def quote(identifier: str) -> str:
    """`identifier` as a DOT ID: as it is when it is a name, a number or an HTML-like string
    (``<...>``), else double-quoted with its double quotes escaped."""
    if _HTML.match(identifier):
        return identifier
    if not _ID.match(identifier) or identifier.lower() in _KEYWORDS:
        return '"' + _UNESCAPED_QUOTE.sub(r"\g<backslashes>\\\g<quote>", identifier) + '"'
    return identifier


def _a_list(label: str | None, attrs: dict[str, str]) -> str:
    items = [f"label={quote(label)}"] if label is not None else []
    items += [f"{quote(k)}={quote(v)}" for k, v in sorted(attrs.items()) if v is not None]
    return " ".join(items)


def _attr_list(label: str | None, attrs: dict[str, str]) -> str:
    content = _a_list(label, attrs)
    return f" [{content}]" if content else ""


class Digraph:
    """A directed graph (or, inside another, a subgraph) written as DOT statements."""

    def __init__(self, name: str | None = None) -> None:
        self.name = name
        self.body: list[str] = []  # DOT statements, one per line, each ending with "\n"

    def attr(self, kw: str | None = None, **attrs: str) -> None:
        """Attributes of the graph itself (`kw` None) or defaults for every "node" or "edge"."""
        if not attrs:
            return
        if kw is None:
            self.body.append(f"\t{_a_list(None, attrs)}\n")
        else:
            self.body.append(f"\t{kw}{_attr_list(None, attrs)}\n")

    def node(self, name: str, label: str | None = None, **attrs: str) -> None:
        self.body.append(f"\t{quote(name)}{_attr_list(label, attrs)}\n")

    def edge(self, tail: str, head: str, label: str | None = None, **attrs: str) -> None:
        self.body.append(f"\t{quote(tail)} -> {quote(head)}{_attr_list(label, attrs)}\n")

    @contextmanager
    def subgraph(self, name: str | None = None) -> Iterator[Digraph]:
        """A subgraph to fill in the `with` block; added to this graph when the block ends
        (a name starting with "cluster" draws a box around it)."""
        sub = Digraph(name)
        yield sub
        self.body += [f"\t{line}" for line in sub.lines(subgraph=True)]

    def lines(self, *, subgraph: bool = False) -> Iterator[str]:
        name = f"{quote(self.name)} " if self.name else ""
        if subgraph:
            yield f"subgraph {name}{{\n" if name else "{\n"
        else:
            yield f"digraph {name}{{\n"
        yield from self.body
        yield "}\n"

    @property
    def source(self) -> str:
        """The DOT text."""
        return "".join(self.lines())
