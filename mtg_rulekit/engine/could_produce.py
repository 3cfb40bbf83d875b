"""What mana a permanent "could produce" (CR 106.7, ruling R02).

For each mana ability: every output it could make if it resolved now, after the replacement
effects that would apply in every possible order; costs and being tapped are ignored. Abilities
that ask what *other* lands could produce (Reflecting Pool, Exotic Orchard) make this a system of
equations; we solve it as a least fixed point, starting from "nothing" and growing until nothing
changes. That ends on cycles (two Reflecting Pools alone could produce nothing) and takes time
roughly linear in the number of permanents.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mtg_rulekit.core.events import EventKind
from mtg_rulekit.core.mana import Mana, ManaType, ManaUnit
from mtg_rulekit.core.payloads import ManaAdded
from mtg_rulekit.objects.abilities import ManaAbility
from mtg_rulekit.objects.production import CouldProduceOf, ProduceContext
from mtg_rulekit.objects.replacement import all_orders

if TYPE_CHECKING:
    from mtg_rulekit.objects.context import RulesContext
    from mtg_rulekit.objects.state import GameObject


def could_produce_all(game: RulesContext) -> dict[int, frozenset[ManaType]]:
    """Could-produce sets for every permanent on the battlefield with a mana ability."""
    sources: list[tuple[GameObject, list[ManaAbility]]] = []
    for obj in game.state.battlefield():
        abilities = [a for a in game.chars(obj).abilities if isinstance(a, ManaAbility)]
        if abilities:
            sources.append((obj, abilities))
    replacements = game.replacements_for(EventKind.MANA_ADDED)
    current: dict[int, frozenset[ManaType]] = {obj.id: frozenset() for obj, _ in sources}
    dependent = [any(isinstance(a.production, CouldProduceOf) for a in abs_) for _, abs_ in sources]
    # fixed outputs first (one pass); then iterate only the dependent ones
    first = True
    for _ in range(6 * len(sources) + 2):
        changed = False
        group_cache: dict[tuple[int, str, bool], list[Any]] = {}
        for (obj, abilities), dep in zip(sources, dependent, strict=True):
            if not first and not dep:
                continue
            found = _one(game, obj, abilities, current, replacements, group_cache)
            if found != current[obj.id]:
                current[obj.id] = found
                changed = True
        first = False
        if not changed:
            break
    return {k: v for k, v in current.items() if v}


def _one(game: RulesContext, obj: GameObject, abilities: list[ManaAbility],
         current: dict[int, frozenset[ManaType]], replacements: list[Any],
         group_cache: dict[tuple[int, str, bool], list[Any]]) -> frozenset[ManaType]:
    controller = game.controller_of(obj)
    ctx = ProduceContext(game, obj, controller, lambda o: current.get(o.id, frozenset()),
                         x=None)  # X could be anything (costs are ignored)
    found: set[ManaType] = set()
    is_land = game.chars(obj).is_a("Land")
    for ability in abilities:
        production = ability.production
        if production is None:
            continue
        if isinstance(production, CouldProduceOf):
            key = (id(production), controller, production.colors_only)
            if key not in group_cache:
                group_cache[key] = production.options(ctx)
            options = group_cache[key]
        else:
            options = production.options(ctx)
        for output in options:
            if not output:
                continue
            if not replacements:
                found.update(output)
                continue
            data = ManaAdded(player=controller, mana=Mana.of(ManaUnit(t, obj.id) for t in output),
                             source=obj.id, tapped_for_mana=ability.cost.tap,
                             source_is_land=is_land, what_if=True)
            for result in all_orders(game, data, replacements):
                if isinstance(result, ManaAdded):
                    found.update(result.mana.types())
    return frozenset(found)
