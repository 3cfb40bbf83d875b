"""The lesson notebooks that come with the kit, and copying them out for a teacher or a student
(`rulekit lessons DIR`, `rulekit lab`).

In a checkout they are `notebooks/`; in an installed wheel (`pip install mtg-rulekit`) the same
files are the package data `mtg_rulekit/lessons/` (see setup.py). A copy is the teacher's own: a
lesson already in the folder is kept as it is, never overwritten.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["RUN_HINT", "Copied", "copy_out", "drop_run_hint", "has_lessons", "shipped"]

RUN_HINT = ("> **Nothing to step below?** Run the lesson: *Run ▸ Run All Cells* (JupyterLab, "
            "Notebook 7, JupyterLite). Its walkthroughs, sandbox and questions then appear "
            "under their cells.")
"""The last paragraph of every lesson's first cell: a lesson opened without outputs (as it is
committed) shows only text and code until it runs. The exported pages, already run, leave it out
(`drop_run_hint`); `tests/test_lesson_shape.py` checks that every lesson has it."""

_PACKAGE = Path(__file__).resolve().parent.parent


def shipped() -> Path:
    """The folder of the kit's lesson notebooks: `mtg_rulekit/lessons/` in an installed wheel,
    `notebooks/` next to the package in a checkout. Raises FileNotFoundError when neither
    exists (a package built without them)."""
    for folder in (_PACKAGE / "lessons", _PACKAGE.parent / "notebooks"):
        if any(folder.glob("[0-9][0-9]_*.ipynb")):
            return folder
    raise FileNotFoundError("this installation of rulekit carries no lesson notebooks")


def has_lessons(folder: Path) -> bool:
    """Whether `folder` holds lesson notebooks (`NN_name.ipynb`)."""
    return folder.is_dir() and any(folder.glob("[0-9][0-9]_*.ipynb"))


@dataclass
class Copied:
    """What `copy_out` did: the files written, and those kept because they were there."""

    written: list[Path] = field(default_factory=list)
    kept: list[Path] = field(default_factory=list)


def copy_out(dest: Path, source: Path | None = None) -> Copied:
    """Copy the lessons (and the lesson template, `templates/lesson.ipynb`, for
    `rulekit new-lesson`) from `source` (default: `shipped()`) into `dest`, made if needed. A
    file already in `dest` is kept (the teacher's edits win); nothing else there is touched."""
    source = source or shipped()
    done = Copied()
    names = sorted(p.relative_to(source) for p in source.glob("[0-9][0-9]_*.ipynb"))
    names += sorted(p.relative_to(source) for p in source.glob("templates/*.ipynb"))
    for rel in names:
        target = dest / rel
        if target.exists():
            done.kept.append(target)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source / rel, target)
        done.written.append(target)
    return done


def drop_run_hint(markdown: str) -> str:
    """`markdown` without `RUN_HINT` (the paragraph and the blank line before it)."""
    return markdown.replace("\n\n" + RUN_HINT, "").replace(RUN_HINT, "")
