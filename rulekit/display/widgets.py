"""ipywidgets for the lessons: a `Stepper` through a shipped scenario and a live `Sandbox`.

**Stepper** — every frame is computed up front from the real engine run (frame 0 = the set-up):
the narration, whether the step's expectations held, the board, mana pools, stack and the events of
the step as tables, and the event and trigger diagram so far as inline SVG (the scenario is drawn
once and each frame reveals the steps up to it, so nothing moves as you step: see
`rulekit.display.reveal`). The frames are
`widgets.HTML` children of a `widgets.Stack`; a `Play`, an `IntSlider`, a `BoundedIntText` (its
spinner is a keyboard back/forward) and `ToggleButtons` of step numbers are tied to
`Stack.selected_index` with `widgets.jslink` only, so stepping needs no Python: it keeps working in
an exported HTML page with no kernel.

**Sandbox** — buttons drive a live `Game` (these need a kernel): tap for mana, activate an ability,
declare attackers with exert, make a token copy, destroy several permanents at once, pass
priority, resolve, next step, next turn, undo. An illegal move shows the `RulesError` in place and
changes nothing.

>>> from rulekit.display.widgets import Stepper, Sandbox
>>> len(Stepper("r07_paying_tap.toml").frames)               # the set-up and six steps
7
>>> sandbox = Sandbox("r07_paying_tap.toml")                 # a live game from its set-up
>>> sandbox.game.state.turn > 0
True
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets
from ipywidgets.widgets.widget_description import DescriptionStyle
from ipywidgets.widgets.widget_string import HTMLStyle

from rulekit.display.escape import html_text
from rulekit.display.svg import compact as _compact
from rulekit.display.svg import inline_svg, single_quotes
from rulekit.display.tables import TABLE_CSS_TEXT, board, event_rows, pools, stack, to_html
from rulekit.errors import RulesError, UsageError

if TYPE_CHECKING:
    from rulekit.game import Game
    from rulekit.scenario import Scenario, StepResult

__all__ = ["FRAME_CSS", "SANDBOX_MIME", "WIDGET_CSS", "Sandbox", "Stepper", "inline_svg", "resolve_scenario"]

FONT = "'DejaVu Sans', Arial, Helvetica, sans-serif"

# One small style sheet per frame (each frame must stand on its own in an exported page).
FRAME_CSS = (
    f".rk-frame{{font-family:{FONT};font-size:18px;line-height:1.4;color:#000;"
    "background:#fff;padding:8px 12px;box-sizing:border-box;max-width:100%;min-width:0;"
    "overflow-wrap:break-word}"
    ".rk-frame h3{font-size:24px;margin:0 0 8px 0;color:#000}"
    ".rk-frame h4{font-size:20px;margin:12px 0 4px 0;color:#000}"
    ".rk-stepno{font-size:18px;font-weight:bold;margin:0 0 4px 0}"
    ".rk-narration{font-size:22px;line-height:1.4;margin:0 0 8px 0;padding:6px 12px;"
    "border-left:8px solid #0072b2;background:#eef5fb}"
    ".rk-does{margin:4px 0}"
    ".rk-ok{color:#005a1e;font-weight:bold}"
    ".rk-bad{color:#a00000;font-weight:bold}"
    ".rk-refused{border:3px solid #a00000;background:#fff0f0;padding:6px 12px;margin:6px 0}"
    ".rk-pending{border:2px dashed #8a5a00;background:#fff8e6;padding:4px 10px}"
    ".rk-row{display:flex;flex-wrap:wrap;gap:0 28px;align-items:flex-start}"
    ".rk-row>div{max-width:100%}"
    # wide tables scroll with the step's text (a scrolling box that takes focus: its
    # "Describe this step" toggle), never the page
    ".rk-text{overflow-x:auto;min-width:0}"
    ".rk-empty{font-style:italic;margin:4px 0 12px 0}"
    ".rk-figure{min-width:0}"
    ".rk-figure-title{font-weight:bold;margin:0 0 4px 0}"
    # one scale for every diagram (1 CSS px per point: text 14-22 px), never shrunk to fit;
    # the pane scrolls instead, and opens at its newest part (flex column-reverse)
    ".rk-diagram{overflow:auto;max-width:100%;display:flex;flex-direction:column-reverse;"
    "border:1px solid #888;background:#fff}"
    ".rk-diagram>svg{flex:none;margin-bottom:auto;max-width:none!important;height:auto}"
    f".rk-diagram svg text{{font-family:{FONT}}}"
    ".rk-diagram .rk-new.cluster>path,.rk-diagram .rk-new.cluster>polygon{stroke:#d55e00;"
    "stroke-width:4px}"
    # earlier steps quieter: their boxes' colors paler (text stays black on them; the blue
    # state-based box with white text keeps its color), what the step added at full strength
    ".rk-diagram svg:has(.rk-new) g.node:not(.rk-new):not([class*='rk-uses'])>"
    ":is(polygon,path,ellipse):not([fill='#0072b2']){fill-opacity:.4}"
    ".rk-frame details>summary{cursor:pointer;margin:10px 0 4px 0;font-weight:bold}"
    ".rk-describe{border:2px solid #0072b2;border-radius:4px;padding:2px 10px;margin:6px 0}"
    ".rk-describe ul{margin:4px 0;padding-left:22px}"
    + TABLE_CSS_TEXT
)

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

# the starting position of a Sandbox, next to its widget in a notebook's output (data for the
# live sandbox of an exported page; JupyterLab shows the widget and ignores it)
SANDBOX_MIME = "application/vnd.rulekit.sandbox+json"

# Bytes of SVG a Stepper may embed with "so far" diagrams before it draws one step per frame
# (issue 8: a lesson page, all its walkthroughs together, stays under 1 MB).
DIAGRAM_BUDGET = 250_000


# ------------------------------------------------------------------ shared helpers
def resolve_scenario(ref: Scenario | str | os.PathLike[str]) -> Scenario:
    """A loaded scenario from: a `Scenario`; a path to a file; the name of a shipped file
    (`"r07_paying_tap"` or `"r07_paying_tap.toml"`); or a ruling id (`"R07"`: its first shipped
    scenario)."""
    from rulekit.scenario import Scenario, by_ruling, load, shipped_dir

    if isinstance(ref, Scenario):
        return ref
    path = Path(ref)
    if path.is_file():
        return load(path)
    text = os.fspath(ref)
    if re.fullmatch(r"R\d\d", text):
        found = by_ruling().get(text)
        if found is None:
            raise LookupError(f"no shipped scenario covers ruling {text}")
        return load(found)
    name = text if text.endswith(".toml") else f"{text}.toml"
    candidate = shipped_dir() / name
    if candidate.is_file():
        return load(candidate)
    raise FileNotFoundError(f"no scenario file {text!r} (neither a path nor a shipped scenario)")


def _diagram_html(graph: Any, *, label: str) -> str:
    from rulekit.display.svg import GraphvizMissing, render_svg

    try:
        svg = render_svg(graph)
    except GraphvizMissing as err:
        return f"<p class='rk-empty'>{html_text(err)}</p>"
    return f"<div class='rk-diagram'>{inline_svg(svg, label=label)}</div>"


def classroom_script() -> str:
    """The classroom script (`rulekit/templates/lesson/classroom.js`: controls named, a live
    region, the diagram pane following the step, presenter mode) as an element that runs it
    once it is in a page: an image that can't load, whose error handler evaluates the script.
    A widget's HTML runs no `<script>`, and JupyterLab runs no page script of ours; an exported
    page runs the same script from its `<head>` first, and it runs once per page."""
    import base64

    code = (Path(__file__).resolve().parent.parent / "templates" / "lesson" / "classroom.js"
            ).read_bytes()
    b64 = base64.b64encode(code).decode("ascii")
    return (f"<img alt='' hidden src='data:,' class='rk-script' "
            f"onerror=\"if(!window.rkClassroom){{(0,eval)(atob('{b64}'))}}\">")


def _diagram_svg(graph: Any, *, new: set[str] | None, label: str) -> str:
    """The inline SVG of `graph`, what group(s) `new` added marked `rk-new` (None: all)."""
    from rulekit.display.reveal import mark_new
    from rulekit.display.svg import GraphvizMissing, render_svg

    try:
        svg = render_svg(graph)
    except GraphvizMissing as err:
        return f"<p class='rk-empty'>{html_text(err)}</p>"
    return mark_new(inline_svg(svg, label=label), new)


def _figure(title: str, body: str, *, pane: bool = True) -> str:
    """A frame's diagram: its title, then the scrolling pane (keyboard-scrollable)."""
    if not pane:
        return f"<div class='rk-figure'><p class='rk-figure-title'>{html_text(title)}</p>{body}</div>"
    return (f"<div class='rk-figure'><p class='rk-figure-title'>{html_text(title)}</p>"
            f"<div class='rk-diagram' tabindex='0' role='group' aria-label='{html_text(title)} "
            f"(scrolls)'>{body}</div></div>")


