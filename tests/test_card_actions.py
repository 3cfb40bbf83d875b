"""Per-card verdicts before the click: `SandboxModel.card_actions()` lists what each
card offers now, each legal or not with the rule and the reason, and each verdict is what
clicking it does."""

from __future__ import annotations

import json

import pytest

from mtg_rulekit import Game
from mtg_rulekit.authoring.walkthrough import walkthrough
from mtg_rulekit.objects.state import Zone
from mtg_rulekit.sandbox import SandboxModel
from mtg_rulekit.sandbox.view import model_json
from mtg_rulekit.scenario import loads, play
from tests.board_games import completed, sandbox
from tests.lesson_shape import lesson_stems

LESSONS = lesson_stems()


def everything(stem: str) -> SandboxModel:
    """The lesson's sandbox board with every kind of action offered (the lesson's own sandbox
    offers only what it is about)."""
    return SandboxModel(sandbox(stem).game)


def clicked_as_said(model: SandboxModel) -> int:
    """Click every entry of every card's menu; each outcome must be its verdict. Returns how
    many entries were clicked."""
    game = model.game
    menus = model.card_actions()
    clicked = 0
    for obj, entries in menus.items():
        for entry in entries:
            before = game.snapshot_json(), game.log.dumps()
            outcome = model.click(entry["action"], completed(model, entry))
            clicked += 1
            where = f"#{obj} {entry['label']}: said {entry['legal']} {entry['says']}, " \
                    f"click {outcome.kind} {outcome.text}"
            assert outcome.ok is entry["legal"], where
            if entry["legal"]:
                model.click("undo", {})
            else:
                assert outcome.rule == entry["rule"] and outcome.text == entry["says"], where
            assert (game.snapshot_json(), game.log.dumps()) == before, where
    return clicked


def test_lesson_one_says_why_before_the_click():
    model = sandbox("01_tapping_and_summoning_sickness")
    g = model.game
    before = g.snapshot_json(), g.log.dumps(), len(g.actions)
    menus = model.card_actions()
    assert (g.snapshot_json(), g.log.dumps(), len(g.actions)) == before  # nothing changed
    elves = g.find("Llanowar Elves")
    tap = next(e for e in menus[elves.id] if e["label"] == "Tap for {G}")
    assert tap["legal"] is False and tap["rule"] == "302.6"
    assert "hasn't been under Alice's control" in tap["reason"]
    assert tap["action"] == "activate" and tap["values"] == {"permanent": elves.id, "ability": 0}
    tapped = g.find_all("Forest")[0]
    assert [e["rule"] for e in menus[tapped.id] if e["label"] == "Tap for {G}"] == ["107.5"]
    drum = g.find("Springleaf Drum")
    (drum_tap,) = [e for e in menus[drum.id] if e["label"].startswith("Tap for")]
    assert drum_tap["label"] == \
        "Tap for mana (you choose which), tapping an untapped creature you control"
    assert drum_tap["legal"] and drum_tap["values"] == {"permanent": drum.id, "ability": 0}
    mana, cost = drum_tap["choose"]  # which mana, then the creature: a cost, not a target
    assert (mana["field"], mana["kind"], mana["legal"]) == ("mana", "mana", list("BGRUW"))
    assert (cost["field"], cost["kind"], cost["legal"]) == ("target", "cost", [elves.id])
    assert "not a target" in cost["heading"]
    assert {"label", "action", "values", "legal", "reason", "rule", "says", "cost", "asks",
            "choose"} == set(tap)
    attack = next(e for e in menus[elves.id] if e["label"] == "Attack")
    assert attack["rule"] == "508.1"


def test_to_json_carries_the_menus_as_plain_data():
    model = everything("07_token_copies")
    data = model_json(model)
    assert {"fields", "tables", "last", "log", "card_actions"} <= set(data)
    menus = json.loads(json.dumps(data["card_actions"]))
    g = model.game
    kiki = g.find("Kiki-Jiki, Mirror Breaker")
    (copy,) = [e for e in menus[str(kiki.id)] if e["action"] == "activate"]  # on Kiki-Jiki
    assert copy["action"] == "activate" and copy["legal"] and copy["label"].startswith(
        "Activate: {T}: Create a token that's a copy of target nonlegendary creature")
    (target,) = copy["choose"]
    assert target["kind"] == "target" and kiki.id not in target["legal"]  # legendary
    assert g.find("Grizzly Bears").id in target["legal"]
    (asked,) = model.choices_for(copy["action"], copy["values"], "target")
    itself = next(o for o in asked["options"] if o["id"] == kiki.id)
    assert not itself["legal"] and itself["rule"] == "115.1"
    assert [o["player"] for o in asked["options"] if o["player"]] == ["Alice", "Bob"]
    assert asked["board"] and asked["heading"] == "Choose a target"
    assert not any(e["action"] == "copy" for es in menus.values() for e in es)


