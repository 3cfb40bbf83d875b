"""What each action takes, declared once and checked before the action runs.

`Game.perform` checks a call against `ACTION_ARGS` before anything happens: an unknown argument,
a missing one, a value of the wrong type or one that means nothing (a step that doesn't exist,
an object id that isn't in the game) raises `UsageError` naming the argument, so the rules code
only ever sees well-formed values. What the rules forbid is left to the rules code (`RulesError`).
The scenario runner, the sandbox and the fuzz tests call actions by these names.
"""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mtg_rulekit.core.decisions import (
    DECISIONS,
    LONGEST_NAME,
    NAMING_DECISIONS,
    OBJECT_DECISIONS,
    bounded_int,
    bounded_text,
    shown,
    written_id,
)
from mtg_rulekit.core.errors import UnknownCard, UsageError
from mtg_rulekit.objects.state import GameObject, Step, Zone

if TYPE_CHECKING:
    from mtg_rulekit.objects.context import RulesContext

Check = Callable[["RulesContext", str, Any], Any]
"""(game, argument name, value) -> the value in its canonical form, or raise UsageError."""

SETUP_ZONES = ("battlefield", "hand", "graveyard", "exile", "library")
"""Where set-up can put a card (the stack is reached only by casting or activating)."""

MANA_LETTERS = "WUBRGC"
STATUS_FLAGS = ("tapped", "sick", "token", "attacking")


@dataclass(frozen=True)
class Param:
    """One argument of an action: how it is checked, and whether the call must give it."""

    check: Check
    required: bool = False


