"""The live sandbox's shared files in `site/_static/sandbox/`: the real engine running in a Web
Worker of the page.

- **Pyodide** (CPython compiled to WebAssembly) from the npm package `pyodide` and **Viz.js**
  (Graphviz compiled to WebAssembly) from `@viz-js/viz`, fetched with `npm pack` at build time,
  pinned by version and by the registry's sha512 integrity, cached outside the checkout
  (`assets.cache_dir()`), wrapped once and copied into the site, their code unchanged.
- **The engine**: the standard-library-only part of `rulekit` (its flow diagrams write their
  own DOT text, `mtg_rulekit.display.flow`) zipped from the checkout at every build, and the
  worker's script (`mtg_rulekit/display/front/sandbox_worker.js`).

Why classic scripts holding each file's text or bytes: a page opened from `file://` may neither
`fetch()` files nor start a worker or import a module from a file, but it may run
`<script src>`. So each file is a classic script that hands its contents to the page
(`rulekitAssets[name]`: text, or base64 bytes), and the page's back-end
(`mtg_rulekit/display/front/sandbox_backend.js`) starts a worker from a blob of the worker's
text and passes it the rest. In the worker the unmodified ES modules (Pyodide's loader and
`pyodide.asm.mjs`, Viz.js) are imported from blob URLs, and Pyodide's two fetches (the wasm
and the standard library) are answered from the bytes; nothing runs on the page's main
thread but the scripts' loading. The same files work over any static web server. The wasm is
stored gzip-compressed (9.6 MB -> 3.5 MB) and inflated by the worker's `DecompressionStream`.

When npm or the registry can't be reached, `prepare` says why and the pages keep the picture of
the sandbox with its "needs JupyterLab" note.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import io
import json
import os
import shutil
import subprocess
import tarfile
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mtg_rulekit.export.assets import AssetError, cache_dir
from mtg_rulekit.export.npm import npm_pack, tarball_name, verified_tarball

PACKAGE_DIR = Path(__file__).resolve().parent.parent
STATIC_SUBDIR = "sandbox"  # inside site/_static/
FORMAT = 9  # bump when the files made from the packages change

# `npm view <name>@<version> dist.integrity`
PYODIDE = ("pyodide", "314.0.7", "sha512-0YvXxEhfEdpLfb/XkM2BFAeMROq0iMUX2bzzH9pOttyMcWkwq+HbE5uy"
           "uGD82LN7y2q+SNvi/6V5JEsOlD2R1A==")
VIZ = ("@viz-js/viz", "3.31.0", "sha512-r7zlQdRvcwvIpjHGgs+KNWHeE/P5/Dq7k8ZAKaMCbZqomxCBJV78gVuQ"
       "YaHzFVca+kB0mX0fMW9UFevCOBG50A==")

# the files the page loads (the page's back-end is inlined in each page); the worker's script
# and the engine are made at every build, the others once from the packages
SCRIPTS = ("worker.js", "pyodide-loader.js", "pyodide-asm.js", "pyodide-wasm.js",
           "python-stdlib.js", "viz.js", "engine.js")
ENGINE = "engine.js"
WORKER = "worker.js"
LICENSES = "LICENSES.txt"

# The engine in the page: what the sandbox model imports (no widgets, pandas, export, scenarios)
# (the page replays a position: it loads no scenario and no rulings coverage)
# (mtg_rulekit/scenario stays: "Save as walkthrough" checks its text with it; lab and repo are the
# kit's JupyterLab and course tools, never used in a page)
_SKIP_DIRS = {"export", "templates", "scenarios", "sandboxes", "lab", "repo", "__pycache__"}
_SKIP_FILES = {"display/widgets.py", "display/walkthrough/widget.py", "sandbox/widget.py",
               "display/tables/dataframes.py", "display/tables/coverage.py", "display/lesson.py",
               "display/walkthrough/reveal.py", "display/flow/diagrams.py",
               "authoring/cards.py", "authoring/new_lesson.py", "cli.py", "__main__.py",
               "core/rulings.py", "data/rulings.toml"}
_ENGINE_SUFFIXES = (".py", ".toml", ".json")
_ZIP_TIME = (2020, 1, 1, 0, 0, 0)  # fixed: the same checkout gives the same bytes


@dataclass(frozen=True)
class LiveAssets:
    """Where the live sandbox's runtime files are (`folder`), or why there are none."""

    folder: Path | None
    reason: str = ""

    @property
    def ok(self) -> bool:
        return self.folder is not None

    @property
    def key(self) -> str:
        """Part of the lesson cache key: pages with and without the live sandbox differ."""
        return f"live:{PYODIDE[1]}:{VIZ[1]}:{FORMAT}" if self.ok else "live:none"


