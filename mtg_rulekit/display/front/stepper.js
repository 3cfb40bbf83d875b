/* rulekit: a walkthrough (the stepper) as an anywidget front-end module (AFM).

   One ES module, used by every host: JupyterLab and Notebook 7 (anywidget, `Stepper` in
   mtg_rulekit/display/walkthrough/widget.py), and an exported lesson page
   (mtg_rulekit/display/front/host.js). The model's traits (`StepFrames.data()`): `frames` (one
   plain-data frame per step), `svg` (the one drawing "so far" frames are cut from, or ""), `uid`
   (the prefix of its ids), `title`, `step` (the step shown; set here and saved, so the kernel knows
   it), `slug` (its name in a page's address, `#<slug>/<step>`), `about` (Present's end card) and
   `link_base` (a kernel host's link to the exported page). A model with `rk_page` (host.js) is an
   exported page's: its address follows the step (history.replaceState). Stepping needs no kernel.

   The DOM helpers (dom.js), the picture (figure, "why", `fit`: diagram.js) and the questions
   (question.js) are joined before this file into one module. Where things go is stepper.css's
   (a grid, its container query, Present, one column on a phone): nothing here moves an
   element by its size. No document-wide listener outlives `render`'s clean-up; nothing here
   reads another widget's markup; no eval. HTML fields (`describe`, `board`, the SVG) are
   generated and escaped in Python; every other field is set as text. */

const SPEEDS = [[2000, "2 s"], [4000, "4 s"], [8000, "8 s"]];
let renders = 0; // views made by this module in this page: unique ids when a model shows twice

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

