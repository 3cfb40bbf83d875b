"""Committing events: the only place the game state changes.

Each function takes the game and the (final, post-replacement) data of one event, changes the
state, and returns the event's plain-words text. Because nothing else mutates the state, an
action that logged no event changed nothing, and replaying a game's actions rebuilds it exactly.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rulekit.events import EventKind
from rulekit.mana import pool_text, spent_text
from rulekit.state import GameObject, StackItem, Step, Zone

if TYPE_CHECKING:
    from rulekit.game import Game

Data = dict[str, Any]
Commit = Callable[["Game", Data], str]
COMMITS: dict[EventKind, Commit] = {}


def commits(kind: EventKind) -> Callable[[Commit], Commit]:
    def register(fn: Commit) -> Commit:
        COMMITS[kind] = fn
        return fn

    return register


def _obj(game: Game, data: Data, key: str = "object") -> GameObject:
    return game.state.objects[data[key]]



def _text(data: Data) -> str:
    """The event's words, given by whoever proposed it."""
    return str(data["text"])


@commits(EventKind.TAPPED)
def _tap(game: Game, data: Data) -> str:
    obj = _obj(game, data)
    obj.tapped = True
    return f"{game.describe(obj)} becomes tapped"


@commits(EventKind.UNTAPPED)
def _untap(game: Game, data: Data) -> str:
    obj = _obj(game, data)
    obj.tapped = False
    if data.get("clears_exert"):
        _end_exert(obj, data)
    return f"{game.describe(obj)} becomes untapped"


@commits(EventKind.UNTAP_SKIPPED)
def _untap_skipped(game: Game, data: Data) -> str:
    obj = _obj(game, data)
    if data.get("clears_exert"):
        _end_exert(obj, data)
    if data.get("expired"):
        return f"{game.describe(obj)} is already untapped: exert's effect ends having done nothing"
    return f"{game.describe(obj)} doesn't untap ({data['reason']})"


def _end_exert(obj: GameObject, data: Data) -> None:
    """The exert effect of player `exert_of` ends (its untap step came); the others wait."""
    who = data.get("exert_of")
    obj.skip_untap_for = tuple(p for p in obj.skip_untap_for if who is not None and p != who)


@commits(EventKind.EXERTED)
def _exert(game: Game, data: Data) -> str:
    obj = _obj(game, data)
    if data["player"] not in obj.skip_untap_for:
        obj.skip_untap_for += (data["player"],)
    obj.exerted_by = data["player"]
    obj.exerted_turn = game.state.turn
    return f"{data['player']} exerts {game.describe(obj)}: it won't untap during their next untap step"


@commits(EventKind.MANA_ADDED)
def _mana_added(game: Game, data: Data) -> str:
    player = game.state.players[data["player"]]
    player.pool.add(data["mana"])
    what = pool_text(data["mana"])
    return f"{player.name} adds {what} from {data['source_name']}"


@commits(EventKind.MANA_SPENT)
def _mana_spent(game: Game, data: Data) -> str:
    player = game.state.players[data["player"]]
    player.pool.spend(data["mana"])
    if data.get("uncounterable") is not None:  # Cavern of Souls' rider (CR 106.6)
        game.state.objects[data["uncounterable"]].uncounterable = True
        return (f"{player.name} spends {spent_text(data['mana'])} on {data['purpose']}: that "
                "spell can't be countered")
    return f"{player.name} spends {spent_text(data['mana'])} on {data['purpose']}"


@commits(EventKind.MANA_EMPTIED)
def _mana_emptied(game: Game, data: Data) -> str:
    player = game.state.players[data["player"]]
    lost = spent_text(player.pool.clear())
    return f"{player.name}'s unspent mana {lost} empties from their pool"


