"""What a resolving spell or ability can do. Every helper goes through the event pipeline with the
resolution as the cause, so the log shows which ability produced which event."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from mtg_rulekit.core import payloads as p
from mtg_rulekit.core.events import Cause, Event
from mtg_rulekit.core.mana import Mana, ManaType, ManaUnit, Restriction, Rider
from mtg_rulekit.objects.state import GameObject, Zone

if TYPE_CHECKING:
    from mtg_rulekit.core.characteristics import Characteristics
    from mtg_rulekit.objects.abilities import Ability
    from mtg_rulekit.objects.context import RulesContext
    from mtg_rulekit.objects.effects import ContinuousEffect


class Resolution:
    """The context an effect function receives: its source, controller, targets, X."""

    def __init__(self, game: RulesContext, source: int | None, controller: str, parent: int, *,
                 targets: tuple[Any, ...] = (), x: int = 0, bound: dict[str, Any] | None = None,
                 ability: Ability | None = None, tapped_for_mana: bool = False) -> None:
        self.game = game
        self.source_id = source
        self.controller = controller
        self.parent = parent
        self.targets = targets
        self.x = x
        self.bound = bound or {}
        self.ability = ability
        self.tapped_for_mana = tapped_for_mana

    # -- reading
    @property
    def source(self) -> GameObject | None:
        return None if self.source_id is None else self.game.state.objects[self.source_id]

    @property
    def source_name(self) -> str:
        src = self.source
        return self.game.chars(src).name if src is not None else "the game"

    def current(self, obj_id: int) -> GameObject | None:
        """The object if it is still on the battlefield as the same object (CR 400.7)."""
        obj = self.game.state.objects.get(obj_id)
        return obj if obj is not None and obj.zone is Zone.BATTLEFIELD else None

    def decide(self, key: str, default: Any, player: str | None = None) -> Any:
        """The caller's answer for `key`, else `default`; made by `player` (by default the
        controller of what is resolving)."""
        return self.game.decide(key, default, player or self.controller)

    def _emit(self, payload: p.Payload, subject: int | None = None,
              rules: Iterable[str] = ()) -> Event | None:
        return self.game.emit(payload, cause=Cause.ABILITY, parent=self.parent, rules=rules,
                              subject=subject)

    # -- mana
    def add_mana(self, types: Iterable[ManaType], *, restriction: Restriction | None = None,
                 rider: Rider | None = None, rules: Iterable[str] = ("106.4",)) -> Event | None:
        """Add mana to the controller's pool. Marked "tapped for mana" when the resolving
        ability is a mana ability with {T} in its cost (CR 106.12), so replacement effects for
        tapping for mana can modify it (CR 106.12b)."""
        src = self.source
        mana = Mana.of(ManaUnit(t, self.source_id, self.source_name, restriction, rider)
                       for t in types)
        data = p.ManaAdded(
            player=self.controller, mana=mana, source=self.source_id,
            source_name=self.source_name, tapped_for_mana=self.tapped_for_mana,
            source_is_land=bool(src is not None and self.game.chars(src).is_a("Land")))
        return self._emit(data, self.source_id, rules)

    # -- permanents
    def tap(self, obj: GameObject) -> Event | None:
        return self._emit(p.Tapped(object=obj.id), obj.id, ("701.26a",))

    def untap(self, obj: GameObject) -> Event | None:
        return self._emit(p.Untapped(object=obj.id), obj.id, ("701.26b",))

    def put_counters(self, obj: GameObject, counter: str, n: int) -> Event | None:
        if n <= 0:
            return None
        return self._emit(p.CountersPut(object=obj.id, counter=counter, n=n), obj.id,
                          ("122.1",))

    def move(self, objs: Iterable[GameObject], to: Zone, *, reason: str,
             rules: Iterable[str] = ()) -> list[Event | None]:
        """Move objects at the same time (destroy, exile, sacrifice, return to hand)."""
        return move_together(self.game, list(objs), to, reason=reason, cause=Cause.ABILITY,
                             parent=self.parent, rules=tuple(rules))

    def create_token(self, name: str, *, tapped: bool = False, attacking: bool = False,
                     copiable: Characteristics | None = None, copy_text: str = "",
                     etb_x: int | None = None, rules: Iterable[str] = ("111.1",)) -> Event | None:
        """Create a token. How it enters (tapped, attacking) is this effect's business, not the
        token definition's (ruling R09)."""
        data = p.TokenCreated(card=name, controller=self.controller, tapped=tapped,
                              attacking=attacking, copiable=copiable, copy_text=copy_text,
                              etb_x=etb_x)
        return self._emit(data, None, rules)

    def add_effect(self, effect: ContinuousEffect) -> Event | None:
        return self._emit(p.EffectBegan(effect=effect, effect_text=effect.text),
                          effect.source, effect.rules)

    # -- players
    def gain_life(self, n: int, player: str | None = None) -> Event | None:
        return self._emit(p.LifeGained(player=player or self.controller, amount=n), None,
                          ("119.3",))

    def damage(self, target: GameObject | str, n: int) -> Event | None:
        tgt = target if isinstance(target, str) else target.id
        return self._emit(p.Damage(source=self.source_id, source_name=self.source_name,
                                   target=tgt, amount=n),
                          None if isinstance(target, str) else target.id, ("120.3",))

    def draw(self, n: int = 1, player: str | None = None) -> None:
        draw_cards(self.game, player or self.controller, n, cause=Cause.ABILITY,
                   parent=self.parent)


def move_together(game: RulesContext, objs: list[GameObject], to: Zone, *, reason: str, cause: Cause,
                  parent: int | None, rules: tuple[str, ...] = ()) -> list[Event | None]:
    """One simultaneous zone change for many objects (CR 603.10a look-back applies)."""
    move = p.Entered if to is Zone.BATTLEFIELD else p.ZoneChanged
    proposals: list[tuple[p.Payload, int | None]] = [
        (move(object=obj.id, origin=obj.zone, destination=to, reason=reason), obj.id)
        for obj in objs]
    return game.emit_batch(proposals, cause=cause, parent=parent, rules=rules)


def draw_cards(game: RulesContext, player: str, n: int, *, cause: Cause, parent: int | None) -> None:
    for _ in range(n):
        library = game.state.libraries.get(player, [])
        if not library:
            game.note(p.Drew(player=player, empty=True), cause=cause, parent=parent,
                      rules=("121.4",))
            continue
        top = game.state.objects[library[0]]
        game.emit(p.ZoneChanged(object=top.id, origin=Zone.LIBRARY, destination=Zone.HAND,
                                reason="draw", player=player),
                  cause=cause, parent=parent,
                  rules=("504.1", "121.1") if cause is Cause.TURN else ("121.1",), subject=top.id)
