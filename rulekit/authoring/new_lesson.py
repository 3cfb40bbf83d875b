"""`python -m rulekit new-lesson "Title" [--rulings R05,R06]`: start the next numbered lesson
notebook from the template `notebooks/templates/lesson.ipynb` (its first cell documents how the
template is read). The new lesson has its rulings box, one section per ruling, a walkthrough for
each shipped scenario about those rulings and a sandbox; `make lessons` picks it up.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import nbformat

from rulekit.core.errors import UsageError
from rulekit.display.escape import markdown_text

__all__ = ["NewLesson", "create", "next_number", "slug"]

TEMPLATE = Path("templates") / "lesson.ipynb"  # inside the notebooks folder
_RULING = re.compile(r"^R(0[1-9]|1[0-9])$")


@dataclass(frozen=True)
class NewLesson:
    path: Path
    number: int
    rulings: tuple[str, ...]
    scenarios: tuple[str, ...]


def slug(title: str) -> str:
    """The file-name part of a title: lowercase ASCII words joined by underscores."""
    words = re.findall(r"[a-z0-9]+", title.lower().encode("ascii", "ignore").decode())
    out = "_".join(words)[:48].strip("_")
    return out or "lesson"


def next_number(notebooks: Path) -> int:
    numbers = [int(p.name[:2]) for p in notebooks.glob("*.ipynb") if p.name[:2].isdigit()]
    return max(numbers, default=0) + 1


def _scenarios_for(rulings: tuple[str, ...]) -> list[tuple[str, str]]:
    """(file stem, title) of the shipped scenarios about any of `rulings`, by ruling order."""
    from rulekit.scenario import load, shipped

    loaded = [(p.stem, load(p)) for p in shipped()]
    out: list[tuple[str, str]] = []
    for rid in rulings:
        # the scenarios written for the ruling (named after it), else any that cites it
        mine = [(stem, sc) for stem, sc in loaded if stem.startswith(rid.lower() + "_")] \
            or [(stem, sc) for stem, sc in loaded if rid in sc.rulings]
        out += [(stem, sc.title) for stem, sc in mine if stem not in [s for s, _ in out]]
    return out


def _fill(text: str, values: dict[str, str]) -> str:
    for key, value in values.items():
        text = text.replace("{{" + key + "}}", value)
    return text


def create(title: str, rulings: list[str] | tuple[str, ...] = (), *,
           notebooks: Path = Path("notebooks"), template: Path | None = None) -> NewLesson:
    """Write `notebooks/NN_<slug>.ipynb` from the template and return what was written.
    Raises `UsageError` for an empty title, an unknown ruling or a ruling without a shipped
    walkthrough."""
    from rulekit.core.rulings import all_rulings

    if not title.strip():
        raise UsageError("title", "a lesson needs a title")
    ids = tuple(dict.fromkeys(r.strip().upper() for r in rulings if r.strip()))
    if not ids:
        raise UsageError("rulings", "name the rulings the lesson teaches, e.g. --rulings R05,R06"
                         " (python -m rulekit coverage lists them)")
    known = all_rulings()
    for rid in ids:
        if not _RULING.match(rid) or rid not in known:
            raise UsageError("rulings", f"no ruling {rid!r} (the kit knows R01-R19)")
    scenarios = _scenarios_for(ids)
    if not scenarios:
        raise UsageError("rulings", f"no shipped scenario is about {', '.join(ids)}: write one "
                         "first (docs/scenarios.md)")
    template = template or notebooks / TEMPLATE
    if not template.is_file():
        raise UsageError("template", f"no template notebook at {template}")
    number = next_number(notebooks)
    path = notebooks / f"{number:02d}_{slug(title)}.ipynb"
    values = {"number": str(number), "title": markdown_text(" ".join(title.split())),
              "rulings": ", ".join(f'"{r}"' for r in ids),
              "sandbox_scenario": scenarios[0][0]}

    source = nbformat.read(template, as_version=4)
    cells: list[nbformat.NotebookNode] = []
    i = 0
    while i < len(source.cells):
        cell = source.cells[i]
        tags = cell.metadata.get("tags", [])
        if "template-only" in tags:
            i += 1
        elif "per-ruling" in tags:
            chapter = _run(source.cells, i, "per-ruling")  # a ruling, then its walkthroughs
            i += len(chapter)
            placed: list[str] = []
            for rid in ids:
                r = known[rid]
                mine = [(stem, t) for stem, t in _scenarios_for((rid,)) if stem not in placed]
                placed += [stem for stem, _ in mine]
                ruling = values | {"ruling_id": rid, "ruling_topic": markdown_text(r.topic),
                                   "ruling_plain": r.plain, "ruling_rules": ", ".join(r.rules)}
                j = 0
                while j < len(chapter):
                    if "per-walkthrough" not in chapter[j].metadata.get("tags", []):
                        cells.append(_copy(chapter[j], ruling))
                        j += 1
                        continue
                    group = _run(chapter, j, "per-walkthrough")
                    j += len(group)
                    for stem, stitle in mine:
                        cells += [_copy(c, ruling | {"scenario": stem,
                                                     "scenario_title": markdown_text(stitle)})
                                  for c in group]
        elif "per-walkthrough" in tags:
            group = _run(source.cells, i, "per-walkthrough")
            i += len(group)
            for stem, stitle in scenarios:
                cells += [_copy(c, values | {"scenario": stem,
                                             "scenario_title": markdown_text(stitle)})
                          for c in group]
        else:
            cells.append(_copy(cell, values))
            i += 1
    for n, cell in enumerate(cells):
        cell["id"] = f"{number:02d}-{n:02d}"
    nb = nbformat.v4.new_notebook(cells=cells, metadata=source.metadata)
    nbformat.validate(nb)
    with open(path, "x", encoding="utf-8") as f:  # never overwrite a lesson
        f.write(nbformat.writes(nb) + "\n")
    return NewLesson(path, number, ids, tuple(s for s, _ in scenarios))


def _run(cells: list[nbformat.NotebookNode], i: int, tag: str) -> list[nbformat.NotebookNode]:
    """The consecutive cells from `cells[i]` on that carry `tag` (repeated together)."""
    out: list[nbformat.NotebookNode] = []
    while i + len(out) < len(cells) and tag in cells[i + len(out)].metadata.get("tags", []):
        out.append(cells[i + len(out)])
    return out


def _copy(cell: nbformat.NotebookNode, values: dict[str, str]) -> nbformat.NotebookNode:
    new = nbformat.from_dict(dict(cell))
    new.source = _fill(cell.source, values)
    tags = [t for t in new.metadata.get("tags", [])
            if t not in ("per-ruling", "per-walkthrough", "template-only")]
    new.metadata = {k: v for k, v in new.metadata.items() if k != "tags"}
    if tags:
        new.metadata["tags"] = tags
    if new.cell_type == "code":
        new.outputs, new.execution_count = [], None
    return new
