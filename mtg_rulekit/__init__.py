"""rulekit: a small, faithful Magic: The Gathering rules engine for teaching.

>>> from mtg_rulekit import Game
>>> game = Game(["Alice", "Bob"])
>>> forest = game.add("Forest", player="Alice")
>>> game.tap_for_mana(forest)
>>> [u.type.value for u in game.pool("Alice")]
['G']
"""

from mtg_rulekit.core.errors import ChoiceNeeded, RulesError, ScenarioError, UnknownCard, UsageError
from mtg_rulekit.core.events import Cause, Event, EventKind
from mtg_rulekit.core.mana import ManaType
from mtg_rulekit.game import Game
from mtg_rulekit.objects.state import Step, Zone

__all__ = [
    "Cause", "ChoiceNeeded", "Event", "EventKind", "Game", "ManaType", "RulesError",
    "ScenarioError", "Step", "UnknownCard", "UsageError", "Zone",
]
__version__ = "0.1.0"
