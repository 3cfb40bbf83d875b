"""Keyword abilities and keyword actions the Part B cards need, as data plus small functions:
exert (CR 701.43) and its linked "when you do" triggers (701.43d, 607.2h), crew (702.122), equip (702.6),
ward (702.21), flashback (702.34), cost reductions (601.2f), "counter unless that player pays"
(701.6, 118.12) and the one-shot return of an "until" exile (610.3).

Decisions read here (all optional; each has a documented default):

- ``crew``: the creatures tapped to crew, one id per answer (default: other untapped creatures
  you control in id order until their total power is enough).
- ``pay``: whether a player pays for ward or Mana Leak (default: pay if the pool can).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mtg_rulekit.core import payloads as p
from mtg_rulekit.core.costs import Cost
from mtg_rulekit.core.decisions import yes
from mtg_rulekit.core.errors import RulesError
from mtg_rulekit.core.events import Cause, Event, EventKind
from mtg_rulekit.core.mana import ManaCost, SpendContext, plan_payment, pool_text
from mtg_rulekit.engine.paying import spend_mana
from mtg_rulekit.objects.abilities import Activated, Keyword, Static, TargetSpec, Triggered
from mtg_rulekit.objects.effects import ContinuousEffect, Layer
from mtg_rulekit.objects.narrator import item_name, spending_text
from mtg_rulekit.objects.replacement import ReplacementEffect
from mtg_rulekit.objects.state import Zone

if TYPE_CHECKING:
    from mtg_rulekit.core.characteristics import Characteristics
    from mtg_rulekit.objects.context import RulesContext
    from mtg_rulekit.objects.resolution import Resolution
    from mtg_rulekit.objects.state import GameObject, StackItem


# ------------------------------------------------------------------- exert
@dataclass(frozen=True, eq=False)
class ExertOption(Static):
    """"You may exert this creature as it attacks" (CR 701.43a): exerting is chosen only as it
    is declared as an attacker (`Game.declare_attackers(..., exert=[...])`, CR 508.1g)."""

    exert_option: bool = True
    once_per_turn: bool = False  # "If it hasn't been exerted this turn" (Combat Celebrant)


def exert_option(text: str = "You may exert this creature as it attacks.", *,
                 once_per_turn: bool = False) -> ExertOption:
    return ExertOption(text=text, once_per_turn=once_per_turn, rules=("701.43a",))


def _exerted_self(game: RulesContext, event: Event, source: GameObject) -> dict[str, Any] | None:
    return {} if p.object_of(event.payload) == source.id else None


def when_you_do(text: str, effect: Callable[[Resolution], None], *,
                target: TargetSpec | None = None) -> Triggered:
    """The "When you do, ..." of an exert ability: a triggered ability printed with the exert
    ability and linked to it (CR 701.43d, 607.2h), not a 603.12 reflexive trigger (those are
    created by a resolving spell or ability). It triggers on the EXERTED event of its own
    source, so it goes on the stack in the declare attackers step, before blockers are
    declared (CR 508.2b; ruling R17)."""
    return Triggered(text=text, on=frozenset({EventKind.EXERTED}), match=_exerted_self,
                     effect=effect, target=target, self_only=True, rules=("701.43d", "607.2h"))


# -------------------------------------------------------------------- crew
def crew(n: int) -> Activated:
    """"Crew N": tap any number of other untapped creatures you control with total power N or
    more: this Vehicle becomes an artifact creature until end of turn (CR 702.122a)."""
    return Activated(text=f"Crew {n}", cost=Cost(crew=n, text=f"Crew {n}"), effect=_crewed,
                     rules=("702.122a",))


def _artifact_creature(c: Characteristics) -> Characteristics:
    types = tuple(dict.fromkeys(("Artifact", "Creature") + c.types))
    return c.evolve(types=types)


def _crewed(res: Resolution) -> None:
    me = res.current(res.source_id) if res.source_id is not None else None
    if me is None:
        return
    game, mid = res.game, me.id
    effect = ContinuousEffect(
        text=f"{game.describe(me)} becomes an artifact creature until end of turn (crewed)",
        layer=Layer.TYPE, timestamp=game.state.new_timestamp(), source=mid,
        applies_to=lambda g, o, c: o.id == mid, modify=_artifact_creature,
        duration="end_of_turn", rules=("702.122a", "613.1d"), id=game.new_id())
    game.emit(p.EffectBegan(effect=effect, effect_text=effect.text, crewed=mid),
              cause=Cause.ABILITY, parent=res.parent, rules=effect.rules, subject=mid)


# ------------------------------------------------------------------- equip
def equip(cost: str) -> Activated:
    """"Equip [cost]": attach to target creature you control; only as a sorcery (CR 702.6a)."""
    spec = TargetSpec(text="target creature you control",
                      legal=lambda g, s, o: s is not None and not isinstance(o, str)
                      and g.chars(o).is_a("Creature") and g.controller_of(o) == g.controller_of(s))
    return Activated(text=f"Equip {cost}", cost=Cost.parse(cost), effect=_attach_equipment,
                     target=spec, sorcery_speed=True, rules=("702.6a",))


def _attach_equipment(res: Resolution) -> None:
    me = res.current(res.source_id) if res.source_id is not None else None
    host = res.current(res.targets[0]) if res.targets else None
    if me is None or host is None or me.attached_to == host.id:
        return
    res.game.emit(p.Attached(object=me.id, to=host.id), cause=Cause.ABILITY,
                  parent=res.parent, rules=("702.6a", "301.5"), subject=me.id)


# -------------------------------------------------------------------- ward
def ward(amount: str) -> Triggered:
    """"Ward [cost]": whenever this becomes the target of a spell or ability an opponent
    controls, counter it unless that player pays [cost] (CR 702.21a). Mana from a Powerstone
    can pay it: paying ward isn't casting a spell (ruling R12)."""
    cost = ManaCost.parse(amount)

    def match(game: RulesContext, event: Event, source: GameObject) -> dict[str, Any] | None:
        d = event.payload
        if not isinstance(d, p.Targeted) or d.object != source.id:
            return None
        if d.controller not in game.state.opponents(game.controller_of(source)):
            return None
        return {"item_id": d.item_id, "player": d.controller}

    def effect(res: Resolution) -> None:
        item = find_item(res.game, res.bound["item_id"])
        if item is None:
            res.game.note(p.Note(reason=p.Reason.WARD_GONE),
                          cause=Cause.RULE, parent=res.parent, rules=("702.21a",))
            return
        counter_unless_pays(res, item, cost, res.bound["player"],
                            p.Spending(p.Paying.WARD, cost=str(cost)), rules=("702.21a",))

    return Triggered(text=f"Ward {amount}", on=frozenset({EventKind.TARGETED}), match=match,
                     effect=effect, self_only=True, rules=("702.21a",))


