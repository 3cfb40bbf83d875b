"""The words of the event and trigger diagrams that are not an event's own: why a step drew
nothing, the choices behind an event, rule summaries for tooltips, and the wrapping of all of it
into a node's lines. Standard library only, no drawing. What events say (including a replaced
event's before and after, the set-up and time passing) is the narrator's (`mtg_rulekit.objects.narrator`).

>>> wrap_lines("Alice taps Exotic Orchard (#1) for mana")
['Alice taps Exotic Orchard', '(#1) for mana']
>>> empty_step_note({"do": "undo", "n": 2})
'Undo: 2 action(s) taken back'
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from mtg_rulekit.core.events import Event
from mtg_rulekit.core.payloads import Payload
from mtg_rulekit.objects import narrator

__all__ = [
    "OBJ_NO", "OUTCOME_WORDS", "WRAP", "action_words", "after_text", "box_words", "choices", "copy_compared",
    "empty_step_note", "explained", "object_name", "proposed_text",
    "step_get", "step_label", "wrap", "wrap_lines",
]

WRAP = 26  # characters per line in a node

# how a replacement effect changed an event, in the effect's box
OUTCOME_WORDS = {"modified": "modifies it", "replaced": "replaces it", "prevented": "prevents it"}

OBJ_NO = re.compile(r"\s*\(#\d+\)")


class Context(Protocol):
    """What the wording needs from the diagram's model: the game (object names, decisions;
    None for a bare `EventLog`)."""

    game: Any


# ----------------------------------------------------------------------------- scenario steps
def step_get(step: Any, key: str, default: Any = None) -> Any:
    """A field of a scenario step (a dict, or an object with attributes)."""
    if isinstance(step, Mapping):
        return step.get(key, default)
    return getattr(step, key, default)


def action_words(step: Any) -> str:
    """A scenario step's action in words: `tap for mana`, `declare attackers`."""
    return str(step_get(step, "do", "") or "the action").replace("_", " ")


def empty_step_note(step: Any, error: Any = None) -> str:
    """The note of a step that drew nothing: for a refused action, which action and why (the
    engine's own words, as the walkthrough's frame says it)."""
    do = step_get(step, "do", "")
    err = step_get(step, "expect_error")
    if err or error is not None:
        why = str(error) if error is not None else ""
        rule = step_get(err, "rule") if err else None
        if not why:
            why = "the rules don't allow it" + (f" (CR {rule})" if rule else "")
        return f"Refused: {action_words(step)}. {why[:1].upper()}{why[1:]}. Nothing changes."
    if do == "undo":
        n = step_get(step, "n", 1)
        return f"Undo: {n} action(s) taken back"
    if do == "look":
        return "Look: nothing happens"
    return "Nothing new happens"


def step_label(step: str) -> str:
    """A step of the turn in words ("precombat main phase"); an unknown one as it is."""
    from mtg_rulekit.objects.state import Step

    try:
        return Step(step).label
    except ValueError:
        return step


# ----------------------------------------------------------------------------- names
def object_name(model: Context, obj_id: Any) -> str:
    game = model.game
    if game is not None and isinstance(obj_id, int) and obj_id in game.state.objects:
        try:
            return str(game.describe(obj_id))
        except Exception:  # a name is only a nicety here
            pass
    return f"#{obj_id}"


# ----------------------------------------------------------------------------- events
def box_words(e: Event) -> str:
    """An event in a diagram's box: its few words (`narrator.brief`), else its text."""
    return (narrator.brief(e.payload) if e.payload is not None else None) or e.text


def _named_in(answer: str, words: str) -> bool:
    """Whether a choice's answer (an object, a card, a type) is named in a box's words; a
    number never is (X = 3 is said even when "(#3)" is in the box)."""
    return bool(answer) and not answer.isdigit() and \
        re.search(rf"(?<!\w){re.escape(answer)}(?!\w)", words) is not None


def choices(model: Context, eid: int, words: str = "") -> tuple[list[str], list[str]]:
    """The decisions that shaped event `eid` and who made them (CR 616.1, 603.3b, 704.5j):
    (lines for the label: choices the caller gave, but those whose answer the box's `words`
    name already ("... targets Grizzly Bears (#2)"); lines for the tooltip: all of them)."""
    game = model.game
    given: list[str] = []
    said: list[str] = []
    for d in getattr(game, "decisions", ()):
        if d.event != eid:
            continue
        answer = d.answer
        if isinstance(answer, int) and not isinstance(answer, bool) and \
                answer in game.state.objects:
            answer = game.describe(answer)
        who = d.player or "the game"
        if isinstance(answer, bool) and d.key in ("pay", "may"):  # "Alice chose to pay"
            text = f"{who} chose {'' if answer else 'not '}to {'pay' if d.key == 'pay' else 'do it'}"
        elif isinstance(answer, bool):
            text = f"{who} chose {d.key.replace('_', ' ')}: {'yes' if answer else 'no'}"
        elif d.key == "pay_with":
            text = f"{who} chose to pay with {answer}"
        else:
            text = f"{who} chose {d.key.replace('_', ' ')}: {answer}"
        said.append(text + ("" if d.given else " (the default)"))
        if d.given and not _named_in(str(answer), words):
            given.append(f"({text})")
    return given, said


