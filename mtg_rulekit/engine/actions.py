"""Player actions: each checks legality first (raising RulesError with the rule), then runs the
event pipeline. `Game.perform` calls these by name and makes them atomic and replayable."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from mtg_rulekit.core import payloads as p
from mtg_rulekit.core.decisions import choice_value, written_id
from mtg_rulekit.core.errors import ChoiceNeeded, RulesError, UsageError
from mtg_rulekit.core.events import Cause, EventKind
from mtg_rulekit.core.mana import Mana, ManaType, ManaUnit, SpendContext, restriction_named
from mtg_rulekit.engine import combat, control, stack
from mtg_rulekit.engine.combat import check_attackers, check_blockers
from mtg_rulekit.engine.keywords import flashback_cost, reduce_cost
from mtg_rulekit.engine.paying import check_cost, pay, plan_mana, plan_mana_later
from mtg_rulekit.engine.riders import after_spending, spent_data
from mtg_rulekit.engine.stack import resolve_top
from mtg_rulekit.engine.targets import announce, check_chosen
from mtg_rulekit.engine.triggers import resolve_mana_triggers
from mtg_rulekit.objects.abilities import Activated, ManaAbility, SpellAbility, Static
from mtg_rulekit.objects.attach import illegal_attachment
from mtg_rulekit.objects.narrator import item_name, unfit_text
from mtg_rulekit.objects.production import ProduceContext
from mtg_rulekit.objects.resolution import Resolution, move_together
from mtg_rulekit.objects.state import StackItem, Step, Zone

if TYPE_CHECKING:
    from mtg_rulekit.objects.context import RulesContext

ACTIONS: dict[str, Callable[..., Any]] = {}
SETUP_ACTIONS = frozenset({"add", "set_turn", "set_life", "set_pool"})
"""Actions that arrange a position rather than play (their root event has `setup` set)."""


def action(fn: Callable[..., Any]) -> Callable[..., Any]:
    ACTIONS[fn.__name__] = fn
    return fn


def _root(game: RulesContext, player: str | None = None, *, keeps_priority: bool = True,
          rules: tuple[str, ...] = (), said: type[p.Action] = p.Action, **facts: Any) -> int:
    """The ACTION event every player action starts with: the root of its causal tree. `said`:
    the kind of action (`mtg_rulekit.core.payloads.Action` or one of its variants), `facts` what
    the narrator needs to say it."""
    name = game.current_action
    event = game.note(said(action=name, player=player, setup=name in SETUP_ACTIONS,
                           keeps_priority=keeps_priority, **facts),
                      cause=Cause.ACTION, parent=None, rules=rules)
    return event.id


def _not_phased_out(game: RulesContext, obj: Any) -> None:
    if obj.phased_out:
        raise RulesError(f"{game.describe(obj)} is phased out: until it phases in, it is "
                         "treated as though it doesn't exist", rule="702.26b")


def _need_priority(game: RulesContext, player: str, what: str) -> None:
    state = game.state
    for waiting, who, step, rule in ((state.awaiting_attackers, "attackers", "declare attackers",
                                      "508.1"),
                                     (state.awaiting_blockers, "blockers", "declare blockers",
                                      "509.1")):
        if waiting:  # the turn-based action comes first; priority only after it (CR 117.3a)
            raise RulesError(f"{player} can't {what} now: no player has priority until "
                             f"{who} are declared at the start of the {step} step", rule=rule)
    if game.state.priority != player:
        raise RulesError(f"{player} can't {what} now: {game.state.priority} has priority",
                         rule="117.1")


def _sorcery_timing(game: RulesContext, player: str, what: str, rule: str) -> None:
    """Sorcery timing: the player's own main phase, the stack empty; `rule` the one that sets
    it for this action (a land 305.1, a noninstant spell 117.1a, "activate only as a sorcery"
    602.5d)."""
    state = game.state
    if state.active != player or not state.step.is_main or state.stack:
        raise RulesError(
            f"{player} can {what} only in their own main phase while the stack is empty",
            rule=rule)


# ------------------------------------------------------------------ set-up
@action
def add(game: RulesContext, *, card: str, player: str, zone: str = "battlefield", **status: Any) -> Any:
    """Set-up (arguments checked by `mtg_rulekit.engine.arguments`): the card as it is, with no
    replacement effects, so anything it would choose as it enters must be given."""
    definition = game.card(card)
    missing = definition.unmodelled()
    if missing:  # refused, never approximated
        raise UsageError("card", f"{definition.name} isn't fully modelled by the kit: no "
                         f"behaviour does {missing[0]!r}")
    zone_ = Zone(zone)
    chars = definition.printed
    choices: dict[str, str] = {}
    if zone_ is Zone.BATTLEFIELD:
        for kind, rule in (("Instant", "304.4"), ("Sorcery", "307.4")):
            if chars.is_a(kind):
                raise RulesError(f"{chars.name} is an {kind.lower()}: it can't be put onto the "
                                 "battlefield", rule=rule)
        choices = _setup_choices(definition, dict(status.get("choices") or {}))
    elif status.get("choices"):
        raise UsageError("choices", f"{chars.name} makes its choices as it enters the "
                                    "battlefield; it isn't going there")
    attach = status.get("attached_to")
    if attach is not None:
        if zone_ is not Zone.BATTLEFIELD:
            raise UsageError("attached_to", f"only a permanent on the battlefield is attached to "
                                            f"something, and {chars.name} is going to the {zone}")
        problem = illegal_attachment(game, chars, None, game.obj(attach))
        if problem:
            raise RulesError(f"{chars.name} can't be attached to {game.describe(attach)}: "
                             f"{unfit_text(problem)}", rule=problem.rule)
    data = p.SetUp(
        card=definition.name, controller=player, owner=status.get("owner") or player,
        origin=Zone.NOWHERE, destination=zone_, setup=True,
        tapped=bool(status.get("tapped", False)), sick=bool(status.get("sick", False)),
        counters=dict(status.get("counters") or {}), choices=choices, attach_to=attach,
        token=bool(status.get("token", definition.token)),
        attacking=bool(status.get("attacking", False)), position=status.get("position"))
    root = _root(game, said=p.ForPlayer, for_player=player, card=definition.name, zone=zone_)
    event = game.emit(data, cause=Cause.ACTION, parent=root, subject=None)
    assert event is not None and isinstance(event.payload, p.ZoneChanged)
    assert event.payload.new is not None
    return game.obj(event.payload.new)


@action
def set_turn(game: RulesContext, *, turn: int | None = None, active: str | None = None,
             step: str | None = None) -> None:
    state = game.state
    if active is not None and active not in state.players:
        raise RulesError(f"there is no player called {active!r}")
    if step == Step.CLEANUP.value:  # nobody could act there (CR 514.3)
        raise RulesError("the game doesn't stop in the cleanup step: normally no player gets "
                         "priority there; set up the end step instead", rule="514.3")
    root = _root(game)
    if turn is not None or active is not None:
        game.emit(p.TurnBegan(turn=turn or state.turn, player=active or state.active),
                  cause=Cause.ACTION, parent=root)
    game.emit(p.StepBegan(step=step or state.step.value, active=state.active, turn=state.turn),
              cause=Cause.ACTION, parent=root)
    game.settle(root)  # "at the beginning of" triggers go on the stack now, not later


@action
def set_life(game: RulesContext, *, player: str, life: int) -> None:
    if player not in game.state.players:
        raise RulesError(f"there is no player called {player!r}")
    root = _root(game, said=p.ForPlayer, for_player=player, life=life)
    diff = life - game.state.players[player].life
    if diff:
        change = p.LifeGained if diff > 0 else p.LifeLost
        game.emit(change(player=player, amount=abs(diff)), cause=Cause.ACTION, parent=root)


@action
def set_pool(game: RulesContext, *, player: str, mana: list[dict[str, str]]) -> None:
    """Set-up: mana already in a pool, e.g. `[{"type": "C", "restriction": "powerstone"}]`
    (restriction "cavern" takes a "creature_type")."""

    if player not in game.state.players:
        raise RulesError(f"there is no player called {player!r}")
    units = []
    for m in mana:
        try:
            restriction = restriction_named(m.get("restriction"),
                                            m.get("creature_type", "Human"))
        except ValueError as err:
            raise RulesError(str(err)) from None
        units.append(ManaUnit(ManaType(m["type"]), None, "set-up", restriction))
    root = _root(game, said=p.ForPlayer, for_player=player)
    game.emit(p.ManaAdded(player=player, mana=Mana.of(units), source=None,
                          source_name="set-up", setup=True),
              cause=Cause.ACTION, parent=root)


def _setup_choices(definition: Any, given: dict[str, str]) -> dict[str, str]:
    """The choices a permanent makes as it enters (CR 614.12), which set-up must be given:
    exactly the card's, each a meaningful value (returned in canonical form)."""

    needed = [a.choice for a in definition.printed.abilities
              if isinstance(a, Static) and a.choice]
    name = definition.name
    for key in needed:
        if key not in given:
            example = "'G'" if key == "color" else "'Elf'"
            raise UsageError("choices", f"{name} chooses a {key.replace('_', ' ')} as it enters "
                                        f"(CR 614.12); set-up puts it straight onto the "
                                        f"battlefield, so say which: choices={{'{key}': "
                                        f"{example}}}")
        given[key] = choice_value(f"choices.{key}", key, given[key])
    for key in given:
        if key not in needed:
            makes = ", ".join(needed) or "nothing"
            raise UsageError("choices", f"{name} makes no choice called {key!r} as it enters "
                                        f"(it chooses: {makes})")
    return given


