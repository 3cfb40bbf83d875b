"""The lesson notebooks' widgets, in one place: `from mtg_rulekit.display.widgets import Stepper,
Sandbox` (and `Quiz`).

- `Stepper`: a walkthrough through a shipped scenario, forward and back, with or without a
  kernel (`mtg_rulekit.display.walkthrough.widget`);
- `Sandbox`: a live game (it needs a kernel): the sandbox module's buttons drive a `Game`, an
  illegal move is refused with its rule and changes nothing (`mtg_rulekit.sandbox.widget`);
- `Quiz`: the class quiz, a lesson's checked questions one a screen (`mtg_rulekit.display.quiz.widget`).

>>> from mtg_rulekit.display.widgets import Stepper, Sandbox
>>> sandbox = Sandbox("r07_paying_tap.toml")                 # a live game from its set-up
>>> sandbox.game.state.turn > 0
True
"""

from mtg_rulekit.display.quiz.widget import Quiz
from mtg_rulekit.display.walkthrough.widget import Stepper
from mtg_rulekit.sandbox.widget import Sandbox

__all__ = ["Quiz", "Sandbox", "Stepper"]
