"""Abilities as data: keywords, activated and mana abilities, triggered and static abilities.

Behaviour that reads naturally as data is data here (costs, what triggers on what, which mana);
what needs code is a small function (`effect`, `match`) written once per card in `mtg_rulekit.cards`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from mtg_rulekit.core.characteristics import Ability as Ability  # re-exported: the kinds are here
from mtg_rulekit.core.characteristics import AbilityKind
from mtg_rulekit.core.characteristics import Keyword as Keyword
from mtg_rulekit.core.costs import Cost
from mtg_rulekit.core.events import EventKind

if TYPE_CHECKING:
    from mtg_rulekit.core.events import Event
    from mtg_rulekit.core.payloads import Payload
    from mtg_rulekit.objects.context import RulesContext
    from mtg_rulekit.objects.effects import ContinuousEffect
    from mtg_rulekit.objects.production import Production
    from mtg_rulekit.objects.replacement import ReplacementEffect
    from mtg_rulekit.objects.resolution import Resolution
    from mtg_rulekit.objects.state import GameObject


@dataclass(frozen=True, eq=False)
class TargetSpec:
    """What an ability or spell may target (CR 115). `legal(game, source, candidate)`: the
    source is None for a spell being cast from nowhere the game tracks yet (set-up checks)."""

    text: str
    legal: Callable[[RulesContext, GameObject | None, Any], bool]
    player_target: bool = False  # may target players
    objects: bool = True  # may target permanents
    spells: bool = False  # may target spells on the stack (Mana Leak, Double Major)


@dataclass(frozen=True, eq=False)
class Activated(Ability):
    """An activated ability: `cost: effect` (CR 602)."""

    family: ClassVar[AbilityKind] = AbilityKind.ACTIVATED

    cost: Cost = field(default_factory=Cost)
    effect: Callable[[Resolution], None] | None = None
    target: TargetSpec | None = None
    sorcery_speed: bool = False
    condition: Callable[[RulesContext, GameObject], str | None] | None = None  # None = may activate
    rules: tuple[str, ...] = ()
    makes_token_copy: bool = False  # "create a token that's a copy of ..." (the sandbox's copy button)


@dataclass(frozen=True, eq=False)
class ManaAbility(Activated):
    """An activated mana ability (CR 605.1a): no target, adds mana, resolves at once."""

    production: Production | None = None

    @property
    def taps_for_mana(self) -> bool:
        """Whether activating it is "tapping for mana": {T} in its cost (CR 106.12)."""
        return self.cost.tap


@dataclass(frozen=True, eq=False)
class Triggered(Ability):
    """A triggered ability (CR 603). `match` says whether an event triggers it.

    `match(game, event, source)` returns None (no) or a dict of values the trigger remembers
    (for example which object died). `look_back` abilities are checked against the game as it
    was just before the event (leaves-the-battlefield, CR 603.10a).
    """

    family: ClassVar[AbilityKind] = AbilityKind.TRIGGERED

    on: frozenset[EventKind] = frozenset()
    match: Callable[[RulesContext, Event, GameObject], dict[str, Any] | None] | None = None
    effect: Callable[[Resolution], None] | None = None
    target: TargetSpec | None = None
    mana: bool = False  # a triggered mana ability (CR 605.1b): resolves at once, no stack
    look_back: bool = False
    optional: bool = False  # "you may"
    self_only: bool = False  # only its own source's events (e.g. ETB of this object)
    # an intervening "if" clause ("When/Whenever/At ..., if ..., ..."): checked as the event
    # happens (false: it doesn't trigger) and again on resolution (false: it does nothing),
    # CR 603.4; called with the game and the source (as it last existed, if it has left)
    condition: Callable[[RulesContext, GameObject], bool] | None = None
    condition_text: str = ""
    rules: tuple[str, ...] = ()


@dataclass(frozen=True, eq=False)
class Static(Ability):
    """A static ability (CR 604): continuous effects and/or replacement effects it generates."""

    continuous: Callable[[RulesContext, GameObject], list[ContinuousEffect]] | None = None
    replacements: Callable[[RulesContext, GameObject], list[ReplacementEffect]] | None = None
    # replacement effects that apply to this object as it enters (CR 614.1c-d, 614.12)
    # the entering object (None for a token) and the payload of the event that brings it
    self_etb: Callable[[RulesContext, GameObject | None, Payload],
                       list[ReplacementEffect]] | None = None
    doesnt_untap: bool = False
    rules: tuple[str, ...] = ()
    # the choice made as it enters ("color", "creature_type"; CR 614.12): set-up, which puts
    # a permanent straight onto the battlefield, must be told what was chosen
    choice: str = ""


@dataclass(frozen=True, eq=False)
class SpellAbility(Ability):
    """What an instant or sorcery does as it resolves (CR 608.2)."""

    family: ClassVar[AbilityKind] = AbilityKind.SPELL

    effect: Callable[[Resolution], None] | None = None
    target: TargetSpec | None = None
    rules: tuple[str, ...] = ()


# what the stack runs: the game state keeps an ability as its base type (`state.StackItem`,
# `state.PendingTrigger`), naming none of the callbacks, and the rules that run it ask its kind
Runnable = Activated | Triggered | SpellAbility


def runnable(ability: Ability | None) -> Runnable | None:
    """A stack item's ability as the kind the stack runs (None for a spell)."""
    if ability is None or isinstance(ability, Activated | Triggered | SpellAbility):
        return ability
    raise TypeError(f"{ability.text!r} is not an ability the stack runs")


def triggered(ability: Ability) -> Triggered:
    """A waiting trigger's ability as a `Triggered` (CR 603.3)."""
    if isinstance(ability, Triggered):
        return ability
    raise TypeError(f"{ability.text!r} is not a triggered ability")
