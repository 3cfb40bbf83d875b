"""`python -m mtg_rulekit cards [--json] [NAME]` and the site's cards page: the catalog an author
writes scenarios from, with where each card is already used."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from mtg_rulekit.authoring.cards import CardEntry, entries, find
from mtg_rulekit.cards import catalog
from mtg_rulekit.export.cards import render
from mtg_rulekit.scenario import shipped
from tests.helpers import rulekit_cli

ROOT = Path(__file__).resolve().parent.parent


def cards(*args: str, process: bool = False) -> subprocess.CompletedProcess[str]:
    """`python -m mtg_rulekit cards ARGS` (in this process unless `process`; see helpers)."""
    return rulekit_cli("cards", *args, process=process)


def test_json_lists_the_whole_catalog_with_uses():
    done = cards("--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert sorted(e["name"] for e in data) == sorted(catalog())
    by = {e["name"]: e for e in data}
    forest = by["Forest"]
    assert forest["mana_cost"] == "" and forest["type_line"] == "Basic Land — Forest"
    assert forest["oracle"] == "({T}: Add {G}.)" and forest["power_toughness"] is None
    assert "r07_paying_tap" in forest["scenarios"]
    assert "01_tapping_and_summoning_sickness" in forest["lessons"]
    walker = by["Hangarback Walker"]
    assert walker["mana_cost"] == "{X}{X}" and walker["power_toughness"] == "0/0"
    assert "r06_x_in_enters" in walker["scenarios"]
    assert "04_x_in_enters_abilities" in walker["lessons"]
    assert by["Powerstone"]["token"] is True


def test_every_shipped_scenario_uses_some_listed_card():
    used = {s for e in entries() for s in e.scenarios}
    assert used == {p.stem for p in shipped()}


def test_text_for_one_card_in_any_case():
    done = cards("mana REFLECTION")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "Mana Reflection  {4}{G}{G}"
    assert lines[1].strip() == "Enchantment"
    assert any("r05_replacement_modifies_production" in line for line in lines)


@pytest.mark.parametrize("name, message", [
    ("Hangarback Walkr", "did you mean 'Hangarback Walker'?"),
    ("Birds of Paradise", "no card 'Birds of Paradise' in the catalog"),
])
def test_an_unknown_card_is_one_line_and_exit_2(name, message):
    done = cards(name)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().splitlines() == [f"rulekit cards: {done.stderr.strip()[15:]}"]
    assert message in done.stderr


def test_find_matches_names_exactly_else_raises():
    items = entries()
    assert find("  forest ", items).name == "Forest"
    with pytest.raises(LookupError):
        find("Fores", [e for e in items if e.name != "Forest"][:3])


def test_the_page_escapes_every_text_and_links_built_lessons():
    evil = CardEntry("<script>x</script>", "{1}", "Creature — <b>", 'Say "hi" & <i>',
                     "1/1", False, ("01_tap", "02_not_built"), ("r07_paying_tap",))
    page = render([evil], built={"01_tap": "Tapping <b>a</b> Forest"})
    assert "<script>x" not in page and "&lt;script&gt;x&lt;/script&gt;" in page
    assert "Creature — &lt;b&gt;" in page and "Say &quot;hi&quot; &amp; &lt;i&gt;" in page
    # a built lesson by its title, escaped; one not built by its file's words, with no link
    assert '<a href="01_tap.html">Tapping &lt;b&gt;a&lt;/b&gt; Forest</a>' in page
    assert "Lesson 2: not built" in page and 'href="02_not_built.html"' not in page
