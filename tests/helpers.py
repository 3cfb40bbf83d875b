"""Small helpers shared by the tests (build boards, read pools and the log, run the CLI)."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from contextlib import chdir, redirect_stderr, redirect_stdout
from pathlib import Path
from typing import NoReturn

import pytest

from mtg_rulekit import EventKind, Game

ROOT = Path(__file__).resolve().parent.parent


def unavailable(message: str) -> NoReturn:
    """A tool the test needs is missing: skip on a developer's machine; fail under CI, where
    .ci/run installs everything (a skip there would hide what the test checks)."""
    if os.environ.get("CI"):
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


def pool(game: Game, player: str = "Alice") -> list[str]:
    """Pool contents as sorted type letters, restricted units marked with '*'."""
    return sorted(u.type.value + ("*" if u.restriction else "") for u in game.pool(player))


def mana(game: Game, land: str, n: int, player: str = "Alice") -> None:
    """Put `n` of a basic land (or any land) onto the battlefield and tap each for mana."""
    for _ in range(n):
        game.tap_for_mana(game.add(land, player=player))


def events(game: Game, kind: EventKind, since: int = 0) -> list:
    """Events of one kind logged after event `since`."""
    return [e for e in game.log.since(since) if e.kind is kind]


def kinds(game: Game, since: int = 0) -> list[str]:
    return [e.kind.value for e in game.log.since(since)]


def last(game: Game, kind: EventKind):
    found = [e for e in game.log if e.kind is kind]
    assert found, f"no {kind.value} event in the log"
    return found[-1]


def types(found) -> list[str]:
    return sorted(t.value for t in found)


def rulekit_cli(*args: str, cwd: Path | None = None,
                process: bool = False) -> subprocess.CompletedProcess[str]:
    """`python -m mtg_rulekit ARGS` as a user runs it: its exit code, stdout and stderr.

    In this process by default (`mtg_rulekit.cli.main(argv)` with the output captured: the same
    code and text in milliseconds instead of a Python start); `process=True` runs the real
    `python -m mtg_rulekit`, for the tests of what only a process shows (no traceback on a usage
    error, the exit code the shell sees)."""
    argv = [sys.executable, "-m", "mtg_rulekit", *args]
    where = cwd or ROOT
    if process:
        return subprocess.run(argv, cwd=where, text=True, capture_output=True, timeout=120)
    from mtg_rulekit.cli import main

    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err), chdir(where):
        try:
            code = main(list(args))
        except SystemExit as exit_:  # argparse's usage errors
            code = exit_.code if isinstance(exit_.code, int) else 1
    return subprocess.CompletedProcess(argv, code, out.getvalue(), err.getvalue())


def cast_from_hand(game: Game, card: str, land: str, n: int, **kwargs: object):
    """Put `card` into Alice's hand, tap `n` of `land` for mana (see `mana`) and cast it with
    `kwargs` (targets, x, decisions): the set-up most spell tests share. Returns the spell."""
    spell = game.add(card, zone="hand")
    mana(game, land, n)
    game.cast(spell, **kwargs)
    return spell

def end_the_turn(game: Game) -> None:
    """Advance through the end step and the cleanup step (where nobody normally gets priority,
    CR 514.3) into the next turn's upkeep."""
    game.advance("end")
    game.advance()


def write_notebook(folder: Path, stem: str, title: str, *code: str) -> Path:
    """`folder/stem.ipynb`: a lesson-like notebook (a `# title` cell, then one code cell per
    `code`, cell ids set, the python3 kernel) for the build tests."""
    import nbformat  # not at import: conftest imports this module, and nbformat is slow

    folder.mkdir(parents=True, exist_ok=True)
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(f"# {title}"),
                                         *(nbformat.v4.new_code_cell(c) for c in code)])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    for i, cell in enumerate(nb.cells):
        cell.id = f"c{i}"
    path = folder / f"{stem}.ipynb"
    nbformat.write(nb, path)
    return path


def clean_clone(dest: Path) -> Path:
    """`dest/clone`: a git clone of this checkout (committed files only) with the bootstrap's
    nbstripout filter installed and a clean `git status`, for a server's tests to dirty."""
    import subprocess

    from mtg_rulekit.lab import gitfilter

    root = Path(__file__).resolve().parent.parent
    clone = dest / "clone"
    subprocess.run(["git", "clone", "--quiet", "--no-hardlinks", str(root), str(clone)],
                   check=True, capture_output=True)
    assert gitfilter.install(clone)
    assert subprocess.run(["git", "-C", str(clone), "status", "--porcelain"], check=True,
                          capture_output=True, text=True).stdout == ""
    return clone
