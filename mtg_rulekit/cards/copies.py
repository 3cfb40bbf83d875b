"""Copy effects: Metallic Mimic, Clone, Kiki-Jiki, token and spell copies, cipher (Oracle text lives in catalog.toml)."""

from __future__ import annotations

from functools import partial
from typing import Any

from mtg_rulekit.cards.build import (
    activated,
    as_enters,
    static_effects,
    static_replacements,
    target,
)
from mtg_rulekit.cards.common import (
    HASTE,
    is_creature_you_control,
    name_of,
    sacrifice_token,
    target_of,
)
from mtg_rulekit.cards.registry import behaviour
from mtg_rulekit.core import payloads as p
from mtg_rulekit.core.decisions import choice_value
from mtg_rulekit.core.events import EventKind
from mtg_rulekit.engine.cipher import cipher, encode
from mtg_rulekit.engine.copy import copy_spell, create_token_copy, enter_as_copy, entering_values
from mtg_rulekit.engine.delayed import at_next_end_step
from mtg_rulekit.engine.keywords import (
    flashback,
)
from mtg_rulekit.objects.abilities import SpellAbility, TargetSpec
from mtg_rulekit.objects.effects import ContinuousEffect, Layer
from mtg_rulekit.objects.replacement import ReplacementEffect
from mtg_rulekit.objects.state import Zone


def _choose_type(game: Any, obj: Any, data: Any) -> Any:
    choices = dict(data.choices)
    choices["creature_type"] = choice_value(
        "decisions.creature_type", "creature_type",
        game.decide("creature_type", "Shapeshifter", data.controller))
    return data.replace(choices=choices)


def _mimic_is_type(game: Any, source: Any) -> list[ContinuousEffect]:
    chosen = source.choices.get("creature_type")
    if not chosen:
        return []
    sid = source.id
    return [ContinuousEffect(
        text=f"{name_of(source)} (#{sid}) is a {chosen} in addition to its other types",
        layer=Layer.TYPE, timestamp=source.timestamp, source=sid, applies_to=lambda g, o, c: o.id == sid,
        modify=lambda c: c if chosen in c.subtypes else c.evolve(subtypes=c.subtypes + (chosen,)),
        rules=("613.1d",))]


def _mimic_counters(game: Any, source: Any) -> list[ReplacementEffect]:
    chosen = source.choices.get("creature_type")
    me = game.controller_of(source)
    sid = source.id

    def applies(g: Any, d: p.ZoneChanged | p.TokenCreated, kind: EventKind) -> bool:
        if not chosen:
            return False
        if not isinstance(d, p.Entered | p.TokenCreated) or isinstance(d, p.Entered) and (
                d.destination != Zone.BATTLEFIELD or d.object == sid):
            return False
        entering = d.object if isinstance(d, p.ZoneChanged) else None
        who = d.controller or (g.state.objects[entering].owner if entering is not None
                               else None)
        if who != me:
            return False
        values = entering_values(g, d)  # as it would exist on the battlefield (614.12)
        types = set(values.subtypes) | {str(d.choices.get("creature_type"))}
        return values.is_a("Creature") and chosen in types

    def apply(g: Any, d: Any) -> Any:
        counters = dict(d.counters)
        counters["+1/+1"] = counters.get("+1/+1", 0) + 1
        return d.replace(counters=counters)

    return [ReplacementEffect(name="Metallic Mimic", source=sid, controller=me, kind=kind,
                              applies=partial(applies, kind=kind), apply=apply,
                              rules=("614.1c",), timestamp=source.timestamp)
            for kind in (EventKind.ZONE_CHANGED, EventKind.TOKEN_CREATED)]


behaviour("Metallic Mimic")(lambda: [
    as_enters("As this creature enters, choose a creature type.", _choose_type,
              name="Metallic Mimic: choose a creature type", rules=("614.12",),
              choice="creature_type"),
    static_effects("This creature is the chosen type in addition to its other types.",
                   _mimic_is_type),
    static_replacements("Each other creature you control of the chosen type enters with an "
                        "additional +1/+1 counter on it.", _mimic_counters),
])


behaviour("Clone")(lambda: [enter_as_copy(
    "You may have this creature enter as a copy of any creature on the battlefield.",
    name="Clone: enter as a copy")])


def _copy_with_haste(res: Any) -> None:
    original = target_of(res)
    if original is None:
        return
    made = create_token_copy(res, original, haste=True)
    if made is not None and isinstance(made.payload, p.TokenCreated):
        at_next_end_step(res, "Sacrifice the token.", sacrifice_token,
                         {"token": made.payload.new})


behaviour("Kiki-Jiki, Mirror Breaker")(lambda: [
    HASTE,
    activated("{T}", "{T}: Create a token that's a copy of target nonlegendary creature you "
              "control, except it has haste. Sacrifice it at the beginning of the next end step.",
              _copy_with_haste,
              target=target("target nonlegendary creature you control",
                            lambda g, s, o: is_creature_you_control(g, s, o)
                            and "Legendary" not in g.chars(o).supertypes),
              makes_token_copy=True),
])


def _token_copy(res: Any) -> None:
    original = target_of(res)
    if original is not None:
        create_token_copy(res, original)


behaviour("Cackling Counterpart")(lambda: [
    SpellAbility(text="Create a token that's a copy of target creature you control.",
                 effect=_token_copy,
                 target=target("target creature you control", is_creature_you_control),
                 rules=("707.2",)),
    flashback("{5}{U}{U}"),
])


def _stolen_identity(res: Any) -> None:
    _token_copy(res)
    encode(res)  # cipher (CR 702.99a)


behaviour("Stolen Identity")(lambda: [
    SpellAbility(text="Create a token that's a copy of target artifact or creature.",
                 effect=_stolen_identity,
                 target=target("target artifact or creature",
                               lambda g, s, o: not isinstance(o, str) and (
                                   g.chars(o).is_a("Artifact") or g.chars(o).is_a("Creature"))),
                 rules=("707.2",)),
    cipher(),
])


def _double_major(res: Any) -> None:
    spell = res.game.state.objects.get(res.targets[0]) if res.targets else None
    if spell is not None and spell.zone is Zone.STACK:
        copy_spell(res, spell, nonlegendary=True)


behaviour("Double Major")(lambda: [SpellAbility(
    text="Copy target creature spell you control, except it isn't legendary if the spell is "
    "legendary.", effect=_double_major,
    target=TargetSpec(text="target creature spell you control", objects=False, spells=True,
                      legal=lambda g, s, o: s is not None and not isinstance(o, str)
                      and g.chars(o).is_a("Creature") and g.controller_of(o) == g.controller_of(s)),
    rules=("707.10",))])