def test_blocks_are_offered_to_the_defender():
    game = Game(["Alice", "Bob"])
    game.set_turn(turn=3, active="Alice", step="main1")
    bears = game.add("Grizzly Bears", player="Alice")
    wall = game.add("Grizzly Bears", player="Bob")
    model = SandboxModel(game)
    model.click("combat", {})
    assert model.click("attack", {"attackers": [bears.id]}).ok
    model.click("pass", {})  # Alice passes; Bob passes: the declare blockers step begins
    model.click("pass", {})
    block = next(e for e in model.card_actions()[wall.id] if e["action"] == "block")
    assert block["legal"], block
    assert model.click("block", block["values"]).ok
    assert game.obj(wall.id).blocking == bears.id


@pytest.mark.parametrize("stem", LESSONS[:2])
def test_every_verdict_is_what_the_click_does(stem):
    assert clicked_as_said(sandbox(stem)) >= 3  # what the lesson's sandbox shows
    assert clicked_as_said(everything(stem)) > 5


@pytest.mark.slow
@pytest.mark.parametrize("stem", LESSONS[2:])
def test_every_verdict_is_what_the_click_does_in_every_lesson(stem):
    assert clicked_as_said(sandbox(stem)) >= 3
    assert clicked_as_said(everything(stem)) > 5


def test_free_play_adds_cards_sets_the_step_and_restarts():
    model = everything("08_exert")
    g = model.game
    assert model.search_cards("forst")[:1] == ["Forest"]  # did you mean
    assert "Llanowar Elves" in model.search_cards("elves")
    typo = model.add_card("Llanowar Elfs", "Alice")
    assert typo.kind == "refused" and "did you mean 'Llanowar Elves'" in typo.text
    before = g.snapshot_json()
    instant = model.add_card("Shock", "Bob")
    assert instant.rule == "304.4" and g.snapshot_json() == before  # unchanged
    assert model.click("combat", {}).ok
    done = model.add_card("Llanowar Elves", "Bob")
    assert done.ok and "1 click(s) since the start taken back" in done.text
    assert g.step.value == "main1" and g.find("Llanowar Elves").controller == "Bob"
    assert model.add_card("Shock", "Alice", zone="hand").ok
    assert model.set_position(step="beginning_of_combat").ok
    assert g.step.value == "beginning_of_combat"
    hand = [e for e in model.card_actions()[g.find("Shock", zone="hand").id]]
    assert hand and not any(e["legal"] for e in hand)  # no mana: Shock can't be cast yet
    model.click("reset", {})  # the clicks only: the free-play board stays
    assert g.find("Llanowar Elves")
    assert model.restart().ok
    assert not g.find_all("Llanowar Elves") and g.step.value == "main1"
    assert all(r.ok for r in play(loads(walkthrough(model))))


def test_free_play_through_the_page_api():
    import json

    from mtg_rulekit.sandbox import page as sandbox_page

    model = everything("08_exert")
    view = json.loads(sandbox_page.start(json.dumps(model.position())))
    sid = view["id"]
    added = json.loads(sandbox_page.click(sid, "add_card", json.dumps(
        {"card": "Forst", "player": "Alice"})))
    assert added["outcome"]["kind"] == "refused" and "did you mean 'Forest'" in \
        added["outcome"]["text"]
    added = json.loads(sandbox_page.click(sid, "add_card", json.dumps(
        {"card": "Forest", "player": "Alice"})))
    assert added["outcome"]["kind"] == "done"
    state = json.loads(sandbox_page.state(sid, "{}"))
    assert any(e["label"] == "Tap for {G}" and e["legal"]
               for entries in state["card_actions"].values() for e in entries)