# ------------------------------------------------------------- play a land
@action
def play_land(game: RulesContext, *, object: int) -> None:
    obj = game.obj(object)
    player = obj.owner
    chars = game.chars(obj)
    if obj.zone is not Zone.HAND:
        raise RulesError(f"{game.describe(obj)} is not in a hand", rule="305.1")
    if not chars.is_a("Land"):
        raise RulesError(f"{chars.name} is not a land; cast it instead", rule="305.1")
    _need_priority(game, player, "play a land")
    _sorcery_timing(game, player, "play a land", "305.1")
    if game.state.players[player].lands_played >= 1:
        raise RulesError(f"{player} has already played a land this turn", rule="305.2")
    root = _root(game, player, rules=("305.1",), said=p.Played, card=chars.name)
    game.emit(p.Entered(object=obj.id, origin=Zone.HAND, destination=Zone.BATTLEFIELD,
                            controller=player, land_play=True, player=player, reason="play"),
              cause=Cause.ACTION, parent=root, rules=("305.1", "116.2a"), subject=obj.id)
    game.settle(root)


# -------------------------------------------------------------------- cast
@action
def cast(game: RulesContext, *, object: int, x: int | None = None,
         targets: Sequence[Any] = ()) -> None:
    obj = game.obj(object)
    chars = game.chars(obj)
    player = obj.owner

    flashback = flashback_cost(chars) if obj.zone is Zone.GRAVEYARD else None
    if obj.zone is not Zone.HAND and flashback is None:
        raise RulesError(f"{game.describe(obj)} is not in a hand, so it can't be cast",
                         rule="601.2")
    if chars.is_a("Land"):
        raise RulesError(f"{chars.name} is a land: lands are played, not cast", rule="305.9")
    _need_priority(game, player, f"cast {chars.name}")
    if not chars.is_a("Instant"):
        _sorcery_timing(game, player, f"cast {chars.name}", "117.1a")
    cost = flashback if flashback is not None else chars.mana_cost  # CR 702.34a
    if cost.x_count and x is None:
        raise RulesError(f"choose a value for X to cast {chars.name}", rule="601.2b")
    if not cost.x_count and x:
        raise RulesError(f"{chars.name} has no X in its cost", rule="107.3")
    spell = next((a for a in chars.abilities if isinstance(a, SpellAbility)), None)
    chosen: tuple[int | str, ...] = ()
    if spell is not None and spell.target is not None:
        chosen = check_chosen(game, obj.id, spell.target, list(targets))
    elif targets:
        raise RulesError(f"{chars.name} doesn't target", rule="601.2c")
    total = cost.with_x(x or 0) if cost.x_count else cost
    total = reduce_cost(game, obj, chars, total)  # CR 601.2f
    ctx = SpendContext("cast", is_artifact_spell=chars.is_a("Artifact"),
                       is_creature_spell=chars.is_a("Creature"),
                       creature_types=frozenset(chars.subtypes), text=chars.name)
    during = _mana_while_paying(game, player)  # mana abilities activated once the cost is locked
    units = plan_mana(game, player, total, ctx, chars.name) \
        if not total.is_free() and not during else Mana()
    root = _root(game, player, rules=("601.2",) + (("702.34a",) if flashback else ()),
                 said=p.Casting, card=chars.name, x=(x or 0) if cost.x_count else None,
                 flashback=flashback is not None)
    item_id = game.new_id()
    cast_event = game.emit(p.Cast(
        object=obj.id, origin=obj.zone, player=player, card=chars.name, x=x or 0,
        x_cost=bool(cost.x_count), targets=tuple(chosen), item_id=item_id,
        colors=tuple(sorted(c.value for c in chars.colors))),
        cause=Cause.ACTION, parent=root, rules=("601.2a",), subject=obj.id)
    assert cast_event is not None and isinstance(cast_event.payload, p.Cast)
    if during:  # CR 601.2g: after the total cost is locked in (601.2f), before paying (601.2h)
        activate_while_paying(game, player, cast_event.id, during)
        units = plan_mana(game, player, total, ctx, chars.name) if not total.is_free() else Mana()
    if units:
        assert cast_event.payload.new is not None
        on_stack = game.obj(cast_event.payload.new)
        spent = game.emit(p.ManaSpent(player=player, mana=units, purpose=p.Spending(p.Paying.CAST, source=chars.name),
                                      cost=str(total),
                                      uncounterable=spent_data(on_stack, chars, units)),
                          cause=Cause.COST, parent=cast_event.id, rules=("601.2h",))
        after_spending(game, on_stack, chars, units, spent)  # mana riders (CR 106.6)
    if chosen:
        announce(game, item_id, player, chars.name, chosen, cast_event.id)
    game.settle(root)


