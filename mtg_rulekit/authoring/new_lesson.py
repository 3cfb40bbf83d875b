"""`python -m mtg_rulekit new-lesson "Title" --scenario FILE --goal "..."`: start the next numbered
lesson notebook from the template `notebooks/templates/lesson.ipynb` (its first cell documents
how the template is read), ready for `make check` and `make lessons` as it is.

- **Walkthroughs:** the `--scenario` files, in order (shipped scenarios: `mtg_rulekit/scenarios/`);
  with `--rulings` alone, the shipped scenarios about those rulings that no other lesson of the
  folder shows yet.
- **Rulings:** `--rulings`, else every ruling the walkthroughs list; a section for each.
- **Sandbox:** it starts from the first walkthrough's set-up and offers the kinds of action that
  walkthrough's steps take (`sandbox_actions`).
- **Goal:** `--goal`, what the index shows after "You will be able to", in the notebook's
  metadata `rulekit.goal` (`mtg_rulekit.repo.course`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import nbformat

from mtg_rulekit.core.errors import ScenarioError, UsageError
from mtg_rulekit.display.escape import markdown_text

if TYPE_CHECKING:
    from mtg_rulekit.scenario import Scenario

MIN_QUESTIONS = 3
"""The checked questions a lesson asks at least (its walkthroughs' `[step.question]`s)."""

__all__ = ["MIN_QUESTIONS", "NewLesson", "create", "lesson_number", "next_number",
           "sandbox_actions", "slug"]

TEMPLATE = Path("templates") / "lesson.ipynb"  # inside the notebooks folder
GOAL_LIMIT = 200  # characters: one line of the index
# the scenario a lesson's walkthrough or sandbox starts from: `Stepper("r05_x")`, `Sandbox("x")`
_USES = re.compile(r"""\b(?:Stepper|Sandbox)\(\s*["']([^"'\n]+)["']""")
# the kinds of sandbox action (`mtg_rulekit.sandbox.ACTION_KINDS`) each scenario action is
_KIND = {"play_land": "cast", "cast": "cast", "tap_for_mana": "mana",
         "declare_attackers": "attack", "declare_blockers": "block", "destroy": "destroy"}


@dataclass(frozen=True)
class NewLesson:
    path: Path
    number: int
    rulings: tuple[str, ...]
    scenarios: tuple[str, ...]
    actions: tuple[str, ...]  # what its sandbox offers
    goal: str


def slug(title: str) -> str:
    """The file-name part of a title: lowercase ASCII words joined by underscores."""
    words = re.findall(r"[a-z0-9]+", title.lower().encode("ascii", "ignore").decode())
    out = "_".join(words)[:48].strip("_")
    return out or "lesson"


def lesson_number(path: Path) -> int | None:
    """A notebook's number (`09_x.ipynb` -> 9, `123_x.ipynb` -> 123); None without one."""
    m = re.match(r"(\d+)_", path.name)
    return int(m.group(1)) if m else None


def next_number(notebooks: Path) -> int:
    numbers = [n for p in notebooks.glob("*.ipynb") if (n := lesson_number(p)) is not None]
    return max(numbers, default=0) + 1


def sandbox_actions(scenario: Scenario) -> tuple[str, ...]:
    """The kinds of sandbox action (`mtg_rulekit.sandbox.ACTION_KINDS`) the scenario's steps take,
    in the order they first appear: what a sandbox starting from its set-up offers. An
    `activate` is `mana` when it is a mana ability (its step names a `mana` or adds mana),
    else `abilities`. A scenario that takes none of these offers `mana` and `cast`."""
    from mtg_rulekit.core.events import EventKind
    from mtg_rulekit.scenario import play

    found: list[str] = []
    for step, result in zip(scenario.steps, play(scenario)[1:]):
        do = str(step.get("do", ""))
        kind = _KIND.get(do)
        if do == "activate":
            mana = "mana" in step or any(
                e.kind in (EventKind.MANA_ABILITY, EventKind.MANA_ADDED) for e in result.events)
            kind = "mana" if mana else "abilities"
        if kind and kind not in found:
            found.append(kind)
    return tuple(found) or ("mana", "cast")


def _fill(text: str, values: dict[str, str]) -> str:
    for key, value in values.items():
        text = text.replace("{{" + key + "}}", value)
    return text


def _shown_by_others(notebooks: Path) -> dict[str, str]:
    """The scenarios the lessons of `notebooks` already start a walkthrough or a sandbox from:
    scenario file stem -> the first lesson's stem."""
    from mtg_rulekit.scenario import by_ruling

    rulings = by_ruling()
    out: dict[str, str] = {}
    for path in sorted(notebooks.glob("*.ipynb")):
        try:
            nb = nbformat.read(path, as_version=4)
        except Exception:  # not a notebook: nothing shown
            continue
        for cell in nb.cells:
            if cell.cell_type != "code":
                continue
            for ref in _USES.findall(cell.source):
                found = rulings.get(ref) if re.fullmatch(r"R\d\d", ref) else None
                stem = found.stem if found is not None else Path(ref).stem
                out.setdefault(stem, path.stem)
    return out


def _walkthrough(ref: str) -> Scenario:
    """The shipped scenario `ref` names (its file name, with or without `.toml`, or a path to
    it), loaded and played: refused (`UsageError`) when it is not a shipped scenario, can't be
    played or an expectation fails."""
    from mtg_rulekit.scenario import load, play, shipped_dir

    folder = shipped_dir().resolve()
    path = Path(ref)
    if path.suffix != ".toml":
        path = path.with_name(path.name + ".toml")
    if not path.is_file() and (folder / path.name).is_file() and len(path.parts) == 1:
        path = folder / path.name
    if not path.is_file():
        from difflib import get_close_matches

        close = get_close_matches(path.stem, [p.stem for p in folder.glob("*.toml")], n=1,
                                  cutoff=0.6)
        hint = f"; did you mean {close[0]!r}?" if close else \
            " (python -m mtg_rulekit check lists the scenarios)"
        raise UsageError("scenario", f"no scenario {ref!r}{hint}")
    if path.resolve().parent != folder:
        raise UsageError("scenario", f"{ref} is not in mtg_rulekit/scenarios/: a lesson's "
                         f"walkthroughs are the kit's scenarios; move it there first "
                         f"(mv {ref} mtg_rulekit/scenarios/)")
    try:
        scenario = load(path)
        results = play(scenario)
    except ScenarioError as err:
        raise UsageError("scenario", f"{err} (fix it first: python -m mtg_rulekit run {ref})") \
            from None
    failed = sum(len(r.failures) for r in results)
    if failed:
        raise UsageError("scenario", f"{ref}: {failed} expectation(s) fail; fix them first "
                         f"(python -m mtg_rulekit run {ref})")
    return scenario


def _by_rulings(ids: tuple[str, ...], notebooks: Path) -> list[Scenario]:
    """The shipped scenarios about any of the rulings `ids` (those named after a ruling first,
    else any that lists it), in ruling order, leaving out those another lesson shows."""
    from mtg_rulekit.scenario import load, shipped

    loaded = [(p.stem, load(p)) for p in shipped()]
    taken = _shown_by_others(notebooks)
    out: list[Scenario] = []
    skipped: list[str] = []
    for rid in ids:
        mine = [(stem, sc) for stem, sc in loaded if stem.startswith(rid.lower() + "_")] \
            or [(stem, sc) for stem, sc in loaded if rid in sc.rulings]
        for stem, sc in mine:
            if stem in taken:
                skipped.append(f"{stem} (lesson {taken[stem]})")
            elif not sc.pending and sc not in out:
                out.append(sc)
    if not out:
        shown = f": {', '.join(skipped)}" if skipped else ""
        raise UsageError("rulings", f"every shipped walkthrough about {', '.join(ids)} is in "
                         f"another lesson already{shown}; write your own (docs/scenarios.md) "
                         "and pass it with --scenario FILE")
    return out


def create(title: str, rulings: list[str] | tuple[str, ...] = (), *,
           scenarios: list[str] | tuple[str, ...] = (), goal: str = "",
           notebooks: Path = Path("notebooks"), template: Path | None = None) -> NewLesson:
    """Write `notebooks/NN_<slug>.ipynb` from the template and return what was written.
    Raises `UsageError` for an empty title or goal, an unknown ruling, a scenario that is not
    a shipped one or doesn't pass, or rulings without a walkthrough of their own."""
    from mtg_rulekit.core.rulings import all_rulings

    if not title.strip():
        raise UsageError("title", "a lesson needs a title")
    goal = " ".join(goal.split())
    if not goal:
        raise UsageError("goal", 'say what a student will be able to do after the lesson: '
                         '--goal "tell which spells Powerstone mana can pay for" (the index '
                         'shows it after "You will be able to")')
    if len(goal) > GOAL_LIMIT:
        raise UsageError("goal", f"{len(goal)} characters; at most {GOAL_LIMIT} (one line of "
                         "the index)")
    if goal[-1] not in ".!?":  # a sentence in the index, as the other goals are
        goal += "."
    known = all_rulings()
    ids = tuple(dict.fromkeys(r.strip().upper() for r in rulings if r.strip()))
    for rid in ids:
        if rid not in known:
            raise UsageError("rulings", f"no ruling {rid!r} (the kit knows {min(known)} to "
                             f"{max(known)}: python -m mtg_rulekit coverage lists them)")
    if scenarios:
        walks = [_walkthrough(ref) for ref in dict.fromkeys(scenarios)]
        listed = tuple(dict.fromkeys(r for sc in walks for r in sc.rulings))
        if not ids:
            ids = tuple(r for r in listed if r in known)
            if not ids:
                raise UsageError("rulings", "the scenarios list no ruling (`ruling = [\"R05\"]`"
                                 " at the top of the file), so name the rulings the lesson "
                                 "teaches: --rulings R05,R06")
        for sc in walks:
            if not set(sc.rulings) & set(ids):
                about = ", ".join(sc.rulings) or "no ruling"
                raise UsageError("scenario", f"{sc.path} is about {about}, none of the lesson's "
                                 f"rulings ({', '.join(ids)})")
    elif ids:
        walks = _by_rulings(ids, notebooks)
        # the rulings whose walkthroughs other lessons show already are taught there
        ids = tuple(rid for rid in ids if any(_teaches(Path(sc.path).stem, sc, rid)
                                              for sc in walks))
    else:
        raise UsageError("scenario", "name the lesson's walkthrough: --scenario FILE (a "
                         "scenario in mtg_rulekit/scenarios/), or its rulings: --rulings R05,R06")
    chosen = walks
    asked = sum("question" in step for sc in chosen for step in sc.steps)
    if asked < MIN_QUESTIONS:
        raise UsageError("scenario", f"the lesson's walkthroughs ask {asked} question(s); a "
                         f"lesson asks at least {MIN_QUESTIONS}: add a [step.question] where a "
                         "step decides something (docs/scenarios.md), or another --scenario")
    stems = [Path(sc.path).stem for sc in chosen]
    actions = sandbox_actions(chosen[0])
    template = template or notebooks / TEMPLATE
    if not template.is_file():
        raise UsageError("template", f"no template notebook at {template}")
    number = next_number(notebooks)
    path = notebooks / f"{number:02d}_{slug(title)}.ipynb"
    values = {"number": str(number), "title": markdown_text(" ".join(title.split())),
              "rulings": ", ".join(f'"{r}"' for r in ids),
              "sandbox_scenario": stems[0], "sandbox_actions": json.dumps(list(actions))}

    chapters = _chapters(ids, stems, chosen)
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
            for rids, mine in chapters:
                rs = [known[rid] for rid in rids]
                ruling = values | {
                    "ruling_id": ", ".join(rids),
                    "ruling_topic": "; ".join(markdown_text(r.topic) for r in rs),
                    "ruling_plain": " ".join(r.plain for r in rs),
                    "ruling_rules": ", ".join(dict.fromkeys(x for r in rs for x in r.rules))}
                j = 0
                while j < len(chapter):
                    if "per-walkthrough" not in chapter[j].metadata.get("tags", []):
                        cells.append(_copy(chapter[j], ruling))
                        j += 1
                        continue
                    group = _run(chapter, j, "per-walkthrough")
                    j += len(group)
                    for stem, sc in mine:
                        cells += [_copy(c, ruling | {"scenario": stem,
                                                     "scenario_title": markdown_text(sc.title)})
                                  for c in group]
        elif "per-walkthrough" in tags:
            group = _run(source.cells, i, "per-walkthrough")
            i += len(group)
            for stem, sc in zip(stems, chosen):
                cells += [_copy(c, values | {"scenario": stem,
                                             "scenario_title": markdown_text(sc.title)})
                          for c in group]
        else:
            cells.append(_copy(cell, values))
            i += 1
    _mark_glossary(cells)
    for n, cell in enumerate(cells):
        cell["id"] = f"{number:02d}-{n:02d}"
    metadata = nbformat.from_dict(dict(source.metadata))
    metadata["rulekit"] = {**metadata.get("rulekit", {}), "goal": goal}
    nb = nbformat.v4.new_notebook(cells=cells, metadata=metadata)
    nbformat.validate(nb)
    with open(path, "x", encoding="utf-8") as f:  # never overwrite a lesson
        f.write(nbformat.writes(nb) + "\n")
    return NewLesson(path, number, ids, tuple(stems), actions, goal)


def _mark_glossary(cells: list[nbformat.NotebookNode]) -> None:
    """Mark the first use of each glossary word in the lesson's own words (its Markdown before
    the sandbox) with `<dfn>`, as every lesson does (`mtg_rulekit.core.glossary`)."""
    from mtg_rulekit.core.glossary import mark_first_uses

    prose = []
    for cell in cells:
        if cell.cell_type != "markdown":
            continue
        if cell.source.lstrip().startswith("## Sandbox"):
            break
        prose.append(cell)
    for cell, text in zip(prose, mark_first_uses([c.source for c in prose])):
        cell.source = text


def _teaches(stem: str, scenario: Scenario, rid: str) -> bool:
    """Whether the walkthrough teaches ruling `rid` (it lists it, or is named after it)."""
    return rid in scenario.rulings or stem.startswith(rid.lower() + "_")


def _chapters(ids: tuple[str, ...], stems: list[str], chosen: list[Scenario]
              ) -> list[tuple[list[str], list[tuple[str, Scenario]]]]:
    """The lesson's chapters: (its rulings, its walkthroughs) in ruling order, each walkthrough
    in the chapter of the first ruling it teaches. A ruling whose walkthroughs are all in an
    earlier chapter joins that chapter (its heading names both); a ruling no walkthrough
    teaches is a `UsageError`."""
    chapters: list[tuple[list[str], list[tuple[str, Scenario]]]] = []
    placed: set[str] = set()
    for rid in ids:
        mine = [(stem, sc) for stem, sc in zip(stems, chosen)
                if stem not in placed and _teaches(stem, sc, rid)]
        if mine:
            chapters.append(([rid], mine))
            placed.update(stem for stem, _ in mine)
            continue
        home = next((ch for ch in chapters if any(_teaches(st, sc, rid) for st, sc in ch[1])),
                    None)
        if home is None:
            raise UsageError("rulings", f"no walkthrough of the lesson teaches {rid}: add a "
                             "--scenario about it, or leave it out of --rulings")
        home[0].append(rid)
    return chapters


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
