"""Typed events: every event kind has a frozen payload type and the narrator's words
for it; the log keeps no live engine object; views read fields, never event prose."""

from __future__ import annotations

import ast
import dataclasses
import json
import re
from pathlib import Path

import pytest

from mtg_rulekit import Game
from mtg_rulekit.core import payloads
from mtg_rulekit.core.characteristics import AbilityKind
from mtg_rulekit.core.events import EventKind
from mtg_rulekit.engine import commit
from mtg_rulekit.objects import narrator

ROOT = Path(__file__).resolve().parents[1]
EVENT = r"(?:e|ev|event|root|first|last|logged|made|moved|cast)"  # how the code names events


def test_every_event_kind_has_a_payload_type_words_and_a_commit():
    payloads.check_complete()
    narrator.check_complete()
    commit.check_complete()
    assert set(payloads.PAYLOADS) == set(EventKind) == set(commit.COMMITS)


@pytest.mark.parametrize("check, table, says", [
    (payloads.check_complete, payloads.PAYLOADS, "without a payload type: ['mana_added']"),
    (commit.check_complete, commit.COMMITS, "without a commit (or record_only): ['mana_added']"),
])
def test_a_kind_without_its_payload_or_commit_is_refused(check, table, says):
    """The checks that run as the engine is imported name the kind that lacks one."""
    with pytest.raises(AssertionError, match=re.escape(says)):
        check({k: v for k, v in table.items() if k is not EventKind.MANA_ADDED})


def test_a_payload_type_without_words_is_refused():
    words = {cls: fn for cls, fn in narrator._NARRATIONS.items() if cls is not payloads.Tapped}
    with pytest.raises(AssertionError, match=r"can't say: \['Tapped'\]"):
        narrator.check_complete(words)


def test_the_completeness_checks_run_as_the_engine_is_imported():
    """A new event kind without its payload type, words or commit stops `import mtg_rulekit`,
    rather than failing the first time such an event is emitted."""
    for module in (payloads, narrator, commit):
        tree = ast.parse(Path(module.__file__).read_text("utf-8"))
        calls = [n for n in tree.body if isinstance(n, ast.Expr) and isinstance(n.value, ast.Call)
                 and ast.unparse(n.value) == "check_complete()"]
        assert calls, module.__name__


