"""Save a sandbox session as a walkthrough: scenario TOML (docs/scenarios.md) of the set-up the
sandbox started from and each click that changed the game, as steps with placeholder narration
and expectations the engine observed, naming objects by labels, never by ids.

The set-up is read from the set-up actions that built the sandbox's board (`add`, `set_turn`,
`set_life`, `set_pool`); each later action is one `[[step]]`, its objects named by labels that
follow the same card through its zone changes (a label per card of the set-up; objects a step
creates are labelled with that step's `labels`, the first of each name). The expectations are
filled in by playing the file with the scenario runner itself and keeping what it saw, so
`python -m mtg_rulekit run FILE` passes the text unchanged.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from mtg_rulekit.core.decisions import NAMING_DECISIONS
from mtg_rulekit.core.errors import ScenarioError, UsageError
from mtg_rulekit.engine.actions import SETUP_ACTIONS
from mtg_rulekit.scenario.runner import play

if TYPE_CHECKING:
    from mtg_rulekit.game import Game
    from mtg_rulekit.sandbox import SandboxModel

PLACEHOLDER = "(Say what happens here, and why.)"
_IDS = re.compile(r" ?\(#\d+\)|#\d+")
_RESERVED = {"no", "yes", "n", "y", "true", "false", "none"}


def _label_for(name: str, taken: set[str]) -> str:
    short = name.split(",")[0]  # "Kiki-Jiki, Mirror Breaker" -> kiki_jiki
    base = re.sub(r"[^a-z0-9]+", "_", short.lower()).strip("_")[:30] or "card"
    if not base[0].isalpha():
        base = "c_" + base
    label, n = base, 1
    while label in taken or label in _RESERVED:
        n += 1
        label = f"{base}{n}"
    taken.add(label)
    return label


def _pool_entry(mana: dict[str, str]) -> str:
    restriction = mana.get("restriction")
    if restriction == "cavern":
        return f"{mana['type']} (cavern:{mana.get('creature_type', 'Human')})"
    return f"{mana['type']} (powerstone)" if restriction == "powerstone" else mana["type"]


class _NotSaved(Exception):
    """The session played back differs: something the scenario format can't name."""


