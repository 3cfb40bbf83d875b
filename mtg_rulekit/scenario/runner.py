"""Playing a scenario on the engine: set-up, one action per step, expectations checked after it.

The runner only translates: labels to object ids, step tables to `Game.perform` calls, and the
game's state to the notation of expectations. It never fixes up what the engine does.
"""

from __future__ import annotations

import inspect
import json
import re
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

from mtg_rulekit.core.errors import RulesError, ScenarioError, UsageError
from mtg_rulekit.core.events import Event, EventKind
from mtg_rulekit.core.mana import (
    ManaType,
    notation_parts,
    notation_shown,
    sort_notation,
    unit_notation,
)
from mtg_rulekit.core.payloads import ManaSpent
from mtg_rulekit.engine import arguments
from mtg_rulekit.engine.actions import ACTIONS
from mtg_rulekit.engine.arguments import ACTION_ARGS
from mtg_rulekit.objects.state import GameObject, Step, Zone
from mtg_rulekit.scenario.model import (
    CHARACTERISTIC_LISTS,
    QUESTION_REFUSED,
    capped,
    question_rules,
    split_choice,
)

if TYPE_CHECKING:
    from mtg_rulekit.game import Game
    from mtg_rulekit.scenario.model import Scenario



@dataclass(frozen=True)
class Check:
    """One expectation after a step: what was checked (`description`, written like the TOML
    key, e.g. `pool.Alice`), the expected and the actual value (in the scenario's notation),
    whether it held, and the line where the expectation is written."""

    description: str
    expected: Any
    actual: Any
    ok: bool
    line: int = 0

    def __iter__(self):  # (description, expected, actual, ok) unpacking
        return iter((self.description, self.expected, self.actual, self.ok))

    def to_json(self) -> dict[str, Any]:
        return {"what": self.description, "expected": self.expected, "actual": self.actual,
                "ok": self.ok, "line": self.line}


@dataclass(frozen=True)
class Question:
    """A step's question, answered by the engine: what is asked (`ask`), about what (`about`,
    the TOML's words), the choices offered as written (`choices`, empty for a typed number or
    word) with their words (`labels`: "Yes", "No: it arrived this turn", "4"), the engine's own
    answer (`answer`, in the expectation's notation), which choice it is (`correct`, None
    without choices), the rules that decide it (`rules`: the question's `rule`), the other
    rules the step's events cite (`other_rules`) and the one-line reason (`why`)."""

    ask: str
    about: str
    choices: tuple[Any, ...]
    labels: tuple[str, ...]
    answer: Any
    correct: int | None
    rules: tuple[str, ...]
    why: str = ""
    other_rules: tuple[str, ...] = ()

    @property
    def answer_label(self) -> str:
        """The answer in words: the right choice's label, else the value's words."""
        if self.correct is not None:
            return self.labels[self.correct]
        return answer_words(self.answer, self.about)

    def to_json(self) -> dict[str, Any]:
        return {"ask": self.ask, "about": self.about,
                "choices": [split_choice(c)[0] for c in self.choices],
                "labels": list(self.labels), "answer": self.answer,
                "answer_label": self.answer_label, "correct": self.correct,
                "rules": list(self.rules), "other_rules": list(self.other_rules),
                "why": self.why}


def answer_words(value: Any, about: str = "") -> str:
    """An answer as a student reads it: mana (`about` a pool or what was spent) in the notation
    every view shows, `["G", "C (powerstone)"]` -> "{G} and {C} (not for nonartifact spells)";
    `[]` -> "nothing", `{"+1/+1": 3}` -> "+1/+1 x3", `True` -> "yes", "302.6" -> "refused
    (CR 302.6)", "allowed" -> "allowed"."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list) and value and about.startswith(("pool.", "spent.")):
        return notation_shown(value)
    if isinstance(value, list):
        return ", ".join(answer_words(v, about) for v in value) if value else "nothing"
    if isinstance(value, str) and about.startswith(("pool.", "spent.")):
        return notation_shown(value)
    if isinstance(value, dict):
        return ", ".join(f"{k} x{v}" for k, v in value.items()) if value else "none"
    if isinstance(value, str) and re.fullmatch(r"[0-9]{3}(\.[0-9]+[a-z]?)?", value):
        return f"refused (CR {value})"
    return str(value)


@dataclass
class StepResult:
    """What happened in one step. `number` 0 is the set-up. `events` are the events this step
    added to the log (empty for an expected error: a refused action leaves no trace);
    `snapshot` is `Game.snapshot()` after the step; `error` the RulesError the step expected
    (None otherwise); `labels` maps every label bound so far to its object's current id;
    `game` rebuilds the `Game` as it was after this step (by replaying: a fresh copy each time).
    `line` is where the step starts in the file; `actions` the game's recorded actions so far;
    `notes` the step's speaker notes ("" without), for the teacher's eyes only."""

    number: int
    narration: str
    action: dict[str, Any]
    events: list[Event]
    snapshot: dict[str, Any]
    error: RulesError | None = None
    checks: list[Check] = field(default_factory=list)
    labels: dict[str, int] = field(default_factory=dict)
    line: int = 0
    actions: list[tuple[str, dict[str, Any]]] = field(default_factory=list, repr=False)
    init: tuple[tuple[str, ...], int] = field(default=(("Alice", "Bob"), 20), repr=False)
    notes: str = ""  # the step's speaker notes (for the teacher; never in the narration)
    question: Question | None = None  # asked before this step, answered by it

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks)

    @property
    def failures(self) -> list[Check]:
        return [c for c in self.checks if not c.ok]

    @property
    def game(self) -> Game:
        """A new `Game` as it was after this step, rebuilt by replaying the recorded actions
        (each access builds a fresh one: change it freely, e.g. in a sandbox)."""
        from mtg_rulekit.game import Game

        game = Game(self.init[0], life=self.init[1])
        for name, kwargs in self.actions:
            game.perform(name, **kwargs)
        return game


# ---------------------------------------------------------------------------- notation
def _pool_items(pool: Any) -> list[tuple[Any, int]]:
    """A pool's mana one by one when small (how scenarios write it), counted when huge."""
    return [(u, 1) for u, n in pool.parts for _ in range(n)] if pool.total <= 64 else list(pool.parts)


