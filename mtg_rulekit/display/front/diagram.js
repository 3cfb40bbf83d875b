/* rulekit: a walkthrough's picture (the first part of the stepper's module: module_text
   joins it before stepper.js, mtg_rulekit/display/front/__init__.py).

   A frame's figure: its SVG (the step view, or the whole story cut from the walkthrough's one
   drawing), its legend and tools, each box a button that answers "why", and `fit`: the one
   picture, laid out in Python for every pane (mtg_rulekit.display.walkthrough.frames, `step_view`),
   scaled to its pane and scrolled to its focus box (what the step added). Nothing here measures the
   picture in more than one size or moves an element: where things go is stepper.css's. */

const TEXT_PT = 16; // the drawings' smallest text (mtg_rulekit.display.flow.grammar.TEXT_PT)
const PAD = 12; // px kept around what the step added, where the pane has room for it

function groupOf(node) {
  let group = null;
  const uses = [];
  for (const c of node.classList) {
    if (c.startsWith("rk-uses-")) uses.push(c.slice(8));
    else if (c.startsWith("rk-") && c !== "rk-new" && group === null) group = c.slice(3);
  }
  return {group, uses};
}

function svgOf(markup) {
  const t = document.createElement("template");
  t.innerHTML = markup;
  return t.content.querySelector("svg");
}

// a picture's scrolling pane: its boxes the Tab stop when they answer "why", else the pane
function paneOf(svg, focus, title, describedBy, why, phone) {
  svg.setAttribute("aria-describedby", describedBy);
  const pane = el("div", {class: phone ? "rk-diagram rk-phone" : "rk-diagram", tabindex: 0,
    role: "group", "aria-label": `${title} (scrolls)`}, svg);
  if (askable(svg, why)) pane.removeAttribute("tabindex"); // its boxes are the Tab stop
  pane.rkFocus = focus; // what the step added: [x0, y0, x1, y1] in the SVG's viewBox
  return pane;
}

function diagramOf(data, fig, describedBy, why) {
  // the frame's SVG: cut from the walkthrough's one drawing ("so far"), or its own
  let svg = null;
  if (fig.show && data.svg) {
    svg = svgOf(data.svg);
    const show = new Set(fig.show), fresh = new Set(fig.new || []);
    const graph = svg && svg.querySelector(":scope > g");
    for (const node of graph ? Array.from(graph.children) : []) {
      if (node.tagName.toLowerCase() !== "g") continue;
      const {group, uses} = groupOf(node);
      const shown = uses.length ? uses.some((u) => show.has(u)) : group === null || show.has(group);
      if (!shown) node.remove();
      else if (group !== null && fresh.has(group)) node.classList.add("rk-new");
    }
    if (svg) {
      for (const a of ["width", "height", "viewBox"]) if (fig[a]) svg.setAttribute(a, fig[a]);
      if (fig.label) svg.setAttribute("aria-label", fig.label);
    }
  } else if (fig.svg) {
    svg = svgOf(fig.svg);
  }
  const name = fig.title || "Event and trigger diagram";
  const title = el("p", {class: "rk-figure-title", text: name});
  if (!svg) {
    return el("div", {class: "rk-figure"}, title,
      el("p", {class: "rk-empty rk-new", text: fig.empty || "No diagram."}));
  }
  const figure = el("div", {class: "rk-figure"}, title,
    paneOf(svg, fig.focus, name, describedBy, why, false));
  // a step too wide for a phone has a second picture for it: stepper.css shows one of them
  const phone = fig.phone && fig.phone.svg && svgOf(fig.phone.svg);
  if (phone) figure.append(paneOf(phone, fig.phone.focus, name, describedBy, why, true));
  return figure;
}

// ---------------------------------------------------------------- ask the diagram why
// Each box of the drawing (an SVG `g.node` with class `rkbox-<name>`) is a button:
// one Tab stop for the diagram (roving tabindex), arrow keys along the arrows (Right/Down: to
// an effect, Left/Up: to its cause), Enter or a click opens the "why" panel under the pane
// (the box's chain of causes back to the player's action, its rules with the kit's summaries,
// a replaced event before and after), Escape closes it and gives the focus back to the box.
// The answers come with the frame (`view.why`, mtg_rulekit.display.walkthrough.frames._why_data).
const boxName = (node) => {
  for (const c of node.classList) if (c.startsWith("rkbox-")) return c.slice(6);
  return null;
};
const eventOf = (name) => (name.match(/^[npr](\d+)/) || [])[1] || null;