def _hint(value: str, options: list[str]) -> str:
    close = difflib.get_close_matches(value, options, n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""


# ------------------------------------------------------------------ checks
def integer(game: RulesContext, name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise UsageError(name, f"expected a whole number, got {shown(value)}")
    return bounded_int(name, value)


def boolean(game: RulesContext, name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise UsageError(name, f"expected True or False, got {shown(value)}")
    return value


def text(game: RulesContext, name: str, value: Any) -> str:
    if not isinstance(value, str) or not value:
        raise UsageError(name, f"expected a non-empty string, got {shown(value)}")
    return value


def object_id(game: RulesContext, name: str, value: Any) -> int:
    """An object in this game, given as an id, "#id" or the object itself."""

    given = value
    if isinstance(value, GameObject):
        value = value.id
    elif isinstance(value, str):
        value = written_id(name, value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise UsageError(name, f"expected an object id (a whole number such as 7, or '#7'), "
                               f"got {shown(given)}")
    if value not in game.state.objects:
        raise UsageError(name, f"there is no object #{bounded_int(name, value)} in this game")
    return value


def object_ids(game: RulesContext, name: str, value: Any) -> list[int]:
    if isinstance(value, (str, bytes, dict)) or not hasattr(value, "__iter__"):
        raise UsageError(name, f"expected a list of object ids, got {shown(value)}")
    return [object_id(game, f"{name}[{i}]", v) for i, v in enumerate(value)]


def _one_of(name: str, value: Any, options: list[str], wrong: str) -> str:
    """`value` if it is one of `options`, else UsageError: `wrong` (with the value shown where
    it says {value}), the options, and the closest one."""
    if not isinstance(value, str) or value not in options:
        hint = _hint(value, options) if isinstance(value, str) else ""
        raise UsageError(name, wrong.format(value=shown(value), options=", ".join(options))
                         + hint)
    return value


def player(game: RulesContext, name: str, value: Any) -> str:
    return _one_of(name, value, list(game.state.players),
                   "there is no player called {value} (players: {options})")


def step(game: RulesContext, name: str, value: Any) -> str:
    if isinstance(value, Step):
        return value.value
    return _one_of(name, value, [s.value for s in Step],
                   "{value} is not a step; steps are: {options}")


def setup_zone(game: RulesContext, name: str, value: Any) -> str:
    return _one_of(name, value.value if isinstance(value, Zone) else value, list(SETUP_ZONES),
                   "{value} is not a zone set-up can put a card in; use one of: {options}")


def card_name(game: RulesContext, name: str, value: Any) -> str:
    if not isinstance(value, str):
        raise UsageError(name, f"expected a card name, got {shown(value)}")
    try:
        return game.card(value).name
    except UnknownCard as err:
        raise UsageError(name, err.reason) from None


def mana_symbols(game: RulesContext, name: str, value: Any) -> str:
    """Mana as letters, braces optional: "G", "{R}{R}{G}", "wu"."""
    bare = value.replace("{", "").replace("}", "").upper() if isinstance(value, str) else None
    if not bare or any(c not in MANA_LETTERS for c in bare):
        raise UsageError(name, f"{shown(value)} is not mana; write it with the letters W U B R G "
                               "C, for example 'G' or '{R}{G}'")
    return str(value)


def counters(game: RulesContext, name: str, value: Any) -> dict[str, int]:
    if not isinstance(value, dict):
        raise UsageError(name, f"expected {{counter kind: how many}}, got {shown(value)}")
    out: dict[str, int] = {}
    for kind, n in value.items():
        if not isinstance(kind, str) or not kind:
            raise UsageError(name, f"a counter kind is a name like '+1/+1', got {shown(kind)}")
        bounded_text(f"{name} key", kind, LONGEST_NAME)
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise UsageError(f"{name}[{kind!r}]", f"expected how many counters (a whole number, 0 "
                                                  f"or more), got {shown(n)}")
        bounded_int(f"{name}[{kind!r}]", n)
        if n:
            out[kind] = n
    return out


def choices(game: RulesContext, name: str, value: Any) -> dict[str, str]:
    if not isinstance(value, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
        raise UsageError(name, f"expected {{choice: value}} with text values, got {shown(value)}")
    for k, v in value.items():
        bounded_text(f"{name} key", k, LONGEST_NAME)
        bounded_text(f"{name}[{k!r}]", v)
    return dict(value)


def targets(game: RulesContext, name: str, value: Any) -> list[int | str]:
    """Objects (ids) or players (names)."""
    if isinstance(value, (str, bytes, dict)) or not hasattr(value, "__iter__"):
        raise UsageError(name, f"expected a list of targets, got {shown(value)}")
    out: list[int | str] = []
    for i, v in enumerate(value):
        if isinstance(v, str) and written_id(f"{name}[{i}]", v) is None:
            out.append(player(game, f"{name}[{i}]", v))
        else:
            out.append(object_id(game, f"{name}[{i}]", v))
    return out


def blocks(game: RulesContext, name: str, value: Any) -> dict[str, int]:
    """{blocker: attacker}; kept with string keys so an action record is plain JSON."""
    if not isinstance(value, dict):
        raise UsageError(name, f"expected {{blocker id: attacker id}}, got {shown(value)}")
    return {str(object_id(game, f"{name} key", k)): object_id(game, f"{name}[{k!r}]", v)
            for k, v in value.items()}


def pool_mana(game: RulesContext, name: str, value: Any) -> list[dict[str, str]]:
    """Set-up mana: [{"type": "C", "restriction": "powerstone"}, ...]."""
    if isinstance(value, (str, bytes, dict)) or not hasattr(value, "__iter__"):
        raise UsageError(name, f"expected a list of mana like {{'type': 'G'}}, got {shown(value)}")
    out = []
    for i, m in enumerate(value):
        where = f"{name}[{i}]"
        if not isinstance(m, dict) or not set(m) <= {"type", "restriction", "creature_type"}:
            raise UsageError(where, "expected {'type': one of W U B R G C, optional "
                                    f"'restriction' and 'creature_type'}}, got {shown(m)}")
        kind = m.get("type")
        if not isinstance(kind, str) or len(kind) != 1 or kind not in MANA_LETTERS:
            raise UsageError(f"{where}.type", f"{shown(kind)} is not a type of mana; use one of "
                                              "W U B R G C")
        restriction = m.get("restriction")
        if restriction not in (None, "", "powerstone", "cavern"):
            raise UsageError(f"{where}.restriction", f"{shown(restriction)} is not a mana "
                                                     "restriction; use 'powerstone' or 'cavern'")
        if "creature_type" in m:
            if not isinstance(m["creature_type"], str):
                raise UsageError(f"{where}.creature_type", "expected a creature type name")
            bounded_text(f"{where}.creature_type", m["creature_type"], LONGEST_NAME)
        out.append(dict(m))
    return out


def optional(check: Check) -> Check:
    """`check`, or None (the action's default)."""
    @functools.wraps(check)  # `__wrapped__`: the scenario runner reads what the value names
    def checked(game: RulesContext, name: str, value: Any) -> Any:
        return None if value is None else check(game, name, value)
    return checked


def at_least(low: int) -> Check:
    def checked(game: RulesContext, name: str, value: Any) -> int:
        n = integer(game, name, value)
        if n < low:
            raise UsageError(name, f"expected a whole number of at least {low}, got {n}")
        return n
    return checked


def whole_number_x(game: RulesContext, name: str, value: Any) -> int:
    """X is a number; a negative X is the rules' business (CR 107.3), not a malformed call."""
    return integer(game, name, value)


# --------------------------------------------------------------- the spec
_OBJECT = Param(object_id, required=True)

ACTION_ARGS: dict[str, dict[str, Param]] = {
    "add": {"card": Param(card_name, True), "player": Param(player, True),
            "zone": Param(setup_zone), **{f: Param(boolean) for f in STATUS_FLAGS},
            "counters": Param(counters), "choices": Param(choices),
            "attached_to": Param(optional(object_id)), "owner": Param(optional(player)),
            "position": Param(optional(lambda g, n, v: _position(n, v)))},
    "set_turn": {"turn": Param(optional(at_least(1))), "active": Param(optional(player)),
                 "step": Param(optional(step))},
    "set_life": {"player": Param(player, True), "life": Param(integer, True)},
    "set_pool": {"player": Param(player, True), "mana": Param(pool_mana, True)},
    "play_land": {"object": _OBJECT},
    "cast": {"object": _OBJECT, "x": Param(optional(whole_number_x)), "targets": Param(targets)},
    "activate": {"object": _OBJECT, "ability": Param(optional(at_least(0))),
                 "mana": Param(optional(mana_symbols)), "x": Param(optional(whole_number_x)),
                 "targets": Param(targets), "sacrifice": Param(optional(object_id)),
                 "tap": Param(optional(object_id))},
    "tap_for_mana": {"object": _OBJECT, "mana": Param(optional(mana_symbols))},
    "pass_priority": {},
    "resolve": {},
    "advance": {"to": Param(optional(step))},
    "next_turn": {},
    "destroy": {"objects": Param(object_ids, True)},
    "exile": {"objects": Param(object_ids, True)},
    "gain_control": {"object": _OBJECT, "player": Param(player, True),
                     "until_end_of_turn": Param(boolean)},
    "declare_attackers": {"attackers": Param(object_ids), "exert": Param(object_ids)},
    "declare_blockers": {"blocks": Param(blocks, True)},
}
"""Action name -> its arguments. The `Game` methods and the scenario runner call these."""

def _position(name: str, value: Any) -> str:
    if value not in ("top", "bottom"):
        raise UsageError(name, f"a library position is 'top' or 'bottom', got {shown(value)}")
    return str(value)


def check_call(game: RulesContext, action: str, kwargs: dict[str, Any],
               decisions: dict[str, Any] | None) -> tuple[dict[str, Any], dict[str, list[Any]]]:
    """The call's arguments and decisions in canonical form, or UsageError naming what is
    wrong. Runs before the action, so a malformed call changes nothing."""
    spec = ACTION_ARGS.get(action)
    if spec is None:
        raise UsageError("action", f"{shown(action)} is not an action; actions are: "
                                   f"{', '.join(ACTION_ARGS)}"
                                   f"{_hint(action, list(ACTION_ARGS)) if isinstance(action, str) else ''}")
    unknown = [k for k in kwargs if k not in spec]
    if unknown:
        takes = ", ".join(spec) or "no arguments"
        raise UsageError(unknown[0], f"{action} takes {takes}"
                                     f"{_hint(unknown[0], list(spec))}")
    answers = check_decisions(game, decisions)
    missing = [k for k, p in spec.items() if p.required and kwargs.get(k) is None]
    if missing:
        raise UsageError(missing[0], f"{action} needs {missing[0]}")
    # None means "the action's default", so it is left out (and out of the replay record)
    checked = {k: spec[k].check(game, k, v) for k, v in kwargs.items() if v is not None}
    return checked, answers


def _object_form(name: str, value: Any) -> int:
    """An object named by a decision: an id or "#id". Whether it exists is checked when the
    decision is used (the object may be made by the action itself, like a card just drawn)."""

    if isinstance(value, GameObject):
        return value.id
    if isinstance(value, str):
        found = written_id(name, value)
        if found is not None:
            return found
    if isinstance(value, bool) or not isinstance(value, int):
        raise UsageError(name, f"expected an object id, got {shown(value)}")
    return bounded_int(name, value)


_DECLINE = (None, False, "no", "none")
"""What declines a `copy` (Clone's "you may") or an `encode` (cipher's, CR 702.99a)."""

_PAY_WITH = re.compile(r"\{[WUBRGC]#[0-9]+\}|\{?[WUBRGC]\}?(?:#[0-9]+)?", re.ASCII | re.IGNORECASE)


def _mana_ability_form(name: str, value: Any) -> int | str:
    """`mana_abilities`: an object (id, "#id" or the object), or "#id:G" saying which mana
    its ability makes, written as the `mana` argument is ("#7:GG", "#7:{R}{G}")."""
    if isinstance(value, str) and ":" in value:
        bounded_text(name, value)
        ref, _, mana = value.partition(":")
        found = written_id(name, ref.strip())
        letters = mana.replace("{", "").replace("}", "").strip().upper()
        if found is None or not letters or any(c not in MANA_LETTERS for c in letters):
            raise UsageError(name, f"{shown(value)} is not a permanent and the mana its ability "
                                   "makes, such as '#7:G' or '#7:GG'")
        bounded_int(name, found)
        return value
    return _object_form(name, value)


def _name_or_object(name: str, value: Any) -> int | str:
    """`target` (an object or a player's name) and `trigger_order` (a source, by id or
    name): an object becomes its id; text is kept as written (checked: an id in it is
    written with the digits 0-9)."""
    if isinstance(value, str):
        written_id(name, value)
        return bounded_text(name, value)
    return _object_form(name, value)


def _plain(name: str, value: Any) -> Any:
    """Any other decision's answer: text, yes/no or a (bounded) whole number, so the action
    record holds only plain data and replays (a live object there would be stale later)."""
    if isinstance(value, str):
        return bounded_text(name, value)
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        return bounded_int(name, value)
    what = "an object" if isinstance(value, GameObject) else shown(value)
    raise UsageError(name, f"expected text, yes/no or a whole number, got {what}")


def _pay_with_form(name: str, value: Any) -> Any:
    """`pay_with`: mana symbols, each with at most one '#id' ("G C#7"); "G#1#2" is refused."""
    value = _plain(name, value)
    if isinstance(value, str):
        text = value.replace(",", " ")
        if _PAY_WITH.sub(" ", text).strip():
            raise UsageError(name, f"{shown(value)} is not a list of mana such as 'G C#7' (a "
                                   "type letter, optionally #the id of the one source it came "
                                   "from)")
    return value


def _answer(key: str, value: Any) -> Any:
    """One answer to decision `key` in the form the action record keeps (plain data)."""
    name = f"decisions.{key}"
    if key in OBJECT_DECISIONS:
        if key in ("copy", "encode") and value in _DECLINE:
            return value
        return _object_form(name, value)
    if key == "mana_abilities":
        return _mana_ability_form(name, value)
    if key in ("target", "trigger_order"):
        return _name_or_object(name, value)
    if key == "pay_with":
        return _pay_with_form(name, value)
    assert key not in NAMING_DECISIONS, key  # each of those is handled above
    return _plain(name, value)


def check_decisions(game: RulesContext, decisions: dict[str, Any] | None) -> dict[str, list[Any]]:
    """Known keys only (a misspelled key is never ignored); every answer in plain form: an
    answer naming an object becomes its id (an object itself, "7" or "#7"), so the action
    record replays; anything else that isn't text, yes/no or a whole number is refused."""
    if decisions is None:
        return {}
    if not isinstance(decisions, dict):
        raise UsageError("decisions", f"expected {{key: answer}}, got {shown(decisions)}")
    out: dict[str, list[Any]] = {}
    for key, answers in decisions.items():
        if key not in DECISIONS:
            raise UsageError(f"decisions.{key}" if isinstance(key, str) else "decisions",
                             f"no decision is called {shown(key)}; decisions are: "
                             f"{', '.join(DECISIONS)}"
                             f"{_hint(key, list(DECISIONS)) if isinstance(key, str) else ''}")
        listed = list(answers) if isinstance(answers, (list, tuple)) else [answers]
        out[key] = [_answer(key, a) for a in listed]
    return out
