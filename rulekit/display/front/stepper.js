/* rulekit: a walkthrough (the stepper) as an anywidget front-end module (AFM).

   One ES module, used by every host: JupyterLab and Notebook 7 (anywidget, `Stepper` in
   rulekit/display/widgets.py), and an exported lesson page (rulekit/display/front/host.js).
   The model's traits (`StepFrames.data()`): `frames` (one plain-data frame per step), `svg`
   (the one drawing "so far" frames are cut from, or ""), `uid` (the prefix of its ids),
   `title`, `step` (the step shown; set here and saved, so the kernel knows it), `slug` (its
   name in a page's address, `#<slug>/<step>`), `about` (Present's end card) and `link_base`
   (a kernel host's link to the exported page). A model with `rk_page` (host.js) is an exported
   page's: its address follows the step (history.replaceState). Stepping needs no
   kernel. Everything the page contract names (docs/classroom.md) is made here: controls,
   frame, "Describe this step", the diagram cut from one drawing, the live region, Present and
   the keyboard. No document-wide listener outlives `render`'s clean-up; nothing here reads
   another widget's markup; no eval. HTML fields (`describe`, `board`, the SVG) are generated
   and escaped in Python; every other field is set as text. */

const SPEEDS = [[2000, "2 s"], [4000, "4 s"], [8000, "8 s"]];
let renders = 0; // views made by this module in this page: unique ids when a model shows twice

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else e.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}

function tableOf(t) {
  if (!t.rows || !t.rows.length) {
    return el("div", {}, el("p", {class: "rk-caption"}, el("b", {text: t.caption})),
      el("p", {class: "rk-empty", text: t.empty || "(none)"}));
  }
  const head = el("tr", {}, ...t.columns.map((c) => el("th", {scope: "col", text: c})));
  const body = t.rows.map((r) => el("tr", {}, ...t.columns.map((c) =>
    el("td", {text: r[c] === undefined || r[c] === null ? "" : String(r[c])}))));
  return el("table", {class: "rk-table"}, t.caption ? el("caption", {text: t.caption}) : null,
    el("thead", {}, head), el("tbody", {}, ...body));
}

function html(tag, attrs, markup) { // markup generated and escaped in Python
  const e = el(tag, attrs);
  e.innerHTML = markup;
  return e;
}

// the drawing's groups (rulekit.display.reveal: "rk-s0" the set-up, "rk-s1" step 1, ...;
// legend entries "rk-uses-<group>"), read from an element's classes
function groupOf(node) {
  let group = null;
  const uses = [];
  for (const c of node.classList) {
    if (c.startsWith("rk-uses-")) uses.push(c.slice(8));
    else if (c.startsWith("rk-") && c !== "rk-new" && group === null) group = c.slice(3);
  }
  return {group, uses};
}

function diagramOf(data, fig, describedBy, why) {
  // the frame's SVG: cut from the walkthrough's one drawing ("so far"), or its own
  let svg = null;
  if (fig.show && data.svg) {
    const t = document.createElement("template");
    t.innerHTML = data.svg;
    svg = t.content.querySelector("svg");
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
    const t = document.createElement("template");
    t.innerHTML = fig.svg;
    svg = t.content.querySelector("svg");
  }
  const title = el("p", {class: "rk-figure-title", text: fig.title || "Event and trigger diagram"});
  if (!svg) {
    return el("div", {class: "rk-figure"}, title,
      el("p", {class: "rk-empty rk-new", text: fig.empty || "No diagram."}));
  }
  svg.setAttribute("aria-describedby", describedBy);
  const pane = el("div", {class: "rk-diagram", tabindex: 0, role: "group",
    "aria-label": `${fig.title || "Event and trigger diagram"} (scrolls)`}, svg);
  if (askable(svg, why)) pane.removeAttribute("tabindex"); // its boxes are the Tab stop
  if (fig.shapes && Object.keys(fig.shapes).length) { // the step laid out in other shapes
    svg.dataset.rkShape = "";
    pane.rkShapes = {"": svg, ...fig.shapes}; // (markup, made an element when first tried)
    pane.rkWhy = why;
  }
  return el("div", {class: "rk-figure"}, title, pane);
}

// ---------------------------------------------------------------- ask the diagram why
// (issue 28) Each box of the drawing (an SVG `g.node` with class `rkbox-<name>`) is a button:
// one Tab stop for the diagram (roving tabindex), arrow keys along the arrows (Right/Down: to
// an effect, Left/Up: to its cause), Enter or a click opens the "why" panel under the pane
// (the box's chain of causes back to the player's action, its rules with the kit's summaries,
// a replaced event before and after), Escape closes it and gives the focus back to the box.
// The answers come with the frame (`view.why`, rulekit.display.frames._why_data).
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

