"""What a player could try now: every concrete action a card offers, with its arguments.

An `Offer` is one action as `Game.perform` takes it (name and arguments) with words for it
("Tap for {G}", "Cast Grizzly Bears", "Attack and exert"). Offers are listed whether or not
the rules allow them now: `Game.legal_actions` keeps those `Game.check` allows, and the
sandbox shows every one with its verdict, the rule that forbids it included, before the click
(python-chess's `legal_moves` beside `push`; phase.rs's typed activation verdicts).

Choices that are part of the action are enumerated: each mana a mana ability could make,
each legal target, each permanent a cost could tap or sacrifice (a cost choice, not a target:
CR 601.2b, 602.2b), X = 0 and the largest X the pool pays. Everything else (which replacement
effect first, "you may"...) is a decision made while the action happens (`Game.decisions`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mtg_rulekit.core.mana import sort_types
from mtg_rulekit.engine.combat import can_exert
from mtg_rulekit.engine.keywords import flashback_cost
from mtg_rulekit.engine.targets import candidates
from mtg_rulekit.objects.abilities import Activated, ManaAbility, SpellAbility
from mtg_rulekit.objects.production import ProduceContext
from mtg_rulekit.objects.state import GameObject, Zone

if TYPE_CHECKING:
    from mtg_rulekit.objects.context import RulesContext


@dataclass(frozen=True)
class Offer:
    """One thing a player could try: `action` with `arguments` (as `Game.perform` takes
    them), `label` in plain words, the `object` whose menu it belongs to (None for passing
    and other actions of no card), and `cost` naming the permanent a cost taps or sacrifices
    (a cost choice, never called a target)."""

    label: str
    action: str
    arguments: dict[str, Any] = field(default_factory=dict)
    object: int | None = None
    player: str = ""
    cost: int | None = None
    base: str = ""  # the label without the target, the cost's permanent or X it was made for


def _symbols(mana: str) -> str:
    return "".join("{" + c + "}" for c in mana)


def _name(game: RulesContext, obj: GameObject | int) -> str:
    """Its name, with its id when another permanent has the same name."""
    obj = game.obj(obj)
    name = game.chars(obj).name
    same = [o for o in game.state.battlefield() if game.chars(o).name == name]
    return name if len(same) <= 1 else game.describe(obj)


def _target_words(game: RulesContext, target: Any) -> str:
    return target if isinstance(target, str) else _name(game, target)


def _cost_choices(game: RulesContext, obj: GameObject, ab: Activated,
                  player: str) -> list[tuple[dict[str, Any], str, int | None]]:
    """The ways to pay the parts of the cost that choose a permanent (CR 602.2b): one per
    untapped creature a "tap an untapped creature you control" cost could tap, one per
    permanent a "sacrifice a ..." cost could sacrifice (arguments, words, that permanent)."""
    cost = ab.cost
    mine = [o for o in game.state.battlefield() if game.controller_of(o) == player]
    if cost.tap_other:
        pool = [o for o in mine if game.chars(o).is_a("Creature") and not o.tapped]
        if pool:
            return [({"tap": o.id}, f", tapping {_name(game, o)}", o.id) for o in pool]
    elif cost.sacrifice:
        kind = cost.sacrifice
        pool = [o for o in mine if kind in game.chars(o).subtypes or kind in game.chars(o).types]
        if pool:
            return [({"sacrifice": o.id}, f", sacrificing {_name(game, o)}", o.id)
                    for o in pool]
    return [({}, "", None)]


def _x_values(game: RulesContext, player: str, fixed: int) -> list[int]:
    """X = 0 and the largest X the pool could pay on top of `fixed` mana (CR 107.3)."""
    most = game.state.players[player].pool.total - fixed
    return [0, most] if most > 0 else [0]


def ability_offers(game: RulesContext, obj: GameObject) -> list[Offer]:
    """Each activated ability of a permanent, once per mana it could make, target and cost
    choice."""
    out: list[Offer] = []
    player = game.controller_of(obj)
    for index, ab in enumerate(game.chars(obj).abilities):
        if not isinstance(ab, Activated):
            continue
        base = {"object": obj.id, "ability": index}
        xs = [1] if ab.cost.has_x else [None]
        for x in xs:
            with_x = dict(base, **({"x": x} if x is not None else {}))
            for paid, paid_words, paid_with in _cost_choices(game, obj, ab, player):
                args = dict(with_x, **paid)
                if isinstance(ab, ManaAbility):
                    out += _mana_offers(game, obj, ab, player, args, paid_words, paid_with, x)
                    continue
                words = f"Activate: {ab.text}{paid_words}"
                plain = f"Activate: {ab.text}"
                if ab.target is None:
                    out.append(Offer(words, "activate", args, obj.id, player, paid_with, plain))
                    continue
                found = candidates(game, obj.id, ab.target)
                for t in found:
                    out.append(Offer(f"{words}, targeting {_target_words(game, t)}", "activate",
                                     dict(args, targets=[t]), obj.id, player, paid_with, plain))
                if not found:
                    out.append(Offer(f"{words} (no legal target)", "activate", args, obj.id,
                                     player, paid_with))
    return out


def _mana_offers(game: RulesContext, obj: GameObject, ab: ManaAbility, player: str,
                 args: dict[str, Any], paid_words: str, paid_with: int | None,
                 x: int | None) -> list[Offer]:
    """A mana ability once per mana it could make now (CR 106.7), or once if it would make
    none (its type undefined, CR 106.5)."""
    assert ab.production is not None
    ctx = ProduceContext(game, obj, player, game.could_produce, x=x or 0)
    made = list(dict.fromkeys("".join(t.value for t in sort_types(o)) for o in
                              ab.production.options(ctx)))
    cost = ab.cost  # "Tap for {G}" when the rest of the cost is said by `paid_words`
    plain = cost.tap and cost.mana.is_free() and not (cost.sacrifice_self or cost.untap
                                                      or cost.remove_counters or cost.exert)
    lead = "Tap for" if plain else f"{ab.cost.text}: add"
    if not made or made == [""]:
        return [Offer(f"{lead} mana{paid_words} (it can't make any now)" if plain else
                      f"{ab.cost.text}: {ab.text}{paid_words}", "activate", args, obj.id,
                      player, paid_with)]
    return [Offer(f"{lead} {_symbols(m)}{paid_words}", "activate",
                  dict(args, mana=m) if len(made) > 1 else args, obj.id, player, paid_with,
                  f"{lead} {_symbols(m)}") for m in made]


def card_offers(game: RulesContext, obj: GameObject) -> list[Offer]:
    """A card in a hand: play it (a land) or cast it, once per legal target and X; a card in
    a graveyard with flashback: cast it from there (CR 702.34a)."""
    chars = game.chars(obj)
    player = obj.owner
    if obj.zone is Zone.HAND and chars.is_a("Land"):
        return [Offer(f"Play {chars.name}", "play_land", {"object": obj.id}, obj.id, player)]
    cost = chars.mana_cost
    if obj.zone is Zone.GRAVEYARD:
        flashback = flashback_cost(chars)
        if flashback is None:
            return []
        cost = flashback
    elif obj.zone is not Zone.HAND:
        return []
    lead = f"Cast {chars.name}" + (" with flashback" if obj.zone is Zone.GRAVEYARD else "")
    xs: list[int | None] = list(_x_values(game, player, cost.with_x(0).mana_value())) \
        if cost.x_count else [None]
    spell = next((a for a in chars.abilities if isinstance(a, SpellAbility)), None)
    out = []
    for x in xs:
        args: dict[str, Any] = {"object": obj.id}
        words = lead
        if x is not None:
            args["x"], words = x, f"{lead} with X={x}"
        if spell is None or spell.target is None:
            out.append(Offer(words, "cast", args, obj.id, player, base=lead))
            continue
        found = candidates(game, obj.id, spell.target)  # "you": the card's owner casts it
        out += [Offer(f"{words}, targeting {_target_words(game, t)}", "cast",
                      dict(args, targets=[t]), obj.id, player, base=lead) for t in found]
        if not found:
            out.append(Offer(f"{words} (no legal target)", "cast", args, obj.id, player))
    return out


def combat_offers(game: RulesContext, obj: GameObject) -> list[Offer]:
    """A creature in combat: its controller's "Attack" (and "Attack and exert" if it may be
    exerted, CR 701.43); for the defending player's creatures, "Block" each attacker."""
    if not game.chars(obj).is_a("Creature"):
        return []
    state = game.state
    player = game.controller_of(obj)
    if player == state.active:
        out = [Offer("Attack", "declare_attackers", {"attackers": [obj.id]}, obj.id, player)]
        if can_exert(game, obj) is not None:
            out.append(Offer("Attack and exert", "declare_attackers",
                             {"attackers": [obj.id], "exert": [obj.id]}, obj.id, player))
        return out
    attackers = [o for o in state.battlefield() if o.attacking]
    return [Offer(f"Block {_name(game, a)}", "declare_blockers",
                  {"blocks": {obj.id: a.id}}, obj.id, player) for a in attackers]


