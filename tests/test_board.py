"""The board view (`mtg_rulekit.display.board`): every catalog card drawn on a board, what
each card's accessible name and classes say (tapped, sick, counters, attachments, copies,
exert, a borrowed creature), restricted and rider mana told apart, the stack, hidden hands,
escaping, determinism, and what a walkthrough step marks as changed. The HTML is read back with
`html.parser` (no browser: the fast tier); `test_board_browser.py` looks at it in Chromium."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from typing import Any

import pytest

from mtg_rulekit import Game
from mtg_rulekit.cards import catalog
from mtg_rulekit.display.board import (
    board_css,
    board_data,
    board_document,
    board_for_sandbox,
    board_for_step,
    board_html,
    step_changes,
)
from mtg_rulekit.display.board.mana_symbols import FILLS, contrast, symbol_svg, text_html
from mtg_rulekit.scenario import play

VOID = {"br", "img", "input", "meta", "link", "hr", "circle", "path", "rect"}


class Node:
    def __init__(self, tag: str, attrs: dict[str, str], parent: Node | None) -> None:
        self.tag, self.attrs, self.parent = tag, attrs, parent
        self.children: list[Node] = []
        self.text: list[str] = []

    @property
    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())

    def all_text(self) -> str:
        return "".join(self.text) + "".join(c.all_text() for c in self.children)

    def walk(self):
        yield self
        for c in self.children:
            yield from c.walk()

    def find(self, cls: str) -> list[Node]:
        return [n for n in self.walk() if cls in n.classes]

    def ancestors(self):
        n = self.parent
        while n is not None:
            yield n
            n = n.parent


class Tree(HTMLParser):
    """The HTML as a tree of `Node`s (fails on a close tag that doesn't match)."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", {}, None)
        self.at = self.root
        self.feed(html)
        self.close()
        assert self.at is self.root, f"unclosed <{self.at.tag}>"

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v or "" for k, v in attrs}, self.at)
        self.at.children.append(node)
        if tag not in VOID:
            self.at = node

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.at.children.append(Node(tag, {k: v or "" for k, v in attrs}, self.at))

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        assert self.at.tag == tag, f"</{tag}> closes <{self.at.tag}>"
        self.at = self.at.parent  # type: ignore[assignment]

    def handle_data(self, data: str) -> None:
        self.at.text.append(data)


def cards(html: str) -> dict[int, Node]:
    """Each `rk-card` by its `data-id` (each id once)."""
    found: dict[int, Node] = {}
    for node in Tree(html).root.find("rk-card"):
        key = int(node.attrs["data-id"])
        assert key not in found, f"card {key} drawn twice"
        found[key] = node
    return found


def label(node: Node) -> str:
    return node.attrs["aria-label"]


# ------------------------------------------------------------------ every card
def _every_card_game() -> Game:
    """Every catalog card: permanents on Alice's battlefield (an Aura on a land or creature it
    may enchant, a card that chooses as it enters with a choice), the rest in her hand."""
    game = Game(["Alice", "Bob"])
    land = game.add("Forest", player="Alice")
    creature = game.add("Grizzly Bears", player="Alice")
    for name, definition in sorted(catalog().items()):
        chars = definition.printed
        if chars.is_a("Instant") or chars.is_a("Sorcery"):
            game.add(name, player="Alice", zone="hand")
            continue
        kwargs: dict[str, Any] = {"player": "Alice", "token": definition.token}
        if "Aura" in chars.subtypes:
            kwargs["attached_to"] = land.id if "land" in chars.oracle.split("\n")[0].lower() \
                or "Forest" in chars.oracle.split("\n")[0] else creature.id
        try:
            game.add(name, **kwargs)
        except Exception as first:  # a choice to make as it enters: give one
            text = str(first)
            choices = {"color": "G"} if "color" in text else {"creature_type": "Bear"}
            try:
                game.add(name, **kwargs, choices=choices)
            except Exception:
                game.add(name, player="Alice", zone="hand")
    return game


@pytest.fixture(scope="module")
def every_card() -> tuple[Game, str]:
    game = _every_card_game()
    return game, board_html(game)


