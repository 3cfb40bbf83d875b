"""The `Game`: state + causal log + one event pipeline, with atomic, replayable actions.

Every change goes through `Game.emit`: propose an event, let replacement effects change it
(CR 614, 616), commit it (`mtg_rulekit.engine.commit`), log it with its cause, and collect what it triggered
(CR 603.2). Player actions (`mtg_rulekit.engine.actions`) validate first; if one still fails part-way, the
game is rebuilt by replaying the earlier actions, so a refused action never leaves a trace.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, nullcontext
from typing import Any

from mtg_rulekit.cards import CardDef, card
from mtg_rulekit.core.characteristics import Characteristics
from mtg_rulekit.core.decisions import (
    LARGEST,
    LONGEST_NAME,
    Decision,
    bounded_int,
    bounded_text,
    show_number,
    shown,
)
from mtg_rulekit.core.errors import RulesError, UsageError
from mtg_rulekit.core.events import Applied, Cause, Event, EventKind, EventLog
from mtg_rulekit.core.interrupts import interrupts_held
from mtg_rulekit.core.mana import ManaPool, ManaType
from mtg_rulekit.core.payloads import Cast, Entered, LifeLost, Payload, TokenCreated, ZoneChanged
from mtg_rulekit.engine import actions as _actions
from mtg_rulekit.engine import turn as _turn
from mtg_rulekit.engine.arguments import check_call
from mtg_rulekit.engine.commit import COMMITS
from mtg_rulekit.engine.could_produce import could_produce_all
from mtg_rulekit.engine.keywords import leaving_stack_replacements
from mtg_rulekit.engine.offers import Offer, player_offers
from mtg_rulekit.engine.targets import target_text
from mtg_rulekit.engine.triggers import collect, run_immediate, settle
from mtg_rulekit.objects.abilities import Static, Triggered
from mtg_rulekit.objects.context import Bookkeeping
from mtg_rulekit.objects.effects import Layer, compute, lasting
from mtg_rulekit.objects.listeners import ListenerIndex
from mtg_rulekit.objects.narrator import narrate, prevented
from mtg_rulekit.objects.replacement import ReplacementEffect, default_order, run_replacements
from mtg_rulekit.objects.state import (
    JOURNALS,
    OBJECT_FIELDS,
    DelayedTrigger,
    GameObject,
    GameState,
    PendingTrigger,
    Player,
    StackItem,
    Step,
    Zone,
)

_CONTROL = Layer.CONTROL  # read once (hot: every controller_of)
_ZONE_NAMES = tuple(z.value for z in Zone if z is not Zone.NOWHERE)


class Game:
    """A game of Magic as the kit models it. Start with `Game(["Alice", "Bob"])`, set up the
    board with `add`, then play with the action methods (`tap_for_mana`, `cast`, ...)."""

    def __init__(self, players: Iterable[str] = ("Alice", "Bob"), *, life: int = 20) -> None:
        names = _player_names(players)
        life = _starting_life(life)
        self._init_args = (tuple(names), life)
        self.state = GameState(players={n: Player(n, life) for n in names})
        self.state.active = self.state.priority = names[0]
        self.log = EventLog()
        self.actions: list[tuple[str, dict[str, Any]]] = []
        self._action_no = 0
        self._root: int | None = None
        self._decisions: dict[str, list[Any]] = {}
        self.current_action = ""  # the name of the action being performed (its root event says so)
        self.decisions: list[Decision] = []  # every choice made, with who made it
        self._index = ListenerIndex()
        self.books = Bookkeeping()  # the pipeline's memory between events
        self._cp_cache: tuple[int, dict[int, frozenset[ManaType]]] | None = None
        self._trial: _Checkpoint | None = None  # set while `what_if` tries actions

    # ------------------------------------------------------------------ views
    def chars(self, obj: GameObject | int) -> Characteristics:
        """An object's characteristics now, after every layer (CR 613); as it last existed if
        it has left its zone (CR 603.10, 608.2h)."""
        obj = self._get(obj)
        if obj.last_known is not None and obj.moved_to is not None:
            return obj.last_known
        base = obj.copiable or obj.card.printed
        if obj.zone is not Zone.BATTLEFIELD:
            return base
        effects = self._fresh_index().effects
        if not effects and not obj.counters and "Land" not in base.types:
            return base
        return compute(self, obj, base, effects)

    def mana_value(self, obj: GameObject | int) -> int:
        """Its mana value now (CR 202.3): X counts as the chosen number while it is a spell on
        the stack, as 0 anywhere else (202.3e)."""
        obj = self._get(obj)
        return self.chars(obj).mana_value(obj.x if obj.zone is Zone.STACK else 0)

    def controller_of(self, obj: GameObject | int) -> str:
        """Who controls it now, after control-changing effects (layer 2, CR 613.1b)."""
        obj = self._get(obj)
        if obj.moved_to is not None and obj.last_controller is not None:
            return obj.last_controller
        controller = obj.controller
        if obj.zone is Zone.BATTLEFIELD:
            for effect in self._fresh_index().effects:
                if effect.layer is _CONTROL and effect.applies_to(self, obj, obj.card.printed):
                    controller = effect.controller or controller
        return controller

    def describe(self, obj: GameObject | int) -> str:
        obj = self._get(obj)
        name = self.chars(obj).name
        return f"{name} (#{obj.id})"

    def card(self, name: str) -> CardDef:
        """The catalog's card called `name` (any case): the rules reach the cards only through
        here, as XMage's rules reach its card repository. A name that is not text is a
        `UsageError`; an unknown one an `UnknownCard`, which is both a `UsageError` and a
        `LookupError`, naming the nearest cards ("did you mean")."""
        return card(name)

    def mana_while_paying(self, player: str, parent: int) -> None:
        """The mana abilities the caller named (decision `mana_abilities`) activated while
        `player` pays a cost mid-resolution (CR 605.3a), under event `parent`."""
        _actions.activate_while_paying(self, player, parent)

    # -- the only places the id counter and the waiting triggers change (`tests/test_tiers.py`)
    def new_id(self) -> int:
        """A fresh object or stack-item id (CR 400.7: a new object); ids never repeat."""
        return self.state.new_id()

    def queue_trigger(self, trigger: PendingTrigger, *,
                      fired: DelayedTrigger | None = None) -> None:
        """A triggered ability waits to be put on the stack the next time a player would
        receive priority (CR 603.3); a delayed trigger that `fired` triggers only once (603.7b)."""
        if fired is not None:
            self.state.delayed.remove(fired)
        self.state.pending.append(trigger)

    def take_triggers(self) -> list[PendingTrigger]:
        """The waiting triggers, in the order they triggered, now leaving the queue to be put on
        the stack (CR 603.3b)."""
        pending = self.state.pending
        if pending:
            self.state.pending = []
        return pending

    def find(self, name: str, *, zone: Zone | str | None = Zone.BATTLEFIELD,
             controller: str | None = None) -> GameObject:
        """The first object (lowest id) with this name in a zone; RulesError if none."""
        found = self.find_all(name, zone=zone, controller=controller)
        if not found:
            where = (" on the battlefield" if Zone(zone) is Zone.BATTLEFIELD else
                     f" in the {Zone(zone).value}") if zone else ""
            raise RulesError(f"there is no {name}{where}")
        return found[0]

    def find_all(self, name: str, *, zone: Zone | str | None = Zone.BATTLEFIELD,
                 controller: str | None = None) -> list[GameObject]:
        if not isinstance(name, str):
            raise UsageError("name", f"expected a card name, got {shown(name)}")
        self._check_controller(controller)
        if zone and not (isinstance(zone, str) and zone in _ZONE_NAMES):
            raise UsageError("zone", f"{shown(zone)} is not a zone; zones are: "
                                     f"{', '.join(_ZONE_NAMES)}")
        zones = [Zone(zone)] if zone else [z for z in Zone if z is not Zone.NOWHERE]
        out = []
        for z in zones:
            objs = (
                [self.state.objects[i] for lib in self.state.libraries.values() for i in lib]
                if z is Zone.LIBRARY else self.state.in_zone(z)
            )
            out += [o for o in objs if self.chars(o).name == name
                    and (controller is None or self.controller_of(o) == controller)]
        return sorted(out, key=lambda o: o.id)

    def obj(self, ref: GameObject | int) -> GameObject:
        return self._get(ref)

    def permanents(self, controller: str | None = None) -> list[GameObject]:
        """Permanents on the battlefield (optionally those `controller` controls), by id."""
        self._check_controller(controller)
        return [o for o in self.state.battlefield()
                if controller is None or self.controller_of(o) == controller]

    def _check_controller(self, controller: Any) -> None:
        """None (anyone), or a player of this game: UsageError naming `controller` else."""
        if controller is not None and not (isinstance(controller, str)
                                           and controller in self.state.players):
            raise UsageError("controller", f"there is no player called {shown(controller)} "
                                           f"(players: {', '.join(self.state.players)})")

    def target_text(self, target: Any) -> str:
        return target_text(self, target)

    def could_produce(self, obj: GameObject | int) -> frozenset[ManaType]:
        """The types of mana this permanent could produce now (CR 106.7, ruling R02)."""

        version = self.state.version
        if self._cp_cache is None or self._cp_cache[0] != version:
            self._cp_cache = (version, could_produce_all(self))
        return self._cp_cache[1].get(self._get(obj).id, frozenset())

    # -- what a player sees of the game, read-only (the state itself is `self.state`)
    def life(self, player: str) -> int:
        """`player`'s life total."""
        from mtg_rulekit.engine.arguments import player as check_player

        return self.state.players[check_player(self, "player", player)].life

    @property
    def players(self) -> tuple[str, ...]:
        """The players' names, in turn order."""
        return tuple(self.state.players)

    @property
    def stack(self) -> tuple[StackItem, ...]:
        """The stack, bottom first (the last item is the top, CR 405.2)."""
        return tuple(self.state.stack)

    @property
    def turn(self) -> int:
        return self.state.turn

    @property
    def step(self) -> Step:
        """The step (or phase without steps) the turn is in."""
        return self.state.step

    @property
    def active(self) -> str:
        """The active player: whose turn it is (CR 102.1)."""
        return self.state.active

    @property
    def priority(self) -> str:
        """The player who has priority now (CR 117.1)."""
        return self.state.priority

    def pool(self, player: str) -> ManaPool:
        """A copy of `player`'s mana pool: iterate it for each mana, or read `.parts` (counts,
        by type, source and restriction) and `.total`, which work at any size."""
        from mtg_rulekit.engine.arguments import (
            player as check_player,  # the argument check, as perform's
        )

        return ManaPool(self.state.players[check_player(self, "player", player)].pool.contents())

    def snapshot(self) -> dict[str, Any]:
        """The whole state as plain JSON-ready data (for tests, tables and round-trips)."""
        s = self.state
        objects = sorted(
            (o for z in s.zones.values() for o in (s.objects[i] for i in z)), key=lambda o: o.id
        )
        statuses = []
        for o in objects:
            status = o.status_json()
            status["controller"] = self.controller_of(o)
            statuses.append(status)
        libs = {p: list(ids) for p, ids in sorted(s.libraries.items())}
        return {
            "turn": s.turn,
            "active": s.active,
            "step": s.step.value,
            "priority": s.priority,
            "players": [p.to_json() for p in s.players.values()],
            "objects": statuses,
            "libraries": libs,
            "stack": [i.to_json() for i in s.stack],
            "effects": sorted(e.text for e in s.effects),
            "pending": [t.source_name for t in s.pending],
        }

    def snapshot_json(self) -> str:
        return json.dumps(self.snapshot(), sort_keys=True)

    def __copy__(self) -> Game:
        """`copy.copy(game)` is a whole, independent game, as `copy.deepcopy` makes: a shallow
        copy would share the state, the log and the records, so acting on one would change
        the other."""
        import copy

        return copy.deepcopy(self)

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None, **_: Any) -> Any:
        """Jupyter shows a game as the flow diagram of its log (`mtg_rulekit.display`, imported
        only here); without Graphviz, as text saying how to install it."""
        from mtg_rulekit.display.flow import mimebundle

        return mimebundle(self, include, exclude)

    # --------------------------------------------------------------- pipeline
    def emit(self, payload: Payload, *, cause: Cause, parent: int | None,
             rules: Iterable[str] = (), subject: int | None = None) -> Event | None:
        """Propose an event, apply replacement effects, commit, log and collect triggers.
        Returns the logged event, or None if a replacement effect prevented it."""
        return self.emit_batch([(payload, subject)], cause=cause, parent=parent, rules=rules)[0]

    def emit_batch(
        self,
        proposals: list[tuple[Payload, int | None]],
        *,
        cause: Cause,
        parent: int | None,
        rules: Iterable[str] = (),
    ) -> list[Event | None]:
        """Several events that happen at the same time (CR 603.10a: leaves-the-battlefield
        abilities see all of them, and look back at the board as it was before)."""
        rules = tuple(rules)
        before = self._fresh_index()
        finals: list[tuple[Payload | None, Payload, tuple[Applied, ...], int | None]] = []
        final: Payload | None
        applied: tuple[Applied, ...]
        setup = False
        for proposed, subject in proposals:
            kind = proposed.kind
            is_setup = bool(getattr(proposed, "setup", False))
            setup = setup or is_setup
            effects = [] if is_setup else before.replacements.get(kind, [])
            # the entering object's own "as enters" effects are asked again after each step: a
            # copy effect brings the copied object's ones with it (CR 614.12, 707.5)
            more = None if is_setup else self._self_replacements
            final, applied = proposed, ()
            if effects or (more is not None and more(proposed)):
                result, steps = run_replacements(self, proposed, effects, self._order_chooser(),
                                                 more=more)
                applied = tuple(
                    Applied(r.name, r.source, r.outcome, b.logged(),
                            a.logged() if a is not None else None, r.rules)
                    for r, b, a in steps
                )
                final = result
            finals.append((final, proposed, applied, subject))
        for final, _, _, _ in finals:  # look-back before anything moves (CR 603.10a)
            if isinstance(final, ZoneChanged) and final.origin == Zone.BATTLEFIELD:
                assert final.object is not None
                obj = self.state.objects[final.object]
                self.books.look_back[obj.id] = (self.chars(obj), self.controller_of(obj))
        events: list[Event | None] = []
        paid: list[tuple[Entered, Event]] = []  # life paid as they enter, lost next
        for final, proposed, applied, subject in finals:
            all_rules = tuple(dict.fromkeys(rules + tuple(r for a in applied for r in a.rules)))
            if final is None:  # prevented: logged for the record, nothing committed
                effect = applied[-1].effect if applied else "an effect"
                self.log.append(Event(
                    id=self.log.next_id, kind=proposed.kind,
                    text=prevented(effect, proposed.kind.value), cause=cause, parent=parent,
                    action=self._action_no, turn=self.state.turn, step=self.state.step.value,
                    rules=all_rules, subject=subject, payload=None, applied=applied,
                    proposed=proposed.logged()))
                events.append(None)
                continue
            if isinstance(final, (ZoneChanged, TokenCreated, Cast)) and final.new is None:
                final = final.replace(new=self.new_id())
            COMMITS[final.kind](self, final)
            event = Event(
                id=self.log.next_id,
                kind=final.kind,
                text=narrate(final, self._names),
                cause=cause,
                parent=parent,
                action=self._action_no,
                turn=self.state.turn,
                step=self.state.step.value,
                rules=all_rules,
                subject=subject,
                payload=final.logged(),
                applied=applied,
                proposed=proposed.logged() if applied else None,
            )
            self.log.append(event)
            self.state.version += 1
            events.append(event)
            if isinstance(final, Entered) and final.pay_life:
                paid.append((final, event))
        if not setup:
            for logged in events:
                if logged is not None:
                    self._collect_triggers(logged, before)
            if self.books.immediate:  # "until" effects end right after their event (CR 610.3)

                run_immediate(self)
        for entered, event in paid:
            self._pay_life_as_it_enters(entered, event)
        return events

    def _pay_life_as_it_enters(self, entered: Entered, event: Event) -> None:
        """Life paid as a permanent enters (a shockland's choice) is lost in an event of its
        own, caused by that replacement effect (CR 119.4: paying life is losing life)."""
        assert entered.new is not None
        obj = self.state.objects[entered.new]
        self.emit(LifeLost(player=obj.controller, amount=entered.pay_life,
                           paid_for=self.chars(obj).name),
                  cause=Cause.REPLACEMENT, parent=event.id, rules=("119.4", "614.12"),
                  subject=obj.id)

    def note(self, payload: Payload, *, cause: Cause, parent: int | None,
             rules: Iterable[str] = (), subject: int | None = None) -> Event:
        """Log an event that changes nothing by itself (the root of what follows)."""
        event = self.emit(payload, cause=cause, parent=parent, rules=rules, subject=subject)
        assert event is not None
        return event

    def touched(self, obj: GameObject | None, *, shape: bool = False) -> None:
        """Mark an object for the next state-based action check; `shape` when abilities or
        effects on the battlefield may have changed (the listener index is then rebuilt)."""
        if obj is not None:
            self.books.dirty.add(obj.id)
            if shape and not self._has_listening_abilities(obj):
                return
        if shape:
            self.state.shape_version += 1
            self.books.shape_event = self.log.next_id  # the event being committed

    def _has_listening_abilities(self, obj: GameObject) -> bool:
        base = obj.last_known or obj.copiable or obj.card.printed
        return any(isinstance(a, (Static, Triggered)) for a in base.abilities) or bool(
            obj.attached_to)

    # ----------------------------------------------------------- index/effects
    def replacements_for(self, kind: EventKind) -> list[ReplacementEffect]:
        """The replacement effects that apply to events of `kind` on the board as it is."""
        return list(self._fresh_index().replacements.get(kind, []))

    def answers_left(self, key: str) -> bool:
        """Whether the current action's caller still has answers for decision `key`."""
        return bool(self._decisions.get(key))

    def _fresh_index(self) -> ListenerIndex:
        if self._index.version == self.state.shape_version:
            return self._index
        index = ListenerIndex(version=self.state.shape_version)
        self._index = index  # effects first: abilities below may depend on them
        try:
            self._fill_index(index)
        except BaseException:
            self._index = ListenerIndex()  # never a half-built index taken for a whole one
            raise
        return index

    def _fill_index(self, index: ListenerIndex) -> None:
        perms = self.state.battlefield()
        statics: list[tuple[GameObject, Static]] = []
        for obj in perms:
            base = obj.copiable or obj.card.printed
            statics += [(obj, a) for a in base.abilities if isinstance(a, Static)]
        effects = list(lasting(self.state))
        for obj, ability in statics:
            if ability.continuous:
                effects += ability.continuous(self, obj)
        effects.sort(key=lambda e: (e.timestamp, e.id))
        index.effects = effects
        # abilities after layers (granted abilities count, removed ones don't)
        index.statics = []
        for obj in perms:
            for granted in self.chars(obj).abilities:
                if isinstance(granted, Triggered):
                    for kind in granted.on:
                        index.triggers.setdefault(kind, []).append((obj, granted))
                elif isinstance(granted, Static):
                    index.statics.append((obj, granted))
                    if granted.replacements:
                        for r in granted.replacements(self, obj):
                            index.replacements.setdefault(r.kind, []).append(r)

    def _self_replacements(self, data: Payload) -> list[ReplacementEffect]:
        """"As enters" / "enters with" / "enters tapped" effects of the object itself
        (CR 614.1c-d, 614.12): they apply from wherever the object comes from."""
        entering: GameObject | None
        if isinstance(data, ZoneChanged) and data.origin == Zone.STACK \
                and data.destination != Zone.BATTLEFIELD:
            return leaving_stack_replacements(self, data)  # flashback (CR 702.34a)
        if isinstance(data, Entered) and data.destination == Zone.BATTLEFIELD \
                and data.object is not None:
            entering = self.state.objects[data.object]
            base = data.copiable or entering.copiable or entering.card.printed
        elif isinstance(data, TokenCreated):
            entering = None
            base = data.copiable or card(data.card).printed
        else:
            return []
        out: list[ReplacementEffect] = []
        for ability in base.abilities:
            if isinstance(ability, Static) and ability.self_etb:
                out += ability.self_etb(self, entering, data)
        return out

    def _order_chooser(self) -> Callable[[list[ReplacementEffect], Payload], ReplacementEffect]:
        def choose(candidates: list[ReplacementEffect], data: Payload) -> ReplacementEffect:
            first = default_order(candidates, data)
            wanted = self.decide("replacement_order", first.name, self._affected_player(data))
            if wanted == first.name:
                return first
            for r in candidates:
                if r.name == wanted:
                    return r
            names = ", ".join(sorted(r.name for r in candidates))
            raise RulesError(f"{wanted} is not one of the replacement effects that apply ({names})",
                             rule="616.1")
        return choose

    def _affected_player(self, data: Payload) -> str | None:
        """Who orders replacement effects on an event (CR 616.1): the affected player, or the
        controller of the affected object (the one it would enter under, if it is entering)."""
        obj_id = getattr(data, "object", None)
        player = getattr(data, "player", None)
        if isinstance(player, str) and obj_id is None:
            return player
        if getattr(data, "destination", None) == Zone.BATTLEFIELD or obj_id is None:
            return getattr(data, "controller", None) or player
        obj = self.state.objects.get(obj_id)
        return self.controller_of(obj) if obj is not None else None

    @property
    def _names(self) -> _GameNames:
        return _GameNames(self)

    # ---------------------------------------------------------------- triggers
    def _collect_triggers(self, event: Event, before: ListenerIndex) -> None:
        collect(self, event, before, self._fresh_index())

    # --------------------------------------------------------------- decisions
    def decide(self, key: str, default: Any, player: str | None = None) -> Any:
        """The next answer the current action's caller gave for `key`, else `default`; recorded
        in `decisions` with the `player` who makes this choice."""
        answers = self._decisions.get(key)
        given = bool(answers)
        answer = answers.pop(0) if answers else default
        if given or default is not None:
            kept = answer.id if isinstance(answer, GameObject) else answer
            self.decisions.append(Decision(self._action_no, self.log.next_id, key, player,
                                           kept, given))
        return answer

    # ----------------------------------------------------------------- actions
    def _get(self, ref: GameObject | int) -> GameObject:
        if isinstance(ref, GameObject):
            return ref
        if isinstance(ref, bool) or not isinstance(ref, int) or ref not in self.state.objects:
            raise UsageError("object", f"there is no object {shown(ref)} in this game"
                             if not isinstance(ref, int) or abs(ref) <= LARGEST else
                             f"no object has so large an id ({show_number(ref)})")
        return self.state.objects[ref]

    def perform(self, name: str, *, decisions: dict[str, Any] | None = None,
                **kwargs: Any) -> Any:
        """Run one action by name, atomically: it happens whole, or it raises and changes
        nothing: `UsageError` for a malformed call (checked first, against
        `mtg_rulekit.engine.arguments.ACTION_ARGS`), `RulesError` for what the rules forbid; an
        interrupt (Ctrl-C) goes on up, the game put back first. Every public action method
        goes through here."""
        kwargs, answers = check_call(self, name, kwargs, decisions)
        fn = _actions.ACTIONS[name]
        mark, decided = len(self.log), len(self.decisions)
        # inside `what_if` the trial's own checkpoint puts everything back
        restore = _Checkpoint(self) if self._trial is None and \
            len(self.state.objects) <= CHECKPOINT_OBJECTS else None
        try:
            self.current_action = name
            self._action_no = len(self.actions) + 1
            self._decisions = {k: list(v) for k, v in answers.items()}
            with restore if restore is not None else nullcontext():
                result = fn(self, **kwargs)
            record = dict(kwargs)
            if answers:
                record["decisions"] = answers
            self.actions.append((name, record))  # done: from here on the action is kept
        except BaseException as error:
            del self.decisions[decided:]
            if self._trial is None:
                self._take_back(error, restore, mark)
            raise
        finally:
            self._decisions = {}
        return result

    def _take_back(self, error: BaseException, restore: _Checkpoint | None, mark: int) -> None:
        """The game as it was before an action that did not finish. A refusal (an `Exception`)
        that logged events is replayed from the records, exact by construction, with the
        checkpoint as the net if that replay fails. An interrupt (`KeyboardInterrupt` from
        Jupyter's "Interrupt kernel", any other `BaseException`) may have come between any two
        lines, logged or not: the checkpoint goes back, or, where there is none, the records
        are replayed. A Ctrl-C that arrives meanwhile waits until the game is whole; an
        interrupt raised inside the replay itself puts the checkpoint back, or, with none,
        replays once more, and then goes on up."""
        with interrupts_held():
            if isinstance(error, Exception) and len(self.log) == mark:
                return  # refused before it did anything
            if restore is not None and not isinstance(error, Exception):
                restore.put_back(mark)
                return
            try:  # replaying the records is exact by construction (it swaps in whole)
                self._rebuild(self.actions)
            except BaseException as again:  # a bug in rulekit (records that don't replay)...
                if restore is not None:
                    restore.put_back(mark)
                    if isinstance(again, Exception):
                        return  # the game as it was, and the action's own error
                    raise
                if not isinstance(again, Exception):  # ...or an interrupt: replay again
                    self._rebuild(self.actions)
                raise

    def _replayed(self, actions: list[tuple[str, dict[str, Any]]]) -> Game:
        fresh = Game(self._init_args[0], life=self._init_args[1])
        for name, kwargs in actions:
            fresh.perform(name, **kwargs)
        return fresh

    def _rebuild(self, actions: list[tuple[str, dict[str, Any]]]) -> None:
        self.__dict__.update(self._replayed(actions).__dict__)

    def undo(self, n: int = 1) -> None:
        """Take back the last `n` actions (set-up included) by replaying the others."""
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise UsageError("n", f"undo takes how many actions to take back (1 or more), got "
                                  f"{shown(n)}")
        bounded_int("n", n)
        if n > len(self.actions):
            have = len(self.actions)
            raise UsageError("n", "there is nothing to undo" if not have else
                             f"there {'is' if have == 1 else 'are'} only {have} action(s) to "
                             f"undo, not {n}")
        self._rebuild(self.actions[:-n])

    def replay(self) -> Game:
        """A new game built by replaying this game's actions (same log, same state)."""
        return self._replayed(self.actions)

    # -------------------------------------------------- verdicts before the click
    @contextmanager
    def what_if(self) -> Iterator[Game]:
        """Try actions, then put the game back exactly as it was, whatever happened inside:
        state, log, records, decisions, the id counter. The actions run the real pipeline
        (no fake events), and the undo is `_Checkpoint`'s: objects as they were first
        written to, copies of the containers, the log cut back in place, so it costs what
        the actions touched, not a replay. An action refused inside stops the block (the
        error goes on up, the game is put back all the same); a `what_if` inside another
        puts back its own part.

        >>> game = Game(); forest = game.add("Forest")
        >>> with game.what_if():
        ...     game.tap_for_mana(forest)
        >>> forest.tapped, len(game.actions)
        (False, 1)
        """
        outer = self._trial
        restore = _Checkpoint(self)
        # the objects themselves too: an `undo` inside rebuilds the game into new ones
        kept = (self.state, self.log, self.books, len(self.log), list(self.actions),
                list(self.decisions), self._index, self._cp_cache, self._decisions)
        self._trial = restore
        interrupted = True
        try:
            with restore:
                yield self
            interrupted = False
        except Exception:
            interrupted = False
            raise
        finally:
            with interrupts_held():
                self._trial = outer
                (self.state, self.log, self.books, mark, self.actions, self.decisions,
                 index, cache, answers) = kept
                if interrupted:  # it may have stopped between any two lines: a new log
                    restore.put_back(mark)
                    self._decisions = answers
                else:
                    restore.take_back(mark)
                    self._index, self._cp_cache, self._decisions = index, cache, answers

    def check(self, name: str, *, decisions: dict[str, Any] | None = None,
              **kwargs: Any) -> RulesError | None:
        """Would `perform(name, **kwargs)` be allowed now? None if so; else the `RulesError`
        it would raise (its `rule` and `reason` say why). A malformed call raises
        `UsageError`, as `perform` does. Nothing changes, not even the log: the action is
        tried in `what_if` and taken back (python-chess's `is_legal` beside `push`).

        >>> game = Game(); forest = game.add("Forest", tapped=True)
        >>> game.check("tap_for_mana", object=forest.id).rule
        '107.5'
        >>> game.check("pass_priority") is None
        True
        """
        try:
            with self.what_if():
                self.perform(name, decisions=decisions, **kwargs)
        except RulesError as err:
            return err
        return None

    def offers(self, player: str | None = None) -> list[Offer]:
        """Every concrete action `player` (default: whoever has priority) could try now, legal
        or not, as `mtg_rulekit.engine.offers.Offer`s: each mana each permanent could make, each
        ability with each target and cost choice, each card to cast or play, attacks and
        blocks, passing. `legal_actions` keeps the legal ones."""
        from mtg_rulekit.engine.arguments import player as check_player

        who = check_player(self, "player", self.state.priority if player is None else player)
        return player_offers(self, who)

    def legal_actions(self, player: str | None = None) -> list[Offer]:
        """The concrete actions `player` may take now (python-chess's `legal_moves` beside
        `push`): every `offers(player)` that `check` allows, each ready for
        `perform(offer.action, **offer.arguments)`. Set-up actions (`add`, `destroy`, ...)
        are not a player's moves and are left out."""
        return [o for o in self.offers(player) if self.check(o.action, **o.arguments) is None]

    # Public action methods: thin, documented wrappers over `perform`.
    def add(self, card_name: str, *, player: str | None = None, zone: str = "battlefield",
            **status: Any) -> GameObject:
        """Set-up: put a card (or token) straight into a zone, with status such as
        `tapped=True`, `sick=False`, `counters={"charge": 2}`, `choices={"color": "G"}`."""
        made: GameObject = self.perform("add", card=card_name,
                                        player=player or self.state.active, zone=zone, **status)
        return made

    def set_turn(self, *, turn: int | None = None, active: str | None = None,
                 step: str | Step | None = None) -> None:
        """Set-up: which turn, whose turn, which step (priority goes to the active player)."""
        self.perform("set_turn", turn=turn, active=active, step=step)

    def set_life(self, player: str, life: int) -> None:
        """Set-up: a player's life total."""
        self.perform("set_life", player=player, life=life)

    def set_pool(self, player: str, mana: list[dict[str, str]]) -> None:
        """Set-up: mana already in a pool, e.g. `[{"type": "C", "restriction": "powerstone"}]`
        (restriction "cavern" takes a "creature_type")."""
        self.perform("set_pool", player=player, mana=mana)

    def play_land(self, obj: GameObject | int, **decisions: Any) -> None:
        """Play a land from hand (a special action, CR 116.2a, 305.1)."""
        self.perform("play_land", object=_ref(obj), decisions=decisions)

    def cast(self, obj: GameObject | int, *, x: int | None = None,
             targets: Iterable[Any] = (), **decisions: Any) -> None:
        """Cast a spell from hand, paying from the mana pool (CR 601.2)."""
        self.perform("cast", object=_ref(obj), x=x, targets=_refs(targets),
                     decisions=decisions)

    def activate(self, obj: GameObject | int, ability: int | None = None, *,
                 mana: str | None = None, x: int | None = None, targets: Iterable[Any] = (),
                 sacrifice: GameObject | int | None = None,
                 tap: GameObject | int | None = None, **decisions: Any) -> None:
        """Activate an ability of a permanent (CR 602); mana abilities resolve at once (605)."""
        self.perform(
            "activate", object=_ref(obj), ability=ability, mana=mana, x=x,
            targets=_refs(targets), sacrifice=_ref(sacrifice), tap=_ref(tap),
            decisions=decisions,
        )

    def tap_for_mana(self, obj: GameObject | int, mana: str | None = None,
                     **decisions: Any) -> None:
        """Activate a mana ability with {T} in its cost (CR 106.12) making `mana`."""
        self.perform("tap_for_mana", object=_ref(obj), mana=mana, decisions=decisions)

    def pass_priority(self, **decisions: Any) -> None:
        """The player with priority passes (CR 117.3d). All passing in a row resolves the top of
        the stack, or ends the step when the stack is empty (CR 117.4)."""
        self.perform("pass_priority", decisions=decisions)

    def resolve(self, **decisions: Any) -> None:
        """Every player passes in turn until the top of the stack resolves."""
        self.perform("resolve", decisions=decisions)

    def advance(self, to: str | Step | None = None, **decisions: Any) -> None:
        """Pass priority with an empty stack until the next step (or step `to`, possibly next
        turn) begins. Triggers that happen on the way are resolved."""
        self.perform("advance", to=to, decisions=decisions)

    def next_turn(self, **decisions: Any) -> None:
        """Advance to the next turn's precombat main phase (untap, upkeep, draw on the way)."""
        self.perform("next_turn", decisions=decisions)

    def declare_attackers(self, attackers: Iterable[GameObject | int] = (), *,
                          exert: Iterable[GameObject | int] = (), **decisions: Any) -> None:
        """Declare attackers (CR 508.1), exerting any of them as they are declared."""
        self.perform("declare_attackers", attackers=_refs(attackers), exert=_refs(exert),
                     decisions=decisions)

    def declare_blockers(self, blocks: dict[int, int] | None = None, **decisions: Any) -> None:
        """Declare blockers: {blocker id: attacker id} (CR 509.1)."""
        if blocks is not None and not isinstance(blocks, dict):
            raise UsageError("blocks", f"expected {{blocker id: attacker id}}, got {shown(blocks)}")
        self.perform("declare_blockers", blocks={_ref(k): _ref(v) for k, v in (blocks or {}).items()},
                     decisions=decisions)

    def destroy(self, objs: Iterable[GameObject | int], **decisions: Any) -> None:
        """Set-up: destroy these permanents at the same time (CR 701.8)."""
        self.perform("destroy", objects=_refs(objs), decisions=decisions)

    def exile(self, objs: Iterable[GameObject | int]) -> None:
        """Set-up: exile these permanents at the same time."""
        self.perform("exile", objects=_refs(objs))

    def gain_control(self, obj: GameObject | int, player: str, *,
                     until_end_of_turn: bool = True) -> None:
        """Set-up: `player` gains control of a permanent (like Act of Treason without haste)."""
        self.perform("gain_control", object=_ref(obj), player=player,
                     until_end_of_turn=until_end_of_turn)

    # -------------------------------------------------------- derived helpers
    def settle(self, parent: int | None) -> None:
        """State-based actions, then put waiting triggers on the stack (CR 117.5)."""

        settle(self, parent)

    def advance_step(self, parent: int | None) -> None:
        _turn.advance_step(self, parent)


