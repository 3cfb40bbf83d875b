"""Games to draw boards of (for the board's tests): every lesson sandbox's set-up (the sandbox
file its notebook cell names, `mtg_rulekit/sandboxes/`: no kernel, no widgets) and the last step of
every shipped walkthrough (played by the real engine, read-only)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from mtg_rulekit.scenario import play
from tests.lesson_shape import NOTEBOOKS, lesson_notebooks


def sandbox_cell(stem: str) -> str | None:
    """The source of lesson `stem`'s sandbox cell (its last line `Sandbox(...)`), if any."""
    import nbformat

    nb = nbformat.read(NOTEBOOKS / f"{stem}.ipynb", as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code" and re.match(r"Sandbox\(", cell.source.strip()):
            return cell.source
    return None


def sandbox_name(stem: str) -> str | None:
    """The name lesson `stem`'s sandbox cell starts from (`Sandbox("NAME", ...)`), if any."""
    source = sandbox_cell(stem)
    found = re.search(r'Sandbox\("([^"]+)"', source) if source else None
    return found.group(1) if found else None


def sandbox(stem: str) -> Any:
    """The `SandboxModel` lesson `stem`'s sandbox cell makes (its board, what it offers, its
    challenges), without a kernel (`mtg_rulekit.sandbox.lessons.cell_model`)."""
    from mtg_rulekit.sandbox.lessons import cell_model

    source = sandbox_cell(stem)
    assert source is not None, f"{stem} has no sandbox cell"
    model = cell_model(source)
    assert model is not None, f"{stem}'s sandbox cell is not Sandbox(\"NAME\"): {source!r}"
    return model


def lesson_sandboxes() -> Iterator[tuple[str, Any, dict[str, Any]]]:
    """(lesson stem, the game its sandbox starts on, what it offers as `SandboxModel`'s
    `actions` and `cards`), for each lesson with a sandbox."""
    for path in lesson_notebooks():
        if sandbox_cell(path.stem) is None:
            continue
        model = sandbox(path.stem)
        offers = {k: v for k, v in (("actions", list(model.actions)), ("cards", model.cards))
                  if v is not None}
        yield path.stem, model.game, offers


def lesson_sandbox_games() -> Iterator[tuple[str, Any]]:
    """(lesson stem, the game its sandbox cell builds), for each lesson with a sandbox."""
    for stem, game, _ in lesson_sandboxes():
        yield stem, game


def walkthrough_last_steps() -> Iterator[tuple[str, Any, Any]]:
    """(scenario stem, its last step's result, the game after it), for each shipped walkthrough."""
    from mtg_rulekit.display.walkthrough.frames import resolve_scenario
    from mtg_rulekit.scenario import shipped_dir

    for path in sorted(shipped_dir().glob("*.toml")):
        results = play(resolve_scenario(path))
        yield path.stem, results[-1], results[-1].game


def completed(model: Any, entry: dict[str, Any]) -> dict[str, Any]:
    """A menu entry's values with what its pickers choose (`entry["choose"]`), chosen as a
    student would: each picker asked in turn (`SandboxModel.choices_for` with the field), its
    first legal answer taken (its first answer when none is legal). A multiple choice of
    permanents ("several") is left as the entry gives it."""
    values = dict(entry["values"])
    for choice in entry.get("choose") or ():
        if choice["kind"] == "several":
            continue
        (asked,) = model.choices_for(entry["action"], values, choice["field"])
        options = asked["options"]
        pick = next((o for o in options if o["legal"]), options[0] if options else None)
        if pick is not None:
            values = dict(pick["values"])
    return values