def test_every_catalog_card_is_drawn_once_with_its_name(every_card):
    game, html = every_card
    drawn = cards(html)
    objects = [o for o in game.state.objects.values()
               if o.zone.value in ("battlefield", "hand", "graveyard", "exile")]
    assert len(objects) >= len(catalog())
    for obj in objects:
        node = drawn[obj.id]
        name = game.chars(obj).name
        assert label(node).startswith(name + ","), label(node)
        assert node.attrs["tabindex"] == "0" and node.attrs["role"] == "group"
        names = [n for n in node.find("rk-name")]
        assert names and names[0].all_text() == name
        if game.chars(obj).pt:
            assert game.chars(obj).pt in node.find("rk-pt")[0].all_text()
    assert {o.card.name for o in objects} >= set(catalog())


def test_lands_and_other_permanents_are_in_their_own_rows(every_card):
    game, html = every_card
    drawn = cards(html)
    for obj in game.permanents():
        chars = game.chars(obj)
        rows = [a for a in drawn[obj.id].ancestors() if "rk-cards" in a.classes]
        if obj.attached_to is not None:
            assert "rk-with" in drawn[obj.id].parent.classes  # beside its host, not in a row
            continue
        want = "rk-lands" if chars.is_a("Land") and not chars.is_a("Creature") \
            else "rk-permanents"
        assert want in rows[0].classes, (chars.name, rows[0].classes)


def test_every_card_s_full_text_is_on_demand(every_card):
    game, html = every_card
    drawn = cards(html)
    for obj in game.permanents():
        node = drawn[obj.id]
        texts = [a.text for a in game.chars(obj).abilities if a.text]
        if texts:
            assert node.attrs["title"] == "\n".join(texts)


def test_the_board_data_is_plain_json(every_card):
    game, _ = every_card
    data = board_data(game)
    assert json.loads(json.dumps(data)) == data
    assert board_html(data) == board_html(game)


# ------------------------------------------------------------------ what a card says
def test_a_tapped_card_is_turned_and_says_so():
    game = Game(["Alice", "Bob"])
    tapped = game.add("Forest", tapped=True)
    untapped = game.add("Forest")
    drawn = cards(board_html(game))
    assert "rk-tapped" in drawn[tapped.id].classes
    assert label(drawn[tapped.id]) == "Forest, basic land, tapped, Alice's"
    assert "rk-tapped" not in drawn[untapped.id].classes
    assert "tapped" not in label(drawn[untapped.id])
    assert ".rk-tapped .rk-face { transform: translateX(var(--rk-card-h)) rotate(90deg); }" \
        in board_css()


def test_summoning_sickness_and_haste():
    game = Game(["Alice", "Bob"])
    elves = game.add("Llanowar Elves", sick=True)
    kiki = game.add("Kiki-Jiki, Mirror Breaker", sick=True)
    old = game.add("Grizzly Bears")
    drum = game.add("Springleaf Drum", sick=True)
    drawn = cards(board_html(game))
    assert label(drawn[elves.id]) == "Llanowar Elves, creature, 1/1, summoning sick, Alice's"
    assert "rk-sick" in drawn[elves.id].classes
    assert [b.all_text() for b in drawn[elves.id].find("rk-badge")] == ["sick"]
    assert "has haste" in label(drawn[kiki.id]) and "summoning sick" not in label(drawn[kiki.id])
    assert "sick" not in label(drawn[old.id])
    assert "sick" not in label(drawn[drum.id])  # only creatures are summoning sick


