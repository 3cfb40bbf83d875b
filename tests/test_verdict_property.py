"""The verdict property: over the fuzzer's games, for every action it generates,
`Game.check` says legal exactly when `Game.perform` succeeds, refuses with the same rule and
message when it fails, raises `UsageError` exactly when `perform` does, and changes nothing.

Every `perform` the fuzzer's calls reach (through the public methods) is checked first, on the
game as it is; the fuzzer's own contract checks (refusals leave no trace, replay and undo give
the same state and log) run as usual on top, so a verdict that left anything behind is a
finding there too."""

from __future__ import annotations

from collections import Counter
from typing import Any

import fuzz
import pytest

from mtg_rulekit import Game, RulesError, UsageError
from mtg_rulekit.objects.state import Zone

pytestmark = pytest.mark.xdist_group("fuzz")


def _outcome(exc: BaseException | None) -> tuple[str, str | None, str]:
    if exc is None:
        return ("done", None, "")
    return (type(exc).__name__, getattr(exc, "rule", None), str(exc))


def run_checked(monkeypatch: pytest.MonkeyPatch, *, seed: int, sequences: int,
                actions: int) -> tuple[fuzz.Stats, Counter, list[str]]:
    original_perform, original_replayed = Game.perform, Game._replayed
    depth = [0]  # inside a perform or a replay: the outer call is the one checked
    seen: Counter = Counter()
    broken: list[str] = []

    def replayed(self: Game, records: Any) -> Game:
        depth[0] += 1
        try:
            return original_replayed(self, records)
        finally:
            depth[0] -= 1

    def perform(self: Game, name: str, *, decisions: Any = None, **kwargs: Any) -> Any:
        if depth[0] or self._trial is not None:
            return original_perform(self, name, decisions=decisions, **kwargs)
        depth[0] += 1
        try:
            before = (self.snapshot_json(), len(self.log), len(self.actions),
                      len(self.decisions), self.state.next_id)
            try:
                said = _outcome(self.check(name, decisions=decisions, **kwargs))
                if said[0] == "RulesError":
                    said = ("RulesError", self.check(name, decisions=decisions,
                                                     **kwargs).rule, said[2])
            except Exception as exc:  # noqa: BLE001  (compared with what perform does)
                said = _outcome(exc)
            if said[0] == "done":
                said = ("done", None, "")
            after = (self.snapshot_json(), len(self.log), len(self.actions),
                     len(self.decisions), self.state.next_id)
            if after != before:
                broken.append(f"check({name}, {kwargs!r:.200}) changed the game")
            done: BaseException | None = None
            try:
                result = original_perform(self, name, decisions=decisions, **kwargs)
            except Exception as exc:
                done = exc
                raise
            finally:
                did = _outcome(done)
                kind = "legal" if did[0] == "done" else did[0]
                seen[(name, kind)] += 1
                if did != said:
                    broken.append(f"{name}({kwargs!r:.200}, decisions={decisions!r:.100}): "
                                  f"check said {said}, perform did {did}")
            return result
        finally:
            depth[0] -= 1

    monkeypatch.setattr(Game, "perform", perform)
    monkeypatch.setattr(Game, "_replayed", replayed)
    # the fuzzer's calls only: interrupts, widget clicks and scenarios are checked elsewhere
    stats = fuzz.fuzz(seed=seed, sequences=sequences, actions=actions, interrupt=0.0,
                      widget=0.0, scenario=0.0)
    return stats, seen, broken


def test_check_agrees_with_perform_over_the_fuzzers_games(monkeypatch):
    """Bounded for the fast tier (about 500 calls: 4 sequences, each a set-up and 10 calls);
    the seed's games cast, activate, attack, block and resolve."""
    stats, seen, broken = run_checked(monkeypatch, seed=13, sequences=4, actions=10)
    assert not broken, "\n".join(broken[:10])
    assert not stats.findings, "\n" + fuzz.table(stats, 0)
    kinds = {kind for _, kind in seen}
    assert {"legal", "RulesError", "UsageError"} <= kinds  # all three verdicts were compared
    assert sum(n for (_, kind), n in seen.items() if kind == "legal") > 60
    assert sum(n for (_, kind), n in seen.items() if kind == "RulesError") > 15
    assert {"cast", "activate", "tap_for_mana", "declare_attackers", "declare_blockers",
            "resolve", "play_land"} <= {name for name, kind in seen if kind == "legal"}