def announcement(scenario: Scenario, result: StepResult, k: int, last: int) -> str:
    """What a screen reader says when the walkthrough shows step k: where, the narration,
    what happened."""
    if k == 0:
        text = " ".join((scenario.description.strip() or "The board before the first step.")
                        .split())
        return f"Set-up, step 0 of {last}. {text}"
    parts = [f"Step {k} of {last}.", result.narration.strip()]
    parts += [f"What happens: {t}" for t in _root_texts(result)]
    if result.error is not None:
        parts.append(f"Refused: {result.error}. Nothing changes.")
    return " ".join(p for p in parts if p)


def describe_step(result: StepResult, k: int) -> str:
    """A text description of what the step adds to the diagram, from the log: each event
    under the event that caused it, with how ("pays", "triggers", "resolves", ...)."""
    from rulekit.display.flow import relation_of
    from rulekit.display.flow_words import setup_lines as _setup_lines
    from rulekit.events import EventKind

    evs = [e for e in result.events if e.kind is not EventKind.PRIORITY]
    if k == 0:
        lines = _setup_lines(list(result.game.log)) or ["Nothing is on the battlefield."]
        items = "".join(f"<li>{html_text(line)}</li>" for line in lines)
        return f"<p>The diagram starts with the set-up:</p><ul>{items}</ul>"
    if not evs:
        why = (f"the action was refused: {result.error}" if result.error is not None
               else "nothing new happened")
        return f"<p>This step adds a note to the diagram: {html_text(why)}.</p>"
    ids = {e.id for e in evs}
    kids: dict[int | None, list[Any]] = {}
    for e in evs:
        kids.setdefault(e.parent if e.parent in ids else None, []).append(e)

    def tree(parent: int | None, depth: int) -> str:
        out = []
        for e in kids.get(parent, []):
            how = "" if parent is None else f"{relation_of(e)}: "
            below = tree(e.id, depth + 1) if depth < 12 else ""
            rules = f" (CR {', '.join(e.rules)})" if e.rules else ""
            out.append(f"<li>{html_text(how + e.text + rules)}{below}</li>")
        return f"<ul>{''.join(out)}</ul>" if out else ""

    return (f"<p>This step adds {len(evs)} event{'s' if len(evs) != 1 else ''} to the "
            f"diagram, each under its cause:</p>{tree(None, 0)}")