def test_counters_damage_and_a_borrowed_creature():
    game = Game(["Alice", "Bob"])
    walker = game.add("Hangarback Walker", counters={"+1/+1": 3})
    stone = game.add("Vivid Crag", counters={"charge": 2})
    bears = game.add("Grizzly Bears", player="Bob")
    game.gain_control(bears, "Alice")
    drawn = cards(board_html(game))
    assert "3 +1/+1 counters" in label(drawn[walker.id])
    assert "+1/+1 ×3" in [b.all_text() for b in drawn[walker.id].find("rk-badge")]
    assert drawn[walker.id].find("rk-pt")[0].all_text() == "3/3"
    assert "2 charge counters" in label(drawn[stone.id])
    borrowed = drawn[bears.id]
    assert label(borrowed).endswith("Bob's, controlled by Alice")
    assert "rk-borrowed" in borrowed.classes
    # a borrowed creature sits on its controller's side
    side = next(a for a in borrowed.ancestors() if "rk-side" in a.classes)
    assert side.attrs["data-player"] == "Alice"


def test_auras_and_equipment_sit_beside_their_host():
    game = Game(["Alice", "Bob"])
    forest = game.add("Forest")
    growth = game.add("Wild Growth", attached_to=forest.id)
    bears = game.add("Grizzly Bears")
    splitter = game.add("Bonesplitter", attached_to=bears.id)
    drawn = cards(board_html(game))
    for host, att, name in ((forest, growth, "Wild Growth"), (bears, splitter, "Bonesplitter")):
        group = drawn[att.id].parent.parent
        assert "rk-group" in group.classes and drawn[host.id].parent is group
        assert f"attached to {game.describe(host)}" in label(drawn[att.id])
        assert f"with {name} attached" in label(drawn[host.id])
        assert "rk-attached" in drawn[att.id].classes
    assert "attached" not in label(drawn[bears.id]).replace("Bonesplitter attached", "")


def test_tokens_and_copies_are_marked():
    from mtg_rulekit.display.walkthrough.frames import resolve_scenario

    result = play(resolve_scenario("r15_copy_of_a_copy"))[-1]
    game = result.game
    drawn = cards(board_html(game))
    clone = game.find("Clone", zone=None) if game.find_all("Clone") else None
    objs = {o.id: o for o in game.permanents()}
    tokens = [o for o in objs.values() if o.token and o.copiable is not None]
    assert tokens
    for tok in tokens:
        node = drawn[tok.id]
        assert "rk-token" in node.classes and "rk-copy" in node.classes
        assert ", token copy of " in label(node)
    nontoken_copies = [o for o in objs.values() if not o.token and o.copiable is not None]
    assert nontoken_copies, clone
    for obj in nontoken_copies:
        assert "copy of" in label(drawn[obj.id]) and "the card is Clone" in label(drawn[obj.id])
    game2 = Game()
    thopter = game2.add("Thopter", token=True)
    assert label(cards(board_html(game2))[thopter.id]).startswith("Thopter, token, ")


def test_exerted_and_attacking():
    from mtg_rulekit.display.walkthrough.frames import resolve_scenario

    results = play(resolve_scenario("r14_exert_borrowed_creature"))
    attacking = next(r for r in results if any(o.get("attacking")
                                               for o in r.snapshot.get("objects", [])))
    game = attacking.game
    node = next(n for n in cards(board_html(game)).values() if "rk-attacking" in n.classes)
    assert "attacking" in label(node)
    assert "exerted: won't untap in Alice's next untap step" in label(node)
    assert "rk-exerted" in node.classes


# ------------------------------------------------------------------ zones, pools, stack, turn
def test_hands_graveyards_and_exile():
    game = Game(["Alice", "Bob"])
    mine = game.add("Grizzly Bears", zone="hand")
    theirs = game.add("Shock", player="Bob", zone="hand")
    dead = game.add("Memnite", zone="graveyard")
    gone = game.add("Silvercoat Lion", player="Bob", zone="exile")
    alice_view = board_html(game, viewer="Alice")
    drawn = cards(alice_view)
    assert mine.id in drawn and theirs.id not in drawn and "Shock" not in alice_view
    assert "Hand: 1" in Tree(alice_view).root.all_text()  # Bob's hand, as a count
    assert "in Alice's graveyard" in label(drawn[dead.id])
    pile = next(a for a in drawn[dead.id].ancestors() if a.tag == "details")
    assert "rk-pile" in pile.classes and pile.find("rk-card")
    assert "Graveyard: 1" in pile.all_text()
    assert "in exile" in label(drawn[gone.id])
    everyone = cards(board_html(game))  # a walkthrough: every hand face up
    assert theirs.id in everyone