# ---------------------------------------------------------------- activate
def _pick_ability(game: RulesContext, obj: Any, index: int | None, mana: str | None,
                  tap_only: bool = False, x: int | None = None) -> tuple[int, Activated]:
    abilities = [(i, a) for i, a in enumerate(game.chars(obj).abilities)
                 if isinstance(a, Activated)]
    if tap_only:
        abilities = [(i, a) for i, a in abilities if isinstance(a, ManaAbility) and a.cost.tap]
    if index is not None:
        for i, a in abilities:
            if i == index:
                return i, a
        raise RulesError(f"{game.describe(obj)} has no such ability (#{index})")
    if not abilities:
        what = "mana ability with {T} in its cost" if tap_only else "activated ability"
        raise RulesError(f"{game.describe(obj)} has no {what}",
                         rule="106.12" if tap_only else "602.1")
    if len(abilities) == 1:
        return abilities[0]
    if mana is not None:
        ok = []
        for i, a in abilities:
            if isinstance(a, ManaAbility) and a.production is not None:
                ctx = ProduceContext(game, obj, game.controller_of(obj), game.could_produce, x=x)
                try:
                    a.production.produce(ctx, mana)
                    ok.append((i, a))
                except RulesError:
                    continue
        plain = [(i, a) for i, a in ok if not a.cost.sacrifice_self and not a.cost.remove_counters]
        if plain or ok:
            return (plain or ok)[0]
    # announcing the activation says which ability it is (CR 602.2a; 605.3a for mana ones)
    raise ChoiceNeeded(f"{game.describe(obj)} has several abilities",
                       options=[f"{i}: {a.text}" for i, a in abilities], rule="602.2a")