def _tarball_name(name: str, version: str) -> str:
    return tarball_name(name, version)


def _npm_pack(name: str, version: str, dest: Path) -> Path:
    """`npm pack name@version` into `dest` (see `mtg_rulekit.export.npm`)."""
    return npm_pack(name, version, dest)


def _verified_tarball(pkg: tuple[str, str, str], npm_dir: Path) -> Path:
    name, version, integrity = pkg
    return verified_tarball(name, version, integrity, npm_dir,
                            lambda dest: _npm_pack(name, version, dest))


def _members(tarball: Path, names: set[str]) -> dict[str, bytes]:
    out: dict[str, bytes] = {}
    with tarfile.open(tarball, "r:gz") as tar:
        for member in tar.getmembers():
            if member.isfile() and member.name in names:
                fh = tar.extractfile(member)
                assert fh is not None
                out[member.name] = fh.read()
    missing = names - set(out)
    if missing:
        raise AssetError(f"{tarball.name} has no {', '.join(sorted(missing))}")
    return out


def bytes_script(name: str, data: bytes, *, compress: bool) -> bytes:
    """A classic script that hands `data` (gzip-compressed when `compress`) to the page
    script as base64: `rulekitAssets[name]`."""
    payload = gzip.compress(data, compresslevel=9, mtime=0) if compress else data
    b64 = base64.b64encode(payload).decode("ascii")
    return (f"(globalThis.rulekitAssets=globalThis.rulekitAssets||{{}})[{json.dumps(name)}]="
            f"{{gzip:{'true' if compress else 'false'},size:{len(data)},base64:\"{b64}\"}};\n"
            ).encode("ascii")


def text_script(name: str, text: str) -> bytes:
    """A classic script that hands `text` (a small script's source, JSON) to the page script,
    unchanged: `rulekitAssets[name].text` (the big modules go as gzip'd bytes, `bytes_script`:
    Viz.js holds its wasm in a string of control characters, which JSON would triple)."""
    return (f"(globalThis.rulekitAssets=globalThis.rulekitAssets||{{}})[{json.dumps(name)}]="
            f"{{text:{json.dumps(text, ensure_ascii=False)}}};\n").encode()