function ruleWords(why, n) {
  const r = (why.cited || {})[n];
  return r && r[0] ? `CR ${n} (${r[0]})` : `CR ${n}`;
}

function chainOf(why, name) { // [{box, says, how}], nearest cause first, to the action
  const out = [], seen = new Set([name]);
  let at = name;
  for (;;) {
    const c = (why.causes || {})[at];
    if (!c || seen.has(c[0])) break;
    out.push({box: c[0], how: c[1], says: (why.texts || {})[c[0]] || c[0]});
    seen.add(c[0]);
    at = c[0];
  }
  return out;
}

// a box's accessible name: its words as drawn first (what a voice-control user says), then
// its whole words, its rules with their titles, and what it came of (a step view's " · "
// before the CR numbers on a line of words is only drawn, never said)
function boxLabel(why, name, node) {
  const says = (why.texts || {})[name];
  const title = node.querySelector("title");
  const drawn = Array.from(node.querySelectorAll("text"),
    (t) => t.textContent.replace(/(^|\s)·(?=\s|$)/g, " ").trim()).filter(Boolean).join(" ");
  const words = says || (title ? title.textContent.split("\n")[0] : name);
  const rules = ((why.rules || {})[name] || []).map((n) => ruleWords(why, n));
  const cause = (why.causes || {})[name];
  const squashed = (x) => x.replace(/\W+/g, "");
  const parts = [drawn || words];
  if (drawn && squashed(words) !== squashed(drawn)) parts.push(words);
  if (rules.length) parts.push(rules.join(", "));
  if (cause) parts.push(`it ${cause[1] === "then" ? "follows" : "comes of"}: ` +
    ((why.texts || {})[cause[0]] || cause[0]));
  if (node.classList.contains("rk-new")) parts.push("new this step");
  return parts.join(". ");
}

// the boxes of an SVG made buttons (with the why data, when it has any); true when it has any
function askable(svg, why) {
  if (!why) return false;
  const nodes = Array.from(svg.querySelectorAll("g.node")).filter((n) => boxName(n));
  if (!nodes.length) return false;
  svg.setAttribute("role", "group"); // an img's parts are out of the accessibility tree
  nodes.forEach((node, i) => {
    const name = boxName(node);
    node.setAttribute("tabindex", i === 0 ? "0" : "-1");
    node.setAttribute("role", "button");
    // each drawn line ends with a space (SVG leaves it out of the picture), so its words read
    // as words in its text content ("for mana", not "formana")
    for (const t of node.querySelectorAll("text")) {
      if (!/\s$/.test(t.textContent)) t.append(" ");
    }
    node.setAttribute("aria-label", boxLabel(why, name, node));
    // its tooltip (the whole words, each rule's summary) becomes its description: an SVG
    // <title> inside a button would count as its visible text (axe: label-in-name)
    const tip = node.querySelector(":scope > title");
    if (tip) {
      node.setAttribute("aria-description", tip.textContent.replace(/\s+/g, " ").trim());
      tip.remove();
    }
    node.classList.add("rk-box");
  });
  return true;
}

