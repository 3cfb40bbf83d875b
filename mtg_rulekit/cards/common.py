"""Shared pieces of card behaviours: keyword abilities, target filters, linked exile and sacrifice helpers, Auras' "enchant"."""

from __future__ import annotations

from typing import Any

from mtg_rulekit.cards.build import (
    keyword,
    mana,
    target,
)
from mtg_rulekit.core import payloads as p
from mtg_rulekit.core.events import Cause, Event
from mtg_rulekit.objects.abilities import SpellAbility
from mtg_rulekit.objects.effects import ContinuousEffect, Layer
from mtg_rulekit.objects.production import AnyColor
from mtg_rulekit.objects.state import Zone


def enchant(what: str, legal: Any) -> Any:
    """"Enchant [what]": an Aura spell targets what it will enchant (CR 303.4a)."""
    return SpellAbility(text=f"Enchant {what}", target=target(what, legal), rules=("303.4a",))


def is_land(g: Any, s: Any, o: Any) -> bool:
    return g.chars(o).is_a("Land")


FLYING = keyword("Flying")


VIGILANCE = keyword("Vigilance")


HASTE = keyword("Haste")


LIFELINK = keyword("Lifelink")


ANY_COLOR = mana("{T}", AnyColor(), "{T}: Add one mana of any color.")


def target_of(res: Any) -> Any:
    """The first target if it is still a legal, same object on the battlefield (CR 608.2b)."""
    return res.current(res.targets[0]) if res.targets and not isinstance(
        res.targets[0], str) else None


def until_eot(res: Any, text: str, layer: Layer, ids: frozenset[int], modify: Any,
         rules: tuple[str, ...] = ("611.2c",)) -> None:
    """An "until end of turn" effect of a resolving spell or ability: the set of objects it
    affects is fixed now (CR 611.2c)."""
    game = res.game
    res.add_effect(ContinuousEffect(
        text=text, layer=layer, timestamp=game.state.new_timestamp(), source=res.source_id,
        applies_to=lambda g, o, c: o.id in ids, modify=modify, duration="end_of_turn",
        rules=rules, id=game.new_id()))


def name_of(obj: Any) -> str:
    return (obj.copiable or obj.card.printed).name


def leaves_self(game: Any, event: Event, source: Any) -> dict[str, Any] | None:
    d = event.payload
    if not isinstance(d, p.ZoneChanged) or d.object != source.id \
            or d.origin != Zone.BATTLEFIELD:
        return None
    return {"linked": list(source.linked)}  # as it last existed (CR 603.10a)


def exile_linked(res: Any, obj: Any, rules: tuple[str, ...]) -> None:
    """Exile `obj`, remembered by the source as "the exiled card" (CR 607.2a)."""
    res.game.emit(p.ZoneChanged(object=obj.id, origin=Zone.BATTLEFIELD, destination=Zone.EXILE,
                                reason="exile", linked_to=res.source_id, by=res.source_name),
        cause=Cause.ABILITY, parent=res.parent, rules=rules, subject=obj.id)


def return_linked(res: Any, rules: tuple[str, ...]) -> None:
    """Return the exiled card(s) to the battlefield under their owner's control; one that left
    exile (or a token, which ceased to exist) is a new object and stays where it is."""
    game = res.game
    for oid in res.bound.get("linked", []):
        obj = game.state.objects.get(oid)
        if obj is None or obj.zone is not Zone.EXILE or obj.moved_to is not None:
            continue
        game.emit(p.Entered(object=oid, origin=Zone.EXILE, destination=Zone.BATTLEFIELD,
                            controller=obj.owner, reason="return"),
            cause=Cause.ABILITY, parent=res.parent, rules=rules, subject=oid)


def sacrifice_token(res: Any) -> None:
    """"Sacrifice the token": only if it's still there and its controller is this ability's
    controller (a player sacrifices only what they control, CR 701.21a)."""
    token = res.current(res.bound["token"])
    if token is None or res.game.controller_of(token) != res.controller:
        res.game.note(p.Note(reason=p.Reason.TOKEN_GONE), cause=Cause.RULE, parent=res.parent,
                      rules=("701.21",))
        return
    res.move([token], Zone.GRAVEYARD, reason="sacrifice", rules=("701.21",))


def is_creature(g: Any, s: Any, o: Any) -> bool:
    return not isinstance(o, str) and g.chars(o).is_a("Creature")


def is_creature_you_control(g: Any, s: Any, o: Any) -> bool:
    return is_creature(g, s, o) and g.controller_of(o) == g.controller_of(s)