def _licenses(py_pkg: dict[str, bytes], viz_js: bytes) -> str:
    viz_head = viz_js.decode("utf-8", "replace").split("*/", 1)[0].lstrip("/*! \n")
    return "\n".join([
        "The live sandbox's files in this folder, and their licences",
        "=" * 60, "",
        f"pyodide-loader.js, pyodide-asm.js, pyodide-wasm.js, python-stdlib.js: Pyodide "
        f"{PYODIDE[1]}",
        f"  from the npm package {PYODIDE[0]}@{PYODIDE[1]} ({PYODIDE[2]}).",
        "  Licence: Mozilla Public License 2.0 (MPL-2.0), https://mozilla.org/MPL/2.0/ ;",
        "  source: https://github.com/pyodide/pyodide . It contains CPython "
        f"{json.loads(py_pkg['package/pyodide-lock.json'])['info']['python']} and its standard",
        "  library (Python Software Foundation License, https://docs.python.org/3/license.html)",
        "  and other software under their own licences (see the Pyodide source).",
        "  pyodide-loader.js and pyodide-asm.js hold pyodide.mjs (with an empty package",
        "  list from pyodide-lock.json) and pyodide.asm.mjs, unchanged (gzip, as base64); the",
        "  other two hold pyodide.asm.wasm (gzip) and python_stdlib.zip as base64, the modules",
        "  the sandbox imports compiled to .pyc by that Pyodide (the rest unchanged).", "",
        f"viz.js: Viz.js {VIZ[1]} (dist/viz.js of the npm package {VIZ[0]}@{VIZ[1]}, gzip,",
        f"  {VIZ[2]}). Licence: MIT. Its header says:",
        *("    " + line for line in viz_head.strip().splitlines()),
        "  Graphviz: Eclipse Public License 1.0 (https://graphviz.org/license/); Expat: MIT.", "",
        "engine.js: the rulekit engine (this kit, from its source checkout; compiled to .pyc by",
        "  the Pyodide above); standard library only.",
        "worker.js: the script of the Web Worker the engine runs in (this kit).", ""])


# Python compiles a module's source each time it is imported, and in WebAssembly that is most of
# Pyodide's start. So at build time the standard library modules that starting Python and the
# engine import are compiled once, inside the pinned Pyodide run by node, and shipped as
# (unchecked hash-based) .pyc; every other module stays source, so nothing is left out.
_NODE_SCRIPT = r"""
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
const [pkg, input, out, driver] = process.argv.slice(-4);
const { loadPyodide } = await import(pathToFileURL(pkg + "/pyodide.mjs").href);
const py = await loadPyodide({ indexURL: pkg + "/" });
const given = new Uint8Array(readFileSync(input));
py.FS.writeFile("/tmp/input.zip", given);
py.unpackArchive(given, "zip", { extractDir: "/home/pyodide/rulekit-engine" });
py.runPython(readFileSync(driver, "utf8"));
writeFileSync(out, py.FS.readFile("/tmp/output.zip"));
"""

_DRIVER = r"""
import ast, importlib, json, os, sys, zipfile
ENGINE = "/home/pyodide/rulekit-engine"
sys.path.insert(0, ENGINE)
names = set()
for root, _, files in os.walk(ENGINE):
    for name in files:
        if name.endswith(".py"):
            with open(os.path.join(root, name), encoding="utf-8") as fh:
                tree = ast.parse(fh.read())
            for node in ast.walk(tree):
                if isinstance(node, ast.Import):
                    names.update(a.name for a in node.names)
                elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                    names.add(node.module)
for name in sorted(names):
    try:
        importlib.import_module(name)
    except Exception:
        pass
from mtg_rulekit.sandbox import page as sandbox_page
from mtg_rulekit.game import Game
from mtg_rulekit.sandbox import SandboxModel
game = Game(["Alice", "Bob"])
forest = game.add("Forest")
view = json.loads(sandbox_page.start(json.dumps(SandboxModel(game).position())))
sandbox_page.click(view["id"], "tap", json.dumps({"permanent": forest.id}))
stdlib = os.path.dirname(os.path.dirname(json.__file__))
assert stdlib.endswith(".zip"), stdlib
loaded = set()
for module in list(sys.modules.values()):
    path = getattr(module, "__file__", None) or ""
    if path.startswith(stdlib + "/") and path.endswith(".py"):
        loaded.add(path[len(stdlib) + 1:])
import importlib._bootstrap_external as be
src = zipfile.ZipFile(stdlib)
# stored, not deflated: the page gzips the whole file (smaller) and reads it faster
with zipfile.ZipFile("/tmp/output.zip", "w", zipfile.ZIP_STORED) as out:
    for info in src.infolist():
        data, name = src.read(info), info.filename
        if name in loaded:
            code = compile(data, stdlib + "/" + name, "exec", dont_inherit=True)
            data, name = bytes(be._code_to_hash_pyc(code, b"\0" * 8, checked=False)), name[:-3] + ".pyc"
        entry = zipfile.ZipInfo(name, info.date_time)
        entry.external_attr = info.external_attr
        out.writestr(entry, data)
"""
NODE_TIMEOUT_S = 600


