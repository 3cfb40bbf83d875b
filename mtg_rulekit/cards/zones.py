"""Cards about zones: Rest in Peace, whose replacement effect sends everything headed for a
graveyard into exile instead (CR 614.1a) (Oracle text lives in catalog.toml). Phasing
(Sandbar Crocodile) is a keyword read from the Oracle text; the untap step does it (CR 502.1)."""

from __future__ import annotations

from typing import Any

from mtg_rulekit.cards.build import enters, static_replacements
from mtg_rulekit.cards.registry import behaviour
from mtg_rulekit.core.events import EventKind, Outcome
from mtg_rulekit.objects.replacement import ReplacementEffect
from mtg_rulekit.objects.state import Zone

_INSTEAD = "If a card or token would be put into a graveyard from anywhere, exile it instead."


def _exile_all_graveyards(res: Any) -> None:
    game = res.game
    cards = sorted(game.state.in_zone(Zone.GRAVEYARD), key=lambda o: o.id)
    if cards:  # all at once, one event each (CR 406.2)
        res.move(cards, Zone.EXILE, reason="exile", rules=("406.2",))


def _rest_in_peace(game: Any, source: Any) -> list[ReplacementEffect]:
    return [ReplacementEffect(
        name="Rest in Peace", source=source.id, controller=game.controller_of(source),
        kind=EventKind.ZONE_CHANGED,
        applies=lambda g, d: d.destination == Zone.GRAVEYARD,
        apply=lambda g, d: d.replace(destination=Zone.EXILE),
        outcome=Outcome.REPLACED, rules=("614.1a",), timestamp=source.timestamp)]


behaviour("Rest in Peace")(lambda: [
    enters("When this enchantment enters, exile all graveyards.", _exile_all_graveyards),
    static_replacements(_INSTEAD, _rest_in_peace),
])
