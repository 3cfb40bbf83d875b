/* rulekit: the sandbox, one anywidget front-end module (AFM) for every host (issue 26).

   It renders the `state` trait (rulekit.sandbox.view.sandbox_state: the
   SandboxModel's fields and outcome, the layout of its controls, and the board's tables and
   diagram as HTML made and escaped in Python) and sends what the reader does as custom
   messages: {click: name, values, seq} for a button, {values, seq} when an input that other
   inputs follow changes (the ability list follows the permanent), {load: why} to ask the
   back-end to get ready ("check" when shown, "view", "hover", "focus", "start"). The back-end
   answers by setting `state` (with the `seq` it answers) and `status`
   ({state: idle|loading|loaded|ready|failed, text, done, total, note, problem}):
   - in a kernel (rulekit.sandbox.widget.Sandbox, an anywidget): SandboxModel.click in
     Python; `status` is always ready;
   - in an exported page (host.js): window.rulekit.backends.sandbox, the engine in Pyodide.
   Until `status` is ready, the controls look and are inactive (aria-disabled). No framework,
   no dependency, plain ES2020.

   The board (state.board, rulekit.display.board) is what a reader sees first: every card is
   a button (Enter/Space or a click opens its menu, arrow keys move between cards) whose menu
   lists state.card_actions[id], each available or shown unavailable (aria-disabled) with its
   rule and reason before any click. An action that asks a decision first sends {ask: action,
   values, seq}; the back-end answers with state.picker ({seq, action, values, decisions:
   SandboxModel.choices_for}), shown as a picker (who decides and why). "Save as walkthrough"
   sends {walkthrough: title, seq}; the answer, state.walkthrough ({seq, text, file}), is a
   file the kernel wrote (`file`) or text the page offers as a download. The form's controls
   stay, in a collapsed "All controls" section.

   Free play (a collapsed section under the board): a search box sends {search: text, seq};
   the answer, state.search ({seq, text, names, near, says}: SandboxModel.search, with "did
   you mean" when no name contains the text), fills the card list. "Add the card", "Set the
   turn" and "Start again" are clicks of the model's free-play vocabulary (add_card {card,
   player, zone}, set_position {turn, active, step}, restart), with the players, zones and
   steps from state.free_play. */

const KINDS = ["choice", "multi", "number", "text"];