// the keyboard and the clicks of one figure's boxes; `say` speaks in the live region
function wireBoxes(figure, why, idBase, say) {
  const pane = figure.querySelector(".rk-diagram");
  if (!pane || !pane.querySelector(".rk-box")) return;
  // the boxes and arrows of the drawing shown now (the pane may show the step in another
  // shape since: the same boxes, names and arrows, but for "brief" and "stacked", which draw
  // a fan-out's replaced events one box each and have their own arrows, `why.shape_arrows`)
  let boxes = [], byName = new Map(), arrows = [];
  const look = () => {
    const svg = pane.querySelector(":scope > svg");
    boxes = Array.from(pane.querySelectorAll(":scope > svg .rk-box"));
    byName = new Map(boxes.map((b) => [boxName(b), b]));
    const shape = (svg && svg.dataset.rkShape) || "";
    arrows = (((why.shape_arrows || {})[shape]) || why.arrows || [])
      .filter(([t, h]) => byName.has(t) && byName.has(h));
  };
  look();
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
    const open = figure.querySelector(".rk-why");
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
    look();
    if (ev.target.closest(".rk-why-close")) { close(true); return; }
    const b = ev.target.closest && ev.target.closest(".rk-box");
    if (b && pane.contains(b)) { moveTo(b); open(b); }
  });
  figure.addEventListener("keydown", (ev) => {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    look();
    const inPanel = ev.target.closest && ev.target.closest(".rk-why");
    if (ev.key === "Escape" && (inPanel || figure.querySelector(".rk-why"))) {
      close(true);
      ev.preventDefault();
      ev.stopPropagation();
      return;
    }
    const b = ev.target.closest && ev.target.closest(".rk-box");
    if (!b || inPanel) return;
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
// "The whole story" toggle pressed, every step so far; the legend of its shapes above the pane
function figureOf(data, f, described, whole) {
  const has = (x) => x && Object.keys(x).length ? x : null;
  const view = has(f.view), story = has(f.diagram);
  const fig = whole && story ? story : (view || story);
  if (!fig) return null;
  const why = fig === view ? view.why : whyUpTo(data, f.step);
  const figure = diagramOf(data, fig, described, why);
  figure.rkWhy = why;
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
  const strip = (v) => typeof v === "number" ? ((data.legends || [])[v] || "") : (v || "");
  const words = strip(fig.legend);
  if (words) { // the legend and the tools share a row; the title stays for screen readers
    // (the tools float right, before the legend: its second row has the pane's whole width)
    const tools = head.querySelector(".rk-figure-tools");
    const legend = html("div", {class: "rk-legend-box"}, words);
    const pane = figure.querySelector(".rk-diagram");
    if (pane && pane.rkShapes && fig.shape_legends) { // a shape that draws other shapes
      pane.rkLegends = {"": words};
      for (const [name, v] of Object.entries(fig.shape_legends)) pane.rkLegends[name] = strip(v);
      pane.rkLegendBox = legend; // (Present moves it under the words)
    }
    if (tools) {
      head.firstChild.classList.add("rk-sr-only");
      tools.after(legend);
    } else head.after(legend);
  }
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

// a question (issue 29): asked on the frame before its step, checked here against the engine's
// answer (in the frame data: no kernel needed), kept in the page's localStorage
const squash = (x) => String(x).trim().toLowerCase().replace(/[\s{}]+/g, "");

function rightAnswer(q, value, choice) {
  if ((q.labels || []).length) return choice === q.correct;
  const said = squash(value);
  if (!said) return false;
  const want = [q.answer_label, typeof q.answer === "string" ? q.answer : JSON.stringify(q.answer)];
  if (want.some((w) => squash(w) === said)) return true;
  const n = Number(value.trim());
  return typeof q.answer === "number" && Number.isFinite(n) && n === q.answer;
}

function feedbackWords(q, a) {
  const rules = (q.rule_texts || []).map((r) => `CR ${r.number}${r.title ? ` (${r.title})` : ""}` +
    `${r.summary ? `: ${r.summary}` : ""}`).join(" ");
  return (a.right ? `Right: ${q.answer_label}.` :
    `Not this time: you said ${a.value}; the engine says ${q.answer_label}.`) +
    (rules ? ` The rule: ${rules}` : "");
}

function feedbackOf(q, a) {
  const box = el("div", {class: `rk-q-feedback ${a.right ? "rk-q-right" : "rk-q-wrong"}`},
    el("p", {class: a.right ? "rk-ok" : "rk-bad", text: a.right ?
      `✓ Right: ${q.answer_label}.` : `✗ Not this time: you said ${a.value}.`}));
  if (!a.right) box.append(el("p", {}, "The engine says: ", el("b", {text: q.answer_label})));
  for (const r of q.rule_texts || []) {
    box.append(el("p", {class: "rk-q-rule"},
      el("b", {text: `CR ${r.number}${r.title ? ` (${r.title})` : ""}`}),
      r.summary ? `: ${r.summary}` : ""));
  }
  return box;
}

function questionOf(q, a, idBase, onCheck) {
  const name = `${idBase}-q-${q.step}`;
  const done = !!a;
  const legend = el("legend", {}, el("b", {text: `Predict step ${q.step}: `}), q.ask);
  const set = el("fieldset", {}, legend);
  const labels = q.labels || [];
  if (labels.length) {
    labels.forEach((label, i) => set.append(el("label", {class: "rk-q-choice"},
      el("input", {type: "radio", name, value: i, checked: done && a.choice === i,
        disabled: done}), ` ${label}`)));
  } else {
    set.append(el("label", {class: "rk-q-choice"}, "Your answer ",
      el("input", {type: "text", name, class: "rk-q-text", autocomplete: "off", disabled: done,
        value: done ? a.value : null})));
  }
  const hint = el("p", {class: "rk-q-hint"});
  set.append(el("button", {type: "submit", class: "rk-button rk-check", text: "Check",
    disabled: done}), hint);
  const form = el("form", {class: "rk-question", "data-step": q.step}, set);
  if (done) form.append(feedbackOf(q, a));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    let value = "", choice = null;
    if (labels.length) {
      const picked = form.querySelector("input[type=radio]:checked");
      if (picked) { choice = Number(picked.value); value = labels[choice]; }
    } else {
      value = form.querySelector("input[type=text]").value.trim();
    }
    if (!value) {
      hint.textContent = labels.length ? "Choose an answer first." : "Type an answer first.";
      return;
    }
    onCheck(q, {value, choice, right: rightAnswer(q, value, choice)});
  });
  return form;
}

// a frame's board: HTML, or the numbers of its parts in the walkthrough's `board_parts`
// (each distinct card's HTML once per walkthrough: rulekit.display.frames), joined here
function boardOf(data, f) {
  if (!f.board) return "";
  if (typeof f.board === "string") return f.board;
  const parts = data.board_parts || [];
  return f.board.length ? f.board.map((i) => parts[i] || "").join("") : "";
}

function frameOf(data, f, idBase, whole, ctx) {
  const n = data.last;
  const text = el("div", {class: "rk-text"});
  text.append(el("p", {class: "rk-stepno", text: f.label}),
    el("p", {class: "rk-narration", text: f.narration}));
  if (f.pending) {
    text.append(el("p", {class: "rk-pending"}, "This walkthrough is marked ",
      el("code", {text: "pending-engine"}), ": the engine may not do all of it yet."));
  }
  for (const d of f.does || []) {
    text.append(el("p", {class: "rk-does"}, el("b", {text: "What happens:"}), " " + d));
  }
  if (f.refused) {
    text.append(el("div", {class: "rk-refused", role: "note"},
      el("b", {text: "Refused — the game says:"}), ` ${f.refused}.`, el("br"), "Nothing changes."));
  }
  if (f.checks) {
    const c = f.checks;
    if (c.ok) {
      text.append(el("p", {class: "rk-ok", text: `✓ The engine agrees: ${c.count === 1 ? "the" :
        "all"} ${c.count} expectation${c.count === 1 ? "" : "s"} of this step held.`}));
    } else {
      text.append(el("div", {class: "rk-bad"},
        `✗ ${c.failures.length} of ${c.count} expectations did not hold:`,
        el("ul", {}, ...c.failures.map((x) => el("li", {}, el("code", {text: x.description}),
          `: expected ${x.expected}, got ${x.actual}`)))));
    }
  }
  const asked = ctx && f.step > 0 ? ctx.question(f.step) : null; // this step's prediction
  const said = asked ? ctx.answer(f.step) : null;
  if (said) {
    const box = feedbackOf(asked, said);
    box.prepend(el("p", {class: "rk-q-asked"}, el("b", {text: "Your prediction: "}), asked.ask));
    text.append(box);
  }
  if (f.question && ctx) {
    text.append(questionOf(f.question, ctx.answer(f.question.step), idBase, ctx.check));
  }
  // the diagram's text description, behind a toggle, and again (hidden) as the diagram's
  // aria-describedby: browsers leave a closed <details> out of the accessibility tree
  const described = `${idBase}-describe-${f.step}`;
  const toggle = html("details", {class: "rk-describe"}, f.describe || "");
  toggle.prepend(el("summary", {text: "Describe this step"}));
  text.append(toggle, html("div", {id: described, hidden: true}, f.describe || ""));
  const board = boardOf(data, f);
  if (board) text.append(html("div", {class: "rk-board-box"}, board));
  const tables = f.tables || [];
  if (tables.length) { // the same board as tables (screen readers, teachers): behind a toggle
    const row = el("div", {class: "rk-row"}, el("div", {}, tableOf(tables[0])),
      el("div", {}, ...tables.slice(1).map(tableOf)));
    text.append(board ? el("details", {class: "rk-tables"},
      el("summary", {text: "The board as a table"}), row) : row);
  }
  if (f.events) {
    const e = f.events;
    const head = el("h4", {class: "rk-inline", text: e.rows.length ?
      `${e.title} (${e.rows.length})` : e.title});
    text.append(e.rows.length ?
      el("details", {open: e.open}, el("summary", {}, head), tableOf({...e, caption: ""})) :
      el("div", {}, el("h4", {text: e.title}), el("p", {class: "rk-empty", text: "No events."})));
  }
  if (f.notes) { // for the teacher (N key or this toggle): never on the projected (Present) view
    text.append(el("details", {class: "rk-notes", open: !!(ctx && ctx.notes())},
      el("summary", {text: "Notes (for the teacher)"}), el("p", {text: f.notes})));
  }
  const frame = el("div", {class: "rk-frame", "data-step": f.step, role: "group",
    "aria-label": `${data.title}: step ${f.step} of ${n}`}, text);
  const figure = figureOf(data, f, described, whole);
  if (figure) frame.append(figure);
  return frame;
}

function newBox(pane) { // the union of the step's new elements' boxes (client px), or null
  let box = null;
  for (const e of pane.querySelectorAll(".rk-new")) {
    const r = e.getBoundingClientRect();
    if (!r.width && !r.height) continue;
    box = box ? {left: Math.min(box.left, r.left), top: Math.min(box.top, r.top),
      right: Math.max(box.right, r.right), bottom: Math.max(box.bottom, r.bottom)} :
      {left: r.left, top: r.top, right: r.right, bottom: r.bottom};
  }
  return box;
}

// Zoom to fit (issue 28): the drawing is scaled so the step's new part fills the pane, never
// so small that its text is under 16 CSS px (18 while presenting), nor over 1.25x (2x while
// presenting); when even that leaves it larger than the pane, the frame gives the diagram
// more of its width (`rk-wide`: 72 % in the page while the narration still shows whole,
// three quarters in a walkthrough 1,100 px wide or narrower, and four fifths there
// (`rk-wider`) when three quarters are not enough; on Present's slide three
// quarters while its words fit their column, at their size or at the narration's least,
// 32 px). `real` (the 1:1 toggle): the drawing at 1:1.
const FLOOR_PX = 16, PRESENT_FLOOR_PX = 18, PAD = 12;
// the least size of a slide's narration (issue 28: 32 CSS px at 1280x720; its own size is
// 2.6 % of the window's width, 33.3 px there)
const PRESENT_WORDS_PX = 32;
// a walkthrough this wide or narrower has its columns half and half (stepper.css's container
// query), and its legend and diagram tools under the narration
const NARROW_PX = 1100;
const isNarrow = (stepper) => stepper.clientWidth <= NARROW_PX;
// a narrow walkthrough in the page (not on Present's slide) with its frame in two columns
const narrowColumns = (stepper, frame) => !stepper.classList.contains("rk-presenting") &&
  isNarrow(stepper) && getComputedStyle(frame).display === "grid";

// A narrow walkthrough (JupyterLab beside its file browser) has its control row at the head
// of the words' column, as wide as it (`rk-side`, stepper.css), not above both columns: the
// diagram's pane then has the walkthrough's whole height (a row above it took 52 px from a
// 590 px pane). Called whenever the frame's columns may have changed (a step, a resize,
// `trySvg`'s wider columns): the row's width follows the words' column, their top its height.
function placeControls(root) {
  if (!root) return;
  const frame = root.querySelector(":scope > .rk-frames > .rk-frame");
  const text = frame && frame.querySelector(":scope > .rk-text");
  const controls = root.querySelector(":scope > .rk-controls");
  const side = !!(text && controls) && narrowColumns(root, frame);
  root.classList.toggle("rk-side", side);
  if (!side) return;
  root.style.setProperty("--rk-words", `${text.getBoundingClientRect().width}px`);
  root.style.setProperty("--rk-controls-h", `${controls.getBoundingClientRect().height}px`);
}

// whether the step's narration shows whole in its text column (which scrolls on its own)
function narrationFits(frame) {
  const text = frame.querySelector(":scope > .rk-text");
  const words = text && text.querySelector(".rk-narration");
  if (!words) return true;
  const t = text.getBoundingClientRect(), w = words.getBoundingClientRect();
  return w.top >= t.top - 1 && w.bottom <= t.bottom + 1;
}

// what a slide's words' column leaves out, in this order, when there is no room for it: the
// legend under the words, then the walkthrough's name at their head ("Step k / n" stays)
function spareLines(text) {
  return [text.querySelector(":scope > .rk-legend-box"),
    text.querySelector(":scope > .rk-title .rk-title-text")].filter(Boolean);
}

// Present: whether the slide's words still fit their column, with the frame's classes as
// they are now (left out: what goes when there is no room, `spareLines`): at their own
// size (true), only at the narration's least size (`"least"`), or not (false); never beside
// long words, which have half the slide (`rk-long`)
function slideFits(frame) {
  if (frame.classList.contains("rk-long")) return false;
  const text = frame.querySelector(":scope > .rk-text");
  if (!text) return true;
  const spare = spareLines(text), was = spare.map((e) => e.hidden);
  for (const e of spare) e.hidden = true;
  const narr = text.querySelector(":scope > .rk-narration");
  const size = narr ? narr.style.fontSize : "";
  const fit = () => text.scrollHeight <= text.clientHeight + 1;
  if (narr) narr.style.fontSize = "";
  let fits = fit();
  if (!fits && narr) {
    narr.style.fontSize = `${PRESENT_WORDS_PX}px`;
    fits = fit() ? "least" : false;
  }
  if (narr) narr.style.fontSize = size;
  spare.forEach((e, i) => { e.hidden = was[i]; });
  return fits;
}

function fitScale(root, real) {
  const frame = root.querySelector(".rk-frame");
  const pane = frame && frame.querySelector(".rk-diagram");
  let svg = pane && pane.querySelector(":scope > svg");
  if (!svg) return;
  const presenting = root.classList.contains("rk-presenting");
  const grid = getComputedStyle(frame).display === "grid";
  // each shape of the step view in turn (the default first): the one that shows the most of
  // the step's new part wins, then the one that shows it largest; the default stays while it
  // fits at the floor
  const names = pane.rkShapes ? Object.keys(pane.rkShapes) : [null];
  let best = null;
  for (const name of real ? [svg.dataset.rkShape ?? null] : names) {
    if (name !== null) svg = useShape(pane, name);
    const got = trySvg(frame, pane, svg, presenting, grid, real);
    if (!got) continue;
    if (!best || got.share > best.share + 0.005 ||
        (got.share > best.share - 0.005 && got.use > best.use + 0.005)) best = {...got, name};
    if (got.scale >= got.floor - 0.001 && name === names[0]) break;
  }
  if (!best) return;
  if (best.name !== null) svg = useShape(pane, best.name);
  frame.classList.toggle("rk-wide", best.wide);
  frame.classList.toggle("rk-wider", Boolean(best.wider));
  placeControls(root);
  const narr = presenting && !frame.classList.contains("rk-long") &&
    frame.querySelector(":scope > .rk-text > .rk-narration");
  if (narr) narr.style.fontSize = best.least ? `${PRESENT_WORDS_PX}px` : "";
  if (presenting && best.wide) { // the words' column is narrower: what has no room goes
    const text = frame.querySelector(":scope > .rk-text");
    for (const e of text ? spareLines(text) : []) {
      if (text.scrollHeight > text.clientHeight + 1) e.hidden = true;
    }
  }
  svg.style.width = `${best.w0 * best.use}px`;
  svg.style.height = `${best.h0 * best.use}px`;
}

// one drawing in the pane: the scale that fits its new part (`scale`, uncapped), whether the
// frame gives the diagram more room for it (`wide`), the scale to draw it at (`use`) and the
// share of the new part the pane then shows (`share`: 1 when it fits)
function trySvg(frame, pane, svg, presenting, grid, real) {
  const w0 = parseFloat(svg.getAttribute("width")), h0 = parseFloat(svg.getAttribute("height"));
  if (!(w0 > 0 && h0 > 0)) return null;
  let small = 0; // the smallest text of the new part, in drawing units (1 unit = 1 px at 1:1)
  for (const t of pane.querySelectorAll(".rk-new text")) {
    const size = parseFloat(t.getAttribute("font-size"));
    if (size > 0 && t.textContent.trim() && (!small || size < small)) small = size;
  }
  const floor = (presenting ? PRESENT_FLOOR_PX : FLOOR_PX) / (small || FLOOR_PX);
  const cap = Math.max(floor, presenting ? 2 : 1.25);
  const apply = (s) => {
    svg.style.width = `${w0 * s}px`;
    svg.style.height = `${h0 * s}px`;
  };
  const root = frame.closest(".rk-stepper");
  const cols = (wide, wider) => { // the frame's columns, the control row over its words
    frame.classList.toggle("rk-wide", wide);
    frame.classList.toggle("rk-wider", wider);
    placeControls(root);
  };
  cols(false, false);
  if (real) return {scale: 1, floor, wide: false, use: 1, share: 1, w0, h0};
  let share = 1;
  const best = () => { // the scale that fits the new part in the pane as it is now
    const r = svg.getBoundingClientRect(), box = newBox(pane);
    if (!box || !r.width) return cap;
    const now = r.width / w0;
    const bw = (box.right - box.left) / now, bh = (box.bottom - box.top) / now;
    const pw = pane.clientWidth - 2 * PAD, ph = pane.clientHeight - 2 * PAD;
    share = Math.min(1, pw / (bw * floor)) * Math.min(1, ph / (bh * floor)); // at the floor
    return Math.min(pw / bw, ph / bh);
  };
  apply(floor);
  let s = best(), wide = false, wider = false, least = false;
  if (s < floor && grid) {
    cols(true, false); // more room for the diagram, the text column narrower
    // (on Present's slide: a quarter of it, when the words fit there, at their least size)
    const fits = presenting ? slideFits(frame) : narrationFits(frame);
    if (fits) {
      s = best();
      wide = true;
      least = fits === "least";
      // a narrow walkthrough (JupyterLab beside its file browser): four fifths, when three
      // quarters show under 95 % of the step, four fifths show more of it (a step too tall
      // for the pane keeps its words' column) and the narration still shows whole in the
      // last fifth
      if (share < 0.95 && !presenting && isNarrow(root)) {
        const was = {s, share};
        cols(true, true);
        if (narrationFits(frame)) {
          s = best();
          wider = share > was.share + 0.005;
          if (!wider) ({s, share} = was);
        }
      }
    }
    cols(false, false); // (not at the cost of the step's own words)
  }
  return {scale: s, floor, wide, wider, least, use: Math.max(floor, Math.min(cap, s)), share,
    w0, h0};
}

// the diagram pane scrolls to what the step added: centred, or its top-left when larger;
// the margin around it (`PAD`) shrinks, to nothing, where it would hide part of it
function showNew(root, real) {
  fitScale(root, real);
  const pane = root.querySelector(".rk-frame .rk-diagram");
  if (!pane) return;
  const asked = root.querySelector(".rk-frame .rk-why");
  const box_ = asked && pane.querySelector(`.rkbox-${CSS.escape(asked.dataset.box)}`);
  if (box_) { // a "why" is open: its box stays in view
    box_.scrollIntoView({block: "nearest", inline: "nearest"});
    return;
  }
  const box = newBox(pane);
  if (!box) return;
  const r = pane.getBoundingClientRect(); // the pane's inside (its scroll bars left out)
  const p = {left: r.left + pane.clientLeft, top: r.top + pane.clientTop};
  p.right = p.left + pane.clientWidth;
  p.bottom = p.top + pane.clientHeight;
  const w = box.right - box.left, h = box.bottom - box.top;
  const padX = Math.max(0, Math.min(PAD, (pane.clientWidth - w) / 2));
  const padY = Math.max(0, Math.min(PAD, (pane.clientHeight - h) / 2));
  const dy = (h <= pane.clientHeight - 2 * padY) ?
    (box.top + box.bottom - p.top - p.bottom) / 2 : box.top - p.top - padY;
  let dx = 0; // sideways, as little as shows it all (the drawing reads from its left edge)
  if (w > pane.clientWidth - 2 * padX || box.left < p.left) dx = box.left - p.left - padX;
  else if (box.right > p.right - padX) dx = box.right - p.right + padX;
  pane.scrollBy(dx, dy);
}

// The step view in another shape (issue 28: `rulekit.display.flow.STEP_SHAPES`, the frame's
// `view.shapes`): the same boxes, arrows and words laid out narrower or shorter ("brief",
// "stacked": a fan-out's replaced events one box each, for a step no other shape fits).
// The pane shows one at a time; the focus stays on the same box (where the shape draws it).
function useShape(pane, name) {
  const now = pane.querySelector(":scope > svg");
  const shapes = pane.rkShapes;
  if (!now || !shapes || now.dataset.rkShape === name || !(name in shapes)) return now;
  let svg = shapes[name];
  if (typeof svg === "string") {
    const t = document.createElement("template");
    t.innerHTML = svg;
    svg = t.content.querySelector("svg");
    if (!svg) return now;
    svg.dataset.rkShape = name;
    for (const a of ["aria-describedby", "aria-label"]) {
      if (now.hasAttribute(a)) svg.setAttribute(a, now.getAttribute(a));
    }
    askable(svg, pane.rkWhy);
    shapes[name] = svg;
  }
  // the box that has the focus, else the one Tab reaches, is the same box in the new shape
  const focused = now.contains(document.activeElement) && boxName(document.activeElement);
  const stop = now.querySelector(".rk-box[tabindex='0']");
  const keep = focused || (stop && boxName(stop));
  const same = keep && svg.querySelector(`.rkbox-${CSS.escape(keep)}`);
  if (same) for (const b of svg.querySelectorAll(".rk-box")) {
    b.setAttribute("tabindex", b === same ? "0" : "-1");
  }
  now.replaceWith(svg);
  if (focused && same) same.focus({preventScroll: true});
  if (pane.rkLegends) { // the legend of the shapes this one draws
    const words = pane.rkLegends[name] ?? pane.rkLegends[""];
    if (pane.rkLegendBox.dataset.rkShape !== name) {
      pane.rkLegendBox.innerHTML = words; // (the kit's own markup: `legend_strip`)
      pane.rkLegendBox.dataset.rkShape = name;
    }
  }
  return svg;
}

// the walkthroughs drawn in this document, in any host (one module per widget in a kernel
// host, so the list is global): Present's end card goes on to the next one
const shownSteppers = () => {
  const rk = (globalThis.rulekit = globalThis.rulekit || {});
  rk.steppers = rk.steppers || new Set();
  return rk.steppers;
};
// Full screen, one element at a time. Leaving it is asynchronous: a request made before an
// exit has finished (Escape, then Present on the next walkthrough at once) is undone by that
// exit, so a request waits for the exit (the reader's key press or click still counts for it).
const leaveFullScreen = (el) => {
  if (document.fullscreenElement !== el) return;
  const rk = (globalThis.rulekit = globalThis.rulekit || {});
  const leaving = document.exitFullscreen().catch(() => {}).then(() => {
    if (rk.leaving === leaving) rk.leaving = null;
  });
  rk.leaving = leaving;
};
const enterFullScreen = (el, still) => { // still(): whether it is still wanted
  const ask = () => {
    if (still() && el.requestFullscreen && document.fullscreenElement !== el) {
      el.requestFullscreen().catch(() => { /* the fixed layout does it */ });
    }
  };
  const leaving = (globalThis.rulekit || {}).leaving;
  if (leaving) leaving.then(ask); else ask();
};
const HINT = "→ / Space / PgDn: next · ← / PgUp: back · Home / End · Esc: back to the page";
const ADDRESS = /^#([a-z0-9][a-z0-9-]*)(?:\/(\d+))?$/; // #<walkthrough>/<step>

function render({model, el: host}) {
  const frames = model.get("frames") || [];
  const last = Math.max(0, frames.length - 1);
  const data = {title: model.get("title") || "", uid: model.get("uid") || "",
    svg: model.get("svg") || "", board_parts: model.get("board_parts") || [], last, frames,
    legends: model.get("legends") || []};
  renders += 1;
  const idBase = renders === 1 ? (data.uid || "rk-walkthrough") :
    `${data.uid || "rk-walkthrough"}-v${renders}`;
  const title = data.title;
  // an exported page (host.js sets `rk_page`) has the step in its address; a kernel host's
  // address is the notebook's, so there the link is to the exported page (`link_base`)
  const inPage = model.rk_page === true;
  const view = host.closest && host.closest(".rk-view[id]");
  const slug = (view && view.id) || model.get("slug") ||
    (data.uid || "walkthrough").replace(/^rk-/, "");
  const about = model.get("about") || "";
  let step = Math.max(0, Math.min(last, model.get("step") || 0));
  const asked = inPage ? ADDRESS.exec(location.hash) : null;
  const linked = !!(asked && asked[1] === slug);
  if (linked && asked[2] !== undefined) step = Math.max(0, Math.min(last, Number(asked[2])));
  let timer = null, shown = -1, announced = false, whole = false, notesOpen = false, say = "";
  let ending = false; // Present's end card, after the last step
  let real = false; // the diagram at 1:1 (the "1:1" toggle), else zoomed to fit the step
  // answers to the questions: this session's, else the page's localStorage (by page,
  // walkthrough and step; nothing is sent anywhere); Present never shows a stored answer
  const answers = new Map();
  const storeKey = (k) => `rulekit:answer:${location.pathname}:${data.uid || title}:${k}`;
  const ctx = {
    question: (k) => (k > 0 && frames[k - 1] && frames[k - 1].question) || null,
    answer: (k) => {
      if (!answers.has(k)) {
        try {
          const kept = JSON.parse(window.localStorage.getItem(storeKey(k)) || "null");
          if (kept && typeof kept.value === "string") answers.set(k, {...kept, fresh: false});
        } catch (e) { /* no storage (private mode, file:// policy): this session only */ }
      }
      const a = answers.get(k) || null;
      return a && !a.fresh && root.classList.contains("rk-presenting") ? null : a;
    },
    check: (q, a) => {
      answers.set(q.step, {...a, fresh: true});
      try {
        window.localStorage.setItem(storeKey(q.step), JSON.stringify(
          {value: a.value, choice: a.choice, right: a.right}));
      } catch (e) { /* kept for this session only */ }
      say = feedbackWords(q, a) + " ";
      announced = true;
      if (q.step === step) draw(true); else go(q.step);
      root.focus();
    },
    notes: () => notesOpen,
  };
  const handled = new WeakSet(); // a key event is handled once (root and document listeners)
  const cleanups = [];
  const on = (target, type, fn, opts) => {
    target.addEventListener(type, fn, opts);
    cleanups.push(() => target.removeEventListener(type, fn, opts));
  };

  // (data-lm-suppress-shortcuts: JupyterLab and Notebook 7 leave keys pressed in here to
  // the walkthrough, instead of reading them as notebook commands)
  const root = el("div", {class: "rk-stepper rk-widget", tabindex: -1, role: "region",
    "aria-label": `Walkthrough: ${title}`, "data-lm-suppress-shortcuts": "true",
    "data-rk-slug": slug});
  const button = (cls, text, tip) => el("button", {type: "button", class: `rk-button ${cls}`,
    title: tip, text});
  const play = button("rk-play", "Play", "Play the steps one after another (press again to pause)");
  play.setAttribute("aria-pressed", "false");
  const back = el("button", {type: "button", class: "rk-button rk-back",
    title: "The step before (Left arrow)"}, el("span", {"aria-hidden": "true", text: "◀ "}),
  "Back");
  const next = el("button", {type: "button", class: "rk-button rk-next",
    title: "The next step (Right arrow or Space)"}, "Next",
  el("span", {"aria-hidden": "true", text: " ▶"}));
  const status = el("span", {class: "rk-status", "aria-hidden": "true"});
  const slider = el("input", {type: "range", class: "rk-slider", min: 0, max: last, step: 1,
    value: step, "aria-label": "Step"});
  const jumps = el("div", {class: "rk-steps", role: "group", "aria-label": "Jump to step"},
    el("span", {class: "rk-sr-only", text: "Jump to"}),
    ...frames.map((f, k) => el("button", {type: "button", class: "rk-button rk-step",
      "data-step": k, "aria-pressed": "false",
      "aria-label": k === 0 ? "Set-up" : `Step ${k}`,
      title: k === 0 ? "The board before anything happens" : `Step ${k}: ${f.narration}`,
      text: k === 0 ? "Set-up" : String(k)})));
  const speed = el("select", {class: "rk-speed", "aria-label": "Seconds a step when playing"},
    ...SPEEDS.map(([ms, text]) => el("option", {value: ms, text, selected: ms === 4000})));
  const present = button("rk-present", "Present", "Full screen, like slides; then Right or " +
    "Space: next step, Left: back, Home: set-up, End: last step, Escape: back to the page");
  present.setAttribute("aria-pressed", "false");
  // "Copy a link to this step": the page's own address, or (kernel host) the exported page's
  const copy = button("rk-copy-link", "Copy a link to this step",
    "A link that opens this walkthrough at this step");
  const linkBox = el("input", {type: "text", class: "rk-link", readonly: true,
    "aria-label": "Link to this step", hidden: true});
  const linkSaid = el("span", {class: "rk-link-said", role: "status"});
  const more = el("details", {class: "rk-more"}, el("summary", {class: "rk-button",
    text: "More"}), el("div", {class: "rk-more-box"},
    el("label", {class: "rk-label"}, "Step ", slider),
    el("label", {class: "rk-label"}, "Speed ", speed),
    el("span", {class: "rk-label"}, copy), linkBox, linkSaid));
  const controls = el("div", {class: "rk-controls", role: "group",
    "aria-label": "Walkthrough controls"}, back, status, next, jumps,
  el("span", {class: "rk-controls-end"}, play, present, more));
  const box = el("div", {class: "rk-frames"});
  const live = el("div", {class: "rk-announce rk-sr-only", role: "status", "aria-live": "polite",
    "aria-atomic": "true"});
  // the walkthrough's name: the page's heading names it in the page view (one heading per
  // walkthrough), so this line shows only on Present's slide
  const titleLine = el("p", {class: "rk-title-text", text: `Walkthrough: ${title}`});
  const titleBox = el("div", {class: "rk-title"}, titleLine);
  const hint = el("p", {class: "rk-hint", "aria-hidden": "true", text: HINT});
  root.append(titleBox, controls, box, live);

  function stepLink(k) {
    if (inPage) return `${location.href.split("#")[0]}#${slug}/${k}`;
    let base = model.get("link_base") || "";
    if (!base) { // the notebook's stem from its own address (JupyterLab, Notebook 7)
      const m = /([^/]+)\.ipynb$/.exec(decodeURIComponent(location.pathname));
      base = m ? `${encodeURIComponent(m[1])}.html` : "";
    }
    return `${base}#${slug}/${k}`;
  }
  function address() { // the page's address follows the step (no new history entry)
    if (!inPage) return;
    try { history.replaceState(history.state, "", `#${slug}/${step}`); } catch (e) { /* */ }
  }
  function nextStepper() { // the next walkthrough in the document, if one is drawn
    const after = Array.from(shownSteppers()).filter((s) => s.root !== root &&
      s.root.isConnected &&
      (root.compareDocumentPosition(s.root) & Node.DOCUMENT_POSITION_FOLLOWING));
    after.sort((a, b) => (a.root.compareDocumentPosition(b.root) &
      Node.DOCUMENT_POSITION_FOLLOWING) ? -1 : 1);
    return after[0] || null;
  }
  function endCard() {
    const then = nextStepper();
    const card = el("div", {class: "rk-endcard", role: "group",
      "aria-label": `End of ${title}`},
    el("p", {class: "rk-end-title", text: `End of ${title}`}),
    about ? el("p", {class: "rk-end-about"}, el("b", {text: "It showed: "}), about) : null,
    el("p", {class: "rk-end-next"}, then ? el("b", {text: "Next: "}) : null,
      then ? then.title : "This was the last walkthrough on this page."),
    el("p", {class: "rk-end-keys", text: then ? "→: the next walkthrough · ←: back to the " +
      "last step · Esc: back to the page" : "←: back to the last step · Esc: back to the page"}));
    return {card, then};
  }
  function fitSlide() { // Present: a long text (the set-up's) gets a wider column, then
    // smaller type until it fits its pane (a short narration keeps its large size)
    if (!root.classList.contains("rk-presenting")) return;
    const narr = box.querySelector(".rk-narration");
    const text = narr && narr.closest(".rk-text");
    if (!text) return;
    narr.style.fontSize = "";
    // the legend (moved under the words) takes what room is left: it never makes the words
    // smaller or the diagram narrower, and goes when there is none
    const legend = text.querySelector(":scope > .rk-legend-box");
    if (legend) legend.hidden = true;
    const over = () => text.scrollHeight > text.clientHeight + 1;
    // the walkthrough's name goes before the words take half the slide (a third, then half;
    // with the name, then without)
    for (const [long, noName] of [[false, false], [false, true], [true, false], [true, true]]) {
      text.parentElement.classList.toggle("rk-long", long); // half the width, not a third
      titleLine.hidden = noName;
      if (!over()) break;
    }
    let px = parseFloat(getComputedStyle(narr).fontSize);
    while (over() && px > 20) {
      px -= 2;
      narr.style.fontSize = `${px}px`;
    }
    if (legend) {
      legend.hidden = false;
      if (over()) legend.hidden = true;
    }
  }
  // The legend's place: above the diagram's pane; on Present's slide at the foot of the
  // words, and in a narrow walkthrough (JupyterLab beside its file browser: the frame's
  // columns half and half) under the narration, the diagram's tools ("The whole story",
  // 1:1) under it, so the pane has the figure's whole height.
  function placeLegend() {
    const legend = box.querySelector(".rk-legend-box");
    const text = box.querySelector(".rk-frame > .rk-text");
    const head = box.querySelector(".rk-figure-head");
    if (!legend || !text || !head) return;
    const narration = text.querySelector(":scope > .rk-narration");
    const tools = box.querySelector(".rk-figure-tools");
    const presenting = root.classList.contains("rk-presenting");
    const narrow = narration && narrowColumns(root, text.parentElement);
    if (tools && !narrow && tools.parentElement !== head) { // back in the figure's head
      if (legend.parentElement === head) legend.before(tools);
      else head.append(tools);
    }
    if (presenting) {
      if (legend.parentElement !== text || legend.nextElementSibling) text.append(legend);
    } else if (narrow) {
      if (legend.previousElementSibling !== narration) narration.after(legend);
      if (tools && legend.nextElementSibling !== tools) legend.after(tools);
    } else if (legend.parentElement === text) { // back above the pane, after the tools
      if (tools) tools.after(legend);
      else head.after(legend);
    }
  }
  // Present's slide head: "Step k / n" and the walkthrough's name head the words' column,
  // so the diagram's column has the slide's whole height (not a row of the slide's own); on
  // the end card and in the page, "Step k / n" is back in the control row (the name shows
  // only on the slide)
  function placeHead() {
    const text = box.querySelector(".rk-frame > .rk-text");
    if (root.classList.contains("rk-presenting") && text) {
      if (text.firstElementChild !== titleBox) text.prepend(titleBox);
      if (titleBox.firstElementChild !== status) titleBox.prepend(status);
    } else {
      titleLine.hidden = false; // (the end card's head: the name, whatever the slide left out)
      if (root.firstElementChild !== titleBox) root.prepend(titleBox);
      if (status.parentElement !== controls) back.after(status);
    }
  }
  function draw(again) { // again: the same step drawn anew (a toggle, Present)
    if ((shown === step && !again) || !frames.length) return;
    const moved = shown !== step;
    shown = step;
    box.replaceChildren(frameOf(data, frames[step], idBase, whole, ctx));
    placeHead();
    placeLegend();
    placeControls(root);
    fitSlide();
    const figure = box.querySelector(".rk-figure");
    if (figure && figure.rkWhy) {
      wireBoxes(figure, figure.rkWhy, idBase, (words) => { live.textContent = words; });
    }
    const zoom = box.querySelector(".rk-zoom");
    if (zoom) zoom.setAttribute("aria-pressed", real ? "true" : "false");
    status.textContent = `Step ${step} / ${last}`;
    slider.value = String(step);
    back.disabled = step === 0;
    next.disabled = step === last;
    for (const b of jumps.querySelectorAll("button")) {
      b.setAttribute("aria-pressed", b.dataset.step === String(step) ? "true" : "false");
    }
    if (announced && moved) live.textContent = say + (frames[step].announce || "");
    say = "";
    announced = true; // not on first render: only on a change
    requestAnimationFrame(() => showNew(root, real));
  }
  function showEnd() {
    ending = true;
    const {card, then} = endCard();
    box.replaceChildren(card);
    placeHead();
    status.textContent = "End";
    live.textContent = `End of ${title}. ` + (then ? `Next: ${then.title}. Right arrow: the ` +
      "next walkthrough." : "This was the last walkthrough on this page.") +
      " Escape: back to the page.";
  }
  function leaveEnd() {
    if (!ending) return;
    ending = false;
    draw(true);
  }
  function go(k) {
    const to = Math.max(0, Math.min(last, k));
    if (ending) leaveEnd();
    if (to === step) return;
    step = to;
    draw();
    address();
    model.set("step", step);
    model.save_changes();
  }
  function stopPlaying() {
    if (timer !== null) clearInterval(timer);
    timer = null;
    play.textContent = "Play";
    play.setAttribute("aria-pressed", "false");
  }
  function startPlaying() {
    if (step === last) go(0);
    play.textContent = "Pause";
    play.setAttribute("aria-pressed", "true");
    timer = setInterval(() => {
      if (step >= last) stopPlaying();
      else go(step + 1);
    }, Number(speed.value) || 4000);
  }
  function reveal() { // the walkthrough in view at the top, its controls focused
    root.scrollIntoView({block: "start", behavior: "instant"}); // never animated
    (next.disabled ? back : next).focus({preventScroll: true});
  }
  function presenting(want, quiet) { // quiet: leaving for the next walkthrough
    const was = root.classList.contains("rk-presenting");
    root.classList.toggle("rk-presenting", want);
    takeKeys(want);
    present.setAttribute("aria-pressed", want ? "true" : "false");
    if (ending) ending = false;
    draw(true); // stored answers and notes: not on the projected view
    if (want) {
      stopPlaying();
      hint.remove();
      controls.after(hint); // a new element: its fade starts again
      enterFullScreen(root, () => root.classList.contains("rk-presenting"));
      root.focus();
      address();
    } else {
      hint.remove();
      leaveFullScreen(root);
      if (was && !quiet) { // back in the page, at this step: once leaving full screen has
        // put back the page's own scroll position too
        requestAnimationFrame(reveal);
        setTimeout(() => {
          const r = root.getBoundingClientRect();
          if (r.top < -2 || r.top > window.innerHeight / 3) reveal();
        }, 300);
      }
    }
    requestAnimationFrame(() => showNew(root, real));
  }
  function onward() { // from the end card to the next walkthrough, presenting there (its
    // full-screen request waits for this one's exit: enterFullScreen)
    const then = nextStepper();
    if (!then) return;
    presenting(false, true);
    then.enter();
  }
  const me = {root, title, enter: () => { go(0); presenting(true); }};
  shownSteppers().add(me);
  cleanups.push(() => shownSteppers().delete(me));

  on(play, "click", () => (timer === null ? startPlaying() : stopPlaying()));
  on(back, "click", () => go(step - 1));
  on(next, "click", () => go(step + 1));
  on(slider, "input", () => go(Number(slider.value)));
  on(jumps, "click", (ev) => {
    const b = ev.target.closest("button[data-step]");
    if (b) go(Number(b.dataset.step));
  });
  on(copy, "click", () => {
    const link = stepLink(step);
    linkBox.value = link;
    linkBox.hidden = false;
    linkBox.select();
    const done = (ok) => {
      linkSaid.textContent = ok ? "Copied." : "Select the link and copy it (Ctrl+C).";
    };
    try {
      navigator.clipboard.writeText(link).then(() => done(true), () => done(false));
    } catch (e) { done(false); }
  });
  on(box, "click", (ev) => { // the 1:1 toggle: kept from step to step
    const zoom = ev.target.closest(".rk-zoom");
    if (!zoom) return;
    real = !real;
    zoom.setAttribute("aria-pressed", real ? "true" : "false");
    showNew(root, real);
  });
  on(box, "click", (ev) => { // "The whole story" toggle: kept from step to step
    if (!ev.target.closest(".rk-whole")) return;
    whole = !whole;
    draw(true);
    const again = box.querySelector(".rk-whole");
    if (again) again.focus();
  });
  on(box, "toggle", (ev) => { // the notes stay open (or closed) from step to step
    if (ev.target.classList && ev.target.classList.contains("rk-notes")) notesOpen = ev.target.open;
  }, true);
  on(speed, "change", () => { if (timer !== null) { stopPlaying(); startPlaying(); } });
  on(more, "keydown", (ev) => { // Escape closes More, back on its button
    if (ev.key !== "Escape" || !more.open) return;
    more.open = false;
    more.querySelector("summary").focus();
    ev.preventDefault();
    ev.stopPropagation();
  });
  on(present, "click", () => presenting(!root.classList.contains("rk-presenting")));
  // leaving full screen (Escape, or the browser's own way) leaves Present, at the same step.
  // Only an exit from this walkthrough's own full screen counts: a change seen before its
  // request was granted (another walkthrough's exit still being delivered) leaves the slide
  let full = false;
  on(root, "fullscreenchange", () => {
    if (document.fullscreenElement === root) {
      full = true;
    } else if (full) {
      full = false;
      if (root.classList.contains("rk-presenting")) presenting(false);
    }
  });
  const onKey = (ev) => {
    // a key typed in a question's radios or text box stays with it: a notebook must not take
    // it too (JupyterLab's Up and Down arrows would move the active cell, not the choice)
    if (ev.currentTarget === root && ev.target && ev.target.closest &&
        ev.target.closest("input, select, textarea")) ev.stopPropagation();
    if (figureKey(ev)) return; // the diagram's boxes and "why" panel take their own keys
    if (ev.altKey || ev.ctrlKey || ev.metaKey || handled.has(ev)) return;
    handled.add(ev);
    const t = ev.target;
    const on_ = root.classList.contains("rk-presenting");
    if (t && t.closest && t.closest("input, select, textarea")) return;
    // not presenting: keys step the walkthrough from its controls or its root only (the text
    // and the diagram pane scroll with them; Space presses a focused button)
    if (!on_ && !(t === root || (t.closest && t.closest(".rk-controls")))) return;
    if (on_ && t && t.closest && t.closest(".rk-stepper") && !root.contains(t)) return;
    if (on_ && t && t.closest && t.closest(".rk-frame button")) return; // Check, The whole story
    if ((ev.key === "n" || ev.key === "N") && !on_) { // the teacher's notes, never presented
      notesOpen = !notesOpen;
      for (const d of box.querySelectorAll(".rk-notes")) {
        d.open = notesOpen;
        if (notesOpen) d.scrollIntoView({block: "nearest"}); // the end of the step's text
      }
      ev.preventDefault();
      return;
    }
    let to = null;
    const forward = ev.key === "ArrowRight" || ev.key === "PageDown" ||
      (ev.key === " " && (on_ || t === root));
    if (on_ && forward && (ending || step === last)) { // the end card, then the next one
      ev.preventDefault();
      ev.stopPropagation();
      if (ending) onward(); else showEnd();
      return;
    }
    if (on_ && ending && (ev.key === "ArrowLeft" || ev.key === "PageUp")) {
      ev.preventDefault();
      ev.stopPropagation();
      leaveEnd();
      return;
    }
    if (forward) to = step + 1;
    else if (ev.key === "ArrowLeft" || ev.key === "PageUp") to = step - 1;
    else if (ev.key === "Home") to = 0;
    else if (ev.key === "End") to = last;
    else if (ev.key === "Escape" && on_) {
      presenting(false);
      ev.preventDefault();
      ev.stopPropagation();
      return;
    }
    if (to === null) return;
    ev.preventDefault();
    ev.stopPropagation();
    go(to);
  };
  on(root, "keydown", onKey);
  // the key hint goes once the focus moves into the slide (Tab to a box, a question): it
  // never covers what has the focus
  on(root, "focusin", (ev) => { if (ev.target !== root) hint.remove(); });
  // while presenting, the keys are the walkthrough's wherever the focus went (a notebook may
  // move it to itself): a listener on the document, only until Present ends
  let keysTaken = false;
  const takeKeys = (want) => {
    if (want === keysTaken) return;
    keysTaken = want;
    if (want) document.addEventListener("keydown", onKey, true);
    else document.removeEventListener("keydown", onKey, true);
  };
  cleanups.push(() => takeKeys(false));
  const fromModel = () => {
    const k = Math.max(0, Math.min(last, model.get("step") || 0));
    if (k !== step) { step = k; draw(); }
  };
  model.on("change:step", fromModel);
  cleanups.push(() => model.off("change:step", fromModel));
  if (inPage) { // a link to a step of this walkthrough, followed in the page
    on(window, "hashchange", () => {
      const m = ADDRESS.exec(location.hash);
      if (!m || m[1] !== slug) return;
      if (m[2] !== undefined) go(Number(m[2]));
      requestAnimationFrame(reveal);
    });
  }
  // a new size (window, JupyterLab's side bar, presentation mode): the pane shows the current
  // step's part again
  if (window.ResizeObserver) {
    let waiting = false;
    const watch = new ResizeObserver(() => {
      if (waiting) return;
      waiting = true;
      requestAnimationFrame(() => {
        waiting = false;
        placeLegend();
        placeControls(root);
        fitSlide();
        showNew(root, real);
      });
    });
    watch.observe(root);
    cleanups.push(() => watch.disconnect());
  }
  host.append(root);
  draw();
  if (linked) { // opened from a link to this walkthrough (a reload, a shared link)
    if (step !== (model.get("step") || 0)) { model.set("step", step); model.save_changes(); }
    // the browser's own scroll restoration (on a reload) must not take the page back up
    try { history.scrollRestoration = "manual"; } catch (e) { /* */ }
    requestAnimationFrame(reveal);
    // and once the page has loaded: the views above it may have grown since
    if (document.readyState !== "complete") on(window, "load", () => requestAnimationFrame(reveal));
  }
  return () => {
    stopPlaying();
    leaveFullScreen(root);
    for (const undo of cleanups.splice(0)) undo();
    root.remove();
  };
}

export default {render};
