"""Errors the kit raises, one type per party to blame.

- `RulesError`: the rules forbid the action (the message cites the rule). The game is unchanged.
- `UsageError`: the call itself is malformed (an unknown step, a zone that doesn't exist, a
  string where a number belongs, an object id that isn't in the game). It names the argument.
  The game is unchanged.
- `ScenarioError`: a scenario file is wrong; it says where (file:line) and what is wrong.

Anything else escaping the engine is a bug in rulekit.
"""

from __future__ import annotations

from mtg_rulekit.core.rules import all_rules

MESSAGE_LIMIT = 300
"""Longest reason an error keeps: a value quoted in a message (a 10 KB card name, a 400 KB
title) is cut, so every message stays one readable line."""


def bounded(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """`text`, cut in the middle with a note if it is longer than `limit` characters."""
    if len(text) <= limit:
        return text
    keep = limit - 40
    return f"{text[:keep // 2 + keep % 2]} ... [{len(text) - keep} characters cut] ... " \
           f"{text[-(keep // 2):]}"


def rule_name(rule: str) -> str | None:
    """The rule's title in plain words, from the kit's list of cited rules (None if unknown)."""
    found = all_rules().get(rule)
    if found is None:
        return None
    title = found.title
    return title[0].lower() + title[1:] if title[1:2].islower() else title


class RulesError(ValueError):
    """A game action the rules do not allow.

    The message says, in plain words, what was refused and why, and names the rule by number
    and in words. Raising it leaves the game exactly as it was before the action.

    >>> str(RulesError("Forest is already tapped", rule="107.5"))
    'Forest is already tapped (CR 107.5: the tap symbol {T})'
    """

    def __init__(self, message: str, *, rule: str | None = None) -> None:
        message = bounded(message)
        self.reason = message
        self.rule = rule
        name = rule_name(rule) if rule else None
        cite = f" (CR {rule}: {name})" if name else (f" (CR {rule})" if rule else "")
        super().__init__(f"{message}{cite}")


class ChoiceNeeded(RulesError):
    """The action needs a choice the caller did not make (for example which color of mana)."""

    def __init__(self, message: str, *, options: list[str], rule: str | None = None) -> None:
        self.options = options
        super().__init__(f"{message}; choose one of: {', '.join(options)}", rule=rule)


class UsageError(ValueError):
    """A malformed call: an argument of the wrong type or with a value that means nothing.

    Not a rules question, so no rule is cited; `argument` names what was wrong.

    >>> str(UsageError("zone", "'moon' is not a zone; use one of: battlefield, hand"))
    "zone: 'moon' is not a zone; use one of: battlefield, hand"
    """

    def __init__(self, argument: str, message: str) -> None:
        argument, message = bounded(argument, 80), bounded(message)
        self.argument = argument
        self.reason = message
        super().__init__(f"{argument}: {message}" if argument else message)


class UnknownCard(UsageError, LookupError):
    """A card name the catalog doesn't have, naming the nearest ones ("did you mean"). A
    `UsageError` like any malformed call, and a `LookupError` as a failed look-up is."""


class ScenarioError(ValueError):
    """A scenario file that cannot be read: says where (file:line) and what was expected."""

    def __init__(self, message: str, *, path: str = "", line: int | None = None) -> None:
        self.path = path
        self.line = line
        self.reason = message
        where = f"{path}:{line}: " if path and line else (f"{path}: " if path else "")
        super().__init__(f"{where}{message}")
