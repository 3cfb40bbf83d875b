"""The board as plain data (JSON-able, standard library only): what `board_html` draws.

`board_data(game)` reads the game once: each player's battlefield as cards (lands in one row,
everything else in another, Auras and Equipment with what they're attached to), their hand,
library, graveyard and exile, life and mana pool; the stack, newest first; the turn, the step
and who has priority. Each card carries the words a screen reader says for it (`label`), so
the HTML and any other front-end say the same thing.

>>> from mtg_rulekit import Game
>>> game = Game(["Alice", "Bob"])
>>> forest = game.add("Forest", tapped=True)
>>> card = board_data(game)["players"][-1]["lands"][0]
>>> card["label"]
"Forest, basic land, tapped, Alice's"
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mtg_rulekit.core.events import Event
    from mtg_rulekit.game import Game
    from mtg_rulekit.objects.state import GameObject

__all__ = ["SHORT_CHARS", "STEP_NAMES", "board_data", "short_text", "step_changes"]

SHORT_CHARS = 70  # an ability's text on a card is cut to about this many characters

# each step's name on the strip (short) and aloud, in turn order (CR 500.1)
STEP_NAMES: tuple[tuple[str, str, str], ...] = (
    ("untap", "Untap", "untap step"),
    ("upkeep", "Upkeep", "upkeep"),
    ("draw", "Draw", "draw step"),
    ("main1", "Main 1", "precombat main phase"),
    ("beginning_of_combat", "Combat", "beginning of combat step"),
    ("declare_attackers", "Attack", "declare attackers step"),
    ("declare_blockers", "Block", "declare blockers step"),
    ("combat_damage", "Damage", "combat damage step"),
    ("end_of_combat", "End combat", "end of combat step"),
    ("main2", "Main 2", "postcombat main phase"),
    ("end", "End", "end step"),
    ("cleanup", "Cleanup", "cleanup step"),
)

_REMINDER = re.compile(r"\s*\([^()]*\)")
_FRAMES = {"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green"}


def short_text(text: str, limit: int = SHORT_CHARS) -> str:
    """An ability's text for the card face: reminder text dropped (unless that is all there
    is, as on a basic land), cut at a word before `limit` characters with "…"."""
    said = _REMINDER.sub("", text).strip() or text.strip().strip("()")
    if len(said) <= limit:
        return said
    cut = said[:limit].rsplit(" ", 1)[0].rstrip(",;:.—- ")
    return cut + "…"


def _possessive(name: str) -> str:
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def _frame(game: Game, obj: GameObject) -> str:
    """The card's frame colour: its colour, "gold" for several, else "artifact", "land" or
    "colorless"."""
    chars = game.chars(obj)
    colours = sorted(c.value for c in chars.colors)
    if len(colours) > 1:
        return "gold"
    if colours:
        return _FRAMES[colours[0]]
    if chars.is_a("Land"):
        return "land"
    return "artifact" if chars.is_a("Artifact") else "colorless"


def _copy_texts(game: Game) -> dict[int, str]:
    """What each copy entered as a copy of, in the log's words (a copy of a copy is "a copy
    of Clone (#12)", though its values are the Bears')."""
    from mtg_rulekit.core.payloads import Entered, TokenCreated

    out: dict[int, str] = {}
    for event in game.log:
        data = event.payload
        if isinstance(data, TokenCreated | Entered) and data.new is not None \
                and data.copy_text:
            out[data.new] = data.copy_text
    return out


def _symbols(cost_text: str) -> list[str]:
    return re.findall(r"\{([^{}]+)\}", cost_text)


def _card(game: Game, obj: GameObject, *, changed: set[int], copies: dict[int, str],
          host: GameObject | None = None) -> dict[str, Any]:
    """One card as plain data, with its accessible name."""
    from mtg_rulekit.engine.paying import summoning_sick
    from mtg_rulekit.objects.state import Zone

    chars = game.chars(obj)
    controller = game.controller_of(obj)
    on_field = obj.zone is Zone.BATTLEFIELD
    creature = chars.is_a("Creature")
    # on the battlefield, its abilities as they are now (granted ones too, CR 613); anywhere
    # else, the card as printed (its Oracle text: a basic land's mana ability is its type's)
    abilities = [a.text for a in chars.abilities if a.text] if on_field else []
    if not abilities:
        abilities = [line for line in chars.oracle.split("\n") if line.strip()]
    full = "\n".join(abilities)
    card: dict[str, Any] = {
        "id": obj.id,
        "name": chars.name,
        "cost": _symbols(chars.mana_cost.text),
        "type_line": chars.type_line,
        "pt": chars.pt,  # a Vehicle shows its printed P/T too
        "text": [short_text(t) for t in abilities],
        "oracle": full,
        "frame": _frame(game, obj),
        "owner": obj.owner,
        "controller": controller,
        "zone": obj.zone.value,
        "tapped": bool(on_field and obj.tapped),
        "sick": bool(on_field and creature and obj.sick),
        "haste": bool(on_field and creature and obj.sick and not summoning_sick(game, obj)),
        "counters": [[kind, n] for kind, n in sorted(obj.counters.items()) if n],
        "token": obj.token,
        "copy_of": "",
        "exerted": [],
        "attacking": bool(on_field and obj.attacking),
        "blocking": "",
        "damage": obj.damage if on_field else 0,
        "attached_to": game.describe(host) if host is not None else "",
        "phased_out": bool(on_field and obj.phased_out),
        "changed": obj.id in changed,
        "attachments": [],
    }
    if obj.copiable is not None:
        card["copy_of"] = copies.get(obj.id, obj.copiable.name)
        if not obj.token and obj.card.name != chars.name:
            card["card"] = obj.card.name  # what the card really is (Clone)
    if on_field and obj.skip_untap_for:
        card["exerted"] = list(obj.skip_untap_for)
    if on_field and obj.blocking is not None and obj.blocking in game.state.objects:
        card["blocking"] = game.describe(obj.blocking)
    return card


def _label(card: dict[str, Any]) -> str:
    """The card said as a player says it: "Llanowar Elves, creature, 1/1, tapped, summoning
    sick, Alice's"."""
    parts = [card["name"]]
    if card["copy_of"]:
        parts.append(("token copy of " if card["token"] else "copy of ") + card["copy_of"])
    elif card["token"]:
        parts.append("token")
    if card.get("card"):
        parts.append(f"the card is {card['card']}")
    words = card["type_line"].split(" \u2014 ")[0].lower()
    parts.append(words)
    if card["pt"]:
        parts.append(card["pt"])
    if card["zone"] != "battlefield":
        parts.append(f"in {_possessive(card['owner'])} {card['zone']}"
                     if card["zone"] in ("hand", "graveyard", "library") else
                     f"in {card['zone']}")
    if card["phased_out"]:
        parts.append("phased out")
    if card["tapped"]:
        parts.append("tapped")
    if card["haste"]:
        parts.append("arrived this turn, has haste")
    elif card["sick"]:
        parts.append("summoning sick")
    for kind, n in card["counters"]:
        parts.append(f"{n} {kind} counter{'s' if n != 1 else ''}")
    if card["damage"]:
        parts.append(f"{card['damage']} damage")
    for who in card["exerted"]:
        parts.append(f"exerted: won't untap in {_possessive(who)} next untap step")
    if card["attacking"]:
        parts.append("attacking")
    if card["blocking"]:
        parts.append(f"blocking {card['blocking']}")
    if card["attached_to"]:
        parts.append(f"attached to {card['attached_to']}")
    for att in card["attachments"]:
        parts.append(f"with {att['name']} attached")
    if card["zone"] == "battlefield":
        if card["owner"] != card["controller"]:
            parts.append(f"{_possessive(card['owner'])}, controlled by {card['controller']}")
        else:
            parts.append(_possessive(card["controller"]))
    if card["changed"]:
        parts.append("changed this step")
    return ", ".join(parts)


def _mana(pool: Any) -> list[dict[str, Any]]:
    """The pool grouped as `pool_text` groups it (type, restriction, rider), plain mana first."""
    from mtg_rulekit.core.mana import TYPES

    order = {t: i for i, t in enumerate(TYPES)}
    groups: dict[tuple[Any, Any, Any], int] = {}
    for unit, n in pool.parts:
        key = (unit.type, unit.restriction, unit.rider)
        groups[key] = groups.get(key, 0) + n
    out = []
    for (kind, restriction, rider), n in sorted(groups.items(), key=lambda kv: (
            kv[0][1] is not None, kv[0][2] is not None, order[kv[0][0]])):
        notes = [x.text for x in (restriction, rider) if x is not None]
        mark = None
        if restriction is not None:
            mark = "artifact" if restriction.key == "powerstone" else "type"
        if rider is not None:
            mark = mark or ("haste" if rider.key == "haste" else "type")
        # the same words as every other view of mana (mtg_rulekit.core.mana.shown)
        caption = "; ".join(x.words for x in (restriction, rider) if x is not None)
        made_by = restriction.made_by if restriction is not None else ""
        words = f"{n} {kind.word}" + (f" from {made_by}" if made_by else "")
        out.append({"type": kind.value, "n": n, "mark": mark, "caption": caption,
                    "notes": notes,
                    "label": words + (f" ({'; '.join(notes)})" if notes else "")})
    return out


def _pile(game: Game, objs: Iterable[GameObject], changed: set[int],
          copies: dict[int, str]) -> list[dict[str, Any]]:
    out = []
    for obj in sorted(objs, key=lambda o: o.id):
        card = _card(game, obj, changed=changed, copies=copies)
        card["label"] = _label(card)
        out.append(card)
    return out


def board_data(game: Game, *, viewer: str | None = None,
               changed: Iterable[int | str] = (), bottom: str | None = None) -> dict[str, Any]:
    """The board as plain data. `viewer`: whose hand is face up (the others are a count);
    None shows every hand (a teacher's view of a walkthrough). `changed`: object ids (and
    player names, for their life and pool) that changed in this step. `bottom`: the player
    drawn at the bottom (default: the viewer, else the first player); `players` lists the
    others first, top to bottom, and the bottom player last."""
    from mtg_rulekit.objects.state import Zone

    state = game.state
    names = list(state.players)
    if viewer is not None and viewer not in state.players:
        raise ValueError(f"viewer {viewer!r} is not a player ({', '.join(names)})")
    if bottom is not None and bottom not in state.players:
        raise ValueError(f"bottom {bottom!r} is not a player ({', '.join(names)})")
    bottom = bottom or viewer or names[0]
    at = names.index(bottom)
    seats = names[at + 1:] + names[:at] + [bottom]  # opponents in turn order, then the bottom
    seats = [n for n in seats[:-1] if n != bottom] + [bottom]
    ids = {c for c in changed if isinstance(c, int) and not isinstance(c, bool)}
    who_changed = {c for c in changed if isinstance(c, str)}
    copies = _copy_texts(game)

    on_field = [state.objects[i] for i in state.zones[Zone.BATTLEFIELD]]
    hosted: dict[int, list[GameObject]] = {}
    for obj in on_field:
        host = obj.attached_to
        if host is not None and host in state.objects \
                and state.objects[host].zone is Zone.BATTLEFIELD:
            hosted.setdefault(host, []).append(obj)
    attached = {o.id for group in hosted.values() for o in group}

    players = []
    for name in seats:
        player = state.players[name]
        lands: list[dict[str, Any]] = []
        others: list[dict[str, Any]] = []
        for obj in sorted(on_field, key=lambda o: o.id):
            if obj.id in attached or game.controller_of(obj) != name:
                continue
            card = _card(game, obj, changed=ids, copies=copies)
            for att in sorted(hosted.get(obj.id, []), key=lambda o: o.id):
                extra = _card(game, att, changed=ids, copies=copies, host=obj)
                extra["label"] = _label(extra)
                card["attachments"].append(extra)
            card["label"] = _label(card)
            chars = game.chars(obj)
            (lands if chars.is_a("Land") and not chars.is_a("Creature") else others).append(card)
        hand = state.owned_in(Zone.HAND, name)
        face_up = viewer is None or viewer == name
        notes = []
        if name == state.active:
            notes.append("active player")
        if state.awaiting_attackers or state.awaiting_blockers:
            declarer = state.active if state.awaiting_attackers else \
                state.opponents(state.active)[0]
            if name == declarer:
                notes.append("declares " + ("attackers" if state.awaiting_attackers
                                            else "blockers"))
        elif name == state.priority:
            notes.append("has priority")
        players.append({
            "name": name,
            "life": player.life,
            "active": name == state.active,
            "priority": name == state.priority and not (state.awaiting_attackers
                                                         or state.awaiting_blockers),
            "notes": notes,
            "lost": player.lost,
            "pool": _mana(player.pool),
            "changed": name in who_changed,
            "lands": lands,
            "others": others,
            "hand_count": len(hand),
            "hand": _pile(game, hand, ids, copies) if face_up else None,
            "library": len(state.libraries.get(name, [])),
            "graveyard": _pile(game, state.owned_in(Zone.GRAVEYARD, name), ids, copies),
            "exile": _pile(game, state.owned_in(Zone.EXILE, name), ids, copies),
        })

    stack = []
    items = list(reversed(state.stack))
    for pos, item in enumerate(items, start=1):
        targets = ", ".join(game.target_text(t) for t in item.targets)
        label = (f"{pos}{' (top, resolves first)' if pos == 1 else ''}: "
                 f"{_possessive(item.controller)} {item.kind} — {item.text}"
                 + (f", targeting {targets}" if targets else ""))
        changed_item = item.id in ids or (item.source is not None and item.source in ids
                                          and item.kind == "spell")
        stack.append({"id": item.id, "source": item.source, "kind": item.kind,
                      "controller": item.controller, "source_name": item.source_name,
                      "text": item.text, "short": short_text(item.text, 90),
                      "targets": targets, "top": pos == 1, "changed": changed_item,
                      "label": label + (", new this step" if changed_item else "")})

    step = state.step.value
    declaring = ("attackers" if state.awaiting_attackers else
                 "blockers" if state.awaiting_blockers else "")
    return {
        "turn": state.turn,
        "active": state.active,
        "step": step,
        "step_label": state.step.label,
        "steps": [{"id": s, "short": short, "label": label, "current": s == step}
                  for s, short, label in STEP_NAMES],
        "priority": "" if declaring else state.priority,
        "declaring": declaring,
        "viewer": viewer,
        "bottom": bottom,
        "players": players,
        "stack": stack,
        "changed": sorted(ids) + sorted(who_changed),
    }


# the events whose objects (and players) a step's board marks as changed: field names per kind
_OBJECT_FIELDS = ("object", "new", "to", "target", "attacker", "item_id")
_PLAYER_KINDS = {"life_gained", "life_lost", "mana_added", "mana_spent", "mana_emptied",
                 "damage"}
_SKIP_KINDS = {"priority", "note", "choice", "targeted", "triggered", "step_began",
               "turn_began", "effect_began", "effect_ended", "declared", "delayed_created"}


def step_changes(events: Iterable[Event]) -> set[int | str]:
    """What a step changed on the board, from the events it added to the log: the objects an
    event moved, tapped, untapped, put counters on, damaged, attached, exerted or made attack
    or block, the new objects (a token, a spell on the stack, a card in its new zone), the
    stack items put on the stack, and the names of players whose life or mana pool changed.
    (A mana ability's own source is marked through its tap; what a trigger only looked at is
    not.)"""
    from mtg_rulekit.core.events import EventKind

    out: set[int | str] = set()
    for event in events:
        data = event.payload
        if data is None or event.kind.value in _SKIP_KINDS:
            continue
        if event.kind is EventKind.ACTION:
            continue
        for field in _OBJECT_FIELDS:
            value = getattr(data, field, None)
            if isinstance(value, int) and not isinstance(value, bool):
                out.add(value)
            elif field == "target" and isinstance(value, str):
                out.add(value)
        if event.kind is EventKind.MANA_EMPTIED and not getattr(data, "lost", None):
            continue  # an empty pool emptied: nothing changed
        if event.kind.value in _PLAYER_KINDS:
            player = getattr(data, "player", None)
            if isinstance(player, str):
                out.add(player)
        if event.kind is EventKind.ZONE_CHANGED:
            old = getattr(data, "object", None)
            if isinstance(old, int):
                out.discard(old)  # the old object is gone (CR 400.7); its new one is marked
    return out
