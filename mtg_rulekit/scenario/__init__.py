"""Scenarios as data: walkthroughs a teacher writes in TOML, validated, played on the engine.

>>> from mtg_rulekit.scenario import game_at, load, play, shipped_dir
>>> sc = load(shipped_dir() / "r01_undefined_mana.toml")   # plain data
>>> sc.title
'Mana of an undefined type is no mana'
>>> results = play(sc)                           # results[0] = set-up, results[k] = step k
>>> len(results), results[1].ok
(5, True)
>>> game_at(sc, 1).pool("Alice").total           # a fresh Game as it was after step 1
0

The format is documented in docs/scenarios.md; its JSON Schema is `mtg_rulekit/scenario/schema.json`
(`SCHEMA_PATH`). A file that can't be used raises `ScenarioError` whose message starts with
`file:line:`.
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path

from mtg_rulekit.core.errors import ScenarioError
from mtg_rulekit.scenario.model import (
    ACTION_KEYS,
    PENDING,
    SCHEMA_PATH,
    Scenario,
    dumps,
    load,
    loads,
    schema,
)
from mtg_rulekit.scenario.reads import READS_ENV, record
from mtg_rulekit.scenario.runner import Check, StepResult, game_at, play


def shipped_dir() -> Path:
    """The folder of the scenarios shipped with the kit (`mtg_rulekit/scenarios/`)."""
    return Path(str(resources.files("mtg_rulekit").joinpath("scenarios")))


if os.environ.get(READS_ENV):  # a lesson build's kernel (mtg_rulekit.scenario.reads)
    record(os.environ[READS_ENV], shipped_dir())


def shipped() -> list[Path]:
    """Every shipped scenario file, sorted by name."""
    return sorted(shipped_dir().glob("*.toml"))


def find(paths: list[str | os.PathLike[str]]) -> list[Path]:
    """Scenario files named by `paths`: files as given, directories searched for `*.toml`
    (recursively, sorted). A path that doesn't exist is returned as is (loading it reports it)."""
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out += sorted(q for q in p.rglob("*.toml") if q.is_file())
        else:
            out.append(p)
    return out


def by_ruling(paths: list[Path] | None = None) -> dict[str, Path]:
    """The one rule for "the scenario of ruling X", used by its diagram (`diagrams/RNN.svg`),
    by `Stepper("RNN")` and by the lessons: of the files (shipped ones by default, pending ones
    skipped) that list the ruling, the one named after it ("r05_..." for R05), else the one that
    lists it earliest, fewest rulings first, then by file name."""
    import tomllib

    tagged: dict[str, list[tuple[bool, int, int, str, Path]]] = {}
    for path in shipped() if paths is None else paths:
        with open(path, "rb") as fh:
            head = tomllib.load(fh)
        if head.get("status") == PENDING:
            continue
        rulings = [str(r) for r in head.get("ruling", [])]
        for place, rid in enumerate(rulings):
            named = not path.name.lower().startswith(rid.lower())
            tagged.setdefault(rid, []).append((named, place, len(rulings), path.name, path))
    return {rid: sorted(found)[0][-1] for rid, found in sorted(tagged.items())}


__all__ = [
    "ACTION_KEYS", "PENDING", "SCHEMA_PATH", "Check", "Scenario", "ScenarioError", "StepResult",
    "by_ruling", "dumps", "find", "game_at", "load", "loads", "play", "schema", "shipped",
    "shipped_dir",
]