@commits(EventKind.ZONE_CHANGED)
def _zone_changed(game: Game, data: Data) -> str:
    state = game.state
    if data["from"] == Zone.NOWHERE.value and "card" in data:
        return _set_up(game, data)
    old = _obj(game, data)
    src, dst = Zone(data["from"]), Zone(data["to"])
    if old.zone is not src:
        raise AssertionError(f"{old.card.name} is not in the {src.value}")
    if src is Zone.BATTLEFIELD:
        # as it last existed: before the whole simultaneous batch (CR 603.10a)
        seen = game._look_back.pop(old.id, None)
        old.last_known, old.last_controller = seen or (game.chars(old), game.controller_of(old))
    _leave(game, old)
    controller = data.get("controller") or (old.owner if dst is not Zone.STACK else old.controller)
    # a resolving copy of a permanent spell becomes a token (CR 707.10f)
    spell_copy = old.is_copy_spell and src is Zone.STACK
    new = GameObject(
        id=data["new"],
        card=old.card,
        owner=old.owner,
        controller=controller if dst in (Zone.BATTLEFIELD, Zone.STACK) else old.owner,
        zone=dst,
        token=old.token or (spell_copy and dst is Zone.BATTLEFIELD),
        timestamp=state.new_timestamp(),
        copiable=old.copiable if old.token else (
            data.get("copiable") or (old.copiable if spell_copy else None)),
        is_copy_spell=spell_copy and dst is not Zone.BATTLEFIELD,
    )
    state.next_id = max(state.next_id, new.id + 1)
    old.moved_to = new.id
    _arrive(game, new, data)
    if data.get("linked_to") is not None:  # "the exiled card" of a linked ability (CR 607.2a)
        source = state.objects[data["linked_to"]]
        source.linked = source.linked + (new.id,)
    if data.get("land_play"):
        state.players[data["player"]].lands_played += 1
    if data.get("pay_life"):
        state.players[new.controller].life -= int(data["pay_life"])
    return data.get("text") or f"{game.describe(old)} moves from {src.value} to {dst.value} (now #{new.id})"


def _set_up(game: Game, data: Data) -> str:
    """Set-up puts a card or token straight into a zone, with the status it is given."""
    from rulekit.cards import card

    state = game.state
    definition = card(data["card"])
    obj = GameObject(
        id=data["new"],
        card=definition,
        owner=data.get("owner") or data["controller"],
        controller=data["controller"],
        zone=Zone(data["to"]),
        token=bool(data.get("token")) or definition.token,
        timestamp=state.new_timestamp(),
    )
    state.next_id = max(state.next_id, obj.id + 1)
    _arrive(game, obj, data)
    if obj.attached_to is not None:  # set up as it is: an Aura's control change is no event
        host = state.objects[obj.attached_to]
        host.control_seen = game.controller_of(host)
    where = "onto the battlefield" if obj.zone is Zone.BATTLEFIELD else f"into the {obj.zone.value}"
    extra = " tapped" if obj.tapped else ""
    return f"Set-up: {definition.name} (#{obj.id}) is put {where}{extra} under {obj.controller}'s control" if obj.zone is Zone.BATTLEFIELD else f"Set-up: {definition.name} (#{obj.id}) is put {where} ({obj.owner})"


def _leave(game: Game, obj: GameObject) -> None:
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


def _arrive(game: Game, obj: GameObject, data: Data) -> None:
    state = game.state
    state.objects[obj.id] = obj
    if obj.zone is Zone.LIBRARY:
        state.libraries.setdefault(obj.owner, [])
        if data.get("position") == "top":
            state.libraries[obj.owner].insert(0, obj.id)
        else:
            state.libraries[obj.owner].append(obj.id)
    elif obj.zone is not Zone.NOWHERE:
        state.zones[obj.zone][obj.id] = None
    game.touched(obj)
    if obj.zone is Zone.BATTLEFIELD:
        obj.tapped = bool(data.get("tapped", False))
        obj.counters = {k: v for k, v in dict(data.get("counters") or {}).items() if v}
        obj.choices = dict(data.get("choices") or {})
        obj.etb_x = data.get("etb_x")
        obj.attached_to = data.get("attach_to")
        if obj.attached_to is not None:
            state.attachments[obj.id] = obj.attached_to
        obj.attacking = bool(data.get("attacking", False))
        obj.sick = bool(data.get("sick", True))
        obj.control_seen = obj.controller
        game.touched(obj, shape=True)
    if obj.zone is Zone.STACK:
        obj.x = int(data.get("x") or 0)
        obj.targets = tuple(data.get("targets") or ())
        obj.cast_from = Zone(data["from"]) if data.get("from") else None


