"""A lesson's sandbox as data: one TOML file in `mtg_rulekit/sandboxes/` (docs/scenarios.md, "A
lesson's sandbox") with the board it starts from (a scenario's `[setup]`), what it offers
(`offers`, `cards`) and its `[[challenge]]`s, each with a goal in the scenario expectation
language, a hint, the deciding rule, a reference solution and a common mistake (as clicks on
the board), and, if it needs one, a board of its own. A lesson notebook's sandbox cell is
`Sandbox("03_tapped_for_mana_triggers_and_replacements")`; `python -m mtg_rulekit challenges` plays
every reference solution.

>>> sandbox = load(find("03_tapped_for_mana_triggers_and_replacements"))
>>> sandbox.offers, [c.id for c in sandbox.challenges][:1]
(['mana'], ['four-green'])
>>> played = play(sandbox, sandbox.challenges[0])
>>> played.solved, played.mistake_wrong
(True, True)
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mtg_rulekit.core.errors import ScenarioError, UsageError
from mtg_rulekit.sandbox.challenges import Challenge, attach

if TYPE_CHECKING:
    from mtg_rulekit.sandbox.model import Outcome, SandboxModel
    from mtg_rulekit.scenario.source import LineMap

__all__ = ["LessonSandbox", "Played", "cell_model", "clicks", "find", "load", "play",
           "play_click", "sandbox_schema", "shipped", "shipped_dir"]

BAR = ("undo", "pass", "resolve", "step", "turn")
"""The time bar's buttons a click can name (`{ bar = "resolve" }`)."""
MAX_CHALLENGES = 10
MAX_CLICKS = 40


def shipped_dir() -> Path:
    """The lesson sandboxes shipped with the kit (`mtg_rulekit/sandboxes/`)."""
    return Path(str(resources.files("mtg_rulekit").joinpath("sandboxes")))


def shipped() -> list[Path]:
    """Every shipped lesson sandbox file, by name (the lesson's notebook name)."""
    return sorted(shipped_dir().glob("*.toml"))


def find(name: str | os.PathLike[str]) -> Path:
    """A lesson sandbox file by path, or by the name of a shipped one
    ("03_tapped_for_mana_triggers_and_replacements", with or without .toml)."""
    path = Path(name)
    if path.is_file():
        return path
    text = os.fspath(name)
    candidate = shipped_dir() / (text if text.endswith(".toml") else f"{text}.toml")
    if candidate.is_file():
        return candidate
    raise FileNotFoundError(f"no lesson sandbox {text!r} (neither a file nor one of "
                            f"{', '.join(p.stem for p in shipped())})")


_CELL = re.compile(r'Sandbox\("([^"\\]+)"(?:,\s*actions=(\[[^\]]*\]))?\)')


def cell_model(source: str) -> SandboxModel | None:
    """The model a lesson's sandbox cell shows, read without running the cell: its last line
    `Sandbox("NAME")` (a lesson sandbox file, `find`) or `Sandbox("scenario", actions=[...])`
    (a scenario's set-up, as `new-lesson` writes it); None for any other cell."""
    import json

    lines = source.strip().splitlines()
    m = _CELL.fullmatch(lines[-1].strip()) if lines else None
    if m is None:
        return None
    name, actions = m.groups()
    try:
        path = find(name)
    except FileNotFoundError:
        from mtg_rulekit.sandbox.model import SandboxModel
        from mtg_rulekit.scenario import game_at
        from mtg_rulekit.scenario import load as load_scenario
        from mtg_rulekit.scenario import shipped_dir as scenarios

        scenario = Path(name) if Path(name).is_file() else \
            scenarios() / (name if name.endswith(".toml") else f"{name}.toml")
        offered = json.loads(actions) if actions else None
        return SandboxModel(game_at(load_scenario(scenario), 0), actions=offered)
    return load(path).model()


