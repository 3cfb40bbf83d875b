"""An interrupted action (Jupyter's "Interrupt kernel" raises KeyboardInterrupt, a
BaseException) leaves the game exactly as it was: the state, the log, the records and
decisions; `replay()` equals the game, and the next action and `undo()` behave. Each action is
interrupted at every event in turn (before an event is proposed, and after its commit changed
the state but before it is logged) until it completes, on small games (the action's
checkpoint goes back) and on games of over 1,000 objects (no checkpoint: the records are
replayed); then at sampled lines of the engine's code."""

from __future__ import annotations

import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import mtg_rulekit
from mtg_rulekit import Game, RulesError
from mtg_rulekit import game as rk_game
from mtg_rulekit.engine.commit import COMMITS
from mtg_rulekit.sandbox import SandboxModel

PACKAGE = str(Path(mtg_rulekit.__file__).parent)


def state_of(game: Game) -> tuple[Any, ...]:
    return (game.snapshot_json(), game.log.dumps(), repr(game.actions),
            [d.to_json() for d in game.decisions])


# ------------------------------------------------------------------ positions and actions
def reflection(large: bool) -> tuple[Game, Callable[[Game], Any]]:
    """The review's: a Forest with Wild Growth, Mana Reflection; tap the Forest."""
    game = Game()
    for _ in range(1001 if large else 0):
        game.add("Forest", zone="library")
    forest = game.add("Forest")
    game.add("Wild Growth", attached_to=forest.id)
    game.add("Mana Reflection")
    return game, lambda g: g.tap_for_mana(forest.id)


def pyroclasm(large: bool) -> tuple[Game, Callable[[Game], Any]]:
    """Pyroclasm on the stack over two Hangarback Walkers and Grizzly Bears; resolve it (deaths,
    dies triggers, Thopters)."""
    game = Game()
    for _ in range(1001 if large else 0):
        game.add("Forest", zone="library")
    game.add("Hangarback Walker", counters={"+1/+1": 1})
    game.add("Hangarback Walker", counters={"+1/+1": 2})
    game.add("Grizzly Bears", player="Bob")
    game.set_pool("Alice", [{"type": "R"}, {"type": "R"}])
    game.cast(game.add("Pyroclasm", zone="hand"))
    return game, lambda g: g.resolve()


def cast_spell(large: bool) -> tuple[Game, Callable[[Game], Any]]:
    """Cast Silvercoat Lion, activating two Plains' mana abilities while paying (CR 601.2g)."""
    game = Game()
    for _ in range(1001 if large else 0):
        game.add("Plains", zone="library")
    plains = [game.add("Plains"), game.add("Plains")]
    lion = game.add("Silvercoat Lion", zone="hand")
    return game, lambda g: g.cast(lion.id, mana_abilities=[p.id for p in plains])


def next_turn(large: bool) -> tuple[Game, Callable[[Game], Any]]:
    """A whole turn's beginning: untap, upkeep, draw, with tapped lands and a library."""
    game = Game()
    for _ in range(1001 if large else 3):
        game.add("Forest", zone="library", player="Bob")
    game.add("Forest", zone="library")
    game.add("Forest", tapped=True, player="Bob")
    game.add("Llanowar Elves", tapped=True, player="Bob")
    return game, lambda g: g.next_turn()


def walker(large: bool) -> Game:
    game = Game()
    for _ in range(1001 if large else 0):
        game.add("Forest", zone="library")
    game.add("Hangarback Walker", counters={"+1/+1": 2})
    return game


def destroy(large: bool) -> tuple[Game, Callable[[Game], Any]]:
    """Set-up: destroy a Hangarback Walker (a dies trigger)."""
    return walker(large), lambda g: g.destroy([g.find("Hangarback Walker")])


def add(large: bool) -> tuple[Game, Callable[[Game], Any]]:
    """Set-up: add a permanent (the board's shape changes)."""
    return walker(large), lambda g: g.add("Mana Reflection")


def set_life(large: bool) -> tuple[Game, Callable[[Game], Any]]:
    return walker(large), lambda g: g.set_life("Bob", 7)


def set_pool(large: bool) -> tuple[Game, Callable[[Game], Any]]:
    return walker(large), lambda g: g.set_pool("Alice", [{"type": "G"}, {"type": "C"}])


