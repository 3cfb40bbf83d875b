"""Which shipped scenarios a process read, so the lesson build rebuilds a lesson only when a
scenario it uses changes (`mtg_rulekit.export`).

In a lesson build's kernel the build names a file in `READS_ENV`; importing `mtg_rulekit.scenario`
then adds a Python audit hook (`sys.addaudithook`) that sees every file the kernel opens,
whichever code opens it (`Stepper("r05_x")`, `Sandbox(...)`, the coverage table), and writes
down each scenario file of `mtg_rulekit/scenarios/` it opens, one name a line, and `LISTED` once
it lists that folder (a lesson that looks for scenarios depends on which ones there are).
Nothing happens without the variable.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

__all__ = ["LISTED", "READS_ENV", "read", "record"]

READS_ENV = "RULEKIT_SCENARIO_READS"
LISTED = "*"  # the line that says the folder was listed


def record(log: str, folder: Path) -> None:
    """Write to `log` the name of each file in `folder` this process opens from now on, once,
    and `LISTED` once the process lists `folder`."""
    root = os.path.abspath(folder)
    prefix = root + os.sep
    seen: set[str] = set()

    def note(line: str) -> None:
        if line not in seen:
            seen.add(line)
            with open(log, "a", encoding="utf-8") as fh:  # its own open is no scenario's
                fh.write(line + "\n")

    def hook(event: str, args: tuple[Any, ...]) -> None:
        if event not in ("open", "os.scandir", "os.listdir") or not args:
            return
        path = args[0]
        if not isinstance(path, (str, bytes, os.PathLike)):
            return
        where = os.path.abspath(os.fsdecode(path))
        if event == "open" and where.startswith(prefix) and where.endswith(".toml"):
            note(where[len(prefix):])
        elif event != "open" and where == root:
            note(LISTED)

    sys.addaudithook(hook)


def read(log: Path) -> tuple[list[str], bool]:
    """What `record` wrote: the scenario file names (sorted) and whether the folder was
    listed; nothing for a missing log."""
    try:
        lines = log.read_text("utf-8").splitlines()
    except OSError:
        return [], False
    return sorted({n for n in lines if n and n != LISTED}), LISTED in lines
