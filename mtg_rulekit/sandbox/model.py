"""The sandbox's model, as plain data: the controls a position offers and what each click does.
Standard library and the engine only, so the same model runs in a kernel (behind the anywidget
`mtg_rulekit.sandbox.widget.Sandbox`) and in a browser (over Pyodide, `mtg_rulekit.sandbox.page`); what
they show is `mtg_rulekit.sandbox.view`'s. No rule, control or message is written anywhere else.

A front-end asks `fields(values)` for the current options of each input, shows `GROUPS` in
order, sends a click as `click(name, values)` and shows the `Outcome`.

>>> from mtg_rulekit import Game
>>> model = SandboxModel(Game(["Alice", "Bob"]))
>>> forest = model.game.add("Forest")
>>> model.click("tap", {"permanent": forest.id}).text
"Alice taps Forest (#1) for mana. Alice's pool: {G} (Forest made {G})."
>>> model.click("tap", {"permanent": forest.id}).ok
False
>>> model.click("undo", {}).text
'Undone: Alice taps Forest (#1) for mana'
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mtg_rulekit.core.decisions import DECISIONS, LARGEST, written_id
from mtg_rulekit.core.errors import RulesError, UsageError
from mtg_rulekit.core.events import EventKind
from mtg_rulekit.core.interrupts import interrupts_held
from mtg_rulekit.objects.state import Zone

if TYPE_CHECKING:
    from mtg_rulekit.game import Game

MAX_TEXT = 2000
"""The longest text an input takes (the "choices" box, the mana box)."""
NO_TARGET = ""
NOTHING = -1
MANA_CHOICES = ("W", "U", "B", "R", "G", "C")


@dataclass(frozen=True)
class Field:
    """One input: `kind` is "choice" (one of `options`), "multi" (several), "text" or
    "number" (`low`..`high`). `options` are (label, value) pairs for the current position."""

    name: str
    label: str
    kind: str
    help: str
    options: tuple[tuple[str, Any], ...] = ()
    low: int = 0
    high: int = 20
    placeholder: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "label": self.label, "kind": self.kind, "help": self.help,
                "options": [list(o) for o in self.options], "low": self.low,
                "high": self.high, "placeholder": self.placeholder}


@dataclass(frozen=True)
class Control:
    """A button: what it says, what it reads, what it does in words, and how loud it is
    ("primary", "danger", "warning" or "")."""

    name: str
    label: str
    help: str
    style: str = ""


@dataclass(frozen=True)
class Outcome:
    """What a click did, in the narrator's words: `kind` is "done", "refused", "undone" or
    "nothing"; a refusal keeps its `rule` and the exception."""

    kind: str
    text: str
    rule: str | None = None
    error: Exception | None = field(default=None, compare=False)

    @property
    def ok(self) -> bool:
        return self.kind in ("done", "undone")

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, "rule": self.rule}


FIELDS: dict[str, Field] = {f.name: f for f in (
    Field("permanent", "Permanent", "choice",
          "The permanent to tap or whose ability to activate"),
    Field("mana", "Mana", "text",
          "Which mana to make when there is a choice: one of W U B R G C, or several for 'any "
          "combination' (e.g. WU); leave empty for the ability's default",
          options=tuple((m, m) for m in MANA_CHOICES), placeholder="W U B R G C, or e.g. WU"),
    Field("ability", "Ability", "choice", "An activated ability of the chosen permanent"),
    Field("target", "Target, or tap/sacrifice for a cost", "choice",
          "A target for the spell, ability or trigger; or, not a target, the permanent an "
          "ability's cost taps or sacrifices (Springleaf Drum, Gilded Goose: CR 605.1a)"),
    Field("x", "X", "number", "The value of X, if the cost has {X}"),
    Field("hand_card", "Card in hand", "choice",
          "A card in a hand to cast (or, for a land, play)"),
    Field("attackers", "Attackers", "multi",
          "Creatures to declare as attackers (Ctrl/Shift + click or arrows to choose several)"),
    Field("exert", "Exert", "multi", "Attackers to exert as they are declared (CR 701.43)"),
    Field("copy_target", "Copy which creature", "choice", "The creature the token will copy"),
    Field("choices", "Choices", "text",
          "Choices your clicks make instead of the defaults, as key=answer separated by ';' "
          "(e.g. replacement_order=Contamination; target=#5; may=no; pay_with=G C). Keys: "
          + ", ".join(DECISIONS), placeholder="e.g. replacement_order=Contamination"),
    Field("to_destroy", "Destroy together", "multi",
          "Permanents (for example artifacts) to destroy at the same time (Ctrl/Shift + click "
          "or arrows to choose several)"),
)}

CONTROLS: dict[str, Control] = {c.name: c for c in (
    Control("tap", "Tap for mana", "Activate a mana ability of the permanent that has {T} in "
            "its cost (CR 106.12)", "primary"),
    Control("activate", "Activate", "Activate the chosen ability (its cost may include {T} or "
            "{Q})", "primary"),
    Control("cast", "Cast / play it", "Cast the card, paying from the mana pool (tap for mana "
            "first), with the X and target chosen above; a land is played instead", "primary"),
    Control("combat", "Go to declare attackers", "Pass priority until the declare attackers "
            "step"),
    Control("attack", "Declare attackers", "Declare the chosen attackers, exerting the chosen "
            "ones (only at the start of the declare attackers step, CR 508.1)", "danger"),
    Control("copy", "Create a token copy", "Activate the token-copy ability of a permanent you "
            "control (like Kiki-Jiki, Mirror Breaker) and let it resolve", "primary"),
    Control("destroy", "Destroy them at once", "Destroy every chosen permanent at the same time "
            "(CR 701.8): leaves-the-battlefield abilities see all of them (CR 603.10a)",
            "danger"),
    Control("pass", "Pass priority", "The player with priority passes (CR 117.3d)"),
    Control("resolve", "Resolve top of stack", "All players pass: the top of the stack "
            "resolves"),
    Control("step", "Next step", "Pass priority until the next step begins"),
    Control("turn", "Next turn", "Go to the next turn's main phase: watch the untap step "
            "(CR 502.3)"),
    Control("undo", "Undo", "Take back the last click (the game is replayed without it)",
            "warning"),
    Control("reset", "Reset", "Take back every click: the board the sandbox started from"),
)}

MENU_CONTROLS: dict[str, Control] = {c.name: c for c in (
    Control("block", "Block", "Declare blockers: each blocker in `blocks` ({blocker id: "
            "attacker id}) blocks that attacker (only at the start of the declare blockers "
            "step, CR 509.1)", "danger"),
    Control("add_card", "Add a card", "Free play: put the catalog card `card` onto "
            "`player`'s battlefield or into their hand (`zone`) on the starting board"),
    Control("set_position", "Set the turn", "Free play: the `turn`, the `active` player and "
            "the `step` the sandbox starts from"),
    Control("restart", "Start again", "Back to the board the sandbox was given: every click "
            "and every free-play change taken back", "warning"),
    Control("challenge", "Try a challenge", "Start (or start again) the challenge `challenge` "
            "(its id; \"\" for none) on its own board (mtg_rulekit.sandbox.challenges)"),
)}
MENU_VALUES: dict[str, tuple[str, ...]] = {
    "block": ("blocks",), "add_card": ("card", "player", "zone"),
    "set_position": ("turn", "active", "step"), "restart": (), "challenge": ("challenge",)}
"""The values each of `MENU_CONTROLS` reads (checked by the click itself)."""
"""Controls only the board's card menus send (`card_actions`), not laid out as a form."""

