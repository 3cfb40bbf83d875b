"""A bounded, seeded fuzz run in the suite ("Keep it honest"): random legal, illegal
and malformed calls over the whole catalog and every public action must keep the error
contract. `make fuzz` runs the long version (10,000 sequences) and prints the summary table."""

from __future__ import annotations

import fuzz
import pytest

from mtg_rulekit import Game, RulesError
from mtg_rulekit.core.decisions import DECISIONS
from mtg_rulekit.core.events import EventLog
from mtg_rulekit.engine.actions import ACTIONS

pytestmark = pytest.mark.xdist_group("fuzz")  # its module fixture is built once


@pytest.fixture(scope="module")
def bounded() -> fuzz.Stats:
    """The fast tier's run: the smallest that still reaches every card, action and decision."""
    return fuzz.fuzz(seed=2026, sequences=40, actions=16)


@pytest.mark.slow
def test_a_longer_run_finds_nothing():
    stats = fuzz.fuzz(seed=2026, sequences=60, actions=24)
    assert not stats.findings, "\n" + fuzz.table(stats, 0)


def test_the_bounded_run_covers_the_catalog_every_action_and_every_decision(bounded):
    assert set(bounded.cards) == set(fuzz.CARDS)
    assert {k for k in fuzz.KINDS if bounded.calls[k]} == set(fuzz.KINDS)
    done = {k for k in fuzz.KINDS if bounded.ok[k]} - {"view"}
    assert {"add", "cast", "activate", "tap_for_mana", "play_land", "resolve", "advance",
            "declare_attackers", "undo"} <= done
    assert set(bounded.decisions_tried) == set(DECISIONS)
    assert len(bounded.decisions) >= 0.8 * len(DECISIONS)  # most of them in accepted calls
    assert sum(bounded.refused.values()) > 100 and sum(bounded.malformed.values()) > 50
    # every action the engine has is reached through a public method
    assert set(ACTIONS) <= set(fuzz.KINDS)
    # review 4's classes: interrupted calls, widget messages (some done, some refused), hostile
    # scenario files
    assert sum(bounded.interrupted.values()) >= 2
    assert bounded.widget["done"] >= 1 and bounded.widget["refused"] >= 5
    assert sum(bounded.scenarios.values()) >= 3


def test_the_bounded_run_finds_nothing(bounded):
    """Strict: any exception other than RulesError/UsageError, any trace of a refused call, a
    log that doesn't serialise or an undo/replay mismatch fails here."""
    assert not bounded.findings, "\n" + fuzz.table(bounded, 0)


def test_an_escaping_exception_is_a_finding(monkeypatch):
    def broken(game, **kwargs):
        raise KeyError("boom")

    monkeypatch.setitem(ACTIONS, "pass_priority", broken)
    stats = fuzz.Stats()
    checker = fuzz.Checker(Game(), stats, 0, 0)
    assert not checker.run(fuzz.Call("pass_priority", "pass_priority"))
    assert [f.what for f in stats.findings] == ["escaped"]
    assert stats.findings[0].error == "KeyError: 'boom'"


def test_a_refusal_that_leaves_a_trace_is_a_finding(monkeypatch):
    def sloppy(self, player, life):
        self.state.players[player].life = life
        raise RulesError("no", rule="119.1")

    monkeypatch.setattr(Game, "set_life", sloppy)
    stats = fuzz.Stats()
    checker = fuzz.Checker(Game(), stats, 0, 0)
    checker.run(fuzz.Call("set_life", "set_life", (), {"player": "Bob", "life": 3}))
    assert [f.what for f in stats.findings] == ["changed the game"]
    assert stats.rules == {"119.1": 1}


def test_a_log_that_does_not_serialise_and_an_undo_mismatch_are_findings(monkeypatch):
    game = Game()
    stats = fuzz.Stats()
    checker = fuzz.Checker(game, stats, 0, 0)
    checker.remember()
    checker.run(fuzz.Call("add", "add", ("Forest",), {}))
    checker.history[0] = ("{}", "[]")  # what the game "was" before: undo must give it back
    checker.run(fuzz.Call("undo", "undo", (), {"n": 1}))
    monkeypatch.setattr(EventLog, "dumps", lambda self: (_ for _ in ()).throw(TypeError("x")))
    checker.run(fuzz.Call("pass_priority", "pass_priority"))
    assert [f.what for f in stats.findings] == ["undo mismatch", "log.dumps() failed"]


def test_the_summary_table_names_what_was_tried():
    stats = fuzz.fuzz(seed=1, sequences=2, actions=6)
    text = fuzz.table(stats, 1.0)
    assert text.startswith("rulekit fuzz: 2 sequences")
    for heading in ("calls by kind", "refused by rule", "usage errors by argument", "findings:"):
        assert heading in text
    assert all(f"\n{kind} " in text for kind in fuzz.KINDS)