def explained(rules: Iterable[str]) -> list[str]:
    """"CR 605.3a — title: summary" for each rule the kit summarises (for tooltips)."""
    from mtg_rulekit.core.rules import all_rules

    known = all_rules()
    return [f"CR {r} — {known[r].title}: {known[r].summary}" for r in rules if r in known]


def proposed_text(model: Context, e: Event) -> str:
    """Replaced event `e` as first proposed, before replacement effects ("... would add
    ...")."""
    data = e.proposed or e.applied[0].before
    return narrator.change(data, _Names(model), proposed=True)


def after_text(model: Context, e: Event, data: Payload) -> str:
    """The event as a replacement effect left it ("... adds ...")."""
    return narrator.change(data, _Names(model), proposed=False)


class _Names:
    """Object names for the narrator from the diagram's game ("#id" without one)."""

    def __init__(self, model: Context) -> None:
        self._model = model

    def describe(self, obj: int) -> str:
        return object_name(self._model, obj)

    def name(self, obj: int) -> str:
        return OBJ_NO.sub("", object_name(self._model, obj))


def _facts(game: Any, obj_id: int) -> tuple[str, dict[str, str]]:
    """A permanent as the board shows it now: its name (a copy says what its card really is)
    and its facts by kind: P/T, tapped, attacking, counters, what is attached, the "as
    enters" choices."""
    obj = game.state.objects[obj_id]
    chars = game.chars(obj_id)
    facts = {"pt": chars.pt if chars.is_a("Creature") else "",
             "tapped": "tapped" if obj.tapped else "untapped",
             "attacking": "attacking" if getattr(obj, "attacking", False) else "not attacking"}
    counters = [f"{n} {kind} counter{'s' if n != 1 else ''}" for kind, n in
                sorted(obj.counters.items()) if n]
    facts["counters"] = ", ".join(counters) or "no counters"
    held = [game.chars(o).name for o in sorted(game.state.objects)
            if game.state.objects[o].attached_to == obj_id
            and game.state.objects[o].zone == obj.zone]
    facts["attached"] = (", ".join(held) + " attached") if held else "nothing attached"
    for k, v in sorted(obj.choices.items()):
        facts[f"choice {k}"] = f"{k.replace('_', ' ')}: {v}"
    printed = getattr(obj.card, "name", "")
    name = str(game.describe(obj_id))
    if printed and not obj.token and not name.startswith(printed):
        name = f"{printed} (#{obj_id}), a copy of {chars.name}"
    return name, facts


def copy_compared(model: Context, e: Event) -> list[str]:
    """For a token created as a copy of a target (Cackling Counterpart, Kiki-Jiki, Sandstorm
    Crasher): the original and the copy side by side as the board has them now, so the
    diagram shows what copying took (copiable values, CR 707.2) and what it didn't (status,
    counters, what is attached, choices made as it entered); [] otherwise."""
    from mtg_rulekit.core.events import EventKind
    from mtg_rulekit.core.payloads import Resolved, Targeted, TokenCreated

    game = model.game
    d = e.payload
    if game is None or not isinstance(d, TokenCreated) or not d.copy_text or d.new is None:
        return []
    log = game.log
    parent = log[e.parent] if e.parent is not None else None
    if parent is None or not isinstance(parent.payload, Resolved):
        return []
    item = parent.payload.item_id
    originals = [t.payload.object for t in log if t.kind is EventKind.TARGETED
                 and isinstance(t.payload, Targeted) and t.payload.item_id == item
                 and t.payload.object is not None]
    objects = game.state.objects
    if len(originals) != 1 or originals[0] not in objects or d.new not in objects \
            or objects[d.new].zone != objects[originals[0]].zone:
        return []
    (name_a, a), (name_b, b) = _facts(game, originals[0]), _facts(game, d.new)
    differ = [k for k in dict.fromkeys(list(a) + list(b)) if a.get(k, "") != b.get(k, "")
              and (a.get(k) or b.get(k))]
    said_a = ", ".join(a[k] for k in differ if a.get(k)) or "the same values"
    said_b = ", ".join(b[k] for k in differ if b.get(k)) or "the same values"
    return [f"Original {name_a}: {said_a}", f"Copy {name_b}: {said_b}"]


# ----------------------------------------------------------------------------- wrapping
def wrap(text: str, width: int = WRAP) -> str:
    return "\n".join(wrap_lines(text, width))


def wrap_lines(text: str, width: int = WRAP) -> list[str]:
    """`text` in lines of at most `width` characters (a long word stays whole); each line
    break in `text` is kept."""
    out: list[str] = []
    for para in str(text).split("\n"):
        out += textwrap.wrap(para, width, break_on_hyphens=False) or [""]
    return out
