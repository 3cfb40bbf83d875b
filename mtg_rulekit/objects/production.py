"""What a mana ability produces: fixed mana, a choice of colors, what other lands could produce.

Each production lists its possible outputs ("options"); resolving picks one. No option at all means
the mana's type is undefined, and undefined mana is no mana (CR 106.5, ruling R01).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations_with_replacement
from typing import TYPE_CHECKING

from mtg_rulekit.core.errors import ChoiceNeeded, RulesError
from mtg_rulekit.core.mana import COLORS, ManaType, Restriction, Rider, sort_types

if TYPE_CHECKING:
    from mtg_rulekit.objects.context import RulesContext
    from mtg_rulekit.objects.state import GameObject

Output = tuple[ManaType, ...]


@dataclass
class ProduceContext:
    """Where a production is evaluated: the game, the source, and how to ask what others could
    produce (`probe`, so "could produce" can follow chains without loops)."""

    game: RulesContext
    source: GameObject
    controller: str
    probe: Callable[[GameObject], frozenset[ManaType]]
    x: int | None = 0
    """X of the activation; None asks "could produce" for any X (CR 106.7 ignores costs, so X
    can be any number)."""


class Production:
    """Base class: `options(ctx)` lists every output one resolution could make."""

    text: str = ""
    restriction: Restriction | None = None
    rider: Rider | None = None  # an effect of the mana when spent (CR 106.6)

    def options(self, ctx: ProduceContext) -> list[Output]:  # pragma: no cover - abstract
        raise NotImplementedError

    def restriction_for(self, ctx: ProduceContext) -> Restriction | None:
        return self.restriction

    def produce(self, ctx: ProduceContext, choice: str | None) -> Output:
        """The output for `choice` ("G", "RRG", ...). Empty when the type is undefined (R01)."""
        opts = self.options(ctx)
        if not opts:
            return ()
        if len(opts) == 1 and choice in (None, "", _key(opts[0])):
            return opts[0]
        names = [_key(o) for o in opts]
        if choice is None or choice == "":
            raise ChoiceNeeded("This ability can make different mana", options=names, rule="608.2d")
        wanted = _key(tuple(ManaType(c) for c in _symbols(choice)))
        if wanted not in names:
            raise RulesError(
                f"{ctx.source.card.name} can't make {choice} now (it can make {', '.join(names)})",
                rule="106.7" if isinstance(self, CouldProduceOf) else "106.3",
            )
        return opts[names.index(wanted)]


def _symbols(choice: str) -> list[str]:
    text = choice.replace("{", "").replace("}", "").upper()
    if not text or any(c not in "WUBRGC" for c in text):
        raise RulesError(f"{choice!r} is not mana (use letters W U B R G C)", rule="106.1b")
    return list(text)


def _key(output: Output) -> str:
    return "".join(t.value for t in sort_types(output))


@dataclass
class Fixed(Production):
    """Always the same mana, possibly several times over (`per` counts, e.g. creatures)."""

    mana: str = "C"
    per: Callable[[ProduceContext], int] | None = None
    restriction: Restriction | None = None
    text: str = ""
    rider: Rider | None = None

    def options(self, ctx: ProduceContext) -> list[Output]:
        n = 1 if self.per is None else self.per(ctx)
        return [tuple(ManaType(c) for c in self.mana) * n]


@dataclass
class AnyColor(Production):
    """One mana (or `amount`) of any one color; optionally restricted (Cavern of Souls)."""

    amount: int = 1
    restriction_of: Callable[[ProduceContext], Restriction | None] | None = None
    text: str = "one mana of any color"
    rider: Rider | None = None

    def options(self, ctx: ProduceContext) -> list[Output]:
        return [(c,) * self.amount for c in COLORS]

    def restriction_for(self, ctx: ProduceContext) -> Restriction | None:
        return self.restriction_of(ctx) if self.restriction_of else None


@dataclass
class Combination(Production):
    """`amount` mana in any combination of `types` (Goblin Clearcutter; Calciform Pools' X)."""

    types: str = "RG"
    amount: int | None = None  # None: X from the activation
    text: str = ""

    def options(self, ctx: ProduceContext) -> list[Output]:
        kinds = [ManaType(c) for c in self.types]
        if self.amount is None and ctx.x is None:  # any X: each type alone is possible (106.7)
            return [(k,) for k in kinds]
        n = (ctx.x or 0) if self.amount is None else self.amount
        return [tuple(combo) for combo in combinations_with_replacement(kinds, n)] if n else [()]


@dataclass
class CouldProduceOf(Production):
    """One mana of any type (or color) that some lands could produce (CR 106.7).

    `whose`: "you" (Reflecting Pool) or "opponents" (Exotic Orchard, Fellwar Stone, Sylvok
    Explorer). `colors_only` drops colorless, since it is not a color (CR 105.1, 106.1b).
    """

    whose: str = "you"
    colors_only: bool = False
    text: str = ""

    def lands(self, ctx: ProduceContext) -> list[GameObject]:
        game = ctx.game
        controllers = (
            [ctx.controller] if self.whose == "you" else game.state.opponents(ctx.controller)
        )
        return [
            o
            for o in game.state.battlefield()
            if game.controller_of(o) in controllers and game.chars(o).is_a("Land")
        ]

    def options(self, ctx: ProduceContext) -> list[Output]:
        found: set[ManaType] = set()
        for land in self.lands(ctx):
            found |= ctx.probe(land)
        if self.colors_only:
            found.discard(ManaType.C)
        return [(t,) for t in sort_types(found)]
