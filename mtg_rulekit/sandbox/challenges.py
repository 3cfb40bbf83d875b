"""Challenges the engine checks, lichess Practice style: a lesson's sandbox offers a few goals
("Make exactly {B}{B} from one Forest"), each with its own starting board, a hint and the rule
that decides it. The student plays on the board; after every click the goal is read on the game
(written in the scenario expectation language: docs/scenarios.md, "Expectations", over the
board, the pools and everything logged since the try began). Reached: solved, with the rule.
A refused click, or a try that is over (its `over` expectations hold) without the goal: a
wrong try, and the hint shows. Each challenge starts (and starts again) on its own board.

A challenge is plain data (`Challenge`, declared in a lesson's sandbox file:
`mtg_rulekit.sandbox.lessons`), and travels in the sandbox's position, so the page checks it with
the same engine as the kernel. Standard library, the engine and the scenario player only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mtg_rulekit.core.errors import ScenarioError, UsageError

if TYPE_CHECKING:
    from mtg_rulekit.sandbox.model import Outcome, SandboxModel

__all__ = ["Challenge", "Practice", "attach"]


@dataclass(frozen=True)
class Challenge:
    """One challenge: `id` (unique in its sandbox), what the student reads (`say`), the `hint`
    shown after a wrong try, the `rule` that decides it (a CR number the kit lists), the
    `goal` and `over` expectations, its starting `position` (`SandboxModel.position()`'s
    players, life and actions; None: the board the sandbox was given) and `labels` (label ->
    object id on that board), and two
    lists of clicks: a reference `solution` and a common `mistake` (see
    `mtg_rulekit.sandbox.lessons.clicks`)."""

    id: str
    say: str
    hint: str
    rule: str
    goal: dict[str, Any]
    position: dict[str, Any] | None
    labels: dict[str, int]
    over: dict[str, Any] = field(default_factory=dict)
    solution: tuple[dict[str, Any], ...] = ()
    mistake: tuple[dict[str, Any], ...] = ()

    def to_json(self, given: dict[str, Any] | None = None) -> dict[str, Any]:
        """Everything, as JSON data (the page rebuilds it with `from_json`); its position
        None when it is `given`, the sandbox's own board (not repeated)."""
        position = None if self.position == given else self.position
        return {"id": self.id, "say": self.say, "hint": self.hint, "rule": self.rule,
                "goal": self.goal, "over": self.over, "position": position,
                "labels": self.labels, "solution": list(self.solution),
                "mistake": list(self.mistake)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Challenge:
        return cls(id=data["id"], say=data["say"], hint=data["hint"], rule=data["rule"],
                   goal=data["goal"], position=data.get("position"), labels=data["labels"],
                   over=data.get("over") or {}, solution=tuple(data.get("solution") or ()),
                   mistake=tuple(data.get("mistake") or ()))

    def shown(self) -> dict[str, Any]:
        """What a front-end shows of it: never the goal's expectations or the solution."""
        from mtg_rulekit.core.rules import rule

        found = rule(self.rule)
        return {"id": self.id, "say": self.say, "hint": self.hint, "rule": self.rule,
                "rule_title": found.title, "rule_words": found.summary}


class Practice:
    """A sandbox's challenges and the student's tries: the one being tried (`current`), where
    its try began in the log, and what each came to (`status`: "solved" once solved, else
    "wrong" after a wrong try, else "trying" or absent)."""

    def __init__(self, challenges: list[Challenge]) -> None:
        ids = [c.id for c in challenges]
        if len(set(ids)) != len(ids):
            raise UsageError("challenges", "two challenges have the same id")
        self.challenges = {c.id: c for c in challenges}
        self.current: str | None = None
        self.since = 0
        self.status: dict[str, str] = {}
        self.last = ""  # "solved", "wrong" or "" for the last click of the current try

    def start(self, model: SandboxModel, challenge_id: Any) -> Outcome:
        """Start (or start again) a challenge on its own board; "" leaves the challenges."""
        from mtg_rulekit.sandbox.model import Outcome

        if challenge_id in ("", None):
            self.current, self.last = None, ""
            return Outcome("done", "Free play: no challenge is being tried.")
        if not isinstance(challenge_id, str) or challenge_id not in self.challenges:
            return Outcome("refused", f"no challenge is called {str(challenge_id)[:40]!r}")
        challenge = self.challenges[challenge_id]
        model.switch(challenge.position or model.given())
        self.current, self.since, self.last = challenge.id, len(model.game.log), ""
        if self.status.get(challenge.id) != "solved":
            self.status[challenge.id] = "trying"
        return Outcome("done", f"Challenge: {challenge.say}")

    def after(self, model: SandboxModel, outcome: Outcome) -> None:
        """After a click: the current challenge's goal read on the game; solved, a wrong try,
        or still trying (`last`)."""
        self.last = ""
        if self.current is None:
            return
        challenge = self.challenges[self.current]
        if self.holds(model, challenge.goal):
            self.last = self.status[challenge.id] = "solved"
        elif outcome.kind == "refused" or (challenge.over and self.holds(model, challenge.over)):
            self.last = "wrong"
            if self.status.get(challenge.id) != "solved":
                self.status[challenge.id] = "wrong"

    def holds(self, model: SandboxModel, expect: dict[str, Any]) -> bool:
        """Whether every expectation in `expect` holds now, over the try's events."""
        from mtg_rulekit.scenario.runner import expectations_on

        challenge = self.challenges[self.current] if self.current else None
        labels = challenge.labels if challenge is not None else {}
        events = model.game.log.since(self.since)
        try:
            return all(c.ok for c in expectations_on(model.game, expect, events, labels=labels))
        except ScenarioError:  # something it names is gone from the board
            return False

    def to_json(self) -> dict[str, Any]:
        """What the front-end shows: each challenge (`Challenge.shown`), the one being tried,
        each one's status, and what the last click came to."""
        return {"challenges": [c.shown() for c in self.challenges.values()],
                "current": self.current, "status": dict(self.status), "last": self.last}


def attach(model: SandboxModel, challenges: Any) -> SandboxModel:
    """`model` with the challenges of its position (JSON data, as `Challenge.to_json` gives
    them; None: none) to practise."""
    if challenges:
        if not isinstance(challenges, list) or not all(isinstance(c, dict) for c in challenges):
            raise UsageError("challenges", "expected a list of challenges")
        try:
            model.practice = Practice([Challenge.from_json(c) for c in challenges])
        except (KeyError, TypeError) as err:
            raise UsageError("challenges", f"a challenge is missing {err}") from None
    return model
