"""Mana symbols drawn by the kit: small inline SVGs (no card art, no Wizards images or fonts).

Each symbol is a round token with a letter or number ({W} {U} {B} {R} {G} {C}, {2}, {X}) or a
glyph ({T} tap, {Q} untap). Every letter has a contrast of at least 4.5:1 against its fill
(WCAG 2.2, 1.4.3; `contrast` measures it, a test checks every symbol). Mana with a spending
restriction or a rider (CR 106.6) gets a small corner mark and a dashed ring, so it is visibly
different from plain mana of its type: Powerstone's {C} an artifact mark, Arena of Glory's {R}
a haste bolt, Cavern of Souls' mana a type mark.

>>> symbol_svg("G").startswith("<svg class='rk-sym rk-sym-g'")
True
>>> text_html("{T}: Add {G}.").count("<svg")
2
"""

from __future__ import annotations

import re

from mtg_rulekit.display.escape import html_text

__all__ = ["FILLS", "MARKS", "contrast", "symbol_svg", "symbol_words", "text_html"]

# fill, letter colour, ring colour of each symbol (the letter's contrast is >= 4.5:1)
FILLS: dict[str, tuple[str, str, str]] = {
    "W": ("#fbf6d9", "#000000", "#8a7a2e"),
    "U": ("#0b5ea8", "#ffffff", "#063c6c"),
    "B": ("#2b2628", "#ffffff", "#000000"),
    "R": ("#b3261e", "#ffffff", "#6e1510"),
    "G": ("#0b6b3a", "#ffffff", "#053d20"),
    "C": ("#d9d5cf", "#000000", "#6b6660"),
    "generic": ("#cfc9c1", "#000000", "#6b6660"),
}

_WORDS = {"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green", "C": "colorless",
          "T": "tap", "Q": "untap", "X": "X"}

# the corner marks of restricted or rider mana: (what it says, SVG of the glyph in a 6x6 box)
MARKS: dict[str, str] = {
    # an artifact mark: a small anvil
    "artifact": "<path d='M2 3h8v2h-2v2h1.5v2h-7v-2h1.5v-2h-2z' fill='#000'/>",
    # haste: a lightning bolt
    "haste": "<path d='M7.4 0.8l-4.6 6h3l-1.6 4.4 5.2-6.4h-3.1z' fill='#000'/>",
    # a creature-type restriction (Cavern of Souls): a diamond
    "type": "<path d='M6 1.5l3.5 4.5-3.5 4.5-3.5-4.5z' fill='#000'/>",
}

_SYMBOL = re.compile(r"\{([^{}]{1,3})\}")


def symbol_words(sym: str) -> str:
    """What a symbol says aloud: "green", "tap", "2 generic", "X"."""
    s = sym.upper()
    if s.isdigit():
        return f"{s} generic"
    return _WORDS.get(s, s)


def _glyph(sym: str, colour: str) -> str:
    """The letter, number or glyph inside the round token (centre 10,11, radius 9)."""
    if sym == "T":  # tap: an arrow turning clockwise
        return (f"<path d='M6 14.5a5.2 5.2 0 1 1 8.6-3.9' fill='none' stroke='{colour}' "
                f"stroke-width='2.1'/><path d='M11.6 9.4l3.4 3.6 2.2-4.4z' fill='{colour}'/>")
    if sym == "Q":  # untap: the arrow turning back
        return (f"<path d='M14 14.5a5.2 5.2 0 1 0 -8.6-3.9' fill='none' stroke='{colour}' "
                f"stroke-width='2.1'/><path d='M8.4 9.4l-3.4 3.6-2.2-4.4z' fill='{colour}'/>")
    size = 12.5 if len(sym) == 1 else 10 if len(sym) == 2 else 7.5
    # the face and weight come from board.css (`.rk-sym text`), so each symbol stays small
    return (f"<text x='10' y='{11 + size * 0.36:.1f}' text-anchor='middle' "
            f"font-size='{size}' fill='{colour}'>{html_text(sym)}</text>")


def symbol_svg(sym: str, *, mark: str | None = None, label: str | None = None) -> str:
    """One mana (or tap) symbol as a small inline SVG, 1.15em high. `mark` (a `MARKS` key) adds
    the corner mark and dashed ring of restricted or rider mana. With `label` the SVG is an
    image of that name; without, it is decoration (`aria-hidden`): the text around it says it."""
    s = sym.upper()
    key = s if s in FILLS else "generic"
    fill, ink, ring = FILLS[key]
    width = 30 if mark else 20
    dash = " stroke-dasharray='2.2 1.4'" if mark else ""
    parts = [f"<svg class='rk-sym rk-sym-{html_text(s.lower())}{' rk-marked' if mark else ''}' "
             f"viewBox='0 0 {width} 22' width='{width / 20 * 1.15:.4g}em' height='1.265em' "
             + (f"role='img' aria-label='{html_text(label)}'>" if label else
                "aria-hidden='true'>"),
             f"<circle cx='10' cy='11' r='9' fill='{fill}' stroke='{ring}'"
             + (f" stroke-width='1.6'{dash}/>" if mark else "/>"),
             _glyph(s, ink)]
    if mark:
        parts.append("<g transform='translate(17 0)'><circle cx='6' cy='6' r='6' fill='#fff' "
                     f"stroke='#000' stroke-width='1'/>{MARKS[mark]}</g>")
    parts.append("</svg>")
    return "".join(parts)


def text_html(text: str) -> str:
    """Rules text as HTML: escaped, each `{T}`, `{G}`, `{2}` ... drawn as a symbol followed by
    its words for screen readers (visually hidden), so "{T}: Add {G}." reads "tap: Add green."."""
    out, at = [], 0
    for m in _SYMBOL.finditer(text):
        sym = m[1].upper()
        if not (sym in _WORDS or sym.isdigit()):
            continue
        out.append(html_text(text[at:m.start()]))
        out.append(symbol_svg(sym) + f"<span class='rk-sr'>{html_text(symbol_words(sym))}</span>")
        at = m.end()
    out.append(html_text(text[at:]))
    return "".join(out)


def _luminance(colour: str) -> float:
    def channel(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two `#rrggbb` colours (1 to 21)."""
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)