def _only_grows(results: list[StepResult]) -> bool:
    """Each step only adds actions to the game before it (no undo): the diagram of step k is
    the diagram of step k + 1 without its last group."""
    for before, after in zip(results, results[1:]):
        old, new = before.actions, after.actions
        if len(new) < len(old) or new[:len(old)] != old:
            return False
    return True


def _checks_html(result: StepResult) -> str:
    checks = result.checks
    if not checks:
        return ""
    if result.ok:
        n = len(checks)
        return (f"<p class='rk-ok'>✓ The engine agrees: {'the' if n == 1 else 'all'} {n} "
                f"expectation{'s' if n != 1 else ''} of this step held.</p>")
    items = "".join(
        f"<li><code>{html_text(c.description)}</code>: expected {html_text(c.expected)}, "
        f"got {html_text(c.actual)}</li>" for c in result.failures)
    return (f"<div class='rk-bad'>✗ {len(result.failures)} of {len(checks)} expectations "
            f"did not hold:<ul>{items}</ul></div>")


def _root_texts(result: StepResult) -> list[str]:
    from rulekit.events import EventKind

    return [e.text for e in result.events if e.kind is EventKind.ACTION and e.parent is None]


def _events_details(game: Game, evs: list[Any], *, title: str, open_up_to: int = 8) -> str:
    """The events as a table in a `<details>` (opens and closes without a kernel; open when
    there are only a few)."""
    from rulekit.events import EventKind

    evs = [e for e in evs if e.kind is not EventKind.PRIORITY]
    if not evs:
        return f"<h4>{html_text(title)}</h4><p class='rk-empty'>No events.</p>"
    flag = " open" if len(evs) <= open_up_to else ""
    return (f"<details{flag}><summary><h4 style='display:inline'>{html_text(title)} "
            f"({len(evs)})</h4></summary>{to_html(event_rows(game, evs), css=False)}</details>")