@commits(EventKind.TOKEN_CREATED)
def _token_created(game: Game, data: Data) -> str:
    from rulekit.cards import card

    state = game.state
    definition = card(data["card"])
    obj = GameObject(
        id=data["new"],
        card=definition,
        owner=data["controller"],
        controller=data["controller"],
        zone=Zone.BATTLEFIELD,
        token=True,
        timestamp=state.new_timestamp(),
        copiable=data.get("copiable"),
    )
    state.next_id = max(state.next_id, obj.id + 1)
    _arrive(game, obj, data)
    how = [w for w in ("tapped", "attacking") if data.get(w)]
    how_text = f" {' and '.join(how)}" if how else ""
    what = game.chars(obj).name
    copy = f", a copy of {data['copy_text']}" if data.get("copy_text") else ""
    return f"{data['controller']} creates a{how_text} {what} token (#{obj.id}){copy}"


@commits(EventKind.COUNTERS_PUT)
def _counters_put(game: Game, data: Data) -> str:
    obj = _obj(game, data)
    obj.counters[data["counter"]] = obj.counters.get(data["counter"], 0) + data["n"]
    game.touched(obj)
    return f"{data['n']} {data['counter']} counter(s) put on {game.describe(obj)}"


@commits(EventKind.COUNTERS_REMOVED)
def _counters_removed(game: Game, data: Data) -> str:
    obj = _obj(game, data)
    left = obj.counters.get(data["counter"], 0) - data["n"]
    if left:
        obj.counters[data["counter"]] = left
    else:
        obj.counters.pop(data["counter"], None)
    game.touched(obj)
    return f"{data['n']} {data['counter']} counter(s) removed from {game.describe(obj)}"


@commits(EventKind.DAMAGE)
def _damage(game: Game, data: Data) -> str:
    target = data["target"]
    if isinstance(target, str):
        game.state.players[target].life -= data["amount"]
        name = target
    else:
        obj = game.state.objects[target]
        obj.damage += data["amount"]
        game.touched(obj)
        name = game.describe(obj)
    return f"{data['source_name']} deals {data['amount']} damage to {name}"


@commits(EventKind.LIFE_GAINED)
def _life_gained(game: Game, data: Data) -> str:
    game.state.players[data["player"]].life += data["amount"]
    return f"{data['player']} gains {data['amount']} life"


@commits(EventKind.LIFE_LOST)
def _life_lost(game: Game, data: Data) -> str:
    game.state.players[data["player"]].life -= data["amount"]
    return f"{data['player']} loses {data['amount']} life"


@commits(EventKind.ATTACHED)
def _attached(game: Game, data: Data) -> str:
    obj = _obj(game, data)
    obj.attached_to = data["to"]
    if data["to"] is None:
        game.state.attachments.pop(obj.id, None)
    else:
        game.state.attachments[obj.id] = data["to"]
    game.touched(obj, shape=True)
    to = game.describe(game.state.objects[data["to"]]) if data["to"] else "nothing"
    return f"{game.describe(obj)} becomes attached to {to}"


@commits(EventKind.EFFECT_BEGAN)
def _effect_began(game: Game, data: Data) -> str:
    game.state.effects.append(data["effect"])
    game.touched(None, shape=True)
    if data.get("crewed") is not None:  # a Vehicle's crew ability resolved (CR 702.122)
        game.state.objects[data["crewed"]].crewed = True
    return f"Effect begins: {data['effect'].text}"