ACTION_KINDS: dict[str, str] = {
    "mana": "tap for mana and other mana abilities (CR 605)",
    "abilities": "activated abilities that are not mana abilities (CR 602)",
    "cast": "cast a spell or play a land from hand (CR 601, 305)",
    "attack": "declare attackers, exerting some (CR 508)",
    "block": "declare blockers (CR 509)",
    "copy": "create a token copy of a creature (a Kiki-Jiki, Mirror Breaker)",
    "destroy": "destroy permanents, one or several at once (CR 701.8)",
}
"""The kinds of action a lesson's sandbox can offer (`SandboxModel(..., actions=...)`): the
card menus and the form show only the kinds offered. Passing priority, steps, turns, undo and
free play are always there."""

CONTROL_KINDS: dict[str, tuple[str, ...]] = {
    "tap": ("mana",), "activate": ("mana", "abilities"), "cast": ("cast",),
    "combat": ("attack", "block"), "attack": ("attack",), "block": ("block",),
    "copy": ("copy",), "destroy": ("destroy",)}
"""The kinds each control serves: a control is offered when one of them is."""

GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Mana and abilities", ("permanent", "mana", "tap", "ability", "target", "x", "activate")),
    ("Spells", ("hand_card", "cast")),
    ("Combat", ("combat", "attackers", "exert", "attack")),
    ("Copies and destruction", ("copy_target", "copy", "to_destroy", "destroy")),
    ("Time", ("pass", "resolve", "step", "turn", "undo", "reset")),
)
"""The layout, in reading order: each group's heading and its fields and controls by name.
Every field but `choices`: a click's decisions are made in pickers (`choices_for`), which
send their answers in it."""


def mana_choice(text: Any) -> str | None:
    """What the mana box says, as the engine's `mana` choice: "{W}{U}", "w, u" -> "WU"; empty
    -> None (the ability's own default)."""
    letters = re.sub(r"[\s{},;/+]", "", str(text or "")).upper()
    return letters or None


