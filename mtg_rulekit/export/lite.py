"""`make lite` (`python -m mtg_rulekit.export.lite --out site/lite`): a JupyterLite site of the lessons,
to edit and run them in a browser with no Python installed and no server but a static one.

Built from registry packages only, nothing fetched when a student opens it:

- **Pyodide** from the npm package the exported pages' sandbox already uses (`live.PYODIDE`,
  pinned by sha512, cached), its core files in the site's `static/pyodide/`;
- **the kernel's packages** as pure wheels from PyPI (`lite_wheels.txt`: pinned by version and
  sha256, `pip download --require-hashes` into the cache), the kernel extension's own stubs
  (ipykernel, pyodide-kernel, widgetsnbextension) and **rulekit** as a wheel built from this
  checkout, all listed in a `pyodide-lock.json` written here and preloaded when the kernel starts
  (`loadPyodideOptions.packages`): every lesson opens ready to run, with no install cell;
- **Viz.js** (`live.VIZ`) beside them as `viz.js`: Graphviz can't run in Pyodide, so the
  kernel's diagrams are drawn by it (`mtg_rulekit.display.svg`);
- the lessons in the site's contents, with the settings `make lab` uses (widget state saved, no
  news pop-up).

`jupyter lite build` (jupyterlite-core with jupyterlite-pyodide-kernel, the `lite` extra) puts it
together. It needs HTTP: opened from `file://` the app does not start (a browser refuses its
module scripts there); `python -m http.server -d site/lite` serves it.
"""

from __future__ import annotations

import argparse
import email
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import time
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from mtg_rulekit.export.assets import AssetError, cache_dir
from mtg_rulekit.export.live import PYODIDE, VIZ, _members, _verified_tarball

__all__ = ["PINS", "LiteSite", "build_lite", "build_wheel", "main", "size_mb"]

ROOT = Path(__file__).resolve().parents[2]
PINS = Path(__file__).with_name("lite_wheels.txt")
PYTHON = "3.14"  # Pyodide 314's Python: the wheels are downloaded for it
KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"
KERNEL_STUBS = ("ipykernel", "pyodide_kernel", "widgetsnbextension")  # jupyterlite's own
LAB_SETTINGS = Path(__file__).resolve().parent.parent / "lab" / "settings"
# the wheel's sources, copied out of the checkout (a build writes beside its sources)
SOURCES = ("pyproject.toml", "setup.py", "README.md", "mtg_rulekit", "notebooks")
APPS = ("lab", "notebooks", "tree")
PIP_TIMEOUT_S = 300
# Pyodide's platform, to read which dependencies a wheel asks for there
_EMSCRIPTEN = {"sys_platform": "emscripten", "platform_system": "Emscripten",
               "python_version": PYTHON, "python_full_version": f"{PYTHON}.0",
               "implementation_name": "cpython", "platform_python_implementation": "CPython",
               "platform_machine": "wasm32", "os_name": "posix", "extra": ""}


@dataclass(frozen=True)
class LiteSite:
    """A built site: its folder, the packages its kernel preloads, the time it took."""

    out: Path
    packages: tuple[str, ...]
    seconds: float


def build_wheel(dest: Path, root: Path = ROOT) -> Path:
    """rulekit's wheel, built from a copy of `root`'s sources into `dest` with this Python's
    setuptools (offline: no build isolation). Raises RuntimeError when the build fails."""
    work = dest / "src"
    shutil.rmtree(work, ignore_errors=True)
    for name in SOURCES:
        path = root / name
        if path.is_dir():
            shutil.copytree(path, work / name, ignore=shutil.ignore_patterns(
                "__pycache__", ".ipynb_checkpoints"))
        else:
            work.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, work / name)
    out = dest / "dist"
    shutil.rmtree(out, ignore_errors=True)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    run = subprocess.run([sys.executable, "-m", "build", "--wheel", "--no-isolation",
                          "--skip-dependency-check", "--outdir", str(out), str(work)],
                         capture_output=True, text=True, env=env, timeout=PIP_TIMEOUT_S,
                         stdin=subprocess.DEVNULL, check=False)
    shutil.rmtree(work, ignore_errors=True)
    wheels = sorted(out.glob("*.whl"))
    if run.returncode or len(wheels) != 1:
        raise RuntimeError("building rulekit's wheel failed: "
                           + (run.stderr or run.stdout).strip()[-600:])
    return wheels[0]


