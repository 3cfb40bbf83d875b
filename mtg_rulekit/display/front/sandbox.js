/* rulekit: the sandbox, one anywidget front-end module (AFM) for every host.

   It renders the `state` trait (mtg_rulekit.sandbox.view.sandbox_state: the SandboxModel's fields
   and outcome, the layout of its controls, each card's menu with its verdicts, the time bar,
   the challenges, and the board's tables and diagram as HTML made and escaped in Python) and
   sends what the reader does as custom messages: {click: name, values, seq} for a button,
   {values, seq} when an input that other inputs follow changes, {ask: action, values, seq,
   choose?} for a picker, {load: why} to ask the back-end to get ready ("check" when shown,
   "view", "hover", "focus", "start"). The back-end answers by setting `state` (with the `seq`
   it answers) and `status` ({state: idle|loading|loaded|ready|failed, text, done, total, note,
   problem}):
   - in a kernel (mtg_rulekit.sandbox.widget.Sandbox, an anywidget): SandboxModel.click in
     Python; `status` is always ready;
   - in an exported page (host.js): window.rulekit.backends.sandbox, the engine in Pyodide, in
     a Web Worker.
   Until `status` is ready, the controls look and are inactive (aria-disabled). No framework,
   no dependency, plain ES2020.

   The board (state.board, mtg_rulekit.display.board) is what a reader sees first. Every card is a
   button: a click, Enter or a tap opens its menu, which shows the card large (its full Oracle
   text) and lists state.card_actions[id], each available or shown unavailable (aria-disabled)
   with its reason and rule before any click. An entry that leaves a choice to a picker
   (`choose`: which mana, X, a target or the permanent a cost taps) asks for it: a target is
   chosen on the board (the legal cards and players lit, the others dimmed with their reason;
   Escape cancels), the others from a list. The decisions the click makes on its way (which
   replacement effect first, a trigger's target...) are asked the same way (state.picker).
   Arrow keys move between cards.

   Under the board, the time bar (state.bar): Undo · Pass or Resolve <top of the stack> · Next
   step · Next turn, each labelled by what it will do now and judged before the click; keys Z
   (undo) and Space (pass or resolve) anywhere in the sandbox but a text field or a menu. The
   board stays in view after any of them. Above the board, the challenges (state.practice):
   each starts its own board; solved shows ✓ with the rule that decides it, a wrong try the
   hint; progress is kept per page in localStorage (nothing is sent anywhere).

   "Save as walkthrough" sends {walkthrough: title, seq}; the answer, state.walkthrough, is a
   file the kernel wrote (`file`) or text the page offers as a download. The form's controls
   stay, in a collapsed "All controls" section; free play (a collapsed section) adds cards and
   sets the turn (add_card, set_position, restart). */

const KINDS = ["choice", "multi", "number", "text"];

