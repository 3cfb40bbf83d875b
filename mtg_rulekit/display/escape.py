"""Escaping for text that comes from users: card and player names, narration, choices.

Every renderer in the kit passes user-supplied text through one of these helpers, so quotes,
braces, angle brackets, ``<script>``, newlines, control characters and any unicode can neither break
the output's syntax nor inject markup:

- `dot_text` — inside a double-quoted DOT string (tooltips, plain labels, graph names);
- `dot_html` — inside a Graphviz HTML-like label (``label=<...>``);
- `html_text` — HTML element content or attribute values (lesson pages, widgets);
- `markdown_text` — Markdown (notebook cells, tables): renders as the literal text;
  `markdown_plain` reads such a line (a heading) back as plain text;
- `terminal_text` — a terminal (`python -m mtg_rulekit run`): control characters show as escapes.

Graphviz gives backslashes a meaning in every kind of string (``\\N`` becomes the node's name, even
written as ``&#92;N``), and not the same meaning in every version, so the two DOT helpers replace
a backslash with the look-alike U+2216 (SET MINUS, "∖"). Nothing else is altered, except that
Graphviz refuses a string longer than 16,384 bytes: a DOT string that would be longer than
`DOT_MAX_BYTES` is cut to its first `DOT_CUT_CHARS` characters, saying so.

>>> dot_text('Bob "the" {Brace}\\nNewline')
'Bob \\\\"the\\\\" {Brace}\\\\nNewline'
>>> dot_html("<script>alert('x')</script> & co")
'&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; co'
>>> markdown_text("*not bold* | <b>")
'\\\\*not bold\\\\* \\\\| &lt;b&gt;'
"""

from __future__ import annotations

import re

__all__ = ["clean", "dot_html", "dot_text", "html_text", "markdown_plain", "markdown_text",
           "terminal_text"]

DOT_MAX_BYTES = 12_000  # Graphviz: "syntax error ... longer than 16384?" above 16 KB
DOT_CUT_CHARS = 1_500  # escaped, at most 5 bytes each (`&` -> `&amp;`): well under the limit
BACKSLASH_STANDIN = "\u2216"  # SET MINUS: looks like "\" and has no meaning to Graphviz

# C0 and C1 control characters (except tab and newline), lone surrogates and the two
# noncharacters XML refuses: none of them can appear in an SVG, DOT or HTML document.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")
_NEWLINES = re.compile(r"\r\n?|[\u2028\u2029\x85]")
# what a terminal acts on instead of showing: C0/C1 controls (ESC starts colour and
# clear-screen sequences, CR overwrites the line), bidirectional overrides, lone surrogates
_TERMINAL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069"
                       "\ud800-\udfff]")
_MARKDOWN = re.compile(r"([\\`*_{}\[\]()#+\-.!|~])")


def clean(text: object) -> str:
    """`str(text)` with newlines normalised to ``\\n``, tabs to spaces and characters no
    document may contain (control characters, lone surrogates) removed."""
    s = _NEWLINES.sub("\n", str(text))
    return _UNSAFE.sub("", s.replace("\t", " "))


def html_text(text: object) -> str:
    """Text for HTML element content or a quoted attribute value: ``& < > " '`` become
    entities. Newlines are kept (wrap in ``<pre>`` or replace them if they must show)."""
    return (
        clean(text)
        .replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("'", "&#39;")
    )


def dot_html(text: object, *, newline: str = "<BR/>") -> str:
    """Text for a Graphviz HTML-like label: HTML-escaped, backslashes replaced by a look-alike,
    newlines turned into `newline` (a ``<BR/>`` element by default)."""
    s = html_text(clean(text).replace("\\", BACKSLASH_STANDIN)).replace("\n", newline)
    if len(s.encode("utf-8")) > DOT_MAX_BYTES:
        return dot_html(_cut(text), newline=newline)
    return s


def dot_text(text: object) -> str:
    """Text for the inside of a double-quoted DOT string (a tooltip, a plain label, a name):
    ``"`` is escaped, newlines become DOT's ``\\n``, ``& < >`` become entities (Graphviz decodes
    them, and a DOT file then holds no markup at all) and backslashes are replaced by a
    look-alike. Braces need no escape inside a quoted string."""
    s = clean(text).replace("\\", BACKSLASH_STANDIN).replace("&", "&amp;")
    s = s.replace("<", "&lt;").replace(">", "&gt;")
    s = s.replace('"', '\\"').replace("\n", "\\n")
    if len(s.encode("utf-8")) > DOT_MAX_BYTES:
        return dot_text(_cut(text))
    return s


