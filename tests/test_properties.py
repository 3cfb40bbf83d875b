"""Property tests: random action sequences keep the engine's promises.

- mana is never negative and every unit is a real type;
- a tapped permanent never pays {T};
- an illegal action leaves the serialized state (and the log) identical;
- replaying the recorded actions rebuilds the same state and the same log, byte for byte.

Under CI (the `ci` profile, see conftest.py) this runs 1,000 random sequences.
"""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulekit import Game, RulesError, Zone
from rulekit.abilities import Activated

HAND = ["Grizzly Bears", "Hangarback Walker", "Giant Growth", "Fellwar Stone", "Memnite",
        "Fallaji Excavation", "Forest", "Abundant Growth"]
BOARD = ["Forest", "Forest", "Island", "City of Brass", "Llanowar Elves", "Pili-Pala",
         "Springleaf Drum", "Powerstone", "Powerstone", "Mana Vault", "Reflecting Pool",
         "Exotic Orchard", "Calciform Pools", "Hangarback Walker"]
MANA = st.sampled_from([None, "W", "U", "B", "R", "G", "C"])

ACTION = st.one_of(
    st.tuples(st.just("tap"), st.integers(0, 30), MANA),
    st.tuples(st.just("activate"), st.integers(0, 30), st.integers(0, 3), MANA,
              st.integers(0, 3)),
    st.tuples(st.just("cast"), st.integers(0, len(HAND) - 1), st.integers(0, 3)),
    st.tuples(st.just("play"), st.integers(0, len(HAND) - 1)),
    st.tuples(st.just("pass")),
    st.tuples(st.just("resolve")),
    st.tuples(st.just("advance")),
    st.tuples(st.just("undo")),
)


def board() -> Game:
    game = Game()
    for i, name in enumerate(BOARD):
        counters = {"Calciform Pools": {"storage": 2}, "Hangarback Walker": {"+1/+1": 1}}
        game.add(name, tapped=name == "Pili-Pala", sick=i == 4, counters=counters.get(name))
    for name in HAND:
        game.add(name, zone="hand")
    game.add("Mountain", player="Bob")
    game.add("Contamination", player="Bob")
    return game


def pick(game: Game, index: int, zone: Zone = Zone.BATTLEFIELD):
    objs = sorted(game.state.in_zone(zone), key=lambda o: o.id)
    return objs[index % len(objs)] if objs else None


def step(game: Game, action: tuple) -> None:
    kind = action[0]
    if kind == "tap":
        obj = pick(game, action[1])
        was_tapped = obj.tapped
        game.tap_for_mana(obj, action[2])
        assert not was_tapped, "a tapped permanent paid {T}"
    elif kind == "activate":
        obj = pick(game, action[1])
        abilities = [i for i, a in enumerate(game.chars(obj).abilities)
                     if isinstance(a, Activated)]
        index = abilities[action[2] % len(abilities)] if abilities else None
        ability = game.chars(obj).abilities[index] if index is not None else None
        was_tapped = obj.tapped
        game.activate(obj, index, mana=action[3], x=action[4])
        assert not (was_tapped and ability.cost.tap), "a tapped permanent paid {T}"
    elif kind in ("cast", "play"):
        card = pick(game, action[1], Zone.HAND)
        if card is None:
            return
        if kind == "play":
            game.play_land(card)
        else:
            game.cast(card, x=action[2] if game.chars(card).mana_cost.x_count else None)
    elif kind == "pass":
        game.pass_priority()
    elif kind == "resolve":
        game.resolve()
    elif kind == "advance":
        game.advance()
    elif kind == "undo":
        game.undo()


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(ACTION, max_size=8))
def test_random_play_keeps_the_engine_promises(actions):
    game = board()
    for action in actions:
        before, log_len = game.snapshot_json(), len(game.log)
        try:
            step(game, action)
        except RulesError:
            assert game.snapshot_json() == before, f"{action} failed but changed the game"
            assert len(game.log) == log_len
        for player in game.state.players.values():
            assert all(u.type.value in "WUBRGC" for u in player.pool)
    again = game.replay()
    assert again.snapshot_json() == game.snapshot_json()
    assert again.log.dumps() == game.log.dumps()
