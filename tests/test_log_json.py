"""The log's JSON read back (docs/engine.md, "The log's JSON"): format 2 as the engine writes it,
and format 1 (a bare list of events) in format 2's shape, meaning what today's log says.

The format-1 logs in `tests/data/log_format_1/` are real: `log.dumps()` of the engine at commit
bb526f9 (the last whose notes, choices, payments and state-based actions said English) after
playing the scenario stored beside each, as that commit had it. The test plays the same scenario
with today's engine and checks that the old log, read, has the same events and that the
narrator's words for today's facts are the old English.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from mtg_rulekit import Game
from mtg_rulekit.core import payloads as p
from mtg_rulekit.core.errors import UsageError
from mtg_rulekit.core.log_json import read_log
from mtg_rulekit.objects import narrator
from mtg_rulekit.scenario import dumps, loads, play

FORMAT_1 = Path(__file__).parent / "data" / "log_format_1"
OLD_LOGS = sorted(FORMAT_1.glob("*.json"))

SAME = ("kind", "cause", "parent", "action", "turn", "step", "subject", "text")
"""What an event is, as both formats write it."""

FACTS = {"note": {"reason", "player", "name", "object", "condition"},
         "choice": {"reason", "name", "cost", "spending"},
         "mana_spent": {"purpose"}, "sba": {"dying"}}
"""The facts format 2 writes where format 1 wrote a sentence (read back as `said`)."""

CITED_SINCE = {"117.3b"}
"""A rule today's engine cites that it didn't when the old logs were written (after a spell or
ability resolves, the active player receives priority): a citation added, not a format change."""


def _today(old_log: Path) -> Game:
    """The old log's scenario, played by today's engine. Its questions are left out: today's
    format asks more of a question (its rule and why), and questions play nothing."""
    data = tomllib.loads(old_log.with_suffix(".toml").read_text(encoding="utf-8"))
    for step in data.get("step", []):
        step.pop("question", None)
    return play(loads(dumps(data), name=old_log.stem))[-1].game


def _as_format_1_could(data: dict[str, Any], kind: str, said: bool) -> dict[str, Any]:
    """Today's event data without what format 1 couldn't write: the facts behind a sentence,
    a stack event's ability kind, a restricted mana's short words."""
    left_out = (FACTS.get(kind, set()) if said else set()) | {"ability_kind"}
    out = {k: v for k, v in data.items() if k not in left_out}
    if isinstance(out.get("mana"), list):  # mana units (an activation's `mana` says yes or no)
        out["mana"] = [{k: v for k, v in unit.items() if k != "words"} for unit in out["mana"]]
    return out


def _words(payload: p.Payload, game: Game) -> str:
    """The narrator's words for the facts that replaced a format-1 sentence."""
    if isinstance(payload, p.ManaSpent):
        return narrator.spending_text(payload.purpose)
    said = narrator.narrate(payload, game)
    return said.removeprefix("State-based actions: ") if isinstance(
        payload, p.StateBasedActions) else said


@pytest.mark.parametrize("old_log", OLD_LOGS, ids=lambda path: path.stem)
def test_a_format_1_log_means_what_todays_log_of_its_scenario_says(old_log):
    game = _today(old_log)
    doc = read_log(old_log.read_text(encoding="utf-8"))
    assert doc["format"] == 2
    old, new = doc["events"], game.log.to_json()["events"]
    assert [e["id"] for e in old] == [e["id"] for e in new]
    for was, now, event in zip(old, new, game.log, strict=True):
        where = (old_log.stem, was["id"], was["kind"])
        assert {k: was[k] for k in SAME} == {k: now[k] for k in SAME}, where
        assert set(was["rules"]) <= set(now["rules"]) <= set(was["rules"]) | CITED_SINCE, where
        said = was["data"].pop("said", None)
        assert was["data"] == _as_format_1_could(now["data"], was["kind"], said is not None), where
        if said is not None:
            assert _words(event.payload, game) == said, where


