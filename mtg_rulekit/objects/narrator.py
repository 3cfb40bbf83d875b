"""The narrator: the one place that turns events into English.

Every view (tables, diagrams, the CLI, the sandbox's messages, screen-reader text) shows the
words written here; none of them composes event text or reads it back. `narrate` is called
once, when the event is committed, with `Names` for the objects involved as they are then; the
event keeps the result as its `text`. The words read well aloud: "Glory-Bound Initiate's 'when
you do' ability resolves: it gets +1/+3 and lifelink until end of turn".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any, Protocol

from mtg_rulekit.core import payloads as p
from mtg_rulekit.core.characteristics import AbilityKind
from mtg_rulekit.core.events import Event, EventKind
from mtg_rulekit.core.mana import Mana, pool_text, shown, spent_text
from mtg_rulekit.objects.state import StackItem, Step


class Names(Protocol):
    """How the narrator names objects: as the game sees them when the event is committed."""

    def describe(self, obj: int) -> str:
        """`Llanowar Elves (#3)`."""
        ...

    def name(self, obj: int) -> str:
        """`Llanowar Elves`."""
        ...


Narration = Callable[[Any, Names], str]
_NARRATIONS: dict[type[p.Payload], Narration] = {}


def says(cls: type[p.Payload]) -> Callable[[Narration], Narration]:
    """Decorator: the words of payloads of type `cls` and of its variants (`payloads.variant`)."""
    def register(fn: Narration) -> Narration:
        for each in (cls, *(v for v in p.VARIANTS.get(cls.kind, []) if issubclass(v, cls))):
            _NARRATIONS[each] = fn
        return fn

    return register


def narrate(payload: p.Payload, names: Names) -> str:
    """The event's words."""
    return _NARRATIONS[type(payload)](payload, names)


def prevented(effect: str, kind: str) -> str:
    """A replacement effect kept an event from happening (CR 615)."""
    return f"{effect} prevents this {kind.replace('_', ' ')} event"


def _count(n: int, thing: str) -> str:
    """`1 attacker`, `2 attackers`, `0 attackers`: said aloud, never "attacker(s)"."""
    return f"{n:,} {thing}" + ("" if n == 1 else "s")


def _clause(text: str, name: str = "") -> str:
    """A sentence as a clause: no trailing period, its first letter lower-case unless it starts
    with a name (`name`, the source's)."""
    text = text.strip().rstrip(".")
    if name and text.startswith(name):
        return text
    return text[:1].lower() + text[1:]


_LONG_CONDITION = 8
"""A trigger condition longer than this many words is named as players say it ("Slagstone
Refinery's trigger"), not quoted in full; the full text stays in the tooltips."""


def _parts(ability: str, kind: AbilityKind | None, name: str = "") -> tuple[str, str]:
    """An ability's text split for reading aloud, by its kind (`AbilityKind`): (how to name
    it, what it does). A triggered ability is named by its condition ("When ..., effect"), an
    activated one says only its effect (the cost is not what resolves), a keyword ability its
    keyword ("ward {2} ability")."""
    text = ability.strip()
    if kind is AbilityKind.TRIGGERED:
        head, sep, effect = text.partition(", ")
        if sep:
            if len(head.split()) > _LONG_CONDITION:
                return "trigger", _clause(effect, name)
            return f"'{_clause(head)}' ability", _clause(effect, name)
    if kind is AbilityKind.ACTIVATED:
        _cost, sep, effect = text.partition(": ")
        if sep:
            return "ability", _clause(effect, name)
    if text and "." not in text and ":" not in text and len(text.split()) <= 4:  # "Ward {2}"
        return f"{text[:1].lower()}{text[1:]} ability", ""
    return "ability", _clause(text, name)


def stack_object(kind: str, source_name: str, ability: str, text: str,
                 ability_kind: AbilityKind | None = None) -> str:
    """A spell or ability on the stack, named as one says it aloud: `Lightning Bolt`,
    `Glory-Bound Initiate's 'when you do' ability`, `Tolarian Terror's ward {2} ability`."""
    if kind == "spell":
        return text
    return f"{source_name}'s {_parts(ability, ability_kind)[0]}"


def named_short(ability: str, kind: AbilityKind | None) -> bool:
    """Whether the narrator names this ability short ("Slagstone Refinery's trigger")."""
    return _parts(ability, kind)[0] == "trigger"


