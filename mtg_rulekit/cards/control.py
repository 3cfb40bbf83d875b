"""Control changes and "until it leaves" exile: Always Watching, Oblivion Ring, Silkwrap, Control Magic (Oracle text lives in catalog.toml)."""

from __future__ import annotations

from typing import Any

from mtg_rulekit.cards.build import (
    add_abilities,
    enters,
    pump,
    static_effects,
    target,
)
from mtg_rulekit.cards.common import (
    VIGILANCE,
    enchant,
    exile_linked,
    is_creature,
    leaves_self,
    name_of,
    return_linked,
    target_of,
)
from mtg_rulekit.cards.registry import behaviour
from mtg_rulekit.core import payloads as p
from mtg_rulekit.core.characteristics import Characteristics
from mtg_rulekit.core.events import Cause, EventKind
from mtg_rulekit.engine.keywords import (
    UntilReturn,
)
from mtg_rulekit.objects.abilities import Triggered
from mtg_rulekit.objects.effects import ContinuousEffect, Layer


def _always_watching(game: Any, source: Any) -> list[ContinuousEffect]:
    me = game.controller_of(source)

    def applies(g: Any, o: Any, c: Characteristics) -> bool:
        return not o.token and c.is_a("Creature") and g.controller_of(o) == me

    return [ContinuousEffect(text=f"Nontoken creatures {me} controls get +1/+1", layer=Layer.PT_MODIFYING,
                             timestamp=source.timestamp, source=source.id, applies_to=applies,
                             modify=pump(1, 1), rules=("611.3a",)),
            ContinuousEffect(text=f"Nontoken creatures {me} controls have vigilance", layer=Layer.ABILITY,
                             timestamp=source.timestamp, source=source.id, applies_to=applies,
                             modify=add_abilities(VIGILANCE), rules=("611.3a",))]


behaviour("Always Watching")(lambda: [static_effects(
    "Nontoken creatures you control get +1/+1 and have vigilance.", _always_watching)])


def _oring_exile(res: Any) -> None:
    obj = target_of(res)
    if obj is not None:
        exile_linked(res, obj, ("607.2a",))


def _oring_return(res: Any) -> None:
    return_linked(res, ("607.2a",))


behaviour("Oblivion Ring")(lambda: [
    enters("When this enchantment enters, exile another target nonland permanent.", _oring_exile,
           target=target("another target nonland permanent",
                         lambda g, s, o: not isinstance(o, str) and o.id != s.id
                         and not g.chars(o).is_a("Land"))),
    Triggered(text="When this enchantment leaves the battlefield, return the exiled card to the "
              "battlefield under its owner's control.", on=frozenset({EventKind.ZONE_CHANGED}),
              match=leaves_self, effect=_oring_return, look_back=True, self_only=True,
              rules=("603.6c", "607.2a")),
])


def _silkwrap_exile(res: Any) -> None:
    obj = target_of(res)
    if obj is None:
        return
    if res.current(res.source_id) is None:  # it already left: the creature doesn't move
        res.game.note(p.Note(reason=p.Reason.SOURCE_LEFT, name=res.source_name, object=obj.id),
                      cause=Cause.RULE,
                      parent=res.parent, rules=("610.3b",))
        return
    exile_linked(res, obj, ("610.3", "607.2a"))


def _silkwrap_return(res: Any) -> None:
    return_linked(res, ("610.3", "610.3c"))


behaviour("Silkwrap")(lambda: [
    enters("When this enchantment enters, exile target creature with mana value 3 or less an "
           "opponent controls until this enchantment leaves the battlefield.", _silkwrap_exile,
           target=target("target creature with mana value 3 or less an opponent controls",
                         lambda g, s, o: is_creature(g, s, o)
                         and g.mana_value(o) <= 3
                         and g.controller_of(o) in g.state.opponents(g.controller_of(s)))),
    UntilReturn(text="(That creature returns under its owner's control.)",
                on=frozenset({EventKind.ZONE_CHANGED}), match=leaves_self,
                effect=_silkwrap_return, look_back=True, self_only=True,
                rules=("610.3", "610.3c")),
])


def _control_magic(game: Any, source: Any) -> list[ContinuousEffect]:
    host = source.attached_to
    if host is None:
        return []
    me = game.controller_of(source)
    return [ContinuousEffect(text=f"{me} controls the creature enchanted by {name_of(source)}",
                             layer=Layer.CONTROL, timestamp=source.timestamp, source=source.id,
                             applies_to=lambda g, o, c: o.id == host, controller=me,
                             rules=("613.1b",))]


behaviour("Control Magic")(lambda: [
    enchant("creature", is_creature),
    static_effects("You control enchanted creature.", _control_magic),
])
