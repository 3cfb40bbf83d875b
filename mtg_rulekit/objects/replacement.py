"""Replacement effects (CR 614) and the loop that applies them to a proposed event (CR 616).

Each effect is a pure function of the proposed event's payload: it returns the changed payload
(`payload.replace(...)`), or None when it prevents the event. The same loop serves real events (logged by the pipeline) and
"what if" questions such as what a permanent could produce (nothing is logged then).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mtg_rulekit.core.events import EventKind, Outcome
from mtg_rulekit.core.payloads import Payload

if TYPE_CHECKING:
    from mtg_rulekit.objects.context import RulesContext


@dataclass(frozen=True, eq=False)
class ReplacementEffect:
    """One replacement effect: the events it watches, when it applies, what it does."""

    name: str
    source: int | None
    controller: str
    kind: EventKind
    # both take the payload of `kind` (typed per effect; Any here, as each effect has its kind)
    applies: Callable[[RulesContext, Any], bool]
    apply: Callable[[RulesContext, Any], Any]
    outcome: Outcome = Outcome.MODIFIED
    rules: tuple[str, ...] = ("614.1",)
    timestamp: int = 0

    @property
    def key(self) -> tuple[Any, ...]:
        """Identity used for "each effect applies once to an event" (CR 614.5)."""
        return (self.source, self.name)


Chooser = Callable[[list[ReplacementEffect], Payload], ReplacementEffect]


def default_order(candidates: list[ReplacementEffect], data: Payload) -> ReplacementEffect:
    """The documented default when the affected player does not say: oldest timestamp first,
    then source id. Override with an explicit order (CR 616.1)."""
    return min(candidates, key=lambda r: (r.timestamp, r.source or 0, r.name))


def run_replacements(
    game: RulesContext,
    data: Payload,
    effects: list[ReplacementEffect],
    choose: Chooser = default_order,
    more: Callable[[Payload], list[ReplacementEffect]] | None = None,
) -> tuple[Payload | None, list[tuple[ReplacementEffect, Payload, Payload | None]]]:
    """Apply applicable effects one at a time, each at most once, re-checking which apply
    after every change (CR 616.1, 616.1f). `more(data)` lists effects that depend on the event
    as it stands now (an entering object's own "as enters" effects, CR 614.12). Returns the
    final data (None if prevented) and the steps taken as (effect, before, after)."""
    used: set[tuple[Any, ...]] = set()
    steps: list[tuple[ReplacementEffect, Payload, Payload | None]] = []
    current: Payload | None = data
    while current is not None:
        pool = effects + more(current) if more is not None else effects
        candidates: list[ReplacementEffect] = []
        for r in pool:
            if r.kind is current.kind and r.key not in used and r.applies(game, current) \
                    and all(c.key != r.key for c in candidates):
                candidates.append(r)
        if not candidates:
            break
        chosen = choose(candidates, current) if len(candidates) > 1 else candidates[0]
        used.add(chosen.key)
        after = chosen.apply(game, current)
        steps.append((chosen, current, after))
        current = after
    return current, steps


def all_orders(game: RulesContext, data: Payload, effects: list[ReplacementEffect]) -> list[Payload | None]:
    """Every outcome over every order the applicable effects could be applied in (for "could
    produce", CR 106.7: "in any possible order")."""
    results: list[Payload | None] = []
    _explore(game, data, effects, set(), results)
    return results


def _explore(
    game: RulesContext,
    data: Payload,
    effects: list[ReplacementEffect],
    used: set[tuple[Any, ...]],
    results: list[Payload | None],
) -> None:
    candidates = [r for r in effects
                  if r.kind is data.kind and r.key not in used and r.applies(game, data)]
    if not candidates:
        results.append(data)
        return
    for r in candidates:
        after = r.apply(game, data)
        if after is None:
            results.append(None)
        else:
            _explore(game, after, effects, used | {r.key}, results)