function whyPanel(why, name, node, idBase) {
  const texts = why.texts || {};
  const title = node.querySelector("title");
  const says = texts[name] || (title ? title.textContent : name);
  const head = el("h4", {id: `${idBase}-why-head`, text: `Why: ${says}`});
  const panel = el("section", {class: "rk-why", tabindex: -1, "aria-labelledby": head.id,
    "data-box": name}, head);
  const rules = (why.rules || {})[name] || [];
  if (rules.length) {
    panel.append(el("p", {class: "rk-why-sub", text: rules.length === 1 ? "The rule" :
      "The rules"}), el("ul", {}, ...rules.map((n) => {
      const r = (why.cited || {})[n] || ["", ""];
      return el("li", {}, el("b", {text: `CR ${n}${r[0] ? ` (${r[0]})` : ""}`}),
        r[1] ? `: ${r[1]}` : "");
    })));
  }
  const id = eventOf(name), rep = id && (why.replaced || {})[id];
  if (rep) {
    const list = el("ul", {}, el("li", {}, el("b", {text: "Before: "}), rep.before));
    for (const e of rep.effects || []) {
      list.append(el("li", {}, el("b", {text: "Changed by: "}), `${e.effect} (${e.outcome} it)`,
        (e.rules || []).length ? ` — ${e.rules.map((n) => ruleWords(why, n)).join(", ")}` : ""));
    }
    list.append(el("li", {}, el("b", {text: "After: "}), rep.after));
    panel.append(el("p", {class: "rk-why-sub", text: "A replacement effect changed it"}), list);
  }
  const chain = chainOf(why, name);
  if (chain.length) {
    // from the player's action down to this box, each line led by its arrow's word (how the
    // line above led to it: "does", "pays", "triggers", "resolves", "then", ...)
    const steps = chain.slice().reverse();
    const how = (i) => el("span", {class: "rk-why-how", text: `${steps[i - 1].how} → `});
    const items = steps.map((c, i) => el("li", {}, i ? how(i) : null, c.says,
      i === 0 ? el("span", {class: "rk-why-how", text: " (the player's action)"}) : null));
    items.push(el("li", {}, el("span", {class: "rk-why-how",
      text: `${steps[steps.length - 1].how} → `}), el("b", {text: says})));
    panel.append(el("p", {class: "rk-why-sub", text: "How it came about"}),
      el("ol", {class: "rk-why-chain"}, ...items));
  } else if (texts[name]) {
    panel.append(el("p", {text: "This is the player's action (or the set-up): nothing in the " +
      "diagram caused it."}));
  } else if (title) {
    panel.append(el("p", {text: title.textContent}));
  }
  if ((why.when || {})[name]) {
    panel.append(el("p", {}, el("b", {text: "It happened when: "}), why.when[name]));
  }
  panel.append(el("button", {type: "button", class: "rk-button rk-why-close",
    text: "Close (Esc)"}));
  return panel;
}

// the keyboard and the clicks of one figure's boxes, each picture's apart (a step with a
// phone's picture has two panes, one shown); `say` speaks in the live region
function wireBoxes(figure, why, idBase, say) {
  for (const pane of figure.querySelectorAll(".rk-diagram")) {
    wirePane(figure, pane, why, idBase, say);
  }
}

