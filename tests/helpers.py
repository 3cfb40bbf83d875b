"""Small helpers shared by the engine tests (build boards, read pools and the log)."""

from __future__ import annotations

from rulekit import EventKind, Game


def pool(game: Game, player: str = "Alice") -> list[str]:
    """Pool contents as sorted type letters, restricted units marked with '*'."""
    return sorted(u.type.value + ("*" if u.restriction else "") for u in game.pool(player))


def mana(game: Game, land: str, n: int, player: str = "Alice") -> None:
    """Put `n` of a basic land (or any land) onto the battlefield and tap each for mana."""
    for _ in range(n):
        game.tap_for_mana(game.add(land, player=player))


def events(game: Game, kind: EventKind, since: int = 0) -> list:
    """Events of one kind logged after event `since`."""
    return [e for e in game.log.since(since) if e.kind is kind]


def kinds(game: Game, since: int = 0) -> list[str]:
    return [e.kind.value for e in game.log.since(since)]


def last(game: Game, kind: EventKind):
    found = [e for e in game.log if e.kind is kind]
    assert found, f"no {kind.value} event in the log"
    return found[-1]


def types(found) -> list[str]:
    return sorted(t.value for t in found)


def end_the_turn(game: Game) -> None:
    """Advance through the end step and the cleanup step (where nobody normally gets priority,
    CR 514.3) into the next turn's upkeep."""
    game.advance("end")
    game.advance()