// a frame's board: HTML, or the numbers of its parts in the walkthrough's `board_parts`
// (each distinct card's HTML once per walkthrough: mtg_rulekit.display.walkthrough.frames), joined here
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
    if (c.ok) { // for a teacher who asks (the notes shown: N or their toggle), not a student
      text.append(el("p", {class: "rk-ok rk-for-teacher", text: `✓ The engine agrees: ` +
        `${c.count === 1 ? "the" : "all"} ${c.count} expectation${c.count === 1 ? "" : "s"} ` +
        "of this step held."}));
    } else {
      text.append(el("div", {class: "rk-bad"},
        `✗ ${c.failures.length} of ${c.count} expectations did not hold:`,
        el("ul", {}, ...c.failures.map((x) => el("li", {}, el("code", {text: x.description}),
          `: expected ${x.expected}, got ${x.actual}`)))));
    }
  }
  const asked = ctx && f.step > 0 ? ctx.question(f.step) : null; // this step's prediction
  const said = asked ? ctx.answer(f.step) : null;
  if (said) { // the step is on screen: the answer is no secret any more
    const box = feedbackOf(asked, said, true);
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
    // (folded in a one-column walkthrough: a phone's reader comes for the picture)
    const open = e.open && !(ctx && ctx.oneColumn());
    text.append(e.rows.length ?
      el("details", {open}, el("summary", {}, head), tableOf({...e, caption: ""})) :
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
  // a picture that fits half the width leaves the words the other half (stepper.css)
  if (figure && figure.rkHalf) frame.classList.add("rk-half");
  return frame;
}

// the walkthroughs drawn in this document, in any host (one module per widget in a kernel
// host, so the list is global): Present's end card goes on to the next one
const shownSteppers = () => {
  const rk = (globalThis.rulekit = globalThis.rulekit || {});
  rk.steppers = rk.steppers || new Set();
  return rk.steppers;
};
// Full screen, one element at a time, asked of the element's own root (the document, or the
// shadow root a host such as marimo draws it in: there the document's full-screen element is
// the host). Leaving is asynchronous: a request made before an exit has finished (Escape,
// then Present on the next walkthrough at once) is undone by that exit, so a request waits for
// the exit (the reader's key press or click still counts for it).
const isFull = (el) => el.getRootNode().fullscreenElement === el;
const leaveFullScreen = (el) => {
  if (!isFull(el)) return;
  const rk = (globalThis.rulekit = globalThis.rulekit || {});
  const leaving = document.exitFullscreen().catch(() => {}).then(() => {
    if (rk.leaving === leaving) rk.leaving = null;
  });
  rk.leaving = leaving;
};
const enterFullScreen = (el, still) => { // still(): whether it is still wanted
  const ask = () => {
    if (still() && el.requestFullscreen && !isFull(el)) {
      el.requestFullscreen().catch(() => { /* the fixed layout does it */ });
    }
  };
  const leaving = (globalThis.rulekit || {}).leaving;
  if (leaving) leaving.then(ask); else ask();
};
const HINT = "→ / Space / PgDn: next · ← / PgUp: back · Home / End · C: the board · " +
  "B: blank screen · Esc: back to the page";
const ADDRESS = /^#([a-z0-9][a-z0-9-]*)(?:\/(\d+))?$/; // #<walkthrough>/<step>
// one column (stepper.css): the words, then the picture, then the board; the window's part of
// it, for a walkthrough not yet in the document (its layout's own display says it once it is)
const FLOW = "(max-width: 899px), (max-height: 499px)";

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
          {value: a.value, choice: a.choice, right: a.right, tries: a.tries}));
      } catch (e) { /* kept for this session only */ }
      announced = true;
      if (!finalAnswer(a)) { // wrong once: stay on the question, its Try again in reach
        draw(true);
        live.textContent = feedbackWords(q, a);
        const retry = box.querySelector(".rk-retry");
        (retry || root).focus();
        return;
      }
      say = feedbackWords(q, a) + " ";
      if (q.step === step) draw(true); else go(q.step);
      root.focus();
    },
    notes: () => notesOpen,
    oneColumn: () => { // as stepper.css lays it out: no grid (a narrow window or column)
      const layout = root.querySelector(":scope > .rk-layout");
      return layout && layout.isConnected ? getComputedStyle(layout).display !== "grid" :
        !!(window.matchMedia && matchMedia(FLOW).matches);
    },
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
  // (the grid that places them, inside the walkthrough: its width is the container query's)
  root.append(el("div", {class: "rk-layout"}, titleBox, controls, box), live);

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
  function draw(again) { // again: the same step drawn anew (a toggle, Present)
    if ((shown === step && !again) || !frames.length) return;
    const moved = shown !== step;
    shown = step;
    box.replaceChildren(frameOf(data, frames[step], idBase, whole, ctx));
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
    requestAnimationFrame(() => fit(root, real));
  }
  function showEnd() {
    ending = true;
    const {card, then} = endCard();
    box.replaceChildren(card);
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
    if (!want) root.classList.remove("rk-blank", "rk-board-strip");
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
    requestAnimationFrame(() => fit(root, real));
  }
  function onward() { // from the end card to the next walkthrough, presenting there (its
    // full-screen request waits for this one's exit: enterFullScreen)
    const then = nextStepper();
    if (!then) return;
    presenting(false, true);
    then.enter();
  }
  function previousStepper() { // the walkthrough before this one in the document, if drawn
    const before = Array.from(shownSteppers()).filter((s) => s.root !== root &&
      s.root.isConnected &&
      (root.compareDocumentPosition(s.root) & Node.DOCUMENT_POSITION_PRECEDING));
    before.sort((a, b) => (a.root.compareDocumentPosition(b.root) &
      Node.DOCUMENT_POSITION_FOLLOWING) ? -1 : 1);
    return before[before.length - 1] || null;
  }
  function backward() { // Left at the set-up: the walkthrough before, at its last step
    const then = previousStepper();
    if (!then) {
      live.textContent = "This is the first walkthrough on this page.";
      return;
    }
    presenting(false, true);
    then.enter(true);
  }
  function blank(want) { // a black screen while the class talks (B or .; any key ends it)
    if (root.classList.contains("rk-blank") === want) return;
    root.classList.toggle("rk-blank", want);
    live.textContent = want ? "The screen is blank. Press any key to come back." :
      "The slide is back.";
  }
  const me = {root, title, enter: (atEnd) => { go(atEnd ? last : 0); presenting(true); }};
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
    fit(root, real);
  });
  on(box, "click", (ev) => { // "The whole story" toggle: kept from step to step
    if (!ev.target.closest(".rk-whole")) return;
    whole = !whole;
    draw(true);
    const again = box.querySelector(".rk-whole");
    if (again) again.focus();
  });
  const teacher = (open) => { // the notes, and the engine's own checks, for a teacher
    notesOpen = open;
    root.classList.toggle("rk-teacher", open);
  };
  on(box, "toggle", (ev) => { // the notes stay open (or closed) from step to step
    if (ev.target.classList && ev.target.classList.contains("rk-notes")) teacher(ev.target.open);
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
    if (isFull(root)) {
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
      teacher(!notesOpen);
      for (const d of box.querySelectorAll(".rk-notes")) {
        d.open = notesOpen;
        if (notesOpen) d.scrollIntoView({block: "nearest"}); // the end of the step's text
      }
      ev.preventDefault();
      return;
    }
    if (on_ && root.classList.contains("rk-blank") && ev.key !== "Escape") { // any key
      // brings the slide back, and does nothing else
      blank(false);
      ev.preventDefault();
      ev.stopPropagation();
      return;
    }
    if (on_ && (ev.key === "b" || ev.key === "B" || ev.key === ".")) { // a blank screen
      blank(true);
      ev.preventDefault();
      ev.stopPropagation();
      return;
    }
    if (on_ && (ev.key === "c" || ev.key === "C")) { // the board, as a strip under the slide
      const shown = root.classList.toggle("rk-board-strip");
      live.textContent = shown ? "The board is shown. C hides it." : "The board is hidden.";
      ev.preventDefault();
      ev.stopPropagation();
      return;
    }
    let to = null;
    const forward = ev.key === "ArrowRight" || ev.key === "PageDown" ||
      (ev.key === " " && (on_ || t === root));
    if (on_ && step === 0 && !ending && (ev.key === "ArrowLeft" || ev.key === "PageUp")) {
      ev.preventDefault(); // before the set-up: the walkthrough before, at its last step
      ev.stopPropagation();
      backward();
      return;
    }
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
      blank(false);
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
        fit(root, real);
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
