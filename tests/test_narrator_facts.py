"""Payloads carry facts, the narrator words them (docs/engine.md, "Typed events and the narrator").

A note or a choice names its reason from a closed set (`payloads.Reason`), with names as data;
mana spent says what it paid for as data (`payloads.Spending`); stack events carry the
ability's kind. No payload of these carries an English sentence, and the narrator has words
for every reason (checked as it is imported, and here).
"""

from __future__ import annotations

import dataclasses
import json

import pytest

from mtg_rulekit import EventKind, Game
from mtg_rulekit.core import payloads as p
from mtg_rulekit.core.characteristics import AbilityKind
from mtg_rulekit.core.events import LOG_FORMAT
from mtg_rulekit.objects import narrator
from mtg_rulekit.scenario import load, play, shipped, shipped_dir
from tests.helpers import cast_from_hand

EXPLAINING = (EventKind.NOTE, EventKind.CHOICE)


class _Names:
    def describe(self, obj: int) -> str:
        return f"Thing (#{obj})"

    def name(self, obj: int) -> str:
        return "Thing"


def _ward(*, pay: bool) -> Game:
    """Shock at a warded Tolarian Terror with {R}{R}{R} in the pool, ward {2} paid or not (not:
    a Choice, then the spell is countered)."""
    game = Game()
    terror = game.add("Tolarian Terror", player="Bob")
    cast_from_hand(game, "Shock", "Mountain", 3, targets=[terror])
    game.resolve(pay=pay)
    return game


def _ward_unpaid() -> Game:
    return _ward(pay=False)


def _ward_paid() -> Game:
    return _ward(pay=True)


def _explained(name: str, game: Game) -> list[p.Payload]:
    """Every note, choice and payment in the game's log, checked: a reason from the closed set
    (a choice's from `CHOICE_REASONS`), the event's words the narrator's for it, and no field
    that holds those words."""
    out: list[p.Payload] = []
    for e in game.log.of_kind(*EXPLAINING, EventKind.MANA_SPENT):
        d = e.payload
        data = d.to_json()
        assert "says" not in data, (name, data)
        assert e.text not in [v for v in json.dumps(data).split('"') if " " in v], (name, e.text)
        if isinstance(d, (p.Note, p.Choice)):
            assert isinstance(d.reason, p.Reason), (name, d)
            assert (d.reason in p.CHOICE_REASONS) == isinstance(d, p.Choice), (name, d)
            assert e.text == narrator.REASONS[d.reason](d, game), (name, e.text)
        else:
            assert isinstance(d, p.ManaSpent) and isinstance(d.purpose, p.Spending), (name, d)
        out.append(d)
    for e in game.log.of_kind(EventKind.PUT_ON_STACK, EventKind.RESOLVED):
        d = e.payload
        if isinstance(d, p.Resolved) and d.item_kind == "spell":
            assert d.ability_kind is None, (name, d)
        else:
            assert isinstance(d.ability_kind, AbilityKind), (name, d)
    return out


@pytest.mark.parametrize("path", shipped(), ids=lambda path: path.stem)
def test_every_note_choice_and_payment_in_a_scenario_is_facts(path):
    """Every shipped scenario's log: notes and choices give a reason from the closed set, mana
    spent says what for as data, stack events the ability's kind."""
    _explained(path.stem, play(load(path))[-1].game)


def test_the_reasons_the_lessons_and_ward_give():
    r01 = play(load(shipped_dir() / "r01_undefined_mana.toml"))[-1].game
    said = [d for name, game in (("r01", r01), ("ward unpaid", _ward_unpaid()),
                                 ("ward paid", _ward_paid()))
            for d in _explained(name, game)]
    reasons = {d.reason for d in said if isinstance(d, (p.Note, p.Choice))}
    assert {p.Reason.UNDEFINED_MANA, p.Reason.NO_MANA, p.Reason.DOESNT_PAY} <= reasons
    purposes = {d.purpose.paying for d in said if isinstance(d, p.ManaSpent)}
    assert {p.Paying.CAST, p.Paying.WARD} <= purposes