_ENGINE_DRIVER = r"""
import importlib._bootstrap_external as be, zipfile
src = zipfile.ZipFile("/tmp/input.zip")
with zipfile.ZipFile("/tmp/output.zip", "w", zipfile.ZIP_STORED) as out:  # gzipped whole
    for info in src.infolist():
        data, name = src.read(info), info.filename
        if name.endswith(".py"):
            # optimize=2: without docstrings (nothing in the page reads them; the budget of
            # p6_assets_mb, 12 MB, is kept)
            code = compile(data, "/home/pyodide/rulekit-engine/" + name, "exec", dont_inherit=True,
                           optimize=2)
            data, name = bytes(be._code_to_hash_pyc(code, b"\0" * 8, checked=False)), name[:-3] + ".pyc"
        entry = zipfile.ZipInfo(name, info.date_time)
        entry.external_attr = info.external_attr
        out.writestr(entry, data)
"""


def _in_pyodide(pkg: Path, driver: str, given: bytes, work: Path) -> bytes:
    """Run `driver` (Python) in the Pyodide package at `pkg` under node, with `given` (a zip)
    unpacked as the engine and at /tmp/input.zip; returns /tmp/output.zip. Raises OSError (no
    node) or RuntimeError (it failed)."""
    node = shutil.which("node")
    if node is None:
        raise FileNotFoundError("node is not installed")
    work.mkdir(parents=True, exist_ok=True)
    (work / "input.zip").write_bytes(given)
    (work / "driver.py").write_text(driver, "utf-8")
    (work / "run.mjs").write_text(_NODE_SCRIPT, "utf-8")
    out = work / "output.zip"
    out.unlink(missing_ok=True)
    try:
        proc = subprocess.run([node, str(work / "run.mjs"), str(pkg), str(work / "input.zip"),
                               str(out), str(work / "driver.py")], capture_output=True, text=True,
                              timeout=NODE_TIMEOUT_S, stdin=subprocess.DEVNULL, check=False)
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"Pyodide under node took more than {NODE_TIMEOUT_S} s") from None
    if proc.returncode != 0 or not out.is_file():
        lines = [ln.strip() for ln in (proc.stderr + proc.stdout).splitlines()
                 if ln.strip() and len(ln) < 1000]  # not the minified source node quotes
        detail = next((ln for ln in lines if "Error" in ln), f"node exit {proc.returncode}")
        raise RuntimeError(f"Pyodide under node failed: {detail[:300]}")
    return out.read_bytes()


def compile_stdlib(pkg: Path, engine: bytes, work: Path) -> bytes:
    """Pyodide's `python_stdlib.zip` with the modules that starting Python and the engine
    import compiled to .pyc (see above), made by the pinned Pyodide itself (at `pkg`) under
    node. Raises OSError (no node) or RuntimeError (it failed)."""
    data = _in_pyodide(pkg, _DRIVER, engine, work)
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    if "json/__init__.pyc" not in names:
        raise RuntimeError("compiling the standard library gave no .pyc")
    return data


ENGINES_KEPT = 8  # compiled engines kept in the runtime's cache (~1.4 MB each)