# ------------------------------------------------------------------ Stepper
class Stepper:
    """Step through a shipped scenario, forward and back, with or without a kernel.

    `Stepper(scenario_or_path)`: a `Scenario`, a file path, a shipped file's name or a ruling id
    (see `resolve_scenario`). Attributes: `scenario`, `results` (one `StepResult` per frame),
    `frame_html` (the HTML of each frame), `frames` (`widgets.HTML`), `stack`
    (`widgets.Stack`), the controls `play`, `slider`, `number` and `buttons`, `links` (the
    jslinks) and `widget` (what the notebook shows)."""

    def __init__(self, scenario: Scenario | str | os.PathLike[str], *,
                 diagram: str | bool = "auto", diagram_budget: int = DIAGRAM_BUDGET,
                 buttons: bool = True, interval: int = 4000) -> None:
        self.scenario = resolve_scenario(scenario)
        self.results = self.scenario.play()
        self.last = len(self.results) - 1
        self._id = re.sub(r"[^a-z0-9]+", "", Path(self.scenario.path).stem.lower())[:16] or "sc"
        self.diagram_mode, diagrams = self._diagrams(diagram, diagram_budget)
        self.frame_html = [self._frame(k, diagrams[k]) for k in range(len(self.results))]
        self.announcements = [announcement(self.scenario, r, k, self.last)
                              for k, r in enumerate(self.results)]
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
            style=_LABEL, layout=widgets.Layout(width="min(420px, 100%)"))
        self.number = widgets.BoundedIntText(
            value=0, min=0, max=n, step=1, description="Go to step",
            tooltip="Type a step number (0 = set-up), or use the up and down arrow keys "
            "or the spinner to go back and forth",
            style=_LABEL, layout=widgets.Layout(width="190px"))
        # (a number box, not a drop-down: selection widgets sync their index, and jslink
        # copies values as they are)
        self.speed = widgets.BoundedIntText(
            value=interval, min=500, max=30_000, step=500, description="Play speed (ms a step)",
            tooltip="How many milliseconds Play shows each step (1000 ms = 1 second)",
            style=_LABEL, layout=widgets.Layout(width="300px"))
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
        bar = widgets.HBox([self.play, self.slider, self.number, self.speed],
                           layout=widgets.Layout(flex_flow="row wrap", align_items="center"))
        rows: list[widgets.Widget] = [bar]
        if self.buttons is not None:
            rows.append(self.buttons)
        self.controls = widgets.VBox(rows)
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

    # -- diagrams
    def _diagrams(self, mode: str | bool, budget: int) -> tuple[str, list[str]]:
        """The diagram HTML of every frame and the mode used: "so far" (each frame shows every
        step up to it, cut from one drawing of the whole scenario), "step" (each frame draws its
        own step only: the page grows linearly, not quadratically, with the number of steps),
        "none"; "auto" is "so far" unless that needs more than `budget` bytes of SVG."""
        frames = range(len(self.results))
        if mode in (False, None, "none"):
            return "none", ["" for _ in frames]
        if mode not in ("auto", "so far", "step"):
            raise ValueError(f"diagram must be 'auto', 'so far', 'step' or False, not {mode!r}")
        if mode in ("auto", "so far"):
            so_far = self._diagrams_so_far()
            if mode == "so far" or sum(map(len, so_far)) <= budget:
                return "so far", so_far
        return "step", [self._diagram_of_step(k) for k in frames]

    def _diagrams_so_far(self) -> list[str]:
        """Frame k: the diagram of every step up to k. The whole scenario is drawn once and
        each frame shows its first k + 1 groups (`rulekit.display.reveal`), so nothing moves
        between frames; a scenario that takes actions back (undo) is drawn frame by frame."""
        from rulekit.display.flow import scenario_diagram
        from rulekit.display.reveal import reveal
        from rulekit.display.svg import GraphvizMissing, render_svg

        sc = self.scenario
        if not _only_grows(self.results):
            return [self._diagram_so_far(k) for k in range(len(self.results))]
        try:
            whole = inline_svg(render_svg(scenario_diagram(sc)), label=sc.title)
        except GraphvizMissing as err:
            return [f"<p class='rk-empty'>{html_text(err)}</p>"] * len(self.results)
        from rulekit.display.reveal import mark_new

        out = []
        for k in range(len(self.results)):
            what = "the set-up" if k == 0 else f"step {k}"
            svg = reveal(whole, {f"s{j}" for j in range(k + 1)},
                         label=f"Event and trigger diagram of {sc.title}, up to {what}")
            out.append(_figure(f"Event and trigger diagram up to {what}",
                               mark_new(svg, {f"s{k}"})))
        return out

    def _diagram_so_far(self, k: int) -> str:
        from rulekit.display.flow import scenario_diagram

        sc = self.scenario
        what = "the set-up" if k == 0 else f"step {k}"
        return _figure(f"Event and trigger diagram up to {what}",
                       _diagram_svg(scenario_diagram(sc, upto_step=k), new={f"s{k}"},
                                    label=f"Event and trigger diagram of {sc.title}, up to "
                                    f"{what}"))

    def _diagram_of_step(self, k: int) -> str:
        from rulekit.display.flow import log_diagram

        if k == 0:
            return self._diagram_so_far(0)
        result, before = self.results[k], self.results[k - 1]
        first, last = len(before.actions) + 1, len(result.actions)
        head = f"Event and trigger diagram of step {k}"
        if last < first:
            why = ("the action was refused, so nothing happened" if result.error is not None
                   else "actions were taken back" if len(result.actions) < len(before.actions)
                   else "nothing new happened")
            return _figure(head, f"<p class='rk-empty rk-new'>No diagram: {why}.</p>",
                           pane=False)
        graph = log_diagram(result.game, since_action=first, upto_action=last,
                            title=f"Step {k}")
        return _figure(head, _diagram_svg(graph, new=None, label=f"Event and trigger diagram "
                                          f"of step {k} of {self.scenario.title}"))

    # -- frames
    def _frame(self, k: int, diagram_html: str) -> str:
        sc, result = self.scenario, self.results[k]
        game = result.game
        n = self.last
        parts = [f"<div class='rk-frame' data-step='{k}' role='group' "
                 f"aria-label='{html_text(sc.title)}: step {k} of {n}'>",
                 f"<style>{FRAME_CSS}</style><div class='rk-text'>"]
        if k == 0:
            parts.append("<p class='rk-stepno'>Set-up (step 0)</p>")
            text = " ".join((sc.description.strip() or "The board before the first step.")
                            .split())
            parts.append(f"<p class='rk-narration'>{html_text(text)}</p>")
            if sc.pending:
                parts.append("<p class='rk-pending'>This walkthrough is marked "
                             "<code>pending-engine</code>: the engine may not do all of it "
                             "yet.</p>")
        else:
            parts.append(f"<p class='rk-stepno'>Step {k} of {n}</p>")
            parts.append(f"<p class='rk-narration'>{html_text(result.narration)}</p>")
            for text in _root_texts(result):
                parts.append(f"<p class='rk-does'><b>What happens:</b> {html_text(text)}</p>")
            if result.error is not None:
                parts.append("<div class='rk-refused' role='note'><b>Refused — the game "
                             f"says:</b> {html_text(result.error)}<br>Nothing changes.</div>")
        parts.append(_checks_html(result))
        parts.append("<details class='rk-describe'><summary>Describe this step</summary>"
                     f"{describe_step(result, k)}</details>")
        parts.append("<div class='rk-row'><div>")
        parts.append(to_html(board(game), caption="Board", css=False,
                             empty="No permanents on the battlefield."))
        parts.append("</div><div>")
        parts.append(to_html(pools(game), caption="Players: life and mana pools", css=False))
        parts.append(to_html(stack(game), caption="Stack (top first)", css=False,
                             empty="The stack is empty."))
        parts.append("</div></div>")
        if k > 0:
            parts.append(_events_details(game, result.events, title="Events in this step"))
        parts.append("</div>")
        # the diagram is compact and single-quoted already (`inline_svg`): not scanned again
        return _compact(single_quotes("".join(parts))) + diagram_html + "</div>"

    def frame_document(self, k: int) -> str:
        """Frame k as a standalone HTML page (to look at or screenshot in a browser)."""
        return ("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
                f"<title>{html_text(self.scenario.title)} — step {k}</title></head>"
                f"<body style='margin:0;background:#fff'>{self.frame_html[k]}</body></html>")


