"""The rulings R01-R19 the kit teaches, in our own words (`data/rulings.toml`). Where each is
covered (tests, lessons, diagrams, scenarios) is found by `mtg_rulekit.repo.coverage`, outside the
engine."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources


@dataclass(frozen=True)
class Ruling:
    id: str
    topic: str
    plain: str  # the ruling in plain words (ours)
    rules: tuple[str, ...]  # Comprehensive Rules numbers
    source: str  # where in the source pages (see ../shared/rulings/INDEX.md)


@cache
def all_rulings() -> dict[str, Ruling]:
    """R01..R19 in order."""
    text = resources.files("mtg_rulekit.data").joinpath("rulings.toml").read_text("utf-8")
    raw = tomllib.loads(text)["ruling"]
    return {rid: Ruling(rid, r["topic"], r["plain"], tuple(r["rules"]), r.get("source", ""))
            for rid, r in sorted(raw.items())}


def ruling(rid: str) -> Ruling:
    try:
        return all_rulings()[rid]
    except KeyError:
        raise KeyError(f"no ruling {rid!r} (the kit knows R01-R19)") from None
