"""The words every lesson leans on ("permanent", "the stack", "priority" ...), defined once in
our own words (`data/glossary.toml`). Start here shows the glossary; each lesson marks the first
use of a word with `<dfn>`, linking to its entry (`Term.anchor`)."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources

__all__ = ["START_HERE", "Term", "glossary", "mark_first_uses", "term", "word_pattern"]

START_HERE = "00_start_here"
"""The notebook (and page) that shows the glossary."""


@dataclass(frozen=True)
class Term:
    id: str  # "mana-pool": the entry's anchor is "glossary-mana-pool"
    word: str  # as a lesson writes it: "mana pool"
    means: str  # the definition, ours
    rules: tuple[str, ...]  # the Comprehensive Rules it rests on (each in rules.toml)

    @property
    def anchor(self) -> str:
        """The entry's id in Start here (`#glossary-<id>`)."""
        return f"glossary-{self.id}"


@cache
def glossary() -> tuple[Term, ...]:
    """Every term, in the order Start here lists them."""
    text = resources.files("mtg_rulekit.data").joinpath("glossary.toml").read_text("utf-8")
    return tuple(Term(t["id"], t["word"], t["means"], tuple(t["rules"]))
                 for t in tomllib.loads(text)["term"])


def term(word_or_id: str) -> Term:
    """The term with that id or word (any case)."""
    key = word_or_id.casefold()
    for t in glossary():
        if key in (t.id, t.word.casefold()):
            return t
    raise KeyError(f"no glossary term {word_or_id!r} (mtg_rulekit/data/glossary.toml)")


def word_pattern(word: str) -> re.Pattern[str]:
    """A glossary word as a lesson may write it: any case, "the" optional, the last word
    inflected ("mana abilities", "triggers", "tokens")."""
    *head, last = word.removeprefix("the ").split()
    last = re.escape(last[:-1]) + "(?:y|ies)" if last.endswith("y") else \
        re.escape(last) + r"(?:s|es|ed|ing)?"
    return re.compile(r"\b" + r"\s+".join([*map(re.escape, head), last]) + r"\b", re.I)


_SKIP = re.compile(r'^[ \t]*#[^\n]*$|"[^"\n]*"|`[^`\n]*`|<[^>\n]*>|\[[^\]\n]*\]\([^)\n]*\)|'
                   r"<dfn>.*?</dfn>", re.M | re.S)


def mark_first_uses(texts: list[str], *, page: str = f"{START_HERE}.ipynb") -> list[str]:
    """`texts` (a lesson's Markdown, in order) with the first use of each glossary word in
    the lesson's own sentences marked `<dfn>`, linking to its entry in Start here: headings,
    quoted words, code, tags and links are not the lesson's sentences. A word already marked
    is left as it is."""
    out = list(texts)
    for t in glossary():
        pattern = word_pattern(t.word)
        if any(f"#{t.anchor}\"" in text for text in out):
            continue
        for i, text in enumerate(out):
            skipped = [m.span() for m in _SKIP.finditer(text)]
            first = next((m for m in pattern.finditer(text)
                          if not any(a <= m.start() < b for a, b in skipped)), None)
            if first is not None:
                out[i] = (text[:first.start()] + f'<dfn><a href="{page}#{t.anchor}">'
                          f"{first.group()}</a></dfn>" + text[first.end():])
                break
    return out