def object_offers(game: RulesContext, obj: GameObject | int) -> list[Offer]:
    """Everything the object offers now: abilities and combat on the battlefield, casting or
    playing it from a hand (or a graveyard, with flashback)."""
    obj = game.obj(obj)
    if obj.zone is Zone.BATTLEFIELD:
        if obj.phased_out:
            return []
        return ability_offers(game, obj) + combat_offers(game, obj)
    return card_offers(game, obj)


def turn_offers(game: RulesContext, player: str) -> list[Offer]:
    """The actions of no card: passing priority and the time shortcuts (all players pass
    until...), declaring no attackers or no blockers."""
    state = game.state
    out = [Offer("Pass priority", "pass_priority", {}, None, player)]
    if state.stack:
        out.append(Offer("Resolve the top of the stack", "resolve", {}, None, player))
    out += [Offer("Go to the next step", "advance", {}, None, player),
            Offer("Go to the next turn", "next_turn", {}, None, player)]
    if state.awaiting_attackers and player == state.active:
        out.append(Offer("Declare no attackers", "declare_attackers", {}, None, player))
    if state.awaiting_blockers and player != state.active:
        out.append(Offer("Declare no blockers", "declare_blockers", {"blocks": {}}, None,
                         player))
    return out


def player_offers(game: RulesContext, player: str) -> list[Offer]:
    """Every offer of `player`'s: their permanents' abilities and attacks or blocks, the
    cards in their hand (and flashback cards in their graveyard), then the turn's actions
    (these only when they have priority or a declaration is theirs to make)."""
    state = game.state
    out: list[Offer] = []
    for obj in sorted(state.battlefield(), key=lambda o: o.id):
        if game.controller_of(obj) == player:
            out += object_offers(game, obj)
    for zone in (Zone.HAND, Zone.GRAVEYARD):
        for obj in sorted(state.owned_in(zone, player), key=lambda o: o.id):
            out += card_offers(game, obj)
    declares = (state.awaiting_attackers and player == state.active) or \
        (state.awaiting_blockers and player != state.active)
    if state.priority == player or declares:
        out += turn_offers(game, player)
    return out