@commits(EventKind.EFFECT_ENDED)
def _effect_ended(game: Game, data: Data) -> str:
    effect = data["effect"]
    game.state.effects[:] = [e for e in game.state.effects if e is not effect]
    game.touched(None, shape=True)
    return f"Effect ends: {effect.text}"


@commits(EventKind.CONTROL_CHANGED)
def _control_changed(game: Game, data: Data) -> str:
    obj = _obj(game, data)
    obj.sick = True  # CR 302.6: not continuously controlled by the new controller
    obj.control_seen = data["player"]
    game.touched(obj, shape=True)
    return f"{data['player']} now controls {game.describe(obj)}"


@commits(EventKind.ATTACKS)
def _attacks(game: Game, data: Data) -> str:
    obj = _obj(game, data)
    obj.attacking = True
    obj.declared_attacker = bool(data.get("declared", True))
    return f"{game.describe(obj)} attacks {data['defender']}"


@commits(EventKind.BLOCKS)
def _blocks(game: Game, data: Data) -> str:
    obj = _obj(game, data)
    obj.blocking = data["attacker"]
    game.state.objects[data["attacker"]].blocked = True  # CR 509.1h
    return f"{game.describe(obj)} blocks {game.describe(game.state.objects[data['attacker']])}"


@commits(EventKind.PUT_ON_STACK)
def _put_on_stack(game: Game, data: Data) -> str:
    item: StackItem = data["item"]
    item.origin_event = game.log.next_id  # the event being committed
    game.state.stack.append(item)
    return data.get("text") or f"{item.text} goes on the stack"


@commits(EventKind.ACTIVATED)
def _activated(game: Game, data: Data) -> str:
    item = data.get("item")
    if item is not None:
        item.origin_event = game.log.next_id  # the event being committed
        game.state.stack.append(item)
    return _text(data)


@commits(EventKind.RESOLVED)
def _resolved(game: Game, data: Data) -> str:
    stack = game.state.stack
    if not stack or stack[-1].id != data["item_id"]:
        raise AssertionError("only the top of the stack resolves")
    stack.pop()
    game.state.priority, game.state.passes = game.state.active, 0  # CR 117.3b
    return _text(data)


@commits(EventKind.COUNTERED)
def _countered(game: Game, data: Data) -> str:
    game.state.stack[:] = [i for i in game.state.stack if i.id != data["item_id"]]
    return _text(data)


@commits(EventKind.STEP_BEGAN)
def _step_began(game: Game, data: Data) -> str:
    state = game.state
    if state.step is Step.END_COMBAT:
        for obj in state.battlefield():  # removed from combat (CR 511.3)
            obj.attacking, obj.blocking, obj.declared_attacker = False, None, False
            obj.blocked = False
    state.step = Step(data["step"])
    if state.step is Step.CLEANUP:
        for obj in state.battlefield():  # damage wears off (CR 514.2)
            obj.damage = 0
            obj.crewed = False  # "until end of turn" ends with it
    if data.get("extra_combat"):
        state.extra_combats -= 1
    state.awaiting_attackers = state.step is Step.DECLARE_ATTACKERS
    state.awaiting_blockers = state.step is Step.DECLARE_BLOCKERS
    state.passes = 0
    state.priority = state.active
    return f"{state.active}'s {state.step.label} begins (turn {state.turn})"


@commits(EventKind.TURN_BEGAN)
def _turn_began(game: Game, data: Data) -> str:
    state = game.state
    state.turn = data["turn"]
    state.active = data["player"]
    for player in state.players.values():
        player.lands_played = 0
    for obj in state.battlefield():
        if game.controller_of(obj) == state.active:
            obj.sick = False  # CR 302.6: controlled continuously since this turn began
    return f"Turn {state.turn} begins: {state.active} is the active player"


