"""Combat: declaring attackers with exert (CR 508.1, 701.43), blockers (509.1), combat damage
with trample and lifelink (510, 702.19, 702.15)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mtg_rulekit.core import payloads as p
from mtg_rulekit.core.errors import RulesError
from mtg_rulekit.core.events import Cause
from mtg_rulekit.engine.paying import summoning_sick
from mtg_rulekit.objects.abilities import Static
from mtg_rulekit.objects.state import GameObject

if TYPE_CHECKING:
    from mtg_rulekit.objects.context import RulesContext


def can_exert(game: RulesContext, obj: GameObject) -> Static | None:
    """The "you may exert this as it attacks" ability, if it has one (CR 701.43)."""
    return next((a for a in game.chars(obj).abilities
                 if isinstance(a, Static) and getattr(a, "exert_option", False)), None)


def check_attackers(game: RulesContext, attackers: list[int], exert: list[int]) -> None:
    """Refuse an illegal declaration before anything happens (CR 508.1, 508.1g, 701.43d)."""
    state = game.state
    active = state.active
    objs = [game.obj(i) for i in attackers]
    if len(set(attackers)) != len(attackers):
        raise RulesError("a creature can be declared as an attacker only once", rule="508.1a")
    for obj in objs:
        name = game.describe(obj)
        chars = game.chars(obj)
        if obj.phased_out:
            raise RulesError(f"{name} is phased out: it is treated as though it doesn't exist",
                             rule="702.26b")
        if game.controller_of(obj) != active or not chars.is_a("Creature"):
            raise RulesError(f"{name} is not a creature {active} controls", rule="508.1a")
        if obj.tapped:
            raise RulesError(f"{name} is tapped, so it can't attack", rule="508.1a")
        if summoning_sick(game, obj):
            raise RulesError(f"{name} hasn't been under {active}'s control continuously since "
                             "their most recent turn began, so it can't attack", rule="302.6")
    for i in exert:
        if i not in attackers:
            raise RulesError(f"{game.describe(game.obj(i))} can be exerted only as it is declared "
                             "as an attacker: exerting it is an optional cost paid while "
                             "attackers are declared (CR 701.43d)", rule="508.1g")
        obj = game.obj(i)
        option = can_exert(game, obj)
        if option is None:
            raise RulesError(f"{game.describe(obj)} has no ability that lets it be exerted",
                             rule="701.43d")
        if getattr(option, "once_per_turn", False) and obj.exerted_turn == state.turn:
            raise RulesError(f"{game.describe(obj)} has already been exerted this turn, so its "
                             "ability doesn't let it be exerted again", rule="701.43")


def declare_attackers(game: RulesContext, attackers: list[int], exert: list[int],
                      parent: int | None) -> None:
    state = game.state
    active = state.active
    defender = state.opponents(active)[0]
    check_attackers(game, attackers, exert)
    objs = [game.obj(i) for i in attackers]
    # everything checked: declare (one turn-based action, CR 508.1)
    for obj in objs:
        chars = game.chars(obj)
        attacked = game.emit(p.Attacks(object=obj.id, defender=defender),
                             cause=Cause.ACTION, parent=parent, rules=("508.1",), subject=obj.id)
        assert attacked is not None
        if not chars.has_keyword("Vigilance"):
            game.emit(p.Tapped(object=obj.id), cause=Cause.RULE, parent=attacked.id,
                      rules=("508.1f",), subject=obj.id)
        if obj.id in exert:
            game.emit(p.Exerted(object=obj.id, player=active),
                      cause=Cause.ACTION, parent=attacked.id, rules=("508.1g", "701.43"),
                      subject=obj.id)
    game.note(p.Declared(declared="attackers", player=active, count=len(objs)),
              cause=Cause.RULE, parent=parent, rules=("508.1",))
    game.settle(parent)


def check_blockers(game: RulesContext, blocks: dict[int, int]) -> None:
    """Refuse an illegal declaration of blockers before anything happens (CR 509.1)."""
    state = game.state
    defender = state.opponents(state.active)[0]
    for blocker_id, attacker_id in blocks.items():
        blocker, attacker = game.obj(blocker_id), game.obj(attacker_id)
        if blocker.phased_out:
            raise RulesError(f"{game.describe(blocker)} is phased out: it is treated as though "
                             "it doesn't exist", rule="702.26b")
        if game.controller_of(blocker) != defender or not game.chars(blocker).is_a("Creature"):
            raise RulesError(f"{game.describe(blocker)} is not a creature {defender} controls",
                             rule="509.1a")
        if blocker.tapped:
            raise RulesError(f"{game.describe(blocker)} is tapped, so it can't block",
                             rule="509.1a")
        if not attacker.attacking:
            raise RulesError(f"{game.describe(attacker)} is not attacking", rule="509.1a")
        if game.chars(attacker).has_keyword("Flying") and not (
            game.chars(blocker).has_keyword("Flying") or game.chars(blocker).has_keyword("Reach")
        ):
            raise RulesError(f"{game.describe(attacker)} has flying; "
                             f"{game.describe(blocker)} can't block it", rule="702.9b")


def declare_blockers(game: RulesContext, blocks: dict[int, int], parent: int | None) -> None:
    check_blockers(game, blocks)
    for blocker_id, attacker_id in sorted(blocks.items()):
        game.emit(p.Blocks(object=blocker_id, attacker=attacker_id),
                  cause=Cause.ACTION, parent=parent, rules=("509.1",), subject=blocker_id)
    defender = game.state.opponents(game.state.active)[0]
    game.note(p.Declared(declared="blockers", player=defender, count=len(blocks)),
              cause=Cause.RULE, parent=parent, rules=("509.1",))
    game.settle(parent)


def combat_damage(game: RulesContext, parent: int) -> None:
    """Each attacking and blocking creature deals damage equal to its power (CR 510.1);
    trample assigns lethal to blockers and the rest to the player (702.19b)."""
    state = game.state
    defender = state.opponents(state.active)[0]
    attackers = [o for o in state.battlefield() if o.attacking]
    proposals: list[tuple[GameObject, int | str, int]] = []
    lifelink: dict[str, int] = {}
    blocking: dict[int, list[GameObject]] = {}
    for o in state.battlefield():
        if o.blocking is not None and game.chars(o).is_a("Creature"):
            blocking.setdefault(o.blocking, []).append(o)
    for attacker in attackers:
        chars = game.chars(attacker)
        if not chars.is_a("Creature"):
            continue
        power = max(chars.power or 0, 0)
        blockers = blocking.get(attacker.id, [])
        assignments: list[tuple[int | str, int]] = []
        if not blockers and attacker.blocked and not chars.has_keyword("Trample"):
            continue  # blocked, its blockers gone: no damage (CR 509.1h)
        if not blockers:
            assignments.append((defender, power))
        else:
            left = power
            for blocker in blockers:
                bchars = game.chars(blocker)
                lethal = max((bchars.toughness or 0) - blocker.damage, 0)
                give = min(left, lethal) if chars.has_keyword("Trample") else left
                assignments.append((blocker.id, give))
                left -= give
            if left and chars.has_keyword("Trample"):
                assignments.append((defender, left))
            for blocker in blockers:
                bpower = max(game.chars(blocker).power or 0, 0)
                if bpower:
                    proposals.append((blocker, attacker.id, bpower))
        for target, amount in assignments:
            if amount:
                proposals.append((attacker, target, amount))
    for src, _, amount in proposals:  # lifelink: its controller gains that much (CR 702.15b)
        if game.chars(src).has_keyword("Lifelink"):
            ctrl = game.controller_of(src)
            lifelink[ctrl] = lifelink.get(ctrl, 0) + amount
    batch: list[tuple[p.Payload, int | None]] = [
        (p.Damage(source=src.id, source_name=game.chars(src).name, target=tgt, amount=n), src.id)
        for src, tgt, n in proposals]
    if batch:
        game.emit_batch(batch, cause=Cause.TURN, parent=parent, rules=("510.2",))
    for player, amount in sorted(lifelink.items()):
        game.emit(p.LifeGained(player=player, amount=amount),
                  cause=Cause.RULE, parent=parent, rules=("702.15b",))
