"""What the lesson build may overwrite and delete (issue 13): only what it wrote itself.

- **The cache** (`lessons.json`, kernel logs) lives outside the published folder: in the
  checkout's `build/lessons/<out name>-<hash of out's path>/` (removed by `make clean`), or, for a
  rulekit installed outside a checkout, under `assets.cache_dir()/builds/`. It records the
  resolved `--out` it belongs to and, per lesson, its page's plain file name and sha256. A cache
  that doesn't match this shape exactly is ignored, never obeyed.
- **`--out`** must be a folder of its own: not a file, not the checkout (or a folder holding it),
  not inside the package, the notebooks or diagrams; when it already holds files, some of them
  must be rulekit's (a page with the build's generator tag, or this out's cache).
- **Overwriting:** a page, `index.html` or any file under `_static/` and `diagrams/` is written
  only if it is new, or a regular file (no symlink) this build wrote: recorded in the cache with
  the same sha256, or carrying the generator tag.
- **Deleting:** only a lesson page recorded in the trusted cache, by a plain file name inside
  `--out`, whose content still has the recorded sha256 and the generator tag, when its
  notebook no longer exists.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from rulekit.repo.coverage import repo_root

CACHE_FORMAT = 2
GENERATOR = "rulekit.export"
GENERATOR_TAG = f'<meta name="generator" content="{GENERATOR}">'
# the tag as written (the index) or as nbconvert re-serialises it (lesson pages: attributes
# sorted); pages built before the tag existed: the lesson template's bar, the index's title
_MARKS = re.compile(r'<meta (?:name="generator" content="rulekit\.export"|content="rulekit\.export"'
                    r' name="generator")/?>|<nav aria-label="Lessons" class="rk-bar">'
                    r"|<title>rulekit lessons</title>")
_HEX = re.compile(r"[0-9a-f]{64}")
SUBDIRS = ("_static", "diagrams")  # the folders the build writes into

__all__ = ["GENERATOR_TAG", "Cache", "OutError", "cache_dir_for", "check_out", "is_ours",
           "sha256_file"]


class OutError(ValueError):
    """`--out` (or a file in it) is not the build's to write: one line, exit 2, nothing changed."""


