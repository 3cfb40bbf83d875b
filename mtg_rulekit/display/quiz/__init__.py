"""The class quiz: a lesson's checked questions, one a screen, for a projector.

- `questions`: the questions, gathered from the walkthroughs' frames (`quiz_questions`);
- `widget`: the `Quiz`, their anywidget in a kernel (`mtg_rulekit.display.widgets`).
"""