def ability_in_full(e: p.Payload) -> str:
    """The whole text of an ability the event names short ("Slagstone Refinery's trigger"),
    for tooltips; "" when its name already says it."""
    if not isinstance(e, (p.PutOnStack, p.Resolved)) or not e.ability:
        return ""
    if _parts(e.ability, e.ability_kind)[0] != "trigger":
        return ""
    return f"{e.source_name}'s trigger: {e.ability}"


def item_name(item: StackItem) -> str:
    """`stack_object` of a stack item."""
    ab = item.ability
    return stack_object(item.kind, item.source_name, ab.text if ab is not None else "",
                        item.text, ab.family if ab is not None else None)


def ability_resolves(source_name: str, ability: str, kind: AbilityKind | None) -> str:
    """`<source>'s '<trigger>' ability resolves: <effect>` for a triggered ability,
    `<source>'s ability resolves: <effect>` for an activated one."""
    name, effect = _parts(ability, kind, source_name)
    return f"{source_name}'s {name} resolves" + (f": {effect}" if effect else "")


# ------------------------------------------------------------------ actions and time
def action_text(a: p.Action) -> str:
    """A player's action (the root of what it caused), in words."""
    who = a.player or "The game"
    match a:
        case p.ForPlayer(action="add"):
            return f"Set-up: {a.card} into {a.for_player}'s {a.zone and a.zone.value}"
        case p.ForPlayer(action="set_life"):
            return f"Set-up: {a.for_player}'s life total is {a.life}"
        case p.ForPlayer(action="set_pool"):
            return f"Set-up: mana in {a.for_player}'s pool"
        case p.ForPlayer(action="gain_control"):
            return f"{a.for_player} gains control of {a.card}"
        case p.Played():
            return f"{who} plays {a.card}"
        case p.Casting():
            xs = f" with X={a.x}" if a.x is not None else ""
            fb = " with flashback from the graveyard" if a.flashback else ""
            return f"{who} casts {a.card}{xs}{fb}"
        case p.Activating(mana=True):
            return f"{who} {'taps' if a.taps else 'activates'} {a.card} for mana: {a.ability}"
        case p.Activating():
            return f"{who} activates {a.card}: {a.ability}"
        case p.Passing(action="resolve"):
            return f"All players pass: {a.item} resolves"
        case p.Passing(action="advance"):
            return f"All players pass until {a.until}"
        case p.AtOnce():
            names = ", ".join(a.objects[:5]) + (" ..." if a.count > 5 else "")
            return f"{a.action.capitalize()} {_count(a.count, 'permanent')} at once: {names}"
    match a.action:
        case "set_turn":
            return "Set-up: turn and step"
        case "pass_priority":
            return f"{who} passes priority"
        case "next_turn":
            return "All players pass until the next turn's main phase"
        case "declare_attackers":
            return f"{who} declares attackers"
        case "declare_blockers":
            return f"{who} declares blockers"
    return f"{who}: {a.action.replace('_', ' ')}"


@says(p.Action)
def _action(a: p.Action, names: Names) -> str:
    return action_text(a)


@says(p.TurnBegan)
def _turn_began(e: p.TurnBegan, names: Names) -> str:
    return f"Turn {e.turn} begins: {e.player} is the active player"


@says(p.StepBegan)
def _step_began(e: p.StepBegan, names: Names) -> str:
    return f"{e.active}'s {Step(e.step).label} begins (turn {e.turn})"


@says(p.Priority)
def _priority(e: p.Priority, names: Names) -> str:
    if e.all:
        return f"All players pass priority in turn ({', '.join(e.all)})"
    return f"{e.player} passes priority"


@says(p.ManaEmptied)
def _mana_emptied(e: p.ManaEmptied, names: Names) -> str:
    return f"{e.player}'s unspent mana {spent_text(e.lost)} empties from their pool"


@says(p.ExtraCombat)
def _extra_combat(e: p.ExtraCombat, names: Names) -> str:
    return "After this combat phase, there is an additional combat phase"


@says(p.Declared)
def _declared(e: p.Declared, names: Names) -> str:
    if not e.count:
        return f"{e.player} declared no {e.declared}"
    return f"{e.player} declared {_count(e.count, e.declared[:-1])}"