def test_a_click_that_needs_a_decision_offers_the_legal_answers_and_who_decides():
    game = Game(["Alice", "Bob"])
    forest = game.add("Forest", player="Alice")
    game.add("Mana Reflection", player="Alice")
    game.add("Nyxbloom Ancient", player="Alice")
    model = SandboxModel(game)
    tap = next(e for e in model.card_actions()[forest.id] if e["label"] == "Tap for {G}")
    assert [a["key"] for a in tap["asks"]] == ["replacement_order"]
    assert tap["asks"][0]["who"] == "Alice" and tap["asks"][0]["rule"] == "616.1"
    before = game.snapshot_json(), game.log.dumps()
    (order,) = model.choices_for(tap["action"], tap["values"])
    assert (game.snapshot_json(), game.log.dumps()) == before
    assert order["why"].startswith("Alice chooses which replacement effect applies first")
    assert "(CR 616.1)" in order["why"] and order["default"] == "Mana Reflection"
    assert {o["value"]: o["legal"] for o in order["options"]} == {
        "Mana Reflection": True, "Nyxbloom Ancient": True}
    nyx = next(o for o in order["options"] if o["value"] == "Nyxbloom Ancient")
    assert model.click("tap", {**tap["values"], "choices": nyx["choices"]}).ok
    assert game.pool("Alice").total == 6  # tripled first, then doubled: {G} x 3 x 2
    assert [d.answer for d in game.decisions if d.key == "replacement_order"] == [
        "Nyxbloom Ancient"]


def test_mana_flares_mana_is_a_picker_of_the_types_the_land_made():
    model = sandbox("03_tapped_for_mana_triggers_and_replacements")
    forest = model.game.find("Forest")
    (flare,) = model.choices_for("activate", {"permanent": forest.id, "ability": 0})
    assert flare["key"] == "added_mana" and flare["who"] == "Alice"
    assert [o["value"] for o in flare["options"] if o["legal"]] == ["G"]
    refused = next(o for o in flare["options"] if o["value"] == "U")
    assert refused["rule"] == "106.12a" and "produced G, not U" in refused["reason"]


def test_choices_through_the_page_api():
    from mtg_rulekit.sandbox import page as sandbox_page

    game = Game(["Alice", "Bob"])
    forest = game.add("Forest", player="Alice")
    game.add("Mana Reflection", player="Alice")
    game.add("Nyxbloom Ancient", player="Alice")
    sid = json.loads(sandbox_page.start(json.dumps(SandboxModel(game).position())))["id"]
    asked = json.loads(sandbox_page.choices(sid, "tap", json.dumps({"permanent": forest.id})))
    assert asked[0]["key"] == "replacement_order" and len(asked[0]["options"]) == 2
    wrong = json.loads(sandbox_page.choices(sid, "nope", "{}"))
    assert wrong["outcome"]["kind"] == "refused"


def test_the_legend_rule_is_a_picker_that_offers_the_new_token_too():
    game = Game(["Alice", "Bob"])
    rofellos = game.add("Rofellos, Llanowar Emissary", player="Alice")
    counterpart = game.add("Cackling Counterpart", player="Alice", zone="hand")
    game.set_pool("Alice", [{"type": "U"}] * 3)
    game.cast(counterpart, targets=[rofellos])
    model = SandboxModel(game)
    (keep,) = model.choices_for("resolve", {})
    assert keep["key"] == "legend_keep" and keep["who"] == "Alice" and keep["rule"] == "704.5j"
    values = [o["value"] for o in keep["options"] if o["legal"]]
    assert values[0] == f"#{rofellos.id}" and len(values) == 2  # the original, the token
    assert model.click("resolve", {"choices": keep["options"][0]["choices"]}).ok
    assert game.obj(rofellos.id).zone.value == "battlefield"
    assert [o.token for o in game.find_all("Rofellos, Llanowar Emissary")] == [False]


# ---------------------------------------------------------------- what a lesson offers
def test_a_lesson_picks_the_kinds_of_action_its_sandbox_offers():
    game = Game(["Alice", "Bob"])
    game.set_turn(turn=3, active="Alice", step="main1")
    forest = game.add("Forest", player="Alice")
    bears = game.add("Grizzly Bears", player="Alice")
    every = SandboxModel(game)
    assert {e["action"] for e in every.card_actions()[forest.id]} == {"activate", "destroy"}
    model = SandboxModel(game, actions=["mana"])
    menus = model.card_actions()
    assert [e["label"] for e in menus[forest.id]] == ["Tap for {G}"]
    assert menus[bears.id] == []  # no attack, no destroy here
    # the form shows only the controls offered; a control not offered is refused, unchanged
    state = model.to_json()
    assert state["offers"] == ["mana"]
    from mtg_rulekit.sandbox.view import layout

    names = [n for _, group in layout(model)["groups"] for n in group]
    assert "tap" in names and "destroy" not in names and "attack" not in names
    assert "pass" in names and "undo" in names  # time is always there
    before = game.snapshot_json()
    refused = model.click("destroy", {"to_destroy": [bears.id]})
    assert refused.kind == "refused" and "does not offer" in refused.text
    assert game.snapshot_json() == before
    # it travels in the position, so an exported page offers the same
    again = SandboxModel.from_position(model.position())
    assert again.actions == ("mana",) and again.card_actions() == menus


