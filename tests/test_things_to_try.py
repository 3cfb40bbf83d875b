"""Every lesson sandbox's "Things to try" works as written (rules audit 2, item 4 of its teaching
list): each test builds the board the notebook's sandbox cell builds (by running that cell's
code, with `Sandbox` swapped for the pure `SandboxModel`: no kernel, no widgets), clicks what the
text says and checks what the text promises. The text's own promises are checked too, so a
rewrite of the text that drops one fails here and asks for the test to follow."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import nbformat
import pytest

from rulekit.sandbox import SandboxModel
from rulekit.sandbox.view import tables
from tests.lesson_shape import NOTEBOOKS, SANDBOX_HEADING, lesson_stems


def _cells(stem: str) -> tuple[str, str]:
    """The lesson's "Sandbox: try it yourself" text and the code cell after it."""
    nb = nbformat.read(NOTEBOOKS / f"{stem}.ipynb", as_version=4)
    at = next(i for i, c in enumerate(nb.cells)
              if c.cell_type == "markdown" and c.source.lstrip().startswith(SANDBOX_HEADING))
    return nb.cells[at].source, nb.cells[at + 1].source


def sandbox(stem: str, *promises: str) -> SandboxModel:
    """The sandbox the lesson's cell builds, after checking its text still says `promises`."""
    text, code = _cells(stem)
    tries = " ".join(text.partition("Things to try")[2].split())
    for promise in promises:
        assert " ".join(promise.split()) in tries, f"{stem}: the text no longer says {promise!r}"
    made: list[SandboxModel] = []
    exec(code, {"Sandbox": lambda game, **offers: made.append(  # noqa: S102
        SandboxModel(starting_game(game), **offers))})
    assert len(made) == 1, f"{stem}: the sandbox cell made {len(made)} sandboxes"
    return made[0]


def starting_game(game: Any) -> Any:
    """What `Sandbox(...)` plays on: the `Game` given, or a fresh game at the set-up of the
    scenario named (`Sandbox("r05_...")`, as `rulekit.sandbox.widget.Sandbox` reads it)."""
    from rulekit import Game
    from rulekit.display.frames import resolve_scenario
    from rulekit.scenario import game_at

    return game if isinstance(game, Game) else game_at(resolve_scenario(game), 0)


class Board:
    """Clicks on a sandbox by card name, and what the tables show."""

    def __init__(self, model: SandboxModel) -> None:
        self.model = model

    def id(self, card: str, nth: int = 0, **row: str) -> int:
        """The id of the `nth` permanent called `card` whose board row has the values `row`."""
        ids = [r["id"] for r in self.rows()
               if r["card"] == card and all(r.get(k) == v for k, v in row.items())]
        assert len(ids) > nth, f"no {card} {row} on the board: {self.rows()}"
        return ids[nth]

    def hand(self, card: str) -> int:
        return next(v for label, v in self.model.fields()["hand_card"].options if card in label)

    def ability(self, permanent: int, text: str) -> int:
        return next(v for label, v in self.model.fields({"permanent": permanent})["ability"].options
                    if text in label)

    def rows(self) -> list[dict[str, Any]]:
        return tables(self.model)["board"].rows

    def row(self, permanent: int) -> dict[str, Any]:
        return next(r for r in self.rows() if r["id"] == permanent)

    def pool(self, player: int = 0) -> str:
        return tables(self.model)["players"].rows[player]["mana pool"]

    def stack(self) -> list[str]:
        return [r["spell or ability"] for r in tables(self.model)["stack"].rows]

    def done(self, control: str, **values: Any) -> str:
        outcome = self.model.click(control, values)
        assert outcome.ok, f"{control} {values}: {outcome.text}"
        return outcome.text

    def refused(self, control: str, rule: str, **values: Any) -> None:
        before = self.model.game.snapshot_json()
        outcome = self.model.click(control, values)
        assert outcome.kind == "refused" and outcome.rule == rule, outcome.text
        assert self.model.game.snapshot_json() == before


def test_lesson_1_tapping_and_summoning_sickness():
    b = Board(sandbox("01_tapping_and_summoning_sickness",
                      "Tap the new Llanowar Elves: refused (CR 302.6)",
                      "**Target, or tap/sacrifice for a cost**",
                      "You should see the Elves tapped and {G} in Alice's pool",
                      "it untaps and makes one mana", "Next turn** twice"))
    elves = b.id("Llanowar Elves", **{"summoning sick": "yes"})
    b.refused("tap", "302.6", permanent=elves)
    drum = b.id("Springleaf Drum")
    b.done("activate", permanent=drum, ability=b.ability(drum, "Tap an untapped creature"),
           target=elves, mana="G")
    assert b.row(elves)["tapped"] == "yes" and b.pool() == "{G}"
    b.done("tap", permanent=b.id("Forest", tapped="no"))
    b.done("tap", permanent=b.id("Wastes"))
    old = b.id("Pili-Pala", **{"summoning sick": "no"})
    new = b.id("Pili-Pala", **{"summoning sick": "yes"})
    b.done("activate", permanent=old, ability=b.ability(old, "{Q}"), mana="R")
    assert b.row(old)["tapped"] == "no" and b.pool() == "{R} and {C}"  # {2} of {G}{G}{C} paid
    b.refused("activate", "302.6", permanent=new, ability=b.ability(new, "{Q}"), mana="R")
    b.done("turn")
    b.done("turn")
    assert all(r["tapped"] == "no" for r in b.rows())