def test_the_bottom_player_and_the_viewer():
    game = Game(["Alice", "Bob"])
    game.set_turn(turn=2, active="Bob", step="main1")
    data = board_data(game, bottom="Bob")
    assert [p["name"] for p in data["players"]] == ["Alice", "Bob"]
    assert board_data(game)["players"][-1]["name"] == "Alice"
    assert board_data(game, viewer="Bob")["players"][-1]["name"] == "Bob"
    assert "data-bottom='Alice'" in board_for_step(game)
    assert "data-bottom='Bob'" in board_for_sandbox(game)
    with pytest.raises(ValueError):
        board_data(game, viewer="Carol")


def test_restricted_and_rider_mana_look_and_read_different():
    from tests.test_combat_exert import _arena_mana

    game = Game(["Alice", "Bob"])
    game.set_pool("Alice", [{"type": "C", "restriction": "powerstone"}, {"type": "C"},
                            {"type": "G"}])
    _arena_mana(game)
    html = board_html(game)
    pool = [n for n in Tree(html).root.find("rk-mana")]
    labels = [n.attrs["aria-label"] for n in pool]
    assert "1 green" in labels and "1 colorless" in labels
    stone = next(n for n in pool if "Powerstone" in n.attrs["aria-label"])
    assert stone.attrs["aria-label"] == ("1 colorless from Powerstone (can't be spent to cast a "
                                         "nonartifact spell)")
    assert "rk-restricted" in stone.classes and "rk-marked" in stone.find("rk-sym")[0].classes
    haste = next(n for n in pool if "haste" in n.attrs["aria-label"])
    assert haste.attrs["aria-label"].startswith("2 red (a creature spell it is spent on gains "
                                                "haste")
    assert "gives haste" in haste.all_text() and "rk-restricted" in haste.classes
    plain = next(n for n in pool if n.attrs["aria-label"] == "1 colorless")
    assert "rk-restricted" not in plain.classes and not plain.find("rk-marked")


def test_the_stack_newest_on_top_with_controllers():
    game = Game(["Alice", "Bob"])
    game.set_pool("Alice", [{"type": "R"}, {"type": "R"}])
    shock = game.add("Shock", zone="hand")
    bears = game.add("Grizzly Bears", player="Bob")
    game.cast(shock, targets=[bears])
    html = board_html(game)
    items = Tree(html).root.find("rk-stack-item")
    assert len(items) == 1 and "rk-top-item" in items[0].classes
    assert items[0].attrs["aria-label"].startswith("1 (top, resolves first): Alice's spell — ")
    assert "Grizzly Bears" in items[0].attrs["aria-label"]
    assert items[0].attrs["data-source"] == str(shock.id) or items[0].attrs["data-source"]


def test_the_turn_line_and_the_strip_of_steps():
    game = Game(["Alice", "Bob"])
    game.set_turn(turn=3, active="Bob", step="upkeep")
    root = Tree(board_html(game)).root
    current = [n for n in root.walk() if n.attrs.get("aria-current") == "step"]
    assert [n.all_text() for n in current] == ["Upkeep"]
    line = root.find("rk-turnline")[0].all_text()
    assert "Turn 3" in line and "Bob's turn" in line and "upkeep" in line
    assert "has priority" in line
    assert len(root.find("rk-stepitem")) == 12


# ------------------------------------------------------------------ what changed in a step
def test_a_step_s_changes_are_outlined_and_said():
    game = Game(["Alice", "Bob"])
    forest = game.add("Forest")
    other = game.add("Forest")
    mark = len(game.log)
    game.tap_for_mana(forest)
    changed = step_changes(list(game.log)[mark:])
    assert forest.id in changed and other.id not in changed and "Alice" in changed
    drawn = cards(board_for_step(game, changed))
    assert "rk-changed" in drawn[forest.id].classes
    assert label(drawn[forest.id]).endswith(", changed this step")
    assert "rk-changed" not in drawn[other.id].classes
    player = Tree(board_for_step(game, changed)).root.find("rk-player")[-1]
    assert "rk-changed" in player.classes