def compiled_engine(folder: Path, engine: bytes) -> bytes:
    """The engine zip with its modules compiled to .pyc by the runtime's Pyodide (cached in
    `folder/engines/` by the engine's hash); the source zip when that can't be done."""
    pkg = folder / "pyodide"
    if not (pkg / "pyodide.mjs").is_file():
        return engine
    key = hashlib.sha256(engine + _ENGINE_DRIVER.encode()).hexdigest()[:16]  # and how
    cached = folder / "engines" / f"{key}.zip"
    if cached.is_file():
        os.utime(cached)  # the newest used: the last to go
        return cached.read_bytes()
    try:
        data = _in_pyodide(pkg, _ENGINE_DRIVER, engine, folder / "engines" / "work")
    except (OSError, RuntimeError):
        return engine
    finally:
        shutil.rmtree(folder / "engines" / "work", ignore_errors=True)
    cached.write_bytes(data)
    # the newest few engines are kept (checkouts and branches side by side each have theirs;
    # one at a time made them compile again in turn, ~10 s each)
    kept = sorted((folder / "engines").glob("*.zip"), key=lambda p: p.stat().st_mtime_ns,
                  reverse=True)
    for old in kept[ENGINES_KEPT:]:
        old.unlink(missing_ok=True)
    return data