def test_lesson_2_mana_abilities_and_could_produce():
    b = Board(sandbox("02_mana_abilities_and_could_produce",
                      "you get {U}", "**Undo**, destroy Bob's Island and Mountain together",
                      "it taps, but makes no mana (CR 106.5)", "Asking for `B` is refused (CR 106.7)",
                      "you get {W}{U} and the Pools stays untapped", "taps it for {C}"))
    orchard = b.id("Exotic Orchard")
    b.done("tap", permanent=orchard, mana="U")
    assert b.pool() == "{U}"
    b.done("undo")
    b.done("destroy", to_destroy=[b.id("Island"), b.id("Mountain")])
    b.done("tap", permanent=orchard, mana="U")
    assert b.row(orchard)["tapped"] == "yes" and b.pool() == "no mana"

    b.done("reset")
    pool = b.id("Reflecting Pool")
    b.done("tap", permanent=pool, mana="R")  # the Orchard could produce {R}: Bob's Mountain
    assert b.pool() == "{R}"
    b.done("undo")
    b.refused("tap", "106.7", permanent=pool, mana="B")

    b.done("tap", permanent=b.id("Wastes"))
    calciform = b.id("Calciform Pools")
    b.done("activate", permanent=calciform, ability=b.ability(calciform, "Remove X"), x=2,
           mana="WU")
    assert b.pool() == "{W} and {U}" and b.row(calciform)["tapped"] == "no"
    b.done("tap", permanent=calciform)
    assert b.pool() == "{W} and {U} and {C}" and b.row(calciform)["tapped"] == "yes"


def test_lesson_3_tapped_for_mana_triggers_and_replacements():
    b = Board(sandbox("03_tapped_for_mana_triggers_and_replacements",
                      "Tap the Forest with Wild Growth: you get {G}{G}{G}{G}",
                      "Tap the plain Forest: {G}{G}{G}", "it makes no mana, and Wild Growth and "
                      "Mana Flare stay silent"))
    enchanted, plain = b.id("Forest", 0), b.id("Forest", 1)
    b.done("tap", permanent=enchanted)
    assert b.pool() == "{G}{G}{G}{G}"
    b.done("undo")
    b.done("tap", permanent=plain)
    assert b.pool() == "{G}{G}{G}"
    b.done("reset")
    log = len(b.model.game.log)
    b.done("tap", permanent=b.id("Exotic Orchard"))
    assert b.pool() == "no mana"
    assert not [e for e in b.model.game.log.since(log) if "triggers" in e.text]


def test_lesson_4_x_in_enters_abilities():
    b = Board(sandbox("04_x_in_enters_abilities",
                      "Tap four lands for mana, set **X** to 2", "3 (2 for X, 1 from Hardened Scales)",
                      "it enters as a 0/0 and goes to the graveyard"))
    for land in ("Forest", "Forest", "Wastes", "Wastes"):
        b.done("tap", permanent=b.id(land, tapped="no"))
    b.done("cast", hand_card=b.hand("Hangarback Walker"), x=2)
    b.done("resolve")
    assert b.row(b.id("Hangarback Walker"))["counters"] == "3 × +1/+1"
    b.done("cast", hand_card=b.hand("Endless One"), x=0)
    b.done("resolve")
    assert "Endless One" not in [r["card"] for r in b.rows()]
    assert any("Endless One" in e.text and "graveyard" in e.text
               for e in b.model.game.log.since(0))


