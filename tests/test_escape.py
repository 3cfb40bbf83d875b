"""Escaping user-supplied text for DOT, Graphviz HTML-like labels, HTML and Markdown."""

from __future__ import annotations

import subprocess
import xml.etree.ElementTree as ET

import pytest

from mtg_rulekit.display.escape import (
    BACKSLASH_STANDIN,
    clean,
    dot_html,
    dot_text,
    html_text,
    markdown_text,
)

HOSTILE = [
    "<script>alert(1)</script>",
    'Bob "the" {Brace}\nNewline',
    "back\\slash\\N\\G\\L\\\\",
    "ends with a backslash \\",
    "]]> --> <!-- &amp; &lt;b&gt; &#60;script&#62;",
    "tab\there\r\nwindows\rmac\u2028ls",
    "control \x00\x07\x1b\x7f\x85 chars",
    "ünïcödé ✓ 🂡 中文 \u202eevil",
    "'single' `tick` *star* _under_ [link](http://x) # hash | pipe",
    "} ; digraph x { a -> b } //",
    "",
]


def test_clean_removes_what_no_document_may_contain():
    assert clean("a\x00b\x1bc\x7fd\x85e") == "abcd\ne"  # NEL is a newline
    assert clean("x\r\ny\rz\tw") == "x\ny\nz w"
    assert clean("\ud800lone surrogate") == "lone surrogate"
    assert clean(42) == "42"


def test_html_text_escapes_the_five_characters():
    assert html_text("<a href=\"x\" title='y'>&</a>") == (
        "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;")


def test_dot_text_escapes_quotes_newlines_and_backslashes():
    assert dot_text('say "hi"') == 'say \\"hi\\"'
    assert dot_text("two\nlines") == "two\\nlines"
    assert dot_text("a\\N") == f"a{BACKSLASH_STANDIN}N"  # \N would become the node's name
    assert dot_text("x & y") == "x &amp; y"  # Graphviz decodes entities
    assert "\\" not in dot_text("\\").replace('\\"', "").replace("\\n", "")


def test_dot_html_makes_line_breaks_and_no_markup():
    assert dot_html("<b>bold</b>\nnext") == "&lt;b&gt;bold&lt;/b&gt;<BR/>next"
    assert dot_html("a\nb", newline=" ") == "a b"
    assert "<" not in dot_html("<<<>>>")


def test_markdown_text_renders_literally():
    assert markdown_text("*a* _b_ `c` [d](e) # f | g") == (
        "\\*a\\* \\_b\\_ \\`c\\` \\[d\\]\\(e\\) \\# f \\| g")
    assert markdown_text("<script>x</script> & y") == "&lt;script&gt;x&lt;/script&gt; &amp; y"
    assert markdown_text("one\ntwo") == "one two"
    assert markdown_text("one\ntwo", inline=False) == "one<br>\ntwo"


@pytest.mark.parametrize("text", HOSTILE)
def test_escaped_text_never_carries_markup_or_breaks_quotes(text):
    for out in (html_text(text), dot_html(text), markdown_text(text)):
        assert "<script" not in out and "\x00" not in out
    quoted = dot_text(text)
    # every double quote is escaped, no raw newline, no backslash except our own escapes
    assert "\n" not in quoted
    stripped = quoted.replace('\\"', "").replace("\\n", "")
    assert '"' not in stripped and "\\" not in stripped


@pytest.mark.usefixtures("dot")
def test_hostile_text_through_dot_gives_well_formed_svg():
    """Every hostile string as a node label, tooltip, edge label, cluster label and graph label:
    dot accepts the file, and the SVG is well-formed XML with no markup from the input."""
    lines = ["digraph g {", f'  label=<{dot_html(" / ".join(HOSTILE))}>;']
    for i, text in enumerate(HOSTILE):
        lines.append(f'  subgraph cluster_{i} {{ label="{dot_text(text)}";')
        lines.append(f'    n{i} [label=<{dot_html(text)}>, tooltip="{dot_text(text)}"];')
        lines.append(f'    m{i} [label="{dot_text(text)}"]; }}')
        lines.append(f'  n{i} -> m{i} [label="{dot_text(text)}", tooltip="{dot_text(text)}"];')
    lines.append("}")
    source = "\n".join(lines)
    done = subprocess.run(["dot", "-Tsvg"], input=source.encode("utf-8"), capture_output=True,
                          check=False, timeout=60)
    assert done.returncode == 0, done.stderr.decode()
    assert not done.stderr, done.stderr.decode()  # no syntax warnings either
    svg = done.stdout.decode("utf-8")
    assert "<script" not in svg
    root = ET.fromstring(svg)  # well-formed
    texts = " ".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))
    assert "<script>alert(1)</script>" in texts  # shown as text, literally
    assert 'Bob "the" {Brace}' in texts
    assert "&lt;b&gt;" in texts  # an entity in the input is shown, not decoded
    assert "ünïcödé ✓" in texts
    assert f"back{BACKSLASH_STANDIN}slash{BACKSLASH_STANDIN}N" in texts


@pytest.mark.usefixtures("dot")
@pytest.mark.parametrize("text", ["word " * 4000, "&" * 20_000, "🂡\"<\n" * 6000])
def test_text_longer_than_graphviz_takes_is_cut_and_drawn(text):
    """Graphviz refuses a quoted string over 16,384 bytes ("longer than 16384?"): long text is
    cut, says so, and dot draws it (a 16 KB narration could not be drawn)."""
    tooltip, label = dot_text(text), dot_html(text)
    assert len(tooltip.encode()) < 16_384 and len(label.encode()) < 16_384
    assert tooltip.endswith("more characters cut)") and label.endswith("more characters cut)")
    source = f'digraph g {{ n [label=<{label}>, tooltip="{tooltip}"]; m [label="{tooltip}"]; }}'
    done = subprocess.run(["dot", "-Tsvg"], input=source.encode("utf-8"), capture_output=True,
                          check=False, timeout=60)
    assert done.returncode == 0, done.stderr.decode()[:300]
    assert "more characters cut" in done.stdout.decode("utf-8")


def test_short_text_is_never_cut():
    text = "x&" * 2000  # 4,000 characters, 12,000 bytes escaped: under the limit
    assert dot_text(text) == "x&amp;" * 2000