def _cut(text: object) -> str:
    """Text too long for one Graphviz string: its first `DOT_CUT_CHARS` characters."""
    s = clean(text)
    return f"{s[:DOT_CUT_CHARS]}… ({len(s) - DOT_CUT_CHARS:,} more characters cut)"


def markdown_text(text: object, *, inline: bool = True) -> str:
    """Text for Markdown that renders literally: Markdown punctuation is backslash-escaped and
    ``& < >`` become entities (Markdown passes raw HTML through). With `inline` (the default,
    safe in table cells and headings) newlines become spaces; otherwise they become ``<br>``."""
    s = _MARKDOWN.sub(r"\\\1", clean(text).replace("&", "&amp;"))
    s = s.replace("<", "&lt;").replace(">", "&gt;")
    return s.replace("\n", " " if inline else "<br>\n")


def terminal_text(text: object) -> str:
    r"""Text for a terminal: newlines and tabs kept, every other control character shown as its
    escape, so `\x1b[2J` in a title prints as those characters instead of clearing the screen.

    >>> terminal_text("Clear \x1b[2J the screen\a")
    'Clear \\x1b[2J the screen\\x07'
    """
    return _TERMINAL.sub(lambda m: f"\\x{ord(m[0]):02x}" if ord(m[0]) < 0x100
                         else f"\\u{ord(m[0]):04x}", str(text))
_TAGS = re.compile(r"<[^>]+>")
_CODE = re.compile(r"(?<!\\)(`+)(.+?)(?<!`)\1(?!`)", re.S)
# CommonMark emphasis, simplified: a run of `*`/`_` not followed by a space opens, one not
# preceded by a space (or a backslash) closes the nearest opener; `_` never opens or closes
# inside a word
_EMPHASIS = (re.compile(r"(?<!\\)(\*\*)(?=\S)((?:(?!\*\*).)+?)(?<=[^\s\\])\*\*", re.S),
             re.compile(r"(?<![\\\w])(__)(?=\S)((?:(?!__).)+?)(?<=[^\s\\])__(?!\w)", re.S),
             re.compile(r"(?<!\\)(\*)(?=[^\s*])([^*]+?)(?<=[^\s\\*])\*", re.S),
             re.compile(r"(?<![\\\w])(_)(?=[^\s_])([^_]+?)(?<=[^\s\\_])_(?!\w)", re.S))
_ESCAPED = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|~])")
_SLOT = re.compile("\x00(\\d+)\x00")


def markdown_plain(text: str) -> str:
    """A line of Markdown (a heading's text) as it reads: tags dropped, code spans as their
    text, emphasis marks dropped only where they emphasise (`pay_with`, `2*3` keep theirs),
    backslash escapes and HTML entities undone, whitespace collapsed.

    >>> markdown_plain(markdown_text("Ward & *targets*: what-if"))
    'Ward & *targets*: what-if'
    >>> markdown_plain("Tapping <b>a</b> **Forest**")
    'Tapping a Forest'
    >>> markdown_plain("pay_with and mana_abilities, 2*3 = 6, `x_y*`, _so_ *very*")
    'pay_with and mana_abilities, 2*3 = 6, x_y*, so very'
    """
    import html

    codes: list[str] = []

    def keep(m: re.Match[str]) -> str:
        inner = m[2]
        if inner.startswith(" ") and inner.endswith(" ") and inner.strip():
            inner = inner[1:-1]
        codes.append(inner)
        return f"\x00{len(codes) - 1}\x00"

    text = _CODE.sub(keep, text.replace("\x00", ""))
    text = _TAGS.sub("", text)
    for pattern in _EMPHASIS:
        previous = None
        while previous != text:
            previous, text = text, pattern.sub(r"\2", text)
    text = _ESCAPED.sub(r"\1", text)
    text = html.unescape(text)
    text = _SLOT.sub(lambda m: codes[int(m[1])], text)
    return " ".join(text.split())
