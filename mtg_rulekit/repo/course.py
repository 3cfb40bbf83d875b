"""The lessons as a course: for each notebook, what a student will be able to do
after it and about how many minutes it takes; used by the site's index and teachers' page.

- **The goal** is the lesson author's words, kept with the lesson: the notebook's metadata
  `rulekit.goal` ("Tell whether a permanent can pay {T} or {Q} ..."). A notebook without one
  has none (the index then shows its title only).
- **The minutes** are an estimate derived from the notebook, never typed in: its prose (without
  its markup) read at `WORDS_A_MINUTE`, `STEP_MINUTES` for each step of each walkthrough (the scenario's steps),
  `QUESTION_MINUTES` for each question (each checked question of its walkthroughs, each
  `<details>` one of its prose) and `SANDBOX_MINUTES` for a sandbox, rounded up to 5 minutes. A
  lesson that grows a walkthrough grows its estimate.

>>> nb = {"metadata": {"rulekit": {"goal": "Read a stack."}}, "cells": [
...     {"cell_type": "markdown", "source": "word " * 240},
...     {"cell_type": "markdown", "source": "<details><summary>Q?</summary>A</details>"}]}
>>> entry = course_entry(nb)
>>> entry.goal, entry.minutes
('Read a stack.', 5)
"""

from __future__ import annotations

import functools
import json
import math
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["CourseEntry", "course_entry", "read_course_entry"]

WORDS_A_MINUTE = 120  # a young reader taking in rules text, not skimming
STEP_MINUTES = 0.75  # reading a step's narration and looking at its diagram
QUESTION_MINUTES = 1.0  # thinking about a predict question, then reading the answer
SANDBOX_MINUTES = 5.0  # the "Things to try"

_STEPPER = re.compile(r"""Stepper\(\s*["']([a-z0-9_]+)["']""")
_WORD = re.compile(r"[A-Za-z0-9{}]+")
_TAG = re.compile(r"<[^>\n]+>")  # markup (a <dfn> link, <details>) is not read


@dataclass(frozen=True)
class CourseEntry:
    goal: str  # "" when the notebook has none
    minutes: int  # a multiple of 5, at least 5


def _source(cell: Mapping[str, Any]) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else str(src)


@functools.cache
def _steps(name: str) -> tuple[int, int]:
    """The number of `[[step]]` tables of shipped scenario `name`, and of its questions ((0, 0)
    if it can't be read: an estimate, and a broken scenario is the build's to report). Read as
    TOML, not played."""
    from mtg_rulekit.scenario import shipped_dir

    try:
        data = tomllib.loads((shipped_dir() / f"{name}.toml").read_text("utf-8"))
    except (OSError, ValueError):
        return 0, 0
    steps = data.get("step")
    if not isinstance(steps, list):
        return 0, 0
    return len(steps), sum(isinstance(s, dict) and "question" in s for s in steps)


def course_entry(nb: Mapping[str, Any]) -> CourseEntry:
    """The goal and the estimated minutes of a notebook given as its JSON."""
    meta = nb.get("metadata") or {}
    found = meta.get("rulekit")
    own: Mapping[str, Any] = found if isinstance(found, Mapping) else {}
    goal = " ".join(str(own.get("goal") or "").split())
    words = questions = steps = 0
    sandbox = False
    for cell in nb.get("cells", []):
        text = _source(cell)
        if cell.get("cell_type") == "markdown":
            words += len(_WORD.findall(_TAG.sub(" ", text)))
            questions += text.count("<summary>")
        elif cell.get("cell_type") == "code":
            for name in _STEPPER.findall(text):
                n, asked = _steps(name)
                steps += n
                questions += asked
            sandbox = sandbox or "Sandbox(" in text
    raw = (words / WORDS_A_MINUTE + steps * STEP_MINUTES + questions * QUESTION_MINUTES
           + (SANDBOX_MINUTES if sandbox else 0))
    return CourseEntry(goal, max(5, 5 * math.ceil(raw / 5)))


def read_course_entry(path: Path) -> CourseEntry | None:
    """`course_entry` of the notebook file `path`; None if it can't be read as a notebook."""
    try:
        nb = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return None
    return course_entry(nb) if isinstance(nb, dict) else None