@pytest.mark.slow
def test_check_agrees_with_perform_over_a_longer_run(monkeypatch):
    stats, seen, broken = run_checked(monkeypatch, seed=2026, sequences=60, actions=24)
    assert not broken, "\n".join(broken[:10])
    assert not stats.findings, "\n" + fuzz.table(stats, 0)


def test_a_check_that_disagrees_is_caught(monkeypatch):
    """The property can fail: a check that calls everything legal is a mismatch."""
    monkeypatch.setattr(Game, "check", lambda self, name, **kwargs: None)
    _, _, broken = run_checked(monkeypatch, seed=13, sequences=1, actions=6)
    assert broken and "check said ('done'" in broken[0]


def test_rules_error_and_usage_error_are_told_apart():
    assert _outcome(RulesError("x", rule="107.5"))[:2] == ("RulesError", "107.5")
    assert _outcome(UsageError("object", "x"))[:2] == ("UsageError", None)


def _judge_offers(game: Game, player: str, where: object) -> list[bool]:
    """Each of `player`'s offers performed in a what-if: it is in `legal_actions` exactly when
    performing it succeeds, `check` agrees, and a refusal names the rule `check` gave. Whether
    each was refused, in order (`where` names the game in a failure)."""
    legal = game.legal_actions(player)
    refused = []
    for offer in game.offers(player):
        with game.what_if():
            verdict = game.check(offer.action, **offer.arguments)
            try:
                game.perform(offer.action, **offer.arguments)
                done = None
            except RulesError as err:
                done = err
        assert (offer in legal) is (done is None), (where, offer)
        assert (verdict is None) is (done is None), (where, offer)
        if done is not None:
            assert verdict is not None and verdict.rule == done.rule, (where, offer)
        refused.append(done is not None)
    return refused


def test_every_legal_action_of_the_fuzzers_games_is_performed_and_every_other_refused():
    """At the end of a few fuzzed games: each offer `legal_actions` keeps is performed, each
    other offer is refused by perform with the rule check gave."""
    tried = refused = 0
    for sequence in range(5):
        game = fuzz.run_sequence(13, sequence, 8, fuzz.Stats())
        for player in game.players:
            judged = _judge_offers(game, player, where=sequence)
            tried += len(judged)
            refused += sum(judged)
    assert tried > 30 and refused > 3


def _board_with_in_hand(card: str, holder: str) -> Game:
    """A main phase where `holder` holds `card` with mana to spare, and both players control a
    creature, a land and an artifact: what a card in hand may target or pay with."""
    from mtg_rulekit.cards import catalog

    game = Game(["Alice", "Bob"])
    game.set_turn(turn=3, active="Alice", step="main1")
    for player in ("Alice", "Bob"):
        game.add("Grizzly Bears", player=player)
        game.add("Forest", player=player)
        game.add("Memnite", player=player)
    game.add(card, player=holder, zone="hand")
    game.set_pool(holder, [{"type": t} for t in "WUBRGC" * 3])
    assert card in catalog()
    return game


@pytest.mark.parametrize("holder", ["Alice", "Bob"])
def test_every_catalog_card_in_a_hand_is_listed_and_judged(holder):
    """Each catalog card in a hand (the active player's, then the other's), next to creatures
    both players control: `offers`, `legal_actions` and every card's menu are listed without
    an error, and each offer's verdict is what performing it does (Cackling Counterpart in a
    hand with a creature on the board once broke the listing)."""
    from mtg_rulekit.cards import catalog
    from mtg_rulekit.sandbox import SandboxModel

    judged = 0
    for card in sorted(catalog()):
        game = _board_with_in_hand(card, holder)
        held = next(o for o in game.state.in_zone(Zone.HAND))
        assert any(o.object == held.id for o in game.offers(holder)), card
        for player in game.state.players:
            judged += len(_judge_offers(game, player, where=card))
        assert SandboxModel(game).card_actions()[held.id], card
    assert judged > 5 * len(catalog())