def _pins() -> dict[str, str]:
    """{wheel name (normalized): sha256} of `lite_wheels.txt`."""
    out = {}
    for line in PINS.read_text("utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            spec, _, digest = line.partition(" --hash=sha256:")
            out[spec.strip()] = digest.strip()
    return out


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def fetch_wheels(cache: Path) -> list[Path]:
    """The pinned wheels in `cache`: those there with their pinned sha256 are kept, the others
    fetched with `pip download --require-hashes` (pip checks every hash). Raises AssetError on
    a wheel that isn't the pinned one, RuntimeError when pip can't fetch them."""
    pins = _pins()
    cache.mkdir(parents=True, exist_ok=True)
    have = {p.name: p for p in cache.glob("*.whl")}
    wanted = {p.name: p for p in have.values() if _sha256(p) in pins.values()}
    if len(wanted) < len(pins):
        cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
               "--platform", "any", "--python-version", PYTHON, "--implementation", "py",
               "--abi", "none", "--require-hashes", "--disable-pip-version-check",
               "--no-input", "-r", str(PINS), "-d", str(cache)]
        run = subprocess.run(cmd, capture_output=True, text=True, timeout=PIP_TIMEOUT_S,
                             stdin=subprocess.DEVNULL, check=False)
        if run.returncode:
            lines = [ln for ln in (run.stderr or run.stdout).splitlines()
                     if ln.strip() and not ln.startswith("WARNING")]
            raise RuntimeError("pip could not fetch the kernel's wheels: "
                               + " ".join(lines[-3:])[:600])
        wanted = {p.name: p for p in cache.glob("*.whl") if _sha256(p) in pins.values()}
    if len(wanted) != len(pins):
        raise AssetError(f"{cache} holds {len(wanted)} of the {len(pins)} pinned wheels")
    return sorted(wanted.values())


def _canonical(name: str) -> str:
    from packaging.utils import canonicalize_name

    return str(canonicalize_name(name))


def _lock_entry(wheel: Path, present: set[str]) -> tuple[str, dict[str, object]]:
    """A `pyodide-lock.json` package entry for a pure wheel: its name, version, file and
    sha256, the modules it provides, and the dependencies it asks for on Pyodide's platform
    (among the packages the lock has)."""
    from packaging.requirements import Requirement
    from packaging.utils import parse_wheel_filename

    name, version, _, _ = parse_wheel_filename(wheel.name)
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        meta_name = next(n for n in names if n.endswith(".dist-info/METADATA"))
        meta = email.message_from_bytes(zf.read(meta_name))
    depends = set()
    for text in meta.get_all("Requires-Dist") or []:
        req = Requirement(text)
        if (req.marker is None or req.marker.evaluate(_EMSCRIPTEN)) \
                and _canonical(req.name) in present:
            depends.add(_canonical(req.name))
    tops = {n.split("/", 1)[0] if "/" in n else n.removesuffix(".py") for n in names
            if "/" in n or n.endswith(".py")}
    imports = sorted(t for t in tops if t.isidentifier())  # not *.dist-info, *.data
    return _canonical(str(name)), {
        "name": _canonical(str(name)), "version": str(version), "file_name": wheel.name,
        "install_dir": "site", "sha256": _sha256(wheel), "package_type": "package",
        "imports": imports, "depends": sorted(depends), "unvendored_tests": False,
        "shared_library": False}


