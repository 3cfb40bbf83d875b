/* rulekit: the exported lesson page's own anywidget host (docs/classroom.md, "the
   page contract"). No widget manager, no kernel, no eval.

   The page holds, for each view, `<div class="rk-view" data-rk-view="NAME">` with its traits in
   a `<script type="application/json">` (JSON with `<`, `>`, `&` escaped as \u003c ...). The
   view modules (stepper.js, sandbox.js: AFM, `export default {render}`) are inlined before this
   one as `<script type="module">`, each registering itself as `rulekit.views[NAME]`. For each
   view this host builds a model with the AFM interface (`get`, `set`, `save_changes`,
   `on`/`off` for "change:TRAIT" and "msg:custom", `send`), runs the module's `initialize`
   (if any) and `render` into a new element inside the view's div, and keeps what `render`
   returns to clean up (`rulekit.host.destroy()`).

   `model.send(content, callbacks, buffers)` goes to the back-end registered under the view's
   name: `rulekit.backends[NAME] = {send(model, content, buffers), attach(model)?}` (the
   sandbox's Pyodide back-end). A back-end answers by `model.set(...)` and may deliver custom
   messages with `model.receive(content, buffers)`. Messages sent before the back-end is
   registered wait for it: register with `rulekit.register(NAME, backend)`. */

const rk = (globalThis.rulekit = globalThis.rulekit || {});
rk.views = rk.views || {};
rk.backends = rk.backends || {};
const models = []; // [name, model] of every view in the page
const waiting = new Map(); // name -> messages sent before its back-end came

function modelOf(name, traits) {
  const handlers = new Map();
  const emit = (event, ...args) => {
    for (const fn of Array.from(handlers.get(event) || [])) {
      try { fn(...args); } catch (err) { console.error(`rulekit: ${event} handler:`, err); }
    }
  };
  const model = {
    get: (key) => traits[key],
    set(key, value) {
      const old = traits[key];
      traits[key] = value;
      if (old !== value) { emit(`change:${key}`, model, value); emit("change", model); }
    },
    save_changes() { /* no kernel: the page's state is the model's */ },
    on(event, fn) {
      if (!handlers.has(event)) handlers.set(event, new Set());
      handlers.get(event).add(fn);
    },
    off(event, fn) {
      if (!event) handlers.clear();
      else if (!fn) handlers.delete(event);
      else if (handlers.has(event)) handlers.get(event).delete(fn);
    },
    send(content, _callbacks, buffers) {
      const backend = rk.backends[name];
      if (backend && typeof backend.send === "function") {
        backend.send(model, content, buffers || []);
      } else {
        if (!waiting.has(name)) waiting.set(name, []);
        waiting.get(name).push([model, content, buffers || []]);
      }
    },
    receive(content, buffers) { emit("msg:custom", content, buffers || []); },
    widget_manager: null, // no other widgets to reach in a page
    rk_page: true, // an exported page: a view may keep its state in the page's address
  };
  return model;
}

function flush(name, backend) {
  for (const [model, content, buffers] of waiting.get(name) || []) {
    backend.send(model, content, buffers);
  }
  waiting.delete(name);
}

function attach(name, backend) {
  for (const [n, model] of models) {
    if (n === name && typeof backend.attach === "function") backend.attach(model);
  }
  flush(name, backend);
}

rk.register = (name, backend) => {
  rk.backends[name] = backend;
  attach(name, backend);
};

const cleanups = [];

async function mount(view) {
  const name = view.dataset.rkView;
  const module = rk.views[name];
  const data = view.querySelector(":scope > script[type='application/json']");
  if (!module || typeof module.render !== "function" || !data) {
    throw new Error(`no module or no data for the "${name}" view`);
  }
  const traits = JSON.parse(data.textContent);
  const model = modelOf(name, traits);
  models.push([name, model, view]);
  const el = document.createElement("div");
  el.className = "rk-view-root";
  view.append(el);
  if (typeof module.initialize === "function") {
    const undo = await module.initialize({model});
    if (typeof undo === "function") cleanups.push(undo);
  }
  const undo = await module.render({model, el});
  if (typeof undo === "function") cleanups.push(undo);
  view.setAttribute("data-rk-ready", "");
  const backend = rk.backends[name];
  if (backend && typeof backend.attach === "function") backend.attach(model);
}

async function start() {
  for (const view of document.querySelectorAll(".rk-view[data-rk-view]:not([data-rk-ready])")) {
    try {
      await mount(view);
    } catch (err) {
      console.error("rulekit:", err);
      const note = document.createElement("p");
      note.className = "rk-view-failed";
      note.setAttribute("role", "alert");
      note.textContent = `This part of the page could not be shown: ${err.message || err}`;
      view.append(note);
    }
  }
  for (const [name, backend] of Object.entries(rk.backends)) {
    if (waiting.has(name)) flush(name, backend);
  }
}

rk.host = {
  start,
  models: () => models.map(([name, model]) => ({name, model})),
  destroy() { for (const undo of cleanups.splice(0)) undo(); },
};
start();
