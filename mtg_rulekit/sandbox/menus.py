"""Each card's menu in the sandbox: what it offers now as the clicks that make it, each with
its verdict before the click (`SandboxModel.card_actions`). The offers come from the engine
(`mtg_rulekit.engine.offers`); each verdict is the click itself tried in `Game.what_if` and taken
back, so it is what choosing it does. Standard library only (it runs in the page too).

An action lives on the card that has it: an ability that targets (Kiki-Jiki's copy, Shock's
damage) or whose cost taps or sacrifices another permanent (Springleaf Drum's) is one entry
whose `choose` says the card or player is picked on the board next; an X is picked too. The
entry's verdict is legal when one of its choices is; `tried` is the click its verdict was
tried as (a front-end sends it for an entry that is not legal, to be refused with its rule).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mtg_rulekit.engine.offers import object_offers
from mtg_rulekit.objects.state import Zone
from mtg_rulekit.sandbox.choices import asked, question

if TYPE_CHECKING:
    from mtg_rulekit.engine.offers import Offer
    from mtg_rulekit.sandbox.model import SandboxModel

CHOSEN = ("mana", "x", "target")
"""A click's inputs a menu entry may leave to pickers (`choose`), in the order they are asked:
which mana (for an ability that makes any of more than `MANA_LISTED` types), X, then the target
or the permanent a cost taps or sacrifices (both the `target` input)."""

MANA_LISTED = 3
"""An ability that could make this many types of mana or fewer gets an entry per type ("Tap
for {U}", "Tap for {R}": the types it could produce, CR 106.7, on the menu itself); more (any
color) is one entry and a picker."""


def card_actions(model: SandboxModel) -> dict[int, list[dict[str, Any]]]:
    """Object id -> its menu (see `SandboxModel.card_actions`)."""
    g = model.game
    out: dict[int, list[dict[str, Any]]] = {}
    kinds = set(model.actions)
    for obj in model.permanents() + sorted(g.state.in_zone(Zone.HAND), key=lambda o: o.id):
        groups: dict[str, list[tuple[Offer, tuple[str, str, dict[str, Any], int | None]]]] = {}
        for offer in object_offers(g, obj):
            if not _kinds(g, offer) & kinds:
                continue
            entry = _menu_entry(offer)
            key = repr((entry[1], sorted((k, v) for k, v in entry[2].items()
                                         if k not in CHOSEN)))
            groups.setdefault(key, []).append((offer, entry))
        menu = []
        for members in groups.values():
            types = {e[2].get("mana") for _, e in members}
            if len(types) <= MANA_LISTED:  # an entry per type of mana, each with its choices
                by_type: dict[Any, list[Any]] = {}
                for m in members:
                    by_type.setdefault(m[1][2].get("mana"), []).append(m)
                menu += [_entry(model, same) for same in by_type.values()]
            else:
                menu.append(_entry(model, members))
        if obj.zone is Zone.BATTLEFIELD and "destroy" in kinds:
            alone = verdict(model, "Destroy it", "destroy", {"to_destroy": [obj.id]}, None)
            others = [o.id for o in model.permanents() if o.id != obj.id]
            together = dict(alone, label="Destroy it and others at the same time")
            together["choose"] = [{
                "field": "to_destroy", "kind": "several", "legal": others,
                "heading": f"Choose the permanents destroyed at the same time as "
                           f"{g.chars(obj).name}"}]
            menu += [alone, together] if others else [alone]
        out[obj.id] = menu
    return out


def _entry(model: SandboxModel, members: list[tuple[Offer, tuple[str, str, dict[str, Any],
                                                                  int | None]]]
           ) -> dict[str, Any]:
    """One menu entry for the offers that differ only in what a picker chooses (their target
    or cost's permanent, their X): the offer itself when there is one and nothing to choose."""
    offer, (label, control, values, cost) = members[0]
    fields = [f for f in CHOSEN if f in values and (
        f == "x" or (f == "mana" and len({m[1][2]["mana"] for m in members}) > 1) or
        (f == "target" and (offer.cost is not None or offer.arguments.get("targets"))))]
    if not fields:
        return verdict(model, label, control, values, cost)
    judged = [verdict(model, m_label, m_control, m_values, m_cost)
              for _, (m_label, m_control, m_values, m_cost) in members]
    first = next((j for j in judged if j["legal"]), judged[0])
    base = {k: v for k, v in values.items() if k not in fields}
    said = _label(model, offer, fields, label)
    entry = dict(first, label=said, values=base, cost=None, tried=first["values"])
    entry["choose"] = [{"field": f, "kind": "cost" if f == "target" and offer.cost is not None
                        else f, "heading": _heading(model, offer, f),
                        "legal": sorted({j["values"][f] for j in judged if j["legal"]}, key=str)}
                       for f in fields]
    return entry


def _label(model: SandboxModel, offer: Offer, fields: list[str], label: str) -> str:
    """An entry's words when pickers choose part of it: "Tap for mana (you choose which),
    tapping an untapped creature you control", "Cast Shock"."""
    said = offer.base or label
    if "mana" in fields:  # "Tap for {W}" -> "Tap for mana (you choose which)"
        said = said.rsplit(" {", 1)[0] + " mana (you choose which)"
    if "target" in fields and offer.cost is not None and offer.object is not None:
        g = model.game
        cost = g.chars(g.obj(offer.object)).abilities[offer.arguments["ability"]].cost
        said += ", tapping an untapped creature you control" if cost.tap_other else \
            f", sacrificing a {cost.sacrifice.lower()}"
    return said


def _heading(model: SandboxModel, offer: Offer, field: str) -> str:
    """What the picker asks, in plain words: "Choose the target of Shock: any target"."""
    g = model.game
    obj = g.obj(offer.object) if offer.object is not None else None
    name = g.chars(obj).name if obj is not None else "it"
    if field == "x":
        return f"Choose X for {name}"
    if field == "mana":
        return f"Choose the type of mana {name} makes"
    ability: Any = None
    if offer.action == "activate" and obj is not None:
        ability = g.chars(obj).abilities[offer.arguments["ability"]]
    whose = f"{name}'s ability" if offer.action == "activate" else name
    if offer.cost is not None and ability is not None:
        cost = ability.cost
        if cost.tap_other:
            return f"Choose the untapped creature {whose} cost taps (part of the cost, not a " \
                   "target)"
        return f"Choose the {cost.sacrifice.lower()} {whose} cost sacrifices (part of the " \
               "cost, not a target)"
    if ability is None and obj is not None:
        from mtg_rulekit.objects.abilities import SpellAbility

        ability = next((a for a in g.chars(obj).abilities if isinstance(a, SpellAbility)), None)
    spec = getattr(ability, "target", None)
    if spec is None:
        return f"Choose the target of {whose}"
    what = "a " + spec.text[len("target "):] if spec.text.startswith("target ") else spec.text
    return f"Choose the target of {whose} ({what})"


def verdict(model: SandboxModel, label: str, control: str, values: dict[str, Any],
            cost: int | None) -> dict[str, Any]:
    """One menu entry with its verdict: the click tried and taken back, and the decisions it
    made on its way (with who makes each and why)."""
    act = model._actions()[control]
    made, _, error = asked(model.game, lambda: act(values), board=False)
    keys: list[str] = []
    asks = []
    for decision in made:
        if decision.key not in keys:
            keys.append(decision.key)
            asks.append(question(decision))
    return {"label": label, "action": control, "values": values, "legal": error is None,
            "reason": getattr(error, "reason", None), "rule": getattr(error, "rule", None),
            "says": str(error) if error else None, "cost": cost, "asks": asks, "choose": None}


_KINDS = {"cast": "cast", "play_land": "cast", "declare_attackers": "attack",
          "declare_blockers": "block"}


def _kinds(game: Any, offer: Any) -> set[str]:
    """The kinds of action an engine offer is (`mtg_rulekit.sandbox.ACTION_KINDS`): an ability
    that makes a token copy (Kiki-Jiki's) is a "copy" as well as an ability."""
    if offer.action == "activate":
        from mtg_rulekit.objects.abilities import ManaAbility

        ability = game.chars(game.obj(offer.arguments["object"])).abilities[
            offer.arguments["ability"]]
        if isinstance(ability, ManaAbility):
            return {"mana"}
        return {"abilities", "copy"} if getattr(ability, "makes_token_copy", False) else \
            {"abilities"}
    return {_KINDS.get(offer.action, offer.action)}


def _menu_entry(offer: Offer) -> tuple[str, str, dict[str, Any], int | None]:
    """An engine offer (`mtg_rulekit.engine.offers.Offer`) as the click that makes it: the
    control and its inputs' values."""
    a = offer.arguments
    if offer.action == "activate":
        values: dict[str, Any] = {"permanent": a["object"], "ability": a["ability"]}
        if a.get("mana"):
            values["mana"] = a["mana"]
        if "x" in a:
            values["x"] = a["x"]
        chosen = (a.get("targets") or [None])[0] if a.get("targets") else \
            a.get("tap", a.get("sacrifice"))
        if chosen is not None:
            values["target"] = chosen
        return offer.label, "activate", values, offer.cost
    if offer.action in ("cast", "play_land"):
        values = {"hand_card": a["object"]}
        if "x" in a:
            values["x"] = a["x"]
        if a.get("targets"):
            values["target"] = a["targets"][0]
        return offer.label, "cast", values, None
    if offer.action == "declare_attackers":
        return offer.label, "attack", {"attackers": list(a.get("attackers", [])),
                                       "exert": list(a.get("exert", []))}, None
    if offer.action == "declare_blockers":
        return offer.label, "block", {"blocks": {str(k): v for k, v in a["blocks"].items()}}, \
            None
    raise AssertionError(f"no sandbox click makes {offer.action}")  # pragma: no cover
