"""A walkthrough's step frames as plain HTML: no ipywidgets ("views cut by what they
produce").

`StepFrames(scenario)` plays a scenario once with the real engine and builds, for every step
(frame 0 = the set-up), the HTML the classroom view shows: the narration, whether the step's
expectations held, a text description of what the step adds to the diagram, the board, mana
pools, stack and the step's events as tables, and the event and trigger diagram so far as
inline SVG (the scenario is drawn once and each frame reveals the steps up to it, so nothing
moves as you step: see `mtg_rulekit.display.walkthrough.reveal`), and what a screen reader says at each
step. `StepFrames.data()` gives the same as plain data (tables as rows, one drawing shared by every
frame), which `mtg_rulekit.display.walkthrough.widget.Stepper` hands to its front-end module
(`mtg_rulekit/display/front/stepper.js`); `frame_html` stays for standalone frame documents.

>>> frames = StepFrames("r07_paying_tap.toml")
>>> len(frames)                                     # the set-up and eight steps
9
>>> "class='rk-narration'" in frames.frame_html[1]
True
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mtg_rulekit.display.escape import html_text
from mtg_rulekit.display.svg import (
    GraphvizMissing,
    focus_box,
    inline_svg,
    render_svg,
    single_quotes,
)
from mtg_rulekit.display.svg import compact as _compact
from mtg_rulekit.display.tables.rows import (
    TABLE_CSS_TEXT,
    board_table,
    events_table,
    pools_table,
    stack_table,
    table_html,
)

if TYPE_CHECKING:
    from mtg_rulekit.game import Game
    from mtg_rulekit.scenario import Scenario, StepResult

__all__ = ["DIAGRAM_BUDGET", "FONT", "FRAME_CSS", "HALF_PANE", "PANES", "PHONE_PANE",
           "StepFrames", "announcement", "describe_step", "inline_svg", "page_slug",
           "resolve_scenario", "single_quotes", "step_view"]

FONT = "'DejaVu Sans', Arial, Helvetica, sans-serif"

# One small style sheet per frame (each frame must stand on its own in an exported page).
FRAME_CSS = (
    f".rk-frame{{font-family:{FONT};font-size:18px;line-height:1.4;color:#000;"
    "background:#fff;padding:8px 12px;box-sizing:border-box;max-width:100%;min-width:0;"
    "overflow-wrap:break-word}"
    ".rk-frame h3{font-size:24px;margin:0 0 8px 0;color:#000}"
    ".rk-frame h4{font-size:20px;margin:12px 0 4px 0;color:#000}"
    ".rk-inline{display:inline}"  # a heading in a <summary> (a class: pages allow no style="")
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
    ".rk-frame>.rk-text{overflow-x:auto;min-width:0}"
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
    ".rk-frame .rk-inline{display:inline}"
    ".rk-describe{border:2px solid #0072b2;border-radius:4px;padding:2px 10px;margin:6px 0}"
    ".rk-describe ul{margin:4px 0;padding-left:22px}"
    + TABLE_CSS_TEXT
)

# Bytes of SVG a Stepper may embed with "so far" diagrams before it draws one step per frame
# (a lesson page, all its walkthroughs together, stays under 1 MB).
DIAGRAM_BUDGET = 250_000
def resolve_scenario(ref: Scenario | str | os.PathLike[str]) -> Scenario:
    """A loaded scenario from: a `Scenario`; a path to a file; the name of a shipped file
    (`"r07_paying_tap"` or `"r07_paying_tap.toml"`); or a ruling id (`"R07"`: its first shipped
    scenario)."""
    from mtg_rulekit.scenario import Scenario, by_ruling, load, shipped_dir

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
    from difflib import get_close_matches

    close = get_close_matches(Path(name).stem, [p.stem for p in shipped_dir().glob("*.toml")],
                              n=1, cutoff=0.6)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    raise FileNotFoundError(f"no scenario file {text!r} (neither a path nor a shipped "
                            f"scenario){hint}")

def diagram_html(graph: Any, *, label: str) -> str:
    """A diagram as inline SVG in its `rk-diagram` box (or the reason it can't be drawn)."""
    try:
        svg = render_svg(graph)
    except GraphvizMissing as err:
        return f"<p class='rk-empty'>{html_text(err)}</p>"
    return f"<div class='rk-diagram'>{inline_svg(svg, label=label)}</div>"


def _diagram_svg(graph: Any, *, new: set[str] | None, label: str) -> str:
    """The inline SVG of `graph`, what group(s) `new` added marked `rk-new` (None: all)."""
    from mtg_rulekit.display.walkthrough.reveal import mark_new

    try:
        svg = render_svg(graph)
    except GraphvizMissing as err:
        return f"<p class='rk-empty'>{html_text(err)}</p>"
    return mark_new(inline_svg(svg, label=label), new)


# ------------------------------------------------------------------ pieces of a frame
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
        text = " ".join((scenario.intro.strip() or "The board before the first step.")
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
    from mtg_rulekit.core.events import EventKind
    from mtg_rulekit.display.flow.grammar import relation_of
    from mtg_rulekit.objects.narrator import setup_lines as _setup_lines

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
    from mtg_rulekit.core.events import EventKind

    return [e.text for e in result.events if e.kind is EventKind.ACTION and e.parent is None]


def _events_details(game: Game, evs: list[Any], *, title: str, open_up_to: int = 8) -> str:
    """The events as a table in a `<details>` (opens and closes without a kernel; open when
    there are only a few)."""
    from mtg_rulekit.core.events import EventKind

    evs = [e for e in evs if e.kind is not EventKind.PRIORITY]
    if not evs:
        return f"<h4>{html_text(title)}</h4><p class='rk-empty'>No events.</p>"
    flag = " open" if len(evs) <= open_up_to else ""
    return (f"<details{flag}><summary><h4 class='rk-inline'>{html_text(title)} "
            f"({len(evs)})</h4></summary>{table_html(events_table(evs))}</details>")

_SVG_OPEN = re.compile(r"<svg\b[^>]*>")
_ATTR = re.compile(r"""\s(width|height|viewBox)=(["'])(.*?)\2""")


def _svg_size(svg: str) -> dict[str, str]:
    """The width, height and viewBox of an SVG's root element (a frame cut from a drawing
    crops its height: `mtg_rulekit.display.walkthrough.reveal`)."""
    tag = _SVG_OPEN.search(svg)
    return {m.group(1): m.group(3) for m in _ATTR.finditer(tag.group(0))} if tag else {}


def _fig_of_html(html: str) -> dict[str, Any]:
    """A frame's diagram HTML (`_figure`) as data: its title and its SVG, or its note."""
    import html as _html

    out: dict[str, Any] = {}
    title = re.search(r"<p class='rk-figure-title'>(.*?)</p>", html, re.S)
    if title:
        out["title"] = _html.unescape(title.group(1))
    svg = re.search(r"<svg\b.*</svg>", html, re.S)
    if svg:
        out["svg"] = svg.group(0)
        out["focus"] = focus_box(out["svg"])
        out["half"] = _fits_half(out["focus"])
    else:
        empty = re.search(r"<p class='rk-empty[^']*'>(.*?)</p>", html, re.S)
        out["empty"] = _html.unescape(empty.group(1)) if empty else ""
    return out


_BOX = re.compile(r"\brkbox&#45;([A-Za-z0-9_]+)|\brkbox-([A-Za-z0-9_]+)")


def _why_data(game: Game, drawings: list[tuple[Any, str]]) -> dict[str, Any]:
    """"Ask the diagram why" for the boxes a step's drawings draw (`mtg_rulekit.display.flow.why`;
    `drawings`: its (view, SVG) pairs, one picture or two, `step_view`), each
    fact once: `texts` (box name -> its words: the drawn boxes and every cause in their
    chains), `causes` (box -> [the box it came of, how]: a box's chain back to the player's
    action is these links followed), `rules` (box -> the rule numbers it cites), `cited`
    (number -> [title, summary], the kit's own), `when` (box -> the action that let it happen,
    where that is not its chain's end), `replaced` (event id -> `before`, `after` and the
    `effects` that changed it: the boxes `p<id>`, `r<id>_<i>`, `n<id>`) and `arrows` ([tail,
    head] box pairs: the drawings' arrows, which the keyboard walks in the picture shown)."""
    from mtg_rulekit.display.flow import why

    answers = why(game)
    names = list(dict.fromkeys(a or b for _view, svg in drawings for a, b in _BOX.findall(svg)))
    texts: dict[str, str] = {}
    causes: dict[str, list[str]] = {}
    rules: dict[str, list[str]] = {}
    cited: dict[str, list[str]] = {}
    when: dict[str, str] = {}
    replaced: dict[str, Any] = {}

    def cite(found: list[dict[str, str]]) -> list[str]:
        for r in found:
            cited.setdefault(r["number"], [r["title"], r["summary"]])
        return [r["number"] for r in found]

    for name in names:
        a = answers.get(name)
        if a is None:
            continue
        texts[name] = a["says"]
        if a["rules"]:
            rules[name] = cite(a["rules"])
        chain = a["chain"]
        if chain:
            causes[name] = [chain[0]["box"], chain[0]["how"]]
        for i, c in enumerate(chain):
            texts.setdefault(c["box"], c["says"])
            if i + 1 < len(chain):
                causes.setdefault(c["box"], [chain[i + 1]["box"], chain[i + 1]["how"]])
        if a["when"] and (not chain or a["when"] != chain[-1]["says"]):
            when[name] = a["when"]
        rep = a["replacement"]
        if rep is not None:
            replaced.setdefault(a["box"].lstrip("npr").split("_")[0], {
                "before": rep["before"], "after": rep["after"], "effects": [
                    {"effect": x["effect"], "outcome": x["outcome"], "rules": cite(x["rules"])}
                    for x in rep["effects"]]})
    return {"texts": texts, "causes": causes, "rules": rules, "cited": cited, "when": when,
            "replaced": replaced,
            "arrows": [list(a) for a in dict.fromkeys(
                a for view, svg in drawings for a in _arrows(view, svg))]}


def _arrows(view: Any, svg: str) -> list[tuple[str, str]]:
    """A drawing's arrows between the boxes it draws, as (tail, head) box names."""
    drawn = {a or b for a, b in _BOX.findall(svg)}
    pairs = [tuple(key.split("->", 1)) for key in view.titles if "->" in key]
    return [(a, b) for a, b in pairs if a in drawn and b in drawn]


# The panes a step's picture serves, in drawing units (1 unit is 1 CSS px at the scale that
# draws the picture's text at its least size: 16 px on a page, 18 px in Present, 12 px on a
# phone), in the order they decide: JupyterLab's at 1280x720 beside its file browser (the
# smallest of the desktop panes: the pages' at 1280x720 and larger hold it), Present's at
# 1280x720, and a phone's at 390x844 (as wide as the screen, as tall as it under the bar).
# Measured in the browser (tests/test_classroom.py and tests/test_jupyterlab.py check every
# step in the views themselves).
PANES = ((690.0, 598.0), (720.0, 620.0), (507.0, 1040.0))
# the phone's pane: a step whose picture misses it ships a second picture for it
PHONE_PANE = PANES[-1]
# JupyterLab's pane with the words in half the walkthrough (the smallest half): a picture
# that fits it leaves the words half of every view (its `half`; stepper.css)
HALF_PANE = (440.0, 598.0)


def _fits_half(focus: tuple[float, float, float, float] | None) -> bool:
    """Whether a picture's focus box fits `HALF_PANE` (then its words may have half)."""
    from mtg_rulekit.display.svg import box_fit

    return box_fit(focus, HALF_PANE) >= 0.95


def step_view(scenario: Any, k: int, label: str) -> list[tuple[Any, str]]:
    """Step k's view (`mtg_rulekit.display.flow.step_diagram`) and its inline SVG, what the step
    added marked `rk-new`, in the one layout (`LAYOUTS`) that serves the `PANES` best: the
    first that shows 95 % of what the step added in every pane; else the one that shows most
    in JupyterLab's pane, then in Present's, then on a phone (a share of 95 % counts as whole).
    When that picture shows less than 95 % of it on a phone, a second picture follows: the
    same search judged against the phone's pane alone (`PHONE_PANE`: its width binds), which
    a walkthrough as narrow as a phone shows instead (stepper.css). Each view only scales the
    picture it shows (docs/classroom.md)."""
    from mtg_rulekit.display.flow import LAYOUTS, step_diagram, step_model
    from mtg_rulekit.display.svg import box_fit, new_box

    drawn: list[tuple[Any, str, Any]] = []  # LAYOUTS' drawings, made as the search asks
    what = step_model(scenario, k)  # the step played once, laid out as the search asks

    def drawing(i: int) -> tuple[Any, str, Any]:
        while len(drawn) <= i:
            view = step_diagram(scenario, k, layout=LAYOUTS[len(drawn)], drawn=what)
            svg = _diagram_svg(view, new={f"s{k}"}, label=label)
            drawn.append((view, svg, new_box(svg)))
        return drawn[i]

    def search(panes: tuple[tuple[float, float], ...]) -> tuple[list[float], int]:
        best: tuple[list[float], int] | None = None
        for i in range(len(LAYOUTS)):
            box = drawing(i)[2]
            shares = [min(box_fit(box, pane), 0.95) for pane in panes]
            if best is None or shares > best[0]:
                best = (shares, i)
            if min(shares) >= 0.95:
                break
        assert best is not None
        return best

    if not drawing(0)[1].startswith("<svg"):  # no Graphviz: its note, whatever the layout
        return [drawing(0)[:2]]
    shares, first = search(PANES)
    pictures = [drawing(first)[:2]]
    if shares[-1] < 0.95:
        phone = search((PHONE_PANE,))[1]
        if phone != first:
            pictures.append(drawing(phone)[:2])
    return pictures


# ------------------------------------------------------------------ the frames
_IDS: dict[str, int] = {}


def _page_id(name: str) -> str:
    """An HTML id prefix for a walkthrough of `name`, unique in this Python process (so in a
    notebook's page, where one scenario may be shown twice) and the same on every run."""
    base = "rk-" + (re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "walkthrough")
    _IDS[base] = _IDS.get(base, 0) + 1
    return base if _IDS[base] == 1 else f"{base}-{_IDS[base]}"


_SLUGS: dict[str, int] = {}


def page_slug(name: str, title: str = "") -> str:
    """A walkthrough's name in a page's address (`#<slug>/<step>`, docs/classroom.md): the
    scenario file's name without its ruling prefix (`r14_exert_borrowed_creature` ->
    `exert-borrowed-creature`), else its title; `-2`, `-3` ... for the same scenario shown
    again in this Python process (one notebook's kernel), so the same on every run.

    >>> page_slug("r14_exert_borrowed_creature").startswith("exert-borrowed-creature")
    True
    """
    stem = re.sub(r"^r\d+_", "", name.lower()) if name else ""
    base = re.sub(r"[^a-z0-9]+", "-", stem or title.lower()).strip("-") or "walkthrough"
    _SLUGS[base] = _SLUGS.get(base, 0) + 1
    return base if _SLUGS[base] == 1 else f"{base}-{_SLUGS[base]}"


class StepFrames:
    """The HTML of every step of a walkthrough, built up front from one engine run.

    `StepFrames(scenario_or_path)`: a `Scenario`, a file path, a shipped file's name or a ruling
    id (see `resolve_scenario`). Attributes: `scenario`, `results` (one `StepResult` per
    frame), `last` (the last step's number), `diagram_mode` ("so far", "step" or "none"),
    `frame_html` (each frame's HTML), `uid` (the prefix of its HTML ids: frame k's
    description, which its diagram's aria-describedby names, is `{uid}-describe-{k}`) and
    `announcements` (what a screen reader says at each
    step). Iterating yields the frames' HTML in order."""

    def __init__(self, scenario: Scenario | str | os.PathLike[str], *,
                 diagram: str | bool = "auto", diagram_budget: int = DIAGRAM_BUDGET) -> None:
        from mtg_rulekit.scenario import play

        self.scenario = resolve_scenario(scenario)
        self.results = play(self.scenario)
        self.last = len(self.results) - 1
        path = self.scenario.path or ""
        stem = "" if path.startswith("<") else Path(path).stem
        self.uid = _page_id(Path(self.scenario.path).stem if self.scenario.path else "")
        self.slug = page_slug(stem, self.scenario.title)
        self._whole: str = ""  # "so far": the one drawing every frame is cut from
        self._figs: list[dict[str, Any]] | None = None  # each frame's diagram as data
        self.diagram_mode, diagrams = self._diagrams(diagram, diagram_budget)
        self._diagram_html = diagrams
        self.frame_html = [self._frame(k, diagrams[k]) for k in range(len(self.results))]
        self.announcements = [announcement(self.scenario, r, k, self.last)
                              for k, r in enumerate(self.results)]
        self._data: dict[str, Any] | None = None
        self._story: Any = None  # the whole scenario's diagram (its legend's shapes)

    def __len__(self) -> int:
        return len(self.frame_html)

    def __iter__(self) -> Iterator[str]:
        return iter(self.frame_html)

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
        each frame shows its first k + 1 groups (`mtg_rulekit.display.walkthrough.reveal`), so nothing
        moves between frames; a scenario that takes actions back (undo) is drawn frame by frame."""
        from mtg_rulekit.display.flow import scenario_diagram
        from mtg_rulekit.display.walkthrough.reveal import reveal

        sc = self.scenario
        if not _only_grows(self.results):
            return [self._diagram_so_far(k) for k in range(len(self.results))]
        try:
            whole = inline_svg(render_svg(scenario_diagram(sc)), label=sc.title)
        except GraphvizMissing as err:
            self._figs = [{"empty": str(err)}] * len(self.results)
            return [f"<p class='rk-empty'>{html_text(err)}</p>"] * len(self.results)
        from mtg_rulekit.display.walkthrough.reveal import mark_new

        out = []
        self._whole, self._figs = whole, []
        for k in range(len(self.results)):
            what = "the set-up" if k == 0 else f"step {k}"
            label = f"Event and trigger diagram of {sc.title}, up to {what}"
            shown = [f"s{j}" for j in range(k + 1)]
            svg = mark_new(reveal(whole, set(shown), label=label), {f"s{k}"})
            title = f"Event and trigger diagram up to {what}"
            self._figs.append({"title": title, "label": label, "show": shown, "new": [f"s{k}"],
                               "focus": focus_box(svg), "half": _fits_half(focus_box(svg)),
                               **_svg_size(svg)})
            out.append(_figure(title, svg))
        return out

    def _diagram_so_far(self, k: int) -> str:
        from mtg_rulekit.display.flow import scenario_diagram

        sc = self.scenario
        what = "the set-up" if k == 0 else f"step {k}"
        return _figure(f"Event and trigger diagram up to {what}",
                       _diagram_svg(scenario_diagram(sc, upto_step=k), new={f"s{k}"},
                                    label=f"Event and trigger diagram of {sc.title}, up to "
                                    f"{what}"))

    def _diagram_of_step(self, k: int) -> str:
        from mtg_rulekit.display.flow import log_diagram

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
            text = " ".join((sc.intro.strip() or "The board before the first step.")
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
                             f"says:</b> {html_text(result.error)}.<br>Nothing changes.</div>")
        parts.append(_checks_html(result))
        # the diagram's text description, behind a toggle for everyone, and again as the
        # diagram's aria-describedby (a hidden copy: browsers leave what is inside a closed
        # <details> out of the accessibility tree, so it could not describe the diagram)
        described, description = f"{self.uid}-describe-{k}", describe_step(result, k)
        parts.append("<details class='rk-describe'><summary>Describe this step</summary>"
                     f"{description}</details><div id='{described}' hidden>{description}</div>")
        parts.append("<div class='rk-row'><div>")
        parts.append(table_html(board_table(game), caption="Board",
                                empty="No permanents on the battlefield."))
        parts.append("</div><div>")
        parts.append(table_html(pools_table(game), caption="Players: life and mana pools"))
        parts.append(table_html(stack_table(game), caption="Stack (top first)",
                                empty="The stack is empty."))
        parts.append("</div></div>")
        if k > 0:
            parts.append(_events_details(game, result.events, title="Events in this step"))
        parts.append("</div>")
        # the diagram is compact and single-quoted already (`inline_svg`): not scanned again
        diagram_html = diagram_html.replace("<svg ", f"<svg aria-describedby='{described}' ", 1)
        return _compact(single_quotes("".join(parts))) + diagram_html + "</div>"

    # -- the frames as plain data (the stepper module, mtg_rulekit/display/front/stepper.js)
    def data(self) -> dict[str, Any]:
        """The walkthrough as JSON-able data for the front-end module (docs/classroom.md,
        "the page contract"): `title`, `uid`, `slug` (its name in the page's address,
        `page_slug`), `about` (the scenario's description: the end card's "what it showed"),
        `last`, `mode`, `svg` (in "so far" mode the one
        drawing every frame is cut from, else "") and `frames`, one dict per step: `step`,
        `label`, `narration`, `does`, `refused`, `pending`, `checks`, `describe` (HTML,
        escaped here), `tables` (the board, players and stack as tables) and `events` (plain
        rows),
        `view` (the step view: that step in full, earlier ones folded, in one layout,
        `step_view`; its title, `svg` or `empty` note, `focus` (the box of what the step
        added, in the SVG's viewBox: what the page zooms to), `half` (whether that box fits
        `HALF_PANE`: the words may have half the width), `legend` HTML, `phone` (only where
        that picture misses a phone's pane: a second picture for it, its `svg`, `focus` and
        `legend`) and `why`, "ask the diagram why" for the boxes of both: `_why_data`),
        `diagram` ("the whole story" so far: its
        title, `focus` and `half`, and either the groups of `svg` it shows, what is `new`, its cropped
        size, or its own `svg`, or an `empty` note), `question` (the next step's question, None without: `ask`, `labels`,
        `correct`, `answer`, `answer_label`, `rules`, `rule_texts`, `step`), `notes` (the
        step's speaker notes, for the teacher only) and `announce` (what a screen reader says:
        never the notes)."""
        if self._data is None:
            self._data = {"title": self.scenario.title, "uid": self.uid, "last": self.last,
                          "slug": self.slug, "about": self.scenario.description.strip(),
                          # one drawing shared by every frame costs no more than one
                          # frame's, so the data is "so far" whenever the drawing is
                          "mode": "so far" if self._whole else self.diagram_mode,
                          "svg": self._whole,
                          "frames": [self._frame_data(k) for k in range(len(self.results))]}
            self._data["board_parts"] = _share_board_parts(self._data["frames"])
            self._data["legends"] = _share_legends(self._data["frames"])
        return self._data

    def _fig_data(self, k: int) -> dict[str, Any]:
        if self._figs is not None and (self._whole or self.diagram_mode != "none"):
            return dict(self._figs[k])  # cut from the one drawing (or: Graphviz missing)
        if self.diagram_mode == "none":
            return {}
        return _fig_of_html(self._diagram_html[k])

    def _frame_data(self, k: int) -> dict[str, Any]:
        from mtg_rulekit.display.tables.rows import Table

        sc, result = self.scenario, self.results[k]
        game = result.game

        def table(t: Table, caption: str, empty: str = "(none)") -> dict[str, Any]:
            return {"caption": caption, "empty": empty, **t.to_json()}

        if k == 0:
            label = "Set-up (step 0)"
            narration = " ".join((sc.intro.strip() or "The board before the first step.")
                                 .split())
        else:
            label, narration = f"Step {k} of {self.last}", result.narration
        checks = None
        if result.checks:
            checks = {"ok": result.ok, "count": len(result.checks),
                      "failures": [{"description": c.description, "expected": str(c.expected),
                                    "actual": str(c.actual)} for c in result.failures]}
        events = None
        if k > 0:
            from mtg_rulekit.core.events import EventKind

            evs = [e for e in result.events if e.kind is not EventKind.PRIORITY]
            rows = events_table(evs, fold_time=True)
            events = {"title": "Events in this step", "open": len(rows.rows) <= 8,
                      **rows.to_json()}
        # the board, as its parts (each card's HTML, and the markup between the cards):
        # `data()` keeps each distinct part once for the walkthrough (`board_parts`) and
        # each frame a list of references, which the module joins (docs/classroom.md)
        question = self._question_data(k + 1)
        refused = None if result.error is None or k == 0 else str(result.error)
        return {
            "board": _board_parts(game, result.events if k else (), sc.title),
            "step": k, "label": label, "narration": narration,
            "does": _root_texts(result) if k else [],
            "refused": refused,
            "pending": bool(k == 0 and sc.pending), "checks": checks,
            "describe": describe_step(result, k),
            "tables": [table(board_table(game), "Board", "No permanents on the battlefield."),
                       table(pools_table(game), "Players: life and mana pools"),
                       table(stack_table(game), "Stack (top first)", "The stack is empty.")],
            "events": events, "diagram": self._whole_data(k),
            "view": self._view_data(k),
            "question": question, "notes": result.notes,
            "announce": self.announcements[k]}

    def _question_data(self, k: int) -> dict[str, Any] | None:
        """Step k's question (`StepResult.question`), for the frame before it: what is asked,
        the choices in words, the engine's answer (computed now, so checking needs no kernel),
        its one-line why, the deciding rules (`rule_texts`) and the other rules the step's
        events cite (`other_rule_texts`, folded under them), with the kit's summaries
        (`mtg_rulekit/data/rules.toml`)."""
        from mtg_rulekit.core.rules import rule_texts

        if k > self.last or self.results[k].question is None:
            return None
        q = self.results[k].question
        assert q is not None
        return {**q.to_json(), "step": k, "rule_texts": rule_texts(q.rules),
                "other_rule_texts": rule_texts(q.other_rules)}

    def _whole_data(self, k: int) -> dict[str, Any]:
        """Frame k's "whole story": the diagram of every step so far (`_fig_data`) and the
        legend of the shapes its steps use."""
        from mtg_rulekit.display.flow import legend_strip, scenario_diagram

        fig = self._fig_data(k)
        if fig.get("svg") or fig.get("show"):
            if self._story is None:
                self._story = scenario_diagram(self.scenario)
            fig["legend"] = legend_strip(self._story, {f"s{j}" for j in range(k + 1)})
        return fig

    def _view_data(self, k: int) -> dict[str, Any]:
        """Frame k's step view (`step_view`: that step at full scale, every earlier step
        folded to one box, in the layout that serves the panes best), its SVG with the step's
        group marked `rk-new` and its `focus` (what the step added, in the SVG's viewBox), and
        the legend of the shapes it uses (`legend_strip`); the same of its phone's picture, if
        it has one."""
        from mtg_rulekit.display.flow import legend_strip

        if self.diagram_mode == "none":
            return {}
        sc = self.scenario
        what = "the set-up" if k == 0 else f"step {k}"
        title = (f"Event and trigger diagram of {what}" if k == 0 else
                 f"Event and trigger diagram of {what} (earlier steps folded)")
        label = f"Event and trigger diagram of {sc.title}: {what}, earlier steps folded"
        pictures = step_view(sc, k, label)
        view, svg = pictures[0]
        fig = _fig_of_html(_figure(title, svg))
        out = {**fig, "title": title, "label": label, "legend": legend_strip(view)}
        if fig.get("svg"):
            if len(pictures) > 1:  # a phone's picture of the step (`step_view`)
                phone = _fig_of_html(_figure(title, pictures[1][1]))
                out["phone"] = {"svg": phone["svg"], "focus": phone["focus"],
                                "legend": legend_strip(pictures[1][0])}
            out["why"] = _why_data(self.results[k].game, pictures)
        return out

    def frame_document(self, k: int) -> str:
        """Frame k as a standalone HTML page (to look at or screenshot in a browser)."""
        return ("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
                f"<title>{html_text(self.scenario.title)} — step {k}</title></head>"
                f"<body style='margin:0;background:#fff'>{self.frame_html[k]}</body></html>")


def _board_parts(game: Game, events: Iterable[Any], title: str = "") -> list[str]:
    """A frame's board (`mtg_rulekit.display.board.board_for_step`: the first player at the
    bottom, what the step changed outlined and said, named after the walkthrough's `title`)
    cut into parts: each card's own HTML, and the markup between cards. Joined, the parts
    are the board's HTML exactly."""
    from mtg_rulekit.display.board import (
        board_data,
        board_html,
        card_html,
        step_board_label,
        step_changes,
    )

    first = next(iter(game.state.players))
    data = board_data(game, viewer=None, changed=step_changes(events), bottom=first)
    whole = board_html(data, label=step_board_label(title))
    cards: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if "type_line" in node and "oracle" in node and "id" in node:
                cards.append(card_html(node))
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(data["players"])
    found = sorted((whole.find(c), c) for c in cards)
    parts, at = [], 0
    for where, card in found:
        if where < at:  # not where expected (a card inside another): keep it in the markup
            continue
        parts += [*_markup_pieces(whole[at:where]), *_card_pieces(card)]
        at = where + len(card)
    parts += _markup_pieces(whole[at:])
    parts = [p for p in parts if p]
    assert "".join(parts) == whole
    return parts


_CUTS = re.compile("(?=<ol class='rk-steps')|(?=<div class='rk-side)|(?=<div class='rk-stackbox')"
                   "|(?=<span class='rk-pool)|(?=<span class='rk-piles')|(?=<div class='rk-field')"
                   "|(?=<div class='rk-hand')|(?=<div class='rk-player)")


def _markup_pieces(markup: str) -> list[str]:
    """The board's markup between two cards, cut where its parts begin (the step strip, a
    side, a player's panel, pool and piles, the stack): most are the same from step to step."""
    return [p for p in _CUTS.split(markup) if p]


def _card_pieces(card: str) -> list[str]:
    """A card's HTML in the pieces that change apart: its opening tag (classes, id, name),
    its full text (`title`), its face (name, cost, type line, text: the same at every step,
    and for every card of that name) and its badges."""
    box = card.find("<div class='rk-cardbox'>")
    if box < 0:
        return [card]
    ends = [i for i in (card.find("<ul class='rk-badges'>", box),
                        card.find("<details class='rk-oracle'>", box)) if i >= 0]
    end = min(ends) if ends else len(card) - len("</div>")
    head, title = card[:box], ""
    t = head.find(" title='")
    if t >= 0:
        head, title = head[:t], head[t:]
    return [head, title, card[box:end], card[end:]]


def _pool() -> tuple[list[str], Callable[[str], int]]:
    """A walkthrough's list of distinct strings, and the function that gives a string's
    number in it (adding it the first time): what the frames send once and name by number."""
    shared: list[str] = []
    index: dict[str, int] = {}

    def ref(item: str) -> int:
        if item not in index:
            index[item] = len(shared)
            shared.append(item)
        return index[item]

    return shared, ref


def _share_legends(frames: list[dict[str, Any]]) -> list[str]:
    """Every frame's legend strips kept once for the walkthrough: the `legend` of a frame's
    `view` (and its `phone` picture) and `diagram` become numbers in the returned
    list (a walkthrough's frames draw the same few shapes, so most strips repeat; the module
    looks them up, `mtg_rulekit/display/front/stepper.js`)."""
    shared, ref = _pool()
    for frame in frames:
        view = frame.get("view")
        for fig in (view, frame.get("diagram"), view.get("phone") if view else None):
            if isinstance(fig, dict) and isinstance(fig.get("legend"), str):
                fig["legend"] = ref(fig["legend"])
    return shared


def _share_board_parts(frames: list[dict[str, Any]]) -> list[str]:
    """Every frame's board parts kept once for the walkthrough: each frame's `board` becomes
    the list of its parts' numbers in the returned list (a card unchanged between steps is
    sent once; the module joins them, `mtg_rulekit/display/front/stepper.js`)."""
    shared, ref = _pool()
    for frame in frames:
        frame["board"] = [ref(part) for part in frame.get("board") or ()]
    return shared
