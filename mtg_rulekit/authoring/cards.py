"""The card catalog for authors (`python -m mtg_rulekit cards [--json] [NAME]`, the site's cards
page): every card a scenario or a sandbox can use, with its mana cost, type line, Oracle text,
power/toughness, and the lessons and scenarios that use it.

"Uses" is found, not typed: a scenario uses a card when its file names the card (set-up,
hand, library or a step); a lesson uses the cards of its walkthrough and sandbox scenarios and
the cards its code names (`game.add("Forest")`).
"""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

__all__ = ["CardEntry", "entries", "find", "to_json"]

_QUOTED = re.compile(r"""(["'])(.+?)\1""")


@dataclass(frozen=True)
class CardEntry:
    name: str
    mana_cost: str
    type_line: str
    oracle: str
    power_toughness: str  # "2/2", or "" for a non-creature
    token: bool
    lessons: tuple[str, ...]  # notebook stems
    scenarios: tuple[str, ...]  # scenario file stems

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "mana_cost": self.mana_cost, "type_line": self.type_line,
                "oracle": self.oracle, "power_toughness": self.power_toughness or None,
                "token": self.token, "lessons": list(self.lessons),
                "scenarios": list(self.scenarios)}


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def _scenario_cards(names: set[str]) -> dict[str, set[str]]:
    """scenario stem -> the card names its file mentions as values."""
    from mtg_rulekit.scenario import shipped

    return {p.stem: {s for s in _mentioned(p, *_stamp(p)) if s in names} for p in shipped()}


def _stamp(path: Path) -> tuple[int, int]:
    stat = path.stat()
    return stat.st_mtime_ns, stat.st_size


@lru_cache(maxsize=256)
def _mentioned(path: Path, _mtime: int, _size: int) -> frozenset[str]:
    """The strings scenario `path` has as values, read once per version of the file (every
    build writes the cards page: a validated load of each scenario is ~0.1 s)."""
    from mtg_rulekit.scenario import load

    return frozenset(_strings(load(path).spec))


def _lesson_cards(root: Path, names: set[str],
                  by_scenario: dict[str, set[str]]) -> dict[str, set[str]]:
    """lesson stem -> the cards of its scenarios and the card names quoted in its code."""
    out: dict[str, set[str]] = {}
    for path in sorted((root / "notebooks").glob("*.ipynb")):
        try:
            nb = json.loads(path.read_text("utf-8"))
        except (OSError, ValueError):
            continue
        used: set[str] = set()
        for cell in nb.get("cells", []):
            if cell.get("cell_type") != "code":
                continue
            src = cell.get("source", "")
            for _q, text in _QUOTED.findall("".join(src) if isinstance(src, list) else src):
                if text in names:
                    used.add(text)
                used |= by_scenario.get(text.removesuffix(".toml"), set())
        out[path.stem] = used
    return out


def _printed_costs() -> dict[str, str]:
    """name -> mana cost as printed ("" for a land or a token: no mana cost, not {0})."""
    import tomllib
    from importlib import resources

    raw = tomllib.loads(resources.files("mtg_rulekit.cards").joinpath("catalog.toml")
                        .read_text("utf-8"))
    return {c["name"]: c.get("mana_cost", "") for c in raw["card"]}


def entries(root: Path | None = None) -> list[CardEntry]:
    """Every card of the catalog, in catalog order (tokens last), with where it is used."""
    from mtg_rulekit.cards import catalog
    from mtg_rulekit.repo.coverage import repo_root

    cards = catalog()
    costs = _printed_costs()
    names = set(cards)
    by_scenario = _scenario_cards(names)
    by_lesson = _lesson_cards(root or repo_root(), names, by_scenario)
    out = []
    for name, card in sorted(cards.items(), key=lambda kv: kv[1].token):
        p = card.printed
        pt = f"{p.power}/{p.toughness}" if p.is_a("Creature") else ""
        out.append(CardEntry(
            name=name, mana_cost=costs.get(name, ""), type_line=p.type_line, oracle=p.oracle,
            power_toughness=pt, token=card.token,
            lessons=tuple(s for s, used in by_lesson.items() if name in used),
            scenarios=tuple(s for s, used in by_scenario.items() if name in used)))
    return out


def find(name: str, among: list[CardEntry]) -> CardEntry:
    """The entry called `name` (any case); `LookupError` naming the closest ones if none is."""
    by_lower = {e.name.lower(): e for e in among}
    hit = by_lower.get(" ".join(name.split()).lower())
    if hit is not None:
        return hit
    close = difflib.get_close_matches(name.lower(), list(by_lower), n=3, cutoff=0.6)
    hint = f"; did you mean {', '.join(repr(by_lower[c].name) for c in close)}?" if close else \
        " (python -m mtg_rulekit cards lists them all)"
    raise LookupError(f"no card {name!r} in the catalog{hint}")


def to_json(items: list[CardEntry]) -> str:
    return json.dumps([e.to_json() for e in items], indent=1, ensure_ascii=False)


def text(entry: CardEntry) -> str:
    """One card as terminal text (control characters removed)."""
    from mtg_rulekit.display.escape import clean

    head = entry.name + (f"  {entry.mana_cost}" if entry.mana_cost else "")
    kind = entry.type_line + (f"  {entry.power_toughness}" if entry.power_toughness else "") \
        + ("  (token)" if entry.token else "")
    lines = [head, f"  {kind}"]
    lines += [f"  {line}" for line in entry.oracle.splitlines() if line.strip()]
    lines.append(f"  lessons:   {', '.join(entry.lessons) or '-'}")
    lines.append(f"  scenarios: {', '.join(entry.scenarios) or '-'}")
    return "\n".join(clean(line) for line in lines)
