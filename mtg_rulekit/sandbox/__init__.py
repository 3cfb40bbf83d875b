"""The sandbox: a live game a student plays by clicking, in a kernel or in a browser page.

One package, by role:

- `model`: the game seen as controls (`SandboxModel`: what a position offers, what a click does,
  undo and reset). Standard library and the engine only, so it runs in a kernel and in Pyodide.
- `menus` and `choices`: each card's menu with its verdict before the click, and what a click
  asks next (its target or cost's permanent, X, which mana; the decisions it makes) with each
  answer's verdict (all tried on the real engine, `Game.what_if`); `bar`: the time bar (Undo,
  Pass or Resolve, Next step, Next turn) judged the same way; `said`: what a click did, in the
  narrator's words.
- `challenges` and `lessons`: challenges the engine checks after every click, and a lesson's
  sandbox as data (`mtg_rulekit/sandboxes/`: its board, what it offers, its challenges).
- `view`: what a sandbox shows, as JSON and escaped HTML (board, message, tables, diagram),
  for the one front-end module (`mtg_rulekit/display/front/sandbox.js`).
- `widget`: the anywidget in a notebook (`Sandbox`; its back-end is the kernel).
- `page`: the bridge an exported page's Pyodide calls (JSON in, JSON out).

The model imports no view and no authoring tool (tests/test_tiers.py). Importing this package
gives the model's names; the widget (`mtg_rulekit.sandbox.widget.Sandbox`, also
`mtg_rulekit.display.widgets.Sandbox`) needs anywidget and is imported on its own.
"""

from mtg_rulekit.sandbox.model import (
    ACTION_KINDS,
    CONTROL_KINDS,
    CONTROLS,
    FIELDS,
    GROUPS,
    MENU_CONTROLS,
    MENU_VALUES,
    Control,
    Field,
    Outcome,
    SandboxModel,
    choices,
    mana_choice,
)

__all__ = ["ACTION_KINDS", "CONTROLS", "CONTROL_KINDS", "FIELDS", "GROUPS", "MENU_CONTROLS",
           "MENU_VALUES", "Control", "Field", "Outcome", "SandboxModel", "choices", "mana_choice"]