function make(tag, attrs, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

let counter = 0; // ids unique in the page, for labels

function render({model, el}) {
  const uid = "rk-sb-" + (++counter);
  const root = make("div", {"class": "rk-sandbox rk-sb rk-widget", role: "region"});
  const heading = make("h3", {id: uid + "-title"});
  root.setAttribute("aria-labelledby", uid + "-title");
  const note = make("p", {"class": "rk-live-note"}, "The real rules engine runs behind these " +
    "controls. Every click is checked against the rules; an illegal move is refused with its " +
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
  const message = make("div", {"class": "rk-message", "aria-live": "polite"});
  const home = make("div", {"class": "rk-message-home"}); // the message's place by the board
  const board = make("div", {"class": "rk-board-box", hidden: "", tabindex: "-1"});
  const boardWrap = make("div", {"class": "rk-board-wrap"});
  const menu = make("div", {"class": "rk-actions", role: "menu", hidden: "", tabindex: "-1"});
  boardWrap.append(board, menu);
  const tools = make("div", {"class": "rk-tools"});
  const saveButton = make("button", {type: "button", "class": "rk-live-button rk-save",
                                     title: "The clicks so far as a walkthrough (scenario " +
                                       "TOML) that `python -m rulekit run` plays"},
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
  home.appendChild(message);
  // the message under the board: the board a reader is looking at never moves on a click
  ui.append(boardWrap, home, tools, free, all, tables, diagramBox);
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
    b.addEventListener("click", () => click(name));
    buttons[name] = b;
    return b;
  }

  function build(state) {
    const key = JSON.stringify([state.groups, state.controls]);
    if (key === built) return;
    built = key;
    groups.textContent = "";
    for (const name of Object.keys(inputs)) delete inputs[name];
    for (const name of Object.keys(buttons)) delete buttons[name];
    for (const [title, names] of state.groups) {
      const box = make("fieldset", {"class": "rk-sandbox-group"});
      box.appendChild(make("legend", {}, title));
      for (const name of names) {
        if (state.fields[name]) box.appendChild(field(state.fields[name]));
        else if (state.controls[name]) box.appendChild(button(name, state.controls[name]));
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
    for (const b of Object.values(buttons)) {
      // still focusable (a reader can find it), but it does nothing until ready
      if (on) b.removeAttribute("aria-disabled");
      else b.setAttribute("aria-disabled", "true");
    }
  }

  // ------------------------------------------------------------ clicks
  function click(name) {
    if (!active) {
      if (root.dataset.state !== "failed") startButton.focus();
      return;
    }
    const b = buttons[name];
    // the outcome shows under the button clicked, where the eye already is (issue 16)
    if (b && b.nextSibling !== message) b.insertAdjacentElement("afterend", message);
    pending = {name, t0: performance.now(), seq: ++seq};
    root.setAttribute("aria-busy", "true");
    send({click: name, values: values(), seq});
  }

  // ------------------------------------------------------------ the board's cards
  let cardId = null;   // the card whose menu is open (or was last): focus returns to it
  let menuItems = [];
  let picked = 0;      // the last picker / walkthrough answer handled (by seq)
  let savedSeq = 0;

  const cards = () => Array.from(board.querySelectorAll(".rk-card[data-id]"));
  // the cards a reader can reach now (not in a closed pile)
  const reachable = (c) => !!c && c.isConnected && !c.closest("details:not([open])") &&
    c.getClientRects().length > 0;
  const shown = () => cards().filter(reachable);
  const cardOf = (id) => board.querySelector(`.rk-card[data-id="${id}"]`);

  function wireCards() {
    const actions = (model.get("state") || {}).card_actions || {};
    for (const card of cards()) {
      const n = (actions[card.dataset.id] || []).length;
      // a real button over the card's face, named by its content (the card's own label:
      // what a screen reader says, and the visible name is in it)
      let open = card.querySelector(":scope > .rk-cardbox > .rk-card-open");
      if (!open) {
        const label = card.getAttribute("aria-label") || "";
        open = make("button", {type: "button", "class": "rk-card-open", "aria-haspopup": "menu",
                               "aria-expanded": "false"});
        open.dataset.label = label;
        open.appendChild(make("span", {"class": "rk-sr-only"}, label + ". " + (n
          ? `${n} action${n === 1 ? "" : "s"}.` : "Nothing to do with it now.")));
        card.removeAttribute("role");
        card.removeAttribute("aria-label");
        card.removeAttribute("tabindex");
        (card.querySelector(":scope > .rk-cardbox") || card).appendChild(open);
      }
      card.dataset.actions = String(n);
    }
  }
  const opener = (card) => card && card.querySelector(".rk-card-open");

  function closeMenu(refocus) {
    if (menu.hidden) return;
    menu.hidden = true;
    menu.textContent = "";
    menuItems = [];
    const card = cardId !== null ? cardOf(cardId) : null;
    if (opener(card)) opener(card).setAttribute("aria-expanded", "false");
    if (refocus && opener(card)) opener(card).focus();
  }

  function place(card) {
    // under the card, inside the board's box (absolute: nothing below moves)
    const wrap = boardWrap.getBoundingClientRect();
    const r = card.getBoundingClientRect();
    const left = Math.max(0, Math.min(r.left - wrap.left, wrap.width - 340));
    menu.style.left = left + "px";
    menu.style.top = (r.bottom - wrap.top + 4) + "px";
  }

  function item(text, why, legal, cls) {
    const b = make("button", {type: "button", role: "menuitem", tabindex: "-1",
                              "class": "rk-action " + (cls || "")});
    b.appendChild(make("span", {"class": "rk-action-label"}, text));
    if (why) b.appendChild(make("span", {"class": "rk-action-why"}, why));
    if (!legal) {
      b.setAttribute("aria-disabled", "true");
      b.classList.add("rk-unavailable");
    }
    return b;
  }

  function because(reason, rule) {
    return (reason ? "Not now: " + reason : "Not allowed") + (rule ? " (CR " + rule + ")" : "");
  }

  function openMenu(card, entries, title, onChoose) {
    cardId = card.dataset.id;
    menu.textContent = "";
    menu.setAttribute("aria-label", title);
    menu.appendChild(make("p", {"class": "rk-actions-title", role: "presentation"},
                          title));
    menuItems = [];
    for (const entry of entries) {
      const b = item(entry.text, entry.why, entry.legal, entry.cls);
      b.addEventListener("click", () => {
        if (!entry.legal) return; // it says why, in its name
        onChoose(entry);
      });
      menuItems.push(b);
      menu.appendChild(b);
    }
    if (!entries.length) {
      menu.appendChild(make("p", {"class": "rk-actions-none", role: "none"},
                            "Nothing to do with this card now."));
    }
    const close = item("Close", "", true, "rk-close");
    close.addEventListener("click", () => closeMenu(true));
    menuItems.push(close);
    menu.appendChild(close);
    menu.hidden = false;
    if (opener(card)) opener(card).setAttribute("aria-expanded", "true");
    place(card);
    menuItems[0].focus({preventScroll: true});
    if (menu.scrollIntoView) menu.scrollIntoView({block: "nearest"});
  }

  function actionsOf(card) {
    const list = ((model.get("state") || {}).card_actions || {})[card.dataset.id] || [];
    return list.map((a) => {
      const asks = (a.asks || []).map((q) => q.why).join("; ");
      return {text: a.label, legal: a.legal, action: a.action, values: a.values, asks: a.asks,
              why: a.legal ? (asks ? "You will choose: " + asks : "") : because(a.reason, a.rule)};
    });
  }

  function choose(entry, extra) {
    if (!active) {
      closeMenu(false);
      if (root.dataset.state !== "failed") startButton.focus();
      return;
    }
    if (message.parentNode !== home) home.appendChild(message);
    // the answer's fields follow the click's permanent (the ability list is that
    // permanent's): the form shows that permanent too, or keeps its own, so the form's
    // inputs stay consistent for its next click (a page checks them against the fields)
    const pick = inputs.permanent;
    const keep = pick && pick.value !== "" ? {permanent: JSON.parse(pick.value)} : {};
    const vals = Object.assign(keep, entry.values, extra || {});
    if (pick && vals.permanent !== undefined &&
        Array.from(pick.options).some((o) => o.value === JSON.stringify(vals.permanent))) {
      pick.value = JSON.stringify(vals.permanent);
    }
    if (!extra && entry.asks && entry.asks.length) {
      seq += 1;
      send({ask: entry.action, values: vals, seq});
      return;
    }
    closeMenu(true);
    pending = {name: entry.action, t0: performance.now(), seq: ++seq, card: cardId};
    root.setAttribute("aria-busy", "true");
    send({click: entry.action, values: vals, seq});
  }

  function showPicker(picker) {
    const card = cardId !== null ? cardOf(cardId) : null;
    if (!card) return;
    if (!picker.decisions || !picker.decisions.length) {
      // nothing left to decide: make the click with the answers so far
      choose({action: picker.action, values: picker.values}, picker.values);
      return;
    }
    const d = picker.decisions[0];
    const entries = d.options.map((o) => ({
      text: o.label, legal: o.legal, cls: "rk-choice",
      why: o.legal ? "" : because(o.reason, o.rule),
      value: o.value, choices: o.choices}));
    openMenu(card, entries, d.why, (o) => {
      const next = Object.assign({}, picker.values, {choices: o.choices});
      if (picker.decisions.length > 1) {
        seq += 1;
        send({ask: picker.action, values: next, seq});
      } else {
        choose({action: picker.action, values: next}, next);
      }
    });
    const who = make("p", {"class": "rk-picker-who"}, d.why);
    menu.replaceChild(who, menu.firstChild);
    menu.classList.add("rk-picker");
    menu.setAttribute("aria-label", d.why);
  }

  board.addEventListener("click", (e) => {
    const card = e.target.closest(".rk-card[data-id]");
    if (!card || !board.contains(card)) return;
    if (!menu.hidden && cardId === card.dataset.id) { closeMenu(true); return; }
    menu.classList.remove("rk-picker");
    const open = opener(card);
    const name = open ? open.dataset.label : "";
    openMenu(card, actionsOf(card), "Actions: " + name,
             (entry) => choose(entry));
  });
  board.addEventListener("keydown", (e) => {
    const card = e.target.closest(".rk-card[data-id]");
    if (!card) return;
    const all = shown();
    const i = all.indexOf(card);
    let to = null;
    if (e.key === "Enter" || e.key === " ") {
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
      closeMenu(true);
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
    if (!menu.hidden && !menu.contains(e.target) && !board.contains(e.target)) closeMenu(false);
  });

  // ------------------------------------------------------------ save as walkthrough
  saveButton.addEventListener("click", () => {
    if (!active) {
      if (root.dataset.state !== "failed") startButton.focus();
      return;
    }
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
    if (!active) {
      if (root.dataset.state !== "failed") startButton.focus();
      return;
    }
    // the outcome shows under the button pressed (where the eye is)
    if (b.nextSibling !== message) b.insertAdjacentElement("afterend", message);
    pending = {name, t0: performance.now(), seq: ++seq};
    root.setAttribute("aria-busy", "true");
    send({click: name, values: vals, seq});
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
  function show() {
    const state = model.get("state") || {};
    heading.textContent = state.title || "Sandbox";
    if (state.groups && state.fields) {
      build(state);
      setOptions(state.fields);
    }
    if (state.id !== undefined) root.dataset.sid = String(state.id);
    if (state.message !== undefined) message.innerHTML = state.message;
    if (state.board) {
      if (board.dataset.html !== state.board) {
        const had = board.contains(document.activeElement) || menu.contains(document.activeElement);
        const keep = board.offsetHeight;
        if (keep) board.style.minHeight = keep + "px"; // no jump while it is swapped
        closeMenu(false);
        board.innerHTML = state.board;
        board.dataset.html = state.board;
        wireCards();
        requestAnimationFrame(() => { board.style.minHeight = ""; });
        const back = cardId !== null ? cardOf(cardId) : null;
        if (had || (pending && pending.card !== undefined)) {
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
    if (state.picker && state.picker.seq > picked) {
      picked = state.picker.seq;
      showPicker(state.picker);
    }
    showSaved(state.walkthrough);
    // the starting turn's inputs follow the state when the start changed (a free-play click,
    // or the first state), not while the reader is editing them
    const fpKey = state.free_play ? JSON.stringify([state.free_play.turn,
      state.free_play.active, state.free_play.step]) : "";
    showFreePlay(state.free_play, fpKey !== free.dataset.start);
    free.dataset.start = fpKey;
    showSearch(state.search);
    if (state.tables_html !== undefined && tables.dataset.html !== state.tables_html) {
      tables.innerHTML = state.tables_html;
      tables.dataset.html = state.tables_html;
    }
    if (state.diagram !== undefined && diagramBox.dataset.html !== state.diagram) {
      // keep the page where it is while the diagram is swapped (no jump on a click)
      diagramBox.style.minHeight = diagramBox.offsetHeight + "px";
      diagramBox.textContent = "";
      if (state.diagram) {
        diagramBox.appendChild(make("h4", {}, "Event and trigger diagram: " + state.what));
        diagramBox.insertAdjacentHTML("beforeend", state.diagram);
      }
      diagramBox.dataset.html = state.diagram;
      requestAnimationFrame(() => { diagramBox.style.minHeight = ""; });
    }
    if (pending && (state.seq === undefined || state.seq >= pending.seq)) {
      root.dataset.clickMs = String(performance.now() - pending.t0);
      pending = null;
      root.removeAttribute("aria-busy");
      done += 1;
      root.dataset.done = String(done);
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
      announce.textContent = "The live sandbox is ready: " + (heading.textContent || "") +
        ". Its board follows: each card's actions open with Enter.";
      const first = opener(shown()[0]) || all.querySelector("summary");
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
    if (seen) seen.disconnect();
  };
}

export default {render};