function make(tag, attrs, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

// HTML made and escaped by the back-end (mtg_rulekit.sandbox.view: words with mana symbols)
function html(tag, attrs, markup, text) {
  const e = make(tag, attrs);
  if (markup) e.innerHTML = markup;
  else if (text !== undefined) e.textContent = text;
  return e;
}

let counter = 0; // ids unique in the page, for labels

const storage = () => {
  try { return globalThis.localStorage || null; } catch { return null; }
};

function render({model, el}) {
  const uid = "rk-sb-" + (++counter);
  // (data-lm-suppress-shortcuts: JupyterLab and Notebook 7 leave keys pressed in here to the
  // sandbox: Z, Space, Enter and the arrows are its own, not the notebook's commands)
  const root = make("div", {"class": "rk-sandbox rk-sb rk-widget", role: "region",
                            "data-lm-suppress-shortcuts": "true"});
  const heading = make("h3", {id: uid + "-title"});
  root.setAttribute("aria-labelledby", uid + "-title");
  const note = make("p", {"class": "rk-live-note"}, "The real rules engine runs behind this " +
    "board. Every click is checked against the rules; an illegal move is refused with its " +
    "rule and changes nothing.");
  const announce = make("div", {"class": "rk-sr-only rk-announce", "aria-live": "polite"});
  // the start bar (an exported page: the engine loads in the page)
  const start = make("div", {"class": "rk-live-start"});
  const startButton = make("button", {type: "button", "class": "rk-live-button rk-primary",
                                      "aria-describedby": uid + "-start-note"},
                           "Start the live sandbox");
  const startNote = make("span", {"class": "rk-live-note", id: uid + "-start-note"});
  const bar = make("progress", {max: "1", value: "0", hidden: ""});
  const progressText = make("span", {"class": "rk-live-status", "aria-live": "polite"});
  const problem = make("div", {"class": "rk-live-problem", role: "alert", hidden: ""});
  start.append(startButton, startNote, bar, progressText, problem);
  const ui = make("div", {"class": "rk-live-ui"});
  const groups = make("div", {"class": "rk-live-groups"});
  const practice = make("section", {"class": "rk-challenges", hidden: "",
                                    "aria-labelledby": uid + "-ch-title"});
  const message = make("div", {"class": "rk-message", "aria-live": "polite"});
  const home = make("div", {"class": "rk-message-home"}); // the message's place by the board
  // the challenge being tried, by the message: solved (with its rule) or the hint, where the
  // eye is after a click
  const now = make("div", {"class": "rk-ch-now", hidden: "", "aria-live": "polite"});
  const board = make("div", {"class": "rk-board-box", hidden: "", tabindex: "-1"});
  const boardWrap = make("div", {"class": "rk-board-wrap"});
  const choosing = make("div", {"class": "rk-choosing-bar", hidden: "", role: "group",
                                "aria-labelledby": uid + "-choose"});
  const menu = make("div", {"class": "rk-actions", role: "menu", hidden: "", tabindex: "-1"});
  boardWrap.append(choosing, board, menu);
  const timeBar = make("div", {"class": "rk-time-bar", role: "toolbar",
                               "aria-label": "Time: undo, pass or resolve, next step, next turn"});
  const tools = make("div", {"class": "rk-tools"});
  const saveButton = make("button", {type: "button", "class": "rk-live-button rk-save",
                                     title: "The clicks so far as a walkthrough (scenario " +
                                       "TOML) that `python -m mtg_rulekit run` plays"},
                          "Save as walkthrough");
  const saved = make("span", {"class": "rk-saved", role: "status"});
  tools.append(saveButton, saved);
  const all = make("details", {"class": "rk-all-controls"});
  all.appendChild(make("summary", {}, "All controls"));
  all.appendChild(groups);
  const free = make("details", {"class": "rk-free-play"});
  free.appendChild(make("summary", {}, "Free play: add a card, set the turn"));
  const freeBox = make("div", {"class": "rk-free-box"});
  free.appendChild(freeBox);
  const tables = make("div", {"class": "rk-frame rk-live-tables rk-tables", tabindex: "0",
                              role: "group", "aria-label": "Board, players and stack"});
  const diagramBox = make("div", {"class": "rk-frame rk-live-diagram"});
  home.append(now, message);
  // the bar and the message under the board: the board a reader is looking at never moves
  ui.append(practice, boardWrap, timeBar, home, tools, free, all, tables, diagramBox);
  root.append(heading, note, start, ui, announce);
  el.appendChild(root);

  const inputs = {};
  const buttons = {};
  let built = "";     // the layout the controls were built for
  let seq = 0;        // the last message sent
  let pending = null; // {name, t0, seq} of the click waiting for its answer
  let asked = false;  // the reader pressed Start: announce and move focus when ready
  let active = false;
  let done = 0;

  const send = (content) => model.send(content);
  const say = (text) => { announce.textContent = ""; announce.textContent = text; };
  const state = () => model.get("state") || {};

  // ------------------------------------------------------------ the inputs
  function values() {
    const out = {};
    for (const [name, input] of Object.entries(inputs)) {
      const kind = input.dataset.kind;
      if (kind === "choice") {
        out[name] = input.value === "" ? null : JSON.parse(input.value);
      } else if (kind === "multi") {
        out[name] = Array.from(input.options).filter((o) => o.selected)
          .map((o) => JSON.parse(o.value));
      } else if (kind === "number") {
        out[name] = parseInt(input.value, 10) || 0;
      } else {
        out[name] = input.value;
      }
    }
    return out;
  }

  function field(f) {
    const id = uid + "-" + f.name;
    const wrap = make("div", {"class": "rk-live-field"});
    wrap.appendChild(make("label", {"for": id, title: f.help}, f.label));
    let input;
    if (f.kind === "choice") {
      input = make("select", {id});
    } else if (f.kind === "multi") {
      input = make("select", {id, multiple: "", size: f.name === "to_destroy" ? "5" : "4"});
    } else if (f.kind === "number") {
      input = make("input", {id, type: "number", min: String(f.low), max: String(f.high),
                             value: "0", inputmode: "numeric"});
    } else {
      input = make("input", {id, type: "text", list: id + "-options",
                             placeholder: f.placeholder, autocomplete: "off"});
      input.choices = make("datalist", {id: id + "-options"});
      wrap.appendChild(input.choices);
    }
    input.title = f.help;
    input.dataset.kind = KINDS.includes(f.kind) ? f.kind : "text";
    input.dataset.field = f.name;
    if (f.name === "permanent") {
      input.addEventListener("change", () => {
        if (active) send({values: values(), seq: ++seq});
      });
    }
    inputs[f.name] = input;
    wrap.appendChild(input);
    return wrap;
  }

  function button(name, c) {
    const b = make("button", {type: "button", title: c.help, "data-control": name,
                              "class": "rk-live-button" + (c.style ? " rk-" + c.style : "")},
                   c.label);
    b.addEventListener("click", () => click(name, b));
    buttons[name] = b;
    return b;
  }

  function build(s) {
    const key = JSON.stringify([s.groups, s.controls]);
    if (key === built) return;
    built = key;
    groups.textContent = "";
    for (const name of Object.keys(inputs)) delete inputs[name];
    for (const name of Object.keys(buttons)) delete buttons[name];
    for (const [title, names] of s.groups) {
      const box = make("fieldset", {"class": "rk-sandbox-group"});
      box.appendChild(make("legend", {}, title));
      for (const name of names) {
        if (s.fields[name]) box.appendChild(field(s.fields[name]));
        else if (s.controls[name]) box.appendChild(button(name, s.controls[name]));
      }
      groups.appendChild(box);
    }
  }

  function setOptions(fields) {
    for (const [name, f] of Object.entries(fields)) {
      const input = inputs[name];
      if (!input) continue;
      if (f.kind === "choice" || f.kind === "multi") {
        const keep = new Set(Array.from(input.options)
          .filter((o) => (f.kind === "multi" ? o.selected : o.value === input.value))
          .map((o) => o.value));
        const options = f.options.map(([label, v]) => {
          const value = JSON.stringify(v);
          const o = make("option", {value}, label);
          if (keep.has(value)) o.selected = true;
          return o;
        });
        const same = options.length === input.options.length && options.every(
          (o, i) => o.value === input.options[i].value && o.text === input.options[i].text);
        if (same) continue; // keep the reader's selection and the list's scroll
        input.replaceChildren(...options);
        if (f.kind === "choice" && !options.some((o) => o.selected) && options.length) {
          input.selectedIndex = 0;
        }
      } else if (f.kind === "text" && input.choices && !input.choices.children.length) {
        for (const [, v] of f.options) input.choices.appendChild(make("option", {value: v}));
      }
    }
  }

  // ------------------------------------------------------------ active or not
  function setActive(on) {
    active = on;
    root.classList.toggle("rk-inactive", !on);
    setFreeActive(on);
    for (const input of Object.values(inputs)) {
      input.disabled = !on;
      if (on) input.removeAttribute("aria-disabled");
      else input.setAttribute("aria-disabled", "true");
    }
    for (const b of [...Object.values(buttons), ...timeBar.querySelectorAll("button"),
                     ...practice.querySelectorAll("button")]) {
      // still focusable (a reader can find it), but it does nothing until ready
      if (on && !b.classList.contains("rk-unavailable")) b.removeAttribute("aria-disabled");
      else b.setAttribute("aria-disabled", "true");
    }
  }

  function notReady() {
    if (root.dataset.state !== "failed") startButton.focus();
  }

  // ------------------------------------------------------------ clicks
  function sendClick(name, vals, where) {
    pending = {name, t0: performance.now(), seq: ++seq, card: cardId, where};
    root.setAttribute("aria-busy", "true");
    send({click: name, values: vals, seq});
  }

  function click(name, b) {
    if (!active) { notReady(); return; }
    // the outcome shows under the button clicked, where the eye already is
    if (b && b.nextSibling !== message) b.insertAdjacentElement("afterend", message);
    sendClick(name, values(), "form");
  }

  // ------------------------------------------------------------ the board's cards
  let cardId = null;   // the card whose menu is open (or was last): focus returns to it
  let menuItems = [];
  let picked = 0;      // the last picker answer handled (by seq)
  let savedSeq = 0;
  let flow = null;     // the click being made: {action, values, queue, asks, waiting, card}
  let choice = null;   // choosing on the board: {options, players, several, selected, onPick}

  const cards = () => Array.from(board.querySelectorAll(".rk-card[data-id]"));
  // the cards a reader can reach now (not in a closed pile)
  const reachable = (c) => !!c && c.isConnected && !c.closest("details:not([open])") &&
    c.getClientRects().length > 0;
  const shown = () => cards().filter(reachable);
  const cardOf = (id) => board.querySelector(`.rk-card[data-id="${id}"]`);
  const opener = (card) => card && card.querySelector(".rk-card-open");
  const nameOf = (card) => (opener(card) ? opener(card).dataset.label : "").split(",")[0];

  function wireCards() {
    const actions = state().card_actions || {};
    for (const card of cards()) {
      const n = (actions[card.dataset.id] || []).length;
      // a real button over the card's face, named by its content (the card's own label:
      // what a screen reader says, and the visible name is in it)
      let open = opener(card);
      if (!open) {
        const label = card.getAttribute("aria-label") || "";
        open = make("button", {type: "button", "class": "rk-card-open", "aria-haspopup": "menu",
                               "aria-expanded": "false"});
        open.dataset.label = label;
        const words = make("span", {"class": "rk-sr-only"});
        open.appendChild(words);
        card.removeAttribute("role");
        card.removeAttribute("aria-label");
        card.removeAttribute("tabindex");
        (card.querySelector(":scope > .rk-cardbox") || card).appendChild(open);
      }
      open.dataset.words = open.dataset.label + ". " + (n
        ? `${n} action${n === 1 ? "" : "s"}: Enter opens them.` : "Its text: Enter.");
      open.firstChild.textContent = open.dataset.words;
      card.dataset.actions = String(n);
    }
  }

  function closeMenu(refocus) {
    if (menu.hidden) return;
    menu.hidden = true;
    menu.textContent = "";
    menu.classList.remove("rk-picker");
    delete menu.dataset.key;
    delete menu.dataset.input;
    menuItems = [];
    const card = cardId !== null ? cardOf(cardId) : null;
    if (opener(card)) opener(card).setAttribute("aria-expanded", "false");
    if (refocus && opener(card)) opener(card).focus();
  }

  function place(card) {
    // under the card, inside the board's box (absolute: nothing below moves)
    const wrap = boardWrap.getBoundingClientRect();
    const r = card.getBoundingClientRect();
    const left = Math.max(0, Math.min(r.left - wrap.left, wrap.width - 360));
    menu.style.left = left + "px";
    menu.style.top = (r.bottom - wrap.top + 4) + "px";
  }

  function item(markup, text, whyMarkup, legal, cls) {
    const b = make("button", {type: "button", role: "menuitem", tabindex: "-1",
                              "class": "rk-action " + (cls || "")});
    b.appendChild(html("span", {"class": "rk-action-label"}, markup, text));
    if (whyMarkup) b.appendChild(html("span", {"class": "rk-action-why"}, whyMarkup));
    if (!legal) {
      b.setAttribute("aria-disabled", "true");
      b.classList.add("rk-unavailable");
    }
    return b;
  }

  function because(o) {
    const reason = o.reason_html || (o.reason ? make("i", {}, o.reason).innerHTML : "");
    return (reason ? "Not now: " + reason : "Not allowed") + (o.rule ? " (CR " + o.rule + ")" : "");
  }

  function zoom(card) {
    // the card large: its name, type line and full Oracle text (what the face shortens)
    const box = make("div", {"class": "rk-card-zoom"});
    const name = card.querySelector(".rk-name");
    const type = card.querySelector(".rk-typeline");
    const cost = card.querySelector(".rk-cost");
    const head = make("p", {"class": "rk-zoom-name"});
    head.append(name ? name.textContent : nameOf(card));
    if (cost) head.appendChild(cost.cloneNode(true));
    box.appendChild(head);
    if (type) box.appendChild(make("p", {"class": "rk-zoom-type"}, type.textContent));
    const full = card.querySelector(".rk-full");
    if (full) box.appendChild(html("p", {"class": "rk-zoom-text"}, full.innerHTML));
    const badges = card.querySelector(".rk-badges");
    if (badges) box.appendChild(make("p", {"class": "rk-zoom-badges"},
      Array.from(badges.children).map((b) => b.textContent).join(" · ")));
    return box;
  }

  function openMenu(card, entries, title, onChoose, {withCard = false, onClose = null} = {}) {
    cardId = card.dataset.id;
    menu.textContent = "";
    menu.setAttribute("aria-label", title.text);
    if (withCard) menu.appendChild(zoom(card));
    menu.appendChild(html("p", {"class": "rk-actions-title", role: "presentation"},
                          title.html, title.text));
    menuItems = [];
    for (const entry of entries) {
      const b = item(entry.html, entry.text, entry.why, entry.legal, entry.cls);
      if (entry.value !== undefined) b.dataset.value = entry.value;
      b.addEventListener("click", () => {
        if (!entry.legal && !entry.entry) { say(b.textContent); return; } // it says why
        onChoose(entry);
      });
      menuItems.push(b);
      menu.appendChild(b);
    }
    if (!entries.length) {
      menu.appendChild(make("p", {"class": "rk-actions-none", role: "none"},
                            "Nothing to do with this card now."));
    }
    const close = item("", onClose ? "Cancel" : "Close", "", true, "rk-close");
    close.addEventListener("click", () => { closeMenu(true); if (onClose) onClose(); });
    menuItems.push(close);
    menu.appendChild(close);
    menu.onEscape = onClose;
    menu.hidden = false;
    if (opener(card)) opener(card).setAttribute("aria-expanded", "true");
    place(card);
    menuItems[0].focus({preventScroll: true});
    if (menu.scrollIntoView) menu.scrollIntoView({block: "nearest"});
  }

  function actionsOf(card) {
    const list = (state().card_actions || {})[card.dataset.id] || [];
    return list.map((a) => {
      const asks = (a.asks || []).map((q) => q.heading || q.why).join("; ");
      const picks = (a.choose || []).map((c) => c.heading).join("; then ");
      const next = [picks, asks].filter(Boolean).join("; then ");
      return {html: a.label_html, text: a.label, legal: a.legal, entry: a,
              why: a.legal ? (next ? "Next: " + make("i", {}, next).innerHTML : "")
                : because(a)};
    });
  }

  // ------------------------------------------------------------ making a click, step by step
  function choose(entry) {
    if (!active) { closeMenu(false); notReady(); return; }
    if (message.parentNode !== home) home.appendChild(message);
    if (!entry.legal) { // tried anyway: the engine refuses it with its rule (a wrong try)
      closeMenu(false);
      sendClick(entry.action, entry.tried || entry.values, "card");
      return;
    }
    // the form follows the card's permanent (its ability list is that permanent's), so its
    // inputs stay consistent for its next click
    const pick = inputs.permanent;
    if (pick && entry.values.permanent !== undefined &&
        Array.from(pick.options).some((o) => o.value === JSON.stringify(entry.values.permanent))) {
      pick.value = JSON.stringify(entry.values.permanent);
    }
    flow = {action: entry.action, values: Object.assign({}, entry.values), card: cardId,
            queue: (entry.choose || []).slice(), asks: !!(entry.asks && entry.asks.length)};
    closeMenu(false);
    nextStep();
  }

  function nextStep() {
    if (!flow) return;
    if (flow.queue.length) {
      const c = flow.queue.shift();
      flow.heading = c;
      if (c.kind === "several") { chooseSeveral(c); return; }
      flow.waiting = ++seq;
      send({ask: flow.action, values: flow.values, choose: c.field, seq: flow.waiting});
      return;
    }
    if (flow.asks) { // the decisions the click makes on its way
      flow.asks = false;
      flow.heading = null;
      flow.waiting = ++seq;
      send({ask: flow.action, values: flow.values, seq: flow.waiting});
      return;
    }
    const made = flow;
    flow = null;
    cardId = made.card;
    sendClick(made.action, made.values, "card");
  }

  function cancel(words) {
    leaveChoosing();
    closeMenu(false);
    const card = flow && flow.card !== null ? cardOf(flow.card) : null;
    flow = null;
    say(words || "Cancelled: nothing changed.");
    if (opener(card)) opener(card).focus();
  }

  function answered(option, input) {
    closeMenu(false);
    flow.values = Object.assign({}, option.values);
    if (!input) flow.asks = true; // ask again: the click may make another decision
    nextStep();
  }

  function showPicker(p) {
    if (!flow || p.seq !== flow.waiting) return; // an answer to a question no longer asked
    if (!p.decisions || !p.decisions.length) { nextStep(); return; }
    const d = p.decisions[0];
    const input = !!p.field;
    const legal = d.options.filter((o) => o.legal);
    if (!input && legal.length === 1) { answered(legal[0], false); return; } // nothing to choose
    const title = {html: input && flow.heading ? flow.heading.heading_html ||
                     make("i", {}, flow.heading.heading).innerHTML : d.heading_html,
                   text: input && flow.heading ? flow.heading.heading : d.heading};
    const asking = {key: d.key, input};
    if (d.board) { chooseOnBoard(d, title, (o) => answered(o, input), asking); return; }
    const card = cardOf(flow.card) || shown()[0];
    if (!card) return;
    const entries = d.options.map((o) => ({html: o.label_html, text: o.label, legal: o.legal,
      cls: "rk-choice", why: o.legal ? "" : because(o), option: o,
      value: JSON.stringify(o.value)}));
    openMenu(card, entries, title, (e) => answered(e.option, input),
             {onClose: () => cancel()});
    if (d.why) menu.insertBefore(make("p", {"class": "rk-picker-who"}, d.why), menuItems[0]);
    menu.classList.add("rk-picker");
    menu.dataset.key = asking.key; // what is asked: an input of the click, or a decision
    menu.dataset.input = String(asking.input);
  }

  // ------------------------------------------------------------ choosing on the board
  function chooseOnBoard(d, title, onPick, asking) {
    const options = new Map();
    const players = new Map();
    for (const o of d.options) {
      if (o.id !== null && o.id !== undefined) options.set(String(o.id), o);
      else if (o.player) players.set(o.player, o);
    }
    enterChoosing({options, players, several: false, onPick, title, why: d.why || "",
                   asking});
  }

  function chooseSeveral(c) {
    const options = new Map();
    for (const id of [flow.card, ...c.legal]) options.set(String(id), {legal: true, id});
    const selected = new Set([String(flow.card)]);
    const title = {html: c.heading_html || make("i", {}, c.heading).innerHTML, text: c.heading};
    enterChoosing({options, players: new Map(), several: true, selected, title, why: "",
                   onPick: null, asking: {key: c.field, input: true}});
  }

  function enterChoosing(spec) {
    choice = spec;
    root.classList.add("rk-choosing-on");
    choosing.textContent = "";
    choosing.dataset.key = spec.asking.key; // what is asked: an input of the click, or a decision
    choosing.dataset.input = String(spec.asking.input);
    const head = html("p", {"class": "rk-choose-title", id: uid + "-choose"}, spec.title.html,
                      spec.title.text);
    const legal = [...spec.options.values(), ...spec.players.values()].filter((o) => o.legal);
    const hint = make("p", {"class": "rk-choose-hint"}, spec.several
      ? "Click the cards to add or remove them, then confirm. Escape cancels."
      : `${legal.length} can be chosen (lit up); the others say why not. Escape cancels.`);
    choosing.append(head);
    if (spec.why) choosing.appendChild(make("p", {"class": "rk-picker-who"}, spec.why));
    choosing.appendChild(hint);
    const row = make("div", {"class": "rk-choose-buttons"});
    if (spec.several) {
      const ok = make("button", {type: "button", "class": "rk-live-button rk-danger rk-confirm"});
      ok.addEventListener("click", () => {
        const picks = [...spec.selected].map(Number);
        leaveChoosing();
        flow.values = Object.assign({}, flow.values, {to_destroy: picks});
        nextStep();
      });
      spec.confirm = ok;
      row.appendChild(ok);
    }
    const stop = make("button", {type: "button", "class": "rk-live-button"}, "Cancel (Esc)");
    stop.addEventListener("click", () => cancel());
    row.appendChild(stop);
    choosing.appendChild(row);
    spec.whyBox = make("p", {"class": "rk-choose-why", role: "status"});
    choosing.appendChild(spec.whyBox);
    choosing.hidden = false;
    for (const card of cards()) {
      const o = spec.options.get(card.dataset.id);
      const open = opener(card);
      card.classList.toggle("rk-choosable", !!(o && o.legal));
      card.classList.toggle("rk-dimmed", !(o && o.legal));
      if (!open) continue;
      open.setAttribute("aria-haspopup", "false");
      const why = o ? (o.legal ? "can be chosen" : "can't be chosen: " + (o.reason || "not allowed") +
        (o.rule ? " (CR " + o.rule + ")" : "")) : "not a choice here";
      open.firstChild.textContent = open.dataset.label + ". " + why + ".";
      card.dataset.why = why;
      if (spec.several) open.setAttribute("aria-pressed", String(spec.selected.has(card.dataset.id)));
      card.classList.toggle("rk-selected", !!(spec.several && spec.selected.has(card.dataset.id)));
    }
    // players get a button when one of them can be chosen (then each says if it can, or why not)
    const anyPlayer = [...spec.players.values()].some((o) => o.legal);
    for (const side of anyPlayer ? board.querySelectorAll(".rk-side[data-player]") : []) {
      const o = spec.players.get(side.dataset.player);
      if (!o) continue;
      const panel = side.querySelector(".rk-player") || side;
      const b = make("button", {type: "button", "class": "rk-player-pick" +
        (o.legal ? "" : " rk-unavailable")}, (o.legal ? "Choose " : "Can't choose ") +
        side.dataset.player);
      if (!o.legal) {
        b.setAttribute("aria-disabled", "true");
        b.title = (o.reason || "") + (o.rule ? " (CR " + o.rule + ")" : "");
        b.appendChild(make("span", {"class": "rk-sr-only"}, ": " + b.title));
      }
      b.addEventListener("click", () => pickOption(o, "player " + side.dataset.player));
      panel.appendChild(b);
    }
    updateSeveral();
    // the question in view (the board under it), then focus on the first card to choose
    const r = choosing.getBoundingClientRect();
    if (r.top < 0 || r.bottom > (globalThis.innerHeight || 0)) {
      choosing.scrollIntoView({block: "start"});
    }
    const first = shown().find((c) => c.classList.contains("rk-choosable") &&
                                      !(spec.several && spec.selected.has(c.dataset.id)));
    const target = first ? opener(first) : board.querySelector(".rk-player-pick:not(.rk-unavailable)");
    if (target) target.focus({preventScroll: true});
    say(spec.title.text + ". " + hint.textContent);
  }

  function updateSeveral() {
    if (!choice || !choice.several) return;
    const n = choice.selected.size;
    choice.confirm.textContent = `Destroy ${n} at once`;
  }

  function pickOption(o, what) {
    if (!choice) return;
    if (!o.legal) {
      choice.whyBox.textContent = "Not this one: " + what + ": " + (o.reason || "not allowed") +
        (o.rule ? " (CR " + o.rule + ")" : "");
      return;
    }
    const onPick = choice.onPick;
    leaveChoosing();
    onPick(o);
  }

  function pickCard(card) {
    const o = choice.options.get(card.dataset.id);
    if (choice.several) {
      if (!o) { choice.whyBox.textContent = nameOf(card) + ": " + card.dataset.why; return; }
      const id = card.dataset.id;
      if (choice.selected.has(id)) choice.selected.delete(id);
      else choice.selected.add(id);
      card.classList.toggle("rk-selected", choice.selected.has(id));
      if (opener(card)) opener(card).setAttribute("aria-pressed", String(choice.selected.has(id)));
      updateSeveral();
      return;
    }
    if (!o) { choice.whyBox.textContent = nameOf(card) + ": not a choice here."; return; }
    pickOption(o, nameOf(card));
  }

  function leaveChoosing() {
    if (!choice) return;
    choice = null;
    root.classList.remove("rk-choosing-on");
    choosing.hidden = true;
    choosing.textContent = "";
    for (const card of cards()) {
      card.classList.remove("rk-choosable", "rk-dimmed", "rk-selected");
      delete card.dataset.why;
      const open = opener(card);
      if (!open) continue;
      open.setAttribute("aria-haspopup", "menu");
      open.removeAttribute("aria-pressed");
      open.firstChild.textContent = open.dataset.words || open.dataset.label;
    }
    for (const b of board.querySelectorAll(".rk-player-pick")) b.remove();
  }

  board.addEventListener("click", (e) => {
    const card = e.target.closest(".rk-card[data-id]");
    if (!card || !board.contains(card)) return;
    if (choice) { pickCard(card); return; }
    if (!menu.hidden && cardId === card.dataset.id) { closeMenu(true); return; }
    const name = nameOf(card);
    openMenu(card, actionsOf(card), {html: "", text: "What " + name + " can do now"},
             (entry) => choose(entry.entry), {withCard: true});
  });
  board.addEventListener("keydown", (e) => {
    const card = e.target.closest(".rk-card[data-id]");
    if (!card) return;
    const all = shown();
    const i = all.indexOf(card);
    let to = null;
    if (e.key === "Enter") {
      e.preventDefault();
      card.dispatchEvent(new MouseEvent("click", {bubbles: true}));
      return;
    }
    if (e.key === "ArrowRight" || e.key === "ArrowDown") to = all[(i + 1) % all.length];
    else if (e.key === "ArrowLeft" || e.key === "ArrowUp") to = all[(i - 1 + all.length) % all.length];
    else if (e.key === "Home") to = all[0];
    else if (e.key === "End") to = all[all.length - 1];
    if (to) {
      e.preventDefault();
      opener(to).focus();
    }
  });
  menu.addEventListener("keydown", (e) => {
    const i = menuItems.indexOf(document.activeElement);
    if (e.key === "Escape") {
      e.preventDefault();
      const onClose = menu.onEscape;
      closeMenu(true);
      if (onClose) onClose();
    } else if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      const n = menuItems.length;
      menuItems[(i + (e.key === "ArrowDown" ? 1 : n - 1)) % n].focus();
    } else if (e.key === "Home" || e.key === "End") {
      e.preventDefault();
      menuItems[e.key === "Home" ? 0 : menuItems.length - 1].focus();
    } else if (e.key === "Tab") {
      closeMenu(true);
    }
  });
  document.addEventListener("pointerdown", (e) => {
    if (!menu.hidden && !menu.contains(e.target) && !board.contains(e.target)) {
      const onClose = menu.onEscape;
      closeMenu(false);
      if (onClose) onClose();
    }
  });

  // ------------------------------------------------------------ the time bar and its keys
  const barButtons = {};

  function showBar(list) {
    if (!list) { timeBar.hidden = true; return; }
    timeBar.hidden = false;
    const names = list.map((b) => b.name).join(" ");
    if (timeBar.dataset.names !== names) { // the middle button is Pass or Resolve
      timeBar.textContent = "";
      for (const key of Object.keys(barButtons)) delete barButtons[key];
      timeBar.dataset.names = names;
    }
    for (const b of list) {
      let el = barButtons[b.name];
      if (!el) {
        el = make("button", {type: "button", "class": "rk-live-button rk-bar-button",
                             "data-bar": b.name});
        el.addEventListener("click", () => barClick(el));
        barButtons[b.name] = el;
        timeBar.appendChild(el);
      }
      const key = b.key ? `<kbd class='rk-key'>${b.key}</kbd>` : "";
      const why = b.legal ? "" : `<span class='rk-bar-why'>Not now: ${
        make("i", {}, b.reason || "").innerHTML}${b.rule ? " (CR " + b.rule + ")" : ""}</span>`;
      const markup = `<span class='rk-bar-label'>${b.label_html}</span>${key}${why}`;
      if (el.dataset.markup !== markup) { el.innerHTML = markup; el.dataset.markup = markup; }
      el.title = b.does;
      el.dataset.legal = String(b.legal);
      el.classList.toggle("rk-unavailable", !b.legal);
      if (b.key) el.setAttribute("aria-keyshortcuts", b.key === "Space" ? "Space" : b.key);
      if (!b.legal || !active) el.setAttribute("aria-disabled", "true");
      else el.removeAttribute("aria-disabled");
    }
  }

  function barClick(el) {
    if (!active) { notReady(); return; }
    if (choice || flow) cancel("Cancelled the choice.");
    if (message.parentNode !== home) home.appendChild(message);
    sendClick(el.dataset.bar, {}, "bar"); // not legal now: refused, with why
  }

  // The sandbox's keys, read before anything else on the page (on the window, capturing):
  // a notebook's own shortcuts (Z undoes a cell operation in Notebook 7) don't see them
  function onKey(e) {
    const t = e.target;
    if (!(t instanceof Element) || !root.contains(t)) return;
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
    const handled = () => { e.preventDefault(); e.stopPropagation(); };
    if (t.closest("input, select, textarea, summary, .rk-free-play")) return;
    if (e.key === "Escape" && (choice || flow)) { handled(); cancel(); return; }
    if (choice || t.closest("[role='menu']")) return; // choosing: Space and Enter pick
    if (e.key === "z" || e.key === "Z") {
      if (barButtons.undo) { handled(); barClick(barButtons.undo); }
    } else if (e.key === " " && !t.closest(".rk-time-bar, .rk-challenges, .rk-tools, " +
                                         ".rk-all-controls, .rk-live-start")) {
      const go = barButtons.resolve || barButtons.pass;
      if (go) { handled(); barClick(go); }
    }
  }
  globalThis.addEventListener("keydown", onKey, true);

  // ------------------------------------------------------------ the challenges
  const progressKey = () => "rulekit:challenges:" + (globalThis.location ?
    location.pathname : "") + ":" + (heading.textContent || "");

  function stored() {
    const s = storage();
    try { return (s && JSON.parse(s.getItem(progressKey()) || "{}")) || {}; } catch { return {}; }
  }

  function store(status) {
    const s = storage();
    if (!s) return;
    const mine = stored();
    let changed = false;
    for (const [id, st] of Object.entries(status || {})) {
      if (st === "solved" && mine[id] !== "solved") { mine[id] = "solved"; changed = true; }
    }
    try { if (changed) s.setItem(progressKey(), JSON.stringify(mine)); } catch { /* full */ }
  }

  function showNow(p) {
    const c = p && p.current ? p.challenges.find((x) => x.id === p.current) : null;
    const key = c ? JSON.stringify([c.id, p.last]) : "";
    if (now.dataset.key === key) return;
    now.dataset.key = key;
    now.textContent = "";
    now.hidden = !c;
    if (!c) return;
    const goal = make("p", {"class": "rk-ch-goal"});
    goal.append(make("b", {}, "Challenge: "));
    goal.appendChild(html("span", {}, c.say_html, c.say));
    now.append(goal, feedback(c, p.last));
  }

  function showPractice(p) {
    showNow(p);
    if (!p || !p.challenges || !p.challenges.length) { practice.hidden = true; return; }
    store(p.status);
    const mine = stored();
    const key = JSON.stringify([p, mine]);
    if (practice.dataset.key === key) return;
    practice.dataset.key = key;
    practice.hidden = false;
    const status = (id) => (mine[id] === "solved" || p.status[id] === "solved") ? "solved"
      : p.status[id] || "";
    const solved = p.challenges.filter((c) => status(c.id) === "solved").length;
    const had = practice.contains(document.activeElement) ? document.activeElement : null;
    const focusId = had && had.dataset.challenge;
    practice.textContent = "";
    const title = make("h4", {id: uid + "-ch-title"}, "Challenges ");
    title.appendChild(make("span", {"class": "rk-ch-count"},
                           `(${solved} of ${p.challenges.length} solved)`));
    practice.appendChild(title);
    const list = make("ol", {"class": "rk-ch-list"});
    for (const c of p.challenges) {
      const st = status(c.id);
      const current = p.current === c.id;
      const li = make("li", {"class": "rk-ch" + (current ? " rk-ch-current" : "") +
                                      (st === "solved" ? " rk-ch-solved" : ""),
                             "data-id": c.id});
      li.appendChild(make("span", {"class": "rk-ch-mark", "aria-hidden": "true"},
                          st === "solved" ? "✓" : current ? "▶" : "○"));
      li.appendChild(html("span", {"class": "rk-ch-say"}, c.say_html, c.say));
      li.appendChild(make("span", {"class": "rk-sr-only"}, st === "solved" ? " (solved)"
        : current ? " (trying it now)" : " (not solved yet)"));
      const b = make("button", {type: "button", "class": "rk-live-button rk-ch-go",
                                "data-challenge": c.id},
                     current ? "Start again" : st === "solved" ? "Try it again" : "Try it");
      b.setAttribute("aria-label", (current ? "Start again: " : "Try it: ") + c.say);
      b.addEventListener("click", () => {
        if (!active) { notReady(); return; }
        if (choice || flow) cancel("Cancelled the choice.");
        if (message.parentNode !== home) home.appendChild(message);
        sendClick("challenge", {challenge: c.id}, "challenge");
      });
      li.appendChild(b);
      if (current) li.appendChild(feedback(c, p.last));
      list.appendChild(li);
    }
    practice.appendChild(list);
    if (!active) setActive(false);
    const back = focusId && practice.querySelector(`[data-challenge="${focusId}"]`);
    if (back) back.focus({preventScroll: true});
  }

  function feedback(c, last) {
    const box = make("div", {"class": "rk-ch-feedback rk-ch-" + (last || "trying")});
    if (last === "solved") {
      box.appendChild(make("p", {"class": "rk-ch-verdict"}, "✓ Solved."));
      const rule = make("p", {"class": "rk-ch-rule"});
      rule.append(make("b", {}, `CR ${c.rule} (${c.rule_title}): `), c.rule_words);
      box.appendChild(rule);
    } else if (last === "wrong") {
      box.appendChild(make("p", {"class": "rk-ch-verdict"}, "Not this time. Try again."));
      const hint = html("p", {"class": "rk-ch-hint"}, "<b>Hint:</b> " + c.hint_html);
      box.appendChild(hint);
    } else {
      box.appendChild(make("p", {"class": "rk-ch-verdict"},
                           "Play on the board: the engine checks every click."));
    }
    return box;
  }

  // ------------------------------------------------------------ save as walkthrough
  saveButton.addEventListener("click", () => {
    if (!active) { notReady(); return; }
    seq += 1;
    send({walkthrough: heading.textContent || "A sandbox session", seq});
  });

  function download(text, name) {
    const url = URL.createObjectURL(new Blob([text], {type: "application/toml"}));
    const a = make("a", {href: url, download: name});
    a.hidden = true;
    root.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  function showSaved(w) {
    if (!w || !w.seq || w.seq <= savedSeq) return;
    savedSeq = w.seq;
    if (w.error) {
      saved.textContent = " Not saved: " + w.error;
    } else if (w.file) {
      saved.textContent = " Saved next to the notebook as " + w.file + ".";
    } else {
      const name = (w.name || "walkthrough") + ".toml";
      download(w.text || "", name);
      saved.textContent = " Downloaded as " + name + ".";
    }
    root.dataset.walkthrough = w.text || "";
  }

  // ------------------------------------------------------------ free play
  // Any catalog card onto either player's battlefield or into a hand (found by name, with did
  // you mean: SandboxModel.search), the turn and step the sandbox starts from, start again.
  // Each is a click of the model's free-play vocabulary: add_card {card, player, zone},
  // set_position {turn, active, step}, restart {}.
  const fp = {};       // free play's inputs by name
  const fpButtons = [];
  let searchSeq = 0;   // the last search answer shown
  let searchTimer = null;

  function fpField(name, label, input, box) {
    const id = uid + "-fp-" + name;
    input.id = id;
    const wrap = make("div", {"class": "rk-live-field rk-fp-field"});
    wrap.append(make("label", {"for": id}, label), input);
    fp[name] = input;
    (box || freeBox).appendChild(wrap);
    return input;
  }

  function fpButton(text, style, box, onClick) {
    const b = make("button", {type: "button", "class": "rk-live-button" + (style ? " rk-" + style : "")},
                   text);
    b.addEventListener("click", () => onClick(b));
    fpButtons.push(b);
    box.appendChild(b);
    return b;
  }

  function freeClick(name, vals, b) {
    if (!active) { notReady(); return; }
    // the outcome shows under the button pressed (where the eye is)
    if (b.nextSibling !== message) b.insertAdjacentElement("afterend", message);
    sendClick(name, vals, "free");
  }

  const addBox = make("fieldset", {"class": "rk-sandbox-group rk-fp-add"});
  addBox.appendChild(make("legend", {}, "Add a card"));
  freeBox.appendChild(addBox);
  const found = make("p", {"class": "rk-fp-found", id: uid + "-fp-found", "aria-live": "polite"});
  const search = fpField("search", "Find a card by name",
                         make("input", {type: "search", autocomplete: "off", spellcheck: "false",
                                        "aria-describedby": uid + "-fp-found",
                                        placeholder: "e.g. Llanowar"}), addBox);
  addBox.appendChild(found);
  fpField("card", "Card", make("select", {}), addBox);
  fpField("player", "Whose", make("select", {}), addBox);
  fpField("zone", "Where", make("select", {}), addBox);
  fpButton("Add the card", "primary", addBox, (b) => freeClick("add_card", {
    card: fp.card.value, player: fp.player.value, zone: fp.zone.value}, b));
  const turnBox = make("fieldset", {"class": "rk-sandbox-group rk-fp-turn"});
  turnBox.appendChild(make("legend", {}, "The turn the sandbox starts from"));
  freeBox.appendChild(turnBox);
  fpField("turn", "Turn", make("input", {type: "number", min: "1", max: "99", value: "1",
                                         inputmode: "numeric"}), turnBox);
  fpField("active", "Whose turn", make("select", {}), turnBox);
  fpField("step", "Step", make("select", {}), turnBox);
  fpButton("Set the turn", "primary", turnBox, (b) => freeClick("set_position", {
    turn: parseInt(fp.turn.value, 10) || 1, active: fp.active.value, step: fp.step.value}, b));
  const againBox = make("div", {"class": "rk-fp-again"});
  freeBox.appendChild(againBox);
  fpButton("Start again", "warning", againBox, (b) => freeClick("restart", {}, b));
  againBox.appendChild(make("span", {"class": "rk-fp-note"},
    " The board this sandbox was given: every click and every card added taken back."));

  function fill(select, pairs, keep) {
    const now = keep !== undefined ? keep : select.value;
    const same = pairs.length === select.options.length &&
      pairs.every(([v, t], i) => select.options[i].value === v && select.options[i].text === t);
    if (!same) {
      select.replaceChildren(...pairs.map(([v, t]) => make("option", {value: v}, t)));
    }
    if (pairs.some(([v]) => v === now)) select.value = now;
  }

  function showFreePlay(f, fresh) {
    if (!f) { free.hidden = true; return; }
    free.hidden = false;
    fill(fp.player, f.players.map((p) => [p, p + "'s"]));
    fill(fp.zone, f.zones);
    fill(fp.active, f.players.map((p) => [p, p]), fresh ? f.active : undefined);
    fill(fp.step, f.steps.map(([v, t]) => [v, t.charAt(0).toUpperCase() + t.slice(1)]),
         fresh ? f.step : undefined);
    if (fresh) fp.turn.value = String(f.turn);
  }

  function showSearch(r) {
    if (!r || !r.seq || r.seq < searchSeq) return;
    searchSeq = r.seq;
    fill(fp.card, r.names.map((n) => [n, n]));
    found.textContent = r.says;
    found.classList.toggle("rk-fp-near", !!r.near);
  }

  function askSearch() {
    if (!active) return;
    seq += 1;
    send({search: search.value, seq});
  }
  search.addEventListener("input", () => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(askSearch, 150);
  });
  search.addEventListener("keydown", (e) => {
    if (e.key === "Enter") { // Enter in the box: straight to the results
      e.preventDefault();
      clearTimeout(searchTimer);
      askSearch();
      fp.card.focus();
    }
  });
  let freeAsked = false;
  free.addEventListener("toggle", () => {
    if (free.open && !freeAsked && active) { freeAsked = true; askSearch(); }
  });

  function setFreeActive(on) {
    for (const input of Object.values(fp)) {
      input.disabled = !on;
      if (on) input.removeAttribute("aria-disabled");
      else input.setAttribute("aria-disabled", "true");
    }
    for (const b of fpButtons) {
      if (on) b.removeAttribute("aria-disabled");
      else b.setAttribute("aria-disabled", "true");
    }
    if (on && free.open && !freeAsked) { freeAsked = true; askSearch(); }
  }

  // ------------------------------------------------------------ showing the state
  function keepInView() {
    // after a click the board stays where the reader was looking: the bar and the message
    // under it are scrolled into view only when they left it
    const r = timeBar.getBoundingClientRect();
    const h = globalThis.innerHeight || document.documentElement.clientHeight;
    if (r.bottom > h || r.top < 0) timeBar.scrollIntoView({block: "nearest"});
  }

  function show() {
    const s = state();
    heading.textContent = s.title || "Sandbox";
    if (s.groups && s.fields) {
      build(s);
      setOptions(s.fields);
    }
    if (s.id !== undefined) root.dataset.sid = String(s.id);
    if (s.message !== undefined) message.innerHTML = s.message;
    if (s.board) {
      if (board.dataset.html !== s.board) {
        const had = board.contains(document.activeElement) || menu.contains(document.activeElement);
        const keep = board.offsetHeight;
        if (keep) board.style.minHeight = keep + "px"; // no jump while it is swapped
        closeMenu(false);
        leaveChoosing();
        board.innerHTML = s.board;
        board.dataset.html = s.board;
        wireCards();
        requestAnimationFrame(() => { board.style.minHeight = ""; });
        const back = cardId !== null ? cardOf(cardId) : null;
        if (had || (pending && pending.where === "card")) {
          // after this task: Chrome drops a focus() made while the focused card is removed
          setTimeout(() => {
            if (document.activeElement && root.contains(document.activeElement) &&
                document.activeElement !== board) return;
            (opener(reachable(back) ? back : shown()[0]) || board).focus({preventScroll: true});
          }, 0);
        }
      } else {
        wireCards(); // the same board, maybe new actions
      }
      board.hidden = false;
    } else {
      board.hidden = true;
    }
    showBar(s.bar);
    showPractice(s.practice);
    if (s.picker && s.picker.seq > picked) {
      picked = s.picker.seq;
      showPicker(s.picker);
    }
    showSaved(s.walkthrough);
    // the starting turn's inputs follow the state when the start changed (a free-play click,
    // or the first state), not while the reader is editing them
    const fpKey = s.free_play ? JSON.stringify([s.free_play.turn,
      s.free_play.active, s.free_play.step]) : "";
    showFreePlay(s.free_play, fpKey !== free.dataset.start);
    free.dataset.start = fpKey;
    showSearch(s.search);
    if (s.tables_html !== undefined && tables.dataset.html !== s.tables_html) {
      tables.innerHTML = s.tables_html;
      tables.dataset.html = s.tables_html;
    }
    if (s.diagram !== undefined && diagramBox.dataset.html !== s.diagram) {
      // keep the page where it is while the diagram is swapped (no jump on a click)
      diagramBox.style.minHeight = diagramBox.offsetHeight + "px";
      diagramBox.textContent = "";
      if (s.diagram) {
        diagramBox.appendChild(make("h4", {}, "Event and trigger diagram: " + s.what));
        diagramBox.insertAdjacentHTML("beforeend", s.diagram);
      }
      diagramBox.dataset.html = s.diagram;
      requestAnimationFrame(() => { diagramBox.style.minHeight = ""; });
    }
    if (pending && (s.seq === undefined || s.seq >= pending.seq)) {
      root.dataset.clickMs = String(performance.now() - pending.t0);
      const where = pending.where;
      pending = null;
      root.removeAttribute("aria-busy");
      done += 1;
      root.dataset.done = String(done);
      if (where === "bar" || where === "card" || where === "challenge") keepInView();
    }
    setActive(active); // new controls get the current state
  }

  function showStatus() {
    const status = model.get("status") || {state: "ready"};
    const was = root.dataset.state;
    root.dataset.state = status.state;
    el.dataset.state = status.state;
    const ready = status.state === "ready";
    start.hidden = ready;
    startNote.textContent = status.note ? " " + status.note : "";
    const showing = asked && status.state === "loading";
    bar.hidden = !showing;
    if (status.total) {
      bar.max = status.total;
      bar.value = status.done || 0;
    }
    progressText.textContent = showing && status.text ? " " + status.text : "";
    startButton.disabled = status.state === "failed" && !status.retry;
    startButton.hidden = status.state === "off"; // built without the engine: a picture
    startButton.setAttribute("aria-busy", showing ? "true" : "false");
    if (status.problem) {
      problem.innerHTML = status.problem; // made (and escaped) by the back-end
      problem.hidden = false;
    } else {
      problem.hidden = true;
    }
    setActive(ready);
    if (ready && was !== "ready" && asked) {
      say("The live sandbox is ready: " + (heading.textContent || "") + ". Its board " +
          "follows: each card's actions open with Enter; Space passes or resolves, Z undoes.");
      // the student's own first card (the bottom side's), else the first
      const mine = board.querySelector(".rk-side.rk-bottom .rk-card[data-id]");
      const first = opener(reachable(mine) ? mine : shown()[0]) || all.querySelector("summary");
      if (first) first.focus({preventScroll: false});
    }
  }

  // ------------------------------------------------------------ getting ready early
  const load = (why) => {
    const s = root.dataset.state;
    if (s === "idle" || (why === "start" && s !== "ready")) send({load: why});
  };
  startButton.addEventListener("click", () => {
    asked = true;
    showStatus();
    send({load: "start"});
  });
  startButton.addEventListener("pointerenter", () => load("hover"));
  startButton.addEventListener("focus", () => load("focus"));
  let seen = null;
  if (typeof IntersectionObserver === "function") {
    seen = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        load("view");
        seen.disconnect();
        seen = null;
      }
    }, {rootMargin: "200px 0px"});
    seen.observe(root);
  }

  // what tests and benchmarks read (no global: one per view)
  root.rkSandbox = {values, get lastClickMs() { return Number(root.dataset.clickMs); }};

  const onState = () => show();
  const onStatus = () => showStatus();
  model.on("change:state", onState);
  model.on("change:status", onStatus);
  show();
  showStatus();
  if (root.dataset.state !== "ready") send({load: "check"});
  return () => {
    model.off("change:state", onState);
    model.off("change:status", onStatus);
    globalThis.removeEventListener("keydown", onKey, true);
    if (seen) seen.disconnect();
  };
}

export default {render};
