"""Seeded fuzzing of the Game API against the error contract ("Keep it honest").

Each sequence sets up a random board from the whole catalog (`mtg_rulekit.cards.catalog()`), then
plays random calls of every public action (`mtg_rulekit.engine.actions.ACTIONS`, through the `Game`
methods), with decisions (`mtg_rulekit.core.decisions.DECISIONS`), mixing likely-legal calls, illegal
ones and malformed arguments. After every call it checks the contract:

- only `RulesError` or `UsageError` may escape (anything else is a finding);
- a refused call leaves the game exactly as it was (`snapshot_json()`, log length, actions);
- a misspelled decision key is refused, not ignored;
- `log.dumps()` works after every call that was done, every pool holds real mana in positive
  amounts, and the zone bookkeeping agrees (`inconsistencies`);

and at the end that `replay()` and `undo(n)` give back the same state and log, byte for byte
(so a refused call that left anything in the log, even unserialisable, is caught there too).

It also tries what reliability review 4 found: a call interrupted (`KeyboardInterrupt`, as
Jupyter's "Interrupt kernel" raises it) at a random event must leave the state, log, records
and decisions exactly as they were; junk includes values nested 100,000 deep, values whose
`repr` fails and hex, octal and binary literals; the kernel `Sandbox` widget gets random and
hostile messages (nothing may escape its handler, and a refusal changes nothing); and shipped
scenarios with one value made hostile (a 5,000-digit hex literal, deep nesting, a list inside
a question's choice) must load and play, or be refused with one `ScenarioError`.

    python tests/fuzz.py [--sequences 10000] [--seed 0] [--actions 24] [--only N] [--show N]

prints a summary table (calls by kind, refusals by rule, usage errors by argument, findings) and
exits 1 if there is any finding. `make fuzz` runs it; tests/test_fuzz.py runs a bounded slice.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from mtg_rulekit import Game, RulesError, ScenarioError, Step, UsageError, Zone
from mtg_rulekit.cards import catalog
from mtg_rulekit.core.decisions import DECISIONS, OBJECT_DECISIONS
from mtg_rulekit.engine.commit import COMMITS
from mtg_rulekit.engine.targets import candidates
from mtg_rulekit.objects.abilities import Activated, ManaAbility, SpellAbility
from mtg_rulekit.objects.state import GameObject

CARDS: list[str] = sorted(catalog())
STEPS = [s.value for s in Step]
MANA = ["W", "U", "B", "R", "G", "C"]
PLAYERS = ("Alice", "Bob")
COUNTERS = ["+1/+1", "-1/-1", "charge", "storage"]
CREATURE_TYPES = ["Elf", "Human", "Goblin", "Thopter", "Wall"]
REPLACEMENTS = ["Mana Reflection", "Nyxbloom Ancient", "Hardened Scales", "Contamination",
                "Vivid Crag", "Watery Grave", "Clone"]


def nested(kind: type, depth: int = 100_000) -> Any:
    """A list (or dict) nested `depth` deep, built without recursion."""
    top = kind()
    cur = top
    for _ in range(depth):
        new = kind()
        if kind is list:
            cur.append(new)
        else:
            cur["k"] = new
        cur = new
    return top


class Unprintable:
    """A value whose own `repr` fails: a refusal must still quote something."""

    def __repr__(self) -> str:
        raise RuntimeError("no repr")


# argument values that mean nothing for any parameter: the contract says UsageError/RulesError
JUNK: list[Any] = [None, "nope", -1, 0, 1.5, "2", "#1", [], {}, [None], {1: None}, 10**18,
                   True, "", "\x1b[2J", ("x",), float("nan"),
                   # what reliability review 3 found the list lacked: digits other than 0-9,
                   # numbers past Python's 4,300-digit printing limit, infinities
                   "²", "#²", "٣", "#１", 10**5000, -(10**5000), "9" * 5000, float("inf"),
                   float("-inf")]
# and what review 4 found: deep nesting, a failing repr, non-decimal literals as text and as
# long numbers, text far over any bound (drawn from the second stream, `Fuzzer.more`)
JUNK_4: list[Any] = [nested(list), nested(dict), Unprintable(), [Unprintable()], "0x10",
                     "0b101", "0o17", "1_000", "0x" + "f" * 5000, int("f" * 5000, 16),
                     "x" * 100_000]
MISSPELLED = ["replacment_order", "colour", "sacrifise", "targt"]

# every public action method of Game (ACTIONS through their wrappers, `set_pool` through
# `perform`), plus undo and the views, which must never change anything
KINDS = ["add", "set_turn", "set_life", "set_pool", "play_land", "cast", "activate",
         "tap_for_mana", "pass_priority", "resolve", "advance", "next_turn",
         "declare_attackers", "declare_blockers", "destroy", "exile", "gain_control", "undo",
         "view"]
WEIGHTS = [4, 1, 1, 3, 3, 6, 6, 7, 4, 4, 3, 1, 3, 3, 1, 1, 1, 1, 2]
INTERRUPTIBLE = set(KINDS) - {"view"}
VIEWS = ["chars", "controller_of", "describe", "find", "find_all", "obj", "permanents",
         "target_text", "could_produce", "pool", "snapshot", "mana_value"]


@dataclass
class Call:
    """One call on a game: `game.<method>(*args, **kwargs)`, printable as Python."""

    kind: str
    method: str
    args: tuple = ()
    kwargs: dict[str, Any] = field(default_factory=dict)
    bad: str | None = None  # which argument was made malformed on purpose, if any
    misspelled: bool = False
    interrupt: tuple[int, str] | None = None  # (n, where): interrupted at its n-th event
    target: Any = None  # what `method` is called on: the game (None), or a widget

    def run(self, game: Game) -> Any:
        on = game if self.target is None else self.target
        if self.interrupt is None:
            return getattr(on, self.method)(*self.args, **self.kwargs)
        with interrupted_at(*self.interrupt):
            return getattr(on, self.method)(*self.args, **self.kwargs)

    def __str__(self) -> str:
        parts = [_repr(a) for a in self.args] + [f"{k}={_repr(v)}"
                                                 for k, v in self.kwargs.items()]
        on = "game" if self.target is None else "widget"
        stop = f"  # interrupted at event {self.interrupt[0]} ({self.interrupt[1]})" \
            if self.interrupt else ""
        return f"{on}.{self.method}({', '.join(parts)}){stop}"


def _repr(value: Any) -> str:
    """`repr`, short, even for a number too long to print (a 5,000-digit junk value), a value
    nested 100,000 deep or one whose `repr` fails."""
    try:
        text = repr(value)
    except ValueError:
        return f"<a {type(value).__name__} too long to print>"
    except Exception:  # noqa: BLE001  (RecursionError, or the value's own repr failing)
        return f"<a {type(value).__name__} that can't be shown>"
    return text if len(text) <= 200 else text[:197] + "..."


@contextmanager
def interrupted_at(n: int, where: str) -> Iterator[None]:
    """`KeyboardInterrupt` (what Jupyter's "Interrupt kernel" raises) at the `n`-th event of
    the block: before `Game.emit_batch` proposes it ("proposed"), or right after its commit
    changed the state, before it is logged ("committed")."""
    seen = [0]

    def tick() -> None:
        seen[0] += 1
        if seen[0] == n:
            raise KeyboardInterrupt

    emit_batch, commits = Game.emit_batch, dict(COMMITS)
    if where == "proposed":
        def proposed(game: Game, proposals: Any, **kw: Any) -> Any:
            tick()
            return emit_batch(game, proposals, **kw)
        Game.emit_batch = proposed  # type: ignore[method-assign]
    else:
        for kind, commit in commits.items():
            def committed(game: Any, payload: Any, _commit: Any = commit) -> Any:
                done = _commit(game, payload)
                tick()
                return done
            COMMITS[kind] = committed
    try:
        yield
    finally:
        Game.emit_batch = emit_batch  # type: ignore[method-assign]
        COMMITS.update(commits)


@dataclass
class Finding:
    """A broken promise: what, the call, and how to get there again."""

    what: str
    call: str
    error: str
    where: str
    seed: int
    sequence: int

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.what, self.error.split(":", 1)[0], self.where)

    def __str__(self) -> str:
        return (f"{self.what}: {self.call} -> {self.error} at {self.where} "
                f"(python tests/fuzz.py --seed {self.seed} --only {self.sequence})")


@dataclass
class Stats:
    """What was tried and what happened, for the summary table."""

    sequences: int = 0
    calls: Counter = field(default_factory=Counter)  # kind -> calls
    ok: Counter = field(default_factory=Counter)  # kind -> done
    refused: Counter = field(default_factory=Counter)  # kind -> RulesError
    usage: Counter = field(default_factory=Counter)  # kind -> UsageError
    failed: Counter = field(default_factory=Counter)  # kind -> findings
    malformed: Counter = field(default_factory=Counter)  # kind -> calls with a junk argument
    rules: Counter = field(default_factory=Counter)  # cited rule -> refusals
    arguments: Counter = field(default_factory=Counter)  # method:argument -> usage errors
    decisions: Counter = field(default_factory=Counter)  # decision key -> calls done with it
    decisions_tried: Counter = field(default_factory=Counter)  # decision key -> calls with it
    cards: Counter = field(default_factory=Counter)  # card put into a game -> times
    interrupted: Counter = field(default_factory=Counter)  # kind -> calls interrupted midway
    widget: Counter = field(default_factory=Counter)  # widget message -> its outcome's kind
    scenarios: Counter = field(default_factory=Counter)  # hostile scenario -> what happened
    findings: list[Finding] = field(default_factory=list)


# ------------------------------------------------------------------ generating calls
class Fuzzer:
    """Random calls on one game. `junk`: the chance that a call gets one malformed argument;
    `wild`: the chance that an object or player is picked from anywhere (or doesn't exist)
    rather than where the call would make sense; `misspell`: a misspelled decision key;
    `interrupt`: the chance that a call is interrupted at a random event. What review 4 added
    (interrupts, `JUNK_4`, widget messages) draws from a second stream, `more`, so the calls
    of the first stream, `rng`, are what they were for a seed."""

    def __init__(self, rng: random.Random, game: Game, *, junk: float = 0.08,
                 wild: float = 0.2, misspell: float = 0.02, interrupt: float = 0.0) -> None:
        self.rng, self.game, self.junk, self.wild = rng, game, junk, wild
        self.misspell, self.interrupt = misspell, interrupt
        # reading the state draws nothing; its ints hash alike in every process (None wouldn't)
        self.more = random.Random(hash(rng.getstate()[1]))
        self.sandbox: Any = None  # the kernel widget on this game, made at its first message

    def junk_value(self) -> Any:
        """A value that means nothing for any argument (`JUNK`, sometimes `JUNK_4`)."""
        value = self.rng.choice(JUNK)
        return self.more.choice(JUNK_4) if self.more.random() < 0.3 else value

    # -- small choices
    def maybe_junk(self, call_args: dict[str, Any], bad: list[str]) -> None:
        """Replace at most one argument with junk."""
        if call_args and self.rng.random() < self.junk:
            name = self.rng.choice(sorted(call_args))
            call_args[name] = self.junk_value()
            bad.append(name)

    def objects(self, zone: Zone | None = Zone.BATTLEFIELD) -> list[int]:
        state = self.game.state
        if zone is None:
            return sorted(state.objects)
        if zone is Zone.LIBRARY:
            return sorted(i for lib in state.libraries.values() for i in lib)
        return sorted(state.zones[zone])

    def any_id(self, zone: Zone | None = Zone.BATTLEFIELD) -> int:
        """Usually an object in `zone`; sometimes any object, or one that doesn't exist."""
        pool = self.objects(zone) if self.rng.random() > self.wild else self.objects(None)
        if not pool or self.rng.random() < 0.15 * self.wild:
            return self.rng.randint(0, self.game.state.next_id + 3)
        return self.rng.choice(pool)

    def prefer(self, good: list[int], zone: Zone | None = Zone.BATTLEFIELD) -> int:
        """Usually one of `good` (likely legal), else any id as `any_id` picks it."""
        if good and self.rng.random() > self.wild:
            return self.rng.choice(good)
        return self.any_id(zone)

    def mine(self, zone: Zone = Zone.BATTLEFIELD) -> list[GameObject]:
        """Objects of the player with priority in `zone` (controlled, or owned off the
        battlefield)."""
        game, who = self.game, self.game.priority
        objs = game.state.in_zone(zone)
        if zone is Zone.BATTLEFIELD:
            return [o for o in objs if game.controller_of(o) == who]
        return [o for o in objs if o.owner == who]

    def hosts(self, name: str) -> list[int]:
        """Permanents an Aura called `name` could enchant (its "Enchant" target), or the
        creatures an Equipment could be attached to."""
        spell = next((a for a in catalog()[name].printed.abilities
                      if isinstance(a, SpellAbility) and a.target is not None), None)
        if spell is not None and "Enchant" in catalog()[name].oracle:
            return candidates(self.game, None, spell.target)
        return [o.id for o in self.game.permanents()
                if self.game.chars(o).is_a("Creature")]

    def player(self) -> str:
        players = list(self.game.state.players)
        return self.rng.choice(players) if self.rng.random() > 0.15 * self.wild else "Carol"

    def creatures(self, player: str) -> list[int]:
        game = self.game
        return [o.id for o in game.permanents()
                if game.controller_of(o) == player and game.chars(o).is_a("Creature")]

    def target_for(self, source: int | None, spec: Any) -> list[Any]:
        if spec is None or self.rng.random() < self.wild / 2:
            pool = [*self.game.state.players, *self.objects(), *self.objects(Zone.STACK)]
            wanted = 0.1 if spec is None else 0.7
            return [self.rng.choice(pool)] if pool and self.rng.random() < wanted else []
        legal = candidates(self.game, source, spec)
        return [self.rng.choice(legal)] if legal else []

    def live_or_id(self) -> Any:
        """An object as a caller may name it: the live `GameObject`, its id or "#id"."""
        objs = list(self.game.state.objects.values())
        if not objs:
            return self.any_id()
        obj = self.rng.choice(objs)
        return self.rng.choice([obj, obj, obj.id, f"#{obj.id}"])

    def decision_value(self, key: str) -> Any:
        rng = self.rng
        if rng.random() < 0.12:  # any decision may be answered with an object (review 3, D1)
            return self.live_or_id()
        if key in OBJECT_DECISIONS:
            if key == "copy" and rng.random() < 0.2:
                return "no"
            if key == "discard":
                return self.any_id(Zone.HAND)
            ids = [self.any_id() for _ in range(rng.randint(1, 2))]
            return ids if key == "crew" else ids[0]
        known = {
            "added_mana": lambda: rng.choice(MANA),
            "color": lambda: rng.choice(MANA[:5]),
            "creature_type": lambda: rng.choice(CREATURE_TYPES),
            "may": lambda: rng.choice(["yes", "no"]),
            "pay": lambda: rng.choice(["yes", "no"]),
            "pay_life": lambda: rng.choice(["yes", "no"]),
            "replacement_order": lambda: rng.choice(REPLACEMENTS),
            "target": lambda: rng.choice([*self.game.state.players, self.any_id()]),
            "mana_abilities": lambda: rng.choice(
                [self.live_or_id(), f"#{self.any_id()}:{rng.choice(MANA)}"]),
            "trigger_order": lambda: rng.choice([self.live_or_id(), rng.choice(CARDS)]),
        }
        if key in known:
            return known[key]()
        # a key declared after this fuzzer was written: an object, a yes/no or a mana type
        return rng.choice([self.any_id(), rng.choice(["yes", "no"]), rng.choice(MANA)])

    def decisions(self, bad: list[str]) -> tuple[dict[str, Any], bool]:
        """A few decisions (sometimes a misspelled key, sometimes a junk answer)."""
        out: dict[str, Any] = {}
        misspelled = False
        for _ in range(self.rng.choice([0, 0, 1, 1, 2, 3])):
            key = self.rng.choice(sorted(DECISIONS))
            out[key] = self.decision_value(key)
        if out and self.rng.random() < self.junk:
            key = self.rng.choice(sorted(out))
            out[key] = self.junk_value()
            bad.append(key)
        if self.rng.random() < self.misspell:
            out[self.rng.choice(MISSPELLED)] = "yes"
            misspelled = True
        return out, misspelled

    def next_kind(self) -> str:
        """The next kind of call: random, but following the game where it waits for a
        declaration (so combat happens) or has something on the stack."""
        state, rng = self.game.state, self.rng
        if state.awaiting_attackers and rng.random() < 0.5:
            return "declare_attackers"
        if state.awaiting_blockers and rng.random() < 0.5:
            return "declare_blockers"
        if state.stack and rng.random() < 0.2:
            return "resolve"
        return rng.choices(KINDS, WEIGHTS)[0]

    def castable(self, zone: Zone = Zone.HAND) -> list[int]:
        """Cards of the player with priority that could be cast now, judging by type, timing
        and the amount of mana in their pool (colors and targets aside)."""
        state = self.game.state
        mana = state.players[state.priority].pool.total
        sorcery = state.step.is_main and state.active == state.priority and not state.stack

        def castable(o: GameObject) -> bool:
            chars = self.game.chars(o)
            return not chars.is_a("Land") and (sorcery or chars.is_a("Instant")) \
                and chars.mana_cost.mana_value() <= mana
        return [o.id for o in self.mine(zone) if castable(o)]

    def usable(self, kind: str) -> list[int]:
        """Permanents of the player with priority with an ability `kind` ("activate" or
        "tap_for_mana") could use, leaving out {T} abilities of tapped ones."""
        def usable(o: GameObject) -> bool:
            return any(isinstance(a, Activated) and not (a.cost.tap and o.tapped) and (
                kind == "activate" or isinstance(a, ManaAbility) and a.cost.tap)
                for a in self.game.chars(o).abilities)
        return [o.id for o in self.mine() if usable(o)]

    def possible(self) -> list[tuple[str, int]]:
        """The kinds of move worth trying now, weighted (what a player would consider)."""
        game, state = self.game, self.game.state
        who = state.priority
        out = []
        if state.awaiting_attackers:
            out.append(("declare_attackers", 6))
        if state.awaiting_blockers:
            out.append(("declare_blockers", 6))
        if state.stack:
            out.append(("resolve", 4))
        hand = self.mine(Zone.HAND)
        sorcery = state.step.is_main and state.active == who and not state.stack
        if self.castable(Zone.HAND) or self.castable(Zone.GRAVEYARD):
            out.append(("cast", 10))
        if sorcery and state.players[who].lands_played == 0 and any(
                game.chars(o).is_a("Land") for o in hand):
            out.append(("play_land", 5))
        if self.usable("tap_for_mana"):
            out.append(("tap_for_mana", 8))
        if self.usable("activate"):
            out.append(("activate", 3))
        return out

    def legal_move(self, run: Callable[[Call], bool], *, tries: int = 30,
                   decide: bool = True) -> None:
        """Play like a player: the one with priority tries up to `tries` likely-legal calls
        (casting, tapping for mana, activating, playing a land, resolving, declaring) until
        `run` says one was done; if none was, they pass (the top of the stack resolves, or the
        game moves on). `decide=False` leaves every decision to its default."""
        kinds = self.possible()
        wild, self.wild = self.wild, 0.0  # a player picks among their own things
        try:
            calls = [self.call(self.rng.choices(*zip(*kinds))[0])
                     for _ in range(tries if kinds else 0)]
        finally:
            self.wild = wild
        for call in calls:
            if not decide:
                for key in [k for k in call.kwargs if k in DECISIONS]:
                    del call.kwargs[key]
                call.misspelled = False
            if run(call):
                return
        kind = "resolve" if self.game.stack else self.rng.choice(["pass_priority",
                                                                        "advance"])
        run(Call(kind, kind))

    # -- one call of each kind
    def call(self, kind: str) -> Call:
        made: Call = getattr(self, f"_{kind}")()
        if kind in INTERRUPTIBLE and self.interrupt and self.more.random() < self.interrupt:
            made.interrupt = (self.more.randint(1, 16),
                              self.more.choice(["proposed", "committed"]))
        return made

    def _finish(self, kind: str, method: str, args: tuple, kwargs: dict[str, Any],
                bad: list[str], decide: bool = True) -> Call:
        self.maybe_junk(kwargs, bad)
        misspelled = False
        if decide:
            extra, misspelled = self.decisions(bad)
            kwargs.update({k: v for k, v in extra.items() if k not in kwargs})
        return Call(kind, method, args, kwargs, bad[0] if bad else None, misspelled)

    def add(self, name: str | None = None, zone: str | None = None) -> Call:
        """Set-up of a random card (or `name`) in a random zone (or `zone`), with a status that
        suits it."""
        rng = self.rng
        if name is None:
            name = rng.choice(CARDS) if rng.random() > 0.02 else rng.choice(
                ["Forrest", "", "forest"])
        zone = zone or rng.choice(["battlefield"] * 6 + ["hand"] * 3
                                  + ["graveyard", "library", "exile"])
        kwargs: dict[str, Any] = {"player": self.player(), "zone": zone}
        if zone == "battlefield":
            kwargs.update(tapped=rng.random() < 0.2, sick=rng.random() < 0.3)
            if rng.random() < 0.2:
                kwargs["counters"] = {rng.choice(COUNTERS): rng.randint(1, 3)}
            if rng.random() < 0.1:
                kwargs["attacking"] = True
        bad: list[str] = []
        if zone == "battlefield" and name == "Utopia Sprawl":  # as-enters choices (CR 614.12)
            kwargs["choices"] = {"color": rng.choice(MANA[:5])}
        elif zone == "battlefield" and name in ("Cavern of Souls", "Metallic Mimic"):
            kwargs["choices"] = {"creature_type": rng.choice(CREATURE_TYPES)}
        elif rng.random() < 0.05:  # a choice the card doesn't make: a malformed call
            kwargs["choices"] = {"color": rng.choice(MANA[:5])}
            bad.append("choices")
        oracle = catalog()[name].oracle if name in catalog() else ""
        if ("Enchant" in oracle or "Equip" in oracle) and zone == "battlefield" \
                and rng.random() < 0.8:
            kwargs["attached_to"] = self.prefer(self.hosts(name))
        if rng.random() < 0.03:
            kwargs["owner"] = self.player()
        if rng.random() < 0.03:
            kwargs["token"] = True
        if rng.random() < 0.02:
            kwargs["flying"] = True
            bad.append("flying")
        return self._finish("add", "add", (name,), kwargs, bad, decide=False)

    _add = add

    def _set_turn(self) -> Call:
        rng = self.rng
        kwargs = {"turn": rng.randint(1, 4), "active": self.player(), "step": rng.choice(STEPS)}
        for k in list(kwargs):
            if rng.random() < 0.3:
                del kwargs[k]
        return self._finish("set_turn", "set_turn", (), kwargs, [], decide=False)

    def _set_life(self) -> Call:
        kwargs = {"player": self.player(), "life": self.rng.randint(-2, 30)}
        return self._finish("set_life", "set_life", (), kwargs, [], decide=False)

    def _set_pool(self) -> Call:
        rng = self.rng
        mana = []
        for _ in range(rng.randint(1, 8)):
            unit = {"type": rng.choice(MANA)}
            if rng.random() < 0.3:
                unit["restriction"] = rng.choice(["powerstone", "cavern"])
                if unit["restriction"] == "cavern":
                    unit["creature_type"] = rng.choice(CREATURE_TYPES)
            mana.append(unit)
        bad: list[str] = []
        if rng.random() < self.junk:
            mana[0] = rng.choice([{"type": "Q"}, {"type": "G", "restriction": "bogus"}, None, "W",
                                  {}])
            bad.append("mana")
        kwargs = {"player": self.player(), "mana": mana}
        return self._finish("set_pool", "perform", ("set_pool",), kwargs, bad, decide=False)

    def _play_land(self) -> Call:
        lands = [o.id for o in self.mine(Zone.HAND) if "Land" in self.game.chars(o).types]
        kwargs = {"obj": self.prefer(lands, Zone.HAND)}
        return self._finish("play_land", "play_land", (), kwargs, [])

    def _cast(self) -> Call:
        rng = self.rng
        zone = Zone.HAND if rng.random() < 0.85 else Zone.GRAVEYARD
        obj = self.prefer(self.castable(zone), zone)
        kwargs: dict[str, Any] = {"obj": obj}
        spell = None
        if obj in self.game.state.objects:
            chars = self.game.chars(obj)
            if chars.mana_cost.x_count or rng.random() < 0.1:
                kwargs["x"] = rng.randint(0, 3)
            spell = next((a for a in chars.abilities if isinstance(a, SpellAbility)), None)
        targets = self.target_for(obj, spell.target if spell else None)
        if targets:
            kwargs["targets"] = targets
        return self._finish("cast", "cast", (), kwargs, [])

    def _ability_args(self, kind: str) -> Call:
        rng = self.rng
        obj = self.prefer(self.usable(kind))
        kwargs: dict[str, Any] = {"obj": obj}
        abilities: list[tuple[int, Activated]] = []
        if obj in self.game.state.objects:
            abilities = [(i, a) for i, a in enumerate(self.game.chars(obj).abilities)
                         if isinstance(a, Activated)]
        if kind == "tap_for_mana":
            abilities = [(i, a) for i, a in abilities
                         if isinstance(a, ManaAbility) and a.cost.tap]
        index, ability = rng.choice(abilities) if abilities else (rng.randint(0, 3), None)
        if kind == "activate" and (len(abilities) > 1 or rng.random() < 0.3):
            kwargs["ability"] = index
        could = sorted(t.value for t in self.game.could_produce(obj)) \
            if obj in self.game.state.objects else []
        if could and rng.random() > self.wild:
            kwargs["mana"] = rng.choice(could)
        elif rng.random() < 0.5:
            kwargs["mana"] = rng.choice(MANA)
        if kind == "activate":
            cost = ability.cost if ability is not None else None
            if rng.random() < 0.3 or (cost is not None and "X" in str(cost)):
                kwargs["x"] = rng.randint(0, 3)
            spec = getattr(ability, "target", None)
            if spec is not None or rng.random() < 0.1:
                targets = self.target_for(obj, spec)
                if targets:
                    kwargs["targets"] = targets
            if cost is not None and cost.sacrifice and not cost.sacrifice_self \
                    or rng.random() < 0.05:
                kwargs["sacrifice"] = self.any_id()
            if cost is not None and cost.tap_other or rng.random() < 0.05:
                kwargs["tap"] = self.any_id()
        return self._finish(kind, kind, (), kwargs, [])

    def _activate(self) -> Call:
        return self._ability_args("activate")

    def _tap_for_mana(self) -> Call:
        return self._ability_args("tap_for_mana")

    def _pass_priority(self) -> Call:
        return Call("pass_priority", "pass_priority")

    def _resolve(self) -> Call:
        return self._finish("resolve", "resolve", (), {}, [])

    def _advance(self) -> Call:
        combat = ["declare_attackers"] * 4 + ["declare_blockers", "main1"]
        kwargs = {"to": self.rng.choice(STEPS + combat)} if self.rng.random() < 0.4 else {}
        return self._finish("advance", "advance", (), kwargs, [])

    def _next_turn(self) -> Call:
        return self._finish("next_turn", "next_turn", (), {}, [])

    def _declare_attackers(self) -> Call:
        rng = self.rng
        mine = self.creatures(self.game.active)
        if rng.random() < self.wild:
            mine = self.objects()
        attackers = rng.sample(mine, rng.randint(0, len(mine))) if mine else []
        kwargs: dict[str, Any] = {"attackers": attackers}
        if attackers and rng.random() < 0.4:
            kwargs["exert"] = rng.sample(attackers, rng.randint(1, len(attackers)))
        return self._finish("declare_attackers", "declare_attackers", (), kwargs, [])

    def _declare_blockers(self) -> Call:
        rng = self.rng
        state = self.game.state
        defenders = [p for p in state.players if p != state.active]
        theirs = self.creatures(defenders[0]) if defenders else []
        attackers = [o.id for o in state.battlefield() if o.attacking] or self.objects()
        blocks = {}
        if attackers:
            for blocker in rng.sample(theirs, rng.randint(0, len(theirs))) if theirs else []:
                blocks[blocker] = rng.choice(attackers)
        return self._finish("declare_blockers", "declare_blockers", (blocks,), {}, [])

    def _moves(self, kind: str) -> Call:
        ids = self.objects()
        pick = self.rng.sample(ids, self.rng.randint(1, min(3, len(ids)))) if ids else []
        if self.rng.random() < 0.05:
            pick.append(self.any_id(None))
        return self._finish(kind, kind, (), {"objs": pick}, [], decide=False)

    def _destroy(self) -> Call:
        return self._moves("destroy")

    def _exile(self) -> Call:
        return self._moves("exile")

    def _gain_control(self) -> Call:
        kwargs = {"obj": self.any_id(), "player": self.player(),
                  "until_end_of_turn": self.rng.random() < 0.7}
        return self._finish("gain_control", "gain_control", (), kwargs, [], decide=False)

    def _undo(self) -> Call:
        n = self.rng.choice([1, 1, 1, 2, 3])
        bad: list[str] = []
        kwargs: dict[str, Any] = {"n": n}
        self.maybe_junk(kwargs, bad)
        return Call("undo", "undo", (), kwargs, bad[0] if bad else None)

    def widget(self) -> Any:
        """The kernel's `Sandbox` widget on this game (made at its first message)."""
        if self.sandbox is None:
            from mtg_rulekit.sandbox.widget import Sandbox

            self.sandbox = Sandbox(self.game)
        return self.sandbox

    def _widget(self) -> Call:
        """A message as the sandbox module sends it, often well-formed (a card's menu entry,
        the form's values), often not (junk values, deep nesting, unknown controls)."""
        from mtg_rulekit.sandbox import CONTROLS, FIELDS, MENU_CONTROLS

        rng, widget = self.more, self.widget()
        ids = [*self.game.state.objects, self.game.state.next_id + 1]
        names = [*CONTROLS, *MENU_CONTROLS]
        content: dict[str, Any] = {"seq": rng.choice([rng.randint(1, 99), "abc", None])}
        roll = rng.random()
        menu = [e for entries in widget.model.card_actions().values() for e in entries] \
            if roll < 0.4 else []
        if menu:
            entry = rng.choice(menu)
            content.update(click=entry["action"], values=dict(entry["values"]))
        elif roll < 0.75:
            values: dict[str, Any] = {}
            for name in rng.sample(sorted(FIELDS), rng.randint(0, 3)):
                options = [v for _, v in widget.model.fields(values)[name].options]
                values[name] = rng.choice(options) if options and rng.random() < 0.6 else \
                    rng.choice(JUNK + JUNK_4 + [rng.choice(ids), [rng.choice(ids)], "12"])
            key = rng.choice(["click"] * 6 + ["ask"] * 2 + ["values"])
            content.update({key: rng.choice(names) if rng.random() < 0.9 else
                            rng.choice(JUNK + JUNK_4)} if key != "values" else {},
                           values=values)
        else:
            other = rng.choice([{"search": rng.choice(["Forest", "forr", *JUNK[:8]])},
                                {"values": rng.choice(JUNK + JUNK_4)},
                                {"click": rng.choice(names), "values": rng.choice(JUNK_4)},
                                {"load": "view"}, rng.choice(JUNK + JUNK_4)])
            content = {**content, **other} if isinstance(other, dict) else other
        return Call("widget", "_on_msg", (widget, content, []), target=widget)

    def _view(self) -> Call:
        rng = self.rng
        method = rng.choice(VIEWS)
        args: tuple = ()
        kwargs: dict[str, Any] = {}
        if method in ("chars", "controller_of", "describe", "obj", "could_produce",
                      "mana_value"):
            args = (self.any_id(None),)
        elif method in ("find", "find_all"):
            args = (rng.choice(CARDS),)
            kwargs = {"zone": rng.choice([z.value for z in Zone if z is not Zone.NOWHERE])}
        elif method == "permanents":
            args = (self.player(),)
        elif method == "pool":
            args = (self.player(),)
        elif method == "target_text":
            args = (rng.choice([*self.game.state.players, self.any_id(None)]),)
        bad: list[str] = []
        if args and rng.random() < self.junk:
            args = (self.junk_value(),) + args[1:]
            bad.append("args[0]")
        return Call("view", method, args, kwargs, bad[0] if bad else None)


# ------------------------------------------------------------------ checking the contract
def _where(exc: BaseException) -> str:
    """The innermost frame inside rulekit (or the last one): where a finding happened."""
    frames = traceback.extract_tb(exc.__traceback__)
    inside = [f for f in frames if "/mtg_rulekit/" in f.filename.replace("\\", "/")]
    frame = (inside or frames)[-1] if (inside or frames) else None
    if frame is None:
        return "?"
    path = frame.filename.replace("\\", "/")
    short = path[path.rindex("/mtg_rulekit/") + 1:] if "/mtg_rulekit/" in path else Path(path).name
    return f"{short}:{frame.lineno} ({frame.name})"


def _short(exc: BaseException) -> str:
    text = str(exc).replace("\n", " ")
    return f"{type(exc).__name__}: {text[:160]}"


def inconsistencies(game: Game) -> list[str]:
    """Bookkeeping that must always agree: every object listed in a zone is in that zone (and
    the other way round), spells on the stack are stack objects, attachments are permanents,
    counters are positive whole numbers."""
    state = game.state
    out = []
    listed: dict[int, Zone] = {}
    for zone, ids in state.zones.items():
        listed.update((i, zone) for i in ids)
    for ids in state.libraries.values():
        listed.update((i, Zone.LIBRARY) for i in ids)
    for i, zone in listed.items():
        obj = state.objects.get(i)
        if obj is None or obj.zone is not zone:
            out.append(f"#{i} is listed in the {zone.value} but is "
                       f"{'no object' if obj is None else 'in the ' + obj.zone.value}")
    for obj in state.objects.values():
        if obj.zone is not Zone.NOWHERE and obj.id not in listed:
            out.append(f"#{obj.id} is in the {obj.zone.value} but not listed there")
        if obj.zone is Zone.BATTLEFIELD and any(
                not isinstance(n, int) or isinstance(n, bool) or n <= 0
                for n in obj.counters.values()):
            out.append(f"#{obj.id} has counters {obj.counters}")
    for item in state.stack:
        if item.kind == "spell" and listed.get(item.source) is not Zone.STACK:
            out.append(f"spell {item.text} on the stack: #{item.source} is not a stack object")
    for i in state.attachments:
        if listed.get(i) is not Zone.BATTLEFIELD:
            out.append(f"#{i} is recorded as attached but is not a permanent")
    return out


class Checker:
    """Runs calls on a game and records what happened and every broken promise."""

    def __init__(self, game: Game, stats: Stats, seed: int, sequence: int, *,
                 echo: bool = False) -> None:
        self.game, self.stats, self.seed, self.sequence = game, stats, seed, sequence
        self.echo = echo  # print each call and what happened (`--only`)
        self.history: dict[int, tuple[str, str]] = {}  # actions done -> (state, log)

    def finding(self, what: str, call: Call | str, error: str, where: str = "-") -> None:
        self.stats.findings.append(Finding(what, str(call), error, where, self.seed,
                                           self.sequence))

    def remember(self, dumped: str | None = None) -> None:
        """Keep the state and log as they are now, to compare undo with later."""
        game = self.game
        try:
            self.history[len(game.actions)] = (game.snapshot_json(),
                                               dumped if dumped is not None else game.log.dumps())
        except Exception:  # noqa: BLE001  (already a finding: nothing to compare with later)
            self.history.pop(len(game.actions), None)

    def run(self, call: Call) -> bool:
        """Run one call and check the contract; True if it was done."""
        game, stats = self.game, self.stats
        if call.kind == "widget":
            return self.run_widget(call)
        stats.calls[call.kind] += 1
        stats.decisions_tried.update(k for k in call.kwargs if k in DECISIONS)
        if call.bad:
            stats.malformed[call.kind] += 1
        before, log_len, done = game.snapshot_json(), len(game.log), len(game.actions)
        whole = (game.log.dumps(), [d.to_json() for d in game.decisions]) \
            if call.interrupt is not None else None
        refused, outcome = True, "done"
        try:
            call.run(game)
            refused = False
        except KeyboardInterrupt:
            stats.interrupted[call.kind] += 1
            outcome = "interrupted"
            if whole != (game.log.dumps(), [d.to_json() for d in game.decisions]):
                self.finding("interrupted call left a trace", call,
                             "log or decisions differ from before")
        except UsageError as exc:
            stats.usage[call.kind] += 1
            stats.arguments[f"{call.method}:{exc.argument}"] += 1
            outcome = f"UsageError: {exc}"
        except RulesError as exc:
            stats.refused[call.kind] += 1
            stats.rules[exc.rule or "(no rule)"] += 1
            outcome = f"RulesError: {exc}"
        except Exception as exc:  # noqa: BLE001  (anything else is what we are looking for)
            stats.failed[call.kind] += 1
            self.finding("escaped", call, _short(exc), _where(exc))
            outcome = f"FINDING {_short(exc)}"
        if self.echo:
            print(f"{call}  # {outcome[:150]}")
        if refused or call.kind == "view":
            if (game.snapshot_json(), len(game.log), len(game.actions)) != (before, log_len, done):
                self.finding("changed the game", call, "state/log differ after "
                             + ("a refusal" if refused else "a view"))
        else:
            stats.ok[call.kind] += 1
            for key in call.kwargs:
                if key in DECISIONS:
                    stats.decisions[key] += 1
            if call.misspelled:
                self.finding("misspelled decision key accepted", call, "no error")
            if call.kind == "add" and call.args[0] in catalog():
                stats.cards[call.args[0]] += 1
            if call.kind not in ("undo", "view") and len(game.actions) > done:
                try:  # the action record must be plain data, so that it replays (review 3, D1)
                    json.dumps(game.actions[-1], allow_nan=False)
                except (TypeError, ValueError) as exc:
                    self.finding("action record is not plain data", call, _short(exc))
        dumped = None
        if not refused and call.kind != "view":
            # a refused call or a view left the log as it was (its length and the state were
            # compared above; its bytes are compared with a replay's at the end)
            try:
                dumped = game.log.dumps()
            except Exception as exc:  # noqa: BLE001
                self.finding("log.dumps() failed", call, _short(exc), _where(exc))
        for problem in inconsistencies(game)[:1]:
            self.finding("inconsistent state", call, problem)
        for player in game.state.players.values():
            for unit, count in player.pool.parts:
                if count <= 0 or unit.type.value not in MANA:
                    self.finding("bad pool", call, f"{player.name}: {unit} x {count}")
        if dumped is not None and call.kind != "undo":
            self.remember(dumped)
        elif dumped is not None:
            self.check_against_history("undo", call, dumped)
        return not refused

    def run_widget(self, call: Call) -> bool:
        """A message to the kernel's Sandbox widget: nothing escapes its handler; it answers
        (a `state` with an integer `seq`); a refusal changes nothing; a click that changed the
        game leaves records that replay (an undo gives back an earlier state exactly)."""
        game, stats = self.game, self.stats
        stats.calls["widget"] += 1
        before, log_len, done = game.snapshot_json(), len(game.log), len(game.actions)
        widget = call.target
        widget.state = {**widget.state, "last": None}
        try:
            call.run(game)
        except Exception as exc:  # noqa: BLE001  (the handler must answer every message)
            stats.failed["widget"] += 1
            self.finding("escaped the widget's handler", call, _short(exc), _where(exc))
            return False
        last = (widget.state.get("last") or {}).get("kind", "none")
        if last in ("done", "undone"):
            stats.ok["widget"] += 1
        elif last == "refused":
            stats.refused["widget"] += 1
        stats.widget[last] += 1
        if self.echo:
            print(f"{call}  # widget: {last}")
        if last != "none" and not isinstance(widget.state.get("seq"), int):
            self.finding("widget answer without a seq", call, repr(widget.state.get("seq")))
        changed = (game.snapshot_json(), len(game.log), len(game.actions)) != \
            (before, log_len, done)
        if changed and last not in ("done", "undone"):
            self.finding("widget message changed the game", call, f"outcome {last}")
            return False
        if not changed:
            return last in ("done", "undone")
        try:
            dumped = game.log.dumps()
        except Exception as exc:  # noqa: BLE001
            self.finding("log.dumps() failed", call, _short(exc), _where(exc))
            return True
        content = call.args[1]
        if isinstance(content, dict) and content.get("click") in ("add_card", "set_position"):
            # free play rewrites the starting board: what came after it is no longer history
            self.history = {n: seen for n, seen in self.history.items()
                            if n < len(game.actions)}
            self.remember(dumped)
        elif len(game.actions) < done:  # an undo, reset or restart
            self.check_against_history("widget undo", call, dumped)
        else:
            self.remember(dumped)
        return True

    def check_against_history(self, what: str, call: Call | str,
                              dumped: str | None = None) -> None:
        game = self.game
        seen = self.history.get(len(game.actions))
        if seen is None:
            return
        try:
            now = (game.snapshot_json(), dumped if dumped is not None else game.log.dumps())
        except Exception as exc:  # noqa: BLE001
            self.finding(f"{what} broke the game", call, _short(exc), _where(exc))
            return
        if now != seen:
            part = "state" if now[0] != seen[0] else "log"
            self.finding(f"{what} mismatch", call, f"{part} differs from before")

    def finish(self, rng: random.Random) -> None:
        """Replay and undo give the same state and log as the game had."""
        game = self.game
        try:
            game.log.dumps()
        except Exception as exc:  # noqa: BLE001
            self.finding("log.dumps() failed", "game.log.dumps()", _short(exc), _where(exc))
            return
        try:
            again = game.replay()
            if again.snapshot_json() != game.snapshot_json():
                self.finding("replay mismatch", "game.replay()", "state differs")
            elif again.log.dumps() != game.log.dumps():
                self.finding("replay mismatch", "game.replay()", "log differs")
        except Exception as exc:  # noqa: BLE001
            self.finding("replay failed", "game.replay()", _short(exc), _where(exc))
        if len(game.actions) > 1:
            n = rng.randint(1, len(game.actions) - 1)
            try:
                game.undo(n)
            except Exception as exc:  # noqa: BLE001
                self.finding("undo failed", f"game.undo({n})", _short(exc), _where(exc))
                return
            self.check_against_history("undo", f"game.undo({n})")


# ------------------------------------------------------------------ hostile scenario files
SCENARIOS = Path(__file__).resolve().parent.parent / "mtg_rulekit" / "scenarios"
HOSTILE_LITERALS = [
    "0x" + "f" * 5000, "0o" + "7" * 5000, "0b" + "1" * 20_000, "0x10", "0o7", "0b11", "0xG",
    "-0x1", "9" * 5000, "1e999", "inf", "nan", "-0.0", "1_000_000_000_000_000",
    "[" * 1000 + "]" * 1000, "[[[[[[[[1]]]]]]]]", '[[["G"]], ["G", "G"]]', '[["G"], [["G"]]]',
    "{ a = { b = { c = 1 } } }", '"' + "x" * 100_000 + '"', '"\u0000"', "[]", "{}", "true",
    '"#²"', '"#0x1"', "[" + ", ".join(['"G"'] * 40_000) + "]"]
_VALUE_LINE = re.compile(r"^(\s*[A-Za-z0-9_.\"' -]+?\s*=\s*)(.+)$")


@cache
def _shipped() -> list[tuple[str, list[int]]]:
    """Each shipped scenario's text and the lines holding a one-line `key = value`."""
    out = []
    for path in sorted(SCENARIOS.glob("*.toml")):
        text = path.read_text("utf-8")
        lines, inside = [], False
        for i, line in enumerate(text.split("\n")):
            if line.count('"""') % 2:
                inside = not inside
                continue
            if not inside and _VALUE_LINE.match(line):
                lines.append(i)
        out.append((text, lines))
    return out


def hostile_scenario(rng: random.Random) -> tuple[str, str]:
    """A shipped scenario with one value replaced by a hostile literal: (where, the text)."""
    text, lines = rng.choice(_shipped())
    rows = text.split("\n")
    i = rng.choice(lines)
    match = _VALUE_LINE.match(rows[i])
    assert match is not None
    literal = rng.choice(HOSTILE_LITERALS)
    rows[i] = match.group(1) + literal
    shown = literal if len(literal) <= 30 else literal[:27] + "..."
    return f"line {i + 1}: {match.group(1).strip()} {shown}", "\n".join(rows)


def check_scenario(rng: random.Random, stats: Stats, seed: int, sequence: int) -> None:
    """Load and play a hostile scenario: it plays, or one `ScenarioError` says why in one line,
    never blaming rulekit; anything else is a finding."""
    from mtg_rulekit.scenario import loads, play

    where, text = hostile_scenario(rng)
    try:
        play(loads(text, name="hostile.toml"))
        stats.scenarios["played"] += 1
    except ScenarioError as err:
        stats.scenarios["refused"] += 1
        message = str(err)
        if "\n" in message or "bug in rulekit" in message or len(message) > 1000:
            stats.findings.append(Finding("scenario refusal not one clear line", where,
                                          message[:160], "scenario", seed, sequence))
    except Exception as exc:  # noqa: BLE001  (a hostile file is a ScenarioError or plays)
        stats.scenarios["escaped"] += 1
        stats.findings.append(Finding("escaped loading a scenario", where, _short(exc),
                                      _where(exc), seed, sequence))


# ------------------------------------------------------------------ sequences
def setup(fuzz: Fuzzer, checker: Checker, sequence: int) -> None:
    """A random board: five catalog cards chosen round-robin (so every card is in the first
    17 sequences), then random ones, across zones and players."""
    rng = fuzz.rng
    must = [CARDS[(sequence * 5 + j) % len(CARDS)] for j in range(5)]
    junk = fuzz.junk
    for name in must:  # these five are well-formed, so every card gets in
        fuzz.junk = 0.0
        call = fuzz.add(name)
        fuzz.junk = junk
        checker.run(call)
    for _ in range(rng.randint(4, 12)):
        checker.run(fuzz.call("add"))
    for _ in range(rng.randint(0, 4)):
        call = fuzz.add(zone="hand")
        call.kwargs.update(player=game_active(fuzz))
        checker.run(call)
    if rng.random() < 0.3:
        checker.run(fuzz.call("set_turn"))


def game_active(fuzz: Fuzzer) -> str:
    return fuzz.game.active


def run_sequence(seed: int, sequence: int, actions: int, stats: Stats, *,
                 junk: float = 0.08, legal: float = 0.4, interrupt: float = 0.03,
                 widget: float = 0.06, scenario: float = 0.15, echo: bool = False) -> Game:
    """One sequence: set-up, `actions` steps, then replay and undo. A step is one random call,
    or (with chance `legal`) a player's move: likely-legal tries until one is done, or a pass,
    so that games get somewhere (spells resolve, creatures attack) between the random calls."""
    rng = random.Random(f"{seed}:{sequence}")
    game = Game(PLAYERS)
    fuzz = Fuzzer(rng, game, junk=junk, interrupt=interrupt)
    checker = Checker(game, stats, seed, sequence, echo=echo)
    checker.remember()
    stats.sequences += 1
    setup(fuzz, checker, sequence)
    for _ in range(actions):
        if fuzz.more.random() < widget:  # a message to the kernel's Sandbox widget, besides
            try:
                checker.run(fuzz.call("widget"))
            except Exception as exc:  # noqa: BLE001  (generating it reads the game)
                checker.finding("escaped while reading the game", "widget", _short(exc),
                                _where(exc))
        if rng.random() < legal:
            try:
                fuzz.legal_move(checker.run, tries=5)
            except Exception as exc:  # noqa: BLE001  (generating a call reads the game)
                checker.finding("escaped while reading the game", "legal move", _short(exc),
                                _where(exc))
            continue
        kind = fuzz.next_kind()
        try:
            call = fuzz.call(kind)
        except Exception as exc:  # noqa: BLE001  (generating a call reads the game)
            checker.finding("escaped while reading the game", kind, _short(exc), _where(exc))
            continue
        checker.run(call)
    checker.finish(rng)
    if fuzz.more.random() < scenario:
        check_scenario(fuzz.more, stats, seed, sequence)
    return game


def fuzz(seed: int, sequences: int, actions: int, *, start: int = 0, junk: float = 0.08,
         progress: Callable[[int], None] | None = None, **extras: float) -> Stats:
    """Run `sequences` sequences (numbered from `start`) and return what happened; `extras`:
    `run_sequence`'s chances of an interrupt, a widget message and a hostile scenario."""
    stats = Stats()
    for i in range(start, start + sequences):
        run_sequence(seed, i, actions, stats, junk=junk, **extras)
        if progress is not None:
            progress(i)
    return stats


# ------------------------------------------------------------------ legal play (benchmark)
def legal_play(seed: int, actions: int) -> tuple[list[tuple[str, dict]], list[tuple[str, dict]]]:
    """A random game over the whole catalog where every action was legal: returns the set-up
    actions and the play actions as recorded by `Game.actions` (replayable with `perform`).

    Every move is `Fuzzer.legal_move` with the default decisions."""
    rng = random.Random(f"legal:{seed}")
    game = Game(PLAYERS)
    fuzz_ = Fuzzer(rng, game, junk=0.0, wild=0.0)
    for name in rng.sample(CARDS, 24):
        call = fuzz_.add(name)
        call.kwargs.pop("attacking", None)
        try:
            call.run(game)
        except (RulesError, UsageError):  # not legal after all: not part of the game
            pass
    for _ in range(8):
        call = fuzz_.add(zone="hand")
        call.kwargs.pop("attached_to", None)
        try:
            call.run(game)
        except (RulesError, UsageError):
            pass
    set_up = len(game.actions)

    def attempt(call: Call) -> bool:
        try:
            call.run(game)
            return True
        except (RulesError, UsageError):
            return False

    while len(game.actions) - set_up < actions:
        fuzz_.legal_move(attempt, decide=False)
    return game.actions[:set_up], game.actions[set_up:]


# ------------------------------------------------------------------ the summary table
def table(stats: Stats, seconds: float, *, show: int = 12) -> str:
    lines = [f"rulekit fuzz: {stats.sequences:,} sequences, {sum(stats.calls.values()):,} calls "
             f"in {seconds:.0f} s; {len(stats.cards)}/{len(CARDS)} catalog cards put into play, "
             f"{len(stats.decisions)}/{len(DECISIONS)} decision keys used in accepted calls",
             "", f"{'calls by kind':<20}{'tried':>9}{'done':>9}{'refused':>9}{'usage':>9}"
             f"{'malformed':>10}{'findings':>9}"]
    for kind in [*KINDS, "widget"]:
        lines.append(f"{kind:<20}{stats.calls[kind]:>9,}{stats.ok[kind]:>9,}"
                     f"{stats.refused[kind]:>9,}{stats.usage[kind]:>9,}"
                     f"{stats.malformed[kind]:>10,}{stats.failed[kind]:>9,}")
    total = [sum(c.values()) for c in (stats.calls, stats.ok, stats.refused, stats.usage,
                                       stats.malformed, stats.failed)]
    lines.append(f"{'total':<20}{total[0]:>9,}{total[1]:>9,}{total[2]:>9,}{total[3]:>9,}"
                 f"{total[4]:>10,}{total[5]:>9,}")
    lines += ["", f"calls interrupted midway (KeyboardInterrupt at an event; each must be "
                  f"taken back whole): {sum(stats.interrupted.values()):,}",
              "widget messages by outcome: " + (", ".join(
                  f"{k} {n:,}" for k, n in sorted(stats.widget.items())) or "none"),
              "hostile scenario files: " + (", ".join(
                  f"{k} {n:,}" for k, n in sorted(stats.scenarios.items())) or "none")]
    lines += ["", "refused by rule (RulesError, most frequent first):"]
    lines += [f"  CR {rule:<12}{n:>9,}" for rule, n in stats.rules.most_common(show)]
    if len(stats.rules) > show:
        rest = sum(n for _, n in stats.rules.most_common()[show:])
        lines.append(f"  ({len(stats.rules) - show} more rules){rest:>9,}")
    lines += ["", "usage errors by argument (UsageError):"]
    lines += [f"  {arg:<26}{n:>9,}" for arg, n in stats.arguments.most_common()] or ["  none"]
    groups: dict[tuple, list[Finding]] = {}
    for f in stats.findings:
        groups.setdefault(f.key, []).append(f)
    lines += ["", f"findings: {len(stats.findings):,} ({len(groups)} distinct)"]
    for found in sorted(groups.values(), key=len, reverse=True):
        lines.append(f"  {len(found):>6,}  {found[0]}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sequences", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--actions", type=int, default=24, help="calls after each set-up")
    parser.add_argument("--only", type=int,
                        help="run just this sequence, printing each call and its outcome")
    parser.add_argument("--show", type=int, default=12, help="rules listed in the table")
    parser.add_argument("--junk", type=float, default=0.08,
                        help="chance that a call gets one malformed argument")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    if args.only is not None:
        stats = Stats()
        print("game = Game(('Alice', 'Bob'))")
        run_sequence(args.seed, args.only, args.actions, stats, junk=args.junk, echo=True)
        print(table(stats, time.perf_counter() - started, show=args.show))
        return 1 if stats.findings else 0

    def progress(i: int) -> None:
        if (i + 1) % 500 == 0:
            print(f"  {i + 1:,} sequences, {time.perf_counter() - started:.0f} s", flush=True,
                  file=sys.stderr)

    stats = fuzz(args.seed, args.sequences, args.actions, junk=args.junk, progress=progress)
    print(table(stats, time.perf_counter() - started, show=args.show))
    return 1 if stats.findings else 0


if __name__ == "__main__":
    raise SystemExit(main())
