"""Holding Ctrl-C while a game is put back together.

Jupyter's "Interrupt kernel" sends SIGINT, which Python turns into `KeyboardInterrupt` between
any two lines. The game takes back an action that an interrupt stopped; if a second interrupt
stopped *that*, the game would be left half put back. `interrupts_held` makes such a second
SIGINT wait until the block is done, then delivers it.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def interrupts_held() -> Iterator[None]:
    """Run the block whole: a SIGINT that arrives meanwhile is delivered once it is over
    (Python's own handler raises `KeyboardInterrupt` then). Only the main thread receives signals, so elsewhere (and where Python has no
    SIGINT handler of its own, as in Pyodide) the block just runs."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []

    def hold(signum: int, _frame: Any) -> None:
        caught.append(signum)

    try:
        previous = signal.getsignal(signal.SIGINT)
        if previous is None:  # a handler not set from Python: leave it alone
            raise ValueError
        signal.signal(signal.SIGINT, hold)
    except (ValueError, OSError, AttributeError):
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if caught:  # sent again, to the handler it was meant for (Python's raises KeyboardInterrupt)
        signal.raise_signal(signal.SIGINT)
