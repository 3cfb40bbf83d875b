"""The walkthrough: a shipped scenario stepped through, a frame a step.

- `frames`: every step's frame as plain HTML and plain data (`StepFrames`), neither ipywidgets
  nor pandas;
- `reveal`: the one drawing every frame is cut from, shown a step at a time;
- `widget`: the `Stepper`, the anywidget over the frames (`mtg_rulekit.display.widgets`).
"""