@action
def activate(game: RulesContext, *, object: int, ability: int | None = None, mana: str | None = None,
             x: int | None = None, targets: Sequence[Any] = (), sacrifice: int | None = None,
             tap: int | None = None, _tap_only: bool = False) -> None:
    obj = game.obj(object)
    if obj.zone is not Zone.BATTLEFIELD:
        raise RulesError(f"{game.describe(obj)} is not on the battlefield", rule="602.2")
    _not_phased_out(game, obj)
    player = game.controller_of(obj)
    index, ab = _pick_ability(game, obj, ability, mana, _tap_only, x)
    name = game.describe(obj)
    _need_priority(game, player, f"activate {name}'s ability")
    if ab.sorcery_speed:
        _sorcery_timing(game, player, f"activate {name}'s ability", "602.5d")
    if ab.condition is not None:
        problem = ab.condition(game, obj)
        if problem:
            raise RulesError(f"{name}: {problem}", rule="602.5")
    during = [] if isinstance(ab, ManaAbility) else _mana_while_paying(game, player)
    plan = check_cost(game, player, obj, ab.cost, x=x, sacrifice=sacrifice, tap_other=tap,
                      mana_now=not during)
    if isinstance(ab, ManaAbility):
        _activate_mana(game, obj, ab, plan, mana, x, player)
        return
    chosen: tuple[int | str, ...] = ()
    if ab.target is not None:
        chosen = check_chosen(game, obj.id, ab.target, list(targets))
    root = _root(game, player, rules=("602.2",), said=p.Activating, card=name, ability=ab.text)
    item = StackItem(id=game.new_id(), kind="ability", controller=player, source=obj.id,
                     source_name=game.chars(obj).name, text=f"{game.chars(obj).name}: {ab.text}",
                     ability=ab, targets=chosen, x=x or 0)
    activated = game.emit(p.Activated(object=obj.id, source=name, ability=index, item=item,
                                      item_id=item.id),
                          cause=Cause.ACTION, parent=root, rules=("602.2a",), subject=obj.id)
    assert activated is not None
    if during:  # CR 602.2b, 601.2g: mana abilities once the total cost is locked in

        activate_while_paying(game, player, activated.id, during)
        plan_mana_later(game, plan)
    pay(game, plan, activated.id)
    if chosen:
        announce(game, item.id, player, item_name(item), chosen, activated.id)
    game.settle(root)


