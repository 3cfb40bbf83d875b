"""Triggered abilities: noticing them (CR 603.2), look-back (603.10a), putting them on the stack
in APNAP order (603.3b) after state-based actions (704.3), and triggered mana abilities, which
resolve at once without the stack (605.1b, 605.4a)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mtg_rulekit.core import payloads as p
from mtg_rulekit.core.errors import RulesError
from mtg_rulekit.core.events import Cause, Event, EventKind
from mtg_rulekit.engine.control import detect_control_changes
from mtg_rulekit.engine.delayed import fire
from mtg_rulekit.engine.sba import check_sbas
from mtg_rulekit.engine.targets import announce, choose_targets
from mtg_rulekit.objects.abilities import triggered
from mtg_rulekit.objects.narrator import item_name, named_short
from mtg_rulekit.objects.resolution import Resolution
from mtg_rulekit.objects.state import PendingTrigger, StackItem, Zone

if TYPE_CHECKING:
    from mtg_rulekit.objects.context import RulesContext
    from mtg_rulekit.objects.listeners import ListenerIndex


def collect(game: RulesContext, event: Event, before: ListenerIndex,
            after: ListenerIndex) -> None:
    """Find the abilities this event triggers and remember them as pending."""
    if event.kind is EventKind.STEP_BEGAN and game.state.delayed:
        fire(game, event)
    d = event.payload
    leaving = isinstance(d, p.ZoneChanged) and d.origin == Zone.BATTLEFIELD
    new = d.new if isinstance(d, (p.ZoneChanged, p.TokenCreated)) else None
    seen: set[tuple[int, int]] = set()
    for index, look_back in ((before, True), (after, False)):
        for source, ability in index.triggers.get(event.kind, ()):
            if ability.look_back != look_back and leaving:
                continue
            if not leaving and look_back:
                continue  # non-leaving events: abilities of what is there after the event
            key = (source.id, id(ability))
            if key in seen:
                continue
            seen.add(key)
            if ability.self_only and source.id not in (event.subject, new, p.object_of(d)):
                continue
            bound = ability.match(game, event, source) if ability.match else {}
            if bound is None:
                continue
            if ability.condition is not None and not ability.condition(game, source):
                continue  # intervening "if" false as the event happens: no trigger (CR 603.4)
            controller = game.controller_of(source)
            pending = PendingTrigger(source.id, game.chars(source).name, controller, ability,
                                     event.id, dict(bound))
            if ability.mana:
                game.books.pending_mana.append(pending)
            elif getattr(ability, "immediate", False):
                game.books.immediate.append(pending)
            else:
                game.queue_trigger(pending)


def resolve_mana_triggers(game: RulesContext) -> None:
    """Triggered mana abilities resolve right after the mana ability that triggered them."""

    while game.books.pending_mana:
        trig = game.books.pending_mana.pop(0)
        ability = triggered(trig.ability)
        ev = game.note(p.Triggered(source_name=trig.source_name, ability=ability.text),
                       cause=Cause.TRIGGER, parent=trig.event, rules=("605.1b", "605.4a"),
                       subject=trig.source)
        res = Resolution(game, trig.source, trig.controller, ev.id, bound=trig.bound,
                         ability=ability)
        if ability.effect:
            ability.effect(res)


def settle(game: RulesContext, parent: int | None) -> None:
    """Before a player gets priority: state-based actions until none apply, then waiting
    triggers onto the stack, APNAP (CR 117.5, 704.3, 603.3b); repeat until stable."""

    while True:
        while check_sbas(game, parent) or detect_control_changes(game, parent):
            pass
        pending = game.take_triggers()
        if not pending:
            return
        for player in game.state.apnap():
            mine = [t for t in pending if t.controller == player]
            while mine:  # the player orders their own triggers (CR 603.3b)
                put_on_stack(game, mine.pop(_next_trigger(game, player, mine)))


def _next_trigger(game: RulesContext, player: str, mine: list[PendingTrigger]) -> int:
    """Which of `player`'s waiting triggers goes on the stack next (decision `trigger_order`,
    by source id or name); by default the one that triggered first, so it resolves last."""
    if len(mine) == 1:
        return 0

    wanted = game.decide("trigger_order", mine[0].source, player)
    for i, trig in enumerate(mine):
        if str(wanted).lstrip("#") in (str(trig.source), trig.source_name):
            return i
    names = ", ".join(f"{t.source_name} (#{t.source})" for t in mine)
    raise RulesError(f"{wanted} is not the source of one of {player}'s waiting triggered "
                     f"abilities ({names})", rule="603.3b")


def put_on_stack(game: RulesContext, trig: PendingTrigger) -> None:
    ability = triggered(trig.ability)
    targets: tuple[int | str, ...] = ()
    if ability.target is not None:
        targets = choose_targets(game, trig.source, trig.controller, ability.target)
        if not targets:
            game.note(p.Triggered(source_name=trig.source_name, ability=ability.text,
                                  removed=True),
                      cause=Cause.RULE, parent=trig.event, rules=("603.3d",), subject=trig.source)
            return
    item = StackItem(
        id=game.new_id(), kind="ability", controller=trig.controller, source=trig.source,
        source_name=trig.source_name, text=f"{trig.source_name}: {ability.text}", ability=ability,
        targets=targets, trigger_event=trig.event, bound=dict(trig.bound),
    )
    tgt = ", ".join(game.target_text(t) for t in targets)
    put = game.emit(p.PutOnStack(item=item, item_id=item.id, source_name=trig.source_name,
                                 ability=ability.text, ability_kind=ability.family,
                                 targets=tgt,
                                 for_what=_triggered_for(game, trig)),
                    cause=Cause.TRIGGER, parent=trig.event, rules=("603.3",), subject=trig.source)
    if targets and put is not None:
        announce(game, item.id, trig.controller, item_name(item), targets, put.id)


def _triggered_for(game: RulesContext, trig: PendingTrigger) -> str:
    """For a trigger named short, the object whose zone change it triggered on, described
    ("Memnite (#3)", or "itself"), so that several of its triggers can be told apart; else
    ""."""
    if trig.event is None or not named_short(trig.ability.text, trig.ability.family):
        return ""
    cause = game.log[trig.event].payload
    if isinstance(cause, p.ZoneChanged) and cause.object is not None:
        return "itself" if cause.object == trig.source else game.describe(cause.object)
    return ""


def run_immediate(game: RulesContext) -> None:
    """One-shot effects that happen right after their event, without the stack: an object
    exiled "until" something leaves the battlefield comes back (CR 610.3, 610.3c)."""

    while game.books.immediate:
        trig = game.books.immediate.pop(0)
        ability = triggered(trig.ability)
        if ability.effect:
            ability.effect(Resolution(game, trig.source, trig.controller, trig.event,
                                      bound=trig.bound, ability=ability))
