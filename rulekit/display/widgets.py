"""ipywidgets for the lessons: a `Stepper` through a shipped scenario and a live `Sandbox`.

Both are thin: the content is built elsewhere, without ipywidgets.

**Stepper** — the frames are `rulekit.display.frames.StepFrames` (every step's HTML, computed up
front from the real engine run; frame 0 = the set-up), shown as `widgets.HTML` children of a
`widgets.Stack`; a `Play`, an `IntSlider`, a `BoundedIntText` (its spinner is a keyboard
back/forward) and `ToggleButtons` of step numbers are tied to `Stack.selected_index` with
`widgets.jslink` only, so stepping needs no Python: it keeps working in an exported HTML page with
no kernel.

**Sandbox** — an anywidget over the pure model `rulekit.sandbox.SandboxModel`, in its own
module (`rulekit.display.sandbox_widget`, re-exported here): the sandbox module's buttons drive
a live `Game` (they need a kernel): tap for mana, activate an ability, declare attackers with
exert, make a token copy, destroy several permanents at once, pass priority, resolve, next step,
next turn, undo. An illegal move is refused with its rule and changes nothing.

>>> from rulekit.display.widgets import Stepper, Sandbox
>>> len(Stepper("r07_paying_tap.toml").frames)               # the set-up and six steps
7
>>> sandbox = Sandbox("r07_paying_tap.toml")                 # a live game from its set-up
>>> sandbox.game.state.turn > 0
True
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets
from ipywidgets.widgets.widget_string import HTMLStyle

from rulekit.display.escape import html_text
from rulekit.display.frames import (
    DIAGRAM_BUDGET,
    FONT,
    StepFrames,
    classroom_script,
)
from rulekit.display.sandbox_widget import SANDBOX_MIME, Sandbox

if TYPE_CHECKING:
    from rulekit.scenario import Scenario

__all__ = ["SANDBOX_MIME", "WIDGET_CSS", "Sandbox", "Stepper"]

# Bigger controls for projectors (ipywidgets reads these CSS variables), and the walkthrough's
# layout: on a screen at least 900 px wide and 500 px high a walkthrough is one screen tall,
# its controls on top, then the step's text (left) and the diagram (right), each scrolling on
# its own; narrower, everything is one column (see docs/classroom.md).
WIDGET_CSS = (
    ".rk-widget{--jp-widgets-font-size:18px;--jp-widgets-inline-height:38px;"
    "--jp-widgets-inline-label-width:150px;--jp-widgets-inline-width:420px;"
    "--jp-widgets-inline-width-short:220px;--jp-widgets-slider-handle-size:22px;"
    "--jp-widgets-input-color:#000;--jp-widgets-label-color:#000;--jp-widgets-color:#000;"
    "--jp-widgets-input-border-color:#444;--jp-widgets-input-focus-border-color:#0072b2;"
    "max-width:100%;box-sizing:border-box}"
    f".rk-widget,.rk-widget .widget-label,.rk-widget .widget-label-basic,.rk-widget button,"
    f".rk-widget input,.rk-widget select,.rk-widget h3,.rk-widget p{{font-family:{FONT}}}"
    ".rk-widget .widget-label,.rk-widget .widget-label-basic{font-size:18px;color:#000}"
    ".rk-widget button:focus-visible,.rk-widget input:focus-visible,"
    ".rk-widget select:focus-visible,.rk-widget [tabindex]:focus-visible,"
    ".rk-widget .noUi-handle:focus{outline:3px solid #0072b2;outline-offset:2px}"
    ".rk-widget .widget-text input:focus{outline:3px solid #0072b2;outline-offset:1px}"
    ".rk-widget .widget-toggle-button,.rk-widget .widget-button{min-width:48px}"
    ".rk-widget select{font-size:18px}"
    ".rk-message{font-size:19px;line-height:1.4}"
    ".rk-message .rk-error{border:3px solid #a00000;background:#fff0f0;color:#000;"
    "padding:6px 12px}"
    ".rk-message .rk-done{border:3px solid #005a1e;background:#effaf2;color:#000;"
    "padding:6px 12px}"
    ".rk-sandbox-group{border:1px solid #888;padding:4px 10px;margin:0 10px 10px 0;"
    "overflow:visible!important}"
    ".rk-sandbox .widget-box{overflow:visible}"
    ".rk-sandbox .rk-tables{overflow-x:auto}"
    ".rk-sandbox .rk-message{max-width:min(440px,100%)}"
    # ipywidgets' orange "warning" button is 2.7:1 with white text: darker, 6:1
    ".rk-widget .jupyter-button.mod-warning{background-color:#9e4a00;color:#fff}"
    # the walkthrough
    ".rk-stepper{gap:4px;container-type:inline-size}"
    ".rk-stepper .rk-title h3{font-size:24px;margin:4px 0}"
    ".rk-controls{overflow:visible!important;flex:none}"
    ".rk-controls .widget-box,.rk-controls .widget-hbox{overflow:visible}"
    ".rk-controls .widget-inline-hbox{margin:2px 6px 2px 0}"
    ".rk-controls .widget-play button:nth-child(n+2){display:none}"  # Stop rewinds: gone
    ".rk-controls .widget-play{width:auto;flex:none}"
    ".rk-controls .widget-play button{width:64px;flex:none}"
    ".rk-controls .widget-toggle-buttons{display:flex;flex-direction:row;flex-wrap:wrap;"
    "align-items:center;height:auto;gap:0 8px}"
    ".rk-controls .widget-toggle-buttons>.widget-label{width:auto;margin:0}"
    ".rk-controls .widget-toggle-buttons>div{flex-wrap:wrap;display:flex}"
    ".rk-controls>.widget-toggle-buttons{width:auto;flex:0 1 auto;max-width:100%}"
    # JupyterLab: a walkthrough's output takes the width of its cell's prompt column too
    ".jp-OutputArea-child:has(.rk-stepper)>.jp-OutputArea-prompt{display:none}"
    # presenter mode (the Present button; also in JupyterLab, which loads no page CSS of ours)
    ".rk-stepper.rk-presenting{position:fixed;inset:0;z-index:1000;background:#fff;"
    "height:100vh!important;width:100vw!important;padding:8px 16px;box-sizing:border-box}"
    ".rk-stepper:fullscreen{background:#fff;padding:8px 16px;box-sizing:border-box}"
    ".rk-present{font-size:18px;height:38px;padding:0 14px;border:2px solid #0b4f9c;"
    "background:#fff;color:#0b4f9c;font-weight:600;margin-left:6px}"
    ".rk-present[aria-pressed='true']{background:#0b4f9c;color:#fff}"
    ".rk-frames{min-width:0;overflow:visible}"
    ".rk-frames .widget-html,.rk-frames .widget-html-content{min-width:0;line-height:1.4}"
    ".rk-sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);"
    "white-space:nowrap}"
    "@media (min-width:900px) and (min-height:500px){"
    ".rk-stepper{height:calc(100vh - var(--rk-chrome,0px));min-height:460px}"
    ".jp-NotebookPanel .rk-stepper{--rk-chrome:120px}"
    ".rk-stepper>.rk-frames{flex:1 1 0;min-height:0;overflow:hidden}"
    ".rk-frames>.widget-html,.rk-frames .widget-html-content,.rk-frames .rk-frame{height:100%}"
    ".rk-frames .rk-frame{display:grid;grid-template-columns:minmax(0,5fr) minmax(0,7fr);"
    "grid-template-rows:minmax(0,1fr);gap:0 14px;padding:4px 0}"
    ".rk-frames .rk-text{overflow:auto;min-height:0;padding-right:6px}"
    ".rk-frames .rk-figure{display:flex;flex-direction:column;min-height:0}"
    ".rk-frames .rk-diagram{flex:1 1 0;min-height:0}"
    "}"
    # a narrower box (JupyterLab with its file browser open): half and half, smaller type
    "@container (max-width:1100px){.rk-frames .rk-frame{grid-template-columns:"
    "minmax(0,1fr) minmax(0,1fr)}.rk-frames .rk-narration{font-size:19px}}"
    "@media (max-width:899px){.rk-frames .rk-diagram{max-height:80vh}}"
)

_LABEL = {"description_width": "initial"}

# ------------------------------------------------------------------ Stepper
class Stepper:
    """Step through a shipped scenario, forward and back, with or without a kernel.

    `Stepper(scenario_or_path)`: a `Scenario`, a file path, a shipped file's name or a ruling id
    (see `resolve_scenario`). Attributes: `steps` (the `StepFrames`: every frame's HTML, built
    without ipywidgets), its `scenario`, `results` (one `StepResult` per frame), `frame_html`,
    `announcements` and `diagram_mode`; `frames` (`widgets.HTML`), `stack` (`widgets.Stack`), the
    controls `play`, `slider`, `number` and `buttons`, `links` (the jslinks) and `widget` (what
    the notebook shows)."""

    def __init__(self, scenario: Scenario | str | os.PathLike[str], *,
                 diagram: str | bool = "auto", diagram_budget: int = DIAGRAM_BUDGET,
                 buttons: bool = True, interval: int = 4000) -> None:
        self.steps = StepFrames(scenario, diagram=diagram, diagram_budget=diagram_budget)
        self.scenario, self.results, self.last = (self.steps.scenario, self.steps.results,
                                                  self.steps.last)
        self.diagram_mode = self.steps.diagram_mode
        self.frame_html, self.announcements = self.steps.frame_html, self.steps.announcements
        # one Layout and one style shared by every frame: each widget model is stored in the
        # exported page, so sharing keeps it small
        shared_layout, shared_style = widgets.Layout(width="100%"), HTMLStyle()
        self.frames = [widgets.HTML(value=h, layout=shared_layout, style=shared_style)
                       for h in self.frame_html]
        self.stack = widgets.Stack(children=self.frames, selected_index=0,
                                   layout=widgets.Layout(width="100%"))
        n = self.last
        self.play = widgets.Play(
            value=0, min=0, max=n, step=1, interval=interval, show_repeat=False,
            description="Play", tooltip=f"Play the steps one after another, every "
            f"{interval / 1000:g} seconds (pause with the same button)")
        self.slider = widgets.IntSlider(
            value=0, min=0, max=n, step=1, description="Step", continuous_update=True,
            tooltip="Drag, or focus and use the arrow keys, to move between steps",
            style=_LABEL, layout=widgets.Layout(width="min(320px, 100%)"))
        self.number = widgets.BoundedIntText(
            value=0, min=0, max=n, step=1, description="Go to step",
            tooltip="Type a step number (0 = set-up), or use the up and down arrow keys "
            "or the spinner to go back and forth",
            style=_LABEL, layout=widgets.Layout(width="190px"))
        # (a number box, not a drop-down: selection widgets sync their index, and jslink
        # copies values as they are)
        self.speed = widgets.BoundedIntText(
            value=interval, min=500, max=30_000, step=500, description="Speed (ms a step)",
            tooltip="How many milliseconds Play shows each step (1000 ms = 1 second)",
            style=_LABEL, layout=widgets.Layout(width="250px"))
        controls: list[widgets.Widget] = [self.play, self.slider, self.number]
        self.buttons: widgets.ToggleButtons | None = None
        if buttons:
            steps = self.scenario.steps
            self.buttons = widgets.ToggleButtons(
                options=[("Set-up", 0)] + [(str(k), k) for k in range(1, n + 1)],
                value=0, description="Jump to",
                tooltips=["The board before anything happens"] + [
                    f"Step {k}: {steps[k - 1].get('narration', '')}" for k in range(1, n + 1)],
                style={**_LABEL, "button_width": "auto"})
        self.links: list[Any] = [
            widgets.jslink((c, "value"), (self.stack, "selected_index"))
            for c in controls]
        self.links.append(widgets.jslink((self.speed, "value"), (self.play, "interval")))
        if self.buttons is not None:
            # selection widgets sync `index` (not `value`) with the browser
            self.links.append(widgets.jslink((self.buttons, "index"),
                                             (self.stack, "selected_index")))
        # one heading per walkthrough; how to use the controls is in their tooltips
        title = widgets.HTML(
            f"<style>{WIDGET_CSS}</style><h3>Walkthrough: {html_text(self.scenario.title)}"
            f"</h3>{classroom_script()}", layout=widgets.Layout(flex="none"))
        title.add_class("rk-title")
        # one row that wraps: as few lines as the width allows (each line is a line less for
        # the step's narration on a projector)
        parts: list[widgets.Widget] = [self.play, self.slider, self.number]
        if self.buttons is not None:
            parts.append(self.buttons)
        self.controls = widgets.HBox(parts + [self.speed], layout=widgets.Layout(
            flex_flow="row wrap", align_items="center"))
        self.controls.add_class("rk-controls")
        self.stack.add_class("rk-frames")
        # a step change read aloud (kernel side, for JupyterLab; an exported page's script
        # keeps its own live region, see the lesson template)
        self.live = widgets.HTML("", layout=widgets.Layout(flex="none"))
        self.live.add_class("rk-sr-only")
        self.live.add_class("rk-live-kernel")
        self.stack.observe(self._announce, names="selected_index")
        self.widget = widgets.VBox([title, self.controls, self.stack, self.live],
                                   layout=widgets.Layout(width="100%"))
        self.widget.add_class("rk-widget")
        self.widget.add_class("rk-stepper")

    def __len__(self) -> int:
        return len(self.frames)

    def _announce(self, change: dict[str, Any]) -> None:
        k = change["new"]
        if isinstance(k, int) and 0 <= k < len(self.announcements):
            self.live.value = f"<div role='status'>{html_text(self.announcements[k])}</div>"

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

    def frame_document(self, k: int) -> str:
        """Frame k as a standalone HTML page (see `StepFrames.frame_document`)."""
        return self.steps.frame_document(k)