def notation(unit: Any) -> str:
    """One mana in expectation notation: its type, its restriction in parentheses, then what
    it does when spent (CR 106.6) after a `+`: `"G"`, `"C (powerstone)"`, `"R +haste"`
    (Arena of Glory), `"W (cavern:Elf) +uncounterable"` (Cavern of Souls)."""
    text = unit_notation(unit)
    return f"{text} +{unit.rider.key}" if unit.rider is not None else text


def _controller_named(entry: str, players: list[str]) -> str | None:
    """`"Hangarback Walker (Bob)"` -> "Bob" when Bob is a player, else None."""
    if entry.endswith(")") and " (" in entry:
        who = entry[entry.rindex(" (") + 2:-1]
        return who if who in players else None
    return None


# ---------------------------------------------------------------------------- running
class _Runner:
    def __init__(self, scenario: Scenario) -> None:
        from mtg_rulekit.game import Game

        self.sc = scenario
        setup = scenario.spec["setup"]
        self.players = scenario.players
        life = setup.get("life", 20)
        self.base_life = life if isinstance(life, int) else 20
        self.game = Game(self.players, life=self.base_life)
        self.labels: dict[str, int] = {}  # label -> the id it was first given
        self.unbound: dict[str, int] = {}  # label -> step that failed to bind it
        self.undone: dict[str, int] = {}  # label -> the step whose undo took its object back
        self.step_actions: list[int] = []  # game actions of each step that took any, in order
        self.ahead: dict[str, int] = {}  # labels of the current step's new objects, tried ahead

    # -- labels and references
    def current(self, obj_id: int) -> GameObject:
        """Follow the object through its zone changes (CR 400.7: each is a new object)."""
        objects = self.game.state.objects
        obj = objects[obj_id]
        seen = 0
        while obj.moved_to is not None and obj.moved_to in objects and seen < 10_000:
            obj = objects[obj.moved_to]
            seen += 1
        return obj

    def label_of(self, obj_id: int) -> str | None:
        for label, first in self.labels.items():
            if self.current(first).id == obj_id:
                return label
        return None

    def resolve(self, ref: str, path: tuple[Any, ...], *, zone: Zone | None = Zone.BATTLEFIELD,
                players: bool = False) -> Any:
        if ref in self.labels:
            return self.current(self.labels[ref]).id
        if ref in self.unbound:
            self.fail(path, f"the label {ref!r} was never bound: step {self.unbound[ref]} created "
                      "no such object")
        if ref in self.undone:
            self.fail(path, f"the label {ref!r} names an object the undo in step "
                      f"{self.undone[ref]} took back")
        if players and ref in self.players:
            return ref
        found = self.game.find_all(_card_name(ref), zone=zone)
        if not found:
            where = {Zone.BATTLEFIELD: " on the battlefield", Zone.HAND: " in a hand"}.get(
                zone, f" in the {zone.value}" if zone else "")  # type: ignore[arg-type]
            self.fail(path, f"there is nothing called {ref!r}{where} to use here"
                      f"{self._did_you_mean(ref)}")
        return found[0].id

    def _did_you_mean(self, ref: str) -> str:
        import difflib

        close = difflib.get_close_matches(ref, [*self.labels, *self.players], n=1, cutoff=0.6)
        return f"; did you mean {close[0]!r}?" if close else ""

    def fail(self, path: tuple[Any, ...], message: str) -> None:
        from mtg_rulekit.scenario.model import _at, where

        raise ScenarioError(f"{_at(where(path))}{message}", path=self.sc.path,
                            line=self.sc.lines.line(path))

    # -- set-up
    def setup(self) -> StepResult:
        sc, game = self.sc, self.game
        setup = sc.spec["setup"]
        game.perform("set_turn", turn=setup.get("turn", 1),
                     active=setup.get("active", self.players[0]),
                     step=setup.get("step", Step.MAIN1.value))
        life = setup.get("life")
        if isinstance(life, dict):
            for player, total in life.items():
                self._setup(("setup", "life", player), "set_life", player=player, life=total)
        perms = list(enumerate(setup.get("permanent", [])))
        placed: set[str] = set()
        while perms:  # hosts before what is attached to them, else in file order
            n = next((n for n, (_, p) in enumerate(perms)
                      if p.get("attached_to") is None or p["attached_to"] in placed), 0)
            i, perm = perms.pop(n)
            status = {k: perm[k] for k in ("tapped", "sick", "counters", "choices", "owner",
                                           "token", "attacking") if k in perm}
            if "attached_to" in perm:
                status["attached_to"] = self.current(self.labels[perm["attached_to"]]).id
            obj = self._setup(("setup", "permanent", i), "add", card=_card_name(perm["card"]),
                              player=perm.get("controller",
                                              setup.get("active", self.players[0])),
                              zone="battlefield", **status)
            if "name" in perm:
                self.labels[perm["name"]] = obj.id
                placed.add(perm["name"])
        for zone in ("library", "hand", "graveyard", "exile"):
            for player, entries in setup.get(zone, {}).items():
                for entry in entries:
                    card_name = entry if isinstance(entry, str) else entry["card"]
                    obj = self._setup(("setup", zone, player), "add",
                                      card=_card_name(card_name), player=player, zone=zone)
                    if isinstance(entry, dict) and "name" in entry:
                        self.labels[entry["name"]] = obj.id
        for player, mana in setup.get("pool", {}).items():
            self._setup(("setup", "pool", player), "set_pool", player=player,
                        mana=[notation_parts(m) for m in mana])
        return StepResult(
            number=0, narration=sc.intro or sc.title, action={"do": "set-up"},
            events=list(game.log), snapshot=game.snapshot(), labels=self._label_ids(),
            line=sc.line("setup"), actions=list(game.actions),
            init=(tuple(self.players), self.base_life))

    def _undo(self, n: Any, number: int, at: tuple[Any, ...]) -> None:
        """Take back `n` of the steps' actions; never the set-up (its labels would dangle)."""
        game = self.game
        taken = len(self.step_actions)
        if isinstance(n, int) and n > taken:
            self.fail(at + (("n",) if "n" in self.sc.steps[number - 1] else ("do",)),
                      f"undo n = {n} reaches into the set-up: the steps so far took "
                      f"{taken} action(s), and undo takes back only those")
        # a step's action can be several of the game's (advance with resolve_triggers = false)
        game.undo(sum(self.step_actions[-n:]) if isinstance(n, int) and n > 0 else n)
        del self.step_actions[-n:]
        for label, first in list(self.labels.items()):  # objects the undo took back
            if first not in game.state.objects:
                del self.labels[label]
                self.undone[label] = number

    def _setup(self, path: tuple[Any, ...], name: str, **kwargs: Any) -> Any:
        try:
            return self.game.perform(name, **kwargs)
        except (RulesError, UsageError) as err:
            self.fail(path, f"can't set this up: {err}")

    def _label_ids(self) -> dict[str, int]:
        return {label: self.current(first).id for label, first in self.labels.items()}

    # -- steps
    def step(self, index: int) -> StepResult:
        sc, game = self.sc, self.game
        step = sc.steps[index]
        number = index + 1
        at = ("step", index)
        mark = len(game.log)
        actions_before = len(game.actions)
        before_ids = set(game.state.objects)
        before_snapshot = game.snapshot_json()
        error: RulesError | None = None
        checks: list[Check] = []
        self.ahead = self._labels_ahead(step, at)
        try:
            call = self._call(step, at)
        finally:
            self.ahead = {}
        expected_error = step.get("expect_error")
        if call is not None:
            name, kwargs = call
            try:
                if name == "undo":
                    self._undo(kwargs["n"], number, at)
                else:
                    if "player" in step and name != "gain_control":
                        self._who_acts(name, step["player"], kwargs["object"])
                    if name == "advance" and step.get("resolve_triggers") is False:
                        self._advance_to_beginning(kwargs, at)
                    else:
                        game.perform(name, **kwargs)
                    self.step_actions.append(len(game.actions) - actions_before)
            except RulesError as err:
                if expected_error is None:
                    hint = f'expect_error = {{ rule = "{err.rule}" }}' if err.rule else \
                        f'expect_error = {{ contains = "{err.reason[:40]}" }}'
                    if "x" not in step and "value for X" in err.reason:  # X left out
                        self.fail(at + ("do",), f"the action was refused: {err}. Give the "
                                  f"value of X with x = 1 (or the X you mean) in this step; if "
                                  f"the refusal is the point of the step, add {hint}")
                    self.fail(at + ("do",), f"the action was refused: {err}. If that is the "
                              f"point of the step, add {hint}")
                error = err
            except ScenarioError:
                raise
            except UsageError as err:
                self.fail(at + ("do",), str(err))
            except Exception as err:  # an engine bug: say so plainly, no traceback
                self.fail(at + ("do",), f"the engine failed ({type(err).__name__}: {err}); "
                          "this is a bug in rulekit, not in the scenario")
        if expected_error is not None:
            checks.append(self._error_check(expected_error, error, at))
            if error is not None:
                same = game.snapshot_json() == before_snapshot and len(game.log) == mark
                checks.append(Check("nothing changed", True, same, same,
                                    sc.lines.line(at + ("expect_error",))))
        self._limits(at)
        events = list(game.log.since(mark)) if len(game.log) >= mark else []
        if step.get("do") == "undo":
            events = []
        for label, card_name in step.get("labels", {}).items():
            checks.append(self._bind(label, card_name, before_ids, number, at))
        checks += self._expect(step.get("expect", {}), events, at + ("expect",))
        question = self._question(step["question"], error, events, at + ("question",)) \
            if "question" in step else None
        action = {k: v for k, v in step.items()
                  if k not in ("narration", "notes", "expect", "question")}
        return StepResult(
            number=number, narration=step["narration"], notes=step.get("notes", ""),
            action=action, events=events,
            snapshot=game.snapshot(), error=error, checks=checks, labels=self._label_ids(),
            line=sc.lines.line(at), actions=list(game.actions),
            init=(tuple(self.players), self.base_life), question=question)

    def _question(self, q: dict[str, Any], error: RulesError | None, events: list[Event],
                  at: tuple[Any, ...]) -> Question:
        """The engine's answer to the step's question; with choices, exactly one of them must
        be it (else the file is unusable: a question whose right answer isn't offered, or is
        offered twice, teaches nothing)."""
        from mtg_rulekit.scenario.wording import choice_label

        about = str(q["about"])
        choices = tuple(q.get("choices", ()))
        values = [split_choice(c)[0] for c in choices]
        key = about.partition(".")[0]
        if about == QUESTION_REFUSED:
            answer: Any = error.rule if error is not None and error.rule else \
                ("refused" if error is not None else "allowed")
            fits = [str(c) == answer for c in values]
        else:
            key, _, sub = about.partition(".")
            answer = self._actual(key, sub or None, None, events, at + ("about",))
            fits = [self._compare(about, key, c, answer, at).ok for c in values]
        if choices and fits.count(True) != 1:
            said = answer_words(answer)  # as the file writes it
            self.fail(at + ("choices",), f"none of the choices is what the engine does ({said})"
                      if not any(fits) else f"more than one choice is right ({said})")
        deciding = tuple(question_rules(q))
        cited = [error.rule] if error is not None and error.rule else \
            sorted({rule for e in events for rule in e.rules})
        labels = tuple(choice_label(key, *split_choice(c)) for c in choices)
        return Question(str(q["ask"]), about, choices, labels, jsonable(answer),
                        fits.index(True) if choices else None, deciding,
                        why=str(q.get("why", "")),
                        other_rules=tuple(r for r in cited if r not in deciding))

    def _labels_ahead(self, step: dict[str, Any], at: tuple[Any, ...]) -> dict[str, int]:
        """Labels this step gives to objects it creates, used by its own decisions (the token
        copy of a legend kept by `legend_keep`): the step is tried once without those answers,
        the new objects' ids noted, and the try taken back (the engine is deterministic, so the
        same action makes the same objects with the same ids)."""
        wanted = set(step.get("labels", {})) - set(self.labels)
        answers = step.get("decisions", {})
        named = {v for value in answers.values()
                 for v in (value if isinstance(value, list) else [value]) if isinstance(v, str)}
        if not wanted & named or step.get("do") in ("look", "undo"):
            return {}
        trial = {k: v for k, v in step.items() if k != "decisions"}
        trial["decisions"] = {
            k: kept for k, v in answers.items()
            if (kept := [x for x in (v if isinstance(v, list) else [v]) if x not in wanted])}
        if not trial["decisions"]:
            del trial["decisions"]
        game = self.game
        before, done = set(game.state.objects), len(game.actions)
        call = self._call(trial, at)
        if call is None:
            return {}
        try:
            game.perform(call[0], **call[1])
        except (RulesError, UsageError):
            return {}  # the real try says what is wrong
        found: dict[str, int] = {}
        try:
            for label, card_name in step["labels"].items():
                if label in wanted & named:
                    new = self._new_object(card_name, before)
                    if new is not None:
                        found[label] = new
        finally:
            game.undo(len(game.actions) - done)
        return found

    def _new_object(self, card_name: str, before: set[int]) -> int | None:
        """The first object that appeared since `before` with that name (not one that is only
        an old object in a new zone, and no labelled one)."""
        game = self.game
        objects = game.state.objects
        successors = {o.moved_to for o in objects.values() if o.moved_to is not None}
        taken = set(self.labels.values())
        name = _card_name(card_name)
        for i in sorted(i for i in objects if i not in before and i not in successors
                        and i not in taken):
            if name in (game.chars(objects[i]).name, objects[i].card.name):
                return i
        return None

    def _advance_to_beginning(self, kwargs: dict[str, Any], at: tuple[Any, ...]) -> None:
        """`advance` with `resolve_triggers = false`: every player passes in turn (CR 117.4)
        until step `to` (or the next step) begins, and stops there, before anyone passes
        again: what triggered as it began waits on the stack (CR 603.3: triggered abilities go on
        the stack the next time a player would receive priority). Triggers of the steps on the
        way resolve, as with a plain `advance`. Either it gets there or the
        game is as it was."""
        game = self.game
        if "decisions" in kwargs:
            self.fail(at + ("decisions",), "an advance with resolve_triggers = false takes no "
                      "decisions: the triggers wait on the stack; answer them in the next step")
        target = Step(kwargs["to"]) if kwargs.get("to") else None
        if target is Step.UNTAP:
            game.perform("advance", to="untap")  # the engine's refusal (CR 502.4)
        start, seen = len(game.actions), len(game.log)
        try:
            for _ in range(_MAX_PASSES):
                before = game.state.step
                game.perform("pass_priority")
                began = any(e.kind is EventKind.STEP_BEGAN for e in game.log.since(seen))
                seen = len(game.log)
                if began and (target is None or game.state.step is target):
                    return
                if (target in (Step.DECLARE_BLOCKERS, Step.COMBAT_DAMAGE)
                        and before is Step.DECLARE_ATTACKERS
                        and game.state.step is Step.END_COMBAT):
                    raise RulesError(f"there is no {target.label} this turn: no creature "
                                     "attacked, so combat goes straight to the end of combat "
                                     "step", rule="508.8")
            where = target.label if target else "the next step"
            raise RulesError(f"passing priority {_MAX_PASSES} times did not reach {where}")
        except BaseException:
            if len(game.actions) > start:
                game.undo(len(game.actions) - start)
            raise

    def _who_acts(self, name: str, player: str, obj_id: int) -> None:
        """`player = "Alice"` on a step: the action is Alice's. Refused, as the engine refuses
        what the rules forbid (a RulesError, nothing changed), when the rules give it to
        someone else: an object's controller activates its abilities (CR 602.2), and a player
        casts their own cards (CR 601.3)."""
        game = self.game
        obj = game.obj(obj_id)
        if name == "cast":
            if obj.owner != player:
                raise RulesError(f"{player} can't cast {game.describe(obj)}: it is "
                                 f"{obj.owner}'s card, in {obj.owner}'s {obj.zone.value}",
                                 rule="601.3")
            return
        controller = game.controller_of(obj)
        if controller != player:
            raise RulesError(f"{player} can't activate an ability of {game.describe(obj)}: "
                             f"{controller} controls it, and only an object's controller "
                             "activates its abilities", rule="602.2")

    def _limits(self, at: tuple[Any, ...]) -> None:
        """What a step may build (docs/scenarios.md, "Limits"): refused at the step's line."""
        from mtg_rulekit.scenario.model import MAX_COUNTERS, MAX_OBJECTS

        state = self.game.state
        if len(state.objects) > MAX_OBJECTS:
            self.fail(at + ("do",), f"after this step the game holds {len(state.objects):,} "
                      f"objects: more than a lesson can follow (limit {MAX_OBJECTS:,})")
        counters = sum(n for o in state.battlefield() for n in o.counters.values())
        if counters > MAX_COUNTERS:
            self.fail(at + ("do",), f"after this step the permanents have {counters:,} "
                      f"counters: more than a lesson can follow (limit {MAX_COUNTERS:,})")

    def _call(self, step: dict[str, Any], at: tuple[Any, ...]) -> tuple[str, dict[str, Any]] | None:
        """The action call a step makes: its arguments are the action's own (`ACTION_ARGS`),
        each read from the step key of its name (labels and card names become objects, by
        what the argument's check takes); one the step leaves out takes the action's default."""
        do = step["do"]
        if do == "look":
            return None
        if do == "undo":
            return "undo", {"n": step.get("n", 1)}
        defaults = _defaults(do)
        kw: dict[str, Any] = {}
        for name, param in ACTION_ARGS[do].items():
            if name == "object" and do in NAMES_CARD_IN_HAND and "object" not in step:
                kw[name] = self.resolve(step["card"], at + ("card",), zone=Zone.HAND)
            elif name == "ability":  # by its index, or words of its text
                kw[name] = self._ability(kw["object"], step.get(name), at)
            elif name in step:
                kw[name] = self._argument(param.check, step[name], at + (name,))
            else:
                kw[name] = defaults.get(name)
        decisions = self._decisions(step.get("decisions", {}), at + ("decisions",))
        if decisions:
            kw["decisions"] = decisions
        return do, kw

    def _argument(self, check: arguments.Check, value: Any, at: tuple[Any, ...]) -> Any:
        """A step's value for an argument checked by `check`: objects (and targets, players
        too) by label, card name or id; the rest as written."""
        check = getattr(check, "__wrapped__", check)  # optional(...)
        if check is arguments.object_id:
            return self.resolve(value, at)
        if check is arguments.object_ids:
            return [self.resolve(r, at) for r in value]
        if check is arguments.targets:
            return [self.resolve(t, at, players=True) for t in value]
        if check is arguments.blocks:
            return {str(self.resolve(b, at + (b,))): self.resolve(a, at + (b,))
                    for b, a in value.items()}
        return value

    def _ability(self, obj_id: int, ability: Any, at: tuple[Any, ...]) -> int | None:
        if ability is None or isinstance(ability, int):
            return ability
        from mtg_rulekit.objects.abilities import Activated

        abilities = self.game.chars(self.game.obj(obj_id)).abilities
        matches = [i for i, a in enumerate(abilities)
                   if isinstance(a, Activated) and ability.casefold() in a.text.casefold()]
        if len(matches) != 1:
            texts = "; ".join(f"{i}: {a.text}" for i, a in enumerate(abilities)
                              if isinstance(a, Activated))
            what = "no" if not matches else "more than one"
            self.fail(at + ("ability",), f"{what} ability of {self.game.describe(obj_id)} "
                      f"matches {ability!r} (its abilities: {texts or 'none'})")
        return matches[0]

    def _decisions(self, decisions: dict[str, Any], at: tuple[Any, ...]) -> dict[str, list[Any]]:
        out: dict[str, list[Any]] = {}
        for key, value in decisions.items():
            values = value if isinstance(value, list) else [value]
            out[key] = [self._decision_value(key, v, at + (key,)) for v in values]
        return out

    def _decision_value(self, key: str, value: Any, at: tuple[Any, ...]) -> Any:
        """Labels become object ids. An answer that must name an object (`OBJECT_DECISIONS`,
        `target`) and is no label is a card name in some zone, a player (`target`) or `no`
        (`copy`); anything else is the author's typo, reported here with "did you mean"."""
        from mtg_rulekit.core.decisions import OBJECT_DECISIONS

        if not isinstance(value, str):
            return value
        if value in self.ahead:
            return self.ahead[value]
        if key == "pay_with":
            return self._pay_with(value, at)
        if key == "mana_abilities":
            ref, colon, mana = value.partition(":")
            obj = self._source(ref, at)
            return f"#{str(obj).lstrip('#')}:{mana}" if colon else obj
        if key == "trigger_order" and value not in self.labels and (
                self.is_card_name(value) or _object_number(value)):
            return value  # the engine takes a source's id or its name
        if value in self.labels or value in self.unbound or value in self.undone:
            return self.resolve(value, at)
        if key not in OBJECT_DECISIONS | {"target", "trigger_order"} or value.startswith("#") or \
                (key == "copy" and value == "no") or (key == "target" and value in self.players):
            return value
        return self.resolve(value, at, zone=None)

    def is_card_name(self, value: str) -> bool:
        from mtg_rulekit.cards import card

        try:
            card(value)
        except UsageError:  # not text, or an `UnknownCard`
            return False
        return True

    def _source(self, ref: str, at: tuple[Any, ...]) -> int | str:
        """A mana source named in a decision: `#7` or `7` as is, else a label or a card name
        on the battlefield (with "did you mean" for a typo)."""
        ref = ref.strip()
        if _object_number(ref):
            return ref
        return int(self.resolve(ref, at))

    def _pay_with(self, text: str, at: tuple[Any, ...]) -> str:
        """`pay_with` with its sources named by label: `"C from stone1"` and `"C#stone1"` both
        become `"C#7"` (the {C} that came from object 7); `"C#7"` stays as it is."""
        def by_label(m: re.Match[str]) -> str:
            ref = m.group(2) or m.group(3)
            source = self._source(ref, at)
            return f"{m.group(1)}#{str(source).lstrip('#')}"

        return _PAY_SOURCE.sub(by_label, text)

    def _error_check(self, expected: dict[str, Any], error: RulesError | None,
                     at: tuple[Any, ...]) -> Check:
        parts = []
        if "rule" in expected:
            parts.append(f"CR {expected['rule']}")
        if "contains" in expected:
            parts.append(f"containing {expected['contains']!r}")
        want = "refused" + (f" ({', '.join(parts)})" if parts else "")
        line = self.sc.lines.line(at + ("expect_error",))
        if error is None:
            return Check("expect_error", want, "the action was allowed", False, line)
        ok = ("rule" not in expected or error.rule == expected["rule"]) and (
            "contains" not in expected or expected["contains"].casefold() in str(error).casefold())
        return Check("expect_error", want, f"refused: {error}", ok, line)

    def _bind(self, label: str, card_name: str, before: set[int], number: int,
              at: tuple[Any, ...]) -> Check:
        game = self.game
        name = _card_name(card_name)
        line = self.sc.lines.line(at + ("labels", label))
        found = self._new_object(card_name, before)
        if found is not None:
            self.labels[label] = found
            return Check(f"labels.{label}", f"a new {name}", game.describe(found), True, line)
        self.unbound[label] = number
        return Check(f"labels.{label}", f"a new {name}", "no new object by that name", False, line)

    # -- expectations
    def _expect(self, exp: dict[str, Any], events: list[Event], at: tuple[Any, ...]) -> list[Check]:
        from mtg_rulekit.scenario.model import EXPECT_ORDER

        checks: list[Check] = []
        for key in EXPECT_ORDER:
            if key not in exp:
                continue
            value = exp[key]
            if isinstance(value, dict) and key not in ("contents",):
                for sub, want in value.items():
                    path = at + (key, sub)
                    got = self._actual(key, sub, want, events, path)
                    checks.append(self._compare(f"{key}.{sub}", key, want, got, path))
            elif key == "contents":
                for player, zones in value.items():
                    for zone, want in zones.items():
                        path = at + (key, player, zone)
                        got = self._contents(player, zone)
                        checks.append(Check(f"contents.{player}.{zone}", sorted(want), got,
                                            sorted(want) == got, self.sc.lines.line(path)))
            else:
                path = at + (key,)
                got = self._actual(key, None, value, events, path)
                checks.append(self._compare(key, key, value, got, path))
        return checks

    def _compare(self, what: str, key: str, want: Any, got: Any, path: tuple[Any, ...]) -> Check:
        line = self.sc.lines.line(path)
        if key == "pool":
            want = sort_notation(list(want))
            return Check(what, want, got, want == got, line)
        if key in ("could_produce", "colors", "spent"):
            want = sort_notation(list(want))
            return Check(what, want, got, want == got, line)
        if key in CHARACTERISTIC_LISTS:
            want = sorted(want)
            return Check(what, want, got, want == got, line)
        if key == "counters":
            want = {k: v for k, v in want.items() if v}
            return Check(what, want, got, want == got, line)
        if key == "events":
            missing = [k for k in want if k not in got]
            return Check(what, want, got, not missing, line)
        if key == "no_events":
            present = [k for k in want if k in got]
            return Check(what, want, present, not present, line)
        if key in ("rules", "log"):
            return Check(what, want, got, got == want, line)
        return Check(what, want, got, want == got, line)

    def _actual(self, key: str, sub: str | None, want: Any, events: list[Event],
                path: tuple[Any, ...]) -> Any:
        """What the game shows for expectation `key` (read by its reader in `EXPECTATIONS`)."""
        return EXPECTATIONS[key](self, Asked(key, sub, want, events, path))

    def _object(self, ref: str, path: tuple[Any, ...]) -> int:
        return self.resolve(ref, path, zone=Zone.BATTLEFIELD)

    def _triggered(self, ref: str, events: list[Event]) -> int:
        """How many times an ability of `ref` triggered in this step: triggered mana abilities
        log TRIGGERED, the others PUT_ON_STACK (CR 603.2, 603.3)."""
        game = self.game
        kinds = (EventKind.TRIGGERED, EventKind.PUT_ON_STACK)
        if ref in self.labels:
            ids = self._chain(self.labels[ref])
            return sum(1 for e in events if e.kind in kinds and e.subject in ids)
        name = _card_name(ref)
        count = 0
        for e in events:
            if e.kind in kinds and e.subject is not None and e.subject in game.state.objects:
                if game.chars(game.state.objects[e.subject]).name == name:
                    count += 1
        return count

    def _chain(self, first: int) -> set[int]:
        objects = self.game.state.objects
        ids, cur = {first}, objects[first]
        while cur.moved_to is not None and cur.moved_to in objects and cur.moved_to not in ids:
            ids.add(cur.moved_to)
            cur = objects[cur.moved_to]
        return ids

    def _contents(self, player: str, zone: str) -> list[str]:
        game, state = self.game, self.game.state
        if zone == "battlefield":
            objs = game.permanents(player)
        else:
            objs = state.owned_in(Zone(zone), player)
        return sorted(game.chars(o).name for o in objs)