def test_a_lesson_picks_the_cards_free_play_finds():
    game = Game(["Alice", "Bob"])
    model = SandboxModel(game, cards=["Powerstone", "Forest"])
    assert model.search("")["names"] == ["Forest", "Powerstone"]
    assert model.search("forst")["near"] and model.search("forst")["names"][0] == "Forest"
    refused = model.add_card("Llanowar Elves", "Alice")
    assert refused.kind == "refused" and game.state.in_zone(Zone.BATTLEFIELD) == []
    assert model.add_card("Powerstone", "Bob").ok
    assert SandboxModel.from_position(model.position()).cards == ("Forest", "Powerstone")


def test_offers_are_checked():
    from mtg_rulekit.core.errors import UsageError

    game = Game(["Alice", "Bob"])
    with pytest.raises(UsageError, match="not a kind of action"):
        SandboxModel(game, actions=["tapping"])
    with pytest.raises(UsageError, match="not a card of the catalog"):
        SandboxModel(game, cards=["Black Lotus"])


@pytest.mark.parametrize("stem", LESSONS)
def test_each_lesson_sandbox_offers_what_it_is_about(stem):
    """Each lesson declares its sandbox's kinds of action (no lesson offers everything), and
    every kind it declares is on some card's menu or in the form."""
    from mtg_rulekit.sandbox import ACTION_KINDS, CONTROL_KINDS

    model = sandbox(stem)
    assert model.actions != tuple(ACTION_KINDS), f"{stem} offers every kind of action"
    menus = model.card_actions()
    entries = [e for es in menus.values() for e in es]
    assert entries, f"{stem}: no card offers anything"
    served = {k for e in entries for k in CONTROL_KINDS[e["action"]]}
    assert set(model.actions) & served, (stem, model.actions)


def test_search_says_did_you_mean():
    model = SandboxModel(Game(["Alice", "Bob"]))
    found = model.search("Llanowar Elfs")
    assert found["near"] and found["names"][0] == "Llanowar Elves"
    assert "Did you mean Llanowar Elves" in found["says"]
    assert not model.search("elves")["near"] and "Llanowar Elves" in model.search("elves")["names"]


def test_search_and_offers_through_the_page_api():
    from mtg_rulekit.sandbox import page as sandbox_page

    game = Game(["Alice", "Bob"])
    game.add("Forest", player="Alice")
    model = SandboxModel(game, actions=["mana"], cards=["Forest", "Island"])
    view = json.loads(sandbox_page.start(json.dumps(model.position())))
    assert view["offers"] == ["mana"] and view["free_play"]["players"] == ["Alice", "Bob"]
    found = json.loads(sandbox_page.search(view["id"], "islnd"))
    assert found["names"][0] == "Island" and found["near"]
    assert "kind" in json.loads(sandbox_page.search(view["id"], 5))["outcome"]  # type: ignore[arg-type]


def test_a_spell_targeting_a_creature_you_control_is_offered_from_the_hand():
    """Cackling Counterpart in a hand ("target creature you control"): its menu names each
    creature its owner controls (the "you" is the card's owner), and clicking it casts it; the
    sandbox's menus used to fail on it (no source to ask "you" of)."""
    game = Game()
    bears = game.add("Grizzly Bears")
    game.add("Grizzly Bears", player="Bob")
    card = game.add("Cackling Counterpart", zone="hand")
    game.set_pool("Alice", [{"type": "U"}, {"type": "U"}, {"type": "G"}])
    model = SandboxModel(game)
    entries = model.card_actions()[card.id]
    assert [(e["label"], e["values"], e["legal"], e["choose"][0]["legal"]) for e in entries] == [
        ("Cast Cackling Counterpart", {"hand_card": card.id}, True, [bears.id])]
    assert clicked_as_said(model) >= len(entries)
