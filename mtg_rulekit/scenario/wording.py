"""A question's words tied to the fact it reads (`[step.question]`, docs/scenarios.md
"Questions").

The engine answers every question by reading one fact (`about`): "refused", "tapped.initiate",
"triggered.refinery". Nothing else ties the words a student reads to that fact, so a question
asking "Will it untap?" while the fact read is `tapped` would mark the right answer wrong. Here:

- `choice_label`: a choice's words are made from its value, never typed apart from it: a yes/no
  fact's choices read "Yes" or "No" (`true` or "allowed" is "Yes"), any other fact's start with
  the value ("4", "{G}{G}", "2/2"); a choice may add its reason after a colon ("No: it arrived
  this turn"), the way judges word a choice.
- `question_problem`: the question is one sentence ending in "?" (after any sentences setting
  the scene); a yes/no fact is asked as a yes/no question without a negation ("Is it still
  tapped ...?", never "Will it untap?" or "Can't it ...?"), any other fact as a wh-question
  ("How many times ...?"); the question sentence says what the fact is about (`KEY_WORDS`: a
  `tapped` question says "tapped" and no "untap" but "untap step"), and the question names the
  fact's subject: the object, the player or the card it reads.

>>> choice_label("refused", "302.6", "it arrived this turn")
'No: it arrived this turn'
>>> choice_label("triggered", 4)
'4'
>>> question_problem("Will it untap in Bob's untap step?", "tapped", ["Glory-Bound Initiate"])
"a question about 'tapped' says 'tapped' in its question sentence (and 'untap' only in 'untap step'): ask 'Is ... tapped?', never 'Will it untap?'"
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

__all__ = ["KEY_WORDS", "YES_NO", "choice_label", "question_problem", "sentences",
           "value_words", "why_problem"]

YES_NO = ("refused", "tapped", "sick")
"""The facts answered yes or no: "refused" (is the action allowed?) and the true/false facts."""

_AUXILIARIES = frozenset({"can", "could", "may", "is", "are", "was", "were", "will", "would",
                          "does", "do", "did", "has", "have", "had", "should", "must"})
_AUXILIARIES = _AUXILIARIES | {w + "n't" for w in _AUXILIARIES} | {"can't", "won't", "cannot"}
_POSSIBLE = frozenset({"can", "could", "may"})  # "refused" asks whether an action is possible
_NEGATION = re.compile(r"\b(?:not|never|no longer|cannot|nothing|none)\b|n't\b", re.I)
_UNTAP = re.compile(r"\buntap(?:s|ped|ping)?\b(?! step)", re.I)

KEY_WORDS: dict[str, tuple[str, ...]] = {
    "turn": ("turn",), "step": ("step", "phase"), "active": ("whose turn", "active"),
    "life": ("life",), "pool": ("pool",), "spent": ("spend", "spent", "pay"),
    "tapped": ("tapped",), "sick": ("summoning sick",), "counters": ("counter",),
    "damage": ("damage",), "pt": ("power and toughness",), "zone": ("where",),
    "controller": ("control",), "could_produce": ("produce",),
    "types": ("type",), "subtypes": ("type",), "supertypes": ("type", "legendary"),
    "colors": ("color",), "keywords": ("keyword", "haste", "flying", "vigilance", "lifelink",
                                       "trample"),
    "abilities": ("abilit",), "mana_value": ("mana value",), "count": ("how many",),
    "tokens": ("how many",), "triggered": ("trigger",),
    "refused": (),
}
"""Words the question sentence says for each fact (any one of them; a prefix matches a word:
"trigger" matches "triggers")."""
_ALSO = {"triggered": ("how many",)}  # and each of these too

_STOP = frozenset({"the", "of", "a", "an", "and", "to", "in", "on", "s"})


def value_words(value: Any) -> str:
    """A value as a student reads it: a pool as mana symbols ("{G}{G}", "nothing"), counters
    as "3 +1/+1 counters" ("no counters"), a number or text as it is."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        if not value:
            return "nothing"
        if all(isinstance(v, str) and re.fullmatch(r"[WUBRGCS](?: .*)?", v) for v in value):
            from mtg_rulekit.core.mana import notation_shown

            said = notation_shown(value)  # the one notation of every view
            return said if said != ", ".join(value) else "".join(_mana(v) for v in value)
        return ", ".join(value_words(v) for v in value)
    if isinstance(value, dict):  # counters
        return ", ".join(f"{n} {k} counter{'s' if n != 1 else ''}" for k, n in value.items()) \
            if value else "no counters"
    return str(value)


def _mana(unit: str) -> str:
    kind, _, rest = unit.partition(" ")
    return "{" + kind + "}" + (f" ({rest.strip('()')})" if rest else "")


STEP_WORDS = {"untap": "untap step", "upkeep": "upkeep", "draw": "draw step",
              "main1": "first main phase", "beginning_of_combat": "beginning of combat step",
              "declare_attackers": "declare attackers step",
              "declare_blockers": "declare blockers step", "combat_damage": "combat damage step",
              "end_of_combat": "end of combat step", "main2": "second main phase",
              "end": "end step", "cleanup": "cleanup step"}
"""A step's name as a student reads it (a question about `step`)."""


def choice_label(about: str, value: Any, because: str = "") -> str:
    """The words of a choice: "Yes"/"No" for a yes/no fact (`about` is its key: "refused",
    "tapped", "sick"), a step's name for `step`, else the value's words, then ": " and the
    reason if given."""
    if about in YES_NO:
        yes = value is True or value == "allowed"
        head = "Yes" if yes else "No"
    elif about == "step" and value in STEP_WORDS:
        head = STEP_WORDS[value][:1].upper() + STEP_WORDS[value][1:]
    elif about == "could_produce" and isinstance(value, list):  # types, not an amount
        head = " or ".join("{" + str(v) + "}" for v in value) or "Nothing"
    else:
        head = value_words(value)
        head = head[:1].upper() + head[1:]
    return f"{head}: {because.strip()}" if because.strip() else head


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'{(0-9])")