def test_the_old_logs_said_what_format_2_says_as_facts():
    """The fixtures cover every sentence format 2 replaced that a shipped scenario wrote:
    notes, a choice, payments and a state-based action."""
    said = {e["kind"] for path in OLD_LOGS
            for e in read_log(path.read_text(encoding="utf-8"))["events"] if "said" in e["data"]}
    assert said == set(FACTS)


@pytest.mark.parametrize(("kind", "old", "new"), [
    ("untap_skipped", {"object": 1, "reason": "This artifact doesn't untap during your untap "
                       "step."},
     {"object": 1, "ability": "This artifact doesn't untap during your untap step."}),
    ("untap_skipped", {"object": 1, "reason": "exert's effect ends: another player controls it "
                       "now", "clears_exert": True, "exert_of": "Alice"},
     {"object": 1, "clears_exert": True, "exert_of": "Alice", "moved": True}),
    ("untap_skipped", {"object": 1, "reason": "it was exerted", "clears_exert": True,
                       "exert_of": "Alice"},
     {"object": 1, "clears_exert": True, "exert_of": "Alice"}),
    ("untap_skipped", {"object": 1, "reason": "exerted", "clears_exert": True,
                       "exert_of": "Alice", "expired": True},
     {"object": 1, "clears_exert": True, "exert_of": "Alice", "expired": True}),
    ("lost", {"player": "Bob", "reason": "0 or less life"}, {"player": "Bob", "reason": "life"}),
    ("action", {"action": "set_life", "for_player": "Bob", "setup": True, "x": 2},
     {"action": "set_life", "for_player": "Bob", "setup": True, "life": 2}),
], ids=["ability", "moved", "exerted", "expired", "lost", "set_life"])
def test_format_1_fields_that_follow_exactly_are_read_as_format_2_writes_them(kind, old, new):
    """Each `old` is what the engine at bb526f9 wrote (turn.py's four skipped untaps, sba.py's
    loss, set_life's action); the narrator says the new as the old engine said the old."""
    event = {"id": 1, "kind": kind, "text": "", "cause": "turn", "parent": None, "action": 1,
             "turn": 1, "step": "untap", "rules": [], "subject": None, "data": old}
    before = dict(old)
    (read,) = read_log([event])["events"]
    assert read["data"] == new
    assert event["data"] is old and old == before  # the caller's data is left as it was
    if kind == "untap_skipped" and not new.get("expired"):
        class Names:
            def describe(self, obj: int) -> str:
                return f"Mana Vault (#{obj})"

        assert narrator.narrate(p.UntapSkipped(**new), Names()) == \
            f"Mana Vault (#1) doesn't untap ({old['reason']})"


def test_format_2_reads_as_written():
    game = _today(OLD_LOGS[0])
    assert read_log(game.log.dumps()) == game.log.to_json()
    data = game.log.to_json()
    assert read_log(data) == data
    assert read_log(game.log.dumps().encode()) == data


@pytest.mark.parametrize(("doc", "says"), [
    ("{not json", "not JSON"),
    ("", "not JSON"),
    ("[" * 100_000, "not JSON"),
    (b"\xff\xfe\x00", "not JSON"),
    ('{"format": 3, "events": []}', "format 3 is not one this kit reads"),
    ('{"format": "2", "events": []}', 'format "2" is not one'),
    ('{"format": 1, "events": []}', "1 (a bare list of events)"),
    ('{"events": []}', "not a log's JSON"),
    ("42", "not a log's JSON"),
    ('{"format": 2, "events": {}}', "its events are not a list"),
    ("[1]", "event 1 is not a mapping"),
    ('[{"id": 2, "kind": "note", "data": {}}]', "event 1: its id must be 1"),
    ('[{"id": true, "kind": "note", "data": {}}]', "event 1: its id must be 1"),
    ('[{"id": 1, "kind": "nope", "data": {}}]', 'event 1: "nope" is not an event kind'),
    ('[{"id": 1, "kind": "note", "data": []}]', "event 1: its data is not a mapping"),
], ids=lambda v: str(v)[:24])
def test_what_isnt_a_log_is_one_clear_line(doc, says):
    with pytest.raises(UsageError) as err:
        read_log(doc)
    message = str(err.value)
    assert message.startswith("log: ") and says in message, message
    assert "\n" not in message and len(message) < 300, message

