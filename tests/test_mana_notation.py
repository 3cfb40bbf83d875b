"""One notation for restricted and rider mana (CR 106.6) in every view: `run`, the pages' mana
pool tables, the board's caption, the questions' choices and the docs all show the mana's
symbols and, after a restricted or ridden group, the same few words in parentheses:
`{C}{C} (not for nonartifact spells)`, `{R} (gives haste)`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mtg_rulekit.core.mana import notation_shown
from mtg_rulekit.display.board.data import board_data
from mtg_rulekit.display.tables.rows import pools_table
from mtg_rulekit.scenario import loads, play
from tests.helpers import rulekit_cli

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = """title = "Two kinds of special mana"

[setup]
turn = 3
step = "main1"

[setup.pool]
Alice = ["R", "G", "C (powerstone)", "C (powerstone)"]

[[setup.permanent]]
card = "Arena of Glory"
name = "arena"

[[step]]
narration = "Alice exerts Arena of Glory for {R}{R}."
do = "activate"
object = "arena"
ability = "Exert"

[step.question]
ask = "What will Alice's pool hold?"
about = "pool.Alice"
choices = [["G", "R", "R"], ["G", "C (powerstone)", "C (powerstone)", "R +haste", "R +haste"]]
rule = "106.6"
why = "The Arena's mana gives haste; the Powerstone mana keeps its restriction."
"""
SHOWN = "{G} and {R}{R} (gives haste) and {C}{C} (not for nonartifact spells)"


@pytest.mark.parametrize("notation, shown", [
    ("G", "{G}"), ("C (powerstone)", "{C} (not for nonartifact spells)"),
    ("R +haste", "{R} (gives haste)"), ("3 x C (powerstone)", "{C}{C}{C} (not for nonartifact "
                                                             "spells)"),
    ("W (cavern:Elf) +uncounterable", "{W} (only Elf spells; can't be countered)"),
    ("main1", "main1"), ("C (bogus)", "C (bogus)"),
])
def test_scenario_notation_is_shown_as_every_view_shows_it(notation, shown):
    assert notation_shown(notation) == shown


def test_run_tables_board_and_questions_say_the_same(tmp_path):
    results = play(loads(SCENARIO))
    game = results[1].game
    assert pools_table(game).rows[0]["mana pool"] == SHOWN
    captions = [m["caption"] for m in board_data(game)["players"][-1]["pool"] if m["caption"]]
    for caption in captions:
        assert f"({caption})" in SHOWN
    assert len(captions) == 2
    q = results[1].question
    assert q is not None and q.labels[1] == SHOWN
    path = tmp_path / "mana.toml"
    path.write_text(SCENARIO, "utf-8")
    done = rulekit_cli("run", str(path))
    assert done.returncode == 0, done.stderr
    assert f"Alice: life 20, pool {SHOWN}; Arena of Glory#1 (arena, tapped)" in done.stdout
    assert "*" not in done.stdout.split("Set-up", 1)[1]
    units = json.loads(rulekit_cli("run", "--json", str(path)).stdout)["steps"][1]["state"][
        "players"][0]["pool"]
    assert {u.get("words") for u in units} == {None, "not for nonartifact spells", "gives haste"}


def test_the_docs_write_it_the_same_way():
    scenarios = (ROOT / "docs" / "scenarios.md").read_text("utf-8")
    assert "`{C}{C} (not for nonartifact spells)`" in scenarios
    assert "`{R} (gives haste)`" in scenarios
