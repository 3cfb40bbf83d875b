"""The flow model's DOT writer (`mtg_rulekit.display.flow.digraph`) writes what the `graphviz` Python
package writes for the same calls, byte for byte: the committed diagrams did not change when the
flow model stopped importing that package, and any text a scenario can put in a label,
tooltip or name is quoted the same way."""

from __future__ import annotations

import warnings

import graphviz
from hypothesis import given, settings
from hypothesis import strategies as st

from mtg_rulekit.display.flow.digraph import Digraph, quote

# names, numbers, keywords, HTML-like strings, quotes and backslashes, newlines, any unicode
TEXT = st.one_of(
    st.sampled_from(["", "n1", "node", "Graph", "-4.2", ".5", "4.", "a b", "<<B>x</B>>", "<>",
                     'say "hi"', '\\"', "\\\\\"", "x\n", "<a>\n", "cluster_s1", "rk-s1"]),
    st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=12),
    st.text(alphabet='ab<>"\\ \n_-.0', max_size=8),
)
ATTRS = st.dictionaries(st.sampled_from(["label", "class", "style", "tooltip", "fontsize", "x y"]),
                        TEXT, max_size=4)


@settings(max_examples=300, deadline=None)
@given(TEXT)
def test_quoting_matches_the_graphviz_package(text):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # graphviz warns about a trailing odd backslash
        assert quote(text) == graphviz.quoting.quote(text)


@settings(max_examples=150, deadline=None)
@given(name=TEXT, graph_attrs=ATTRS, nodes=st.lists(st.tuples(TEXT, ATTRS), max_size=3),
       edge=st.tuples(TEXT.filter(lambda s: ":" not in s), TEXT.filter(lambda s: ":" not in s),
                      ATTRS),
       cluster=st.booleans())
def test_a_graph_is_written_as_the_graphviz_package_writes_it(name, graph_attrs, nodes, edge,
                                                              cluster):
    ours, theirs = Digraph(name or None), graphviz.Digraph(name=name or None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for g in (ours, theirs):
            g.attr(**graph_attrs)
            g.attr("node", **graph_attrs)
            with g.subgraph(name="cluster_x" if cluster else None) as c:
                c.attr(rank="same")
                for n, attrs in nodes:
                    c.node(n, **attrs)
            tail, head, attrs = edge
            g.edge(tail, head, **attrs)
        assert ours.source == theirs.source
