"""Keep notebook outputs out of commits: nbstripout as a git *clean* filter for `*.ipynb`
(`.gitattributes` names it; `install()` defines it in the checkout's git config). The bootstrap
(`make` deps step) runs `python -m mtg_rulekit.lab.gitfilter`.

What the filter leaves is what the notebooks are committed as: no outputs, no execution counts,
no saved widget state, cell ids kept (`--keep-id`), and of the kernel's `language_info` only its
name (JupyterLab writes the rest on every save). So a lesson run and saved in JupyterLab is
unchanged as far as git is concerned: `git status` stays clean and the tests, which read what is
committed, stay green. The working file keeps its outputs for the next time it is opened.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

__all__ = ["EXTRA_KEYS", "clean_command", "install", "strip"]

# metadata JupyterLab writes on save that the committed notebooks don't carry (nbstripout
# already drops outputs, execution counts, metadata.widgets and cell timing/scroll state)
EXTRA_KEYS = " ".join(f"metadata.language_info.{key}" for key in (
    "codemirror_mode", "file_extension", "mimetype", "nbconvert_exporter", "pygments_lexer",
    "version"))
# what nbstripout drops by default besides outputs and counts (nbstripout 0.8-0.9)
NBSTRIPOUT_KEYS = ("metadata.signature metadata.widgets cell.metadata.collapsed "
                   "cell.metadata.ExecuteTime cell.metadata.execution "
                   "cell.metadata.heading_collapsed cell.metadata.hidden cell.metadata.scrolled")


def strip(nb: Any) -> Any:
    """`nb` (a NotebookNode, changed in place) as the git filter commits it."""
    from nbstripout import strip_output

    return strip_output(nb, keep_output=False, keep_count=False, keep_id=True,
                        extra_keys=[*NBSTRIPOUT_KEYS.split(), *EXTRA_KEYS.split()])


def clean_command(python: str = sys.executable) -> str:
    return f'"{Path(python).as_posix()}" -m nbstripout --keep-id'


def install(repo: Path | str = ".", python: str = sys.executable) -> bool:
    """Define the `nbstripout` filter and `ipynb` diff in `repo`'s local git config; False
    (and nothing done) when `repo` is not a git checkout."""
    def git(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True)

    if git("rev-parse", "--git-dir").returncode != 0:
        return False
    clean = clean_command(python)
    for key, value in (("filter.nbstripout.clean", clean), ("filter.nbstripout.smudge", "cat"),
                       ("filter.nbstripout.required", "true"),
                       ("filter.nbstripout.extrakeys", EXTRA_KEYS),
                       ("diff.ipynb.textconv", f"{clean} -t")):
        done = git("config", "--local", key, value)
        if done.returncode != 0:
            raise RuntimeError(f"git config {key}: {done.stderr.strip()}")
    return True


def main() -> int:
    if install("."):
        print("rulekit: notebooks are stripped of outputs when committed (nbstripout git filter)")
    else:
        print("rulekit: not a git checkout: no nbstripout filter installed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
