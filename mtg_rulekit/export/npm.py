"""Fetching a pinned npm package at build time: `npm pack name@version` into a cache folder
(the widget manager, the live sandbox's runtime, axe-core all come this way), checked against
its pinned sha512 integrity in one place (`verified_tarball`)."""

from __future__ import annotations

import base64
import hashlib
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

NPM_TIMEOUT_S = 90


class AssetError(RuntimeError):
    """A package was fetched but is not the pinned one (integrity mismatch, missing files)."""


def integrity_of(data: bytes) -> str:
    """npm's integrity string of a tarball: "sha512-" and the base64 digest."""
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode("ascii")


def verified_tarball(name: str, version: str, integrity: str, npm_dir: Path,
                     pack: Callable[[Path], Path]) -> Path:
    """The tarball of `name@version` in `npm_dir`, with the pinned `integrity`: the cached one
    if it matches, else fetched again with `pack(npm_dir)`. A fetched tarball that doesn't
    match is kept aside as `.tgz.rejected` and refused (AssetError)."""
    tarball = npm_dir / tarball_name(name, version)
    if not tarball.is_file() or integrity_of(tarball.read_bytes()) != integrity:
        tarball.unlink(missing_ok=True)
        tarball = pack(npm_dir)
    got = integrity_of(tarball.read_bytes())
    if got != integrity:
        bad = tarball.with_suffix(".tgz.rejected")
        tarball.replace(bad)
        raise AssetError(f"{name}@{version} from npm has integrity {got[:30]}..., not the "
                         f"pinned {integrity[:30]}...: refusing it (kept as {bad})")
    return tarball


def tarball_name(name: str, version: str) -> str:
    """The file `npm pack` writes: "@scope/pkg" 1.0 -> "scope-pkg-1.0.tgz"."""
    return f"{name.lstrip('@').replace('/', '-')}-{version}.tgz"


def npm_pack(name: str, version: str, dest: Path) -> Path:
    """`npm pack name@version` into `dest`; returns the tarball. Raises OSError (no npm) or
    RuntimeError (npm failed: an unreachable registry, a timeout...)."""
    npm = shutil.which("npm")
    if npm is None:
        raise FileNotFoundError("npm is not installed")
    dest.mkdir(parents=True, exist_ok=True)
    cmd = [npm, "pack", f"{name}@{version}", "--pack-destination", str(dest), "--json",
           "--prefer-offline", "--fetch-retries=1", "--fetch-timeout=20000", "--loglevel=error",
           "--no-audit", "--no-fund", "--ignore-scripts"]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=NPM_TIMEOUT_S,
                              stdin=subprocess.DEVNULL, check=False)
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"npm pack {name}@{version} timed out after {NPM_TIMEOUT_S} s") \
            from None
    tarball = dest / tarball_name(name, version)
    if proc.returncode != 0 or not tarball.is_file():
        lines = [ln.strip() for ln in (proc.stderr or proc.stdout).splitlines() if ln.strip()]
        detail = next((ln for ln in lines if "ERR" in ln or "error" in ln.lower()),
                      lines[-1] if lines else f"exit {proc.returncode}")
        raise RuntimeError(f"npm pack {name}@{version} failed: {detail}")
    return tarball
