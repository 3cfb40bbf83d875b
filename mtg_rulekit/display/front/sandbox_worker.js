/* rulekit: the live sandbox's engine in a Web Worker of an exported page, so the page never
   freezes while Python starts or a click is answered. The page's back-end
   (sandbox_backend.js) starts it from a blob of this text and sends it, once, the files it
   needs ({boot: {assets, base}}: Pyodide's loader and pyodide.asm.mjs, the wasm, the
   standard library, the engine and Viz.js, as base64 gzip); it answers {progress},
   {ready, timings} or {failed}, then one {id, result} or {id, error} per {id, call, args}
   (a function of mtg_rulekit.sandbox.page, called in order).

   A classic worker: a page opened from file:// can't start a module worker. The ES modules are
   imported unchanged from blob URLs (`import()` works in a classic worker); Pyodide probes
   `importScripts` to refuse classic workers, so it is hidden first (Pyodide loads nothing
   else: it is given its module, and its two fetches, the wasm and the standard library, are
   answered from the bytes here). */
"use strict";

self.importScripts = undefined;

const timings = []; // [what, ms since the worker started]
let page = null;    // mtg_rulekit.sandbox.page (a PyProxy)

function mark(what) { timings.push([what, Math.round(performance.now())]); }

function progress(done, total, text) {
  mark(text);
  self.postMessage({progress: [done, total, text]});
}

async function bytesOf(asset, name) {
  if (!asset) throw new Error(name + " is not in the loaded files");
  let bytes = typeof Uint8Array.fromBase64 === "function"
    ? Uint8Array.fromBase64(asset.base64) : decode(asset.base64);
  if (asset.gzip) {
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  }
  if (bytes.length !== asset.size) throw new Error(name + " is damaged");
  return bytes;
}

// base64 -> bytes where the engine has no Uint8Array.fromBase64 (data, never code)
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const LOOKUP = new Uint8Array(256);
for (let a = 0; a < ALPHABET.length; a++) LOOKUP[ALPHABET.charCodeAt(a)] = a;

function decode(text) {
  const n = text.length;
  const pad = text.endsWith("==") ? 2 : text.endsWith("=") ? 1 : 0;
  const out = new Uint8Array((n * 3) / 4 - pad);
  let j = 0;
  for (let i = 0; i < n; i += 4) {
    const v = (LOOKUP[text.charCodeAt(i)] << 18) | (LOOKUP[text.charCodeAt(i + 1)] << 12) |
      (LOOKUP[text.charCodeAt(i + 2)] << 6) | LOOKUP[text.charCodeAt(i + 3)];
    out[j++] = v >> 16;
    if (j < out.length) out[j++] = (v >> 8) & 255;
    if (j < out.length) out[j++] = v & 255;
  }
  return out;
}

async function moduleOf(asset, name) {
  // an ES module's bytes (gzip), unchanged, imported from a blob URL
  const url = URL.createObjectURL(new Blob([await bytesOf(asset, name)],
                                           {type: "text/javascript"}));
  try {
    return await import(url);
  } finally {
    URL.revokeObjectURL(url);
  }
}

async function boot({assets, base}) {
  const total = 5;
  progress(0, total, "Unpacking Python…");
  const answers = {
    "pyodide.asm.wasm": [await bytesOf(assets["pyodide.asm.wasm"], "pyodide.asm.wasm"),
                         "application/wasm"],
    "python_stdlib.zip": [await bytesOf(assets["python_stdlib.zip"], "python_stdlib.zip"),
                          "application/zip"],
  };
  const engine = bytesOf(assets["rulekit.zip"], "rulekit.zip");
  const vizReady = moduleOf(assets["viz.mjs"], "viz.mjs").then((m) => m.instance());
  progress(1, total, "Starting Python…");
  const realFetch = self.fetch;
  self.fetch = (input, init) => {
    const url = typeof input === "string" ? input : (input && input.url) || String(input);
    const hit = answers[url.split(/[?#]/)[0].split("/").pop()];
    return hit ? Promise.resolve(new Response(hit[0], {headers: {"Content-Type": hit[1]}}))
      : realFetch.call(self, input, init);
  };
  let py;
  try {
    const {loadPyodide} = await moduleOf(assets["pyodide.mjs"], "pyodide.mjs");
    const asm = await moduleOf(assets["pyodide.asm.mjs"], "pyodide.asm.mjs");
    py = await loadPyodide({
      indexURL: base, packageBaseUrl: base, createPyodideModule: asm.default,
      lockFileContents: JSON.parse(assets["pyodide-lock.json"].text),
      stdout: (line) => console.log(line), stderr: (line) => console.log(line),
    });
  } finally {
    self.fetch = realFetch;
  }
  mark("python started");
  progress(2, total, "Loading the rules engine…");
  py.unpackArchive(await engine, "zip", {extractDir: "/home/pyodide/rulekit-engine"});
  py.runPython("import sys; sys.path.insert(0, '/home/pyodide/rulekit-engine')");
  page = py.pyimport("mtg_rulekit.sandbox.page");
  mark("engine imported");
  progress(3, total, "Loading the diagram renderer…");
  const viz = await vizReady;
  // Viz.js sizes text with the metrics of a font it knows by name: a list of fallbacks
  // ("DejaVu Sans,Arial,...") is not one, so it would size for Times and the text (drawn in
  // the page's font) would overflow its boxes. It knows the first family of ours.
  self.rulekitRenderDot = (dot) =>
    viz.renderString(dot.replace(/fontname="([^",]+),[^"]*"/g, 'fontname="$1"'),
                     {format: "svg"});
  mark("diagram renderer ready");
  self.postMessage({ready: true, timings});
}

const CALLS = ["start", "click", "fields", "state", "choices", "walkthrough", "search",
               "card_actions", "warm"];

self.onmessage = (e) => {
  const m = e.data || {};
  if (m.boot) {
    boot(m.boot).catch((err) => self.postMessage({failed: String((err && err.message) || err)}));
    return;
  }
  if (!CALLS.includes(m.call) || !page) {
    self.postMessage({id: m.id, error: "the engine has no call " + String(m.call)});
    return;
  }
  try {
    const t0 = performance.now();
    const result = page[m.call](...(m.args || []));
    self.postMessage({id: m.id, result, ms: performance.now() - t0});
  } catch (err) {
    self.postMessage({id: m.id, error: String((err && err.message) || err)});
  }
};
