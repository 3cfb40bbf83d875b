"""Continuous effects (CR 611) and the layer system that applies them (CR 613).

An effect comes from a static ability (generated afresh, lasting while its source is there) or
from a resolved spell or ability (kept in the game state with a duration and a timestamp).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rulekit.core.costs import Cost
from rulekit.objects.abilities import Ability, ManaAbility
from rulekit.objects.characteristics import BASIC_LAND_TYPES, Characteristics
from rulekit.objects.production import Fixed

if TYPE_CHECKING:
    from rulekit.objects.context import RulesContext
    from rulekit.objects.state import GameObject

# Layers in the order they apply (CR 613.1, 613.4): copy, control, text, type, color,
# ability, then power/toughness (characteristic-defining, setting, modifying, switching).
LAYERS = ("1", "2", "3", "4", "5", "6", "7a", "7b", "7c", "7d")


@dataclass(frozen=True, eq=False)
class ContinuousEffect:
    """One continuous effect. `modify` changes characteristics; `controller` sets control."""

    text: str
    layer: str
    timestamp: int
    source: int | None
    applies_to: Callable[[RulesContext, GameObject, Characteristics], bool]
    modify: Callable[[Characteristics], Characteristics] | None = None
    controller: str | None = None  # layer 2: the new controller
    duration: str = "static"  # "static" | "end_of_turn" | "while_attached" | "while_source"
    rules: tuple[str, ...] = ("611.2",)
    id: int = 0

    def to_json(self) -> dict[str, object]:
        return {"text": self.text, "layer": self.layer, "duration": self.duration,
                "source": self.source, "timestamp": self.timestamp}

    def __post_init__(self) -> None:
        if self.layer not in LAYERS:
            raise ValueError(f"unknown layer {self.layer}")


def _land_mana(subtype: str) -> ManaAbility:
    mana = BASIC_LAND_TYPES[subtype].value
    return ManaAbility(
        text="{T}: Add {" + mana + "}.",
        cost=Cost(tap=True, text="{T}"),
        production=Fixed(mana),
        rules=("305.6",),
    )


# one shared object per basic land type, so abilities compare equal across calls
INTRINSIC: dict[str, ManaAbility] = {t: _land_mana(t) for t in BASIC_LAND_TYPES}


def intrinsic_abilities(chars: Characteristics) -> tuple[Ability, ...]:
    """Each basic land type gives "{T}: Add [its mana]" (CR 305.6)."""
    if not chars.is_a("Land"):
        return ()
    return tuple(INTRINSIC[t] for t in BASIC_LAND_TYPES if t in chars.subtypes)


def compute(
    game: RulesContext, obj: GameObject, base: Characteristics, effects: list[ContinuousEffect]
) -> Characteristics:
    """Apply layers 2-7 to an object's copiable values (layer 1 is `base`)."""
    chars = base
    for layer in LAYERS[1:]:
        for effect in effects:
            if effect.layer == layer and effect.modify and effect.applies_to(game, obj, chars):
                chars = effect.modify(chars)
        if layer == "4":
            extra = intrinsic_abilities(chars)
            if extra:
                chars = chars.evolve(abilities=extra + chars.abilities)
        if layer == "7c" and chars.power is not None and chars.toughness is not None:
            plus = obj.counters.get("+1/+1", 0) - obj.counters.get("-1/-1", 0)
            if plus:
                chars = chars.evolve(power=chars.power + plus, toughness=chars.toughness + plus)
    return chars
