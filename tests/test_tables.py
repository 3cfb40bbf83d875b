"""pandas views of a game (`mtg_rulekit.display.tables.dataframes`): columns, sorting, words for mana
restrictions, the stack top first, events, and projector-friendly, escaped HTML."""

from __future__ import annotations

import re

import pytest

from mtg_rulekit import Game
from mtg_rulekit.display.tables.dataframes import (
    BOARD_COLUMNS,
    board,
    decisions,
    events,
    pools,
    stack,
    styled,
    to_html,
)

HOSTILE = "<script>alert('x')</script>"


def test_board_columns_and_values():
    game = Game(["Alice", "Bob"])
    forest = game.add("Forest", player="Alice", tapped=True)
    elves = game.add("Llanowar Elves", player="Alice", sick=True)
    bears = game.add("Grizzly Bears", player="Alice", counters={"+1/+1": 2})
    game.add("Bonesplitter", player="Alice", attached_to=bears.id)
    df = board(game)
    assert list(df.columns) == BOARD_COLUMNS  # no owner/token/exerted/attacking: none needed
    rows = {r["id"]: r for r in df.to_dict("records")}
    assert rows[forest.id]["tapped"] == "yes"
    assert rows[forest.id]["summoning sick"] == ""  # not a creature: not applicable
    assert rows[forest.id]["P/T"] == ""
    assert rows[elves.id]["summoning sick"] == "yes"
    assert rows[elves.id]["tapped"] == "no"
    assert rows[bears.id]["summoning sick"] == "no"
    assert rows[bears.id]["counters"] == "2 × +1/+1"
    assert rows[bears.id]["P/T"] == "6/4"  # 2/2, two counters, Bonesplitter's +2/+0
    splitter = next(r for r in rows.values() if r["card"] == "Bonesplitter")
    assert splitter["attached to"] == f"Grizzly Bears (#{bears.id})"


def test_board_sorted_by_controller_in_seat_order_then_id():
    game = Game(["Alice", "Bob"])
    b1 = game.add("Island", player="Bob")
    a1 = game.add("Forest", player="Alice")
    b2 = game.add("Mountain", player="Bob")
    a2 = game.add("Plains", player="Alice")
    df = board(game)
    assert list(df["id"]) == [a1.id, a2.id, b1.id, b2.id]
    assert list(df["controller"]) == ["Alice", "Alice", "Bob", "Bob"]


def test_board_haste_and_owner_and_token_columns():
    game = Game(["Alice", "Bob"])
    kiki = game.add("Kiki-Jiki, Mirror Breaker", player="Alice", sick=True)
    theirs = game.add("Grizzly Bears", player="Bob")
    game.add("Powerstone", player="Alice", token=True)
    game.gain_control(theirs, "Alice")
    df = board(game)
    assert "owner" in df.columns and "token" in df.columns
    rows = {r["id"]: r for r in df.to_dict("records")}
    assert rows[kiki.id]["summoning sick"] == "no (haste)"
    assert rows[theirs.id]["controller"] == "Alice"
    assert rows[theirs.id]["owner"] == "Bob"
    assert rows[kiki.id]["owner"] == ""  # only where it differs
    assert sorted(df["token"]) == ["", "", "token"]


def test_board_exerted_and_attacking_appear_when_relevant():
    game = Game(["Alice", "Bob"])
    initiate = game.add("Glory-Bound Initiate", player="Alice")
    assert "exerted" not in board(game).columns
    game.advance("declare_attackers")
    game.declare_attackers([initiate], exert=[initiate])
    row = board(game).set_index("id").loc[initiate.id]
    assert row["attacking"] == "attacking"
    assert row["exerted"] == "won't untap in Alice's next untap step"


def test_pools_name_restrictions_in_words_and_turn():
    game = Game(["Alice", "Bob"])
    stone = game.add("Powerstone", player="Alice", token=True)
    forest = game.add("Forest", player="Alice")
    game.tap_for_mana(stone)
    game.tap_for_mana(forest)
    df = pools(game)
    assert list(df.columns) == ["player", "life", "mana pool", "turn"]
    alice = df.set_index("player").loc["Alice"]
    assert alice["mana pool"] == "{G} and {C} (not for nonartifact spells)"
    assert alice["life"] == 20
    assert "active player" in alice["turn"] and "has priority" in alice["turn"]
    assert df.set_index("player").loc["Bob", "mana pool"] == "no mana"


