"""Each card's menu in the sandbox: what it offers now as the clicks that make it, each with
its verdict before the click (`SandboxModel.card_actions`). The offers come from the engine
(`rulekit.engine.offers`); each verdict is the click itself tried in `Game.what_if` and taken
back, so it is what choosing it does. Standard library only (it runs in the page too)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulekit.core.errors import RulesError
from rulekit.engine.offers import object_offers
from rulekit.objects.state import Zone
from rulekit.sandbox.choices import asked, question

if TYPE_CHECKING:
    from rulekit.sandbox.model import SandboxModel

def card_actions(model: SandboxModel) -> dict[int, list[dict[str, Any]]]:
    """Object id -> its menu (see `SandboxModel.card_actions`)."""
    g = model.game
    out: dict[int, list[dict[str, Any]]] = {}
    copier = _copier(model)
    kinds = set(model.actions)
    for obj in model.permanents() + sorted(g.state.in_zone(Zone.HAND), key=lambda o: o.id):
        menu = [_menu_entry(offer) for offer in object_offers(g, obj)
                if _kind(g, offer) in kinds]
        if obj.zone is Zone.BATTLEFIELD:
            if copier is not None and g.chars(obj).is_a("Creature") and "copy" in kinds:
                menu.append((f"Create a token copy of it ({g.chars(copier).name})",
                             "copy", {"copy_target": obj.id}, None))
            if "destroy" in kinds:
                menu.append(("Destroy it", "destroy", {"to_destroy": [obj.id]}, None))
        out[obj.id] = [verdict(model, *entry) for entry in menu]
    return out


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
            "says": str(error) if error else None, "cost": cost, "asks": asks}


_KINDS = {"cast": "cast", "play_land": "cast", "declare_attackers": "attack",
          "declare_blockers": "block"}


def _kind(game: Any, offer: Any) -> str:
    """The kind of action an engine offer is (`rulekit.sandbox.ACTION_KINDS`)."""
    if offer.action == "activate":
        from rulekit.objects.abilities import ManaAbility

        ability = game.chars(game.obj(offer.arguments["object"])).abilities[
            offer.arguments["ability"]]
        return "mana" if isinstance(ability, ManaAbility) else "abilities"
    return _KINDS.get(offer.action, offer.action)


def _copier(model: SandboxModel) -> Any:
    """The permanent whose token-copy ability the copy click uses, or None."""
    try:
        return model._copier()[0]
    except RulesError:
        return None


def _menu_entry(offer: Any) -> tuple[str, str, dict[str, Any], int | None]:
    """An engine offer (`rulekit.engine.offers.Offer`) as the click that makes it: the
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
