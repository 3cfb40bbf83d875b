"""The class quiz in a kernel: an anywidget over `mtg_rulekit.display.quiz.questions`, drawn
by the quiz module (`mtg_rulekit/display/front/quiz.js`), the same one an exported page uses.

`Quiz(*walkthroughs)`: each a `Stepper` the notebook shows (its synced frames are the
questions' source, and "Show this step" turns that walkthrough to the step) or anything a
`Stepper` takes (a shipped scenario's name, a path, a `Scenario`: its frames are made here).

>>> from mtg_rulekit.display.widgets import Stepper
>>> walk = Stepper("r05_replacement_modifies_production", diagram=False)
>>> quiz = Quiz(walk)
>>> [q["label"] for q in quiz.questions]
['Step 1 of 2']
>>> quiz.show(walk.uid, 1), walk.step
(True, 1)
"""

from __future__ import annotations

from typing import Any

import anywidget
import traitlets

from mtg_rulekit.display.front import css_text, module_text
from mtg_rulekit.display.quiz.questions import quiz_questions
from mtg_rulekit.display.walkthrough.frames import StepFrames

__all__ = ["Quiz"]


class Quiz(anywidget.AnyWidget):
    """A lesson's predict questions, one a screen, for a class (see the module docstring).
    Synced traits: `title`, `questions` (`quiz_questions`), `index` (the question shown; the
    browser moves on its own and tells the kernel) and `linked` (the walkthroughs this notebook
    shows, by uid: the module offers "Show this step" for their questions). A custom message
    `{"show": uid, "step": k}` from the module turns that walkthrough to step k (`show`)."""

    _esm = traitlets.Unicode(module_text("quiz")).tag(sync=True)
    _css = traitlets.Unicode(css_text("quiz")).tag(sync=True)
    title = traitlets.Unicode("").tag(sync=True)
    questions = traitlets.List(traitlets.Dict()).tag(sync=True)
    index = traitlets.Int(0).tag(sync=True)
    linked = traitlets.List(traitlets.Unicode()).tag(sync=True)
    rk_view = traitlets.Unicode("quiz").tag(sync=True)

    def __init__(self, *walkthroughs: Any, title: str = "Class quiz", **kwargs: Any) -> None:
        self._steppers: dict[str, Any] = {}
        data = []
        for w in walkthroughs:
            if isinstance(w, anywidget.AnyWidget) and getattr(w, "rk_view", "") == "stepper":
                data.append({"title": w.title, "uid": w.uid, "slug": w.slug, "frames": w.frames})
                self._steppers[w.uid] = w
            else:
                data.append(StepFrames(w, diagram=False).data())
        questions = quiz_questions(data, page="")
        for q in questions:  # a link only to a walkthrough this notebook shows
            if q["uid"] not in self._steppers:
                q["href"] = ""
        super().__init__(title=title, questions=questions, index=0,
                         linked=sorted(self._steppers), **kwargs)
        self.on_msg(self._on_msg)

    def show(self, uid: str, step: int) -> bool:
        """Turn the walkthrough `uid` (a `Stepper` given to this quiz) to `step`; False when
        this quiz has no such walkthrough or step."""
        walk = self._steppers.get(uid)
        if walk is None or not 0 <= step < len(walk.frames):
            return False
        walk.step = step
        return True

    def _on_msg(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if isinstance(content, dict) and isinstance(content.get("show"), str) \
                and isinstance(content.get("step"), int):
            self.show(content["show"], content["step"])

