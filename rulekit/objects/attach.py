"""What may be attached to what (CR 301.5, 303.4, 701.3), for set-up and state-based actions.

Only Auras, Equipment and Fortifications attach to things. An Aura attached to something its
enchant ability doesn't allow goes to the graveyard (303.4c, 704.5m); an Equipment on anything
but a creature comes off (301.5c, 704.5n); anything else attached comes off (704.5p).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulekit.objects.abilities import SpellAbility
from rulekit.objects.state import GameObject, Zone

if TYPE_CHECKING:
    from rulekit.core.characteristics import Characteristics
    from rulekit.objects.context import RulesContext


def attachment_kind(chars: Characteristics) -> str | None:
    """"Aura", "Equipment" or "Fortification", or None for a permanent that can't attach."""
    for kind in ("Aura", "Equipment", "Fortification"):
        if kind in chars.subtypes:
            return kind
    return None


def illegal_attachment(game: RulesContext, chars: Characteristics, source: GameObject | None,
                       host: GameObject) -> tuple[str, str] | None:
    """Why a permanent with `chars` can't be attached to `host` (reason, rule), or None."""
    kind = attachment_kind(chars)
    if host.zone is not Zone.BATTLEFIELD:
        return (f"{game.describe(host)} is not on the battlefield", "704.5m" if kind == "Aura"
                else "704.5n")
    if source is not None and host.id == source.id:
        return (f"{chars.name} can't be attached to itself", "301.5c")
    host_chars = game.chars(host)
    if kind is None:
        return (f"{chars.name} is not an Aura, Equipment or Fortification, so it can't be "
                "attached to anything", "704.5p")
    if kind == "Equipment" and not host_chars.is_a("Creature"):
        return (f"Equipment can be attached only to a creature, and {host_chars.name} isn't one",
                "301.5c")
    if kind == "Fortification" and not host_chars.is_a("Land"):
        return (f"a Fortification can be attached only to a land, and {host_chars.name} isn't one",
                "301.6")
    if kind == "Aura":
        enchant = next((a for a in chars.abilities if isinstance(a, SpellAbility)
                        and a.target is not None), None)
        if enchant is not None and enchant.target is not None and not enchant.target.legal(
                game, source, host):
            return (f"{chars.name} can't enchant {host_chars.name}: its ability says "
                    f"'{enchant.text}'", "303.4c")
    return None
