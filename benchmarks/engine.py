"""Engine benchmarks: p1 (Slagstone Refinery at scale) and p2 ("could produce" for 400 lands)."""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable

from rulekit import Game


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