@commits(EventKind.PRIORITY)
def _priority(game: Game, data: Data) -> str:
    state = game.state
    order = state.order
    if data.get("all"):
        state.passes = len(order)
        return f"All players pass priority in turn ({', '.join(data['all'])})"
    state.passes += 1
    state.priority = order[(order.index(data["player"]) + 1) % len(order)]
    return f"{data['player']} passes priority"


@commits(EventKind.LOST)
def _lost(game: Game, data: Data) -> str:
    game.state.players[data["player"]].lost = True
    return f"{data['player']} loses the game ({data['reason']})"


@commits(EventKind.FIZZLED)
def _fizzled(game: Game, data: Data) -> str:
    game.state.stack[:] = [i for i in game.state.stack if i.id != data["item_id"]]
    game.state.priority, game.state.passes = game.state.active, 0  # CR 117.3b
    return _text(data)


@commits(EventKind.ACTION)
def _action(game: Game, data: Data) -> str:
    player = data.get("player")
    if player and data.get("keeps_priority", True):
        game.state.priority, game.state.passes = player, 0  # CR 117.3c
    if data.get("all_pass"):
        game.state.passes = len(game.state.players)  # everyone passed in succession
    return _text(data)


@commits(EventKind.DECLARED)
def _declared(game: Game, data: Data) -> str:
    """Attackers or blockers were declared: the step stops waiting for them."""
    if data.get("declared") == "attackers":
        game.state.awaiting_attackers = False
    elif data.get("declared") == "blockers":
        game.state.awaiting_blockers = False
    return _text(data)


def record_only(game: Game, data: Data) -> str:
    """Events that change nothing by themselves (the moves they cause are their children)."""
    return _text(data)


@commits(EventKind.CAST)
def _cast(game: Game, data: Data) -> str:
    """The card moves to the stack and becomes a spell (CR 601.2a)."""
    _zone_changed(game, {**data, "to": Zone.STACK.value, "controller": data["player"]})
    spell = game.state.objects[data["new"]]
    item = StackItem(id=data["item_id"], kind="spell", controller=data["player"],
                     source=spell.id, source_name=spell.card.name, text=spell.card.name,
                     targets=tuple(data.get("targets") or ()), x=int(data.get("x") or 0))
    item.origin_event = game.log.next_id
    game.state.stack.append(item)
    return _text(data)


@commits(EventKind.DELAYED_CREATED)
def _delayed_created(game: Game, data: Data) -> str:
    """A delayed triggered ability now waits for its moment (CR 603.7a)."""
    game.state.delayed.append(data["delayed"])
    return _text(data)


@commits(EventKind.EXTRA_COMBAT)
def _extra_combat(game: Game, data: Data) -> str:
    game.state.extra_combats += 1  # begins after this combat phase (CR 500.8)
    return _text(data)


@commits(EventKind.SPELL_COPIED)
def _spell_copied(game: Game, data: Data) -> str:
    """A copy of a spell goes on the stack; it wasn't cast (CR 707.10)."""
    state = game.state
    original = _obj(game, data)
    copy = GameObject(
        id=data["new"], card=original.card, owner=data["controller"],
        controller=data["controller"], zone=Zone.STACK, timestamp=state.new_timestamp(),
        copiable=data["copiable"], is_copy_spell=True)
    state.next_id = max(state.next_id, copy.id + 1)
    state.objects[copy.id] = copy
    state.zones[Zone.STACK][copy.id] = None
    copy.x = int(data.get("x") or 0)
    copy.targets = tuple(data.get("targets") or ())
    state.stack.append(StackItem(id=data["item_id"], kind="spell", controller=copy.controller,
                                 source=copy.id, source_name=copy.copiable.name,  # type: ignore[union-attr]
                                 text=f"Copy of {copy.copiable.name}",  # type: ignore[union-attr]
                                 targets=copy.targets, x=copy.x))
    return _text(data)


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
