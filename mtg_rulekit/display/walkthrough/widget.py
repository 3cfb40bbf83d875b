"""The walkthrough's widget: a `Stepper` through a shipped scenario.

An anywidget widget, and thin: the frames are `mtg_rulekit.display.walkthrough.frames.StepFrames`
(every step as plain data, computed up front from the real engine run; frame 0 = the set-up),
drawn by one ES module (`mtg_rulekit/display/front/stepper.js`: controls, keyboard, Present, live
region). Stepping needs no Python, so it works in JupyterLab, Notebook 7 and an exported page
alike. Notebooks import it from `mtg_rulekit.display.widgets`.

>>> len(Stepper("r07_paying_tap.toml").frames)               # the set-up and eight steps
9
"""

from __future__ import annotations

import os
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

import anywidget
import traitlets

from mtg_rulekit.core.errors import UsageError
from mtg_rulekit.display.front import css_text, module_text
from mtg_rulekit.display.walkthrough.frames import DIAGRAM_BUDGET, FONT, StepFrames

if TYPE_CHECKING:
    from mtg_rulekit.scenario import Scenario

__all__ = ["WIDGET_CSS", "Stepper", "site_page"]

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


def site_page(notebook: str | None = None, base: str | None = None) -> str:
    """The exported page of `notebook` (default: the notebook this kernel runs, which Jupyter
    Server names in `JPY_SESSION_NAME`): `<base><stem>.html`, where `base` (default: the
    `RULEKIT_SITE_URL` environment variable, the address the site is published at, e.g.
    `https://school.example/rulekit/`) is the site's folder. Without a base the address is
    relative to the site folder (`07_token_copies.html`); without a notebook, "" (the module
    then takes the stem from the notebook's own address, `.../07_x.ipynb`).

    >>> site_page("notebooks/07_token_copies.ipynb", "https://school.example/rulekit")
    'https://school.example/rulekit/07_token_copies.html'
    >>> site_page("07_token_copies.ipynb", "")
    '07_token_copies.html'
    """
    path = notebook if notebook is not None else os.environ.get("JPY_SESSION_NAME", "")
    base = os.environ.get("RULEKIT_SITE_URL", "") if base is None else base
    if base and not base.endswith("/"):
        base += "/"
    name = PurePosixPath(path.replace("\\", "/")).name
    if not name.endswith(".ipynb"):
        return ""
    return base + quote(name[:-len(".ipynb")]) + ".html"

# ------------------------------------------------------------------ Stepper
class Stepper(anywidget.AnyWidget):
    """Step through a shipped scenario, forward and back, with or without a kernel.

    `Stepper(scenario_or_path)`: a `Scenario`, a file path, a shipped file's name or a ruling id
    (see `resolve_scenario`). An anywidget widget: its front-end is one ES module
    (`mtg_rulekit/display/front/stepper.js`), the same in JupyterLab, Notebook 7 and an exported
    page (`mtg_rulekit/display/front/host.js`). Synced traits: `frames` (every step as plain data,
    `StepFrames.data()`), `svg` (the one drawing the frames are cut from, or ""),
    `board_parts` (the frames' boards, each distinct part once), `legends` (their legend
    strips, each once), `uid`,
    `title`, `step` (the step shown: the browser steps on its own and tells the kernel),
    `slug` and `about` (`StepFrames.data()`) and `link_base` (`site_page()`).
    Attributes: `steps` (the `StepFrames`), its `scenario`, `results` (one `StepResult` per
    frame), `last`, `frame_html`, `announcements` and `diagram_mode`; `widget` is the widget
    itself (what the notebook shows)."""

    _esm = traitlets.Unicode(module_text("stepper")).tag(sync=True)
    _css = traitlets.Unicode(css_text("stepper")).tag(sync=True)
    frames = traitlets.List(traitlets.Dict()).tag(sync=True)
    svg = traitlets.Unicode("").tag(sync=True)
    # each distinct part of the frames' boards once (a frame's `board` lists its parts)
    board_parts = traitlets.List(traitlets.Unicode()).tag(sync=True)
    # each distinct legend strip of the frames once (a frame's `legend` is its number)
    legends = traitlets.List(traitlets.Unicode()).tag(sync=True)
    uid = traitlets.Unicode("").tag(sync=True)
    title = traitlets.Unicode("").tag(sync=True)
    step = traitlets.Int(0).tag(sync=True)
    slug = traitlets.Unicode("").tag(sync=True)  # its name in the page's address: #slug/step
    about = traitlets.Unicode("").tag(sync=True)  # what it shows (the end card in Present)
    # the exported page of this notebook ("Copy a link to this step"; `site_page`)
    link_base = traitlets.Unicode("").tag(sync=True)
    # which rulekit view this is (an exported page turns the widget into its `rk-view` markup)
    rk_view = traitlets.Unicode("stepper").tag(sync=True)

    def __init__(self, scenario: Scenario | str | os.PathLike[str], *,
                 diagram: str | bool = "auto", diagram_budget: int = DIAGRAM_BUDGET,
                 **kwargs: Any) -> None:
        self.steps = StepFrames(scenario, diagram=diagram, diagram_budget=diagram_budget)
        self.scenario, self.results, self.last = (self.steps.scenario, self.steps.results,
                                                  self.steps.last)
        self.diagram_mode = self.steps.diagram_mode
        self.frame_html, self.announcements = self.steps.frame_html, self.steps.announcements
        data = self.steps.data()
        super().__init__(frames=data["frames"], svg=data["svg"], uid=data["uid"],
                         board_parts=data["board_parts"], legends=data["legends"],
                         title=data["title"], step=0, slug=data["slug"], about=data["about"],
                         link_base=site_page(), **kwargs)

    def step_link(self, step: int | None = None) -> str:
        """The exported page's address of step `step` (default: the step shown), what "Copy a
        link to this step" gives in a kernel host: `site_page()` + `#<slug>/<step>`."""
        k = self.step if step is None else step
        if not 0 <= k <= self.last:
            raise UsageError("step", f"{k} is not a step of this walkthrough "
                             f"(0 to {self.last})")
        return f"{self.link_base}#{self.slug}/{k}"

    @property
    def widget(self) -> Stepper:
        """The widget the notebook shows (the Stepper itself; kept for older notebooks)."""
        return self

    def __len__(self) -> int:
        return len(self.frames)

    def frame_document(self, k: int) -> str:
        """Frame k as a standalone HTML page (see `StepFrames.frame_document`)."""
        return self.steps.frame_document(k)
