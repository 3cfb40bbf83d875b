"""What the lesson build may overwrite and delete: only what it wrote itself.

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
- **Writing:** every page, `index.html`, `cards.html` and copied file is written whole or not at
  all (`write_atomic`: a temporary file in the same folder, then `os.replace`), so a killed
  build or a full disk leaves the old file or the new one, never half of one. A page the cache
  recorded (its lesson's page, or `index.html`/`teachers.html`/`cards.html`/`quiz.html` under `pages`, each with its size
  and first bytes: `page_record`) stays the build's to overwrite when it is a damaged copy of
  what the build wrote: empty, or shorter and starting as the recorded page did (cut by an older
  build's kill or a full disk). Other content under that name is someone's: refused. A damaged
  page is never deleted.
- **Deleting:** only a lesson page recorded in the trusted cache, by a plain file name inside
  `--out`, whose content still has the recorded sha256 and the generator tag, when its
  notebook no longer exists.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from mtg_rulekit.export.launch import LITE_DIR
from mtg_rulekit.repo.coverage import repo_root

try:
    import fcntl
except ImportError:  # not POSIX: the lock trusts the pid it holds
    fcntl = None  # type: ignore[assignment]

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
SITE_PAGES = ("index.html", "teachers.html", "cards.html", "quiz.html")  # the site's own pages, recorded under `pages`
HEAD_BYTES = 512  # of a page, kept in the cache to tell a damaged copy from someone's file
TMP_SUFFIX = ".rulekit-tmp"  # `.<name>.<pid>.rulekit-tmp`: a write in progress (write_atomic)

__all__ = ["GENERATOR_TAG", "OUT_LOCK", "BuildLock", "Cache", "OutError", "cache_dir_for", "check_out", "is_ours",
           "page_record", "remove_stale_temporaries", "sha256_file", "write_atomic"]


class OutError(ValueError):
    """`--out` (or a file in it) is not the build's to write: one line, exit 2, nothing changed."""


def sha256_file(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def write_atomic(path: Path, data: str | bytes) -> None:
    """Write `path` whole or not at all: a temporary file in the same folder (flushed to disk),
    then `os.replace` (which replaces a symlink itself, never the file it points to)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}{TMP_SUFFIX}")
    raw = data.encode("utf-8") if isinstance(data, str) else data
    try:
        with open(tmp, "wb") as fh:
            fh.write(raw)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def remove_stale_temporaries(out: Path) -> list[Path]:
    """Delete what `write_atomic` left in `out` (and its SUBDIRS) when a build was killed
    mid-write; only called while this build holds the lock, so no other build is writing."""
    gone = []
    found = list(out.glob(f".*{TMP_SUFFIX}"))
    for sub in SUBDIRS:
        if (out / sub).is_dir() and not (out / sub).is_symlink():
            found += (out / sub).rglob(f".*{TMP_SUFFIX}")
    for path in found:
        if _regular(path):
            path.unlink()
            gone.append(path)
    return gone


OUT_LOCK = ".rulekit-build.lock"
"""The lock a build holds in `--out` (deleted when it is done, so never published)."""


class BuildLock:
    """One build at a time per site and per cache: a lock file (`<cache>/build.lock`, and
    `OUT_LOCK` in `--out`) holds the running build's pid, under an exclusive `flock` the system
    drops when that process dies (even by `kill -9`), so a lock left by a dead build is simply
    taken over. Without `fcntl` the pid alone decides. `keep`: the file is emptied on release
    (kept, so a build waiting on it keeps the same file); else it is deleted, and a taker
    checks that the file it locked is still the one at the path."""

    def __init__(self, folder: Path, out: Path, *, name: str = "build.lock",
                 keep: bool = True) -> None:
        self.path, self.out, self.keep = folder / name, out, keep
        self._fh: TextIO | None = None

    @classmethod
    def for_out(cls, out: Path) -> BuildLock:
        """The lock in `--out` itself: two builds into one site refuse each other whatever
        their caches."""
        return cls(out, out, name=OUT_LOCK, keep=False)

    def acquire(self) -> None:
        """Take the lock, or raise OutError naming the live build that holds it."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        while True:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
                         | getattr(os, "O_CLOEXEC", 0), 0o644)
            fh = open(fd, "r+", encoding="utf-8")
            try:
                held = not _try_flock(fh)
                if not held and not self.keep and not _same_file(fh, self.path):
                    fh.close()  # deleted by the build that released it: lock the new one
                    continue
                fh.seek(0)
                holder = fh.read().strip()
                if not held and fcntl is None and holder.isdecimal() and \
                        int(holder) != os.getpid():
                    held = _alive(int(holder))
                if held:
                    raise OutError(f"--out {self.out} is being built by another build (pid "
                                   f"{holder or '?'}; lock {self.path}): wait for it to finish; "
                                   "nothing was changed")
                fh.seek(0)
                fh.truncate()
                fh.write(f"{os.getpid()}\n")
                fh.flush()
            except BaseException:
                fh.close()
                raise
            self._fh = fh
            return

    def release(self) -> None:
        """Empty the lock file (or delete it, unless `keep`) and unlock."""
        fh, self._fh = self._fh, None
        if fh is not None:
            if self.keep:
                fh.seek(0)
                fh.truncate()
            elif _same_file(fh, self.path):
                self.path.unlink()
            fh.close()  # closing drops the flock


