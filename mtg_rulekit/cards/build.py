"""Small builders that card behaviours are written with (one line per ordinary ability)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from mtg_rulekit.core import payloads as p
from mtg_rulekit.core.costs import Cost
from mtg_rulekit.core.events import Event, EventKind, Outcome
from mtg_rulekit.objects.abilities import (
    Activated,
    Keyword,
    ManaAbility,
    Static,
    TargetSpec,
    Triggered,
)
from mtg_rulekit.objects.effects import ContinuousEffect, Layer
from mtg_rulekit.objects.production import Production
from mtg_rulekit.objects.replacement import ReplacementEffect
from mtg_rulekit.objects.state import Step, Zone

if TYPE_CHECKING:
    from mtg_rulekit.core.characteristics import Characteristics
    from mtg_rulekit.objects.context import RulesContext
    from mtg_rulekit.objects.resolution import Resolution
    from mtg_rulekit.objects.state import GameObject


def keyword(name: str, text: str | None = None) -> Keyword:
    return Keyword(text=text or name, keyword=name)


def mana(cost: str, production: Production, text: str,
         effect: Callable[[Resolution], None] | None = None) -> ManaAbility:
    """A mana ability (CR 605.1a)."""
    return ManaAbility(text=text, cost=Cost.parse(cost), production=production, effect=effect)


def activated(cost: str, text: str, effect: Callable[[Resolution], None], *,
              target: TargetSpec | None = None, sorcery_speed: bool = False,
              condition: Callable[[RulesContext, GameObject], str | None] | None = None,
              makes_token_copy: bool = False) -> Activated:
    return Activated(text=text, cost=Cost.parse(cost) if cost else Cost(), effect=effect,
                     target=target, sorcery_speed=sorcery_speed, condition=condition,
                     makes_token_copy=makes_token_copy)


def enters(text: str, effect: Callable[[Resolution], None], *,
           target: TargetSpec | None = None, optional: bool = False) -> Triggered:
    """"When this enters, ..." (CR 603.6a): a self-only trigger on arriving."""

    def match(game: RulesContext, event: Event, source: GameObject) -> dict[str, Any] | None:
        d = event.payload
        new = d.new if isinstance(d, (p.ZoneChanged, p.TokenCreated)) else None
        return {} if new == source.id and _to_battlefield(event) else None

    return Triggered(text=text, on=frozenset({EventKind.ZONE_CHANGED, EventKind.TOKEN_CREATED}),
                     match=match, effect=effect, target=target, optional=optional,
                     self_only=True, rules=("603.6a",))


def _to_battlefield(event: Event) -> bool:
    d = event.payload
    return isinstance(d, p.TokenCreated) or (
        isinstance(d, p.ZoneChanged) and d.destination == Zone.BATTLEFIELD)


def at_beginning_of(step: Step, text: str, effect: Callable[[Resolution], None], *,
                    yours: bool = True,
                    condition: Callable[[RulesContext, GameObject], bool] | None = None,
                    condition_text: str = "") -> Triggered:
    """"At the beginning of your [step], ..." (CR 603.2, 503.1, 504.1); `condition` is an
    intervening "if" clause (CR 603.4)."""

    def match(game: RulesContext, event: Event, source: GameObject) -> dict[str, Any] | None:
        if not isinstance(event.payload, p.StepBegan) or event.payload.step != step.value:
            return None
        if yours and game.state.active != game.controller_of(source):
            return None
        return {}

    return Triggered(text=text, on=frozenset({EventKind.STEP_BEGAN}), match=match,
                     effect=effect, condition=condition, condition_text=condition_text,
                     rules=("603.2", "603.4") if condition else ("603.2",))


def static_effects(text: str, make: Callable[[RulesContext, GameObject], list[ContinuousEffect]],
                   **extra: Any) -> Static:
    return Static(text=text, continuous=make, **extra)


def static_replacements(text: str,
                        make: Callable[[RulesContext, GameObject], list[ReplacementEffect]]) -> Static:
    return Static(text=text, replacements=make)


def as_enters(text: str, apply: Callable[[RulesContext, GameObject | None, dict[str, Any]],
                                         dict[str, Any] | None],
              *, name: str, rules: tuple[str, ...] = ("614.1c",), outcome: Outcome = Outcome.MODIFIED,
              kind_filter: Callable[[dict[str, Any]], bool] | None = None,
              choice: str = "") -> Static:
    """An "as this enters" / "enters with" / "enters tapped" effect of the object itself: a
    replacement effect on the event that puts it onto the battlefield (CR 614.1c-d, 614.12).
    `choice` names the choice it makes ("color"), which set-up must then be given."""

    def make(game: RulesContext, obj: GameObject | None, data: Any) -> list[ReplacementEffect]:
        kind = data.kind
        controller = data.controller or (obj.owner if obj is not None else "")
        src = obj.id if obj is not None else None
        return [ReplacementEffect(
            name=name, source=src, controller=controller, kind=kind,
            applies=lambda g, d: kind_filter(d) if kind_filter else True,
            apply=lambda g, d: apply(g, obj, d), outcome=outcome, rules=rules)]

    return Static(text=text, self_etb=make, choice=choice)


def to_attached(text: str, layer: Layer, modify: Callable[[Characteristics], Characteristics],
                *, rules: tuple[str, ...] = ()) -> Callable[[RulesContext, GameObject],
                                                            list[ContinuousEffect]]:
    """A static ability of an Aura or Equipment that affects the object it is attached to
    ("Enchanted land has ...", "Equipped creature gets ..."): nothing while unattached."""
    def make(game: RulesContext, source: GameObject) -> list[ContinuousEffect]:
        host = source.attached_to
        if host is None:
            return []
        return [ContinuousEffect(text=text, layer=layer, timestamp=source.timestamp,
                                 source=source.id, applies_to=lambda g, o, c: o.id == host,
                                 modify=modify, rules=rules)]
    return make


def until_end_of_turn(game: RulesContext, source: int | None, text: str, layer: Layer,
                      applies: Callable[[RulesContext, GameObject, Characteristics], bool],
                      modify: Callable[[Characteristics], Characteristics]) -> ContinuousEffect:
    return ContinuousEffect(text=text, layer=layer, timestamp=game.state.new_timestamp(),
                            source=source, applies_to=applies, modify=modify,
                            duration="end_of_turn", id=game.new_id())


def pump(p: int, t: int) -> Callable[[Characteristics], Characteristics]:
    def modify(c: Characteristics) -> Characteristics:
        if c.power is None or c.toughness is None:
            return c
        return c.evolve(power=c.power + p, toughness=c.toughness + t)

    return modify


def add_abilities(*abilities: Any) -> Callable[[Characteristics], Characteristics]:
    def modify(c: Characteristics) -> Characteristics:
        return c.evolve(abilities=c.abilities + tuple(abilities))

    return modify


def target(text: str, legal: Callable[..., bool], *, players: bool = False,
           objects: bool = True) -> TargetSpec:
    return TargetSpec(text=text, legal=legal, player_target=players, objects=objects)


def creatures_you_control(game: RulesContext, player: str) -> list[GameObject]:
    return [o for o in game.permanents(player) if game.chars(o).is_a("Creature")]
