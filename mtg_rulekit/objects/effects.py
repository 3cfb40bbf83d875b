"""Continuous effects (CR 611) and the layer system that applies them (CR 613).

An effect comes from a static ability (generated afresh, lasting while its source is there) or
from a resolved spell or ability (kept in the game state with a duration and a timestamp).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, cast

from mtg_rulekit.core.characteristics import BASIC_LAND_TYPES, Characteristics
from mtg_rulekit.core.costs import Cost
from mtg_rulekit.objects.abilities import Ability, ManaAbility
from mtg_rulekit.objects.production import Fixed

if TYPE_CHECKING:
    from mtg_rulekit.objects.context import RulesContext
    from mtg_rulekit.objects.state import GameObject, GameState

class Layer(str, Enum):
    """CR 613's layers, in the order they apply (613.1, 613.4); the value is the rule's own id
    ("7c"), which the log's JSON shows."""

    COPY = "1"  # 613.1a copy effects
    CONTROL = "2"  # 613.1b control-changing effects
    TEXT = "3"  # 613.1c text-changing effects
    TYPE = "4"  # 613.1d type-changing effects
    COLOR = "5"  # 613.1e color-changing effects
    ABILITY = "6"  # 613.1f ability-adding and -removing effects
    PT_DEFINING = "7a"  # 613.4a characteristic-defining abilities that set power/toughness
    PT_SETTING = "7b"  # 613.4b effects that set power and/or toughness
    PT_MODIFYING = "7c"  # 613.4c effects (and counters) that modify power and/or toughness
    PT_SWITCHING = "7d"  # 613.4d effects that switch power and toughness


LAYERS = tuple(Layer)
# read once: an Enum member's attribute lookup costs ~8x a global's, and `compute` is hot
_AFTER_COPY = LAYERS[1:]
_TYPE, _PT_MODIFYING = Layer.TYPE, Layer.PT_MODIFYING


@dataclass(frozen=True, eq=False)
class ContinuousEffect:
    """One continuous effect. `modify` changes characteristics; `controller` sets control."""

    text: str
    layer: Layer
    timestamp: int
    source: int | None
    applies_to: Callable[[RulesContext, GameObject, Characteristics], bool]
    modify: Callable[[Characteristics], Characteristics] | None = None
    controller: str | None = None  # layer 2: the new controller
    duration: str = "static"  # "static" | "end_of_turn" | "while_attached" | "while_source"
    rules: tuple[str, ...] = ("611.2",)
    id: int = 0

    def to_json(self) -> dict[str, object]:
        return {"text": self.text, "layer": self.layer.value, "duration": self.duration,
                "source": self.source, "timestamp": self.timestamp}

    def __post_init__(self) -> None:
        if not isinstance(self.layer, Layer):
            raise ValueError(f"unknown layer {self.layer!r}: use mtg_rulekit.objects.effects.Layer")


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


def lasting(state: GameState) -> list[ContinuousEffect]:
    """The state's continuous effects from resolved spells and abilities, as the layer system
    applies them. The state keeps them as `state.Lasting` (naming no callbacks, so no import
    cycle); only their commit (`engine/commit.py`, `EffectBegan`) adds one, a `ContinuousEffect`."""
    return cast("list[ContinuousEffect]", state.effects)


def compute(
    game: RulesContext, obj: GameObject, base: Characteristics, effects: list[ContinuousEffect]
) -> Characteristics:
    """Apply layers 2-7 to an object's copiable values (layer 1 is `base`)."""
    chars = base
    for layer in _AFTER_COPY:
        for effect in effects:
            if effect.layer is layer and effect.modify and effect.applies_to(game, obj, chars):
                chars = effect.modify(chars)
        if layer is _TYPE:
            extra = intrinsic_abilities(chars)
            if extra:
                chars = chars.evolve(abilities=extra + chars.abilities)
        if layer is _PT_MODIFYING and chars.power is not None and chars.toughness is not None:
            plus = obj.counters.get("+1/+1", 0) - obj.counters.get("-1/-1", 0)
            if plus:
                chars = chars.evolve(power=chars.power + plus, toughness=chars.toughness + plus)
    return chars
