"""The lesson notebooks' widgets, in one place: `from rulekit.display.widgets import Stepper,
Sandbox` (and `Quiz`).

- `Stepper`: a walkthrough through a shipped scenario, forward and back, with or without a
  kernel (`rulekit.display.walkthrough.widget`);
- `Sandbox`: a live game (it needs a kernel): the sandbox module's buttons drive a `Game`, an
  illegal move is refused with its rule and changes nothing (`rulekit.sandbox.widget`);
- `Quiz`: the class quiz, a lesson's checked questions one a screen (`rulekit.display.quiz.widget`).

>>> from rulekit.display.widgets import Stepper, Sandbox
>>> sandbox = Sandbox("r07_paying_tap.toml")                 # a live game from its set-up
>>> sandbox.game.state.turn > 0
True
"""

from rulekit.display.quiz.widget import Quiz
from rulekit.display.walkthrough.widget import Stepper
from rulekit.sandbox.widget import Sandbox

__all__ = ["Quiz", "Sandbox", "Stepper"]