@cache
def sandbox_schema() -> dict[str, Any]:
    """The JSON Schema of a lesson sandbox file: the scenario format's set-up and expectations
    (`mtg_rulekit/scenario/schema.json`'s definitions), what the sandbox offers, its challenges."""
    from mtg_rulekit.sandbox.model import ACTION_KINDS
    from mtg_rulekit.scenario.model import schema

    text = {"type": "string", "minLength": 1}
    ref = {"$ref": "#/$defs/ref"}
    click = {
        "type": "object", "additionalProperties": False,
        "properties": {
            "card": {"$ref": "#/$defs/label"},
            "do": {**text, "maxLength": 300},
            "mana": {"enum": list("WUBRGC")},
            "x": {"type": "integer", "minimum": 0, "maximum": 1000},
            "target": ref,
            "targets": {"type": "array", "items": ref, "maxItems": 100},
            "choices": {"type": "object", "maxProperties": 10,
                        "additionalProperties": {"type": "string", "maxLength": 200}},
            "bar": {"enum": list(BAR)},
        },
        "oneOf": [{"required": ["card", "do"]}, {"required": ["bar"]}],
        "x-message": "a click is { card = LABEL, do = \"menu entry\" } or { bar = \"resolve\" }",
    }
    clicks_ = {"type": "array", "minItems": 1, "maxItems": MAX_CLICKS, "items": click}
    challenge = {
        "type": "object", "additionalProperties": False,
        "required": ["id", "say", "hint", "rule", "goal", "solution"],
        "properties": {
            "id": {"type": "string", "pattern": "^[a-z0-9][a-z0-9-]{0,39}$",
                   "x-message": "an id is lowercase letters, digits and - (e.g. \"four-green\")"},
            "say": {**text, "maxLength": 300},
            "hint": {**text, "maxLength": 400},
            "rule": {"type": "string", "pattern": "^[0-9]{3}(\\.[0-9]+[a-z]?)?$",
                     "x-message": "a rule is a CR number such as \"302.6\""},
            "goal": {"$ref": "#/$defs/expect"},
            "over": {"$ref": "#/$defs/expect"},
            "setup": {"$ref": "#/$defs/setup"},
            "solution": clicks_,
            "mistake": clicks_,
        },
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "rulekit lesson sandbox",
        "type": "object", "additionalProperties": False, "required": ["title", "setup"],
        "properties": {
            "title": {**text, "maxLength": 200},
            "offers": {"type": "array", "uniqueItems": True,
                       "items": {"enum": list(ACTION_KINDS)}},
            "cards": {"type": "array", "uniqueItems": True, "maxItems": 500,
                      "items": {"type": "string", "maxLength": 100}},
            "history": {"type": "integer", "minimum": 0, "maximum": 100},
            "setup": {"$ref": "#/$defs/setup"},
            "challenge": {"type": "array", "maxItems": MAX_CHALLENGES, "items": challenge},
        },
        "$defs": schema()["$defs"],
    }


@dataclass(frozen=True)
class LessonSandbox:
    """A loaded lesson sandbox: its `title`, what it `offers` (None: every kind), free play's
    `cards` (None: the catalog), the diagram's `history`, the `position` its board starts from
    and its `challenges`."""

    path: str
    title: str
    offers: list[str] | None
    cards: list[str] | None
    history: int
    position: dict[str, Any]
    labels: dict[str, int]
    challenges: list[Challenge] = field(default_factory=list)

    def model(self) -> SandboxModel:
        """A fresh sandbox on this board, with these challenges to practise."""
        from mtg_rulekit.sandbox.model import SandboxModel

        model = SandboxModel.from_position({**self.position, "history": self.history,
                                            **({"offers": self.offers} if self.offers else {}),
                                            **({"cards": self.cards} if self.cards else {})})
        return attach(model, [c.to_json() for c in self.challenges])


def _pseudo(title: str, setup: dict[str, Any], expects: list[dict[str, Any]]) -> dict[str, Any]:
    """A scenario with `setup` and a `look` step per expectation table: what the scenario
    checks validate (and the runner plays) for a sandbox's board and a challenge."""
    steps = [{"narration": "a goal", "do": "look", "expect": e} for e in expects]
    return {"title": title, "setup": setup,
            "step": steps or [{"narration": "the board", "do": "look"}]}


