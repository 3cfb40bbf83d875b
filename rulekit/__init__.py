"""rulekit: a small, faithful Magic: The Gathering rules engine for teaching.

>>> from rulekit import Game
>>> game = Game(["Alice", "Bob"])
>>> forest = game.add("Forest", player="Alice")
>>> game.tap_for_mana(forest)
>>> [u.type.value for u in game.pool("Alice")]
['G']
"""

from rulekit.core.errors import ChoiceNeeded, RulesError, ScenarioError, UnknownCard, UsageError
from rulekit.core.events import Cause, Event, EventKind
from rulekit.core.mana import ManaType
from rulekit.game import Game
from rulekit.objects.state import Step, Zone

__all__ = [
    "Cause", "ChoiceNeeded", "Event", "EventKind", "Game", "ManaType", "RulesError",
    "ScenarioError", "Step", "UnknownCard", "UsageError", "Zone",
]
__version__ = "0.1.0"
