"""What may be attached to what (CR 301.5, 303.4, 701.3), for set-up and state-based actions.

Only Auras, Equipment and Fortifications attach to things. An Aura attached to something its
enchant ability doesn't allow goes to the graveyard (303.4c, 704.5m); an Equipment on anything
but a creature comes off (301.5c, 704.5n); anything else attached comes off (704.5p).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mtg_rulekit.core.payloads import Unattachable, Unfit
from mtg_rulekit.objects.abilities import SpellAbility
from mtg_rulekit.objects.state import GameObject, Zone

if TYPE_CHECKING:
    from mtg_rulekit.core.characteristics import Characteristics
    from mtg_rulekit.objects.context import RulesContext


def attachment_kind(chars: Characteristics) -> str | None:
    """"Aura", "Equipment" or "Fortification", or None for a permanent that can't attach."""
    for kind in ("Aura", "Equipment", "Fortification"):
        if kind in chars.subtypes:
            return kind
    return None


def illegal_attachment(game: RulesContext, chars: Characteristics, source: GameObject | None,
                       host: GameObject) -> Unattachable | None:
    """Why a permanent with `chars` can't be attached to `host` (facts and the rule), or None."""
    kind = attachment_kind(chars)
    if host.zone is not Zone.BATTLEFIELD:
        return Unattachable(Unfit.HOST_GONE, "704.5m" if kind == "Aura" else "704.5n",
                            host=game.describe(host))
    if source is not None and host.id == source.id:
        return Unattachable(Unfit.ITSELF, "301.5c", name=chars.name)
    host_chars = game.chars(host)
    if kind is None:
        return Unattachable(Unfit.CANT_ATTACH, "704.5p", name=chars.name)
    if kind == "Equipment" and not host_chars.is_a("Creature"):
        return Unattachable(Unfit.NOT_CREATURE, "301.5c", host=host_chars.name)
    if kind == "Fortification" and not host_chars.is_a("Land"):
        return Unattachable(Unfit.NOT_LAND, "301.6", host=host_chars.name)
    if kind == "Aura":
        enchant = next((a for a in chars.abilities if isinstance(a, SpellAbility)
                        and a.target is not None), None)
        if enchant is not None and enchant.target is not None and not enchant.target.legal(
                game, source, host):
            return Unattachable(Unfit.CANT_ENCHANT, "303.4c", name=chars.name,
                                host=host_chars.name, enchant=enchant.text)
    return None