def _kernel_stubs() -> list[Path]:
    """The kernel extension's own wheels (ipykernel, pyodide-kernel, widgetsnbextension
    stubs), the newest of each, from the installed jupyterlite-pyodide-kernel."""
    import jupyterlite_pyodide_kernel

    found = []
    base = Path(jupyterlite_pyodide_kernel.__file__).parent
    roots = [base / "labextension" / "static" / "pypi",
             Path(sys.prefix) / "share" / "jupyter" / "labextensions" / "@jupyterlite"
             / "pyodide-kernel-extension" / "static" / "pypi"]
    pypi = next((r for r in roots if r.is_dir()), None)
    if pypi is None:
        raise AssetError("jupyterlite-pyodide-kernel's wheels (static/pypi) are not installed")
    from packaging.utils import parse_wheel_filename

    for stub in KERNEL_STUBS:
        wheels = sorted(pypi.glob(f"{stub}-*.whl"), key=lambda p: parse_wheel_filename(p.name)[1])
        if not wheels:
            raise AssetError(f"jupyterlite-pyodide-kernel has no {stub} wheel in {pypi}")
        found.append(wheels[-1])
    return found


def _pyodide_dir(dest: Path, cache: Path, wheels: list[Path]) -> tuple[str, ...]:
    """Pyodide's core (npm), Viz.js, the wheels and their lock file in `dest`; the names of
    the packages (all preloaded)."""
    npm_dir = cache / "npm"
    core = _members(_verified_tarball(PYODIDE, npm_dir), {
        f"package/{n}" for n in ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm",
                                 "python_stdlib.zip", "pyodide-lock.json")})
    viz = _members(_verified_tarball(VIZ, npm_dir), {"package/dist/viz.js"})
    dest.mkdir(parents=True, exist_ok=True)
    for name, data in core.items():
        if not name.endswith("pyodide-lock.json"):
            (dest / name.rsplit("/", 1)[1]).write_bytes(data)
    (dest / "viz.js").write_bytes(viz["package/dist/viz.js"])
    from packaging.utils import parse_wheel_filename

    present = {_canonical(str(parse_wheel_filename(w.name)[0])) for w in wheels}
    packages = {}
    for wheel in wheels:
        shutil.copyfile(wheel, dest / wheel.name)
        name, entry = _lock_entry(wheel, present)
        packages[name] = entry
    info = json.loads(core["package/pyodide-lock.json"])["info"]
    lock = {"info": info, "packages": dict(sorted(packages.items()))}
    (dest / "pyodide-lock.json").write_text(json.dumps(lock, indent=1) + "\n", "utf-8")
    return tuple(sorted(packages))


def _settings() -> dict[str, object]:
    """`make lab`'s JupyterLab settings (mtg_rulekit/lab/settings): widget state saved in the
    notebook, no news pop-up."""
    merged: dict[str, dict[str, object]] = {}
    for path in [*sorted((LAB_SETTINGS / "overrides.d").glob("*.json")),
                 LAB_SETTINGS / "overrides.json"]:
        for plugin, values in json.loads(path.read_text("utf-8")).items():
            merged.setdefault(plugin, {}).update(values)
    return dict(merged)