class _Checkpoint:
    """The game as it is before an action, kept cheaply, so that an interrupted action, or a
    refused one whose rollback replay fails (a bug in rulekit: the records are plain data and
    replay), still leaves the game exactly as it was, never half done. Objects are kept as they are first
    written to (`state.JOURNALS`); players and the containers (zones, the stack, waiting
    triggers, effects) are copied: C-level copies of dicts and lists. Stack items and waiting
    triggers are not changed once made (only the one being put on the stack is)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        s = game.state
        self.journal: dict[int, Any] = {}
        self.state = dict(s.__dict__)
        self.containers = (dict(s.objects), {z: dict(ids) for z, ids in s.zones.items()},
                           {p: list(ids) for p, ids in s.libraries.items()}, list(s.stack),
                           list(s.effects), list(s.pending), list(s.delayed),
                           dict(s.attachments))
        self.players = [(pl, dict(pl.__dict__), dict(pl.pool._counts))
                        for pl in s.players.values()]
        b = game.books
        self.books = (dict(b.__dict__), set(b.dirty), dict(b.look_back), list(b.pending_mana),
                      list(b.immediate))
        self.game_fields = (game._action_no, game.current_action, game._root)

    def __enter__(self) -> _Checkpoint:
        JOURNALS.append(self.journal)
        return self

    def __exit__(self, *_: object) -> None:
        assert JOURNALS[-1] is self.journal
        JOURNALS.pop()

    def put_back(self, mark: int) -> None:
        """Everything as it was when this checkpoint was made; the log cut to `mark` events
        (a new log: the old one may be what failed), the caches dropped."""
        self._restore()
        game = self.game
        log = EventLog()
        for event in list(game.log)[:mark]:
            log.append(event)
        game.log = log
        game._index = ListenerIndex()  # rebuilt on first use
        game._cp_cache = None

    def take_back(self, mark: int) -> None:
        """Everything as it was when this checkpoint was made, after actions that ran whole
        or were refused (`Game.what_if`): the log cut back in place to `mark` events; the
        caches, keyed by the state's versions that come back too, stay valid."""
        self._restore()
        self.game.log.truncate(mark)

    def _restore(self) -> None:
        game, s = self.game, self.game.state
        for depth in range(len(JOURNALS) - 1, -1, -1):  # an interrupt may have skipped __exit__
            if JOURNALS[depth] is self.journal:
                del JOURNALS[depth:]
                break
        for obj, values, counters in self.journal.values():
            if values is not None:
                for name, value in zip(OBJECT_FIELDS, values):
                    object.__setattr__(obj, name, value)
                object.__setattr__(obj, "counters", counters)
        for pl, values, counts in self.players:
            pl.__dict__.update(values)
            pl.pool._counts.clear()
            pl.pool._counts.update(counts)
        s.__dict__.update(self.state)
        (s.objects, s.zones, s.libraries, s.stack, s.effects, s.pending, s.delayed,
         s.attachments) = self.containers
        values, dirty, look_back, pending_mana, immediate = self.books
        game.books.__dict__.update(values)
        (game.books.dirty, game.books.look_back, game.books.pending_mana,
         game.books.immediate) = dirty, look_back, pending_mana, immediate
        game._action_no, game.current_action, game._root = self.game_fields