def _mana_while_paying(game: RulesContext, player: str) -> list[tuple[Any, str | None]]:
    """Decision `mana_abilities`: sources whose mana ability is activated while paying, each
    an object (id, `#id`, label) or `"#id:G"` to say which mana it makes."""
    out: list[tuple[Any, str | None]] = []
    while (answer := game.decide("mana_abilities", None, player)) is not None:
        text = str(answer)
        ref, _, mana = text.partition(":") if isinstance(answer, str) else (answer, "", "")
        out.append((ref, mana or None))
    return out


def activate_while_paying(game: RulesContext, player: str, parent: int,
                          during: list[tuple[Any, str | None]] | None = None) -> None:
    """The mana abilities the caller named (decision `mana_abilities`) activated while
    `player` pays a cost, once it is locked in (CR 601.2g, 605.3a), under event `parent`."""
    for ref, mana in _mana_while_paying(game, player) if during is None else during:
        _mana_ability_while_paying(game, ref, mana, player, parent)


def _mana_ability_while_paying(game: RulesContext, ref: Any, mana: str | None, player: str,
                               parent: int) -> None:
    """Activate a mana ability in the middle of casting a spell (CR 601.2g, 605.3a)."""
    found = written_id("decisions.mana_abilities", ref) if isinstance(ref, str) else ref
    obj = game.obj(found if found is not None else ref)
    _not_phased_out(game, obj)
    if obj.zone is not Zone.BATTLEFIELD or game.controller_of(obj) != player:
        raise RulesError(f"{game.describe(obj)} is not a permanent {player} controls, so "
                         f"{player} can't activate its mana ability", rule="602.2")
    _, ab = _pick_ability(game, obj, None, mana, False, None)
    if not isinstance(ab, ManaAbility):
        raise RulesError(f"{game.describe(obj)}'s ability is not a mana ability", rule="605.3a")
    # "Sacrifice a Forest": the player says which (decision `sacrifice`; default the first)
    chosen = game.decide("sacrifice", None, player) \
        if ab.cost.sacrifice and not ab.cost.sacrifice_self else None
    plan = check_cost(game, player, obj, ab.cost, x=None, sacrifice=chosen)
    _activate_mana(game, obj, ab, plan, mana, None, player, parent=parent)