def characteristic(game: Game, obj: GameObject, key: str) -> Any:
    """One characteristic of `obj` as it is now, after all effects (CR 109.3, 613), in scenario
    notation: `types`, `subtypes`, `supertypes`, `keywords`, `abilities` (their rules text) as
    sorted lists, `colors` as mana letters in WUBRG order, `mana_value` as a number. Mana value
    counts X as the number chosen for it while the object is on the stack, 0 elsewhere
    (CR 202.3e): `obj.x` holds that number on the stack and is 0 in every other zone."""
    chars = game.chars(obj)
    if key == "mana_value":
        return chars.mana_cost.mana_value() + chars.mana_cost.x_count * obj.x
    if key == "colors":
        return sort_notation([c.value for c in chars.colors])
    if key == "keywords":
        from mtg_rulekit.objects.abilities import Keyword

        return sorted(a.keyword for a in chars.abilities if isinstance(a, Keyword) and a.keyword)
    if key == "abilities":
        return sorted(a.text for a in chars.abilities)
    return sorted(getattr(chars, key))


_MAX_PASSES = 400  # priority passes an advance to the beginning of a step may take

_PAY_SOURCE = re.compile(r"(\{?[WUBRGCwubrgc]\}?)(?:\s+from\s+([^\s,]+)|#([A-Za-z_][\w]*))")