class SandboxModel:
    """A live game and the sandbox's controls over it. `click` runs one click atomically: it
    happens whole, or the game is exactly as before and the outcome says why (the rule)."""

    def __init__(self, game: Game, *, history: int = 3,
                 actions: Iterable[str] | None = None,
                 cards: Iterable[str] | None = None) -> None:
        self.game = game
        self.history = history
        self.actions = _offered_kinds(actions)
        self.cards = _offered_cards(cards)
        self.start = len(game.actions)
        self._first_start = self.start  # before any free-play change (`restart`)
        names, life = game._init_args
        # the board first given (its challenges' own, when they have none of theirs)
        self._given = {"players": list(names), "life": life,
                       "actions": [[n, kw] for n, kw in game.actions[:self.start]]}
        self.last: Outcome | None = None
        # per click that changed the game: (len(game.actions), len(game.log)) before it
        self._marks: list[tuple[int, int]] = []
        self._last_log: int | None = None  # log length before the last click shown
        self.practice: Any = None  # the challenges (mtg_rulekit.sandbox.challenges.Practice)
        self._remember_start()

    # ------------------------------------------------------------ the starting position
    def position(self) -> dict[str, Any] | None:
        """The board the sandbox starts from as JSON data: the players, their life and the
        actions that built it (`game.actions` up to the start), to replay with `from_position`
        (an exported page does, in the browser). None when an action's arguments are not
        plain JSON data."""
        import json

        names, life = self.game._init_args
        data: dict[str, Any] = {
            "players": list(names), "life": life, "history": self.history,
            "actions": [[name, kwargs] for name, kwargs in self.game.actions[:self.start]]}
        if self.actions != tuple(ACTION_KINDS):
            data["offers"] = list(self.actions)
        if self.cards is not None:
            data["cards"] = list(self.cards)
        if self.practice is not None:  # (a challenge on this board doesn't repeat it)
            own = {k: data[k] for k in ("players", "life", "actions")}
            data["challenges"] = [c.to_json(own) for c in self.practice.challenges.values()]
        try:
            plain: dict[str, Any] = json.loads(json.dumps(data, allow_nan=False))
        except (TypeError, ValueError):
            return None
        return plain

    @classmethod
    def from_position(cls, position: Mapping[str, Any]) -> SandboxModel:
        """A sandbox on the board `position()` described, built by replaying its actions."""
        from mtg_rulekit.game import Game

        game = Game(position["players"], life=position["life"])
        for name, kwargs in position["actions"]:
            game.perform(name, **kwargs)
        return cls(game, history=position.get("history", 3), actions=position.get("offers"),
                   cards=position.get("cards"))

    # ------------------------------------------------------------ what the lesson offers
    def offers(self, control: str) -> bool:
        """Whether this sandbox offers the control `control` (its kinds, `CONTROL_KINDS`, meet
        the lesson's `actions`; controls of no kind, like passing, always)."""
        kinds = CONTROL_KINDS.get(control)
        return kinds is None or any(k in self.actions for k in kinds)

    def _offers_copy(self, control: str, values: Mapping[str, Any]) -> bool:
        """An activation of an ability that makes a token copy (Kiki-Jiki's), in a sandbox
        that offers copies: a "copy" as well as an ability."""
        from mtg_rulekit.objects.abilities import Activated

        if control != "activate" or "copy" not in self.actions:
            return False
        obj, index = values.get("permanent"), values.get("ability")
        if not isinstance(obj, int) or not isinstance(index, int):
            return False
        try:
            ability = self.game.chars(self.game.obj(obj)).abilities[index]
        except (UsageError, IndexError):
            return False
        return isinstance(ability, Activated) and ability.makes_token_copy

    def groups(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """`GROUPS` with only the controls offered, and their fields; a group left with no
        control is left out."""
        out = []
        for heading, names in GROUPS:
            kept = tuple(n for n in names if n not in CONTROLS or self.offers(n))
            if any(n in CONTROLS for n in kept):
                out.append((heading, kept))
        return tuple(out)

    # ------------------------------------------------------------ what is offered
    def _label(self, obj: Any) -> str:
        g = self.game
        extra = ", tapped" if obj.tapped else ""
        return f"#{obj.id} {g.chars(obj).name} ({g.controller_of(obj)}{extra})"

    def permanents(self) -> list[Any]:
        """Permanents by seat of their controller, then id."""
        g = self.game
        seat = {p: i for i, p in enumerate(g.state.players)}
        return sorted(g.permanents(), key=lambda o: (seat.get(g.controller_of(o), 99), o.id))

    def fields(self, values: Mapping[str, Any] | None = None) -> dict[str, Field]:
        """Every input with its options for the current position (the ability list follows
        the chosen `permanent` in `values`, else the first permanent)."""
        from dataclasses import replace

        from mtg_rulekit.objects.abilities import Activated

        g = self.game
        values = values or {}
        perms = self.permanents()
        perm_options = tuple((self._label(o), o.id) for o in perms)
        creatures = [o for o in perms if g.chars(o).is_a("Creature")]
        attackers = tuple((self._label(o), o.id) for o in creatures
                          if g.controller_of(o) == g.state.active)
        hand = sorted(g.state.in_zone(Zone.HAND), key=lambda o: o.id)
        chosen = values.get("permanent")
        if isinstance(chosen, bool) or chosen not in [v for _, v in perm_options]:  # True == 1
            chosen = perm_options[0][1] if perm_options else None
        abilities: tuple[tuple[str, Any], ...] = ()
        if chosen is not None:
            abilities = tuple((a.text, i) for i, a in enumerate(g.chars(g.obj(chosen)).abilities)
                              if isinstance(a, Activated))
        options = {
            "permanent": perm_options,
            "ability": abilities or (("(no activated abilities)", NOTHING),),
            "target": (("(no target)", NO_TARGET),) + perm_options + tuple(
                (f"player: {p}", p) for p in g.state.players),
            "hand_card": tuple((f"#{o.id} {g.chars(o).name} ({o.owner}'s hand)", o.id)
                               for o in hand) or (("(no cards in hand)", NOTHING),),
            "attackers": attackers,
            "exert": attackers,
            "copy_target": tuple((self._label(o), o.id) for o in creatures),
            "to_destroy": perm_options,
        }
        return {name: replace(f, options=options.get(name, f.options))
                for name, f in FIELDS.items()}

    def values(self, raw: Any, *, control: str | None = None,
               offered: bool = True) -> dict[str, Any]:
        """The inputs' `values` as a front-end sent them (JSON from a page, a message to the
        kernel's widget, a script's dict), checked against the fields: a choice one of its
        options (`offered`: the options of now; else any id or text, for values sent before
        the game moved on), several choices a list of them, a text a string, a number a whole
        number (or its digits); else UsageError naming the input. Unknown names are dropped,
        but the values `control` reads itself if it is a menu control (`MENU_VALUES`). Every
        click goes through here, whichever host sent it."""
        if raw is None:
            return {}
        if not isinstance(raw, Mapping):
            raise UsageError("values", f"expected the inputs as {{name: value}}, got "
                                       f"{_shown(raw)}")
        values = {k: v for k, v in raw.items() if isinstance(k, str) and k in FIELDS}
        fields = self.fields(values) if values else {}
        for name in list(values):
            field, value = fields[name], values[name]
            allowed = [v for _, v in field.options]

            def fits(v: Any, allowed: list[Any] = allowed) -> bool:
                if isinstance(v, bool) or not isinstance(v, int | str):
                    return False
                return v in allowed if offered else True

            if field.kind == "choice":
                if value is not None and not fits(value):
                    raise UsageError(name, f"{_shown(value)} is not one of the choices offered")
            elif field.kind == "multi":
                if value is None:
                    continue
                if not isinstance(value, list | tuple) or not all(fits(v) for v in value):
                    raise UsageError(name, f"expected a list of the choices offered, got "
                                           f"{_shown(value)}")
                values[name] = list(value)
            elif field.kind == "text":
                if value is not None and not isinstance(value, str):
                    raise UsageError(name, f"expected text, got {_shown(value)}")
                if value is not None and len(value) > MAX_TEXT:
                    raise UsageError(name, f"{len(value):,} characters; at most {MAX_TEXT:,}")
            elif field.kind == "number" and value not in (None, ""):
                if isinstance(value, str) and value.strip().isascii() \
                        and value.strip().isdigit() and len(value.strip()) <= 6:
                    value = values[name] = int(value)
                if isinstance(value, bool) or not isinstance(value, int) \
                        or not 0 <= value <= LARGEST:
                    raise UsageError(name, f"expected a whole number, got {_shown(value)}")
        if control in MENU_VALUES:  # checked by the click itself
            values.update({k: raw[k] for k in MENU_VALUES[control] if k in raw})
        return values

    # ------------------------------------------------------------ clicks
    def click(self, name: str, values: Mapping[str, Any] | None = None) -> Outcome:
        """Run the control `name` with the inputs' `values` (checked first by `values`: a
        malformed one is refused, naming the input); the outcome is also `last`. A name that
        is no control is a UsageError. With challenges (`practice`), the one being tried is
        checked after every click that plays."""
        if not isinstance(name, str) or (name not in CONTROLS and name not in MENU_CONTROLS):
            raise UsageError("control", f"no sandbox control is called {_shown(name)}")
        if name == "challenge":
            if self.practice is None:
                return self._finish(Outcome("refused", "this sandbox has no challenges"))
            try:
                checked = self.values(values, control=name)
            except UsageError as err:
                return self._finish(Outcome("refused", str(err), None, err))
            return self._finish(self.practice.start(self, checked.get("challenge")))
        outcome = self._click(name, values)
        if self.practice is not None and name not in ("restart", "add_card", "set_position"):
            self.practice.after(self, outcome)
        return outcome

    def given(self) -> dict[str, Any]:
        """The board the sandbox was first given, as `switch` takes it (players, life and
        the actions that built it)."""
        return self._given

    def switch(self, position: Mapping[str, Any]) -> None:
        """Play on another board from now on: `position` (players, life, actions, as
        `position()` gives them) replayed, as if the sandbox had been given it."""
        fresh = SandboxModel.from_position({**position, "history": self.history}).game
        self.game.__dict__.update(fresh.__dict__)
        self.start = self._first_start = len(self.game.actions)
        self._marks.clear()
        self._last_log = None
        self.last = None
        self._remember_start()

    def _click(self, name: str, values: Mapping[str, Any] | None) -> Outcome:
        try:
            values = self.values(values, control=name)
        except UsageError as err:
            return self._finish(Outcome("refused", str(err), None, err))
        if name == "undo":
            return self._finish(self.undo())
        if name == "reset":
            return self._finish(self.reset())
        if name == "restart":
            return self.restart()
        if name in ("add_card", "set_position"):
            return self._free_play(name, values)
        act = self._actions()[name]
        if not self.offers(name) and not self._offers_copy(name, values):
            kinds = " or ".join(ACTION_KINDS[k] for k in CONTROL_KINDS[name])
            return self._finish(Outcome("refused", f"this lesson's sandbox does not offer "
                                                   f"that ({kinds})"))
        g = self.game
        before, log_before = len(g.actions), len(g.log)
        try:
            act(values)
        except (RulesError, UsageError) as err:
            if len(g.actions) != before:  # a click made of several actions: take all back
                g.undo(len(g.actions) - before)
            return self._finish(Outcome("refused", str(err), getattr(err, "rule", None), err))
        except BaseException:  # interrupted (Ctrl-C) between its actions: all taken back too
            with interrupts_held():
                if len(g.actions) != before:
                    g.undo(len(g.actions) - before)
            raise
        if len(g.actions) == before:
            return self._finish(Outcome("nothing", "nothing happened"))
        self._marks.append((before, log_before))
        self._last_log = log_before
        from mtg_rulekit.sandbox.said import click_words

        return self._finish(Outcome("done", click_words(g, log_before)))

    def _finish(self, outcome: Outcome) -> Outcome:
        self.last = outcome
        return outcome

    def _roots(self, since: int) -> list[str]:
        from mtg_rulekit.sandbox.said import lead

        return [lead(e) for e in self.game.log.since(since)
                if e.kind is EventKind.ACTION and e.parent is None]

    def last_click_words(self) -> str | None:
        """The last click that changed the game, in words (what Undo takes back), or None."""
        if not self._marks:
            return None
        return "; ".join(self._roots(self._marks[-1][1])) or "the last click"

    def undo(self) -> Outcome:
        """Take back the last click that changed the game."""
        if not self._marks:
            return Outcome("nothing", "Nothing to undo: this is the board the sandbox started "
                                      "from.")
        before, log_before = self._marks[-1]
        words = "; ".join(self._roots(log_before)) or "the last click"
        g = self.game
        g.undo(len(g.actions) - before)
        self._marks.pop()
        self._last_log = None
        return Outcome("undone", f"Undone: {words}")

    def reset(self) -> Outcome:
        """Take back every click."""
        g = self.game
        if len(g.actions) == self.start:
            return Outcome("nothing", "Nothing to reset: this is the board the sandbox started "
                                      "from.")
        n = len(self._marks)
        g.undo(len(g.actions) - self.start)
        self._marks.clear()
        self._last_log = None
        return Outcome("undone", f"Reset: {n} click(s) taken back; this is the starting board")

    def _actions(self) -> dict[str, Callable[[Mapping[str, Any]], None]]:
        g = self.game
        return {
            "tap": lambda v: g.tap_for_mana(_need(v, "permanent", "a permanent"),
                                            mana_choice(v.get("mana")), **choices(v)),
            "activate": self._activate,
            "cast": self._cast,
            "combat": lambda v: g.advance("declare_attackers", **choices(v)),
            "attack": self._attack,
            "copy": self._copy,
            "destroy": lambda v: g.destroy(list(_need(v, "to_destroy",
                                                      "one or more permanents")), **choices(v)),
            "block": lambda v: g.declare_blockers(_blocks(v), **choices(v)),
            "pass": lambda v: g.pass_priority(**choices(v)),
            "resolve": lambda v: g.resolve(**choices(v)),
            "step": lambda v: g.advance(**choices(v)),
            "turn": lambda v: g.next_turn(**choices(v)),
        }

    def _activate(self, v: Mapping[str, Any]) -> None:
        g = self.game
        obj = _need(v, "permanent", "a permanent")
        index = _need(v, "ability", "an ability")
        abilities = g.chars(g.obj(obj)).abilities
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(abilities):
            raise UsageError("ability", f"{_shown(index)} is not one of the permanent's abilities")
        ability = abilities[index]
        cost = getattr(ability, "cost", None)
        chosen: dict[str, Any] = {}
        target = v.get("target", NO_TARGET)
        if target not in (NO_TARGET, None):  # what the cost taps or sacrifices, or a target
            key = ("tap" if cost is not None and cost.tap_other else
                   "sacrifice" if cost is not None and cost.sacrifice else "targets")
            chosen[key] = [target] if key == "targets" else target
        has_x = cost is not None and cost.has_x
        g.activate(obj, index, mana=mana_choice(v.get("mana")),
                   x=_x(v) if has_x else None, **chosen, **choices(v))

    def _cast(self, v: Mapping[str, Any]) -> None:
        g = self.game
        obj = g.obj(_need(v, "hand_card", "a card in hand"))
        chars = g.chars(obj)
        if chars.is_a("Land"):
            g.play_land(obj, **choices(v))
            return
        target = v.get("target", NO_TARGET)
        targets = [target] if target not in (NO_TARGET, None) else []
        g.cast(obj, x=_x(v) if chars.mana_cost.x_count else None,
               targets=targets, **choices(v))

    def _attack(self, v: Mapping[str, Any]) -> None:
        decisions = choices(v)
        target = v.get("target", NO_TARGET)
        if target not in (NO_TARGET, None):
            decisions["target"] = [target]
        self.game.declare_attackers(list(v.get("attackers") or ()),
                                    exert=list(v.get("exert") or ()), **decisions)

    def _copier(self) -> tuple[Any, int]:
        from mtg_rulekit.objects.abilities import Activated

        g = self.game
        me = g.state.priority
        for obj in self.permanents():
            if g.controller_of(obj) != me:
                continue
            for i, a in enumerate(g.chars(obj).abilities):
                if isinstance(a, Activated) and a.makes_token_copy:
                    return obj, i
        raise RulesError(f"{me} controls nothing with an ability that creates a token copy: add "
                         "Kiki-Jiki, Mirror Breaker to the board, or attack with Sandstorm "
                         "Crasher and exert it")

    def _copy(self, v: Mapping[str, Any]) -> None:
        target = _need(v, "copy_target", "a creature to copy")
        source, index = self._copier()
        self.game.activate(source, index, targets=[target])
        self.game.resolve(**choices(v))

    # ------------------------------------------------------------ free play
    def search_cards(self, text: str, limit: int = 20) -> list[str]:
        """Catalog card names containing `text` (any case), for the "add a card" box; when
        none does, the nearest names (did you mean), so a typo still finds the card."""
        import difflib

        from mtg_rulekit.cards import catalog

        names = sorted(catalog()) if self.cards is None else list(self.cards)
        wanted = str(text or "").strip().lower()
        found = [n for n in names if wanted in n.lower()]
        if not found and wanted:
            lower = {n.lower(): n for n in names}
            found = [lower[n] for n in difflib.get_close_matches(wanted, list(lower), n=5,
                                                                  cutoff=0.5)]
        return found[:limit]

    def search(self, text: str) -> dict[str, Any]:
        """The "add a card" box's answer as JSON data: {"text", "names" (every match, or the
        nearest names), "near" (True when none contains the text: did you mean), "says" (in
        words, for a screen reader)}."""
        found = self.search_cards(text, limit=200)
        wanted = str(text or "").strip().lower()
        near = bool(wanted) and not any(wanted in n.lower() for n in found)
        if not found:
            says = f"No card is called {str(text).strip()!r:.60}, and none is close."
        elif near:
            says = f"No card is called {str(text).strip()!r:.60}. Did you mean " + \
                " or ".join(found[:3]) + "?"
        else:
            says = f"{len(found)} card{'s' if len(found) != 1 else ''} found."
        return {"text": str(text or ""), "names": found, "near": near, "says": says}

    def free_play(self) -> dict[str, Any]:
        """What free play's controls offer now, as JSON data: the `players`, the `zones` a card
        can be added to, every `step` ([value, words] in turn order), and the turn, active
        player and step the sandbox starts from."""
        from mtg_rulekit.objects.state import STEPS

        turn, active, step = self._start_turn
        return {"players": list(self.game.state.players),
                "zones": [["battlefield", "Battlefield"], ["hand", "Hand"]],
                "steps": [[st.value, st.label] for st in STEPS],
                "turn": turn, "active": active, "step": step}

    def _remember_start(self) -> None:
        """Keep the turn, active player and step of the board the sandbox starts from (the
        game is at that start now)."""
        s = self.game.state
        self._start_turn = (s.turn, s.active, s.step.value)

    def add_card(self, card: str, player: str, zone: str = "battlefield",
                 **status: Any) -> Outcome:
        """Free play: put a catalog card onto `player`'s battlefield or into their hand, as
        part of the board the sandbox starts from (a typo is refused with "did you mean";
        an instant onto the battlefield is refused with its rule). The clicks since the start
        are taken back (the board they were played on changed) and the outcome says so."""
        if zone not in ("battlefield", "hand"):
            return self._finish(Outcome("refused", f"zone: free play adds a card to the "
                                                   f"battlefield or a hand, not {zone!r:.40}"))
        if self.cards is not None and card not in self.cards:
            near = self.search_cards(card, limit=3)
            return self._finish(Outcome("refused", f"this lesson's sandbox does not offer "
                                        f"{card!r:.40}" + (f" (did you mean {' or '.join(near)}?)"
                                                          if near else "")))
        return self._edit("add", {"card": card, "player": player, "zone": zone, **status})

    def set_position(self, *, turn: int | None = None, active: str | None = None,
                     step: str | None = None) -> Outcome:
        """Free play: which turn, whose turn and which step the sandbox starts from (the
        clicks since the start are taken back)."""
        return self._edit("set_turn", {"turn": turn, "active": active, "step": step})

    def restart(self) -> Outcome:
        """Back to the board the sandbox was first given: every click and every free-play
        change taken back."""
        g = self.game
        if len(g.actions) == self._first_start:
            return self._finish(Outcome("nothing", "Nothing to take back: this is the board "
                                                   "the sandbox was given."))
        g.undo(len(g.actions) - self._first_start)
        self.start = self._first_start
        self._marks.clear()
        self._last_log = None
        self._remember_start()
        return self._finish(Outcome("undone", "Restarted: the board the sandbox was given"))

    def _free_play(self, name: str, values: Mapping[str, Any]) -> Outcome:
        if name == "add_card":
            card, player = values.get("card"), values.get("player", self.game.state.active)
            zone = values.get("zone", "battlefield")
            if not all(isinstance(v, str) for v in (card, player, zone)):
                return self._finish(Outcome("refused", "add_card: card, player and zone are "
                                                       "text"))
            return self.add_card(str(card), str(player), str(zone))
        given = {k: values.get(k) for k in ("turn", "active", "step")
                 if values.get(k) not in (None, "")}
        return self.set_position(**given)

    def _edit(self, name: str, kwargs: dict[str, Any]) -> Outcome:
        """A free-play change to the starting board, tried on a replay of the start: refused
        (the game untouched) or done (the game becomes that start plus the change)."""
        g = self.game
        try:
            fresh = g._replayed(g.actions[:self.start])
            mark = len(fresh.log)
            fresh.perform(name, **kwargs)
        except (RulesError, UsageError) as err:
            return self._finish(Outcome("refused", str(err), getattr(err, "rule", None), err))
        clicks = len(self._marks)
        g.__dict__.update(fresh.__dict__)
        self.start = len(g.actions)
        self._marks.clear()
        self._last_log = None
        self._remember_start()
        words = "; ".join(self._roots(mark))
        if clicks:
            words += f" ({clicks} click(s) since the start taken back: the board changed)"
        return self._finish(Outcome("done", words))

    # ------------------------------------------------------------ verdicts before the click
    def card_actions(self) -> dict[int, list[dict[str, Any]]]:
        """What each card offers now, each with its verdict before any click: object id ->
        [{"label", "action" (the control `click` takes), "values" (its inputs), "legal",
        "reason" and "rule" (why not, in plain words and by CR number; None when legal),
        "says" (the whole refusal as `click` would show it), "cost" (the permanent its cost
        taps or sacrifices, never called a target), "asks" (the decisions it makes),
        "choose" (what pickers ask before the click: [{"field", "kind", "heading",
        "legal"}], or None), "tried" (for such an entry, the click its verdict was tried as)}].
        Permanents first (abilities: each mana they could make, a target or cost choice and X
        left to pickers; attack, exert, block; Kiki-Jiki's copy on Kiki-Jiki; destroy, alone
        or with others), then cards in hands. Each verdict is the click itself tried in
        `Game.what_if` and taken back, so it is what choosing it does."""
        from mtg_rulekit.sandbox.menus import card_actions

        return card_actions(self)

    def choices_for(self, control: str, values: Mapping[str, Any],
                    field: str | None = None) -> list[dict[str, Any]]:
        """The decisions a click makes (replacement order, a target, may, a color, trigger
        order, the legend rule, Mana Flare's mana...), who makes each and why (the rule),
        and each answer's verdict, ready for a picker (`mtg_rulekit.sandbox.choices.choices_for`).
        With `field` ("target", "x" or "mana", a menu entry's `choose`): that input of the
        click instead, every card and player (or number, or type of mana) with its verdict
        (`mtg_rulekit.sandbox.choices.input_choices`)."""
        from mtg_rulekit.sandbox.choices import HEADINGS, choices_for, input_choices

        if not isinstance(control, str) or control not in self._actions():
            raise UsageError("control", f"no sandbox control is called {_shown(control)}")
        checked = self.values(values, control=control)
        if field is None:
            return choices_for(self, control, checked)
        if not isinstance(field, str) or field not in ("target", "x", "mana"):
            raise UsageError("choose", f"{_shown(field)} is not an input a picker chooses")
        return [input_choices(self, control, checked, field, HEADINGS[field])]

    # ------------------------------------------------------------ what to show
    @property
    def last_log(self) -> int | None:
        """Where the last click's events start in the log (None before any click)."""
        return self._last_log

    def clicks(self) -> list[tuple[int, list[int], str]]:
        """The clicks since the start that changed the game, in order: (their number, 1 for the
        first; the game actions each made, numbered as in `event.action`; the click in
        words)."""
        out: list[tuple[int, list[int], str]] = []
        if not self._marks:
            return out
        ends = [b for b, _ in self._marks[1:]] + [len(self.game.actions)]
        from mtg_rulekit.sandbox.said import lead

        for k, ((before, log_before), end) in enumerate(zip(self._marks, ends, strict=True)):
            actions = list(range(before + 1, end + 1))
            roots = [lead(e) for e in self.game.log.since(log_before)
                     if e.kind is EventKind.ACTION and e.parent is None and e.action in actions]
            out.append((k + 1, actions, "; ".join(roots) or "a click"))
        return out

    def diagram_since(self) -> int | None:
        """The first action number the diagram of the last `history` clicks starts at, or None
        for the set-up (nothing clicked yet)."""
        n = len(self.game.actions)
        if n <= self.start:
            return None
        return max(self.start + 1, n - self.history + 1)

    def to_json(self, values: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The model's state as JSON data: its fields, the last outcome, the log, the card
        menus, the time bar (`mtg_rulekit.sandbox.bar`), what it offers (the views add their
        tables: `mtg_rulekit.sandbox.view`)."""
        from mtg_rulekit.sandbox.bar import time_bar

        return {"fields": {k: f.to_json() for k, f in self.fields(values).items()},
                "last": self.last.to_json() if self.last else None,
                "log": self.game.log.dumps(),
                "card_actions": {str(k): v for k, v in self.card_actions().items()},
                "bar": time_bar(self),
                "practice": self.practice.to_json() if self.practice is not None else None,
                "offers": list(self.actions),
                "free_play": self.free_play()}


def _shown(value: Any) -> str:
    """A value a front-end sent, shown short in a refusal (whatever it is)."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        text = f"<{type(value).__name__}>"
    return text if len(text) <= 40 else text[:37] + "..."


def _offered_kinds(actions: Iterable[str] | None) -> tuple[str, ...]:
    """The lesson's `actions` checked against `ACTION_KINDS` (None: every kind), in that
    order."""
    if actions is None:
        return tuple(ACTION_KINDS)
    if isinstance(actions, str | bytes) or not isinstance(actions, Iterable):
        raise UsageError("actions", f"expected a list of kinds, e.g. [\"mana\", \"cast\"], "
                                    f"got {_shown(actions)}")
    wanted = list(actions)
    wrong = [k for k in wanted if not isinstance(k, str) or k not in ACTION_KINDS]
    if wrong:
        raise UsageError("actions", f"{_shown(wrong[0])} is not a kind of action; the kinds: "
                                    + ", ".join(ACTION_KINDS))
    return tuple(k for k in ACTION_KINDS if k in wanted)


def _offered_cards(cards: Iterable[str] | None) -> tuple[str, ...] | None:
    """The lesson's `cards` for free play, each a catalog card (None: the whole catalog)."""
    if cards is None:
        return None
    from mtg_rulekit.cards import catalog

    if isinstance(cards, str | bytes) or not isinstance(cards, Iterable):
        raise UsageError("cards", f"expected a list of card names, got {_shown(cards)}")
    names = list(cards)
    known = catalog()
    wrong = [c for c in names if not isinstance(c, str) or c not in known]
    if wrong:
        raise UsageError("cards", f"{_shown(wrong[0])} is not a card of the catalog")
    return tuple(sorted(set(names)))


def choices(values: Mapping[str, Any]) -> dict[str, Any]:
    """The "Choices" box as decisions: "replacement_order=Contamination; target=#5, #6" ->
    {"replacement_order": ["Contamination"], "target": [5, 6]}. The keys are checked by the
    engine like any call's (a misspelled one is refused, naming it)."""
    text = str(values.get("choices") or "").strip()
    out: dict[str, Any] = {}
    for part in (p.strip() for p in text.split(";") if p.strip()):
        key, sep, answer = part.partition("=")
        if not sep:
            raise UsageError("choices", f"{_shown(part)} is not key=answer (for example "
                                        "replacement_order=Contamination)")
        answers = [a.strip() for a in answer.split(",") if a.strip()] if key.strip() != \
            "pay_with" else [answer.strip()]
        out[key.strip()] = [_id_or_text(f"decisions.{key.strip()}", a) for a in answers]
    return out


def _blocks(values: Mapping[str, Any]) -> dict[int, int]:
    """The "block" menu's {blocker id: attacker id} (ids as numbers or text)."""
    raw = values.get("blocks")
    if not isinstance(raw, Mapping):
        raise UsageError("blocks", "expected {blocker id: attacker id}")
    out: dict[int, int] = {}
    for k, v in raw.items():
        blocker = written_id("blocks", k) if isinstance(k, str) else k
        if not isinstance(blocker, int) or isinstance(blocker, bool) or \
                not isinstance(v, int) or isinstance(v, bool):
            raise UsageError("blocks", f"expected {{blocker id: attacker id}}, got "
                                       f"{_shown(k)}: {_shown(v)}")
        out[blocker] = v
    return out


def _x(values: Mapping[str, Any]) -> int:
    """The X box: a whole number (or its ASCII digits); empty means 0."""
    x = values.get("x") or 0
    if isinstance(x, str):
        found = written_id("x", x.strip()) if x.strip() else 0
        if found is None:
            raise UsageError("x", f"{_shown(x)} is not a whole number")
        x = found
    return x  # the engine checks it further (a whole number, bounded)


def _id_or_text(name: str, answer: str) -> int | str:
    """An answer written as an id ("5", "#5": ASCII digits only) is that id; other text as is."""
    found = written_id(name, answer)
    return answer if found is None else found


def _need(values: Mapping[str, Any], name: str, what: str) -> Any:
    value = values.get(name)
    if value is None or value == NOTHING or value == () or value == []:
        raise UsageError(name, f"choose {what} first")
    return value
