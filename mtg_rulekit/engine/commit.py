"""Committing events: the only place the game state changes.

Each function takes the game and the (final, post-replacement) payload of one event and changes
the state; the narrator says what happened (`mtg_rulekit.objects.narrator`). Because nothing else mutates the
state, an action that logged no event changed nothing, and replaying a game's actions rebuilds
it exactly.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from mtg_rulekit.core import payloads as p
from mtg_rulekit.core.events import EventKind
from mtg_rulekit.objects.state import GameObject, StackItem, Step, Zone

if TYPE_CHECKING:
    from mtg_rulekit.objects.context import RulesContext

Commit = Callable[["RulesContext", Any], None]
COMMITS: dict[EventKind, Commit] = {}


def commits(kind: EventKind) -> Callable[[Commit], Commit]:
    def register(fn: Commit) -> Commit:
        COMMITS[kind] = fn
        return fn

    return register


def _obj(game: RulesContext, obj: int | None) -> GameObject:
    assert obj is not None
    return game.state.objects[obj]


@commits(EventKind.TAPPED)
def _tap(game: RulesContext, e: p.Tapped) -> None:
    _obj(game, e.object).tapped = True


@commits(EventKind.PHASED)
def _phased(game: RulesContext, e: p.Phased) -> None:
    obj = _obj(game, e.object)
    obj.phased_out = not e.phased_in
    obj.phased_out_under = None if e.phased_in else e.player
    obj.phased_indirectly = e.indirectly and not e.phased_in
    if not e.phased_in:  # removed from combat (CR 506.4)
        obj.attacking, obj.blocking, obj.declared_attacker = False, None, False
    game.touched(obj, shape=True)  # its abilities stop (or start) working


@commits(EventKind.UNTAPPED)
def _untap(game: RulesContext, e: p.Untapped) -> None:
    obj = _obj(game, e.object)
    obj.tapped = False
    if e.clears_exert:
        _end_exert(obj, e.exert_of)


@commits(EventKind.UNTAP_SKIPPED)
def _untap_skipped(game: RulesContext, e: p.UntapSkipped) -> None:
    if e.clears_exert:
        _end_exert(_obj(game, e.object), e.exert_of)


def _end_exert(obj: GameObject, who: str | None) -> None:
    """The exert effect of player `who` ends (its untap step came); the others wait."""
    obj.skip_untap_for = tuple(p for p in obj.skip_untap_for if who is not None and p != who)


@commits(EventKind.EXERTED)
def _exert(game: RulesContext, e: p.Exerted) -> None:
    obj = _obj(game, e.object)
    if e.player not in obj.skip_untap_for:
        obj.skip_untap_for += (e.player,)
    obj.exerted_by = e.player
    obj.exerted_turn = game.state.turn


@commits(EventKind.MANA_ADDED)
def _mana_added(game: RulesContext, e: p.ManaAdded) -> None:
    game.state.players[e.player].pool.add(e.mana)


@commits(EventKind.MANA_SPENT)
def _mana_spent(game: RulesContext, e: p.ManaSpent) -> None:
    game.state.players[e.player].pool.spend(e.mana)
    if e.uncounterable is not None:  # Cavern of Souls' rider (CR 106.6)
        game.state.objects[e.uncounterable].uncounterable = True


@commits(EventKind.MANA_EMPTIED)
def _mana_emptied(game: RulesContext, e: p.ManaEmptied) -> None:
    game.state.players[e.player].pool.clear()


@commits(EventKind.ZONE_CHANGED)
def _zone_changed(game: RulesContext, e: p.ZoneChanged) -> None:
    state = game.state
    if isinstance(e, p.SetUp) and e.origin == Zone.NOWHERE and e.card is not None:
        _set_up(game, e)
        return
    old = _obj(game, e.object)
    src, dst = Zone(e.origin), Zone(e.destination)
    if old.zone is not src:
        raise AssertionError(f"{old.card.name} is not in the {src.value}")
    if src is Zone.BATTLEFIELD:
        # as it last existed: before the whole simultaneous batch (CR 603.10a)
        seen = game.books.look_back.pop(old.id, None)
        old.last_known, old.last_controller = seen or (game.chars(old), game.controller_of(old))
    _leave(game, old)
    controller = e.controller or (old.owner if dst is not Zone.STACK else old.controller)
    # a resolving copy of a permanent spell becomes a token (CR 707.10f)
    spell_copy = old.is_copy_spell and src is Zone.STACK
    assert e.new is not None
    old.moved_to = e.new
    new = _new_object(
        game, e,
        card=old.card,
        owner=old.owner,
        controller=controller if dst in (Zone.BATTLEFIELD, Zone.STACK) else old.owner,
        zone=dst,
        token=old.token or (spell_copy and dst is Zone.BATTLEFIELD),
        copiable=old.copiable if old.token else (
            (e.copiable if isinstance(e, p.Entered) else None)
            or (old.copiable if spell_copy else None)),
        is_copy_spell=spell_copy and dst is not Zone.BATTLEFIELD,
    )
    if e.linked_to is not None:  # "the exiled card" of a linked ability (CR 607.2a)
        source = state.objects[e.linked_to]
        source.linked = source.linked + (new.id,)
    if isinstance(e, p.Entered) and e.land_play and e.player is not None:
        state.players[e.player].lands_played += 1


def _set_up(game: RulesContext, e: p.SetUp) -> None:
    """Set-up puts a card or token straight into a zone, with the status it is given."""

    state = game.state
    assert e.card is not None and e.controller is not None and e.new is not None
    definition = game.card(e.card)
    obj = _new_object(game, e, card=definition, owner=e.owner or e.controller,
                      controller=e.controller, zone=Zone(e.destination),
                      token=e.token or definition.token)
    if obj.attached_to is not None:  # set up as it is: an Aura's control change is no event
        host = state.objects[obj.attached_to]
        host.control_seen = game.controller_of(host)


def _new_object(game: RulesContext, e: p.ZoneChanged | p.TokenCreated | p.SpellCopied,
                **made: Any) -> GameObject:
    """The one place an object is made (CR 400.7: a new object in its new zone): the event's
    new id, the next timestamp, the id counter past it, put where the event puts it."""
    state = game.state
    assert e.new is not None
    obj = GameObject(id=e.new, timestamp=state.new_timestamp(), **made)
    state.next_id = max(state.next_id, obj.id + 1)
    _arrive(game, obj, e)
    return obj


def _leave(game: RulesContext, obj: GameObject) -> None:
    state = game.state
    if obj.zone is Zone.LIBRARY:
        state.libraries[obj.owner].remove(obj.id)
    elif obj.zone is not Zone.NOWHERE:
        del state.zones[obj.zone][obj.id]
    if obj.zone is Zone.BATTLEFIELD:
        game.touched(obj, shape=True)
        state.attachments.pop(obj.id, None)
        for other_id, host in sorted(state.attachments.items()):
            if host == obj.id:
                game.touched(state.objects[other_id], shape=True)
    if obj.zone is Zone.STACK:
        state.stack[:] = [i for i in state.stack if not (i.kind == "spell" and i.source == obj.id)]
    obj.zone = Zone.NOWHERE if obj.zone is not Zone.NOWHERE else obj.zone


def _arrive(game: RulesContext, obj: GameObject,
            e: p.ZoneChanged | p.TokenCreated | p.SpellCopied) -> None:
    state = game.state
    state.objects[obj.id] = obj
    if obj.zone is Zone.LIBRARY:
        state.libraries.setdefault(obj.owner, [])
        if isinstance(e, p.SetUp) and e.position == "top":
            state.libraries[obj.owner].insert(0, obj.id)
        else:
            state.libraries[obj.owner].append(obj.id)
    elif obj.zone is not Zone.NOWHERE:
        state.zones[obj.zone][obj.id] = None
    game.touched(obj)
    if obj.zone is Zone.BATTLEFIELD:
        # a move onto the battlefield says how it enters: an `Entered` (or a token's creation)
        assert isinstance(e, p.Entered | p.TokenCreated), type(e).__name__
        obj.tapped = e.tapped
        obj.counters = {k: v for k, v in dict(e.counters).items() if v}
        obj.choices = dict(e.choices)
        obj.etb_x = e.etb_x
        obj.attached_to = e.attach_to if isinstance(e, p.Entered) else None
        if obj.attached_to is not None:
            state.attachments[obj.id] = obj.attached_to
        obj.attacking = e.attacking
        state.attacked = state.attacked or e.attacking  # put onto the battlefield attacking
        obj.sick = e.sick if isinstance(e, p.SetUp) and e.setup else True
        obj.control_seen = obj.controller
        game.touched(obj, shape=True)
    if obj.zone is Zone.STACK and isinstance(e, p.ToStack):
        obj.x = e.x
        obj.targets = tuple(e.targets)
        obj.cast_from = Zone(e.origin)


@commits(EventKind.TOKEN_CREATED)
def _token_created(game: RulesContext, e: p.TokenCreated) -> None:
    _new_object(game, e, card=game.card(e.card), owner=e.controller, controller=e.controller,
                zone=Zone.BATTLEFIELD, token=True, copiable=e.copiable)


@commits(EventKind.COUNTERS_PUT)
def _counters_put(game: RulesContext, e: p.CountersPut) -> None:
    obj = _obj(game, e.object)
    # a new dict, never changed in place: `state.JOURNALS` keeps the old one for a rollback
    obj.counters = {**obj.counters, e.counter: obj.counters.get(e.counter, 0) + e.n}
    game.touched(obj)


@commits(EventKind.COUNTERS_REMOVED)
def _counters_removed(game: RulesContext, e: p.CountersRemoved) -> None:
    obj = _obj(game, e.object)
    left = obj.counters.get(e.counter, 0) - e.n
    counters = {k: n for k, n in obj.counters.items() if k != e.counter}
    if left:
        counters = {**obj.counters, e.counter: left}
    obj.counters = counters  # a new dict (see `_counters_put`)
    game.touched(obj)


@commits(EventKind.DAMAGE)
def _damage(game: RulesContext, e: p.Damage) -> None:
    if isinstance(e.target, str):
        game.state.players[e.target].life -= e.amount
    else:
        obj = game.state.objects[e.target]
        obj.damage += e.amount
        game.touched(obj)


@commits(EventKind.LIFE_GAINED)
def _life_gained(game: RulesContext, e: p.LifeGained) -> None:
    game.state.players[e.player].life += e.amount


@commits(EventKind.LIFE_LOST)
def _life_lost(game: RulesContext, e: p.LifeLost) -> None:
    game.state.players[e.player].life -= e.amount


@commits(EventKind.ATTACHED)
def _attached(game: RulesContext, e: p.Attached) -> None:
    obj = _obj(game, e.object)
    obj.attached_to = e.to
    if e.to is None:
        game.state.attachments.pop(obj.id, None)
    else:
        game.state.attachments[obj.id] = e.to
    game.touched(obj, shape=True)


@commits(EventKind.EFFECT_BEGAN)
def _effect_began(game: RulesContext, e: p.EffectBegan) -> None:
    game.state.effects.append(e.effect)
    game.touched(None, shape=True)
    if e.crewed is not None:  # a Vehicle's crew ability resolved (CR 702.122)
        game.state.objects[e.crewed].crewed = True


@commits(EventKind.EFFECT_ENDED)
def _effect_ended(game: RulesContext, e: p.EffectEnded) -> None:
    game.state.effects[:] = [x for x in game.state.effects if x is not e.effect]
    game.touched(None, shape=True)


@commits(EventKind.CONTROL_CHANGED)
def _control_changed(game: RulesContext, e: p.ControlChanged) -> None:
    obj = _obj(game, e.object)
    obj.sick = True  # CR 302.6: not continuously controlled by the new controller
    obj.control_seen = e.player
    game.touched(obj, shape=True)


@commits(EventKind.ATTACKS)
def _attacks(game: RulesContext, e: p.Attacks) -> None:
    obj = _obj(game, e.object)
    obj.attacking = True
    obj.declared_attacker = e.declared
    game.state.attacked = True  # this combat has its blockers and damage steps (CR 508.8)


@commits(EventKind.BLOCKS)
def _blocks(game: RulesContext, e: p.Blocks) -> None:
    obj = _obj(game, e.object)
    obj.blocking = e.attacker
    game.state.objects[e.attacker].blocked = True  # CR 509.1h


def _push(game: RulesContext, item: StackItem) -> None:
    item.origin_event = game.log.next_id  # the event being committed
    game.state.stack.append(item)


@commits(EventKind.PUT_ON_STACK)
def _put_on_stack(game: RulesContext, e: p.PutOnStack) -> None:
    _push(game, e.item)


@commits(EventKind.ACTIVATED)
def _activated(game: RulesContext, e: p.Activated) -> None:
    if e.item is not None:
        _push(game, e.item)


@commits(EventKind.RESOLVED)
def _resolved(game: RulesContext, e: p.Resolved) -> None:
    stack = game.state.stack
    if not stack or stack[-1].id != e.item_id:
        raise AssertionError("only the top of the stack resolves")
    stack.pop()
    game.state.priority, game.state.passes = game.state.active, 0  # CR 117.3b


@commits(EventKind.COUNTERED)
def _countered(game: RulesContext, e: p.Countered) -> None:
    game.state.stack[:] = [i for i in game.state.stack if i.id != e.item_id]


@commits(EventKind.STEP_BEGAN)
def _step_began(game: RulesContext, e: p.StepBegan) -> None:
    state = game.state
    if state.step is Step.END_COMBAT:
        for obj in state.battlefield():  # removed from combat (CR 511.3)
            obj.attacking, obj.blocking, obj.declared_attacker = False, None, False
            obj.blocked = False
    if state.step is Step.END_COMBAT or e.step == Step.BEGIN_COMBAT.value:
        state.attacked = False  # a combat phase ends, or a new one begins
    state.step = Step(e.step)
    if state.step is Step.CLEANUP:
        for obj in state.battlefield():  # damage wears off (CR 514.2)
            obj.damage = 0
            obj.crewed = False  # "until end of turn" ends with it
    if e.extra_combat:
        state.extra_combats -= 1
    state.awaiting_attackers = state.step is Step.DECLARE_ATTACKERS
    state.awaiting_blockers = state.step is Step.DECLARE_BLOCKERS
    state.passes = 0
    state.priority = state.active


@commits(EventKind.TURN_BEGAN)
def _turn_began(game: RulesContext, e: p.TurnBegan) -> None:
    state = game.state
    state.turn = e.turn
    state.active = e.player
    for player in state.players.values():
        player.lands_played = 0
    for obj in state.battlefield() + state.phased_out():  # phasing changes no control (702.26d)
        if game.controller_of(obj) == state.active:
            obj.sick = False  # CR 302.6: controlled continuously since this turn began


@commits(EventKind.PRIORITY)
def _priority(game: RulesContext, e: p.Priority) -> None:
    state = game.state
    order = state.order
    if e.all:
        state.passes = len(order)
        return
    state.passes += 1
    state.priority = order[(order.index(e.player) + 1) % len(order)]


@commits(EventKind.LOST)
def _lost(game: RulesContext, e: p.Lost) -> None:
    game.state.players[e.player].lost = True


@commits(EventKind.FIZZLED)
def _fizzled(game: RulesContext, e: p.Fizzled) -> None:
    game.state.stack[:] = [i for i in game.state.stack if i.id != e.item_id]
    game.state.priority, game.state.passes = game.state.active, 0  # CR 117.3b


@commits(EventKind.ACTION)
def _action(game: RulesContext, e: p.Action) -> None:
    if e.player and e.keeps_priority:
        game.state.priority, game.state.passes = e.player, 0  # CR 117.3c
    if isinstance(e, p.Passing) and e.all_pass:
        game.state.passes = len(game.state.players)  # everyone passed in succession


@commits(EventKind.DECLARED)
def _declared(game: RulesContext, e: p.Declared) -> None:
    """Attackers or blockers were declared: the step stops waiting for them, and after this
    turn-based action (CR 508.1, 509.1) the active player gets priority, whoever declared
    (CR 117.3a)."""
    state = game.state
    if e.declared == "attackers":
        state.awaiting_attackers = False
    elif e.declared == "blockers":
        state.awaiting_blockers = False
    state.priority, state.passes = state.active, 0


def record_only(game: RulesContext, e: p.Payload) -> None:
    """Events that change nothing by themselves (the moves they cause are their children)."""


@commits(EventKind.CAST)
def _cast(game: RulesContext, e: p.Cast) -> None:
    """The card moves to the stack and becomes a spell (CR 601.2a)."""
    _zone_changed(game, p.ToStack(
        object=e.object, origin=e.origin, destination=Zone.STACK, controller=e.player,
        new=e.new, x=e.x, targets=e.targets))
    assert e.new is not None
    spell = game.state.objects[e.new]
    _push(game, StackItem(id=e.item_id, kind="spell", controller=e.player,
                          source=spell.id, source_name=spell.card.name, text=spell.card.name,
                          targets=tuple(e.targets), x=e.x))


@commits(EventKind.DELAYED_CREATED)
def _delayed_created(game: RulesContext, e: p.DelayedCreated) -> None:
    """A delayed triggered ability now waits for its moment (CR 603.7a)."""
    game.state.delayed.append(e.delayed)


@commits(EventKind.EXTRA_COMBAT)
def _extra_combat(game: RulesContext, e: p.ExtraCombat) -> None:
    game.state.extra_combats += 1  # begins after this combat phase (CR 500.8)


@commits(EventKind.SPELL_COPIED)
def _spell_copied(game: RulesContext, e: p.SpellCopied) -> None:
    """A copy of a spell goes on the stack; it wasn't cast (CR 707.10)."""
    state = game.state
    original = _obj(game, e.object)
    assert e.copiable is not None
    copy = _new_object(game, e, card=original.card, owner=e.controller, controller=e.controller,
                       zone=Zone.STACK, copiable=e.copiable, is_copy_spell=True)
    copy.x = e.x
    copy.targets = tuple(e.targets)
    state.stack.append(StackItem(id=e.item_id, kind="spell", controller=copy.controller,
                                 source=copy.id, source_name=e.copiable.name,
                                 text=f"Copy of {e.copiable.name}",
                                 targets=copy.targets, x=copy.x))


for _kind in (
    EventKind.TARGETED,
    EventKind.NOTE,
    EventKind.MANA_ABILITY,
    EventKind.TRIGGERED,
    EventKind.COST_PAID,
    EventKind.CHOICE,
    EventKind.SBA,
    EventKind.DREW,
):
    COMMITS[_kind] = record_only


def check_complete(commits: dict[EventKind, Commit] | None = None) -> None:
    """Every event kind has its commit, or is declared record-only above: checked as this
    module is imported, so a new kind without one stops the engine from loading, rather than
    failing the first time such an event is emitted."""
    found = COMMITS if commits is None else commits
    missing = [k.value for k in EventKind if k not in found]
    if missing:
        raise AssertionError(f"event kinds without a commit (or record_only): {missing}")


check_complete()