@says(p.Lost)
def _lost(e: p.Lost, names: Names) -> str:
    return f"{e.player} loses the game ({_LOSES[e.reason]})"


_LOSES = {"life": "0 or less life"}  # why a player loses (payloads.Lost.reason)


# ------------------------------------------------------------------ permanents
@says(p.Tapped)
def _tapped(e: p.Tapped, names: Names) -> str:
    return f"{names.describe(e.object)} becomes tapped"


@says(p.Phased)
def _phased(e: p.Phased, names: Names) -> str:
    how = " with what it is attached to" if e.indirectly else ""
    if e.phased_in:
        return (f"{names.describe(e.object)} phases in{how}: the same permanent as before, "
                "never having left the battlefield")
    return (f"{names.describe(e.object)} phases out{how}: until it phases in, it is treated as "
            "though it doesn't exist")


@says(p.Untapped)
def _untapped(e: p.Untapped, names: Names) -> str:
    return f"{names.describe(e.object)} becomes untapped"


@says(p.UntapSkipped)
def _untap_skipped(e: p.UntapSkipped, names: Names) -> str:
    if e.expired:
        return (f"{names.describe(e.object)} is already untapped: exert's effect ends having "
                "done nothing")
    why = e.ability or ("exert's effect ends: another player controls it now" if e.moved
                        else "it was exerted")
    return f"{names.describe(e.object)} doesn't untap ({why})"


@says(p.Exerted)
def _exerted(e: p.Exerted, names: Names) -> str:
    return (f"{e.player} exerts {names.describe(e.object)}: it won't untap during their next "
            "untap step")


@says(p.CountersPut)
def _counters_put(e: p.CountersPut, names: Names) -> str:
    return f"{_count(e.n, e.counter + ' counter')} put on {names.describe(e.object)}"


@says(p.CountersRemoved)
def _counters_removed(e: p.CountersRemoved, names: Names) -> str:
    return f"{_count(e.n, e.counter + ' counter')} removed from {names.describe(e.object)}"


@says(p.Damage)
def _damage(e: p.Damage, names: Names) -> str:
    target = e.target if isinstance(e.target, str) else names.describe(e.target)
    return f"{e.source_name} deals {e.amount} damage to {target}"


@says(p.LifeGained)
def _life_gained(e: p.LifeGained, names: Names) -> str:
    return f"{e.player} gains {e.amount} life"


@says(p.LifeLost)
def _life_lost(e: p.LifeLost, names: Names) -> str:
    if e.paid_for:  # CR 119.4: the payment is a loss of life
        return f"{e.player} pays {e.amount} life for {e.paid_for}, so loses {e.amount} life"
    return f"{e.player} loses {e.amount} life"


@says(p.Attacks)
def _attacks(e: p.Attacks, names: Names) -> str:
    return f"{names.describe(e.object)} attacks {e.defender}"


@says(p.Blocks)
def _blocks(e: p.Blocks, names: Names) -> str:
    return f"{names.describe(e.object)} blocks {names.describe(e.attacker)}"


@says(p.ControlChanged)
def _control_changed(e: p.ControlChanged, names: Names) -> str:
    return f"{e.player} now controls {names.describe(e.object)}"


@says(p.Attached)
def _attached(e: p.Attached, names: Names) -> str:
    to = names.describe(e.to) if e.to else "nothing"
    return f"{names.describe(e.object)} becomes attached to {to}"


@says(p.EffectBegan)
def _effect_began(e: p.EffectBegan, names: Names) -> str:
    return f"Effect begins: {e.effect_text}"


@says(p.EffectEnded)
def _effect_ended(e: p.EffectEnded, names: Names) -> str:
    return f"Effect ends: {e.effect_text}"


# ------------------------------------------------------------------ mana
@says(p.ManaAdded)
def _mana_added(e: p.ManaAdded, names: Names) -> str:
    return f"{e.player} adds {pool_text(e.mana)} from {e.source_name}"


@says(p.ManaSpent)
def _mana_spent(e: p.ManaSpent, names: Names) -> str:
    text = f"{e.player} spends {spent_text(e.mana)} on {spending_text(e.purpose)}"
    return text + (": that spell can't be countered" if e.uncounterable is not None else "")


# ------------------------------------------------------------------ zones
_STEPS = {s.value for s in Step}
_MOVES = {"destroy": "is destroyed", "sacrifice": "is sacrificed", "exile": "is exiled",
          "bounce": "returns to its owner's hand", "sba": "is put into its owner's graveyard",
          "dies": "dies"}