CHECKPOINT_OBJECTS = 1000
"""Up to this many objects in the game, every action keeps a `_Checkpoint` (copies of the
containers: about a microsecond per hundred objects); beyond, a refused or interrupted action
is rolled back by replaying the records only."""


MIN_PLAYERS = 2
MAX_PLAYERS = 8


def _player_names(players: Any) -> list[str]:
    """The players' names, checked (`Game`'s `players`): a list or tuple of 2 to 8 different,
    non-empty names of at most 40 characters. A bare string is refused (`Game("AB")` is not players A and B)."""
    if not isinstance(players, (list, tuple)):
        raise UsageError("players", "expected a list of player names such as ['Alice', 'Bob'], "
                                    f"got {shown(players)}")
    for i, name in enumerate(players):
        if not isinstance(name, str) or not name.strip():
            raise UsageError(f"players[{i}]", f"a player's name is non-empty text, got "
                                              f"{shown(name)}")
        bounded_text(f"players[{i}]", name, LONGEST_NAME)
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise UsageError("players", f"a game needs {MIN_PLAYERS} to {MAX_PLAYERS} players, got "
                                    f"{len(players)}")
    if len(set(players)) != len(players):
        twice = next(n for n in players if players.count(n) > 1)
        raise UsageError("players", f"every player needs a different name; {twice!r} is there "
                                    "twice")
    return list(players)


def _starting_life(life: Any) -> int:
    """`Game`'s `life`: a whole number (not a bool, a float, NaN or text), bounded like every
    number an action takes (`mtg_rulekit.core.decisions.LARGEST`)."""
    if isinstance(life, bool) or not isinstance(life, int):
        raise UsageError("life", f"expected a whole number such as 20, got {shown(life)}")
    return bounded_int("life", life)


class _GameNames:
    """How the narrator names objects: as this game sees them now."""

    def __init__(self, game: Game) -> None:
        self._game = game

    def describe(self, obj: int) -> str:
        return self._game.describe(obj)

    def name(self, obj: int) -> str:
        return self._game.chars(self._game.state.objects[obj]).name


def _ref(obj: Any) -> Any:
    """An object by id (other values go to the argument check as they are)."""
    return obj.id if isinstance(obj, GameObject) else obj


def _refs(objs: Any) -> Any:
    """A list of objects by id; anything that isn't a list goes to the argument check as is."""
    if isinstance(objs, (str, bytes, dict)) or not isinstance(objs, Iterable):
        return objs
    return [_ref(o) for o in objs]


__all__ = ["Game", "CardDef", "RulesError", "UsageError"]
