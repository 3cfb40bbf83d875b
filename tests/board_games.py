"""Games to draw boards of (for the board's tests): every lesson sandbox's set-up (its notebook
cell run with `Sandbox` swapped for a catcher: no kernel, no widgets) and the last step of every
shipped walkthrough (played by the real engine, read-only)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from rulekit.scenario import play
from tests.lesson_shape import lesson_notebooks


def lesson_sandboxes() -> Iterator[tuple[str, Any, dict[str, Any]]]:
    """(lesson stem, the game its sandbox cell builds, the cell's other `Sandbox` arguments:
    what the lesson's sandbox offers), for each lesson with a sandbox."""
    import nbformat

    from tests.test_things_to_try import starting_game

    for path in lesson_notebooks():
        nb = nbformat.read(path, as_version=4)
        for cell in nb.cells:
            if cell.cell_type == "code" and cell.source.rstrip().splitlines()[-1:] and \
                    cell.source.rstrip().splitlines()[-1].startswith("Sandbox("):
                made: list[tuple[Any, dict[str, Any]]] = []

                def catch(game: Any, made: list[Any] = made, **offers: Any) -> None:
                    made.append((starting_game(game), offers))

                exec(cell.source, {"Sandbox": catch})  # noqa: S102
                yield path.stem, made[0][0], made[0][1]


def lesson_sandbox_games() -> Iterator[tuple[str, Any]]:
    """(lesson stem, the game its sandbox cell builds), for each lesson with a sandbox."""
    for stem, game, _ in lesson_sandboxes():
        yield stem, game


def walkthrough_last_steps() -> Iterator[tuple[str, Any, Any]]:
    """(scenario stem, its last step's result, the game after it), for each shipped walkthrough."""
    from rulekit.display.frames import resolve_scenario
    from rulekit.scenario import shipped_dir

    for path in sorted(shipped_dir().glob("*.toml")):
        results = play(resolve_scenario(path))
        yield path.stem, results[-1], results[-1].game
