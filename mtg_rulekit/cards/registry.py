"""Where the card modules register each card's behaviour by name (read by `mtg_rulekit.cards`):
its own module, so the card modules never import the catalog that imports them."""

from __future__ import annotations

from collections.abc import Callable

from mtg_rulekit.objects.abilities import Ability

AbilityFactory = Callable[[], list[Ability]]
_BEHAVIOURS: dict[str, AbilityFactory] = {}


def behaviour(name: str) -> Callable[[AbilityFactory], AbilityFactory]:
    """Register the abilities of the card called `name`."""

    def register(factory: AbilityFactory) -> AbilityFactory:
        if name in _BEHAVIOURS:
            raise ValueError(f"behaviour for {name!r} registered twice")
        _BEHAVIOURS[name] = factory
        return factory

    return register
