"""Checking and paying costs. Everything is checked before anything is paid, so a cost that
can't be paid changes nothing (CR 601.2h, 602.2b; a refused action leaves no trace)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from mtg_rulekit.core import payloads as p
from mtg_rulekit.core.costs import Cost
from mtg_rulekit.core.errors import RulesError, UsageError
from mtg_rulekit.core.events import Cause
from mtg_rulekit.core.mana import (
    Mana,
    ManaCost,
    ManaPool,
    ManaType,
    ManaUnit,
    Restriction,
    SpendContext,
    plan_payment,
    pool_text,
    spent_text,
)
from mtg_rulekit.engine.targets import target_text
from mtg_rulekit.objects.narrator import spending_text
from mtg_rulekit.objects.resolution import move_together
from mtg_rulekit.objects.state import GameObject, Zone

if TYPE_CHECKING:
    from mtg_rulekit.objects.context import RulesContext


@dataclass
class CostPlan:
    """A checked cost, ready to pay: exactly what will be tapped, spent, sacrificed."""

    player: str
    source: GameObject | None
    mana: ManaCost = field(default_factory=ManaCost)
    mana_units: Mana = field(default_factory=Mana)
    purpose: p.Spending | None = None  # what the mana pays for (an activated ability)
    tap: bool = False
    untap: bool = False
    tap_other: GameObject | None = None
    sacrifice: list[GameObject] = field(default_factory=list)
    remove_counters: tuple[str, int] | None = None
    exert: bool = False
    crew: list[GameObject] = field(default_factory=list)


def summoning_sick(game: RulesContext, obj: GameObject) -> bool:
    """A creature that hasn't been under its controller's control continuously since their
    most recent turn began, and has no haste (CR 302.6, 702.10)."""
    chars = game.chars(obj)
    return chars.is_a("Creature") and obj.sick and not chars.has_keyword("Haste")


def plan_mana(game: RulesContext, player: str, cost: ManaCost, ctx: SpendContext, what: str, *,
              rule: str = "601.2h") -> Mana:
    """Which mana in the pool pays `cost`; RulesError (citing `rule`, or 106.6 when restricted mana is
    what's missing) when the pool can't.

    The player chooses which mana pays (CR 601.2h): decision `pay_with`, e.g. "G C#7" (a {G},
    and a {C} from object #7); by default restricted mana goes first where it is allowed, then
    the pool's order."""
    pool = game.state.players[player].pool
    plan = plan_payment(pool, cost, ctx)
    default = spent_text(plan) if plan is not None else None
    wanted = game.decide("pay_with", default, player)
    if wanted is not None and wanted != default:
        return _chosen_mana(pool, cost, ctx, str(wanted), player, what, rule)
    if plan is None:
        barred = [(u, n) for u, n in pool.parts
                  if u.restriction is not None and not u.restriction.allows(ctx)]
        if not barred:
            raise RulesError(f"{player} can't pay {cost} for {what}: the pool has "
                             f"{pool_text(pool)}", rule=rule)
        # one plain sentence: which of the mana can't pay, and why (CR 106.6)
        held = tuple(sorted(pool.parts, key=lambda part: part[0].restriction is not None))
        reasons: dict[Restriction, list[tuple[ManaUnit, int]]] = {}
        for u, n in barred:
            assert u.restriction is not None
            reasons.setdefault(u.restriction, []).append((u, n))
        said = "; ".join(
            f"the {spent_text(Mana(tuple(units)))} is {r.made_by} mana, which {r.text}"
            for r, units in reasons.items())
        raise RulesError(f"{player} can't pay {cost} for {what}: of the {spent_text(Mana(held))} in "
                         f"the pool, {said}", rule="106.6")
    return plan


_UNIT = re.compile(r"\{?([WUBRGC])(?:#([0-9]+))?\}?(?:#([0-9]+))?", re.ASCII)


def _chosen_mana(pool: ManaPool, cost: ManaCost, ctx: SpendContext, wanted: str, player: str,
                 what: str, rule: str) -> Mana:
    """The mana the player chose to pay `cost` with (CR 601.2h): each symbol takes one mana of
    that type from the pool (from object #N if written `C#N`), restricted mana first where it is
    allowed; together they must pay the cost exactly."""
    text = wanted.upper().replace(",", " ")
    if _UNIT.sub("", text).strip():
        raise UsageError("decisions.pay_with", f"{wanted!r} is not a list of mana such as 'G C#7' "
                         "(a type letter, optionally #the source's id)")
    left = dict(pool.parts)
    order = sorted(left, key=lambda u: u.restriction is None)  # restricted first, stable
    chosen: dict[ManaUnit, int] = {}
    for m in _UNIT.finditer(text):
        if m.group(2) and m.group(3):
            raise UsageError("decisions.pay_with", f"{m.group(0)!r} names two sources for one mana; write "
                             "one '#id' per symbol, for example 'G#1 G#2'")
        kind, source = ManaType(m.group(1)), m.group(2) or m.group(3)
        unit = next((u for u in order if u.type is kind and left[u] > 0
                     and (source is None or str(u.source) == source)
                     and (u.restriction is None or u.restriction.allows(ctx))), None)
        if unit is None:
            where = f" from #{source}" if source else ""
            raise RulesError(f"{player} has no {kind.symbol}{where} in the pool that can pay for "
                             f"{what} (the pool has {pool_text(pool)})", rule=rule)
        left[unit] -= 1
        chosen[unit] = chosen.get(unit, 0) + 1
    mana = Mana(tuple(chosen.items()))
    paid = plan_payment(mana, cost, ctx)
    if paid is None or mana.total != paid.total:
        raise RulesError(f"{spent_text(mana)} doesn't pay exactly {cost} for {what}", rule=rule)
    return mana


def spend_mana(game: RulesContext, player: str, cost: ManaCost, ctx: SpendContext,
               spending: p.Spending, *, parent: int, rules: tuple[str, ...]) -> None:
    """Pay `cost` from `player`'s pool while something resolves (e.g. "you may pay {4}", ward):
    one MANA_SPENT event caused by paying a cost; RulesError, citing the first of `rules`,
    when the pool can't pay. Mana abilities named by decision `mana_abilities` are activated
    first (CR 605.3a: whenever a player is asked to pay mana)."""
    game.mana_while_paying(player, parent)
    units = plan_mana(game, player, cost, ctx, spending_text(spending), rule=rules[0])
    game.emit(p.ManaSpent(player=player, mana=units, purpose=spending, cost=str(cost)),
              cause=Cause.COST, parent=parent, rules=rules)


def check_cost(game: RulesContext, player: str, source: GameObject, cost: Cost, *, x: int | None,
               sacrifice: int | None = None, tap_other: int | None = None,
               mana_now: bool = True) -> CostPlan:
    """Check every part of an activation cost; raise RulesError naming the first that fails.
    `mana_now=False`: the mana is found later (`plan_mana_later`), after mana abilities are
    activated while paying (CR 602.2b, 601.2g)."""
    name = game.describe(source)
    plan = CostPlan(player, source, purpose=p.Spending(p.Paying.ABILITY, source=name))
    if cost.tap or cost.untap:
        symbol, rule = ("{T}", "107.5") if cost.tap else ("{Q}", "107.6")
        if cost.tap and source.tapped:
            raise RulesError(f"{name} is already tapped, so it can't pay {symbol}", rule=rule)
        if cost.untap and not source.tapped:
            raise RulesError(f"{name} is already untapped, so it can't pay {symbol}", rule=rule)
        if summoning_sick(game, source):
            raise RulesError(
                f"{name} is a creature that hasn't been under {player}'s control continuously "
                f"since their most recent turn began, so its {symbol} abilities can't be "
                "activated", rule="302.6")
        plan.tap, plan.untap = cost.tap, cost.untap
    if cost.has_x and x is None:
        raise RulesError(f"choose a value for X to activate {name}'s ability", rule="107.3")
    mana = cost.mana.with_x(x or 0) if cost.mana.x_count else cost.mana
    if not mana.is_free():
        plan.mana = mana
        if mana_now:
            plan_mana_later(game, plan)
    if cost.tap_other:
        plan.tap_other = _pick(game, player, tap_other, "an untapped creature you control",
                               lambda o: game.chars(o).is_a("Creature") and not o.tapped,
                               rule="602.2b", none="untapped creature to tap")
    if cost.sacrifice_self:
        plan.sacrifice.append(source)
    if cost.sacrifice:
        kind = cost.sacrifice
        plan.sacrifice.append(_pick(
            game, player, sacrifice, f"a {kind} you control",
            lambda o: kind in game.chars(o).subtypes or kind in game.chars(o).types,
            rule="602.2b", none=f"{kind} to sacrifice"))
    if cost.remove_counters:
        counter, n = cost.remove_counters
        amount = (x or 0) if n == "X" else int(n)
        if source.counters.get(counter, 0) < amount:
            raise RulesError(f"{name} has {source.counters.get(counter, 0)} {counter} counter(s);"
                             f" removing {amount} is part of the cost", rule="602.2b")
        plan.remove_counters = (counter, amount) if amount else None
    plan.exert = cost.exert
    if cost.crew:
        plan.crew = choose_crew(game, player, source, cost.crew)
    return plan


def plan_mana_later(game: RulesContext, plan: CostPlan) -> None:
    """Choose the mana in the pool that pays the plan's mana cost (CR 601.2h)."""
    if plan.mana.is_free():
        return
    what = spending_text(plan.purpose) if plan.purpose is not None else ""
    ctx = SpendContext("activate", text=what)
    plan.mana_units = plan_mana(game, plan.player, plan.mana, ctx, what)


def _pick(game: RulesContext, player: str, wanted: int | None, text: str, ok: object,
          rule: str, none: str) -> GameObject:
    """The permanent paying part of a cost: `wanted`, if it is `text`, else the first that is;
    refused naming what is missing ("Alice has no Food to sacrifice": `none`)."""
    candidates = [o for o in game.permanents(player) if ok(o)]  # type: ignore[operator]
    if wanted is not None:
        match = [o for o in candidates if o.id == wanted]
        if not match:
            raise RulesError(f"{target_text(game, wanted)} is not {text}", rule=rule)
        return match[0]
    if not candidates:
        raise RulesError(f"{player} has no {none}", rule=rule)
    return candidates[0]


def pay(game: RulesContext, plan: CostPlan, parent: int) -> None:
    """Pay a checked cost: each part is an event caused by paying the cost (CR 601.2h)."""
    def emit(payload: p.Payload, subject: int | None, rules: tuple[str, ...]) -> None:
        game.emit(payload, cause=Cause.COST, parent=parent, rules=rules, subject=subject)

    if plan.mana_units:
        assert plan.purpose is not None
        emit(p.ManaSpent(player=plan.player, mana=plan.mana_units, purpose=plan.purpose,
                         cost=str(plan.mana)), None, ("601.2h",))
    src = plan.source
    if plan.tap and src is not None:
        emit(p.Tapped(object=src.id, as_cost=True), src.id, ("107.5",))
    if plan.untap and src is not None:
        emit(p.Untapped(object=src.id, as_cost=True), src.id, ("107.6",))
    if plan.tap_other is not None:
        emit(p.Tapped(object=plan.tap_other.id, as_cost=True), plan.tap_other.id, ("602.2b",))
    if plan.remove_counters and src is not None:
        counter, n = plan.remove_counters
        emit(p.CountersRemoved(object=src.id, counter=counter, n=n), src.id, ("602.2b",))
    for creature in plan.crew:  # summoning sickness doesn't matter: no {T} symbol (CR 702.122a)
        emit(p.Tapped(object=creature.id, as_cost=True, crews=src.id if src else None),
             creature.id, ("702.122a",))
    if plan.exert and src is not None:
        emit(p.Exerted(object=src.id, player=plan.player), src.id, ("701.43",))
    if plan.sacrifice:
        move_together(game, plan.sacrifice, Zone.GRAVEYARD, reason="sacrifice", cause=Cause.COST,
                      parent=parent, rules=("701.21",))


def choose_crew(game: RulesContext, player: str, source: GameObject, n: int) -> list[GameObject]:
    """The creatures that pay a crew cost. Decision ``crew`` (one id per answer), else the
    other untapped creatures `player` controls in id order until their power adds up to `n`.
    Summoning-sick creatures may crew: the cost has no {T} symbol."""
    picked: list[int] = []
    while (answer := game.decide("crew", None, player)) is not None:
        picked.append(int(str(answer).lstrip("#")))
    candidates = [o for o in game.permanents(player) if o.id != source.id and not o.tapped
                  and game.chars(o).is_a("Creature")]
    if picked:
        by_id = {o.id: o for o in candidates}
        if len(set(picked)) != len(picked):
            raise RulesError("the same creature can't be tapped twice to crew", rule="702.122a")
        for i in picked:
            if i not in by_id:
                raise RulesError(f"{game.target_text(i)} is not another untapped creature "
                                 f"{player} controls, so it can't crew", rule="702.122a")
        chosen = [by_id[i] for i in picked]
    else:
        chosen, total = [], 0
        for o in candidates:
            if total >= n:
                break
            chosen.append(o)
            total += game.chars(o).power or 0
    total = sum(game.chars(o).power or 0 for o in chosen)
    if total < n:
        names = ", ".join(game.describe(o) for o in chosen) or "no creatures"
        raise RulesError(f"Crew {n} needs untapped creatures with total power {n} or more; "
                         f"{names}: total power {total}", rule="702.122a")
    return chosen