def advance(large: bool) -> tuple[Game, Callable[[Game], Any]]:
    """advance to the end step: combat steps, mana emptying, a step's triggers on the way."""
    game = walker(large)
    game.add("Forest", tapped=False)
    game.tap_for_mana(game.find("Forest"))
    return game, lambda g: g.advance("end")


POSITIONS = [reflection, pyroclasm, cast_spell, next_turn, destroy, add, set_life, set_pool,
             advance]


# ------------------------------------------------------------------ where the interrupt lands
class Interrupter:
    """Raises KeyboardInterrupt at the `at`-th event: before `emit_batch` proposes it
    ("proposed"), or right after its commit changed the state, before it is logged
    ("committed")."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, where: str) -> None:
        self.at, self.seen = 0, 0
        if where == "proposed":
            emit_batch = rk_game.Game.emit_batch

            def proposed(game: Game, proposals: Any, **kw: Any) -> Any:
                self.tick()
                return emit_batch(game, proposals, **kw)
            monkeypatch.setattr(rk_game.Game, "emit_batch", proposed)
        else:
            for kind, commit in list(COMMITS.items()):
                def committed(game: Any, payload: Any, _commit: Any = commit) -> Any:
                    result = _commit(game, payload)
                    self.tick()
                    return result
                monkeypatch.setitem(COMMITS, kind, committed)

    def tick(self) -> None:
        self.seen += 1
        if self.seen == self.at:
            raise KeyboardInterrupt

    def arm(self, at: int) -> None:
        self.at, self.seen = at, 0


def interrupted_everywhere(game: Game, act: Callable[[Game], Any], expected: tuple[Any, ...],
                           interrupter: Interrupter, *, each: bool = True) -> int:
    """Interrupt `act` at its 1st, 2nd, ... event until it completes; after each interrupt the
    game is as it was (its records too, so it replays to itself) and, `each` time or once at
    the end, the action then runs to `expected`, replays to it and undoes. Returns how many
    interrupts there were."""
    before, records = state_of(game), len(game.actions)
    n = 0
    while True:
        n += 1
        interrupter.arm(n)
        try:
            act(game)
        except KeyboardInterrupt:
            interrupter.arm(0)
        else:
            interrupter.arm(0)
            assert state_of(game) == expected
            assert state_of(game.replay()) == expected
            game.undo(len(game.actions) - records)
            assert state_of(game) == before
            return n - 1
        assert state_of(game) == before, f"interrupted at event {n}"
        if not each:
            continue
        assert state_of(game.replay()) == before
        act(game)  # the next action behaves...
        assert state_of(game) == expected, f"after the interrupt at event {n}"
        assert state_of(game.replay()) == expected
        game.undo(len(game.actions) - records)  # ...and so does undo
        assert state_of(game) == before


@pytest.mark.parametrize("where", ["proposed", "committed"])
@pytest.mark.parametrize("position", POSITIONS, ids=lambda p: p.__name__)
def test_an_action_interrupted_at_any_event_leaves_the_game_as_it_was(position, where,
                                                                     monkeypatch):
    reference, act = position(False)
    act(reference)
    game, act = position(False)
    interrupter = Interrupter(monkeypatch, where)
    assert interrupted_everywhere(game, act, state_of(reference), interrupter) >= 1


@pytest.mark.slow  # each interrupt replays 1,000 set-up actions, each check dumps their log
@pytest.mark.parametrize("position", [reflection, pyroclasm, destroy], ids=lambda p: p.__name__)
def test_a_large_game_interrupted_at_any_event_is_rebuilt_from_its_records(position,
                                                                         monkeypatch):
    """Over `CHECKPOINT_OBJECTS` objects no checkpoint is kept: the records are replayed. After
    each interrupt the game is as it was; that the next action, its replay and undo then behave
    is checked once at the end here (after every interrupt on the small games above: the game
    they go on from is the same)."""
    reference, act = position(True)
    act(reference)
    game, act = position(True)
    assert len(game.state.objects) > rk_game.CHECKPOINT_OBJECTS
    interrupter = Interrupter(monkeypatch, "committed")
    assert interrupted_everywhere(game, act, state_of(reference), interrupter, each=False) >= 3


def test_the_review_reproducer_tap_interrupted_at_its_fourth_event():
    game, act = reflection(False)
    before = state_of(game)
    emit, count = rk_game.Game.emit, [0]

    def interrupted(self: Game, *a: Any, **k: Any) -> Any:
        count[0] += 1
        if count[0] == 4:
            raise KeyboardInterrupt
        return emit(self, *a, **k)
    rk_game.Game.emit = interrupted  # type: ignore[method-assign]
    try:
        with pytest.raises(KeyboardInterrupt):
            act(game)
    finally:
        rk_game.Game.emit = emit  # type: ignore[method-assign]
    assert state_of(game) == before
    assert not game.obj(1).tapped and len(game.actions) == 3
    assert state_of(game.replay()) == before


def test_undo_interrupted_while_it_replays_changes_nothing(monkeypatch):
    game, act = pyroclasm(False)
    act(game)
    before, records = state_of(game), len(game.actions)
    interrupter = Interrupter(monkeypatch, "committed")
    for n in (1, 5, 9):
        interrupter.arm(n)
        with pytest.raises(KeyboardInterrupt):
            game.undo()
        assert state_of(game) == before
    interrupter.arm(0)
    game.undo()
    assert len(game.actions) == records - 1


def test_an_interrupt_inside_what_if_puts_the_game_back(monkeypatch):
    game, act = pyroclasm(False)
    before = state_of(game)
    interrupter = Interrupter(monkeypatch, "committed")
    for n in (1, 4, 8):
        interrupter.arm(n)
        with pytest.raises(KeyboardInterrupt):
            game.check("resolve")
        assert state_of(game) == before
        with pytest.raises(KeyboardInterrupt), game.what_if():
            interrupter.arm(n)
            act(game)
        assert state_of(game) == before
    interrupter.arm(0)
    reference, _ = pyroclasm(False)
    act(reference)
    act(game)
    assert state_of(game) == state_of(reference)


@pytest.fixture
def python_sigint():
    """Python's own SIGINT handler (a test runner's worker may ignore SIGINT)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