# ----------------------------------------------------------------- counter
def find_item(game: RulesContext, item_id: int) -> StackItem | None:
    return next((i for i in game.state.stack if i.id == item_id), None)


def spell_item(game: RulesContext, obj_id: int) -> StackItem | None:
    return next((i for i in game.state.stack if i.kind == "spell" and i.source == obj_id), None)


def counter(game: RulesContext, item: StackItem, *, parent: int, rules: tuple[str, ...]) -> None:
    """Counter a spell or ability: off the stack without resolving; a countered spell goes to
    its owner's graveyard (CR 701.6a) — or to exile if it was cast with flashback. A spell
    that can't be countered stays on the stack (CR 101.2)."""
    spell = game.state.objects.get(item.source) if item.kind == "spell" and item.source else None
    if spell is not None and spell.uncounterable:
        game.note(p.Note(reason=p.Reason.CANT_BE_COUNTERED, name=item_name(item)),
                  cause=Cause.RULE, parent=parent, rules=("101.2",), subject=item.source)
        return
    event = game.emit(p.Countered(item_id=item.id, text=item_name(item)),
                      cause=Cause.ABILITY, parent=parent, rules=rules + ("701.6a",),
                      subject=item.source)
    if event is None or item.kind != "spell" or item.source is None:
        return
    obj = game.state.objects[item.source]
    if obj.zone is Zone.STACK:
        game.emit(p.ZoneChanged(object=obj.id, origin=Zone.STACK, destination=Zone.GRAVEYARD,
                                reason="countered"),
            cause=Cause.RULE, parent=event.id, rules=("701.6a",), subject=obj.id)