def _activate_mana(game: RulesContext, obj: Any, ab: ManaAbility, plan: Any, mana: str | None,
                   x: int | None, player: str, parent: int | None = None) -> None:
    """A mana ability doesn't use the stack: pay, then it resolves at once (CR 605.3b).
    `parent`: activated while paying for a spell (CR 601.2g), under that spell's event."""

    assert ab.production is not None
    ctx = ProduceContext(game, obj, player, game.could_produce, x=x or 0)
    output = ab.production.produce(ctx, mana)  # checks the choice before anything is paid
    restriction = ab.production.restriction_for(ctx)
    name = game.describe(obj)
    root = parent if parent is not None else _root(
        game, player, rules=("605.3a",) + (("106.12",) if ab.cost.tap else ()),
        said=p.Activating, card=name, ability=ab.text, mana=True, taps=ab.cost.tap)
    activated = game.emit(p.Activated(object=obj.id, source=name, mana_ability=True,
                                      taps_for_mana=ab.cost.tap),
                          cause=Cause.ACTION, parent=root, rules=("605.1a",), subject=obj.id)
    assert activated is not None
    pay(game, plan, activated.id)
    resolving = game.note(p.ManaAbilityResolved(object=obj.id, source=name),
                          cause=Cause.RULE, parent=activated.id, rules=("605.3b",),
                          subject=obj.id)
    res = Resolution(game, obj.id, player, resolving.id, x=x or 0, ability=ab,
                     tapped_for_mana=ab.cost.tap)
    if not output:
        undefined = not ab.production.options(ctx)
        why = p.Reason.UNDEFINED_MANA if undefined else p.Reason.NO_MANA
        game.note(p.Note(reason=why, name=name), cause=Cause.RULE, parent=resolving.id,
                  rules=("106.5",) if undefined else ("106.7",), subject=obj.id)
    res.add_mana(output, restriction=restriction, rider=ab.production.rider)
    if ab.effect is not None:
        ab.effect(res)
    resolve_mana_triggers(game)
    if parent is None:  # while paying, triggers wait until the spell is cast (CR 601.2i)
        game.settle(root)


@action
def tap_for_mana(game: RulesContext, *, object: int, mana: str | None = None) -> None:
    activate(game, object=object, mana=mana, _tap_only=True)


# --------------------------------------------------------- priority & time
@action
def pass_priority(game: RulesContext) -> None:
    root = _root(game, game.state.priority, keeps_priority=False, rules=("117.3d",))
    stack.pass_priority(game, root)


@action
def resolve(game: RulesContext) -> None:
    state = game.state
    if not state.stack:
        raise RulesError("the stack is empty: there is nothing to resolve", rule="405.5")
    top = state.stack[-1]
    root = _root(game, keeps_priority=False, rules=("117.4", "608.1"), said=p.Passing,
                 all_pass=True, item=item_name(top))
    resolve_top(game, root)


@action
def advance(game: RulesContext, to: str | None = None) -> None:
    state = game.state
    target = Step(to) if to else None
    if target is Step.UNTAP:  # the game never stops there
        raise RulesError("the game doesn't stop in the untap step: no player gets priority "
                         "there, so advance to the upkeep", rule="502.4")
    if target is Step.CLEANUP:  # it stops there only if 514.3a gives priority
        raise RulesError("the game doesn't stop in the cleanup step: normally no player gets "
                         "priority there, so advance to the end step or to the next turn",
                         rule="514.3")
    label = target.label if target else "the next step"
    root = _root(game, keeps_priority=False, rules=("117.4", "500.2"), said=p.Passing,
                 until=label)
    steps, resolved, seen, moved = 0, 0, len(game.log), False
    while True:
        before = state.step
        resolving = bool(state.stack)
        stack.pass_all(game, root)
        resolved, steps = _count_pass(resolving, resolved, steps, f"reaching {label}")
        # a step began, even one with the same name (an extra combat's steps, CR 500.8)
        moved = moved or any(e.kind is EventKind.STEP_BEGAN for e in game.log.since(seen))
        seen = len(game.log)
        if moved and not state.stack and (target is None or state.step is target):
            break
        if (target in (Step.DECLARE_BLOCKERS, Step.COMBAT_DAMAGE)
                and before is Step.DECLARE_ATTACKERS and state.step is Step.END_COMBAT):
            raise RulesError(f"there is no {target.label} this turn: no creature attacked, so "
                             "combat goes straight to the end of combat step", rule="508.8")


RESOLVE_LIMIT = 10_000
"""The most spells and abilities one `advance` or `next_turn` resolves on its way (each pass
with a non-empty stack resolves one, CR 117.4). More is refused (RulesError naming the
limit), as a loop would be: resolve them with `resolve()` instead."""
STEP_LIMIT = 200
"""Steps one `advance` or `next_turn` may begin: a turn has 12 (a few more with an extra
combat), so more than this means the engine went round without arriving (a bug, not a
position)."""


def _count_pass(resolving: bool, resolved: int, steps: int, goal: str) -> tuple[int, int]:
    """Count one full round of passes: it resolved the top of the stack or ended a step."""
    if resolving:
        resolved += 1
        if resolved > RESOLVE_LIMIT:
            raise RulesError(f"more than {RESOLVE_LIMIT:,} spells and abilities would resolve "
                             f"before {goal}; the kit resolves at most {RESOLVE_LIMIT:,} in one "
                             "action (resolve them with resolve(), or take fewer triggers)",
                             rule="117.4")
        return resolved, steps
    steps += 1
    if steps > STEP_LIMIT:
        raise RuntimeError(f"{STEP_LIMIT} steps passed without {goal}: this is a bug in rulekit")
    return resolved, steps


