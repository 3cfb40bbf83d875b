"""The shape every lesson notebook shares (what tools/make_notebooks.py used to guarantee, now
that the notebooks themselves are the lesson source and a teacher edits them in JupyterLab).

A lesson `N_name.ipynb` (N >= 1, written with at least two digits: `09_`, `10_`, `123_`), in
this order:

1. a markdown cell `# Lesson N: Title` (N is the file's number);
2. a code cell importing `mtg_rulekit.display.lesson` and calling `lesson.rulings_box("Rxx", ...)`;
3. chapters: one `## ... (Rxx)` section per ruling in that box, and no other ruling sections,
   each followed by its walkthroughs (a markdown cell `### Walkthrough: ...`, then a code cell
   `Stepper("<shipped scenario>")`) before the next chapter: the ruling, its walkthrough, the
   walkthrough's checked questions;
4. `## Sandbox: try it yourself` (saying the sandbox needs a running kernel), then a code cell
   whose last line makes the `Sandbox(...)`;
5. `## Summary` as the last cell.

Only the structure is checked, never the wording: the prose is the teacher's.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import nbformat

from mtg_rulekit.repo.outline import outline
from mtg_rulekit.scenario import load, shipped_dir

STEM = re.compile(r"^(\d{2,})_[a-z0-9_]+$")
RULING = re.compile(r"\bR(?:0[1-9]|1[0-9])\b")
BOX = re.compile(r"lesson\.rulings_box\(([^)]*)\)")
STEPPER = re.compile(r"""^Stepper\(["']([a-z0-9_]+)["']\)$""")
SANDBOX_HEADING = "## Sandbox: try it yourself"


def _first_line(cell: nbformat.NotebookNode) -> str:
    return cell.source.lstrip().splitlines()[0].strip() if cell.source.strip() else ""


def shape_problems(nb: nbformat.NotebookNode, stem: str) -> list[str]:
    """What in lesson notebook `nb` (file stem `stem`) departs from the shared lesson shape."""
    problems: list[str] = []
    m = STEM.match(stem)
    if not m:
        return [f"{stem}: a lesson file is named NN_words.ipynb (lowercase, underscores)"]
    number = int(m.group(1))
    cells = nb.cells
    if nb.metadata.get("kernelspec", {}).get("name") != "python3":
        problems.append("kernelspec is not python3")
    ids = [c.get("id") for c in cells]
    if None in ids or len(set(ids)) != len(ids):
        problems.append("every cell needs an id of its own (nbformat 4.5)")
    if not cells or cells[0].cell_type != "markdown" \
            or not _first_line(cells[0]).startswith(f"# Lesson {number}: "):
        problems.append(f"the first cell is not a markdown title '# Lesson {number}: ...'")

    # the rulings box: the first code cell
    code_at = [i for i, c in enumerate(cells) if c.cell_type == "code"]
    box_ids: list[str] = []
    if not code_at:
        return [*problems, "no code cell"]
    first = cells[code_at[0]].source
    box = BOX.search(first)
    if "from mtg_rulekit.display import lesson" not in first or not box:
        problems.append("the first code cell imports mtg_rulekit.display.lesson and calls "
                        "lesson.rulings_box(...)")
    else:
        box_ids = RULING.findall(box.group(1))
        if not box_ids:
            problems.append("the rulings box names no ruling")

    def heading_at(prefix: str) -> list[int]:
        return [i for i, c in enumerate(cells)
                if c.cell_type == "markdown" and _first_line(c).startswith(prefix)]

    sections = {rid: i for i, c in enumerate(cells)  # the cell of each "## ... (Rxx)"
                for h in outline({"cells": [c]}).headings if h.level == 2 for rid in h.rulings}
    if set(sections) != set(box_ids):
        problems.append(f"ruling sections {sorted(sections)} differ from the rulings box "
                        f"{sorted(box_ids)}")

    walkthroughs = heading_at("### Walkthrough:")
    if not walkthroughs:
        problems.append("no '### Walkthrough: ...' cell")
    for i in walkthroughs:
        nxt = cells[i + 1] if i + 1 < len(cells) else None
        call = STEPPER.match(nxt.source.strip()) if nxt is not None \
            and nxt.cell_type == "code" else None
        if call is None:
            problems.append(f"cell {i + 1} (walkthrough) is not followed by a Stepper(\"...\") cell")
        elif not (shipped_dir() / f"{call.group(1)}.toml").is_file():
            problems.append(f"Stepper({call.group(1)!r}): no such shipped scenario")
    starts = sorted(set(sections.values()))
    ruling_at: dict[int, list[str]] = {}  # a chapter's heading may name several rulings
    for rid, at in sections.items():
        ruling_at.setdefault(at, []).append(rid)
    for k, at in enumerate(starts):  # each chapter: its ruling, then its own walkthroughs
        end = starts[k + 1] if k + 1 < len(starts) else len(cells)
        own = [i for i in walkthroughs if at < i < end]
        if not own:
            problems.append(f"the chapter at cell {at} has no walkthrough before the next "
                            "chapter")
        for i in own:
            call = STEPPER.match(cells[i + 1].source.strip()) if i + 1 < len(cells) else None
            path = shipped_dir() / f"{call.group(1)}.toml" if call else None
            if path is not None and path.is_file() \
                    and not set(ruling_at[at]) & set(load(path).rulings):
                named = ", ".join(ruling_at[at])
                problems.append(f"Stepper({call.group(1)!r}) in the {named} chapter "
                                f"doesn't teach {named}")
    if any(c.cell_type == "markdown" and "<details>" in c.source for c in cells):
        problems.append("a <details> question: a lesson's questions are its walkthroughs' "
                        "checked questions")
    sandbox = heading_at(SANDBOX_HEADING)
    if len(sandbox) != 1 or "needs a running kernel" not in cells[sandbox[0]].source:
        problems.append(f"one '{SANDBOX_HEADING}' cell saying it needs a running kernel")
    else:
        nxt = cells[sandbox[0] + 1] if sandbox[0] + 1 < len(cells) else None
        last = nxt.source.strip().splitlines()[-1] if nxt is not None and nxt.source.strip() \
            else ""
        if nxt is None or nxt.cell_type != "code" or not last.startswith("Sandbox("):
            problems.append("the sandbox heading is not followed by a code cell ending in "
                            "Sandbox(...)")
    if cells[-1].cell_type != "markdown" or _first_line(cells[-1]) != "## Summary":
        problems.append("the last cell is not '## Summary'")

    # the order of the parts
    order = [("rulings box", [code_at[0]]), ("chapters", starts + walkthroughs),
             ("sandbox", sandbox), ("summary", [len(cells) - 1])]
    seen = [(name, at) for name, at in order if at]
    for (a, at_a), (b, at_b) in zip(seen, seen[1:]):
        if max(at_a) >= min(at_b):
            problems.append(f"the {a} should come before the {b}")
    return problems


NOTEBOOKS = Path(os.environ.get("RULEKIT_TEST_NOTEBOOKS")
                 or Path(__file__).resolve().parent.parent / "notebooks")
"""The lesson folder every lesson test checks: `notebooks/`, or the folder named by
`RULEKIT_TEST_NOTEBOOKS` (the new-lesson test runs the lesson checks on a temporary copy)."""


def number(path: Path) -> int | None:
    """A notebook's number (`09_x` -> 9, `123_x` -> 123); None for a name without one."""
    m = re.match(r"(\d+)_", path.stem)
    return int(m.group(1)) if m else None


def numbered_notebooks(folder: Path = NOTEBOOKS) -> list[Path]:
    """Every numbered notebook of `folder` ("Start here" and the lessons), by number."""
    found = [p for p in folder.glob("*.ipynb") if number(p) is not None]
    return sorted(found, key=lambda p: (number(p), p.name))


def lesson_notebooks(folder: Path = NOTEBOOKS) -> list[Path]:
    """The lessons in `folder`: every numbered notebook but number 0 ("Start here"), whatever
    its number."""
    return [p for p in numbered_notebooks(folder) if number(p) != 0]


def lesson_stems(folder: Path = NOTEBOOKS) -> list[str]:
    return [p.stem for p in lesson_notebooks(folder)]


# how a test module reads every lesson (through this module, or the sandbox harnesses built on
# it), and every shipped scenario
_READS_LESSONS = re.compile(r"from tests\.(lesson_shape|board_games) import")
_READS_SCENARIOS = re.compile(r"\bshipped\(\)")


def lesson_check_modules(root: Path) -> list[str]:
    """The test modules under `root`/tests that check every lesson notebook or every shipped
    scenario: what a new lesson and its scenario can change in `make check`."""
    return sorted(p.relative_to(root).as_posix() for p in (root / "tests").glob("test_*.py")
                  if _READS_LESSONS.search(text := p.read_text("utf-8"))
                  or _READS_SCENARIOS.search(text))
