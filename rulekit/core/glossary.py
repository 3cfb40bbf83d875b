"""The words every lesson leans on ("permanent", "the stack", "priority" ...), defined once in
our own words (`data/glossary.toml`). Start here shows the glossary; each lesson marks the first
use of a word with `<dfn>`, linking to its entry (`Term.anchor`)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources

__all__ = ["START_HERE", "Term", "glossary", "term"]

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
    text = resources.files("rulekit.data").joinpath("glossary.toml").read_text("utf-8")
    return tuple(Term(t["id"], t["word"], t["means"], tuple(t["rules"]))
                 for t in tomllib.loads(text)["term"])


def term(word_or_id: str) -> Term:
    """The term with that id or word (any case)."""
    key = word_or_id.casefold()
    for t in glossary():
        if key in (t.id, t.word.casefold()):
            return t
    raise KeyError(f"no glossary term {word_or_id!r} (rulekit/data/glossary.toml)")