def test_lesson_5_powerstone_tokens():
    b = Board(sandbox("05_powerstone_tokens",
                      "try to cast Grizzly Bears: refused (CR 106.6)", "Alice gets a Food",
                      "Click **Reset**, tap the Mountain and the two untapped Powerstones",
                      "the Powerstone mana pays ward {2}", "watch the tapped Powerstones untap"))
    stone = b.id("Powerstone", tapped="no")
    b.done("tap", permanent=stone)
    b.done("tap", permanent=b.id("Forest"))
    b.refused("cast", "106.6", hand_card=b.hand("Grizzly Bears"))
    goose = b.id("Gilded Goose")
    b.done("activate", permanent=goose, ability=b.ability(goose, "Create a Food"))
    assert b.pool() == "no mana"
    b.done("resolve")
    assert "Food" in [r["card"] for r in b.rows()]

    b.done("reset")
    b.done("tap", permanent=b.id("Mountain"))
    b.done("tap", permanent=b.id("Powerstone", tapped="no"))
    b.done("tap", permanent=b.id("Powerstone", tapped="no"))
    assert b.pool() == "{R} and {C}{C} (not for nonartifact spells)"
    terror = b.id("Tolarian Terror")
    b.done("cast", hand_card=b.hand("Shock"), target=terror)
    assert b.stack()[0] == "Tolarian Terror: Ward {2}" and b.pool().startswith("{C}{C}")
    b.done("resolve")  # ward {2}, paid with the Powerstone mana
    assert b.pool() == "no mana" and b.stack() == ["Shock"]
    b.done("resolve")
    assert b.stack() == []
    assert all(r["tapped"] == "yes" for r in b.rows() if r["card"] == "Powerstone")
    b.done("turn")
    b.done("turn")
    assert all(r["tapped"] == "no" for r in b.rows() if r["card"] == "Powerstone")


def test_lesson_6_slagstone_refinery():
    b = Board(sandbox("06_slagstone_refinery",
                      "Count the Refinery's triggers on the stack: 4", "4 tapped Powerstones",
                      "destroy the Refinery alone: 1 trigger", "destroy only the Powerstone token: "
                      "no trigger"))
    everything = [r["id"] for r in b.rows()]
    b.done("destroy", to_destroy=everything)
    assert len(b.stack()) == 4 and all("Slagstone Refinery" in s for s in b.stack())
    for _ in range(4):
        b.done("resolve")
    assert [(r["card"], r["tapped"]) for r in b.rows()] == [("Powerstone", "yes")] * 4
    b.done("reset")
    b.done("destroy", to_destroy=[b.id("Slagstone Refinery")])
    assert len(b.stack()) == 1
    b.done("reset")
    b.done("destroy", to_destroy=[b.id("Powerstone")])
    assert b.stack() == []


def test_lesson_7_token_copies():
    b = Board(sandbox("07_token_copies_and_reflexive_triggers",
                      "the token is a plain 2/2 with haste, no counters and no Equipment",
                      "Alice gets a Food", "**Target, or tap/sacrifice for a cost**",
                      "the token enters tapped and attacking"))
    bears = b.id("Grizzly Bears")
    b.done("copy", copy_target=bears)
    token = b.id("Grizzly Bears", token="token")
    assert b.row(token)["P/T"] == "2/2" and b.row(token)["counters"] == ""
    assert b.row(token)["summoning sick"] == "no (haste)"
    assert all(r["attached to"] != f"Grizzly Bears (#{token})" for r in b.rows())
    b.done("undo")
    b.done("copy", copy_target=b.id("Gilded Goose"))
    b.done("resolve")
    assert "Food" in [r["card"] for r in b.rows()]

    b.done("reset")
    b.done("combat")
    crasher = b.id("Sandstorm Crasher")
    b.done("attack", attackers=[crasher], exert=[crasher], target=bears)
    b.done("resolve")
    token = b.id("Grizzly Bears", token="token")
    assert b.row(token)["tapped"] == "yes" and b.row(token)["attacking"] == "attacking"
    assert b.row(bears)["tapped"] == "no" and b.row(token)["P/T"] == "2/2"


def test_lesson_8_exert():
    b = Board(sandbox("08_exert",
                      "Resolve its trigger: it is a 4/4 with lifelink",
                      "watch it stay tapped through Alice's next untap step",
                      "Click **Reset** and **Go to declare attackers** again",
                      "(refused, CR 701.43a)", "(refused, CR 508.1g)"))
    initiate = b.id("Glory-Bound Initiate")
    b.done("combat")
    b.done("attack", attackers=[initiate], exert=[initiate])
    b.done("resolve")
    assert b.row(initiate)["P/T"] == "4/4"
    b.done("turn")  # Bob's turn
    b.done("turn")  # Alice's: her untap step doesn't untap it
    assert b.model.game.state.active == "Alice" and b.row(initiate)["tapped"] == "yes"
    b.done("reset")
    b.done("combat")
    b.refused("attack", "701.43a", attackers=[b.id("Grizzly Bears")],
              exert=[b.id("Grizzly Bears")])
    b.refused("attack", "508.1g", attackers=[b.id("Sandstorm Crasher")], exert=[initiate])


@pytest.mark.parametrize("stem", [s for s in lesson_stems() if "Things to try" in _cells(s)[0]])
def test_every_lesson_with_things_to_try_has_a_test_here(stem):
    assert f"test_lesson_{int(stem.split('_')[0])}_" in Path(__file__).read_text("utf-8"), stem