@says(p.ZoneChanged)
def _zone_changed(e: p.ZoneChanged, names: Names) -> str:
    if isinstance(e, p.SetUp) and e.setup:
        assert e.new is not None
        if e.destination == "battlefield":
            tapped = " tapped" if e.tapped else ""
            return (f"Set-up: {e.card} (#{e.new}) is put onto the battlefield{tapped} under "
                    f"{e.controller}'s control")
        return f"Set-up: {e.card} (#{e.new}) is put into the {e.destination.value} ({e.owner})"
    assert e.object is not None
    old = names.describe(e.object)
    if e.flashback:
        return f"{old} is exiled instead (it was cast with flashback)"
    match (e.reason, e.destination):
        case ("play", _):
            return f"{names.name(e.object)} enters the battlefield (land play)"
        case ("resolve", "battlefield"):
            x = f" (its spell had X={e.etb_x})" if isinstance(e, p.Entered) and e.x_cost else ""
            return f"{names.name(e.object)} enters the battlefield{x}"
        case ("resolve" | "countered", "graveyard"):
            return f"{old} is put into its owner's graveyard"
        case ("resolve" | "countered", "exile"):  # a replacement effect (Rest in Peace)
            return f"{old} is exiled instead of going to its owner's graveyard"
        case ("destroy" | "sacrifice" as reason, "exile"):
            return f"{old} {_MOVES[reason]}, and is exiled instead of going to the graveyard"
        case ("sba" | "dies", "exile"):
            return f"{old} would be put into its owner's graveyard, and is exiled instead"
        case ("draw", _):
            return f"{e.player} draws a card"
        case ("discard", _):
            return f"{e.player} discards {old}"
        case ("exile", _) if e.by:
            return f"{old} is exiled by {e.by}"
        case ("return", _):
            return f"{old} returns to the battlefield under {e.controller}'s control"
        case ("cipher", _):
            return f"{names.name(e.object)} is exiled encoded on {e.by}"
        case ("token", _):
            return f"{'Token' if e.token else 'Spell copy'} {old} ceases to exist"
        case (reason, _) if reason in _MOVES:
            return f"{old} {_MOVES[reason]}"
        case (reason, _) if reason:
            return f"{old} moves ({reason})"
    return f"{old} moves from {e.origin.value} to {e.destination.value} (now #{e.new})"


@says(p.TokenCreated)
def _token_created(e: p.TokenCreated, names: Names) -> str:
    assert e.new is not None
    how = [w for w, on in (("tapped", e.tapped), ("attacking", e.attacking)) if on]
    how_text = f" {' and '.join(how)}" if how else ""
    copy = f", a copy of {e.copy_text}" if e.copy_text else ""
    return f"{e.controller} creates a{how_text} {names.name(e.new)} token (#{e.new}){copy}"


@says(p.Drew)
def _drew(e: p.Drew, names: Names) -> str:
    return (f"{e.player} can't draw: the library is empty (in a real game they would lose; "
            "the kit plays on)")


# ------------------------------------------------------------------ stack
@says(p.Cast)
def _cast(e: p.Cast, names: Names) -> str:
    xs = f" with X={e.x}" if e.x_cost else ""
    return f"{e.card} is put on the stack{xs}"


@says(p.Activated)
def _activated(e: p.Activated, names: Names) -> str:
    if e.mana_ability:
        return f"{e.source}'s mana ability is activated"
    return f"{e.source}'s ability goes on the stack"


@says(p.ManaAbilityResolved)
def _mana_ability(e: p.ManaAbilityResolved, names: Names) -> str:
    return f"{e.source}'s mana ability resolves at once, without the stack"


@says(p.Triggered)
def _triggered(e: p.Triggered, names: Names) -> str:
    if e.removed:
        return f"{e.source_name}'s ability has no legal target and is removed"
    return f"{e.source_name} triggers: {e.ability}"


@says(p.PutOnStack)
def _put_on_stack(e: p.PutOnStack, names: Names) -> str:
    targets = f" targeting {e.targets}" if e.targets else ""
    named = stack_object("ability", e.source_name, e.ability, "", e.ability_kind) if e.ability \
        else f"{e.source_name}'s triggered ability"
    for_what = f" for {e.for_what}" if e.for_what else ""
    return f"{named}{for_what} goes on the stack{targets}"