def test_mana_spent_on_ward_says_so_as_data():
    game = _ward_paid()
    (ward,) = [e for e in game.log.of_kind(EventKind.MANA_SPENT)
               if e.payload.purpose.paying is p.Paying.WARD]
    assert ward.payload.to_json()["purpose"] == {"paying": "ward", "cost": "{2}"}
    assert ward.text.endswith("on ward {2}")


def test_the_narrator_names_an_ability_by_its_kind_not_its_words():
    """The same words name a triggered and an activated ability differently: the kind decides."""
    text = "When this happens, draw a card."
    assert narrator.ability_resolves("Thing", text, AbilityKind.TRIGGERED) == \
        "Thing's 'when this happens' ability resolves: draw a card"
    assert narrator.ability_resolves("Thing", "{T}: Draw a card.", AbilityKind.ACTIVATED) == \
        "Thing's ability resolves: draw a card"
    assert narrator.ability_resolves("Thing", "Thing deals 2 damage.", AbilityKind.ACTIVATED) \
        == "Thing's ability resolves: Thing deals 2 damage"  # a name keeps its capital


@pytest.mark.parametrize("reason", list(p.Reason))
def test_every_reason_has_words(reason):
    if reason in p.CHOICE_REASONS:
        payload: p.Payload = p.Choice(player="Alice", reason=reason, name="Mana Vault",
                                      cost="{2}", spending=p.Spending(p.Paying.WARD, cost="{2}"))
    else:
        payload = p.Note(reason=reason, player="Alice", name="Mana Vault", object=7,
                         condition="it's tapped")
    said = narrator.narrate(payload, _Names())
    assert said and "None" not in said and "{}" not in said, (reason, said)


def test_a_reason_without_words_stops_the_narrator_loading():
    """`check_complete` runs as the narrator is imported: a new reason without words fails
    there, before any game is played."""
    narrator.check_complete()
    fewer = {r: w for r, w in narrator.REASONS.items() if r is not p.Reason.TOKEN_GONE}
    with pytest.raises(AssertionError, match="token_gone"):
        narrator.check_complete(reasons=fewer)


@pytest.mark.parametrize("paying", list(p.Paying))
def test_every_payment_purpose_has_words(paying):
    said = narrator.spending_text(p.Spending(paying, source="Mana Leak", spell="Shock",
                                             cost="{3}"))
    assert said and said == said.strip() and "None" not in said


def test_the_logs_json_says_its_format():
    dumped = json.loads(_ward_unpaid().log.dumps())
    assert dumped["format"] == LOG_FORMAT == 2
    (choice,) = [e for e in dumped["events"] if e["kind"] == "choice"]
    assert choice["data"]["reason"] == "doesnt_pay" and "says" not in choice["data"]


def test_note_and_choice_fields_are_facts():
    """No field named for words: reasons, names, ids, a cost and a condition's own text."""
    for cls in (p.Note, p.Choice):
        names = {f.name for f in dataclasses.fields(cls)}
        assert "says" not in names and "reason" in names


def test_state_based_actions_say_why_as_facts():
    """A creature dealt lethal damage: the state-based action's payload names it and the
    reason (`payloads.Doom`); the narrator words them (CR 704.5g)."""
    game = Game()
    bears = game.add("Grizzly Bears", player="Bob")
    cast_from_hand(game, "Shock", "Mountain", 1, targets=[bears])
    game.resolve()
    (sba,) = game.log.of_kind(EventKind.SBA)
    assert sba.payload.dying == (p.Dying(bears.id, (p.Doom.LETHAL_DAMAGE,)),)
    assert sba.payload.to_json() == {"dying": [{"object": bears.id, "why": ["lethal_damage"]}]}
    assert sba.text == f"State-based actions: Grizzly Bears (#{bears.id}): lethal damage"


@pytest.mark.parametrize("unfit", list(p.Unfit))
def test_every_attachment_problem_has_words(unfit):
    said = narrator.unfit_text(p.Unattachable(unfit, "704.5m", name="Wild Growth",
                                              host="Grizzly Bears", enchant="Enchant land"))
    assert said and "None" not in said