@pytest.mark.usefixtures("python_sigint")
def test_a_second_interrupt_while_the_game_is_put_back_waits_until_it_is_whole(monkeypatch):
    """A real SIGINT arriving while an interrupted action is taken back: the game is put back
    whole first, then the interrupt is raised."""
    for large in (False, True):
        game, act = reflection(large)
        before = state_of(game)
        interrupter = Interrupter(monkeypatch, "committed")
        where = (rk_game._Checkpoint, "put_back") if not large else (rk_game.Game, "_rebuild")
        original = getattr(*where)

        def again(*a: Any, _original: Any = original, **k: Any) -> Any:
            signal.raise_signal(signal.SIGINT)  # Python raises KeyboardInterrupt at once...
            return _original(*a, **k)           # ...unless it is held
        monkeypatch.setattr(*where, again)
        interrupter.arm(3)
        with pytest.raises(KeyboardInterrupt):
            act(game)
        monkeypatch.setattr(*where, original)
        interrupter.arm(0)
        assert state_of(game) == before
        assert state_of(game.replay()) == before


@pytest.mark.usefixtures("python_sigint")
def test_a_real_sigint_during_an_action(monkeypatch):
    game, act = pyroclasm(False)
    before = state_of(game)
    seen = [0]
    emit_batch = rk_game.Game.emit_batch

    def signalled(g: Game, proposals: Any, **kw: Any) -> Any:
        seen[0] += 1
        if seen[0] == 6:
            signal.raise_signal(signal.SIGINT)
        return emit_batch(g, proposals, **kw)
    monkeypatch.setattr(rk_game.Game, "emit_batch", signalled)
    with pytest.raises(KeyboardInterrupt):
        act(game)
    assert state_of(game) == before


def test_an_interrupted_view_leaves_no_half_built_index(monkeypatch):
    """Building the index of listening abilities (any view may) is interrupted: the next
    action still sees Mana Reflection's replacement effect."""
    game, act = reflection(False)
    lasting = rk_game.lasting

    def stopped(*a: Any) -> Any:
        raise KeyboardInterrupt
    monkeypatch.setattr(rk_game, "lasting", stopped)
    with pytest.raises(KeyboardInterrupt):
        game.chars(1)
    monkeypatch.setattr(rk_game, "lasting", lasting)
    act(game)
    reference, act = reflection(False)
    act(reference)
    assert state_of(game) == state_of(reference)
    assert game.pool("Alice").total == 3  # the Forest's {G} doubled, Wild Growth's {G}