def test_stack_top_first():
    game = Game(["Alice", "Bob"])
    refinery = game.add("Slagstone Refinery", player="Alice")
    memnite = game.add("Memnite", player="Alice")
    bears = game.add("Grizzly Bears", player="Alice")
    kiki = game.add("Kiki-Jiki, Mirror Breaker", player="Alice")
    game.destroy([refinery, memnite])  # two Refinery triggers
    game.activate(kiki, targets=[bears])  # on top of them
    df = stack(game)
    assert list(df.columns) == ["position", "spell or ability", "kind", "controller", "targets",
                                "mana value"]
    assert len(df) == 3
    assert df.loc[0, "position"] == "1 (top)"
    assert df.loc[0, "spell or ability"].startswith("Kiki-Jiki")
    assert df.loc[0, "targets"] == f"Grizzly Bears (#{bears.id})"
    assert list(df["spell or ability"]) == [i.text for i in reversed(game.stack)]
    assert stack(Game(["Alice", "Bob"])).empty


def test_stack_shows_a_spells_mana_value_with_x():
    game = Game(["Alice", "Bob"])
    for _ in range(4):
        game.tap_for_mana(game.add("Wastes"))
    game.cast(game.add("Hangarback Walker", zone="hand"), x=2)
    assert stack(game).loc[0, "mana value"] == "4"


def test_events_since_with_causes_and_rules():
    game = Game(["Alice", "Bob"])
    forest = game.add("Forest", player="Alice")
    game.add("Mana Reflection", player="Alice")
    mark = len(game.log)
    game.tap_for_mana(forest)
    df = events(game, since=mark)
    assert list(df.columns) == ["id", "what", "caused by", "rules"]
    assert df["id"].min() == mark + 1
    assert df.loc[0, "caused by"] == "a player's action"
    added = df[df["what"].str.contains("adds")].iloc[0]
    assert "[changed by Mana Reflection]" in added["what"]
    assert "(from #" in added["caused by"]
    assert "CR 106.12" in " ".join(df["rules"])


def test_events_leave_out_priority_passes_unless_asked():
    game = Game(["Alice", "Bob"])
    game.add("Forest", player="Alice")
    game.pass_priority()
    ids = set(events(game)["id"])
    priority = [e.id for e in game.log if e.kind.value == "priority"]
    assert priority and not ids & set(priority)
    assert set(priority) <= set(events(game, priority=True)["id"])


@pytest.mark.parametrize("view", [board, pools, stack, events])
def test_styled_is_projector_friendly_html_with_its_own_style(view):
    game = Game(["Alice", "Bob"])
    game.add("Forest", player="Alice")
    html = styled(view(game)).to_html()
    assert html.lstrip().startswith("<style")
    sizes = [int(s) for s in re.findall(r"font-size: (\d+)px", html)]
    assert sizes and min(sizes) >= 16
    assert "color: #000" in html and "background: #fff" in html
    assert "row_heading" not in html  # no index column


def test_hostile_names_are_escaped():
    game = Game([HOSTILE, 'Bob & "Co"'])
    stone = game.add("Powerstone", player=HOSTILE, token=True)
    game.tap_for_mana(stone)
    game.add("Grizzly Bears", player='Bob & "Co"')
    for df in (board(game), pools(game), events(game)):
        for html in (styled(df, caption=HOSTILE).to_html(), to_html(df, css=False)):
            assert "<script" not in html
            assert "&lt;script&gt;" in html
            assert "Bob & " not in html


def test_to_html_without_css_and_empty_tables():
    game = Game(["Alice", "Bob"])
    game.add("Forest", player="Alice")
    plain = to_html(board(game), caption="Board", css=False)
    assert "<style" not in plain and "class='rk-table'" in plain and "<caption>Board</caption>" in plain
    empty = to_html(stack(game), caption="Stack", empty="The stack is empty.")
    assert "The stack is empty." in empty and "<table" not in empty


def test_styled_uuid_makes_output_deterministic():
    game = Game(["Alice", "Bob"])
    game.add("Forest", player="Alice")
    assert styled(board(game), uuid="x").to_html() == styled(board(game), uuid="x").to_html()


def test_decisions_table_names_who_chose_what():
    game = Game(["Alice", "Bob"])
    bears = game.add("Grizzly Bears", player="Bob")
    for _ in range(3):
        game.tap_for_mana(game.add("Plains"))
    game.cast(game.add("Oblivion Ring", zone="hand"))
    game.resolve(target=bears.id)
    df = decisions(game)
    assert list(df.columns) == ["action", "event", "player", "decision", "question", "answer",
                                "given"]
    row = df.iloc[-1]
    assert (row["player"], row["decision"], row["answer"], row["given"]) == (
        "Alice", "target", f"Grizzly Bears (#{bears.id})", "given")
    assert decisions(Game(["Alice", "Bob"])).empty


def test_decisions_table_names_an_object_given_as_an_answer():
    game = Game(["Alice", "Bob"])
    forest = game.add("Forest")
    game.add("Mountain")
    game.tap_for_mana(game.find("Mountain"))
    game.cast(game.add("Grizzly Bears", zone="hand"), mana_abilities=[forest])
    row = decisions(game).set_index("decision").loc["mana_abilities"]
    assert (row["player"], row["answer"], row["given"]) == (
        "Alice", f"Forest (#{forest.id})", "given")