def _object_number(text: str) -> bool:
    """`7` or `#7`: an object id as the engine writes it (ASCII digits only)."""
    digits = text.removeprefix("#")
    return digits.isascii() and digits.isdigit()


def _card_name(name: str) -> str:
    from mtg_rulekit.cards import card

    try:
        return card(name).name
    except UsageError:  # not text, or an `UnknownCard`
        return name


NAMES_CARD_IN_HAND = ("play_land", "cast")
"""Actions a step may give by the card's name (`card`), found in the player's hand."""


@cache
def _defaults(action: str) -> dict[str, Any]:
    """The action's own defaults, from its signature (`engine/actions.py`)."""
    signature = inspect.signature(ACTIONS[action])
    return {name: p.default for name, p in signature.parameters.items()
            if p.default is not inspect.Parameter.empty}


def play(scenario: Scenario) -> list[StepResult]:
    """Play the scenario: `results[0]` is the set-up, `results[k]` step k. Played once per
    scenario object and remembered. Raises ScenarioError when the file can't be played (an
    illegal action that is not marked `expect_error`, a label that was never bound); failed
    expectations are in each result's `checks`."""
    key = id(scenario)
    if key not in _PLAYED:
        try:
            results = _play(scenario)
        except ScenarioError as err:
            raise capped(err) from None
        _PLAYED[key] = results
        weakref.finalize(scenario, _PLAYED.pop, key, None)
    return list(_PLAYED[key])