def _remapped(lines: LineMap, prefix: tuple[Any, ...], own_setup: bool,
              parts: list[str]) -> LineMap:
    """`lines` read for a pseudo scenario of a challenge at `prefix`: its set-up where the
    challenge's own (or the file's) is written, step k's expectations at the k-th of `parts`
    ("goal", "over")."""
    from mtg_rulekit.scenario.source import LineMap

    out: dict[tuple[Any, ...], int] = {**lines.lines, (): lines.line(prefix)}
    for path, line in lines.lines.items():
        if own_setup and path[:len(prefix) + 1] == prefix + ("setup",):
            out[("setup",) + path[len(prefix) + 1:]] = line
        elif not own_setup and path[:1] == ("setup",):
            out[path] = line
        for k, part in enumerate(parts):
            if path[:len(prefix) + 1] == prefix + (part,):
                out[("step", k, "expect") + path[len(prefix) + 1:]] = line
                out[("step", k)] = lines.line(prefix + (part,))
    return LineMap(out)


def _relocated(message: str, at: tuple[Any, ...], parts: list[str], own_setup: bool) -> str:
    """A pseudo scenario's message with its location written as the challenge's."""
    from mtg_rulekit.scenario.model import where

    for k, part in enumerate(parts):
        message = message.replace(f"step {k + 1}: expect", where(at + (part,)), 1)
    if own_setup:
        message = message.replace(": setup", ": " + where(at + ("setup",)), 1)
    return message


def _board(title: str, setup: dict[str, Any]) -> tuple[dict[str, Any], dict[str, int]]:
    """The position a set-up builds (players, life, actions) and its labels' object ids."""
    from mtg_rulekit.sandbox.model import SandboxModel
    from mtg_rulekit.scenario.model import Scenario
    from mtg_rulekit.scenario.runner import play as play_scenario

    result = play_scenario(Scenario(spec=_pseudo(title, setup, [])))[0]
    position = SandboxModel(result.game).position()
    assert position is not None  # a set-up's arguments are plain data
    return {k: position[k] for k in ("players", "life", "actions")}, dict(result.labels)


def load(path: str | os.PathLike[str]) -> LessonSandbox:
    """Read and check a lesson sandbox file; ScenarioError (`file:line: message`) if it is
    bad: the scenario checks for its set-ups and goals (cards, players, labels), each rule one
    the kit lists, each click naming a label of its board."""
    from mtg_rulekit.scenario.model import (
        _check_numbers,
        _check_schema,
        _display,
        _Validator,
        capped,
    )
    from mtg_rulekit.scenario.source import parse, read_text

    name = _display(path)
    try:
        data, lines = parse(read_text(path, name), name)
        _check_numbers(data, lines, name)
        _check_schema(data, lines, name, sandbox_schema())
        title = data["title"]
        _Validator(_pseudo(title, data["setup"], []), lines, name).run()
        position, labels = _board(title, data["setup"])
        challenges: list[Challenge] = []
        for i, c in enumerate(data.get("challenge", [])):
            at = ("challenge", i)
            if any(o.id == c["id"] for o in challenges):
                raise ScenarioError(f"challenge[{i}].id: {c['id']!r} is used twice",
                                    path=name, line=lines.line(at + ("id",)))
            parts = ["goal"] + (["over"] if "over" in c else [])
            check = _Validator(_pseudo(title, c.get("setup", data["setup"]),
                                       [c[p] for p in parts]),
                               _remapped(lines, at, "setup" in c, parts), name)
            try:
                check.run()
            except ScenarioError as err:  # said where the challenge writes it
                raise ScenarioError(_relocated(str(err), at, parts, "setup" in c),
                                    path=name, line=err.line) from None
            check.listed_rule(at + ("rule",), c["rule"])
            for key in ("solution", "mistake"):
                for k, click in enumerate(c.get(key, [])):
                    for ref in [click.get("card"), click.get("target"),
                                *click.get("targets", [])]:
                        if ref is not None:
                            check.ref(at + (key, k), ref, players=ref != click.get("card"))
            own = _board(title, c["setup"]) if "setup" in c else (position, labels)
            challenge = Challenge(
                id=c["id"], say=c["say"], hint=c["hint"], rule=c["rule"], goal=c["goal"],
                over=c.get("over", {}), position=own[0], labels=own[1],
                solution=tuple(c["solution"]), mistake=tuple(c.get("mistake", ())))
            if _holds_at_start(challenge):
                raise ScenarioError(f"challenge[{i}].goal: it holds on the challenge's "
                                    "starting board already: nothing to do",
                                    path=name, line=lines.line(at + ("goal",)))
            challenges.append(challenge)
    except ScenarioError as err:
        raise capped(err) from None
    return LessonSandbox(path=name, title=title, offers=data.get("offers"),
                         cards=data.get("cards"), history=data.get("history", 3),
                         position=position, labels=labels, challenges=challenges)


