"""The Comprehensive Rules numbers the kit cites, with a one-line summary in our own words.

Loaded from `data/rules.toml`; every rule number the engine puts on an event or error must be
listed there (a test checks it), so each citation can be explained to a learner.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources


@dataclass(frozen=True)
class Rule:
    number: str
    title: str
    summary: str

    def __str__(self) -> str:
        return f"CR {self.number} ({self.title})"


@cache
def all_rules() -> dict[str, Rule]:
    text = resources.files("mtg_rulekit.data").joinpath("rules.toml").read_text("utf-8")
    raw = tomllib.loads(text)["rule"]
    return {n: Rule(n, r["title"], r["summary"]) for n, r in raw.items()}


def rule(number: str) -> Rule:
    """The rule `number` (e.g. "302.6"); a KeyError names it if the kit doesn't know it."""
    try:
        return all_rules()[number]
    except KeyError:
        raise KeyError(f"CR {number} is not in mtg_rulekit/data/rules.toml") from None


def explain(number: str) -> str:
    """`CR 302.6 — Summoning sickness: ...` for tooltips and tables."""
    r = rule(number)
    return f"CR {r.number} — {r.title}: {r.summary}"


def rule_texts(numbers: list[str] | tuple[str, ...]) -> list[dict[str, str]]:
    """`[{"number", "title", "summary"}]` for each of `numbers`, as a page shows them with a
    question's answer (a number the kit doesn't list keeps empty words)."""
    known = all_rules()
    return [{"number": n, "title": known[n].title if n in known else "",
             "summary": known[n].summary if n in known else ""} for n in numbers]