@says(p.Resolved)
def _resolved(e: p.Resolved, names: Names) -> str:
    if e.item_kind == "spell":
        return f"{e.text} resolves"
    return ability_resolves(e.source_name, e.ability, e.ability_kind)


@says(p.Countered)
def _countered(e: p.Countered, names: Names) -> str:
    return f"{e.text} is countered"


@says(p.Fizzled)
def _fizzled(e: p.Fizzled, names: Names) -> str:
    return f"{e.text} doesn't resolve: its target is no longer legal"


@says(p.Targeted)
def _targeted(e: p.Targeted, names: Names) -> str:
    return f"{e.target} becomes the target of {e.by} ({e.controller})"


@says(p.DelayedCreated)
def _delayed_created(e: p.DelayedCreated, names: Names) -> str:
    return (f"{e.source_name} sets up a delayed trigger: at the beginning of the next "
            f"{Step(e.step).label}, {_clause(e.ability, e.source_name)}")


@says(p.SpellCopied)
def _spell_copied(e: p.SpellCopied, names: Names) -> str:
    if e.cast:
        return f"{e.controller} casts a copy of {e.name} without paying its mana cost"
    x = f" (X={e.x})" if e.x else ""
    legend = ", except it isn't legendary" if e.nonlegendary else ""
    return f"{e.controller} puts a copy of {e.name} on the stack{x}{legend}"


# ------------------------------------------------------------------ explanations
def spending_text(s: p.Spending) -> str:
    """What a payment is for, in words: "casting Glory-Bound Initiate", "ward {2}", "Mana
    Leak's {3} for Grizzly Bears", "Mana Vault's upkeep ability"."""
    match s.paying:
        case p.Paying.CAST:
            return f"casting {s.source}"
        case p.Paying.ABILITY:
            return f"{s.source}'s ability"
        case p.Paying.WARD:
            return f"ward {s.cost}"
        case p.Paying.UNLESS:
            return f"{s.source}'s {s.cost} for {s.spell}"
        case p.Paying.UPKEEP:
            return f"{s.source}'s upkeep ability"


def _cant_pay(e: Any, names: Names) -> str:
    what = spending_text(e.spending) if e.spending is not None else "it"
    return f"{e.player} doesn't pay {e.cost} ({what})"


REASONS: dict[p.Reason, Narration] = {
    p.Reason.CLEANUP_PRIORITY: lambda e, names: (
        f"{e.player} gets priority in the cleanup step: something happened in it, so players "
        "may act, and another cleanup step follows"),
    p.Reason.WARD_GONE: lambda e, names: "Ward: what targeted it has already left the stack",
    p.Reason.CANT_BE_COUNTERED: lambda e, names: f"{e.name} can't be countered, so it isn't",
    p.Reason.UNDEFINED_MANA: lambda e, names: (
        f"{e.name} would add mana of an undefined type, so it adds no mana"),
    p.Reason.NO_MANA: lambda e, names: (
        f"{e.name}'s ability makes zero mana right now, so it adds nothing (and there is no "
        "type of mana it could produce)"),
    p.Reason.NOT_ENCODED: lambda e, names: (
        f"{e.name} is no longer encoded: there is nothing to copy"),
    p.Reason.COPY_NO_TARGET: lambda e, names: (
        f"a copy of {e.name} has no legal target, so it can't be cast"),
    p.Reason.CONDITION_FALSE: lambda e, names: (
        f"{e.name}'s ability does nothing: {e.condition or 'its condition'} is no longer true"),
    p.Reason.TOKEN_GONE: lambda e, names: (
        "The token is gone or under another player's control: nothing is sacrificed"),
    p.Reason.SOURCE_LEFT: lambda e, names: (
        f"{e.name} has already left the battlefield, so {names.describe(e.object)} isn't "
        "exiled"),
    p.Reason.DOESNT_PAY: _cant_pay,
    p.Reason.DOESNT_ENCODE: lambda e, names: (
        f"{e.player} doesn't encode {e.name} on a creature (cipher)"),
    p.Reason.DOESNT_CAST_COPY: lambda e, names: f"{e.player} doesn't cast a copy of {e.name}",
}
"""The words of every `payloads.Reason` a note or a choice carries (checked complete as the
narrator is imported)."""


