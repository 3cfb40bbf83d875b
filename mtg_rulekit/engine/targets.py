"""Targets: choosing them (CR 115, 601.2c, 603.3d) and checking them again on resolution
(608.2b)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mtg_rulekit.core import payloads as p
from mtg_rulekit.core.decisions import bounded_int, shown, written_id
from mtg_rulekit.core.errors import RulesError, UsageError
from mtg_rulekit.core.events import Cause
from mtg_rulekit.objects.state import Zone

if TYPE_CHECKING:
    from mtg_rulekit.objects.abilities import TargetSpec
    from mtg_rulekit.objects.context import RulesContext


def candidates(game: RulesContext, source: int | None, spec: TargetSpec) -> list[Any]:
    """Every legal target now, players first then permanents by id (deterministic)."""
    src = game.state.objects.get(source) if source is not None else None
    out: list[Any] = []
    if spec.player_target:
        out += [p for p in game.state.players if spec.legal(game, src, p)]
    if spec.objects:
        out += [o.id for o in game.state.battlefield() if spec.legal(game, src, o)]
    if spec.spells:
        out += [o.id for o in game.state.in_zone(Zone.STACK)
                if o.id != source and spec.legal(game, src, o)]
    return out


def is_legal(game: RulesContext, source: int | None, spec: TargetSpec, target: Any) -> bool:
    src = game.state.objects.get(source) if source is not None else None
    if isinstance(target, str):
        return spec.player_target and target in game.state.players and spec.legal(game, src, target)
    obj = game.state.objects.get(target)
    if obj is None or obj.moved_to is not None or obj.phased_out:  # CR 702.26b
        return False
    if obj.zone is Zone.STACK:  # a spell (CR 115.1)
        return spec.spells and obj.id != source and spec.legal(game, src, obj)
    if obj.zone is not Zone.BATTLEFIELD or not spec.objects:
        return False
    return spec.legal(game, src, obj)


def check_chosen(game: RulesContext, source: int | None, spec: TargetSpec, chosen: list[Any]) -> tuple[int | str, ...]:
    """Validate targets chosen by a player for a spell or activated ability (CR 601.2c)."""
    if len(chosen) != 1:
        raise RulesError(f"choose exactly one target ({spec.text})", rule="601.2c")
    if not is_legal(game, source, spec, chosen[0]):
        raise RulesError(f"{target_text(game, chosen[0])} is not a legal target: {spec.text}",
                         rule="115.1")
    return tuple(chosen)


def choose_targets(game: RulesContext, source: int | None, controller: str, spec: TargetSpec) -> tuple[int | str, ...]:
    """Targets for a triggered ability as it goes on the stack (CR 603.3d): the caller's
    `target` decision, else the first legal candidate."""
    legal = candidates(game, source, spec)
    wanted = game.decide("target", legal[0] if legal else None, controller)  # CR 603.3d
    if wanted is not None:
        if isinstance(wanted, str):  # checked by `arguments.check_decisions`: an id or a name
            found = written_id("decisions.target", wanted)
            wanted = wanted if found is None else found
        if wanted not in legal:
            raise RulesError(f"{target_text(game, wanted)} is not a legal target: {spec.text}",
                             rule="115.1")
        return (wanted,)
    return (legal[0],) if legal else ()


def announce(game: RulesContext, item_id: int, controller: str, name: str, targets: tuple[int | str, ...],
             parent: int) -> None:
    """Each targeted object "becomes the target" of the spell or ability as it is put on the
    stack (CR 115.1); ward and similar abilities trigger on these events (CR 702.21a)."""
    for t in targets:
        if isinstance(t, str):
            continue
        game.emit(p.Targeted(object=t, item_id=item_id, controller=controller, by=name,
                             target=target_text(game, t)),
            cause=Cause.RULE, parent=parent, rules=("115.1",), subject=t)


def target_text(game: RulesContext, target: Any) -> str:
    """A target in words: a player's name, or the object's description ("#id" if it is gone)."""
    if isinstance(target, str):
        return target
    if isinstance(target, bool) or not isinstance(target, int):
        raise UsageError("target", "a target is an object id or a player's name, not "
                                   f"{type(target).__name__ if isinstance(target, int) else shown(target)}")
    obj = game.state.objects.get(target)
    return game.describe(obj) if obj is not None else f"#{bounded_int('target', target)}"