function wirePane(figure, pane, why, idBase, say) {
  if (!pane.querySelector(".rk-box")) return;
  // its "why" panel goes right after it
  const panelOf = () => (pane.nextElementSibling && pane.nextElementSibling.classList
    .contains("rk-why") ? pane.nextElementSibling : null);
  const boxes = Array.from(pane.querySelectorAll(":scope > svg .rk-box"));
  const byName = new Map(boxes.map((b) => [boxName(b), b]));
  const arrows = (why.arrows || []).filter(([t, h]) => byName.has(t) && byName.has(h));
  const effects = (n) => arrows.filter(([t]) => t === n).map(([, h]) => h);
  const causes = (n) => arrows.filter(([, h]) => h === n).map(([t]) => t);
  const turn = new Map(); // box -> the effect Right/Down went to last (the next one goes on)
  const turnUp = new Map(); // box -> the cause Left/Up went to last (likewise)
  let from = null; // the box the focus came from, with an arrow key
  const moveTo = (b) => {
    for (const x of boxes) x.setAttribute("tabindex", x === b ? "0" : "-1");
    b.focus();
  };
  const close = (back) => {
    const open = panelOf();
    if (!open) return false;
    const b = byName.get(open.dataset.box);
    open.remove();
    if (back && b) moveTo(b);
    return true;
  };
  const open = (b) => {
    close(false);
    const panel = whyPanel(why, boxName(b), b, idBase);
    pane.after(panel);
    panel.focus({preventScroll: true});
    b.scrollIntoView({block: "nearest", inline: "nearest"}); // the pane is shorter now
  };
  figure.addEventListener("click", (ev) => {
    const shut = ev.target.closest(".rk-why-close");
    if (shut) { if (shut.closest(".rk-why") === panelOf()) close(true); return; }
    const b = ev.target.closest && ev.target.closest(".rk-box");
    if (b && pane.contains(b)) { moveTo(b); open(b); }
  });
  figure.addEventListener("keydown", (ev) => {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const inPanel = ev.target.closest && ev.target.closest(".rk-why");
    if (ev.key === "Escape" && panelOf() && (!inPanel || inPanel === panelOf())) {
      close(true);
      ev.preventDefault();
      ev.stopPropagation();
      return;
    }
    const b = ev.target.closest && ev.target.closest(".rk-box");
    if (!b || !pane.contains(b) || inPanel) return;
    const name = boxName(b);
    let to = null;
    if (ev.key === "Enter" || ev.key === " ") {
      open(b);
    } else if (ev.key === "ArrowRight" || ev.key === "ArrowDown") {
      const list = effects(name);
      if (list.length) {
        const k = (list.indexOf(turn.get(name)) + 1) % list.length;
        turn.set(name, list[k]);
        to = list[k];
        if (list.length > 1) say(`Effect ${k + 1} of ${list.length}.`);
      } else { // nothing drawn came of it (an earlier step's box, a chain's end): the next box
        const k = boxes.indexOf(b);
        if (k + 1 < boxes.length) to = boxName(boxes[k + 1]);
        say(k + 1 < boxes.length ? "Nothing in this diagram came of it; the next box." :
          "Nothing in this diagram came of it: the last box.");
      }
    } else if (ev.key === "ArrowLeft" || ev.key === "ArrowUp") {
      const list = causes(name);
      if (list.length) { // back where it came from, if that is a cause; again: the next one
        const last = turnUp.get(name);
        const k = list.includes(from) && last !== from ? list.indexOf(from) :
          (list.indexOf(last) + 1) % list.length;
        turnUp.set(name, list[k]);
        to = list[k];
        if (list.length > 1) say(`Cause ${k + 1} of ${list.length}.`);
      } else { // the first box of its chain: the box before it
        const k = boxes.indexOf(b);
        if (k > 0) to = boxName(boxes[k - 1]);
        say(k > 0 ? "Nothing in this diagram caused it; the box before." :
          "Nothing in this diagram caused it: the first box.");
      }
    } else if (ev.key === "Home") {
      to = boxName(boxes[0]);
    } else if (ev.key === "End") {
      to = boxName(boxes[boxes.length - 1]);
    } else return;
    ev.preventDefault();
    ev.stopPropagation();
    if (to !== null && byName.has(to)) { from = name; moveTo(byName.get(to)); }
  });
}

// the keys the figure takes for itself (the walkthrough's own key handler leaves them)
function figureKey(ev) {
  const t = ev.target;
  if (!t || !t.closest) return false;
  if (t.closest(".rk-why")) return true;
  if (!t.closest(".rk-box")) return false;
  return ["Enter", " ", "ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp", "Home", "End",
    "Escape"].includes(ev.key) && (ev.key !== "Escape" ||
    !!t.closest(".rk-figure").querySelector(".rk-why"));
}

// the frame's diagram: the step view (that step in full, earlier steps folded) or, with the

function figureOf(data, f, described, whole) {
  const has = (x) => x && Object.keys(x).length ? x : null;
  const view = has(f.view), story = has(f.diagram);
  const fig = whole && story ? story : (view || story);
  if (!fig) return null;
  const why = fig === view ? view.why : whyUpTo(data, f.step);
  const figure = diagramOf(data, fig, described, why);
  figure.rkWhy = why;
  figure.rkHalf = !!fig.half;
  const head = el("div", {class: "rk-figure-head"}, figure.firstChild);
  if (view && story) {
    head.append(el("button", {type: "button", class: "rk-button rk-whole",
      "aria-pressed": fig === story ? "true" : "false", text: "The whole story",
      title: "Every step so far in one diagram (press again: this step, earlier ones folded)"}));
  }
  if (figure.querySelector(".rk-diagram svg")) {
    const zoom = el("button", {type: "button", class: "rk-button rk-zoom", "aria-pressed": "false",
      text: "1:1", title: "The diagram at its real size (press again: zoomed to fit the step)"});
    const whole = head.querySelector(".rk-whole");
    head.append(el("span", {class: "rk-figure-tools"}, whole, zoom));
  }
  figure.prepend(head);
  // a legend strip: its markup, or its number in the walkthrough's `legends` (each once)
  const legend = (x) => typeof x === "number" ? ((data.legends || [])[x] || "") : (x || "");
  const words = legend(fig.legend), phone = fig.phone ? legend(fig.phone.legend) : "";
  if (words) head.append(html("div", {class: "rk-legend-box"}, words));
  if (phone) head.append(html("div", {class: "rk-legend-box rk-phone"}, phone));
  // the tools and the legend say what the pane is; its title stays for screen readers
  if (head.querySelector(".rk-figure-tools")) head.firstChild.classList.add("rk-sr-only");
  return figure;
}

