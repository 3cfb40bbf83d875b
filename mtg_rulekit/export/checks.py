"""Classroom checks on an exported lesson page open in Playwright (see `mtg_rulekit.export.browser`):
what the browser tests assert, usable by anyone who builds the site (a school's own tests).

- `axe(page)`: axe-core's violations (pinned, see `mtg_rulekit.export.axe`), by rule id;
- `step_views(stepper)`: step a walkthrough through every step with its own keys and report,
  per step, in one pass: whether its controls (`.rk-controls`), its narration
  (`.rk-narration`) and what it added to the diagram (`.rk-new`) are on screen together, the
  share of what it added that its pane shows (the 95 % rule) and the smallest text in it;
  with `picture=True` (one column, a phone) the picture is scrolled into view at each step;
- `goto_step(stepper, k)`: show step k (its step button, `STEP_BUTTONS`);
- `diagram_font_px(page)`: the smallest rendered size of any visible diagram text;
- `undescribed(stepper)`: the shown diagrams whose aria-describedby does not name one element
  with text (their "Describe this step");
- `diagram_descriptions(page)`: what Chromium gives screen readers as each shown diagram's
  description (its accessibility tree, through the DevTools protocol).

They rely only on the page contract documented in `docs/classroom.md`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["STEP_BUTTONS", "StepView", "axe", "diagram_descriptions", "diagram_font_px",
           "goto_step", "step_views", "undescribed"]

SERIOUS = ("critical", "serious")
# a walkthrough's "Jump to" buttons, one per step (the set-up first): the page contract
STEP_BUTTONS = ".rk-controls .rk-steps button"


def axe(page: Any, impacts: tuple[str, ...] = SERIOUS, *,
        within: str | None = None) -> dict[str, list[str]]:
    """axe-core's violations of the given impacts on the page as it is now (only inside the
    elements matching the CSS selector `within`, if given): rule id -> a count and the first
    few offending elements (CSS selectors)."""
    from mtg_rulekit.export.axe import axe_source

    if not page.evaluate("() => typeof window.axe === 'object'"):
        # evaluated by the browser's debugger, as the test's own code: a <script> tag would be
        # refused by the page's security policy (mtg_rulekit.export.csp)
        page.evaluate(axe_source())
    found = page.evaluate(
        """async ([impacts, within]) => {
          const where = within ? {include: Array.from(document.querySelectorAll(within))}
                               : document;
          // (preload: false: no reading the style sheets over the network, which the page's
          // policy refuses; axe reads the styles the page applies)
          const r = await axe.run(where, {resultTypes: ['violations'], preload: false});
          const out = {};
          for (const v of r.violations) {
            if (!impacts.includes(v.impact)) continue;
            out[v.id] = v.nodes.slice(0, 5).map((n) => n.target.join(' '));
            out[v.id].count = v.nodes.length;
          }
          return Object.fromEntries(Object.entries(out).map(([k, v]) =>
              [k, [`${v.count ?? v.length} element(s)`, ...v]]));
        }""", [list(impacts), within])
    return dict(found)


# What a reader sees of the page around a walkthrough `root`: the window (under its control
# row where that sticks to the top: one column); in JupyterLab, what its notebook panel shows
# (unless the walkthrough is presented: then it fills the screen, above the panel). One
# definition for the fit check and the 95 % rule.
VIEW_JS = """(root) => {
  const vw = document.documentElement.clientWidth, vh = window.innerHeight;
  let view = {left: 0, top: 0, right: vw, bottom: vh};
  const bar = root.querySelector('.rk-controls');
  if (bar && getComputedStyle(bar).position === 'sticky')
    view.top = Math.max(0, bar.getBoundingClientRect().bottom);
  const panel = root.closest('.jp-WindowedPanel-outer, .jp-NotebookPanel-notebook');
  const presented = document.fullscreenElement === root ||
      root.classList.contains('rk-presenting');
  if (panel && !presented) { const c = panel.getBoundingClientRect();
    view = {left: Math.max(view.left, c.left), top: Math.max(view.top, c.top),
            right: Math.min(view.right, c.right), bottom: Math.min(view.bottom, c.bottom)}; }
  return view;
}"""

# How far the step's new diagram elements must show: all of them, or, when they are larger
# than the diagram's pane, enough to fill the pane (90 % of it, each way).
FIT_JS = """(root) => {
  const shown = (e) => e.getClientRects().length > 0;
  const clip = (r, c) => ({left: Math.max(r.left, c.left), top: Math.max(r.top, c.top),
      right: Math.min(r.right, c.right), bottom: Math.min(r.bottom, c.bottom)});
  const view = (""" + VIEW_JS + """)(root);
  const inView = (e) => { const r = e.getBoundingClientRect();
      return r.width > 0 && r.left >= view.left - 1 && r.top >= view.top - 1 &&
          r.right <= view.right + 1 && r.bottom <= view.bottom + 1; };
  const out = {controls: false, narration: false, fresh: false, why: []};
  // (on Present's slide, what shows of them: "Step k / n", at the head of the words)
  const controls = root.querySelector(root.classList.contains('rk-presenting') ?
      '.rk-status' : '.rk-controls');
  out.controls = !!controls && inView(controls);
  if (!out.controls) out.why.push('controls off screen');
  const narr = Array.from(root.querySelectorAll('.rk-narration')).filter(shown);
  out.narration = narr.length === 1 && inView(narr[0]);
  if (!out.narration) out.why.push('narration off screen (' + narr.length + ' shown)');
  const fresh = Array.from(root.querySelectorAll('.rk-new')).filter(shown);
  if (!fresh.length) { out.why.push('no .rk-new element'); return out; }
  let box = null;
  for (const e of fresh) { const r = e.getBoundingClientRect();
    box = box ? {left: Math.min(box.left, r.left), top: Math.min(box.top, r.top),
      right: Math.max(box.right, r.right), bottom: Math.max(box.bottom, r.bottom)} :
      {left: r.left, top: r.top, right: r.right, bottom: r.bottom}; }
  let seen = clip(box, view);
  const pane = fresh[0].closest('.rk-diagram');
  let area = view;
  if (pane) { const p = pane.getBoundingClientRect(); area = clip(p, view); seen = clip(seen, p); }
  const need = (a, b, c, d) => Math.min(b - a, 0.9 * (d - c));
  const w = seen.right - seen.left, h = seen.bottom - seen.top;
  out.fresh = w >= need(box.left, box.right, area.left, area.right) - 1 &&
              h >= need(box.top, box.bottom, area.top, area.bottom) - 1;
  if (!out.fresh) out.why.push(`new diagram part shows ${Math.round(w)}x${Math.round(h)} of ` +
      `${Math.round(box.right - box.left)}x${Math.round(box.bottom - box.top)}`);
  return out;
}"""

GOTO_JS = """async (root, k) => {
  const buttons = root.querySelectorAll('.rk-controls .rk-steps button');
  buttons[k].click();
  for (let i = 0; i < 50; i++) {
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    const f = Array.from(root.querySelectorAll('.rk-frame')).filter(
        (e) => e.getClientRects().length > 0);
    if (f.length === 1 && f[0].dataset.step === String(k)) break;
  }
  await new Promise((r) => setTimeout(r, 60));  // the page's scroll-into-view runs
  return buttons.length;
}"""


# to the top of the window (or of JupyterLab's notebook panel), again once what is above has
# settled (JupyterLab lays out cells around the one it scrolls to)
SCROLL_JS = """async (e) => {
  const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
  e.scrollIntoView({block: 'start'});
  await frame(); await frame();
  e.scrollIntoView({block: 'start'});
  await frame();
}"""


def goto_step(stepper: Any, k: int) -> int:
    """Show step `k` of a walkthrough (its step button); returns how many steps it has + 1."""
    return int(stepper.evaluate(GOTO_JS, int(k)))


def diagram_font_px(page: Any) -> float:
    """The smallest rendered font size (CSS px, after the SVG's scaling) of visible diagram
    text; 0 when no diagram is shown."""
    return float(page.evaluate("""() => {
      let low = 0;
      for (const t of document.querySelectorAll('.rk-diagram svg text')) {
        if (!t.getClientRects().length || !t.textContent.trim()) continue;
        const svg = t.ownerSVGElement, m = t.getScreenCTM();
        if (!m) continue;
        const size = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
        if (size > 0 && (low === 0 || size < low)) low = size;
      }
      return low;
    }"""))


# every shown frame's diagram (an `svg` with a role: img, or group when its boxes are buttons)
# has an aria-describedby that names
# exactly one element in the page, whose text is not empty
DESCRIBED_JS = """(root) => {
  const bad = [];
  let seen = 0;
  for (const f of root.querySelectorAll('.rk-frame')) {
    if (!f.getClientRects().length) continue;
    for (const svg of f.querySelectorAll('.rk-diagram svg[role]')) {
      seen += 1;
      const id = svg.getAttribute('aria-describedby');
      const found = id ? document.querySelectorAll('#' + CSS.escape(id)) : [];
      if (found.length !== 1 || !found[0].textContent.trim())
        bad.push(`step ${f.dataset.step}: aria-describedby=${id}, ${found.length} found`);
    }
  }
  return {seen, bad};
}"""


def undescribed(stepper: Any) -> tuple[int, list[str]]:
    """(how many diagrams the walkthrough shows now, the ones not described: their step and
    why)."""
    got = stepper.evaluate(DESCRIBED_JS)
    return int(got["seen"]), list(got["bad"])


DIAGRAMS = ".rk-stepper .rk-frame .rk-diagram svg[role]"  # an img, or a group of boxes


def diagram_descriptions(page: Any, selector: str = DIAGRAMS) -> list[str]:
    """Chromium's computed accessible description of every element matching `selector` (by
    default every diagram shown), in page order: what a screen reader offers with it. An
    element the accessibility tree leaves out (one not shown: a step's phone picture on a
    wider screen) is left out."""
    cdp = page.context.new_cdp_session(page)
    try:
        cdp.send("Accessibility.enable")
        root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
        out = []
        for node in cdp.send("DOM.querySelectorAll", {"nodeId": root,
                                                      "selector": selector})["nodeIds"]:
            found = cdp.send("Accessibility.getPartialAXTree",
                             {"nodeId": node, "fetchRelatives": False})["nodes"]
            if found and found[0].get("ignored"):
                continue
            out.append(str(((found[0].get("description") or {}) if found else {})
                           .get("value", "")))
        return out
    finally:
        cdp.detach()


# ------------------------------------------------------------------ the 95 % rule
# The share of a step's new diagram part (the union of its `.rk-new` boxes) inside both the
# diagram pane and the viewport, and the smallest text size (CSS px, after the SVG's scaling)
# in it, for the frame a walkthrough shows now.
SHARE_JS = """(root) => {
  const frame = Array.from(root.querySelectorAll('.rk-frame')).find(
      (f) => f.getClientRects().length > 0);
  const out = {step: frame ? Number(frame.dataset.step) : -1, share: 0, text: 0, why: ''};
  if (!frame) { out.why = 'no frame shown'; return out; }
  // (the pane shown: a step with a phone's picture has two, the page shows one)
  const pane = Array.from(frame.querySelectorAll('.rk-diagram')).find(
      (p) => p.getClientRects().length > 0);
  const fresh = pane ? Array.from(pane.querySelectorAll('.rk-new')).filter(
      (e) => e.getClientRects().length > 0) : [];
  if (!fresh.length) {  // a step that adds no diagram ("No diagram: refused") shows its note
    const note = frame.querySelector('.rk-figure .rk-new');
    out.share = note && note.getClientRects().length ? 1 : 0;
    out.text = note ? parseFloat(getComputedStyle(note).fontSize) : 0;
    out.why = note ? 'a note' : 'no .rk-new element';
    return out;
  }
  let box = null;
  for (const e of fresh) { const r = e.getBoundingClientRect();
    box = box ? {left: Math.min(box.left, r.left), top: Math.min(box.top, r.top),
      right: Math.max(box.right, r.right), bottom: Math.max(box.bottom, r.bottom)} :
      {left: r.left, top: r.top, right: r.right, bottom: r.bottom}; }
  const p = pane.getBoundingClientRect();
  const view = (""" + VIEW_JS + """)(root);
  const left = Math.max(box.left, p.left + pane.clientLeft, view.left);
  const top = Math.max(box.top, p.top + pane.clientTop, view.top);
  const right = Math.min(box.right, p.left + pane.clientLeft + pane.clientWidth, view.right);
  const bottom = Math.min(box.bottom, p.top + pane.clientTop + pane.clientHeight, view.bottom);
  const area = (box.right - box.left) * (box.bottom - box.top);
  out.share = area > 0 ? Math.max(0, right - left) * Math.max(0, bottom - top) / area : 0;
  let low = 0;
  for (const e of fresh) for (const t of (e.tagName === 'text' ? [e] : e.querySelectorAll('text'))) {
    if (!t.textContent.trim()) continue;
    const m = t.getScreenCTM();
    if (!m) continue;
    const size = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
    if (size > 0 && (low === 0 || size < low)) low = size;
  }
  out.text = low;
  out.size = [Math.round(box.right - box.left), Math.round(box.bottom - box.top)];
  out.pane = [Math.round(pane.clientWidth), Math.round(pane.clientHeight)];
  return out;
}"""

# every step of a walkthrough by the module's own keys (Home, then Right on its root), each
# measured once its frame is drawn and the walkthrough scrolled to the top of the window (or
# of JupyterLab's notebook panel, which may still be laying out cells around it), or, with
# `picture`, its picture scrolled into view (one column: it comes after the step's words):
# the fit check and the 95 % rule in one pass
STEPS_JS = f"""async (root, picture) => {{
  const fit = ({FIT_JS}), share = ({SHARE_JS}), scroll = ({SCROLL_JS});
  const tick = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  const key = (k) => root.dispatchEvent(new KeyboardEvent('keydown', {{key: k, bubbles: true}}));
  const count = root.querySelectorAll('{STEP_BUTTONS}').length;
  root.focus({{preventScroll: true}});
  key('Home');
  const out = [];
  for (let k = 0; k < count; k++) {{
    for (let i = 0; i < 20; i++) {{
      await tick();
      const f = root.querySelector('.rk-frame');
      if (f && f.dataset.step === String(k)) break;
    }}
    await tick(); await tick();
    const pane = Array.from(root.querySelectorAll('.rk-frame .rk-diagram')).find(
        (p) => p.getClientRects().length > 0);
    if (picture && pane) {{ pane.scrollIntoView({{block: 'start'}}); await tick(); }}
    else if (!root.classList.contains('rk-presenting')) await scroll(root);
    out.push({{...share(root), fit: fit(root)}});
    if (k + 1 < count) key('ArrowRight');
  }}
  return out;
}}"""


@dataclass
class StepView:
    """One step as shown: whether its controls, narration and new diagram part are on screen
    together (`together`, and `why` not), the share of its new diagram part on screen (pane
    and view) and the smallest text size in it (CSS px)."""
    step: int
    share: float
    text_px: float
    together: bool = True
    why: list[str] = field(default_factory=list)
    note: str = ""
    pane: tuple[int, int] | None = None  # the picture's pane, CSS px (width, height)

    def ok(self, min_px: float = 16.0, min_share: float = 0.95) -> bool:
        """The 95 % rule: at least `min_share` of it on screen, its text at least `min_px`."""
        return self.share >= min_share - 1e-6 and self.text_px >= min_px - 0.05


def step_views(stepper: Any, *, picture: bool = False) -> list[StepView]:
    """Step one walkthrough (a `.rk-stepper` locator, scrolled where it should be measured)
    through every step with its own keys; each step's `StepView` (step 0 included). With
    `picture`, each step's picture is scrolled into view before it is measured."""
    got = stepper.evaluate(STEPS_JS, picture)
    return [StepView(int(g["step"]), float(g["share"]), float(g["text"]),
                     bool(g["fit"]["controls"] and g["fit"]["narration"] and g["fit"]["fresh"]),
                     list(g["fit"]["why"]),
                     g.get("why") or (f"{g['size'][0]}x{g['size'][1]} in a "
                                      f"{g['pane'][0]}x{g['pane'][1]} pane"
                                      if g.get("size") else ""),
                     (round(g["pane"][0]), round(g["pane"][1])) if g.get("pane") else None)
            for g in got]