# ------------------------------------------------------------------ at any line
def interrupt_at_line(n: int) -> Callable[[], None]:
    """Start raising KeyboardInterrupt at the `n`-th line run in rulekit's code (as a signal
    could land between any two lines); returns a function that stops it."""
    count = [0]

    def local(frame: Any, event: str, arg: Any) -> Any:
        if event == "line":
            count[0] += 1
            if count[0] == n:
                raise KeyboardInterrupt
        return local

    def tracer(frame: Any, event: str, arg: Any) -> Any:
        return local if frame.f_code.co_filename.startswith(PACKAGE) else None
    sys.settrace(tracer)
    return lambda: sys.settrace(None)


def lines_run(act: Callable[[], Any]) -> int:
    count = [0]

    def local(frame: Any, event: str, arg: Any) -> Any:
        if event == "line":
            count[0] += 1
        return local

    sys.settrace(lambda f, e, a: local if f.f_code.co_filename.startswith(PACKAGE) else None)
    try:
        act()
    finally:
        sys.settrace(None)
    return count[0]


@pytest.mark.parametrize("position", [reflection, pyroclasm], ids=lambda p: p.__name__)
def test_an_action_interrupted_at_sampled_lines_leaves_the_game_as_it_was(position):
    """40 lines spread over everything the action runs (the engine, the pipeline, the commit,
    the log's append, the checkpoint): wherever the interrupt lands, nothing is left."""
    reference, act = position(False)
    total = lines_run(lambda: act(reference))
    expected = state_of(reference)
    game, act = position(False)
    before, records = state_of(game), len(game.actions)
    for n in sorted({1 + i * total // 40 for i in range(40)}):
        stop = interrupt_at_line(n)
        try:
            act(game)
        except KeyboardInterrupt:
            pass
        finally:
            stop()
        if len(game.actions) != records:  # it had already finished
            assert state_of(game) == expected
            game.undo()
        assert state_of(game) == before, f"interrupted at line {n} of {total}"
    act(game)
    assert state_of(game) == expected


def test_a_sandbox_click_of_two_actions_interrupted_between_them_is_taken_back_whole(
        monkeypatch):
    """Kiki-Jiki's token copy is two actions (activate, then resolve): an interrupt in the
    second takes back the first too."""
    game = Game()
    game.add("Kiki-Jiki, Mirror Breaker", sick=False)
    bears = game.add("Grizzly Bears")
    model = SandboxModel(game)
    before = state_of(game)
    resolve = rk_game.Game.resolve

    def stopped(*a: Any, **k: Any) -> Any:
        raise KeyboardInterrupt
    monkeypatch.setattr(rk_game.Game, "resolve", stopped)
    with pytest.raises(KeyboardInterrupt):
        model.click("copy", {"copy_target": bears.id})
    monkeypatch.setattr(rk_game.Game, "resolve", resolve)
    assert state_of(game) == before
    assert model.click("copy", {"copy_target": bears.id}).ok
    assert model.click("undo", {}).ok
    assert state_of(game) == before


def refused_midway(large: bool) -> tuple[Game, Callable[[Game], Any]]:
    """Shock cast naming Metallic Mimic as a mana ability to activate while paying: refused
    after the spell went on the stack (CR 602.1), so the records are replayed."""
    game = Game()
    for _ in range(1001 if large else 0):
        game.add("Forest", zone="library")
    bears = game.add("Grizzly Bears")
    shock = game.add("Shock", zone="hand")
    mimic = game.add("Metallic Mimic", choices={"creature_type": "Elf"})
    return game, lambda g: g.cast(shock.id, targets=[bears.id], mana_abilities=[mimic.id])


@pytest.mark.parametrize("large", [
    pytest.param(False, id="checkpoint"),
    pytest.param(True, id="no-checkpoint", marks=pytest.mark.slow),  # replays 1,000 adds
])
def test_an_interrupt_while_a_refused_action_is_replayed_still_leaves_it_whole(large,
                                                                              monkeypatch):
    """The refusal's replay of the records is itself interrupted: the checkpoint goes back
    (or, with none, the records are replayed again), then the interrupt goes on up."""
    game, act = refused_midway(large)
    before = state_of(game)
    interrupter = Interrupter(monkeypatch, "proposed")
    interrupter.arm(10**9)
    with pytest.raises(RulesError, match="602.1"):
        act(game)
    events = interrupter.seen  # the action's, then the replay's
    assert state_of(game) == before
    for n in (events, events - 2, events - 4):  # the replay's last events
        interrupter.arm(n)
        with pytest.raises(KeyboardInterrupt):
            act(game)
        assert state_of(game) == before, n
    interrupter.arm(0)
    assert state_of(game.replay()) == before