def game_at(scenario: Scenario, k: int) -> Game:
    """The game as it was after step k of `scenario` (0 = after the set-up), rebuilt by
    replaying the recorded actions (the engine is deterministic)."""
    results = play(scenario)
    if not 0 <= k < len(results):
        raise IndexError(f"step {k} is not in this scenario (0 to {len(results) - 1})")
    return results[k].game


_PLAYED: dict[int, list[StepResult]] = {}
"""Each live scenario's results, by object (dropped when the scenario is)."""


def _play(scenario: Scenario) -> list[StepResult]:
    """Play every step (no memo)."""
    runner = _Runner(scenario)
    results = [_guard(scenario, ("setup",), runner.setup)]
    for i in range(len(scenario.steps)):
        try:
            results.append(_guard(scenario, ("step", i), runner.step, i))
        except ScenarioError as err:
            # the steps played before it: their failed expectations are reported too
            err.played = list(results)  # type: ignore[attr-defined]
            raise
        if results[-1].question is not None:
            results[-1].checks.append(_hidden_answer(scenario, results))
    return results


def expectations_on(game: Game, expect: dict[str, Any], events: list[Event], *,
                    labels: dict[str, int], path: tuple[Any, ...] = ("expect",)) -> list[Check]:
    """A step's expectations (`expect`, as a scenario writes them) read on `game` as it is now,
    with `events` as the step's events and `labels` naming its objects (label -> the id each
    was first given; a label follows its card through zone changes): how a sandbox checks a
    challenge's goal after each click. A reference to nothing on the board is a
    ScenarioError."""
    from mtg_rulekit.scenario.model import Scenario

    runner = _Runner(Scenario(spec={"setup": {"players": list(game.state.players)},
                                    "step": []}))
    runner.game = game
    runner.labels = dict(labels)
    return runner._expect(expect, events, path)