@action
def next_turn(game: RulesContext) -> None:
    state = game.state
    turn = state.turn
    root = _root(game, keeps_priority=False, rules=("117.4", "500.2"))
    resolved = steps = 0
    while not (state.turn > turn and state.step is Step.MAIN1 and not state.stack):
        resolving = bool(state.stack)
        stack.pass_all(game, root)
        resolved, steps = _count_pass(resolving, resolved, steps,
                                      "reaching the next turn's main phase")


# ------------------------------------------------------- set-up conveniences
def _battlefield_objects(game: RulesContext, objects: list[int]) -> list[Any]:
    objs = [game.obj(i) for i in objects]
    for o in objs:
        if o.zone is not Zone.BATTLEFIELD:
            raise RulesError(f"{game.describe(o)} is not on the battlefield", rule="701.8a")
        _not_phased_out(game, o)
    if len({o.id for o in objs}) != len(objs):
        raise RulesError("the same permanent is named twice")
    return objs


def _move_at_once(game: RulesContext, objects: list[int], to: Zone, verb: str, rule: str) -> None:
    """Set-up convenience: move permanents at the same time, as one event batch."""

    objs = _battlefield_objects(game, objects)
    root = _root(game, rules=(rule,), said=p.AtOnce,
                 objects=tuple(game.describe(o) for o in objs[:5]), count=len(objs))
    move_together(game, objs, to, reason=verb, cause=Cause.ACTION, parent=root, rules=(rule,))
    game.settle(root)


@action
def destroy(game: RulesContext, *, objects: list[int]) -> None:
    _move_at_once(game, objects, Zone.GRAVEYARD, "destroy", "701.8")


@action
def exile(game: RulesContext, *, objects: list[int]) -> None:
    _move_at_once(game, objects, Zone.EXILE, "exile", "406.2")


@action
def gain_control(game: RulesContext, *, object: int, player: str, until_end_of_turn: bool = True) -> None:
    obj = _battlefield_objects(game, [object])[0]
    if player not in game.state.players:
        raise RulesError(f"there is no player called {player!r}")
    root = _root(game, rules=("613.1b",), said=p.ForPlayer, for_player=player,
                 card=game.describe(obj))
    control.gain_control(game, obj, player, until_end_of_turn=until_end_of_turn, source=None, parent=root,
            cause=Cause.ACTION)
    game.settle(root)


@action
def declare_attackers(game: RulesContext, *, attackers: Sequence[int] = (),
                      exert: Sequence[int] = ()) -> None:
    state = game.state
    for i in attackers:  # the ruling's reason first (R17): it was never declared
        obj = game.obj(i)
        if obj.attacking and not obj.declared_attacker:
            raise RulesError(f"{game.describe(obj)} was put onto the battlefield attacking and "
                             "was never declared as an attacker, so it can't be declared now, "
                             "nor exerted, which happens only as a creature is declared as an "
                             "attacker", rule="508.4")
    if not state.awaiting_attackers:
        raise RulesError("attackers are declared only at the start of the declare attackers step",
                         rule="508.1")

    check_attackers(game, list(attackers), list(exert))  # before anything is logged
    root = _root(game, state.active, keeps_priority=False, rules=("508.1",))
    combat.declare_attackers(game, list(attackers), list(exert), root)


@action
def declare_blockers(game: RulesContext, *, blocks: dict[str, int]) -> None:
    state = game.state
    if state.step is not Step.DECLARE_BLOCKERS or not state.awaiting_blockers:
        raise RulesError("blockers are declared only at the start of the declare blockers step",
                         rule="509.1")
    defender = state.opponents(state.active)[0]

    check_blockers(game, {int(k): int(v) for k, v in blocks.items()})
    # a turn-based action, not a spell: the defender doesn't keep priority (CR 117.3a, 509.2)
    root = _root(game, defender, keeps_priority=False, rules=("509.1",))
    combat.declare_blockers(game, {int(k): int(v) for k, v in blocks.items()}, root)