def sentences(text: str) -> list[str]:
    """`text` cut into sentences (at ".", "!" or "?" then a space and a capital, a digit, a
    quote or a brace)."""
    return [s.strip() for s in _SENTENCE_END.split(" ".join(text.split())) if s.strip()]


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower())


def _has(sentence: str, phrase: str) -> bool:
    """Whether `sentence` says `phrase` (each word at a word start; the last may be a prefix)."""
    return re.search(r"\b" + re.escape(phrase.lower()), sentence.lower()) is not None


def _names(ask: str, subjects: Iterable[str]) -> bool:
    said = set(re.findall(r"[a-z0-9]+", ask.lower()))
    said |= {w[:-1] for w in said if w.endswith("s")}  # "Powerstones" names "Powerstone"
    for subject in subjects:
        for word in re.findall(r"[A-Za-z0-9']+", subject.replace("'s", "")):
            w = word.lower()
            if w not in _STOP and len(w) > 2 and w in said:
                return True
    return False


def question_problem(ask: str, key: str, subjects: Iterable[str]) -> str | None:
    """What is wrong with the words `ask` of a question about the fact `key` ("refused",
    "tapped", "pool", ...), whose subject any of `subjects` names (card names, a player, or
    "token"/"copy" for a token): None when they fit the fact (see the module docstring)."""
    parts = sentences(ask)
    if ask.count("?") != 1 or not parts or not parts[-1].endswith("?"):
        return ("a question asks one thing: its words end with the one question sentence, "
                "ending in '?'")
    question = parts[-1]
    first = _words(question)[0] if _words(question) else ""
    if key in YES_NO:
        if first not in _AUXILIARIES:
            return (f"a question about {key!r} is answered yes or no: ask it as a yes/no "
                    "question ('Can ...?', 'Is ...?'), not 'What/How ...?'")
        if _NEGATION.search(question):
            return (f"a yes/no question about {key!r} asks without a negation ('Can it ...?', "
                    "not 'Can't it ...?'): its Yes must mean the fact holds")
        if key == "refused" and first not in _POSSIBLE:
            return ("a question about 'refused' asks whether the action is possible: 'Can ...?' "
                    "(Yes means the engine allows it)")
    elif first in _AUXILIARIES:
        return (f"a yes/no question can't be about {key!r}, whose answer is a value: ask "
                "'What/How many/Where ...?', or ask about a yes/no fact (refused, tapped, sick)")
    if key == "tapped" and (_UNTAP.search(question) or not _has(question, "tapped")):
        return ("a question about 'tapped' says 'tapped' in its question sentence (and 'untap' "
                "only in 'untap step'): ask 'Is ... tapped?', never 'Will it untap?'")
    wanted = KEY_WORDS.get(key, ())
    if wanted and not any(_has(question, w) for w in wanted):
        said = " or ".join(repr(w) for w in wanted)
        return f"a question about {key!r} says {said} in its question sentence"
    for also in _ALSO.get(key, ()):
        if not _has(question, also):
            return f"a question about {key!r} says {also!r} in its question sentence"
    subjects = [s for s in subjects if s]
    if subjects and not _names(ask, subjects):
        return (f"the question doesn't name what its fact reads: say {subjects[0]!r} (or a "
                "word of its name)")
    return None


MAX_WHY_WORDS = 30


def why_problem(why: str) -> str | None:
    """What is wrong with a question's one-line why: None when it is one sentence of at most
    `MAX_WHY_WORDS` words."""
    if len(sentences(why)) != 1:
        return "the why is one sentence, shown after Check: the rest goes in the step's notes"
    n = len(re.findall(r"[A-Za-z0-9{][A-Za-z0-9'’/+{}-]*", why))
    if n > MAX_WHY_WORDS:
        return f"the why has {n} words; at most {MAX_WHY_WORDS}"
    return None


def _folded(text: str) -> str:
    return " ".join(text.lower().split())


def answer_on_screen(rules: Iterable[str], right_label: str | None,
                     shown: Iterable[tuple[str, str]]) -> list[str]:
    """Where a question's answer is on screen before it is asked: for each (where, text) of
    `shown` (the set-up's words, the narration of each step before, the refusal on the frame
    it is asked on), the deciding `rules` it names (a number with a letter after it is another
    rule) and the right
    choice's words it says (`right_label`: its reason, "it arrived this turn"; its value when
    that is more than a number, yes/no or one mana symbol: "2/2", "{G}{G}{G}"). [] when
    nothing gives it away.

    >>> answer_on_screen(["302.6"], "No: it arrived this turn",
    ...                  [("the set-up", "No: it arrived this turn (CR 302.6).")])
    ['the set-up names CR 302.6', "the set-up says 'it arrived this turn'"]
    """
    phrases: list[str] = []
    if right_label:
        head, _, reason = right_label.partition(": ")
        if reason.strip():
            phrases.append(reason.strip())
        if "/" in head or head.count("{") > 1:  # "2/2", "{G}{G}": not one symbol, not "4"
            phrases.append(head)
    out: list[str] = []
    for where, text in shown:
        for rule in rules:
            if re.search(r"(?<![0-9.])" + re.escape(rule) + r"(?![0-9a-z])", text):
                out.append(f"{where} names CR {rule}")
        folded = _folded(text)
        for phrase in phrases:
            if _folded(phrase) in folded:
                out.append(f"{where} says {phrase!r}")
    return out