def sha256_file(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def cache_dir_for(out: Path) -> Path:
    """The cache folder for the site in `out` (outside it, see the module docstring)."""
    resolved = out.resolve()
    tag = hashlib.sha256(str(resolved).encode()).hexdigest()[:12]
    name = re.sub(r"[^A-Za-z0-9._-]", "_", resolved.name or "root")[:40]
    root = repo_root()
    if (root / "pyproject.toml").is_file():
        base = root / "build" / "lessons"
    else:
        from rulekit.export.assets import cache_dir

        base = cache_dir() / "builds"
    return base / f"{name}-{tag}"


@dataclass
class Cache:
    """The trusted record of what the build wrote in `out` (see the module docstring)."""

    folder: Path
    out: Path
    lessons: dict[str, dict[str, object]] = field(default_factory=dict)
    trusted: bool = False  # a valid record for this very `out` was read

    @property
    def file(self) -> Path:
        return self.folder / "lessons.json"

    @property
    def logs(self) -> Path:
        return self.folder / "logs"

    @classmethod
    def load(cls, folder: Path, out: Path) -> Cache:
        cache = cls(folder, out)
        try:
            data = json.loads(cache.file.read_text("utf-8"))
        except (OSError, ValueError):
            return cache
        lessons = _valid(data, str(out.resolve()))
        if lessons is not None:
            cache.lessons, cache.trusted = lessons, True
        return cache

    def save(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        tmp = self.file.with_suffix(".tmp")
        tmp.write_text(json.dumps({"format": CACHE_FORMAT, "out": str(self.out.resolve()),
                                   "lessons": self.lessons}, indent=1), "utf-8")
        tmp.replace(self.file)

    def page_is_ours(self, stem: str) -> bool:
        """`out/<stem>.html` is the page this cache recorded, unchanged."""
        entry = self.lessons.get(stem)
        page = self.out / f"{stem}.html"
        return entry is not None and is_ours(page) and sha256_file(page) == entry.get("sha256")


def _valid(data: object, out: str) -> dict[str, dict[str, object]] | None:
    """The lessons of a cache file, or None when anything in it is off."""
    if not isinstance(data, dict) or data.get("format") != CACHE_FORMAT or data.get("out") != out:
        return None
    lessons = data.get("lessons")
    if not isinstance(lessons, dict):
        return None
    for stem, entry in lessons.items():
        if not (isinstance(stem, str) and isinstance(entry, dict) and _plain(stem)
                and entry.get("page") == f"{stem}.html"
                and isinstance(entry.get("sha256"), str) and _HEX.fullmatch(entry["sha256"])
                and isinstance(entry.get("key"), str) and isinstance(entry.get("notebook"), str)):
            return None
    return lessons


def _plain(stem: str) -> bool:
    """A lesson page's stem is a plain file name: no folder, no `..`, not the index."""
    return (0 < len(stem) <= 200 and stem not in (".", "..", "index")
            and not any(c in stem for c in "/\\\0") and not stem.startswith("."))


def _regular(path: Path) -> bool:
    return path.is_file() and not path.is_symlink()


def is_ours(path: Path) -> bool:
    """A regular file carrying the build's generator tag (or an older build's marks)."""
    if not _regular(path):
        return False
    head = path.read_bytes()[:200_000].decode("utf-8", "replace")
    return _MARKS.search(head) is not None


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def check_out(out: Path, stems: list[str], cache: Cache, notebooks_dir: Path) -> None:
    """Raise OutError unless the build may write the site `stems` in `out` (see module doc)."""
    shown = str(out)
    if out.is_symlink() or (out.exists() and not out.is_dir()):
        raise OutError(f"--out {shown} is a file, not a folder: pick a folder for the site "
                       "(e.g. site)")
    resolved = out.resolve()
    root = repo_root()
    for what, folder in (("the rulekit checkout", root), ("the notebooks folder", notebooks_dir)):
        if _inside(folder.resolve(), resolved):
            raise OutError(f"--out {shown} is (or holds) {what}: pick a folder of its own for "
                           "the site (e.g. site)")
    for what, folder in (("the rulekit package", root / "rulekit"),
                         ("the notebooks folder", notebooks_dir), ("diagrams/", root / "diagrams")):
        if _inside(resolved, folder.resolve()):
            raise OutError(f"--out {shown} is inside {what}: pick a folder of its own for the "
                           "site (e.g. site)")
    for own in ("index", "cards"):
        if own in stems:
            raise OutError(f"{notebooks_dir}/{own}.ipynb would overwrite the site's {own} "
                           "page: rename the notebook")
    if not out.exists():
        return
    pages = [out / "index.html", out / "cards.html", *(out / f"{s}.html" for s in stems)]
    ours = [p for p in pages if p.exists() and (cache.page_is_ours(p.stem) or is_ours(p))]
    if any(out.iterdir()) and not ours and not cache.trusted:
        raise OutError(f"--out {shown} holds files rulekit.export did not write: pick a new or "
                       "empty folder for the site (e.g. site)")
    for page in pages:
        if (page.exists() or page.is_symlink()) and page not in ours:
            raise OutError(f"{page} was not written by rulekit.export (or was changed since): "
                           "move it away or pick another --out; nothing was changed")
    for sub in SUBDIRS:
        folder = out / sub
        if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
            raise OutError(f"{folder} is not a folder the build made: move it away or pick "
                           "another --out; nothing was changed")
        for inner in sorted(folder.rglob("*")) if folder.is_dir() else ():
            if inner.is_symlink():
                raise OutError(f"{inner} is a symlink: the build writes only its own files "
                               "in --out; move it away; nothing was changed")