def _hidden_answer(scenario: Scenario, results: list[StepResult]) -> Check:
    """The last result's question against what is on screen before it is asked
    (`wording.answer_on_screen`): the set-up's words, every earlier step's narration and the
    refusal of the step it is asked after. The words of the question itself are not counted:
    they set the scene."""
    from mtg_rulekit.scenario.wording import answer_on_screen

    result = results[-1]
    q = result.question
    assert q is not None
    k = result.number
    shown = [("the set-up", scenario.intro)]
    shown += [(f"step {r.number}'s narration", r.narration) for r in results[1:k]]
    if k > 1 and results[k - 1].error is not None:
        shown.append((f"step {k - 1}'s refusal", str(results[k - 1].error)))
    label = q.labels[q.correct] if q.correct is not None else None
    found = answer_on_screen(q.rules, label, shown)
    return Check("question: its answer is not on screen before it", "hidden",
                 "; ".join(found) if found else "hidden", not found,
                 scenario.line("step", k - 1, "question"))


def played_before(err: ScenarioError) -> list[StepResult]:
    """The steps played before the step that made the file unusable (`[]` if none were)."""
    return list(getattr(err, "played", []))


def _guard(scenario: Scenario, path: tuple[Any, ...], fn: Any, *args: Any) -> StepResult:
    """Anything but a ScenarioError escaping a step is the engine's fault: one line, no
    traceback (the runner doesn't paper over it)."""
    from mtg_rulekit.scenario.model import _at, where

    try:
        return fn(*args)
    except ScenarioError:
        raise
    except (RulesError, UsageError) as err:
        raise ScenarioError(f"{_at(where(path))}{err}", path=scenario.path,
                            line=scenario.lines.line(path)) from None
    except Exception as err:
        raise ScenarioError(f"{_at(where(path))}the engine failed ({type(err).__name__}: "
                            f"{err}); this is a bug in rulekit, not in the scenario",
                            path=scenario.path, line=scenario.lines.line(path)) from err


