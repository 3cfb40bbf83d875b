/* rulekit: the live sandbox of an exported lesson page (issue 17). No framework, no module:
   a classic script, so it runs from file:// as well as from any web server.

   Each `.rk-live` box (written by the lesson template around a sandbox's picture) holds the
   starting position as JSON. "Start the live sandbox" loads Pyodide and the rulekit engine from
   _static/sandbox/ (classic scripts holding the bytes: see rulekit/export/live.py), builds the
   same position, and renders what rulekit.sandbox_page returns: fields, controls, messages,
   tables, and the diagram's DOT drawn by Viz.js. Every rule, control and message comes from
   the Python side. */
(function () {
  "use strict";
  var CONFIG = JSON.parse(document.getElementById("rk-live-config").textContent);
  var MIME = "application/vnd.rulekit.sandbox+json";
  var runtime = null; // a promise of {page, viz}, shared by every sandbox of the page
  var sandboxes = [];
  var timings = []; // [what, ms since the page opened] as the sandbox starts
  var STARTING_MS = 300000; // a wasm that fails to instantiate leaves Pyodide waiting forever

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function missing() {
    if (typeof WebAssembly !== "object" || typeof WebAssembly.instantiate !== "function") {
      return "this browser has no WebAssembly (it may be turned off, or the browser is too old)";
    }
    if (typeof DecompressionStream !== "function" || typeof Response !== "function") {
      return "this browser is too old (it has no DecompressionStream)";
    }
    return null;
  }

  function MissingFile(url) {
    this.url = url;
    this.message = "missing file " + url;
  }

  function loadScript(url) {
    return new Promise(function (resolve, reject) {
      var s = el("script", {src: url});
      s.async = false; // fetched together, run in order
      s.onload = resolve;
      s.onerror = function () { reject(new MissingFile(url)); };
      document.head.appendChild(s);
    });
  }

  function within(ms, what, promise) {
    var timer;
    var late = new Promise(function (_, reject) {
      timer = setTimeout(function () { reject(new Error(what + " took more than " +
                                                        ms / 1000 + " s")); }, ms);
    });
    return Promise.race([promise, late]).finally(function () { clearTimeout(timer); });
  }

  function fromBase64(text) {
    if (typeof Uint8Array.fromBase64 === "function") return Uint8Array.fromBase64(text);
    var raw = atob(text), out = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
    return out;
  }

  async function bytesOf(name) {
    var asset = (globalThis.rulekitAssets || {})[name];
    if (!asset) throw new Error(name + " is not in the loaded files");
    var bytes = fromBase64(asset.base64);
    delete globalThis.rulekitAssets[name];
    if (asset.gzip) {
      var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
      bytes = new Uint8Array(await new Response(stream).arrayBuffer());
    }
    if (bytes.length !== asset.size) throw new Error(name + " is damaged");
    return bytes;
  }

  async function startRuntime(progress) {
    var base = new URL(CONFIG.base, document.baseURI).href;
    var files = CONFIG.scripts, total = files.length + 3;
    var loaded = 0;
    progress(0, total, "Loading " + files[0] + "…");
    await Promise.all(files.map(function (name, i) {
      return loadScript(base + name).then(function () {
        loaded++;
        if (i + 1 < files.length) progress(loaded, total, "Loading " + files[i + 1] + "…");
      });
    }));
    progress(files.length, total, "Starting Python…");
    globalThis.rulekitPyodideBase = base + "pyodide.asm.mjs";
    var answers = {
      "pyodide.asm.wasm": [await bytesOf("pyodide.asm.wasm"), "application/wasm"],
      "python_stdlib.zip": [await bytesOf("python_stdlib.zip"), "application/zip"]
    };
    var engine = await bytesOf("rulekit.zip");
    timings.push(["bytes decoded", Math.round(performance.now())]);
    // Pyodide fetches the wasm and the standard library next to itself: a file:// page may
    // not fetch, so those two answers come from memory; anything else goes to the real fetch.
    var realFetch = globalThis.fetch;
    globalThis.fetch = function (input, init) {
      var url = typeof input === "string" ? input : (input && input.url) || String(input);
      var name = url.split(/[?#]/)[0].split("/").pop();
      var answer = answers[name];
      if (answer) {
        return Promise.resolve(new Response(answer[0], {headers: {"Content-Type": answer[1]}}));
      }
      return realFetch.call(globalThis, input, init);
    };
    var py;
    try {
      py = await within(STARTING_MS, "Starting Python", globalThis.loadPyodide({
        indexURL: base, packageBaseUrl: base, lockFileContents: globalThis.rulekitPyodideLock,
        createPyodideModule: globalThis.rulekitCreatePyodide,
        stdout: function (line) { console.log(line); },
        stderr: function (line) { console.log(line); }
      }));
    } finally {
      globalThis.fetch = realFetch;
    }
    timings.push(["python started", Math.round(performance.now())]);
    progress(files.length + 1, total, "Loading the rules engine…");
    py.unpackArchive(engine, "zip", {extractDir: "/home/pyodide/rulekit-engine"});
    py.runPython("import sys; sys.path.insert(0, '/home/pyodide/rulekit-engine')");
    var mod = py.pyimport("rulekit.sandbox_page");
    var page = {start: mod.start, click: mod.click, fields: mod.fields, state: mod.state};
    progress(files.length + 2, total, "Loading the diagram renderer…");
    var viz = await globalThis.Viz.instance();
    return {page: page, viz: viz};
  }

  // ---------------------------------------------------------------- one sandbox
  function Sandbox(box, position) {
    this.box = box;
    this.position = position;
    this.inputs = {};
    this.buttons = [];
  }

  Sandbox.prototype.values = function () {
    var out = {};
    var inputs = this.inputs;
    Object.keys(inputs).forEach(function (name) {
      var input = inputs[name], kind = input.dataset.kind;
      if (kind === "choice") {
        out[name] = input.value === "" ? null : JSON.parse(input.value);
      } else if (kind === "multi") {
        out[name] = Array.prototype.filter.call(input.options, function (o) { return o.selected; })
          .map(function (o) { return JSON.parse(o.value); });
      } else if (kind === "number") {
        out[name] = parseInt(input.value, 10) || 0;
      } else {
        out[name] = input.value;
      }
    });
    return out;
  };

  Sandbox.prototype.setOptions = function (fields) {
    var inputs = this.inputs;
    Object.keys(fields).forEach(function (name) {
      var f = fields[name], input = inputs[name];
      if (!input) return;
      if (f.kind === "choice" || f.kind === "multi") {
        var keep = {};
        Array.prototype.forEach.call(input.options, function (o) {
          if (f.kind === "multi" ? o.selected : o.value === input.value) keep[o.value] = true;
        });
        input.textContent = "";
        var any = false;
        f.options.forEach(function (opt) {
          var value = JSON.stringify(opt[1]);
          var o = el("option", {value: value}, opt[0]);
          if (keep[value]) { o.selected = true; any = true; }
          input.appendChild(o);
        });
        if (f.kind === "choice" && !any && input.options.length) input.selectedIndex = 0;
      } else if (f.kind === "text" && input.choices && !input.choices.children.length) {
        f.options.forEach(function (opt) {
          input.choices.appendChild(el("option", {value: opt[1]}));
        });
      }
    });
  };

  Sandbox.prototype.build = function (view) {
    var self = this, ui = el("div", {"class": "rk-live-ui rk-widget"});
    ui.appendChild(el("h3", {}, this.position.title || "Sandbox"));
    ui.appendChild(el("p", {"class": "rk-live-note"}, "Live: the rules engine runs in this " +
      "page. Every click is checked against the rules; an illegal move is refused with its " +
      "rule and changes nothing."));
    var row = el("div", {"class": "rk-live-groups"});
    view.groups.forEach(function (group) {
      var box = el("fieldset", {"class": "rk-sandbox-group"});
      box.appendChild(el("legend", {}, group[0]));
      group[1].forEach(function (name) {
        if (view.fields[name]) box.appendChild(self.field(view.fields[name]));
        else box.appendChild(self.button(name, view.controls[name]));
      });
      row.appendChild(box);
    });
    ui.appendChild(row);
    this.message = el("div", {"class": "rk-message", "aria-live": "polite"});
    this.tables = el("div", {"class": "rk-frame rk-live-tables"});
    this.diagramBox = el("div", {"class": "rk-frame rk-live-diagram"});
    ui.appendChild(this.message);
    ui.appendChild(this.tables);
    ui.appendChild(this.diagramBox);
    this.setOptions(view.fields);
    this.inputs.permanent.addEventListener("change", function () {
      self.setOptions(JSON.parse(self.rt.page.fields(self.id, JSON.stringify(self.values()))));
    });
    this.show(view);
    return ui;
  };

  Sandbox.prototype.field = function (f) {
    var id = "rk-live-" + sandboxes.indexOf(this) + "-" + f.name;
    var wrap = el("div", {"class": "rk-live-field"});
    wrap.appendChild(el("label", {"for": id, title: f.help}, f.label));
    var input;
    if (f.kind === "choice") {
      input = el("select", {id: id});
    } else if (f.kind === "multi") {
      input = el("select", {id: id, multiple: "", size: f.name === "to_destroy" ? "5" : "4"});
    } else if (f.kind === "number") {
      input = el("input", {id: id, type: "number", min: String(f.low), max: String(f.high),
                           value: "0"});
    } else {
      input = el("input", {id: id, type: "text", list: id + "-options",
                           placeholder: f.placeholder});
      input.choices = el("datalist", {id: id + "-options"});
      wrap.appendChild(input.choices);
    }
    input.title = f.help;
    input.dataset.kind = f.kind;
    input.dataset.field = f.name;
    this.inputs[f.name] = input;
    wrap.appendChild(input);
    return wrap;
  };

  Sandbox.prototype.button = function (name, c) {
    var self = this;
    var b = el("button", {type: "button", title: c.help, "data-control": name,
                          "class": "rk-live-button" + (c.style ? " rk-" + c.style : "")},
               c.label);
    b.addEventListener("click", function () { self.click(name); });
    this.buttons.push(b);
    return b;
  };

  Sandbox.prototype.click = function (name) {
    var started = performance.now(), view = null;
    // the outcome shows under the button clicked, where the eye already is (issue 16)
    var clicked = this.box.querySelector("button[data-control='" + name + "']");
    if (clicked && clicked.nextSibling !== this.message) {
      clicked.insertAdjacentElement("afterend", this.message);
    }
    try {
      view = JSON.parse(this.rt.page.click(this.id, name, JSON.stringify(this.values())));
    } catch (err) {
      this.message.innerHTML = "";
      this.message.appendChild(el("div", {"class": "rk-error", role: "alert"},
        "The engine failed (a bug in rulekit, please report it): " + String(err.message || err)));
    }
    if (view) this.show(view);
    // how long the click took, diagram included (the benchmark reads it), and how many so far
    this.lastClickMs = performance.now() - started;
    this.box.dataset.done = String((parseInt(this.box.dataset.done, 10) || 0) + 1);
  };

  Sandbox.prototype.show = function (view) {
    if (view.message !== undefined) this.message.innerHTML = view.message;
    if (view.fields) this.setOptions(view.fields);
    if (view.tables === undefined) return;
    this.tables.innerHTML = view.tables;
    var head = el("h4", {}, "Event and trigger diagram: " + view.what);
    var holder = el("div", {"class": "rk-diagram"});
    try {
      // Viz.js sizes text with the metrics of a font it knows by name: a list of fallbacks
      // ("DejaVu Sans,Arial,...") is not one, so it would size for Times and the text (drawn in
      // the page's font) would overflow its boxes. It knows the first family of ours.
      var dot = view.dot.replace(/fontname="([^",]+),[^"]*"/g, 'fontname="$1"');
      var svg = this.rt.viz.renderSVGElement(dot);
      svg.setAttribute("role", "img");
      svg.setAttribute("aria-label", "Event and trigger diagram of " + view.what);
      holder.appendChild(svg);
    } catch (err) {
      holder.appendChild(el("p", {"class": "rk-empty"}, "The diagram could not be drawn: " +
                                String(err.message || err)));
    }
    this.diagramBox.textContent = "";
    this.diagramBox.appendChild(head);
    this.diagramBox.appendChild(holder);
  };

  Sandbox.prototype.state = function (values) {
    return JSON.parse(this.rt.page.state(this.id, JSON.stringify(values || this.values())));
  };

  // ---------------------------------------------------------------- the start box
  function problem(box, html) {
    var note = box.querySelector(".rk-live-problem") || el("div", {"class": "rk-live-problem",
                                                                   role: "alert"});
    note.innerHTML = html;
    box.querySelector(".rk-live-start").appendChild(note);
    box.dataset.state = "failed";
  }

  var STILL = " The walkthroughs above still work, and so does the notebook in JupyterLab.";

  function setUp(box) {
    var data = box.querySelector("script[type='" + MIME + "']");
    var position = JSON.parse(data.textContent);
    var sandbox = new Sandbox(box, position);
    sandboxes.push(sandbox);
    var start = el("div", {"class": "rk-live-start"});
    var button = el("button", {type: "button", "class": "rk-live-button rk-primary"},
                    "Start the live sandbox");
    start.appendChild(button);
    start.appendChild(el("span", {"class": "rk-live-note"}, " Play with this position here: " +
      "the real rules engine runs in this page, offline (about " + CONFIG.mb + " MB to load " +
      "once, a few seconds)."));
    var bar = el("progress", {max: "1", value: "0", hidden: ""});
    var status = el("span", {"class": "rk-live-status", "aria-live": "polite"});
    start.appendChild(bar);
    start.appendChild(status);
    var picture = box.querySelector(":scope > .jupyter-widgets");
    box.insertBefore(start, picture);
    box.dataset.state = "idle";
    var why = missing();
    if (why) {
      button.disabled = true;
      problem(box, "<b>The live sandbox can't run here:</b> " + why + ". Use a current " +
        "Chrome, Edge, Firefox or Safari." + STILL);
      return;
    }
    button.addEventListener("click", function () {
      button.disabled = true;
      box.dataset.state = "loading";
      bar.hidden = false;
      var progress = function (done, total, what) {
        timings.push([what, Math.round(performance.now())]);
        bar.max = total;
        bar.value = done;
        status.textContent = " " + what;
      };
      if (!runtime) runtime = startRuntime(progress);
      runtime.then(function (rt) {
        sandbox.rt = rt;
        progress(1, 1, "Building the position…");
        var view = JSON.parse(rt.page.start(JSON.stringify(position)));
        if (view.error) throw new Error(view.error);
        sandbox.id = view.id;
        var ui = sandbox.build(view);
        start.hidden = true;
        if (picture) picture.hidden = true;
        box.insertBefore(ui, picture);
        box.dataset.state = "ready";
        timings.push(["ready", Math.round(performance.now())]);
      }).catch(function (err) {
        runtime = null;
        button.disabled = false;
        bar.hidden = true;
        status.textContent = "";
        if (err instanceof MissingFile) {
          problem(box, "<b>The live sandbox's files are missing.</b> This page looks for them " +
            "in the folder <code>" + CONFIG.base + "</code> next to it: copy the whole site " +
            "folder (with <code>_static/</code>), not only the page." + STILL);
        } else {
          var text = el("span", {}, String((err && err.message) || err)).outerHTML;
          problem(box, "<b>The live sandbox could not start:</b> " + text + ". Reload the " +
            "page to try again." + STILL);
        }
      });
    });
  }

  function init() {
    Array.prototype.forEach.call(document.querySelectorAll(".rk-live"), setUp);
  }

  globalThis.rulekitLive = {sandboxes: sandboxes, timings: timings};
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