@says(p.Note)
def _note(e: p.Note, names: Names) -> str:
    return REASONS[e.reason](e, names)


@says(p.Choice)
def _choice(e: p.Choice, names: Names) -> str:
    return REASONS[e.reason](e, names)


def unfit_text(u: p.Unattachable) -> str:
    """Why a permanent can't be attached there, in words (a refusal's and a state-based
    action's)."""
    match u.why:
        case p.Unfit.NOTHING:
            return "attached to nothing"
        case p.Unfit.HOST_GONE:
            return f"{u.host} is not on the battlefield"
        case p.Unfit.ITSELF:
            return f"{u.name} can't be attached to itself"
        case p.Unfit.CANT_ATTACH:
            return (f"{u.name} is not an Aura, Equipment or Fortification, so it can't be "
                    "attached to anything")
        case p.Unfit.NOT_CREATURE:
            return f"Equipment can be attached only to a creature, and {u.host} isn't one"
        case p.Unfit.NOT_LAND:
            return f"a Fortification can be attached only to a land, and {u.host} isn't one"
        case p.Unfit.CANT_ENCHANT:
            return f"{u.name} can't enchant {u.host}: its ability says '{u.enchant}'"


_DOOMS = {p.Doom.TOUGHNESS: "toughness 0 or less", p.Doom.LETHAL_DAMAGE: "lethal damage",
          p.Doom.AURA_UNATTACHED: "Aura not attached to anything",
          p.Doom.LEGEND_RULE: "legend rule"}


def _doom(why: p.Doom, d: p.Dying) -> str:
    if why is p.Doom.ILLEGALLY_ATTACHED and d.problem is not None:
        return unfit_text(d.problem)
    return _DOOMS[why]


@says(p.StateBasedActions)
def _sba(e: p.StateBasedActions, names: Names) -> str:
    why = "; ".join(f"{names.describe(d.object)}: {' and '.join(_doom(w, d) for w in d.why)}"
                    for d in e.dying)
    return f"State-based actions: {why}"


@says(p.CostPaid)
def _cost_paid(e: p.CostPaid, names: Names) -> str:
    return e.says


# ------------------------------------------------------------------ views' summaries
def change(e: p.Payload, names: Names, *, proposed: bool) -> str:
    """What an event does, in a few words, as first proposed ("Alice would add {G} from
    Forest") or as a replacement effect left it ("Alice adds {B}{B} from Forest")."""

    def verb(would: str, does: str) -> str:
        return f"would {would}" if proposed else does

    match e:
        case p.ManaAdded():
            return (f"{e.player} {verb('add', 'adds')} {pool_text(e.mana or Mana())} "
                    f"from {e.source_name}")
        case p.ZoneChanged():
            what = names.describe(e.object) if e.object is not None else f"#{e.new}"
            how = ""
            if isinstance(e, p.Entered):
                how = (" tapped" if e.tapped else "") + _entering(e) + (
                    f", paying {e.pay_life} life" if e.pay_life else "")
            return (f"{what} {verb('move', 'moves')} from {e.origin.value} to "
                    f"{e.destination.value}{how}")
        case p.TokenCreated():
            return f"token {verb('be created', 'created')}{_entering(e)}"
        case p.CountersPut():
            return (f"{names.describe(e.object)} {verb('get', 'gets')} "
                    f"{_count(e.n, e.counter + ' counter')}")
        case p.LifeGained() | p.LifeLost():
            gain = isinstance(e, p.LifeGained)
            return (f"{e.player} {verb('gain' if gain else 'lose', 'gains' if gain else 'loses')}"
                    f" {e.amount} life")
        case p.Damage():
            return f"{e.source_name} {verb('deal', 'deals')} {e.amount} damage"
        case p.Tapped() | p.Untapped():
            return f"{names.describe(e.object)} {verb('become', 'becomes')} {e.kind.value}"
    words = e.kind.value.replace("_", " ")
    return f"{words} (as first proposed)" if proposed else words


_SHORT_EFFECT = 6
"""A resolving ability's effect of at most this many words stays in its short words ("Gilded
Goose's 'when this creature enters' ability resolves: create a Food token")."""