def test_a_moved_object_marks_its_new_self():
    game = Game(["Alice", "Bob"])
    bears = game.add("Grizzly Bears")
    mark = len(game.log)
    game.destroy([bears])
    changed = step_changes(list(game.log)[mark:])
    new = game.find("Grizzly Bears", zone="graveyard")
    assert new.id in changed and bears.id not in changed


# ------------------------------------------------------------------ escaping, determinism
HOSTILE = "<script>alert('x')</script>\"&{G}"


def test_hostile_names_are_text():
    game = Game([HOSTILE, "Bob </p><img src=x onerror=alert(1)>"])  # names: 40 at most
    game.add("Cavern of Souls", player=HOSTILE,
             choices={"creature_type": "Elf"})
    game.add("Grizzly Bears", player=HOSTILE, zone="hand")
    game.set_pool(HOSTILE, [{"type": "W", "restriction": "cavern",
                             "creature_type": "<b>Elf</b>"}])
    html = board_html(game, label="<i>board</i>")
    root = Tree(html).root
    tags = {n.tag for n in root.walk()}
    assert not tags & {"script", "img", "b", "i"}  # the board's own markup has none of them
    assert HOSTILE in root.all_text()
    assert "<b>Elf</b>" in root.all_text() or any(
        "<b>Elf</b>" in n.attrs.get("aria-label", "") for n in root.walk())
    assert root.children[0].attrs["aria-label"] == "<i>board</i>"
    assert cards(html)  # parses, every card once


def test_the_board_is_deterministic():
    from mtg_rulekit.display.walkthrough.frames import resolve_scenario

    first = play(resolve_scenario("r13_token_copy_enters"))[-1]
    again = play(resolve_scenario("r13_token_copy_enters"))[-1]
    a = board_for_step(first.game, step_changes(first.events))
    assert a == board_for_step(again.game, step_changes(again.events))
    assert a == board_for_step(first.game, step_changes(first.events))


def test_a_standalone_page_carries_the_style_sheet():
    page = board_document(board_html(Game()), title="<x>")
    assert page.startswith("<!DOCTYPE html>") and "<title>&lt;x&gt;</title>" in page
    assert ".rk-board" in page and "<script" not in page


# ------------------------------------------------------------------ mana symbols
@pytest.mark.parametrize("key", sorted(FILLS))
def test_every_symbol_s_letter_has_contrast(key):
    fill, ink, _ = FILLS[key]
    assert contrast(fill, ink) >= 4.5


def test_symbols_in_text_are_said_in_words():
    html = text_html("{T}, {2}{G}: Add {C}. <b>")
    root = Tree(html).root
    words = [n.all_text() for n in root.find("rk-sr")]
    assert words == ["tap", "2 generic", "green", "colorless"]
    assert "b" not in {n.tag for n in root.walk()} and "<b>" in root.all_text()
    assert symbol_svg("G", label="green").count("role='img'") == 1
    assert "aria-hidden='true'" in symbol_svg("G")


BARE = """
import json, sys
sys.path.insert(0, {root!r})
from mtg_rulekit import Game
from mtg_rulekit.display.board import board_css, board_data, board_html
game = Game(["Alice", "Bob"])
forest = game.add("Forest")
game.tap_for_mana(forest)
html = board_html(game, changed={{forest.id}})
json.dumps(board_data(game))
assert "rk-board" in html and ".rk-board" in board_css()
third = sorted({{m.split(".")[0] for m in sys.modules}} - set(sys.stdlib_module_names)
               - {{"mtg_rulekit", "__main__"}})
assert not third, third
print("ok")
"""


def test_the_board_needs_only_the_standard_library(tmp_path):
    """The board is drawn with the standard library alone (`python -S`: no site-packages), so
    the browser sandbox (Pyodide) can draw it too."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    run = subprocess.run([sys.executable, "-S", "-c", BARE.format(root=str(root))],
                         capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.strip() == "ok"
