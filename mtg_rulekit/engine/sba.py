"""State-based actions (CR 704): checked whenever a player would get priority, all performed at
the same time, repeated until none apply. Only objects touched since the last check are examined
(plus everything when the board's effects changed), so a check costs what changed, not the board.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mtg_rulekit.core import payloads as p
from mtg_rulekit.core.errors import RulesError
from mtg_rulekit.core.events import Cause
from mtg_rulekit.engine.targets import target_text
from mtg_rulekit.objects.attach import attachment_kind, illegal_attachment
from mtg_rulekit.objects.resolution import move_together
from mtg_rulekit.objects.state import GameObject, Zone

if TYPE_CHECKING:
    from mtg_rulekit.objects.context import RulesContext


def check_sbas(game: RulesContext, parent: int | None) -> bool:
    """Perform every state-based action that applies now; True if any did."""
    state = game.state
    touched, game.books.dirty = game.books.dirty, set()
    if game.books.sba_shape != state.shape_version:
        game.books.sba_shape = state.shape_version
        touched |= set(state.zones[Zone.BATTLEFIELD])
    losers = [p for p in state.players.values() if p.life <= 0 and not p.lost]
    to_graveyard: list[_Dies] = []
    cease: list[GameObject] = []
    unattach: list[tuple[GameObject, str]] = []
    for obj_id in sorted(touched):
        obj = state.objects.get(obj_id)
        if obj is None or obj.moved_to is not None or obj.phased_out:
            continue  # a phased-out permanent is treated as though it doesn't exist (702.26b)
        if obj.token and obj.zone not in (Zone.BATTLEFIELD, Zone.NOWHERE):
            cease.append(obj)
            continue
        if obj.is_copy_spell and obj.zone not in (Zone.STACK, Zone.NOWHERE):
            cease.append(obj)  # a copy of a spell off the stack (CR 704.5e)
            continue
        if obj.zone is not Zone.BATTLEFIELD:
            continue
        reason = _dies_because(game, obj)
        if reason:
            to_graveyard.append((obj, (reason[0],), reason[1], None))
        elif obj.attached_to is not None:
            problem = _attached_illegally(game, obj)
            if problem and problem[1] == "704.5m":
                to_graveyard.append((obj, (p.Doom.ILLEGALLY_ATTACHED,), problem[1], problem[0]))
            elif problem:
                unattach.append((obj, problem[1]))
    to_graveyard = _once_each(to_graveyard + _legend_rule(game, touched))
    if not (losers or to_graveyard or cease or unattach):
        return False
    for obj, rule in unattach:
        game.emit(p.Attached(object=obj.id, to=None), cause=Cause.SBA,
                  parent=parent, rules=(rule,), subject=obj.id)
    for player in losers:
        game.emit(p.Lost(player=player.name, reason="life"),
                  cause=Cause.SBA, parent=parent, rules=("704.5a",))
    if to_graveyard:
        rules = tuple(dict.fromkeys(r for _, _, rule, _ in to_graveyard for r in rule.split()))
        dying = tuple(p.Dying(o.id, why, problem) for o, why, _, problem in to_graveyard)
        root = game.note(p.StateBasedActions(dying=dying), cause=Cause.SBA,
                         parent=parent, rules=rules)
        move_together(game, [o for o, _, _, _ in to_graveyard], Zone.GRAVEYARD, reason="sba",
                      cause=Cause.SBA, parent=root.id, rules=rules)
    for obj in cease:
        game.emit(p.ZoneChanged(object=obj.id, origin=obj.zone,
                                destination=Zone.NOWHERE, reason="token",
                                token=obj.token),
                  cause=Cause.SBA, parent=parent,
                  rules=("704.5d", "111.7") if obj.token else ("704.5e",), subject=obj.id)
    return True


_Dies = tuple[GameObject, tuple[p.Doom, ...], str, p.Unattachable | None]
"""A permanent a state-based action puts into its graveyard: why, the rules, how an Aura is
attached illegally."""


def _once_each(moves: list[_Dies]) -> list[_Dies]:
    """State-based actions happen at the same time, so an object that two of them would put
    into its owner's graveyard moves once, for both reasons (CR 704.3)."""
    merged: dict[int, _Dies] = {}
    for obj, why, rule, problem in moves:
        if obj.id in merged:
            _, whys, rules, had = merged[obj.id]
            merged[obj.id] = (obj, whys + why, f"{rules} {rule}", had or problem)
        else:
            merged[obj.id] = (obj, why, rule, problem)
    return list(merged.values())


def _attached_illegally(game: RulesContext, obj: GameObject
                        ) -> tuple[p.Unattachable, str] | None:
    """Why `obj` can't stay attached where it is, with the state-based action that applies:
    704.5m (an Aura goes to the graveyard), 704.5n (Equipment or Fortification comes off),
    704.5p (anything else comes off); None if it is attached legally."""
    host = game.state.objects.get(obj.attached_to) if obj.attached_to is not None else None
    chars = game.chars(obj)
    if host is None:
        problem: p.Unattachable | None = p.Unattachable(p.Unfit.NOTHING, "")
    else:
        problem = illegal_attachment(game, chars, obj, host)
    if problem is None:
        return None
    kind = attachment_kind(chars)
    sba = ("704.5m" if kind == "Aura" else "704.5n" if kind else "704.5p")
    return (problem, sba)


def _dies_because(game: RulesContext, obj: GameObject) -> tuple[p.Doom, str] | None:
    chars = game.chars(obj)
    if chars.is_a("Creature") and chars.toughness is not None:
        if chars.toughness <= 0:
            return (p.Doom.TOUGHNESS, "704.5f")
        if obj.damage >= chars.toughness:
            return (p.Doom.LETHAL_DAMAGE, "704.5g")
    if "Aura" in chars.subtypes and obj.attached_to is None:
        return (p.Doom.AURA_UNATTACHED, "704.5m")
    return None


def _legend_rule(game: RulesContext, touched: set[int]) -> list[_Dies]:
    """Two or more legendary permanents with the same name: their controller chooses one to
    keep (decision `legend_keep`; by default the one that arrived last), the rest go to the
    graveyard (CR 704.5j)."""
    state = game.state
    if not any(
        (o := state.objects.get(i)) is not None and o.zone is Zone.BATTLEFIELD
        and "Legendary" in game.chars(o).supertypes
        for i in touched
    ):
        return []
    groups: dict[tuple[str, str], list[GameObject]] = {}
    for obj in state.battlefield():
        chars = game.chars(obj)
        if "Legendary" in chars.supertypes:
            groups.setdefault((game.controller_of(obj), chars.name), []).append(obj)
    out: list[_Dies] = []
    for (controller, name), objs in groups.items():
        if len(objs) < 2:
            continue
        objs = sorted(objs, key=lambda o: o.id)
        wanted = game.decide("legend_keep", objs[-1].id, controller)
        keep = next((o for o in objs if str(o.id) == str(wanted).lstrip("#")), None)
        if keep is None:
            said = target_text(game, wanted) if isinstance(wanted, int) else str(wanted)
            raise RulesError(f"{said} is not one of {controller}'s legendary permanents named "
                             f"{name}: {', '.join(game.describe(o) for o in objs)}",
                             rule="704.5j")
        out += [(obj, (p.Doom.LEGEND_RULE,), "704.5j", None) for obj in objs if obj is not keep]
    return out
