/* rulekit: the sandbox's back-end in an exported page, window.rulekit.backends.sandbox. The
   page host (host.js) gives it what the sandbox module sends (`model.send(content)`); it
   answers by setting the view's `state` and `status` traits, as the kernel's Sandbox widget
   does (mtg_rulekit.sandbox.widget), so the module can't tell the two apart.

   The engine is the real one, in Pyodide, in a Web Worker (sandbox_worker.js): the page never
   freezes while Python starts or a click is answered. Its files are loaded from the site's
   _static/sandbox/ as classic scripts holding their text or bytes (mtg_rulekit/export/live.py: a
   page opened from file:// may neither fetch files nor start a worker from one), then handed
   to a worker started from a blob of the worker's own text. Loading starts as soon as the
   module says the sandbox is in view, or the Start button is hovered or focused ({load:
   "view" | "hover" | "focus"}); the position is built then too, so pressing Start ({load:
   "start"}) only has to switch it on. Every answer comes from mtg_rulekit.sandbox.page, called in
   the worker.

   A classic script (no module, no eval): it only registers itself. */
(function () {
  "use strict";
  var root = (globalThis.rulekit = globalThis.rulekit || {});
  var backends = (root.backends = root.backends || {});
  if (backends.sandbox) return;

  var STARTING_MS = 300000; // a wasm that fails to instantiate leaves Pyodide waiting forever
  var STILL = " The walkthroughs above still work, and so does the notebook in JupyterLab.";
  var timings = []; // [what, ms since the page opened], as the runtime starts
  var runtime = null; // a promise of the engine (`call`), shared by every sandbox of the page
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
    if (typeof DecompressionStream !== "function" || typeof Worker !== "function") {
      return "this browser is too old (it has no DecompressionStream or Web Worker)";
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
      s.async = true; // parsed off the main thread, in any order (each only hands its data)
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

  function mark(what) { timings.push([what, Math.round(performance.now())]); }

  // the engine in its worker: a call is a promise of its answer (calls are answered in order)
  function startRuntime(progress) {
    var cfg = config();
    if (!cfg) return Promise.reject(new Error("this page has no live sandbox configuration"));
    var base = new URL(cfg.base, document.baseURI).href;
    var files = cfg.scripts, loaded = 0, total = files.length + 5;
    progress(0, total, "Loading the sandbox's files…");
    var scripts = files.map(function (name) {
      return loadScript(base + name).then(function () {
        loaded++;
        mark("loaded " + name);
        progress(loaded, total, "Loading the sandbox's files (" + loaded + " of " +
                 files.length + ")…");
      });
    });
    return Promise.all(scripts).then(function () {
      var assets = globalThis.rulekitAssets || {};
      globalThis.rulekitAssets = {}; // the worker keeps them
      var source = assets["sandbox_worker.js"];
      if (!source) throw new Error("the worker's script is not in the loaded files");
      var url = URL.createObjectURL(new Blob([source.text], {type: "text/javascript"}));
      var worker = new Worker(url);
      mark("worker started");
      var waiting = new Map(), next = 0;
      var ready = new Promise(function (resolve, reject) {
        worker.addEventListener("message", function (e) {
          var m = e.data || {};
          if (m.progress) {
            progress(files.length + m.progress[0], total, m.progress[2]);
          } else if (m.ready) {
            URL.revokeObjectURL(url);
            (m.timings || []).forEach(function (t) { timings.push(["worker: " + t[0], t[1]]); });
            mark("engine ready");
            resolve();
          } else if (m.failed) {
            reject(new Error(m.failed));
          } else if (waiting.has(m.id)) {
            var done = waiting.get(m.id);
            waiting.delete(m.id);
            if (m.error !== undefined) done[1](new Error(m.error));
            else done[0](m.result);
          }
        });
        worker.addEventListener("error", function (e) {
          reject(new Error("the engine's worker failed: " + ((e && e.message) || "")));
        });
      });
      worker.postMessage({boot: {assets: assets, base: base}});
      return within(STARTING_MS, "Starting Python", ready).then(function () {
        return function call(name) {
          var args = Array.prototype.slice.call(arguments, 1);
          return new Promise(function (resolve, reject) {
            var id = ++next;
            waiting.set(id, [resolve, reject]);
            worker.postMessage({id: id, call: name, args: args});
          });
        };
      });
    });
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
    mine.then(function (call) {
      rec.call = call;
      if (rec.initial !== null) return null;
      var position = Object.assign({}, rec.model.get("position") || {},
                                   {title: rec.model.get("title") || "Sandbox"});
      return call("start", JSON.stringify(position)).then(function (text) {
        var view = JSON.parse(text);
        if (view.error) throw new Error(view.error);
        rec.sid = view.id;
        rec.initial = view;
        // shown at once, still inactive: the same board, now drawn by the page's engine, so
        // pressing Start has nothing left to draw
        setState(rec, view, 0);
        mark("position built");
        return call("warm", rec.sid); // the first click's code paths, ahead of it
      });
    }).then(function () {
      mark("warmed");
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
             sid: null, initial: null, call: null};
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
        if (rec.initial !== null && !rec.loading) {
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
    var answer;
    if (content.ask !== undefined) { // the decisions of a card's action, for the picker
      var choose = typeof content.choose === "string" ? content.choose : "";
      answer = rec.call("choices", rec.sid, String(content.ask), values, choose).then(
        function (text) {
          var asked = JSON.parse(text);
          return Array.isArray(asked)
            ? {picker: {seq: seq, action: String(content.ask), values: content.values || {},
                        field: choose || null, decisions: asked}}
            : asked;
        });
    } else if (content.search !== undefined) { // free play's "add a card" box
      answer = rec.call("search", rec.sid, String(content.search)).then(function (text) {
        return {search: Object.assign({seq: seq}, JSON.parse(text))};
      });
    } else if (content.walkthrough !== undefined) { // "Save as walkthrough": a download
      answer = rec.call("walkthrough", rec.sid, String(content.walkthrough)).then(
        function (text) { return {walkthrough: Object.assign({seq: seq}, JSON.parse(text))}; });
    } else {
      answer = (content.click !== undefined
        ? rec.call("click", rec.sid, String(content.click), values)
        : rec.call("fields", rec.sid, values)).then(JSON.parse);
    }
    answer.then(function (state) { setState(rec, state, seq); },
                function (err) { engineFailed(rec, err, seq); });
  }

  function recordOf(sid) {
    var rec = records.find(function (r) { return r.sid === sid; });
    if (!rec || !rec.call) throw new Error("no live sandbox " + sid);
    return rec;
  }

  backends.sandbox = {
    send: send,
    timings: timings,
    /** A promise of SandboxModel.to_json(values) of sandbox `sid` in the page (tests compare
        it with CPython's). */
    state: function (sid, values) {
      return recordOf(sid).call("state", sid, JSON.stringify(values || {})).then(JSON.parse);
    },
    /** A promise of every card's verdicts of sandbox `sid`, computed now, and how long that
        took in ms, in the worker (`make bench`: p8_verdicts_page_ms). */
    verdicts: function (sid) {
      var t0 = performance.now();
      return recordOf(sid).call("card_actions", sid).then(function (text) {
        return {ms: performance.now() - t0, verdicts: JSON.parse(text)};
      });
    }
  };
})();