# ------------------------------------------------------------------ Sandbox
class Sandbox:
    """A live game driven by buttons (needs a running kernel): the ipywidgets front-end of
    `rulekit.sandbox.SandboxModel`, which decides what the controls are and what they do.

    `Sandbox(game)` plays on that `Game` (changing it); `Sandbox(scenario_or_path)` starts from
    a fresh copy of a scenario's set-up. Every control is an attribute so tests can drive it
    (`sandbox.permanent.value = 3; sandbox.tap_button.click()`). After each click the tables
    and the diagram of the last `history` actions are redrawn; an illegal move shows the
    refusal in `message` (`last_error` keeps it) and the game is unchanged."""

    # widget attribute -> the model's field or control name
    FIELD_WIDGETS = {"permanent": "permanent", "mana_type": "mana", "ability": "ability",
                     "target": "target", "x_value": "x", "hand_card": "hand_card",
                     "attackers": "attackers", "exert": "exert", "copy_target": "copy_target",
                     "destroy_select": "to_destroy", "choices": "choices"}
    BUTTONS = {"tap": "tap_button", "activate": "activate_button", "cast": "cast_button",
               "combat": "combat_button", "attack": "attack_button", "copy": "copy_button",
               "destroy": "destroy_button", "pass": "pass_button", "resolve": "resolve_button",
               "step": "step_button", "turn": "turn_button", "undo": "undo_button",
               "reset": "reset_button"}

    def __init__(self, game: Game | Scenario | str | os.PathLike[str] | None = None, *,
                 history: int = 3, title: str = "Sandbox") -> None:
        from rulekit.game import Game
        from rulekit.sandbox import CONTROLS, FIELDS, GROUPS, SandboxModel

        if game is None:
            game = Game(["Alice", "Bob"])
        elif not isinstance(game, Game):
            game = resolve_scenario(game).game_at(0)
        self.model = SandboxModel(game, history=history)
        self.history = history
        self.title = title
        self.last_error: RulesError | UsageError | None = None

        w = widgets
        # shared Layouts and styles: every widget model goes to the browser (and into an
        # exported page), so one of each instead of one per control
        wide = w.Layout(width="min(440px, 100%)")
        label = DescriptionStyle(description_width="initial")
        look = {"layout": w.Layout(width="auto", min_width="140px", height="40px"),
                "style": w.ButtonStyle(font_size="18px")}
        plain = w.Layout()
        html_style = HTMLStyle()
        by_field: dict[str, widgets.Widget] = {}
        for attr, name in self.FIELD_WIDGETS.items():
            f = FIELDS[name]
            common = {"description": f.label, "tooltip": f.help, "style": label}
            if f.kind == "choice":
                made = w.Dropdown(layout=wide, **common)
            elif f.kind == "multi":
                made = w.SelectMultiple(rows=5 if name == "to_destroy" else 4, layout=wide,
                                        **common)
            elif f.kind == "number":
                made = w.BoundedIntText(value=0, min=f.low, max=f.high,
                                        layout=w.Layout(width="140px"), **common)
            else:
                made = w.Combobox(options=[v for _, v in f.options], value="",
                                  ensure_option=False, placeholder=f.placeholder, layout=wide,
                                  **{**common, "style": _LABEL})
            setattr(self, attr, made)
            by_field[name] = made
        by_control: dict[str, widgets.Widget] = {}
        for name, attr in self.BUTTONS.items():
            c = CONTROLS[name]
            button = w.Button(**look, description=c.label, tooltip=c.help,
                              button_style=c.style)
            button.on_click(lambda _b, name=name: self.click(name))
            setattr(self, attr, button)
            by_control[name] = button
        # `message`: the outcome of the last click (what tests read). It is shown right under
        # the button clicked (one `notes` box per button, only the last one filled), so it is
        # on screen wherever that button is
        self.message = w.HTML(value="", layout=plain, style=html_style)
        self.notes: dict[str, widgets.HTML] = {}
        for name in self.BUTTONS:
            note = w.HTML(value="", layout=w.Layout(display="none"), style=html_style)
            note.add_class("rk-message")
            self.notes[name] = note
        self.tables = w.HTML(layout=plain, style=html_style)
        self.diagram = w.HTML(layout=plain, style=html_style)
        by_field["permanent"].observe(lambda _c: self._refresh_options(), names="value")

        def group(heading: str, names: tuple[str, ...]) -> widgets.VBox:
            parts: list[widgets.Widget] = []
            for n in names:
                parts += [by_field[n]] if n in by_field else [by_control[n], self.notes[n]]
            box = w.VBox([w.HTML(f"<b style='font-size:19px'>{html_text(heading)}</b>",
                                 layout=plain, style=html_style), *parts], layout=plain)
            box.add_class("rk-sandbox-group")
            return box

        row = w.Layout(flex_flow="row wrap", align_items="flex-start")
        controls = w.HBox([group(heading, names) for heading, names in GROUPS], layout=row)
        head = w.HTML(layout=plain, style=html_style,
                      value=f"<style>{WIDGET_CSS}</style><h3 style='font-size:24px;margin:4px 0'>"
                      f"{html_text(title)}</h3><p style='font-size:16px;margin:0 0 6px 0'>"
                      "The buttons need a running kernel (JupyterLab): in an exported page "
                      "this is only a picture of the starting position.</p>")
        self.widget = w.VBox([head, controls, self.tables, self.diagram],
                             layout=w.Layout(width="100%"))
        self.widget.add_class("rk-widget")
        self.widget.add_class("rk-sandbox")
        self._refresh()

    @property
    def game(self) -> Game:
        return self.model.game

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        """The widget, and the starting position as `SANDBOX_MIME` data: an exported page
        replays it in the browser (the live sandbox, `rulekit.sandbox_page`)."""
        bundle = self.widget._repr_mimebundle_(**kwargs)
        position = self.model.position()
        if isinstance(bundle, dict) and position is not None:
            bundle[SANDBOX_MIME] = {**position, "title": self.title}
        return bundle

    def values(self) -> dict[str, Any]:
        """What the inputs say now, by the model's field names."""
        return {name: getattr(self, attr).value for attr, name in self.FIELD_WIDGETS.items()}

    # -- reading the board into the controls
    @staticmethod
    def _set_options(widget: Any, options: tuple[tuple[str, Any], ...]) -> None:
        values = [v for _, v in options]
        if isinstance(widget, widgets.SelectMultiple):
            keep = tuple(v for v in widget.value if v in values)
            widget.options = options
            widget.value = keep
            return
        if isinstance(widget, (widgets.Combobox, widgets.BoundedIntText)):
            return
        old = widget.value
        widget.options = options
        if old in values:
            widget.value = old
        elif options:
            widget.value = options[0][1]

    def _refresh_options(self) -> None:
        fields = self.model.fields(self.values())
        for attr, name in self.FIELD_WIDGETS.items():
            self._set_options(getattr(self, attr), fields[name].options)

    def _refresh(self) -> None:
        self._refresh_options()
        self._render()

    def _render(self) -> None:
        from rulekit.display.sandbox_view import diagram, tables_html

        # wide tables scroll in their own (keyboard-scrollable) box, never off the page
        self.tables.value = _compact(f"<div class='rk-frame rk-tables' tabindex='0' "
                                     "role='group' aria-label='Board, players and stack'>"
                                     f"<style>{FRAME_CSS}</style>"
                                     f"{tables_html(self.model.tables())}</div>")
        if not self.history:
            self.diagram.value = ""
            return
        graph, what = diagram(self.model)
        self.diagram.value = (
            f"<div class='rk-frame'><style>{FRAME_CSS}</style>"
            f"<h4>Event and trigger diagram: {what}</h4>"
            f"{_diagram_html(graph, label=f'Event and trigger diagram of {what}')}"
            "</div>")

    # -- doing things
    def click(self, name: str) -> bool:
        """Run the model's control `name` with what the inputs say; show the outcome."""
        from rulekit.display.sandbox_view import message_html

        outcome = self.model.click(name, self.values())
        self.last_error = outcome.error  # type: ignore[assignment]
        self.message.value = message_html(outcome)
        for other, note in self.notes.items():
            if other != name:
                note.value, note.layout.display = "", "none"
        if name in self.notes:
            self.notes[name].value, self.notes[name].layout.display = self.message.value, ""
        if outcome.ok:
            self._refresh()
        return outcome.ok

    def do_tap(self) -> bool:
        return self.click("tap")

    def do_activate(self) -> bool:
        return self.click("activate")

    def do_cast(self) -> bool:
        return self.click("cast")

    def do_attack(self) -> bool:
        return self.click("attack")

    def do_combat(self) -> bool:
        return self.click("combat")

    def do_copy(self) -> bool:
        return self.click("copy")

    def do_destroy(self) -> bool:
        return self.click("destroy")

    def do_pass(self) -> bool:
        return self.click("pass")

    def do_resolve(self) -> bool:
        return self.click("resolve")

    def do_step(self) -> bool:
        return self.click("step")

    def do_turn(self) -> bool:
        return self.click("turn")

    def do_undo(self) -> bool:
        return self.click("undo")

    def do_reset(self) -> bool:
        return self.click("reset")