def test_payloads_are_frozen():
    event = payloads.Tapped(object=3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        event.object = 4  # type: ignore[misc]
    assert event.replace(as_cost=True) == payloads.Tapped(object=3, as_cost=True)


def test_a_misspelled_field_is_refused_at_once():
    with pytest.raises(TypeError):
        payloads.Tapped(objet=3)  # type: ignore[call-arg]


def _played() -> Game:
    game = Game(["Alice", "Bob"])
    elves = game.add("Llanowar Elves", player="Alice")
    game.add("Mana Reflection", player="Alice")
    refinery = game.add("Slagstone Refinery", player="Alice")
    game.tap_for_mana(elves)
    game.destroy([refinery])
    game.resolve()
    return game


def test_the_log_keeps_no_live_engine_object():
    game = _played()
    for event in game.log:
        for value in (event.payload, event.proposed, *(a.before for a in event.applied)):
            if value is None:
                continue
            for f in dataclasses.fields(value):
                if f.metadata.get("role") == "live":
                    assert getattr(value, f.name) is None, (event.kind, f.name)
    json.loads(game.log.dumps())


def test_the_narrator_says_each_event_from_its_fields():
    game = _played()
    texts = [e.text for e in game.log]
    assert "Alice adds {G}{G} from Llanowar Elves" in texts
    # a 35-word trigger condition is named as players say it, not quoted (audit N16)
    assert "Slagstone Refinery's trigger resolves: create a tapped Powerstone token" in texts


@pytest.mark.parametrize(("source", "ability", "kind", "said"), [
    ("Glory-Bound Initiate", "When you do, it gets +1/+3 and gains lifelink until end of turn.",
     AbilityKind.TRIGGERED,
     "Glory-Bound Initiate's 'when you do' ability resolves: it gets +1/+3 and gains lifelink "
     "until end of turn"),
    ("Gilded Goose", "{1}{G}, {T}: Create a Food token.", AbilityKind.ACTIVATED,
     "Gilded Goose's ability resolves: create a Food token"),
    ("Tolarian Terror", "Ward {2}", AbilityKind.TRIGGERED,
     "Tolarian Terror's ward {2} ability resolves"),
])
def test_a_resolving_ability_reads_well_aloud(source, ability, kind, said):
    """The narrator names an ability by its kind, a fact of the payload, not by its words."""
    assert narrator.ability_resolves(source, ability, kind) == said


def _views() -> list[Path]:
    folders = ["display", "export", "scenario", "repo", "lab", "sandbox"]
    files = [p for f in folders for p in (ROOT / "mtg_rulekit" / f).rglob("*.py")]
    return [*files, ROOT / "mtg_rulekit" / "cli.py"]


def test_views_read_fields_never_event_prose():
    """No event `.data` mapping anywhere, and no regex or substring test on an event's text
    in the views."""
    wrong = []
    for path in sorted((ROOT / "mtg_rulekit").rglob("*.py")):
        text = path.read_text("utf-8")
        for m in re.finditer(rf"\b{EVENT}\.data\b", text):
            wrong.append(f"{path.relative_to(ROOT)}: {m.group(0)}")
    for path in _views():
        text = path.read_text("utf-8")
        pattern = (rf"(\bin\s+{EVENT}\.text\b|re\.\w+\([^)]*\b{EVENT}\.text\b|"
                   rf"\b{EVENT}\.text\.(startswith|endswith|find|count|split)\()")
        for m in re.finditer(pattern, text):
            wrong.append(f"{path.relative_to(ROOT)}: {m.group(0)}")
    assert not wrong


def test_a_zone_change_says_one_thing_each_and_the_log_cannot_tell_the_variants_apart():
    """ZoneChanged's variants: set-up, entering the battlefield, a plain move. Each
    has its own fields; all are logged as `zone_changed` with the fields they hold."""
    game = _played()
    moves = [e for e in game.log if e.kind is EventKind.ZONE_CHANGED]
    kinds = {type(e.payload) for e in moves}
    assert {payloads.SetUp, payloads.ZoneChanged} <= kinds
    for e in moves:
        entered = e.payload.destination is payloads.Zone.BATTLEFIELD
        assert isinstance(e.payload, payloads.Entered) is entered, e.text
        assert e.to_json()["kind"] == "zone_changed"
    plain = next(e.payload for e in moves if type(e.payload) is payloads.ZoneChanged)
    assert not hasattr(plain, "counters") and not hasattr(plain, "card")
    with pytest.raises(TypeError, match="no field 'counters'"):
        plain.replace(counters={"+1/+1": 1})


def test_a_move_onto_the_battlefield_must_say_how_it_enters():
    game = Game(["Alice", "Bob"])
    bears = game.add("Grizzly Bears", player="Alice", zone="graveyard")
    move = payloads.ZoneChanged(object=bears.id, origin=payloads.Zone.GRAVEYARD,
                                destination=payloads.Zone.BATTLEFIELD, new=99)
    with pytest.raises(AssertionError, match="ZoneChanged"):
        commit.COMMITS[EventKind.ZONE_CHANGED](game, move)


def test_a_pool_of_restricted_and_plain_mana_of_one_type_has_a_shape():
    """An event whose mana mixes a restricted {C} (Powerstone) and a plain {C}: its shape (what
    diagrams fold alike) sorts them, with or without a restriction."""
    from mtg_rulekit.display.flow import log_diagram

    game = Game()
    game.set_pool("Alice", [{"type": "C", "restriction": "powerstone"}, {"type": "C"}])
    assert [payloads.shape(e.payload) for e in game.log] and log_diagram(game).source
