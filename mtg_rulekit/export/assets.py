"""The widget manager that exported lessons load: `@jupyter-widgets/html-manager`'s standalone
`dist/embed.js` and its font files, fetched from the npm registry at build time (`npm pack`),
pinned by version and by the registry's sha512 integrity, cached outside the git checkout and
copied into the site's shared folder `_static/html-manager/`.

When npm is missing or the registry can't be reached, `prepare` says so in one line and returns
the CDN mode: the pages then load the widget manager from nbconvert's default public CDN and need
a network.

    tools/fetch-widget-bundle               # fetch into the cache ahead of a build
"""

from __future__ import annotations

import os
import shutil
import sys
import tarfile
from dataclasses import dataclass
from pathlib import Path

from mtg_rulekit.export.npm import AssetError, integrity_of, npm_pack, verified_tarball

PACKAGE = "@jupyter-widgets/html-manager"
# html-manager 1.0.x is what ipywidgets 8 pages ask for (nbconvert: `^1.0.1`).
VERSION = "1.0.15"
# `npm view @jupyter-widgets/html-manager@1.0.15 dist.integrity`
INTEGRITY = ("sha512-5thBIV6ymNgmPVOHvzx+gGy8ZSKmSazhtGw4/c4xJDVzRhG9PTeQsRjF3FUTopvFi//SABeNz1yp47b"
             "CrJ3CQA==")
TARBALL = f"jupyter-widgets-html-manager-{VERSION}.tgz"
FONT_SUFFIXES = (".woff2", ".woff", ".ttf", ".eot", ".svg")
STATIC_SUBDIR = "html-manager"  # inside site/_static/


@dataclass(frozen=True)
class WidgetAssets:
    """How pages load the widget manager. `offline`: from `_static/` (files in `folder`);
    otherwise from the public CDN, and `reason` says why."""

    offline: bool
    folder: Path | None = None
    reason: str = ""

    @property
    def key(self) -> str:
        """Part of the lesson cache key: pages differ between the two modes."""
        return f"offline:{VERSION}" if self.offline else f"cdn:{VERSION}"


def cache_dir() -> Path:
    """Where fetched packages are kept (outside git): $RULEKIT_CACHE, else
    $XDG_CACHE_HOME/rulekit, else ~/.cache/rulekit."""
    if os.environ.get("RULEKIT_CACHE"):
        return Path(os.environ["RULEKIT_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "rulekit"


def _npm_pack(dest: Path) -> Path:
    """`npm pack` the pinned version into `dest` (see `mtg_rulekit.export.npm`)."""
    return npm_pack(PACKAGE, VERSION, dest)


def _extract(tarball: Path, folder: Path) -> None:
    """Unpack embed.js, its licence and its font files into `folder` (atomically)."""
    tmp = folder.with_name(folder.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    with tarfile.open(tarball, "r:gz") as tar:
        for member in tar.getmembers():
            name = member.name
            if not member.isfile() or not name.startswith("package/dist/") or name.count("/") != 2:
                continue
            base = name.rsplit("/", 1)[1]
            if base in ("embed.js", "embed.js.LICENSE.txt") or base.endswith(FONT_SUFFIXES):
                fh = tar.extractfile(member)
                assert fh is not None
                (tmp / base).write_bytes(fh.read())
    embed = tmp / "embed.js"
    if not embed.is_file():
        raise AssetError(f"{tarball.name} has no dist/embed.js")
    text = embed.read_text("utf-8", errors="replace")
    missing = [p.name for p in tmp.iterdir() if p.suffix in FONT_SUFFIXES and p.name not in text]
    for name in missing:  # font files embed.js never asks for
        (tmp / name).unlink()
    (tmp / "README.txt").write_text(
        f"{PACKAGE} {VERSION} (BSD-3-Clause, Jupyter Project): dist/embed.js and the font files\n"
        f"it loads, unpacked from the npm tarball {TARBALL} ({INTEGRITY}).\n", "utf-8")
    shutil.rmtree(folder, ignore_errors=True)
    tmp.rename(folder)


def fetch(cache: Path | None = None) -> Path:
    """The folder holding the pinned, verified bundle (fetching it with npm if needed)."""
    cache = cache or cache_dir()
    npm_dir = cache / "npm"
    folder = cache / f"html-manager-{VERSION}"
    tarball = npm_dir / TARBALL
    if (folder / "embed.js").is_file() and (folder / "README.txt").is_file() and \
            tarball.is_file() and integrity_of(tarball.read_bytes()) == INTEGRITY:
        return folder
    tarball = verified_tarball(PACKAGE, VERSION, INTEGRITY, npm_dir, lambda d: _npm_pack(d))
    _extract(tarball, folder)
    return folder


def prepare(cache: Path | None = None, *, mode: str = "auto") -> WidgetAssets:
    """Offline assets when possible. mode: "auto" (offline, else CDN with a one-line notice),
    "offline" (fail when the bundle can't be fetched), "cdn" (don't try npm)."""
    if mode == "cdn":
        return WidgetAssets(False, reason="asked for the CDN (--widgets cdn)")
    try:
        return WidgetAssets(True, fetch(cache))
    except AssetError:
        raise
    except (OSError, RuntimeError) as exc:
        if mode == "offline":
            raise AssetError(f"can't fetch {PACKAGE}@{VERSION} with npm: {exc}") from exc
        return WidgetAssets(False, reason=f"{exc}")


def install(assets: WidgetAssets, static: Path) -> str | None:
    """Copy the bundle into `static/html-manager/` (only what changed); returns embed.js's path
    relative to `static`'s parent, or None in CDN mode."""
    if not assets.offline or assets.folder is None:
        return None
    dest = static / STATIC_SUBDIR
    dest.mkdir(parents=True, exist_ok=True)
    wanted = {p.name for p in assets.folder.iterdir() if p.is_file()}
    for old in dest.iterdir():
        if old.name not in wanted:
            old.unlink() if old.is_file() else shutil.rmtree(old)
    for name in sorted(wanted):
        src, dst = assets.folder / name, dest / name
        if not dst.is_file() or dst.stat().st_size != src.stat().st_size or \
                dst.read_bytes() != src.read_bytes():
            shutil.copyfile(src, dst)
    return f"{static.name}/{STATIC_SUBDIR}/embed.js"


def main(argv: list[str] | None = None) -> int:
    """Fetch (or find) the bundle in the cache and print its folder."""
    del argv
    try:
        folder = fetch()
    except (OSError, RuntimeError) as exc:
        print(f"fetch-widget-bundle: {exc}", file=sys.stderr)
        return 1
    size = sum(p.stat().st_size for p in folder.iterdir()) / 1e6
    print(f"{PACKAGE}@{VERSION} ({INTEGRITY[:20]}...) in {folder} ({size:.1f} MB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


__all__ = ["INTEGRITY", "PACKAGE", "VERSION", "AssetError", "WidgetAssets", "cache_dir", "fetch",
           "install", "integrity_of", "prepare"]
