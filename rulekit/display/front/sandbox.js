/* rulekit: the sandbox, one anywidget front-end module (AFM) for every host (issue 26).

   It renders the `state` trait (rulekit.display.sandbox_view.sandbox_state: the
   SandboxModel's fields and outcome, the layout of its controls, and the board's tables and
   diagram as HTML made and escaped in Python) and sends what the reader does as custom
   messages: {click: name, values, seq} for a button, {values, seq} when an input that other
   inputs follow changes (the ability list follows the permanent), {load: why} to ask the
   back-end to get ready ("check" when shown, "view", "hover", "focus", "start"). The back-end
   answers by setting `state` (with the `seq` it answers) and `status`
   ({state: idle|loading|loaded|ready|failed, text, done, total, note, problem}):
   - in a kernel (rulekit.display.sandbox_widget.Sandbox, an anywidget): SandboxModel.click in
     Python; `status` is always ready;
   - in an exported page (host.js): window.rulekit.backends.sandbox, the engine in Pyodide.
   Until `status` is ready, the controls look and are inactive (aria-disabled). No framework,
   no dependency, plain ES2020. */

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
  const board = make("div", {"class": "rk-board-box", hidden: ""});
  const tables = make("div", {"class": "rk-frame rk-live-tables rk-tables", tabindex: "0",
                              role: "group", "aria-label": "Board, players and stack"});
  const diagramBox = make("div", {"class": "rk-frame rk-live-diagram"});
  ui.append(groups, message, board, tables, diagramBox);
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
      board.innerHTML = state.board;
      board.hidden = false;
    } else {
      board.hidden = true;
    }
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
        ". Its controls follow.";
      const first = groups.querySelector("select, input, button");
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