def test_legal_play_records_only_legal_actions():
    set_up, play = fuzz.legal_play(seed=3, actions=30)
    assert len(play) == 30 and set_up
    game = Game(fuzz.PLAYERS)
    for name, kwargs in set_up + play:
        game.perform(name, **kwargs)  # raises if any was not legal after all
    assert len(game.actions) == len(set_up) + len(play)


def test_broken_bookkeeping_is_a_finding():
    game = Game()
    forest = game.add("Forest")
    assert fuzz.inconsistencies(game) == []
    del game.state.zones[forest.zone][forest.id]
    forest.counters["+1/+1"] = -1
    assert fuzz.inconsistencies(game) == [
        f"#{forest.id} is in the battlefield but not listed there",
        f"#{forest.id} has counters {{'+1/+1': -1}}"]


def test_the_fuzzer_tries_the_input_classes_review_3_found_missing():
    """Non-ASCII digits, numbers past the 4,300-digit printing limit, infinities, and a live
    object (or its id) as the answer to every decision key."""
    import math
    import random

    from mtg_rulekit.objects.state import GameObject

    assert any(isinstance(j, str) and not j.isascii() and j.lstrip("#").isnumeric()
               for j in fuzz.JUNK)
    assert any(type(j) is int and j.bit_length() > 15_000 for j in fuzz.JUNK)
    assert any(isinstance(j, float) and math.isinf(j) for j in fuzz.JUNK)
    game = Game()
    game.add("Forest")
    fuzzer = fuzz.Fuzzer(random.Random(3), game)
    for key in DECISIONS:
        answers = [fuzzer.decision_value(key) for _ in range(80)]
        assert any(isinstance(a, GameObject) for a in answers), key


def test_the_fuzzer_tries_the_input_classes_review_4_found():
    """Values nested 100,000 deep, a failing repr, non-decimal literals (as text, and as a
    number past the printing limit); hostile scenario literals of the same kinds; drawn from
    a second stream, so a seed's other calls are what they were."""
    import random

    for kind, step in ((list, lambda v: v[0]), (dict, lambda v: v.get("k"))):
        deep = next(j for j in fuzz.JUNK_4 if isinstance(j, kind) and j
                    and isinstance(step(j), kind))
        depth = 0
        while deep:
            deep, depth = step(deep), depth + 1
        assert depth == 100_000
    rng = random.Random(5)
    fuzzer = fuzz.Fuzzer(rng, Game())
    drawn = [fuzzer.junk_value() for _ in range(200)]
    assert any(any(d is j for j in fuzz.JUNK_4) for d in drawn)
    assert any(isinstance(j, fuzz.Unprintable) for j in fuzz.JUNK_4)
    assert all(lit in fuzz.JUNK_4 for lit in ("0x10", "0b101", "0o17"))
    assert any(type(j) is int and j.bit_length() >= 20_000 for j in fuzz.JUNK_4)
    literals = fuzz.HOSTILE_LITERALS
    assert any(lit.startswith(p) and len(lit) > 4300 for lit in literals
               for p in ("0x", "0o", "0b"))
    assert any(lit.startswith("[" * 100) for lit in literals)
    assert '[[["G"]], ["G", "G"]]' in literals


def test_an_interrupted_call_that_leaves_a_trace_is_a_finding(monkeypatch):
    """With the take-back switched off, an interrupt at the second event of a tap leaves the
    first in the log: the checker says so."""
    monkeypatch.setattr(Game, "_take_back", lambda self, error, restore, mark: None)
    game = Game()
    forest = game.add("Forest")
    game.add("Mana Reflection")
    stats = fuzz.Stats()
    checker = fuzz.Checker(game, stats, 0, 0)
    call = fuzz.Call("tap_for_mana", "tap_for_mana", (), {"obj": forest.id},
                     interrupt=(2, "proposed"))
    assert not checker.run(call)
    assert stats.interrupted == {"tap_for_mana": 1}
    assert [f.what for f in stats.findings] == ["interrupted call left a trace",
                                                "changed the game"]


def test_a_widget_message_that_escapes_its_handler_is_a_finding(monkeypatch):
    from mtg_rulekit.sandbox.widget import Sandbox

    game = Game()
    game.add("Forest")
    widget = Sandbox(game)
    stats = fuzz.Stats()
    checker = fuzz.Checker(game, stats, 0, 0)
    content = {"click": "tap", "values": {"permanent": 1}, "seq": 1}
    assert checker.run(fuzz.Call("widget", "_on_msg", (widget, content, []), target=widget))
    assert stats.widget == {"done": 1} and not stats.findings
    monkeypatch.setattr(widget.model, "click", lambda *a: 1 / 0)
    checker.run(fuzz.Call("widget", "_on_msg", (widget, content, []), target=widget))
    assert [f.what for f in stats.findings] == ["escaped the widget's handler"]


def test_a_hostile_scenario_is_refused_in_one_line_or_plays():
    import random

    stats = fuzz.Stats()
    for i in range(12):
        fuzz.check_scenario(random.Random(i), stats, 0, i)
    assert sum(stats.scenarios.values()) == 12 and not stats.findings