def jsonable(value: Any) -> Any:
    """Plain JSON data for anything the engine logs (events' data can hold engine objects)."""
    return json.loads(json.dumps(value, default=_default, sort_keys=True))


def _default(value: Any) -> Any:
    """Engine objects that have no JSON form of their own (for example a ContinuousEffect or
    Characteristics in an event's data) are shown by their text or name, never by a repr
    (which could hold memory addresses and change from run to run)."""
    if hasattr(value, "to_json"):
        return value.to_json()
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=str)
    if isinstance(value, (ManaType, Zone, Step)):
        return value.value
    for attr in ("text", "name"):
        shown = getattr(value, attr, None)
        if isinstance(shown, str) and shown:
            return shown
    return type(value).__name__


@dataclass(frozen=True)
class Asked:
    """What an expectation reader is asked: the expectation, the table's key (a player, a
    label, a card name, a decision key), the value written, this step's events and where it is
    written."""

    key: str
    sub: str | None
    want: Any
    events: list[Event]
    path: tuple[Any, ...]


Reader = Callable[["_Runner", Asked], Any]
# expectation name -> how the game is read for it, declared once (as `COMMITS` is for events);
# `scenario.model.EXPECT_ORDER` lists the same names (a test checks), "contents" aside
EXPECTATIONS: dict[str, Reader] = {}