def _holds_at_start(challenge: Challenge) -> bool:
    from mtg_rulekit.sandbox.challenges import Practice
    from mtg_rulekit.sandbox.model import SandboxModel

    assert challenge.position is not None  # a loaded challenge has its board
    model = SandboxModel.from_position({**challenge.position, "history": 0})
    practice = Practice([challenge])
    practice.start(model, challenge.id)
    return practice.holds(model, challenge.goal)


# ------------------------------------------------------------------ clicks on the board
def _now(model: SandboxModel, first: int) -> int:
    """The object a label's first id is now (a card that changed zones is a new object)."""
    objects = model.game.state.objects
    obj = objects[first]
    while obj.moved_to is not None and obj.moved_to in objects:
        obj = objects[obj.moved_to]
    return obj.id


def _named(model: SandboxModel, labels: dict[str, int], ref: str) -> int | str:
    if ref in model.game.state.players:
        return ref
    if ref not in labels:
        raise UsageError("click", f"{ref!r} is neither a label of this board nor a player")
    return _now(model, labels[ref])


def play_click(model: SandboxModel, click: dict[str, Any], labels: dict[str, int]) -> Outcome:
    """One click as a student makes it on the board: a button of the time bar
    (`{bar = "resolve"}`), or a card's menu entry by its words (`{card = LABEL, do = "Tap for
    {G}"}`) with what its pickers choose: `mana`, `x`, `target` (a label or a player),
    `targets` (the others destroyed with it) and the engine's decisions (`choices`, answers by
    label or as written). A menu entry that isn't there is a UsageError listing the entries."""
    if "bar" in click:
        return model.click(click["bar"], {})
    card = _named(model, labels, click["card"])
    entries = model.card_actions().get(card, []) if isinstance(card, int) else []
    entry = next((e for e in entries if e["label"] == click["do"]), None)
    if entry is None:
        offered = "; ".join(repr(e["label"]) for e in entries) or "nothing"
        raise UsageError("click", f"{click['card']} offers no {click['do']!r} now (it offers "
                                  f"{offered})")
    values = dict(entry["values"])
    for key in ("mana", "x"):
        if key in click:
            values[key] = click[key]
    if "target" in click:
        values["target"] = _named(model, labels, click["target"])
    if "targets" in click:
        values["to_destroy"] = [*values.get("to_destroy", []),
                                *(_named(model, labels, t) for t in click["targets"])]
    if click.get("choices"):
        answers = []
        for key, answer in click["choices"].items():
            said = f"#{_named(model, labels, answer)}" if answer in labels else answer
            answers.append(f"{key}={said}")
        values["choices"] = "; ".join(answers)
    return model.click(entry["action"], values)


def clicks(model: SandboxModel, steps: list[dict[str, Any]] | tuple[dict[str, Any], ...],
           labels: dict[str, int]) -> list[Outcome]:
    """Each click of `steps` in turn (`play_click`); their outcomes."""
    return [play_click(model, step, labels) for step in steps]


@dataclass(frozen=True)
class Played:
    """What playing a challenge's clicks came to: `solved` by the reference solution (and the
    messages it gave), `mistake_wrong` when its mistake was answered as a wrong try (with the
    hint), None without a mistake."""

    solved: bool
    said: list[str]
    mistake_wrong: bool | None


def play(sandbox: LessonSandbox, challenge: Challenge) -> Played:
    """Play `challenge`'s reference solution, then (from its start again) its mistake, on a
    fresh sandbox, clicking as a student does."""
    model = sandbox.model()
    model.click("challenge", {"challenge": challenge.id})
    outcomes = clicks(model, challenge.solution, challenge.labels)
    solved = model.practice.status.get(challenge.id) == "solved"
    wrong: bool | None = None
    if challenge.mistake:
        fresh = sandbox.model()
        fresh.click("challenge", {"challenge": challenge.id})
        clicks(fresh, challenge.mistake, challenge.labels)
        wrong = fresh.practice.last == "wrong"
    return Played(solved, [o.text for o in outcomes], wrong)