def _same_file(fh: TextIO, path: Path) -> bool:
    """Whether the open file `fh` is still the file at `path`."""
    try:
        now = os.lstat(path)
    except FileNotFoundError:
        return False
    held = os.fstat(fh.fileno())
    return (now.st_dev, now.st_ino) == (held.st_dev, held.st_ino)


def _try_flock(fh: TextIO) -> bool:
    if fcntl is None:
        return True
    try:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def cache_dir_for(out: Path) -> Path:
    """The cache folder for the site in `out` (outside it, see the module docstring)."""
    resolved = out.resolve()
    tag = hashlib.sha256(str(resolved).encode()).hexdigest()[:12]
    name = re.sub(r"[^A-Za-z0-9._-]", "_", resolved.name or "root")[:40]
    root = repo_root()
    if (root / "pyproject.toml").is_file():
        base = root / "build" / "lessons"
    else:
        from mtg_rulekit.export.assets import cache_dir

        base = cache_dir() / "builds"
    return base / f"{name}-{tag}"


@dataclass
class Cache:
    """The trusted record of what the build wrote in `out` (see the module docstring)."""

    folder: Path
    out: Path
    lessons: dict[str, dict[str, object]] = field(default_factory=dict)
    pages: dict[str, dict[str, object]] = field(default_factory=dict)  # index/cards: page_record
    trusted: bool = False  # a valid record for this very `out` was read

    @property
    def file(self) -> Path:
        return self.folder / "lessons.json"

    @property
    def logs(self) -> Path:
        return self.folder / "logs"

    @property
    def executed(self) -> Path:
        """Each lesson's executed notebook (outputs and widget state), as the build ran it:
        what the notebook tests read instead of executing the lessons a second time."""
        return self.folder / "executed"

    @classmethod
    def load(cls, folder: Path, out: Path) -> Cache:
        cache = cls(folder, out)
        try:
            data = json.loads(cache.file.read_text("utf-8"))
        except (OSError, ValueError):
            return cache
        lessons = _valid(data, str(out.resolve()))
        pages = data.get("pages", {}) if isinstance(data, dict) else None
        if lessons is not None and isinstance(pages, dict) and _valid_pages(pages):
            cache.lessons, cache.pages, cache.trusted = lessons, dict(pages), True
        return cache

    def save(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        tmp = self.file.with_suffix(".tmp")
        tmp.write_text(json.dumps({"format": CACHE_FORMAT, "out": str(self.out.resolve()),
                                   "lessons": self.lessons, "pages": self.pages}, indent=1),
                       "utf-8")
        tmp.replace(self.file)

    def page_is_ours(self, stem: str) -> bool:
        """`out/<stem>.html` is the page this cache recorded, unchanged."""
        entry = self.lessons.get(stem)
        page = self.out / f"{stem}.html"
        return entry is not None and is_ours(page) and sha256_file(page) == entry.get("sha256")

    def recorded(self, page: Path) -> bool:
        """`page` (a regular file in `out`) is a damaged copy of a page this cache recorded (a
        lesson's or a site page): empty, or shorter than recorded and starting as it did. Such
        a page is rewritten, not refused (D9)."""
        if not (self.trusted and _regular(page) and page.parent == self.out):
            return False
        entry = self.lessons.get(page.stem)
        if entry is None or entry.get("page") != page.name:
            entry = self.pages.get(page.name)
        head, size = (entry or {}).get("head"), (entry or {}).get("bytes")
        if not isinstance(head, str) or not isinstance(size, int):
            return False
        data, start = page.read_bytes(), head.encode("latin-1")
        return len(data) < size and (start.startswith(data) or data.startswith(start))


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


def page_record(path: Path) -> dict[str, object]:
    """What the cache keeps of a page it wrote: its sha256, size and first `HEAD_BYTES` bytes."""
    data = path.read_bytes()
    return {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data),
            "head": data[:HEAD_BYTES].decode("latin-1")}


def _valid_pages(pages: object) -> bool:
    return isinstance(pages, dict) and all(
        name in SITE_PAGES and isinstance(rec, dict) and isinstance(rec.get("sha256"), str)
        and _HEX.fullmatch(rec["sha256"]) is not None and isinstance(rec.get("bytes"), int)
        and isinstance(rec.get("head"), str) for name, rec in pages.items())


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
    for what, folder in (("the rulekit package", root / "mtg_rulekit"),
                         ("the notebooks folder", notebooks_dir), ("diagrams/", root / "diagrams")):
        if _inside(resolved, folder.resolve()):
            raise OutError(f"--out {shown} is inside {what}: pick a folder of its own for the "
                           "site (e.g. site)")
    for own in ("index", "teachers", "cards", "quiz"):
        if own in stems:
            raise OutError(f"{notebooks_dir}/{own}.ipynb would overwrite the site's {own} "
                           "page: rename the notebook")
    if not out.exists():
        return
    pages = [*(out / name for name in SITE_PAGES), *(out / f"{s}.html" for s in stems)]
    ours = [p for p in pages if p.exists() and (cache.page_is_ours(p.stem) or is_ours(p)
                                                or cache.recorded(p))]
    # the JupyterLite site (`make lite`) may be built there first: it is not the pages' build's
    if any(p.name not in (OUT_LOCK, LITE_DIR) for p in out.iterdir()) and not ours \
            and not cache.trusted:
        raise OutError(f"--out {shown} holds files mtg_rulekit.export did not write: pick a new or "
                       "empty folder for the site (e.g. site)")
    for page in pages:
        if (page.exists() or page.is_symlink()) and page not in ours:
            raise OutError(f"{page} was not written by mtg_rulekit.export (or was changed since): "
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