def _reads(*keys: str) -> Callable[[Reader], Reader]:
    def register(fn: Reader) -> Reader:
        for key in keys:
            EXPECTATIONS[key] = fn
        return fn
    return register


def _reads_object(*keys: str) -> Callable[[Callable[[_Runner, GameObject, Asked], Any]], Reader]:
    """A reader of the object the table's key names (a label, or a card on the battlefield)."""
    def register(fn: Callable[[_Runner, GameObject, Asked], Any]) -> Reader:
        def read(r: _Runner, q: Asked) -> Any:
            return fn(r, r.game.obj(r._object(str(q.sub), q.path)), q)
        for key in keys:
            EXPECTATIONS[key] = read
        return read
    return register


def _pool_text(pool: Any) -> list[str]:
    return sort_notation([notation(u) if n == 1 else f"{n} x {notation(u)}"
                          for u, n in _pool_items(pool)])


_reads("turn")(lambda r, q: r.game.state.turn)
_reads("step")(lambda r, q: r.game.state.step.value)
_reads("active")(lambda r, q: r.game.state.active)
_reads("life")(lambda r, q: r.game.state.players[str(q.sub)].life)
_reads("pool")(lambda r, q: _pool_text(r.game.state.players[str(q.sub)].pool))


@_reads("count")
def _count(r: _Runner, q: Asked) -> int:
    name = _card_name(str(q.sub))
    return sum(1 for o in r.game.state.battlefield() if r.game.chars(o).name == name)


@_reads("tokens")
def _tokens(r: _Runner, q: Asked) -> int:
    name = _card_name(str(q.sub))
    return sum(1 for o in r.game.state.battlefield() if o.token and r.game.chars(o).name == name)


@_reads("stack")
def _stack(r: _Runner, q: Asked) -> list[str]:
    """"Name", or "Name (Player)" to say who controls it."""
    named = [isinstance(w, str) and _controller_named(w, r.players) is not None for w in q.want]
    return [f"{item.source_name} ({item.controller})" if named[i:i + 1] == [True]
            else item.source_name for i, item in enumerate(r.game.state.stack)]


@_reads("spent")
def _spent(r: _Runner, q: Asked) -> list[str]:
    return sort_notation([notation(u) if n == 1 else f"{n} x {notation(u)}"
                          for e in q.events if isinstance(e.payload, ManaSpent)
                          and e.payload.player == q.sub
                          for u, n in _pool_items(e.payload.mana)])


@_reads("decided")
def _decided(r: _Runner, q: Asked) -> Any:
    """Who made this step's decisions of that kind (CR 616.1, 603.3b...)."""
    first = q.events[0].id if q.events else r.game.log.next_id
    who = [d.player for d in r.game.decisions if d.key == q.sub and d.event >= first]
    want = q.want
    if isinstance(want, str):
        return who[0] if len(set(who)) == 1 else who
    if all(a != b for a, b in zip(want, want[1:], strict=False)):
        # "Alice, then Bob": who chose in which order, however many prompts each had
        return [p for i, p in enumerate(who) if i == 0 or who[i - 1] != p]
    return who


_reads("events", "no_events")(lambda r, q: sorted({e.kind.value for e in q.events}))


@_reads("rules")
def _rules(r: _Runner, q: Asked) -> list[str]:
    cited = {rule for e in q.events for rule in e.rules}
    return [rule for rule in q.want if rule in cited]


@_reads("log")
def _log(r: _Runner, q: Asked) -> list[str]:
    texts = [e.text.casefold() for e in q.events]
    return [s for s in q.want if any(s.casefold() in t for t in texts)]


_reads("triggered")(lambda r, q: r._triggered(str(q.sub), q.events))
_reads_object("tapped")(lambda r, obj, q: obj.tapped)
_reads_object("sick")(lambda r, obj, q: obj.sick)
_reads_object("counters")(lambda r, obj, q: {k: v for k, v in sorted(obj.counters.items()) if v})
_reads_object("damage")(lambda r, obj, q: obj.damage)
_reads_object("zone")(lambda r, obj, q: obj.zone.value)
_reads_object("controller")(lambda r, obj, q: r.game.controller_of(obj))
_reads_object("could_produce")(
    lambda r, obj, q: sort_notation([t.value for t in r.game.could_produce(obj)]))


@_reads_object(*CHARACTERISTIC_LISTS, "mana_value")
def _characteristic(r: _Runner, obj: GameObject, q: Asked) -> Any:
    return characteristic(r.game, obj, q.key)


@_reads_object("pt")
def _pt(r: _Runner, obj: GameObject, q: Asked) -> str:
    chars = r.game.chars(obj)
    if chars.power is None or chars.toughness is None:
        return "not a creature"
    return f"{chars.power}/{chars.toughness}"


@_reads_object("attached")
def _attached(r: _Runner, obj: GameObject, q: Asked) -> Any:
    host = obj.attached_to
    if host is None:
        return "nothing"
    want_id = r._object(q.want, q.path)
    return q.want if host == want_id else (r.label_of(host) or r.game.describe(host))