def build_lite(out: Path, notebooks: Path, *, cache: Path | None = None,
               work: Path | None = None,
               echo: Callable[[str], None] = print) -> LiteSite:
    """Build the JupyterLite site of the lesson notebooks in `notebooks/` into `out` (replaced
    whole). `cache`: where the npm tarballs and wheels are kept (`assets.cache_dir()`);
    `work`: the build's own folder (build/lite in the checkout)."""
    started = time.perf_counter()
    out, notebooks = out.resolve(), notebooks.resolve()  # jupyter lite runs in its own folder
    cache = cache or cache_dir()
    work = work or ROOT / "build" / "lite"
    lessons = sorted(notebooks.glob("[0-9][0-9]_*.ipynb"))
    if not lessons:
        raise FileNotFoundError(f"no lesson notebooks in {notebooks}")
    echo("mtg_rulekit.export.lite: fetching the kernel's wheels (pip, pinned by sha256)")
    wheels = fetch_wheels(cache / "lite-wheels")
    echo("mtg_rulekit.export.lite: building rulekit's wheel")
    own = build_wheel(work / "wheel")
    lite_dir = work / "src"
    shutil.rmtree(lite_dir, ignore_errors=True)
    (lite_dir / "files").mkdir(parents=True)
    for path in lessons:
        shutil.copyfile(path, lite_dir / "files" / path.name)
    packages = _pyodide_dir(lite_dir / "static" / "pyodide", cache,
                            [*wheels, *_kernel_stubs(), own])
    config = {"jupyter-lite-schema-version": 0, "jupyter-config-data": {
        "appName": "rulekit lessons",
        "litePluginSettings": {KERNEL_PLUGIN: {
            "disablePyPIFallback": True, "pipliteUrls": [],
            "loadPyodideOptions": {"packages": list(packages)}}}}}
    (lite_dir / "jupyter-lite.json").write_text(json.dumps(config, indent=1) + "\n", "utf-8")
    (lite_dir / "overrides.json").write_text(json.dumps(_settings(), indent=1) + "\n", "utf-8")
    jupyter = Path(sys.executable).with_name("jupyter")
    tmp_out = out.with_name(out.name + ".tmp")
    shutil.rmtree(tmp_out, ignore_errors=True)
    cmd = [str(jupyter) if jupyter.exists() else "jupyter", "lite", "build",
           "--lite-dir", str(lite_dir), "--output-dir", str(tmp_out),
           "--contents", str(lite_dir / "files"), "--no-sourcemaps",
           "--no-unused-shared-packages", "--source-date-epoch", "1577836800",
           *(a for app in APPS for a in ("--apps", app))]
    echo("mtg_rulekit.export.lite: jupyter lite build")
    env = dict(os.environ, JUPYTERLITE_NO_LIBARCHIVE="1")
    run = subprocess.run(cmd, capture_output=True, text=True, cwd=lite_dir, env=env,
                         timeout=PIP_TIMEOUT_S, stdin=subprocess.DEVNULL, check=False)
    if run.returncode:
        raise RuntimeError("jupyter lite build failed: " + (run.stderr or run.stdout)[-1500:])
    (tmp_out / ".jupyterlite.doit.db").unlink(missing_ok=True)
    shutil.rmtree(out, ignore_errors=True)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp_out.rename(out)
    seconds = time.perf_counter() - started
    echo(f"mtg_rulekit.export.lite: {len(lessons)} lessons, {len(packages)} packages preloaded, "
         f"{size_mb(out):.1f} MB in {seconds:.1f} s -> {out}/ (serve it over HTTP: "
         f"python -m http.server -d {out})")
    return LiteSite(out, packages, seconds)


def size_mb(folder: Path) -> float:
    """Megabytes (10^6 bytes) of every file under `folder`."""
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) / 1e6


def lesson_url(stem: str) -> str:
    """A lesson's address inside the site (the Notebook app, the notebook opened)."""
    return f"notebooks/index.html?path={stem}.ipynb"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m mtg_rulekit.export.lite",
        description="Build a JupyterLite site of the lessons (make lite).")
    parser.add_argument("--out", type=Path, default=Path("site") / "lite",
                        help="output folder, replaced whole (site/lite)")
    parser.add_argument("--notebooks", type=Path, default=Path("notebooks"),
                        help="folder of lesson notebooks (notebooks)")
    args = parser.parse_args(argv)
    try:
        build_lite(args.out, args.notebooks)
    except (AssetError, RuntimeError, OSError, tarfile.TarError) as exc:
        print(f"mtg_rulekit.export.lite: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