def counter_unless_pays(res: Resolution, item: StackItem, cost: ManaCost, payer: str,
                        spending: p.Spending, *, rules: tuple[str, ...]) -> bool:
    """"Counter it unless that player pays [cost]" (CR 118.12): the payer decides (decision
    ``pay``; default: pay if their mana pool can). Paying is spending mana from the pool, which
    the player fills first with mana abilities. Returns True if it was paid."""
    game = res.game
    pool = game.state.players[payer].pool
    what = spending_text(spending)
    ctx = SpendContext("ward" if spending.paying is p.Paying.WARD else "other", text=what)
    plan = plan_payment(pool, cost, ctx)
    more = game.answers_left("mana_abilities")  # mana abilities before paying (605.3a)
    pays = _yes(res.decide("pay", plan is not None or more, payer))
    if pays and plan is None and not more:
        raise RulesError(f"{payer} can't pay {cost} for {what}: the pool has {pool_text(pool)}",
                         rule="118.12")
    if pays:
        spend_mana(game, payer, cost, ctx, spending, parent=res.parent,
                   rules=rules + ("118.12",))
        return True
    game.note(p.Choice(player=payer, reason=p.Reason.DOESNT_PAY, cost=str(cost),
                       spending=spending),
              cause=Cause.RULE, parent=res.parent, rules=("118.12",))
    counter(game, item, parent=res.parent, rules=rules)
    return False


def _yes(answer: Any) -> bool:
    return yes(answer)


# --------------------------------------------------------------- flashback
@dataclass(frozen=True, eq=False)
class Flashback(Keyword):
    """"Flashback [cost]": cast it from your graveyard for [cost]; then, whenever it would
    leave the stack, exile it instead (CR 702.34a)."""

    cost: ManaCost = ManaCost()


def flashback(cost: str) -> Flashback:
    return Flashback(text=f"Flashback {cost}", keyword="Flashback", cost=ManaCost.parse(cost))


def flashback_cost(chars: Characteristics) -> ManaCost | None:
    found = next((a for a in chars.abilities if isinstance(a, Flashback)), None)
    return found.cost if found is not None else None


def leaving_stack_replacements(game: RulesContext, data: p.ZoneChanged) -> list[ReplacementEffect]:
    """A spell cast with flashback is exiled instead of going anywhere else (CR 702.34a)."""
    assert data.object is not None
    obj = game.state.objects[data.object]
    if obj.cast_from is not Zone.GRAVEYARD or obj.is_copy_spell \
            or flashback_cost(game.chars(obj)) is None:
        return []
    return [ReplacementEffect(
        name="Flashback: exile instead", source=obj.id, controller=obj.controller,
        kind=EventKind.ZONE_CHANGED,
        applies=lambda g, d: d.destination not in (Zone.EXILE, Zone.NOWHERE),
        apply=lambda g, d: d.replace(destination=Zone.EXILE, flashback=True),
        rules=("702.34a",))]


# ----------------------------------------------------------- cost changes
@dataclass(frozen=True, eq=False)
class CostReduction(Static):
    """"This spell costs {1} less to cast for each ..." (CR 601.2f): `reduction(game, spell)`
    is how much generic mana comes off."""

    reduction: Callable[[RulesContext, GameObject], int] | None = None


def reduce_cost(game: RulesContext, obj: GameObject, chars: Characteristics,
                total: ManaCost) -> ManaCost:
    """The total cost after the spell's own reductions; never below {0} (CR 601.2f)."""
    less = sum(a.reduction(game, obj) for a in chars.abilities
               if isinstance(a, CostReduction) and a.reduction is not None)
    if less <= 0 or total.generic == 0:
        return total
    return ManaCost.of(max(total.generic - less, 0), total.colored)


# ----------------------------------------------------------- "until" exile
@dataclass(frozen=True, eq=False)
class UntilReturn(Triggered):
    """The second one-shot effect of "exile ... until [this] leaves the battlefield": it
    happens right after that event, without the stack (CR 610.3). Not a triggered ability;
    modelled as one that the pipeline runs at once."""

    immediate: bool = True
