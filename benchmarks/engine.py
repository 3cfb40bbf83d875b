"""Engine benchmarks: p1 (Slagstone Refinery at scale), p2 ("could produce" for 400 lands), p7
(random legal play over the whole catalog; a Forest with 64 Mana Reflections)."""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable

from mtg_rulekit import Game


def median_seconds(fn: Callable[[], object], runs: int = 5) -> tuple[float, list[float]]:
    """Median wall time of `runs` calls (set-up is inside `fn` only when it must be)."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), times


def refinery_board(n: int) -> Game:
    game = Game()
    game.add("Slagstone Refinery")
    for _ in range(n):
        game.add("Fellwar Stone")
    return game


def refinery_run(n: int, runs: int = 5, *, collector: bool = False) -> tuple[float, list[float]]:
    """Destroy Slagstone Refinery and N nontoken artifacts at once; resolve every trigger.

    Timed the way `timeit` times code: the cyclic garbage collector is paused during the timed
    part (`collector=True` keeps it running). With it running, a 1,000-artifact run finishes
    before any full collection while a 10,000-artifact run pays for several, which skews the
    ratio by about 15% without saying anything about the engine's own scaling.
    """
    times = []
    for _ in range(runs):
        game = refinery_board(n)
        everything = [o.id for o in game.state.battlefield()]
        gc.collect()
        if not collector:
            gc.disable()
        try:
            start = time.perf_counter()
            game.destroy(everything)
            while game.state.stack:
                game.resolve()
            times.append(time.perf_counter() - start)
        finally:
            gc.enable()
        assert len(game.find_all("Powerstone")) == n + 1
    return statistics.median(times), times


def could_produce_board() -> Game:
    game = Game()
    for _ in range(200):
        game.add("Reflecting Pool")
        game.add("Exotic Orchard")
    for basic in ("Plains", "Island", "Swamp", "Mountain", "Forest"):
        game.add(basic, player="Bob")
    return game


def could_produce_ms(runs: int = 7) -> tuple[float, list[float]]:
    """"Could produce" for every one of Alice's 400 lands, from a cold cache, in ms."""
    game = could_produce_board()
    lands = game.permanents("Alice")

    def once() -> None:
        game._cp_cache = None
        for land in lands:
            game.could_produce(land)

    median, times = median_seconds(once, runs)
    return median * 1000, [t * 1000 for t in times]


def _fuzz_module():
    """tests/fuzz.py, whose legal player records the random games p7 replays."""
    import sys
    from pathlib import Path

    tests = str(Path(__file__).resolve().parent.parent / "tests")
    if tests not in sys.path:
        sys.path.insert(0, tests)
    import fuzz

    return fuzz


def legal_games(games: int = 10, actions: int = 60) -> list[tuple[list, list]]:
    """`games` random games over the whole catalog where every action is legal, recorded once
    (set-up actions, play actions): tests/fuzz.py's `legal_play`, seeds 0..games-1."""
    fuzz = _fuzz_module()
    return [fuzz.legal_play(seed, actions) for seed in range(games)]


def legal_mix(games: int = 10, actions: int = 60) -> dict[str, int]:
    """Which actions the recorded legal games are made of (for raw.json)."""
    from collections import Counter

    mix = Counter(name for _, play in legal_games(games, actions) for name, _ in play)
    return dict(mix.most_common())


def fuzz_actions_per_s(runs: int = 5, games: int = 10,
                       actions: int = 60) -> tuple[float, list[float]]:
    """Random legal play over the whole catalog: play actions per second, replaying the
    recorded games (the set-up is untimed; refused tries are not part of legal play)."""
    recorded = legal_games(games, actions)
    fuzz = _fuzz_module()
    rates = []
    for _ in range(runs):
        seconds, done = 0.0, 0
        for set_up, play in recorded:
            game = Game(fuzz.PLAYERS)
            for name, kwargs in set_up:
                game.perform(name, **kwargs)
            start = time.perf_counter()
            for name, kwargs in play:
                game.perform(name, **kwargs)
            seconds += time.perf_counter() - start
            done += len(play)
        rates.append(done / seconds)
    return statistics.median(rates), rates


def reflection_board(n: int = 64) -> Game:
    game = Game()
    game.add("Forest")
    for _ in range(n):
        game.add("Mana Reflection")
    return game


def reflection_ms(n: int = 64, runs: int = 5) -> tuple[float, list[float]]:
    """A Forest tapped with `n` Mana Reflections (2^n green mana), in ms; set-up untimed."""
    times = []
    for _ in range(runs):
        game = reflection_board(n)
        forest = game.find("Forest")
        start = time.perf_counter()
        game.tap_for_mana(forest)
        times.append((time.perf_counter() - start) * 1000)
        assert game.pool("Alice").total == 2**n
    return statistics.median(times), times