class _Labels:
    """Labels for a game's objects as it is played: each label names its first object and
    follows it through its zone changes (CR 400.7), as the scenario runner does."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.first: dict[str, int] = {}
        self.taken: set[str] = set()

    def current(self, first: int) -> int:
        objects = self.game.state.objects
        obj = objects[first]
        while obj.moved_to is not None and obj.moved_to in objects:
            obj = objects[obj.moved_to]
        return obj.id

    def of(self, obj_id: int) -> str | None:
        for label, first in self.first.items():
            if self.current(first) == obj_id:
                return label
        return None

    def add(self, obj_id: int) -> str:
        label = _label_for(self.game.chars(obj_id).name, self.taken)
        self.first[label] = obj_id
        return label

    def ref(self, obj_id: Any) -> Any:
        """An object as the file names it: its label, else its card name."""
        if isinstance(obj_id, str):
            return obj_id  # a player
        return self.of(obj_id) or self.game.chars(obj_id).name


def _setup(model: SandboxModel) -> tuple[dict[str, Any], Game, _Labels]:
    from mtg_rulekit.game import Game

    names, life = model.game._init_args
    records = model.game.actions[:model.start]
    for name, _ in records:
        if name not in SETUP_ACTIONS:
            raise UsageError("sandbox", f"the sandbox's board was reached by playing "
                             f"({name}), not only set up, so it can't be written as a "
                             "scenario's set-up")
    game = Game(names, life=life)
    labels = _Labels(game)
    setup: dict[str, Any] = {"players": list(names)}
    if life != 20:
        setup["life"] = life
    perms: list[dict[str, Any]] = []
    zones: dict[str, dict[str, list[Any]]] = {}
    pool: dict[str, list[str]] = {}
    lives: dict[str, int] = {}
    for name, kwargs in records:
        made = game.perform(name, **kwargs)
        if name == "set_turn":
            for key in ("turn", "active", "step"):
                if kwargs.get(key) is not None:
                    setup[key] = kwargs[key]
        elif name == "set_life":
            lives[kwargs["player"]] = kwargs["life"]
        elif name == "set_pool":
            pool.setdefault(kwargs["player"], []).extend(_pool_entry(m) for m in kwargs["mana"])
        elif name == "add":
            label = labels.add(made.id)
            zone = kwargs.get("zone", "battlefield")
            if zone != "battlefield":
                zones.setdefault(zone, {}).setdefault(kwargs["player"], []).append(
                    {"card": kwargs["card"], "name": label})
                continue
            perm: dict[str, Any] = {"card": kwargs["card"], "name": label,
                                    "controller": kwargs["player"]}
            for key in ("owner", "tapped", "sick", "token", "attacking", "counters",
                        "choices"):
                if kwargs.get(key):
                    perm[key] = kwargs[key]
            if kwargs.get("attached_to") is not None:
                perm["attached_to"] = labels.ref(kwargs["attached_to"])
            perms.append(perm)
    if lives:
        setup["life"] = {p: lives.get(p, life) for p in names}
    if pool:
        setup["pool"] = pool
    for zone in ("library", "hand", "graveyard", "exile"):
        if zone in zones:
            setup[zone] = zones[zone]
    if perms:
        setup["permanent"] = perms
    return setup, game, labels


def _decision(key: str, answer: Any, labels: _Labels) -> Any:
    if key not in NAMING_DECISIONS and key != "pay_with":
        return answer
    if isinstance(answer, int) and not isinstance(answer, bool):
        return labels.ref(answer)
    if not isinstance(answer, str):
        return answer

    def named(m: re.Match[str]) -> str:
        found = labels.of(int(m.group(1)))
        return f"#{found}" if found else m.group(0)

    if key == "pay_with":
        return re.sub(r"#(\d+)", named, answer)
    ref, colon, rest = answer.partition(":")
    if ref.startswith("#") and ref[1:].isdigit():
        found = labels.ref(int(ref[1:]))
        return f"{found}:{rest}" if colon else found
    return answer


def _step(name: str, kwargs: dict[str, Any], labels: _Labels) -> dict[str, Any]:
    """One recorded action as a `[[step]]` (without narration and expectations)."""
    step: dict[str, Any] = {"do": name}
    for key, value in kwargs.items():
        if key == "decisions":
            step["decisions"] = {k: [_decision(k, a, labels) for a in v]
                                 for k, v in value.items()}
        elif key == "object":
            step["card" if name in ("play_land", "cast") else "object"] = labels.ref(value)
        elif key in ("targets", "attackers", "exert", "objects"):
            if value:
                step[key] = [labels.ref(v) for v in value]
        elif key in ("tap", "sacrifice"):
            step[key] = labels.ref(value)
        elif key == "blocks":
            step[key] = {labels.ref(int(b)): labels.ref(a) for b, a in value.items()}
        else:
            step[key] = value
    return step


def walkthrough(model: SandboxModel, *, title: str = "A sandbox session") -> str:
    """The session as scenario TOML text (see the module's docstring)."""
    from mtg_rulekit.scenario import model as scenario_model

    setup, game, labels = _setup(model)
    played = model.game
    steps: list[dict[str, Any]] = []
    for number, (name, kwargs) in enumerate(played.actions[model.start:], model.start + 1):
        step = _step(name, kwargs, labels)
        before = set(game.state.objects)
        game.perform(name, **kwargs)
        words = "; ".join(e.text for e in played.log.of_action(number)
                          if e.parent is None)
        said = _IDS.sub("", words).rstrip(".") or name
        step["narration"] = f"{said}. {PLACEHOLDER}"
        new: dict[str, str] = {}
        for obj_id in sorted(set(game.state.objects) - before):
            obj = game.state.objects[obj_id]
            card_name = game.chars(obj).name
            if labels.of(obj_id) is None and card_name not in new.values() and \
                    obj.zone.value != "nowhere":
                new[labels.add(obj_id)] = card_name
        if new:
            step["labels"] = new
        steps.append(step)
    if not steps:
        steps.append({"narration": f"The board the sandbox starts from. {PLACEHOLDER}",
                      "do": "look"})
    data: dict[str, Any] = {"title": title[:200], "description": PLACEHOLDER, "setup": setup,
                            "step": steps}
    try:
        return _with_expectations(data, scenario_model)
    except (ScenarioError, _NotSaved) as err:  # what the scenario format can't say
        raise UsageError("sandbox", f"this session can't be saved as a walkthrough: {err}") \
            from None


def _with_expectations(data: dict[str, Any], scenario_model: Any) -> str:
    """Fill each step's `[step.expect]` with what the runner saw after it and what the step
    changed: the turn, step or active player if they changed, life totals that changed,
    every pool, the stack, and for each labelled object whose zone, tapped status or
    counters changed (or that is new), those; and the kinds of event the step had."""
    text = scenario_model.dumps(data)
    results = play(scenario_model.loads(text, name="<walkthrough>"))
    for step, before, result in zip(data["step"], results, results[1:], strict=False):
        if step["do"] == "look":
            continue
        snap, old = result.snapshot, before.snapshot
        expect: dict[str, Any] = {k: snap[k] for k in ("turn", "step", "active")
                                  if snap[k] != old[k]}
        lives = {p["name"]: p["life"] for p in old["players"]}
        expect["life"] = {p["name"]: p["life"] for p in snap["players"]
                          if p["life"] != lives.get(p["name"])}
        now = {o["id"]: o for o in snap["objects"]}
        then = {o["id"]: o for o in old["objects"]}
        tapped, zone, counters = {}, {}, {}
        for label, obj_id in result.labels.items():
            obj = now.get(obj_id)
            if obj is None:
                continue
            was = then.get(before.labels.get(label, -1), {})
            if obj["zone"] != was.get("zone"):
                zone[label] = obj["zone"]
            if obj["zone"] == "battlefield":
                if bool(obj.get("tapped")) != bool(was.get("tapped")) or not was:
                    tapped[label] = bool(obj.get("tapped", False))
                if obj.get("counters", {}) != was.get("counters", {}):
                    counters[label] = dict(obj.get("counters", {}))
        expect.update(tapped=tapped, zone=zone, counters=counters)
        expect["events"] = sorted({e.kind.value for e in result.events})
        step["expect"] = {k: v for k, v in expect.items() if v != {} and v != []}
    # pools and the stack in the runner's own notation: ask it, then keep what it saw
    for step in data["step"]:
        if step["do"] != "look":
            step["expect"]["pool"] = {p: [] for p in data["setup"]["players"]}
            step["expect"]["stack"] = []
    results = play(scenario_model.loads(scenario_model.dumps(data), name="<walkthrough>"))
    for step, result in zip(data["step"], results[1:], strict=True):
        for check in result.checks:
            if not check.ok:
                key, _, sub = check.description.partition(".")
                if sub:
                    step["expect"][key][sub] = check.actual
                else:
                    step["expect"][key] = check.actual
    text = scenario_model.dumps(data)
    final = scenario_model.loads(text, name="<walkthrough>")
    if not all(r.ok for r in play(final)):  # e.g. a second new object of the same name, which no label can name
        raise _NotSaved("it doesn't play back the same: " + "; ".join(
            f"{c.description}: {c.expected} != {c.actual}" for r in play(final)
            for c in r.checks if not c.ok))
    return text