// the whole story's why: every frame's up to step k (a box is drawn in full in its own
// step's view; the same event is the same box in every frame of one walkthrough)
function whyUpTo(data, k) {
  if (!data.frames) return null;
  const out = {texts: {}, causes: {}, rules: {}, cited: {}, when: {}, replaced: {}, arrows: []};
  let any = false;
  for (const f of data.frames.slice(0, k + 1)) {
    const w = f.view && f.view.why;
    if (!w) continue;
    any = true;
    for (const key of ["texts", "causes", "rules", "cited", "when", "replaced"]) {
      Object.assign(out[key], w[key] || {});
    }
  }
  return any ? out : null; // (the whole story's arrows: not walked; its boxes still answer)
}

// a question: asked on the frame before its step, checked here against the engine's
// answer (in the frame data: no kernel needed), kept in the page's localStorage

// Zoom to the step: the picture scaled so that its focus box (what the step added) fills the
// pane, its text never under the view's least size nor the picture over its largest zoom
// (stepper.css: `--rk-text-px` 16 on a page, 18 in Present, 12 in one column; `--rk-zoom`;
// `--rk-fit: width` where the pane grows with the picture, up to its `max-height`), then
// scrolled to the box: centred, or from its top left when larger. `real`: the picture at 1:1
// (the "1:1" toggle).
function fit(root, real) {
  // (the pane stepper.css shows: a step with a phone's picture has two, one hidden)
  const pane = Array.from(root.querySelectorAll(".rk-frame .rk-diagram"))
    .find((p) => p.getClientRects().length > 0);
  const svg = pane && pane.querySelector(":scope > svg");
  if (!svg) return;
  const w0 = parseFloat(svg.getAttribute("width")), h0 = parseFloat(svg.getAttribute("height"));
  const css = getComputedStyle(pane);
  const least = (parseFloat(css.getPropertyValue("--rk-text-px")) || TEXT_PT) / TEXT_PT;
  const most = Math.max(least, parseFloat(css.getPropertyValue("--rk-zoom")) || 1.25);
  const [x0, y0, x1, y1] = pane.rkFocus || [0, 0, w0, h0];
  // (a pane that grows with the picture: as tall as its largest height, at most)
  const byWidth = css.getPropertyValue("--rk-fit").trim() === "width";
  const pw = pane.clientWidth, ph = byWidth ? parseFloat(css.maxHeight) || Infinity :
    pane.clientHeight;
  const s = real ? 1 : Math.max(least, Math.min(most, (pw - 2 * PAD) / (x1 - x0 || 1),
    (ph - 2 * PAD) / (y1 - y0 || 1)));
  svg.style.width = `${w0 * s}px`;
  svg.style.height = `${h0 * s}px`;
  const asked = root.querySelector(".rk-frame .rk-why");
  const box = asked && pane.querySelector(`.rkbox-${CSS.escape(asked.dataset.box)}`);
  if (box) { // a "why" is open: its box stays in view
    box.scrollIntoView({block: "nearest", inline: "nearest"});
    return;
  }
  const at = svg.getBoundingClientRect(), p = pane.getBoundingClientRect();
  const offset = (start, clientStart, scrolled) => start - clientStart + scrolled;
  const left = offset(at.left, p.left + pane.clientLeft, pane.scrollLeft);
  const top = offset(at.top, p.top + pane.clientTop, pane.scrollTop);
  const place = (a, b, size) => ((b - a) * s > size - 2 * PAD ?
    a * s - Math.max(0, Math.min(PAD, (size - (b - a) * s) / 2)) : (a + b) / 2 * s - size / 2);
  pane.scrollLeft = left + place(x0, x1, pw);
  pane.scrollTop = top + place(y0, y1, pane.clientHeight);
}
