/* rulekit: the sandbox's back-end in an exported page, window.rulekit.backends.sandbox
   (issue 26). The page host (host.js) gives it what the sandbox module sends
   (`model.send(content)`); it answers by setting the view's `state` and `status` traits, as
   the kernel's Sandbox widget does (rulekit.sandbox.widget), so the module can't tell
   the two apart.

   The engine is the real one, in Pyodide: Pyodide and Viz.js (Graphviz) are loaded from the
   site's _static/sandbox/ as classic scripts holding their bytes (rulekit/export/live.py: a page
   opened from file:// may neither fetch files nor import modules). It starts loading as soon as
   the module says the sandbox is in view, or the Start button is hovered or focused
   ({load: "view" | "hover" | "focus"}); the position is built then too, so pressing Start
   ({load: "start"}) only has to switch it on. Every answer comes from rulekit.sandbox.page.

   A classic script (no module, no eval): it only registers itself. */
(function () {
  "use strict";
  var root = (globalThis.rulekit = globalThis.rulekit || {});
  var backends = (root.backends = root.backends || {});
  if (backends.sandbox) return;

  var STARTING_MS = 300000; // a wasm that fails to instantiate leaves Pyodide waiting forever
  var STILL = " The walkthroughs above still work, and so does the notebook in JupyterLab.";
  var timings = []; // [what, ms since the page opened], as the runtime starts
  var runtime = null; // a promise of {page, viz}, shared by every sandbox of the page
  var records = []; // one per sandbox view: {model, started, sid, initial, failed}
  var byModel = new Map();

  function config() {
    var node = document.getElementById("rk-live-config");
    return node ? JSON.parse(node.textContent) : null;
  }

  function escapeHtml(text) {
    return String(text).replace(/[&<>"']/g, function (c) {
      return {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c];
    });
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
      var s = document.createElement("script");
      s.src = url;
      s.async = false; // fetched together, run in order
      s.addEventListener("load", resolve);
      s.addEventListener("error", function () { reject(new MissingFile(url)); });
      document.head.appendChild(s);
    });
  }

  function within(ms, what, promise) {
    var timer;
    var late = new Promise(function (_, reject) {
      timer = setTimeout(function () {
        reject(new Error(what + " took more than " + ms / 1000 + " s"));
      }, ms);
    });
    return Promise.race([promise, late]).finally(function () { clearTimeout(timer); });
  }

  // base64 -> bytes (data, never code), without atob where the browser has fromBase64
  var ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  var LOOKUP = new Uint8Array(256);
  for (var a = 0; a < ALPHABET.length; a++) LOOKUP[ALPHABET.charCodeAt(a)] = a;

  function fromBase64(text) {
    if (typeof Uint8Array.fromBase64 === "function") return Uint8Array.fromBase64(text);
    var n = text.length, pad = text.endsWith("==") ? 2 : text.endsWith("=") ? 1 : 0;
    var out = new Uint8Array((n * 3) / 4 - pad), j = 0;
    for (var i = 0; i < n; i += 4) {
      var v = (LOOKUP[text.charCodeAt(i)] << 18) | (LOOKUP[text.charCodeAt(i + 1)] << 12) |
        (LOOKUP[text.charCodeAt(i + 2)] << 6) | LOOKUP[text.charCodeAt(i + 3)];
      out[j++] = v >> 16;
      if (j < out.length) out[j++] = (v >> 8) & 255;
      if (j < out.length) out[j++] = v & 255;
    }
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

  function mark(what) { timings.push([what, Math.round(performance.now())]); }

  async function startRuntime(progress) {
    var cfg = config();
    if (!cfg) throw new Error("this page has no live sandbox configuration");
    var base = new URL(cfg.base, document.baseURI).href;
    var files = cfg.scripts, total = files.length + 3, loaded = 0;
    progress(0, total, "Loading " + files[0] + "…");
    var scripts = files.map(function (name, i) {
      return loadScript(base + name).then(function () {
        loaded++;
        mark("loaded " + name);
        if (i + 1 < files.length) progress(loaded, total, "Loading " + files[i + 1] + "…");
      });
    });
    await Promise.all(scripts);
    progress(files.length, total, "Starting Python…");
    // the diagram renderer starts at once, alongside Python
    var vizReady = globalThis.Viz.instance();
    globalThis.rulekitPyodideBase = base + "pyodide.asm.mjs";
    var answers = {
      "pyodide.asm.wasm": [await bytesOf("pyodide.asm.wasm"), "application/wasm"],
      "python_stdlib.zip": [await bytesOf("python_stdlib.zip"), "application/zip"]
    };
    var engine = bytesOf("rulekit.zip");
    mark("bytes decoded");
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
    mark("python started");
    progress(files.length + 1, total, "Loading the rules engine…");
    py.unpackArchive(await engine, "zip", {extractDir: "/home/pyodide/rulekit-engine"});
    py.runPython("import sys; sys.path.insert(0, '/home/pyodide/rulekit-engine')");
    var mod = py.pyimport("rulekit.sandbox.page");
    mark("engine imported");
    progress(files.length + 2, total, "Loading the diagram renderer…");
    var viz = await vizReady;
    // Viz.js sizes text with the metrics of a font it knows by name: a list of fallbacks
    // ("DejaVu Sans,Arial,...") is not one, so it would size for Times and the text (drawn in
    // the page's font) would overflow its boxes. It knows the first family of ours.
    globalThis.rulekitRenderDot = function (dot) {
      return viz.renderString(dot.replace(/fontname="([^",]+),[^"]*"/g, 'fontname="$1"'),
                              {format: "svg"});
    };
    mark("diagram renderer ready");
    return {page: {start: mod.start, click: mod.click, fields: mod.fields, state: mod.state,
                   choices: mod.choices, walkthrough: mod.walkthrough,
                   search: mod.search, card_actions: mod.card_actions}};
  }

  // ---------------------------------------------------------------- the views' traits
  function setStatus(rec, status) {
    var note = (rec.model.get("status") || {}).note;
    rec.model.set("status", Object.assign({note: note}, status));
    rec.model.save_changes();
  }

  function setState(rec, answer, seq) {
    rec.model.set("state", Object.assign({}, rec.model.get("state") || {}, answer, {seq: seq}));
    rec.model.save_changes();
  }

  function fail(rec, problem, retry) {
    rec.failed = true;
    setStatus(rec, {state: "failed", problem: problem, retry: retry});
  }

  function activate(rec) {
    if (!rec.started || rec.initial === null || rec.ready) return;
    rec.ready = true;
    setStatus(rec, {state: "ready"}); // the state is shown already: this only switches it on
    mark("ready");
  }

  function progress(done, total, what) {
    mark(what);
    records.forEach(function (rec) {
      if (!rec.ready && !rec.failed) {
        setStatus(rec, {state: "loading", done: done, total: total, text: what});
      }
    });
  }

  function load(rec) {
    if (rec.ready || rec.loading) return;
    rec.loading = true;
    rec.failed = false;
    if (!runtime) runtime = startRuntime(progress);
    var mine = runtime;
    mine.then(function (rt) {
      rec.page = rt.page;
      if (rec.initial === null) {
        var view = JSON.parse(rt.page.start(JSON.stringify(rec.model.get("position") || {})));
        if (view.error) throw new Error(view.error);
        rec.sid = view.id;
        rec.initial = view;
        // shown at once, still inactive: the same board, now drawn by the page's engine, so
        // pressing Start has nothing left to draw
        setState(rec, view, 0);
        mark("position built");
      }
      rec.loading = false;
      if (rec.started) activate(rec);
      else setStatus(rec, {state: "loaded"});
    }).catch(function (err) {
      if (runtime === mine) runtime = null; // pressing Start again tries again
      rec.loading = false;
      var cfg = config() || {base: "_static/sandbox/"};
      if (err instanceof MissingFile) {
        fail(rec, "<b>The live sandbox's files are missing.</b> This page looks for them in " +
          "the folder <code>" + escapeHtml(cfg.base) + "</code> next to it: copy the whole " +
          "site folder (with <code>_static/</code>), not only the page." + STILL, true);
      } else {
        fail(rec, "<b>The live sandbox could not start:</b> " +
          escapeHtml((err && err.message) || err) + ". Reload the page to try again." + STILL,
          true);
      }
    });
  }

  function record(model) {
    var rec = byModel.get(model);
    if (!rec) {
      rec = {model: model, started: false, ready: false, loading: false, failed: false,
             sid: null, initial: null, page: null};
      byModel.set(model, rec);
      records.push(rec);
    }
    return rec;
  }

  function engineFailed(rec, err, seq) {
    setState(rec, {message: "<div class='rk-error' role='alert'>The engine failed (a bug in " +
      "rulekit, please report it): " + escapeHtml((err && err.message) || err) + "</div>"}, seq);
  }

  // ---------------------------------------------------------------- what the module sends
  function send(model, content) {
    var rec = record(model);
    if (!content || typeof content !== "object") return;
    if (content.load !== undefined) {
      if (content.load === "check") {
        var why = missing();
        if (why) {
          fail(rec, "<b>The live sandbox can't run here:</b> " + escapeHtml(why) + ". Use a " +
            "current Chrome, Edge, Firefox or Safari." + STILL, false);
        }
        return;
      }
      if (rec.failed && content.load !== "start") return;
      if (missing()) return;
      if (content.load === "start") {
        rec.started = true;
        if (rec.initial !== null) {
          activate(rec);
          return;
        }
        setStatus(rec, {state: "loading", text: "Loading…"});
      }
      load(rec);
      return;
    }
    if (!rec.ready) return; // inactive until ready: the module says so, this makes sure
    var seq = content.seq, values = JSON.stringify(content.values || {});
    try {
      if (content.ask !== undefined) { // the decisions of a card's action, for the picker
        var asked = JSON.parse(rec.page.choices(rec.sid, String(content.ask), values));
        setState(rec, Array.isArray(asked)
          ? {picker: {seq: seq, action: String(content.ask), values: content.values || {},
                      decisions: asked}}
          : asked, seq);
        return;
      }
      if (content.search !== undefined) { // free play's "add a card" box
        var found = JSON.parse(rec.page.search(rec.sid, String(content.search)));
        setState(rec, {search: Object.assign({seq: seq}, found)}, seq);
        return;
      }
      if (content.walkthrough !== undefined) { // "Save as walkthrough": a download
        var w = JSON.parse(rec.page.walkthrough(rec.sid, String(content.walkthrough)));
        setState(rec, {walkthrough: Object.assign({seq: seq}, w)}, seq);
        return;
      }
      var answer = content.click !== undefined
        ? rec.page.click(rec.sid, String(content.click), values)
        : rec.page.fields(rec.sid, values);
      setState(rec, JSON.parse(answer), seq);
    } catch (err) {
      engineFailed(rec, err, seq);
    }
  }

  backends.sandbox = {
    send: send,
    timings: timings,
    /** SandboxModel.to_json(values) of sandbox `sid` in the page (tests compare it with
        CPython's). */
    state: function (sid, values) {
      var rec = records.find(function (r) { return r.sid === sid; });
      if (!rec || !rec.page) throw new Error("no live sandbox " + sid);
      return JSON.parse(rec.page.state(sid, JSON.stringify(values || {})));
    },
    /** Every card's verdicts of sandbox `sid`, computed now, and how long that took in ms
        (`make bench`: p8_verdicts_page_ms). */
    verdicts: function (sid) {
      var rec = records.find(function (r) { return r.sid === sid; });
      if (!rec || !rec.page) throw new Error("no live sandbox " + sid);
      var t0 = performance.now();
      var out = JSON.parse(rec.page.card_actions(sid));
      return {ms: performance.now() - t0, verdicts: out};
    }
  };
})();
