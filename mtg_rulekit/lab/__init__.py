"""`make lab` (`python -m mtg_rulekit.lab [jupyter lab options]`): JupyterLab on the lesson notebooks,
set up for lessons without touching the user's own JupyterLab settings:

- widget state is saved with the notebook (`saveState`, from `mtg_rulekit/lab/settings/overrides.json`,
  JupyterLab's app settings folder for this server only), so a reopened lesson shows its
  walkthroughs before anything runs;
- no "Would you like to get notified about official Jupyter news?" pop-up over a projected
  walkthrough, and no news or update requests to the web (same file);
- a saved lesson is written as committed, its outputs and widget state kept beside it
  (`mtg_rulekit.lab.contents`): `git status` stays clean;
- kernels use IPC sockets (`mtg_rulekit.lab.kernels`); the server listens on 127.0.0.1 only.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path

from mtg_rulekit.lab.kernels import lab_arguments

SETTINGS = Path(__file__).resolve().parent / "settings"

__all__ = ["SETTINGS", "command", "main"]


def command(notebook_dir: Path | str = "notebooks", extra: Sequence[str] = (), *,
            app: str = "lab") -> list[str]:
    """The `jupyter lab` command line (this Python's `jupyter`), `extra` options last;
    `app="notebook"`: the same set-up for Notebook 7 (`jupyter notebook`)."""
    if app not in ("lab", "notebook"):
        raise ValueError(f"app must be 'lab' or 'notebook', not {app!r}")
    jupyter = Path(sys.executable).with_name("jupyter")
    settings = "LabApp" if app == "lab" else "JupyterNotebookApp"
    argv = [str(jupyter) if jupyter.exists() else "jupyter", app, "--ip=127.0.0.1",
            "--no-browser", f"--notebook-dir={notebook_dir}",
            f"--{settings}.app_settings_dir={SETTINGS}",
            "--ServerApp.contents_manager_class=mtg_rulekit.lab.contents.LessonContentsManager",
            *lab_arguments()]
    if hasattr(os, "getuid") and os.getuid() == 0:
        argv.append("--allow-root")  # Jupyter refuses root without it (containers run as root)
    return [*argv, *extra]


def main(argv: Sequence[str] | None = None) -> int:
    argv = command("notebooks", list(sys.argv[1:] if argv is None else argv))
    os.execvp(argv[0], argv)
    return 1  # not reached


if __name__ == "__main__":
    sys.exit(main())