def short_name(name: str) -> str:
    """A card's name as players say it: a legendary name's part before its comma
    ("Kiki-Jiki, Mirror Breaker (#3)" → "Kiki-Jiki (#3)"); any other name as it is."""
    base, sep, number = name.partition(" (#")
    first, comma, _rest = base.partition(", ")
    if not comma or not first:
        return name
    return first + (f" (#{number}" if sep else "")


def _whose(name: str) -> str:
    """`Kiki-Jiki's`, the id left out (a box names the ability, not the permanent)."""
    return short_name(name).partition(" (#")[0] + "'s"


def brief(e: p.Payload) -> str | None:
    """The event in a few words for a diagram's box, with abilities named as players say them
    ("Alice activates Kiki-Jiki's ability", "Slagstone Refinery's trigger resolves"); None
    when the event's own words are short already. The full words (with the Oracle text) stay
    the event's `text`, shown in the box's tooltip and the step's description."""
    match e:
        case p.Activating(mana=True, card=str(card)):
            return f"{e.player or 'The game'} {'taps' if e.taps else 'activates'} {card} for mana"
        case p.Activating(card=str(card)):
            return f"{e.player or 'The game'} activates {_whose(card)} ability"
        case p.Passing(action="resolve", all_pass=True, item=str(item)) if ", " in item:
            return f"All players pass: {_short_item(item)} resolves"
        case p.Resolved(item_kind="ability"):
            name, effect = _parts(e.ability, e.ability_kind, e.source_name)
            short = effect if len(effect.split()) <= _SHORT_EFFECT else ""
            return f"{_whose(e.source_name)} {name} resolves" + (f": {short}" if short else "")
        case p.Activated(mana_ability=False) if ", " in e.source:
            return f"{short_name(e.source)}'s ability goes on the stack"
        case p.Triggered(removed=False):
            return f"{short_name(e.source_name)} triggers"
        case p.DelayedCreated():
            return (f"{short_name(e.source_name)} sets up a delayed trigger for the next "
                    f"{Step(e.step).label}")
        case p.PutOnStack(ability=str(ability), targets=str(targets)) if ability and targets:
            # (a box shaped "ability triggers": that it goes on the stack is the shape's)
            named = stack_object("ability", short_name(e.source_name), ability, "",
                                 e.ability_kind)
            return f"{named}{f' for {e.for_what}' if e.for_what else ''} targets {targets}"
        case p.PutOnStack(ability=str(ability)) if ability and ", " in e.source_name:
            return _put_on_stack(e.replace(source_name=short_name(e.source_name)), _NoNames())
        case p.Targeted() if ", " in e.by:
            return f"{e.target} becomes the target of {_short_item(e.by)} ({e.controller})"
    return None


def _short_item(item: str) -> str:
    """A stack object named aloud with its source's name as players say it: "Kiki-Jiki,
    Mirror Breaker's ability" → "Kiki-Jiki's ability" (a spell's name stays whole)."""
    source, sep, what = item.partition("'s ")
    return f"{short_name(source)}'s {what}" if sep else item


class _NoNames:
    """Names for a narration that reads only its payload's own strings."""

    def describe(self, obj: int) -> str:
        return f"#{obj}"

    def name(self, obj: int) -> str:
        return f"#{obj}"


def _entering(e: p.Entered | p.TokenCreated) -> str:
    """How an object enters, as replacement effects shaped it: " (as a copy of Grizzly Bears,
    3 +1/+1 counters, creature type: Goblin)" (the counters it enters with: CR 614.1c)."""
    how = [f"as a copy of {e.copy_text}"] if e.copy_text else []
    how += [_count(n, k + " counter") for k, n in sorted(e.counters.items())
            if n or e.etb_x_used is not None]
    how += [f"{k.replace('_', ' ')}: {v}" for k, v in sorted(e.choices.items())]
    return f" ({', '.join(how)})" if how else ""