def fetch(cache: Path | None = None) -> Path:
    """The folder holding the runtime files made from the pinned, verified npm packages
    (fetching them with npm and making the files once)."""
    cache = cache or cache_dir()
    folder = cache / f"live-sandbox-{PYODIDE[1]}-{VIZ[1]}-f{FORMAT}"
    done = folder / "DONE"
    if done.is_file():
        return folder
    npm_dir = cache / "npm"
    py_tar = _verified_tarball(PYODIDE, npm_dir)
    viz_tar = _verified_tarball(VIZ, npm_dir)
    py = _members(py_tar, {"package/pyodide.mjs", "package/pyodide.asm.mjs",
                           "package/pyodide.asm.wasm", "package/python_stdlib.zip",
                           "package/pyodide-lock.json"})
    viz = _members(viz_tar, {"package/dist/viz.js"})["package/dist/viz.js"]
    tmp = folder.with_name(folder.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    lock = json.loads(py["package/pyodide-lock.json"])
    # the packages are not shipped (they'd come from a CDN): an empty package list
    (tmp / "pyodide-loader.js").write_bytes(
        bytes_script("pyodide.mjs", py["package/pyodide.mjs"], compress=True) +
        text_script("pyodide-lock.json", json.dumps({"info": lock["info"], "packages": {}})))
    (tmp / "pyodide-asm.js").write_bytes(
        bytes_script("pyodide.asm.mjs", py["package/pyodide.asm.mjs"], compress=True))
    (tmp / "pyodide-wasm.js").write_bytes(
        bytes_script("pyodide.asm.wasm", py["package/pyodide.asm.wasm"], compress=True))
    pkg = tmp / "pyodide"  # the package itself, for compiling with it (not shipped)
    pkg.mkdir()
    for name, data in py.items():
        (pkg / name.rsplit("/", 1)[1]).write_bytes(data)
    stdlib, compiled, note = py["package/python_stdlib.zip"], False, "compiled"
    try:
        stdlib, compiled = compile_stdlib(pkg, engine_zip(), tmp / "work"), True
    except (OSError, RuntimeError) as exc:  # slower to start, but the same sandbox
        note = f"source only ({exc})"
    shutil.rmtree(tmp / "work", ignore_errors=True)
    (tmp / "STDLIB").write_text(note + "\n", "utf-8")
    (tmp / "python-stdlib.js").write_bytes(
        bytes_script("python_stdlib.zip", stdlib, compress=compiled))
    (tmp / "viz.js").write_bytes(bytes_script("viz.mjs", viz, compress=True))
    (tmp / LICENSES).write_text(_licenses(py, viz), "utf-8")
    (tmp / "DONE").write_text("ok\n", "utf-8")
    shutil.rmtree(folder, ignore_errors=True)
    tmp.rename(folder)
    return folder


def prepare(cache: Path | None = None, *, mode: str = "auto") -> LiveAssets:
    """The runtime files, or why not: mode "auto" (without npm: none, with the reason), "off"
    (don't try), "on" (fail without them)."""
    if mode == "off":
        return LiveAssets(None, "the live sandbox was turned off (--sandbox off)")
    try:
        return LiveAssets(fetch(cache))
    except AssetError:
        raise
    except (OSError, RuntimeError) as exc:
        if mode == "on":
            raise AssetError(f"can't fetch the live sandbox's runtime with npm: {exc}") from exc
        return LiveAssets(None, str(exc))


def engine_zip() -> bytes:
    """The engine the page runs, zipped from this checkout: rulekit without its views that need
    third-party packages (deterministic bytes; nothing else, the standard library suffices)."""
    files: list[tuple[str, Path]] = []
    for path in sorted(PACKAGE_DIR.rglob("*")):
        rel = path.relative_to(PACKAGE_DIR).as_posix()
        if not path.is_file() or path.suffix not in _ENGINE_SUFFIXES or rel in _SKIP_FILES \
                or _SKIP_DIRS & set(path.relative_to(PACKAGE_DIR).parts[:-1]):
            continue
        files.append((f"mtg_rulekit/{rel}", path))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        for arc, path in files:
            info = zipfile.ZipInfo(arc, _ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, path.read_bytes())
    return buf.getvalue()


def install(live: LiveAssets, static: Path) -> str | None:
    """Copy the runtime files and the engine into `static/sandbox/` (only what changed);
    returns the folder's URL relative to `static`'s parent, or None (and removes the folder)
    without the runtime."""
    dest = static / STATIC_SUBDIR
    if not live.ok or live.folder is None:
        shutil.rmtree(dest, ignore_errors=True)
        return None
    dest.mkdir(parents=True, exist_ok=True)
    wanted = {p.name: p.read_bytes() for p in live.folder.iterdir()
              if p.is_file() and p.name not in ("DONE", "STDLIB")}
    wanted[ENGINE] = bytes_script("rulekit.zip", compiled_engine(live.folder, engine_zip()),
                                  compress=True)
    wanted[WORKER] = text_script("sandbox_worker.js", worker_text())
    for old in dest.iterdir():
        if old.name not in wanted:
            old.unlink() if old.is_file() else shutil.rmtree(old)
    for name, data in sorted(wanted.items()):
        target = dest / name
        if not target.is_file() or target.stat().st_size != len(data) or \
                target.read_bytes() != data:
            target.write_bytes(data)
    return f"{static.name}/{STATIC_SUBDIR}/"


def worker_text() -> str:
    """The worker's script (`mtg_rulekit/display/front/sandbox_worker.js`)."""
    from mtg_rulekit.display.front import script_text

    return script_text("sandbox_worker")


def page_status(live: Mapping[str, Any] | None) -> dict[str, Any]:
    """A sandbox's `status` trait in an exported page, before its engine is loaded: "idle"
    with what starting costs (the build has the runtime: `live`, its config), else "off",
    saying why its controls do nothing there."""
    if live is not None:
        mb = live["config"]["mb"]
        return {"state": "idle", "note": "Play with this position here: the real rules engine "
                f"runs in this page, offline (about {mb} MB to load once, a few seconds)."}
    return {"state": "off", "problem": "<b>This is a picture of the sandbox's starting "
            "position.</b> Its controls need the rules engine, which this site was built "
            "without: open the notebook in JupyterLab (or Notebook 7) to play."}


def size_mb(folder: Path) -> float:
    """Megabytes (10^6 bytes) of the shared sandbox files on disk."""
    return sum(p.stat().st_size for p in folder.iterdir() if p.is_file()) / 1e6


__all__ = ["PYODIDE", "SCRIPTS", "STATIC_SUBDIR", "VIZ", "LiveAssets", "bytes_script",
           "engine_zip", "fetch", "install", "page_status", "prepare", "size_mb", "text_script",
           "worker_text"]
