"""Copy effects (CR 707): layer 1, copiable values only.

An object's copiable values are `obj.copiable or obj.card.printed`: what is printed on a card,
or what a token's creating effect stated (ruling R18), or — for an object that is itself a copy —
what it copies, with that copy effect's exceptions (CR 707.3, 707.9a-b; ruling R15). A copy never
takes status (tapped, attacking, crewed), counters, Auras or Equipment, or non-copy effects
(CR 707.2; ruling R19): those live on the original object, not in its copiable values.

Decisions: ``copy`` — which creature a Clone copies (default: the creature on the battlefield with
the lowest id; answer ``"no"`` to decline).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mtg_rulekit.core import payloads as p
from mtg_rulekit.core.errors import RulesError
from mtg_rulekit.core.events import Cause, Event, EventKind
from mtg_rulekit.objects.abilities import Keyword, Static
from mtg_rulekit.objects.replacement import ReplacementEffect
from mtg_rulekit.objects.state import Zone

if TYPE_CHECKING:
    from mtg_rulekit.core.characteristics import Characteristics
    from mtg_rulekit.objects.context import RulesContext
    from mtg_rulekit.objects.resolution import Resolution
    from mtg_rulekit.objects.state import GameObject

HASTE = Keyword(text="Haste", keyword="Haste")  # "except it has haste" (Kiki-Jiki)


def copiable_values(game: RulesContext, obj: GameObject) -> Characteristics:
    """What a copy of `obj` becomes (CR 707.2, 707.3): never its status or other effects."""
    return obj.copiable or obj.card.printed


def with_exceptions(values: Characteristics, *, haste: bool = False,
                    nonlegendary: bool = False) -> Characteristics:
    """A copy effect's exceptions become part of the copy's copiable values: an ability it
    gains (haste, CR 707.9a), a characteristic it changes (not legendary, 707.9b)."""
    if haste and not values.has_keyword("Haste"):
        values = values.evolve(abilities=values.abilities + (HASTE,))
    if nonlegendary and "Legendary" in values.supertypes:
        values = values.evolve(supertypes=tuple(s for s in values.supertypes if s != "Legendary"))
    return values


def entering_values(game: RulesContext, data: p.Entered | p.TokenCreated) -> Characteristics:
    """The copiable values an object will have as it enters (CR 614.12): a copy effect already
    applied to the event, else the token definition, else the object as it is now."""
    if data.copiable is not None:
        return data.copiable
    if isinstance(data, p.TokenCreated):
        return game.card(data.card).printed
    assert data.object is not None
    return game.chars(game.state.objects[data.object])


def create_token_copy(res: Resolution, original: GameObject, *, tapped: bool = False,
                      attacking: bool = False, haste: bool = False) -> Event | None:
    """Create a token that's a copy of `original` (CR 707.2, 111.1). How it enters (tapped,
    attacking) is this effect's, not part of what is copied (ruling R09); a noncreature copy
    can't be put onto the battlefield attacking (CR 508.4)."""
    game = res.game
    values = with_exceptions(copiable_values(game, original), haste=haste)
    rules = ("707.2", "111.1") + (("707.9a",) if haste else ()) + (
        ("508.4",) if attacking else ())
    return res.create_token(values.name, tapped=tapped,
                            attacking=attacking and values.is_a("Creature"), copiable=values,
                            copy_text=game.describe(original), rules=rules)


def copy_spell(res: Resolution, spell: GameObject, *, nonlegendary: bool = False) -> Event | None:
    """Put a copy of a spell on the stack (CR 707.10): same copiable values, X and targets; it
    isn't cast; a copy of a permanent spell becomes a token as it resolves (CR 707.10f)."""
    game = res.game
    original = copiable_values(game, spell)
    values = with_exceptions(original, nonlegendary=nonlegendary)
    new, item_id = game.new_id(), game.new_id()
    return game.emit(p.SpellCopied(
        object=spell.id, new=new, item_id=item_id, controller=res.controller,
        name=game.describe(spell), copiable=values, x=spell.x, targets=tuple(spell.targets),
        nonlegendary=values.supertypes != original.supertypes),
        cause=Cause.ABILITY, parent=res.parent, rules=("707.10", "707.10f"), subject=spell.id)


def enter_as_copy(text: str, *, name: str) -> Static:
    """"You may have this creature enter as a copy of any creature on the battlefield" (Clone):
    a replacement effect on its entering (CR 707.5, 614.1c), applied before others (616.1c).
    The copied object's own "as enters" / "enters with" effects then apply too, with new
    choices, and X = 0 (ruling R13)."""

    def make(game: RulesContext, obj: GameObject | None, data: Any) -> list[ReplacementEffect]:
        kind = EventKind.TOKEN_CREATED if obj is None else EventKind.ZONE_CHANGED
        controller = data.controller or (obj.owner if obj is not None else "")
        return [ReplacementEffect(
            name=name, source=obj.id if obj is not None else None, controller=controller,
            kind=kind, applies=lambda g, d: any(
                g.chars(o).is_a("Creature") for o in g.state.battlefield()),
            apply=lambda g, d: _become_copy(g, d), rules=("707.5", "614.1c", "616.1c"))]

    return Static(text=text, self_etb=make, rules=("707.5",))


def _become_copy(game: RulesContext, data: Any) -> Any:
    creatures = sorted((o for o in game.state.battlefield() if game.chars(o).is_a("Creature")),
                       key=lambda o: o.id)
    pick = game.decide("copy", creatures[0].id if creatures else None, data.controller)
    if pick in (None, False, "no", "none"):
        return data.replace(copy_declined=True)
    target = game.state.objects.get(int(str(pick).lstrip("#")))
    if target is None or target.zone is not Zone.BATTLEFIELD or not game.chars(target).is_a(
            "Creature"):
        raise RulesError(f"{game.target_text(pick)} is not a creature on the battlefield, so it "
                         "can't be copied", rule="707.5")
    return data.replace(copiable=copiable_values(game, target), copy_text=game.describe(target))