def setup_lines(events: Iterable[Event], limit: int = 8) -> list[str]:
    """A few lines that say what the set-up put where."""
    placed: dict[tuple[str, str], Counter[str]] = {}
    other: list[str] = []
    for e in events:
        d = e.payload
        if isinstance(d, p.SetUp) and d.setup:
            card = str(d.card) + (" (tapped)" if d.tapped else "")
            where = (str(d.controller), d.destination.value)
            placed.setdefault(where, Counter())[card] += 1
        elif e.kind is EventKind.STEP_BEGAN:
            other.append(e.text)
        elif isinstance(d, p.ManaAdded) and d.setup:
            other.append(f"{d.player}'s mana pool: {shown(d.mana)}")  # as the board shows it
        elif isinstance(d, p.Action) and d.action not in ("add", "set_turn", "set_pool"):
            other.append(e.text.removeprefix("Set-up: "))
    lines: list[str] = []
    for (player, zone), cards in placed.items():
        items = [f"{c} ×{n:,}" if n > 1 else c for c, n in cards.items()]
        if len(items) > 6:
            items = items[:6] + [f"+{len(items) - 6} more"]
        lines.append(f"{player}'s {zone}: " + ", ".join(items))
    lines += list(dict.fromkeys(other))
    if len(lines) > limit:
        lines = lines[:limit - 1] + [f"… and {len(lines) - limit + 1} more"]
    return lines


def time_passes_text(events: Iterable[Event]) -> str:
    """Steps (and turns) that began with only the turn's own actions in them, in one line:
    "Time passes: turn 2 (Bob) → untap step → upkeep → draw step (Bob draws a card) → ..."."""
    return "Time passes: " + " → ".join(t for t, _ in _time_parts(events))


def time_passes_brief(events: Iterable[Event]) -> str:
    """The time-passes line in a few words, for a diagram's box: its first step, each new
    turn, each card drawn and where it ends ("Time passes: end step → … → turn 5 (Alice) → …
    → precombat main phase"); the whole line stays in the tooltip."""
    parts = _time_parts(events)
    if len(parts) <= 3:
        return "Time passes: " + " → ".join(t for t, _ in parts)
    keep = [i for i, (_, notable) in enumerate(parts) if notable or i in (0, len(parts) - 1)]
    out: list[str] = []
    last = 0
    for i in keep:
        if out and i - last > 1:
            out.append("…")
        out.append(parts[i][0])
        last = i
    return "Time passes: " + " → ".join(out)


def _time_parts(events: Iterable[Event]) -> list[tuple[str, bool]]:
    """Each step or turn that began, in words, and whether a short line keeps it (a new turn,
    a card drawn)."""
    parts: list[tuple[str, bool]] = []
    for e in events:
        d = e.payload
        if isinstance(d, p.TurnBegan):
            parts.append((f"turn {d.turn} ({d.player})", True))
        elif isinstance(d, p.Declared):
            none = f"no {d.declared}"
            parts[-1:] = [(f"{parts[-1][0]} ({none})", parts[-1][1]) if parts else (none, False)]
        elif isinstance(d, p.StepBegan):
            parts.append((Step(d.step).label if d.step in _STEPS else d.step, False))
        else:  # the step's draw (CR 504.1), said within its step
            drew = f"{d.player} draws a card" if isinstance(d, (p.ZoneChanged, p.Drew)) \
                and d.player else "a card is drawn"
            if isinstance(d, p.Drew) and d.empty:
                drew = f"{d.player} can't draw: the library is empty"
            parts[-1:] = [(f"{parts[-1][0]} ({drew})", True) if parts else (drew, True)]
    return parts


def time_passes_tooltip(events: Iterable[Event]) -> str:
    """The time-passes line, and that nothing else happened in those steps, unless a card was
    drawn in one of them (then the line says so)."""
    events = list(events)
    text = time_passes_text(events)
    drew = any(not isinstance(e.payload, (p.TurnBegan, p.StepBegan))
               and e.kind is not EventKind.DECLARED for e in events)
    return text if drew else f"{text} (nothing else happens in these steps)"


def check_complete(narrations: dict[type[p.Payload], Narration] | None = None,
                   reasons: dict[p.Reason, Narration] | None = None) -> None:
    """Every payload type has its narration, and every reason a note or a choice can give
    (`payloads.Reason`) its words: checked as this module is imported, so a new kind or reason
    the narrator can't say stops the engine from loading at all."""
    found = _NARRATIONS if narrations is None else narrations
    missing = [cls.__name__ for cls in p.PAYLOADS.values() if cls not in found]
    if missing:
        raise AssertionError(f"payload types the narrator can't say: {missing}")
    worded = REASONS if reasons is None else reasons
    wordless = [r.value for r in p.Reason if r not in worded]
    if wordless:
        raise AssertionError(f"note and choice reasons the narrator can't say: {wordless}")


check_complete()
