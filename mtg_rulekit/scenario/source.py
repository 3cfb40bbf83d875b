"""Reading a scenario file safely: size, binary and nesting checks, TOML parsing, and a map from
each table and key to its line (tomllib gives no positions, so error messages need our own).

Everything here refuses bad input quickly with a `ScenarioError` naming `file:line`.
"""

from __future__ import annotations

import os
import re
import stat
import tomllib
from dataclasses import dataclass, field
from typing import Any

from mtg_rulekit.core.errors import ScenarioError

MAX_BYTES = 512 * 1024  # a scenario is a page or two of text; anything bigger is refused unread
_LIMIT = "512 KB"
MAX_NODES = 50_000  # values in the whole file (a long lesson has a few hundred)
MAX_DEPTH = 8  # arrays / inline tables inside one another on a value line

Path_ = tuple[str | int, ...]

_BARE = r"[A-Za-z0-9_-]+"
_BASIC = r'"(?:[^"\\\n]|\\.)*"'
_LITERAL = r"'[^'\n]*'"
_KEY_PART = rf"(?:{_BARE}|{_BASIC}|{_LITERAL})"
_KEY = rf"{_KEY_PART}(?:\s*\.\s*{_KEY_PART})*"
_HEADER_RE = re.compile(rf"^\s*(\[\[?)\s*({_KEY})\s*(\]\]?)\s*(?:#.*)?$")
_KEYLINE_RE = re.compile(rf"^\s*({_KEY})\s*=")
_PART_RE = re.compile(_KEY_PART)
_SPECIAL = re.compile(r"[\[\]{}\"'#]")
_TOML_POS = re.compile(r"\(at line (\d+), column (\d+)\)")


def _split_key(text: str) -> tuple[str, ...]:
    parts = []
    for m in _PART_RE.finditer(text):
        raw = m.group(0)
        if raw.startswith('"'):
            try:
                parts.append(tomllib.loads(f"k = {raw}")["k"])
            except tomllib.TOMLDecodeError:
                parts.append(raw[1:-1])
        elif raw.startswith("'"):
            parts.append(raw[1:-1])
        else:
            parts.append(raw)
    return tuple(parts)


@dataclass
class LineMap:
    """Where each table, array-of-tables entry and key starts: `line(path)` gives the line of
    the longest known prefix of `path` (1 when nothing is known)."""

    lines: dict[Path_, int] = field(default_factory=dict)

    def line(self, path: Path_) -> int:
        path = tuple(path)
        while path:
            if path in self.lines:
                return self.lines[path]
            path = path[:-1]
        return self.lines.get((), 1)

    def has(self, path: Path_) -> bool:
        return tuple(path) in self.lines


def _value_state(text: str, start: int, depth: int, in_ml: str | None, name: str,
                 lineno: int) -> tuple[int, str | None]:
    """Scan a value (or its continuation) from `start`: returns the bracket depth and the open
    multi-line string delimiter at the end of the line. Refuses absurd nesting."""
    i, n = start, len(text)
    while i < n:
        if in_ml:
            end = text.find(in_ml, i)
            if end < 0:
                return depth, in_ml
            # a backslash-escaped quote inside """...""" is rare; good enough for positions
            i = end + 3
            in_ml = None
            continue
        m = _SPECIAL.search(text, i)
        if m is None:
            break
        i = m.start()
        c = text[i]
        if c == "#":
            break
        if c in "\"'":
            if text.startswith(c * 3, i):
                in_ml = c * 3
                i += 3
                continue
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if (c == '"' and text[j] == "\\") else 1
            i = j + 1
            continue
        if c in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise ScenarioError(
                    f"values are nested more than {MAX_DEPTH} levels deep: a scenario never "
                    "needs that", path=name, line=lineno)
        elif c in "]}":
            depth = max(0, depth - 1)
        i += 1
    return depth, in_ml


def scan(text: str, name: str) -> LineMap:
    """Build the line map, refusing nesting deeper than MAX_DEPTH (before tomllib, which
    recurses, ever sees it)."""
    lm = LineMap()
    table: Path_ = ()
    counters: dict[tuple[str, ...], int] = {}
    depth, in_ml = 0, None
    for lineno, line in enumerate(text.split("\n"), start=1):
        if depth or in_ml:
            depth, in_ml = _value_state(line, 0, depth, in_ml, name, lineno)
            continue
        stripped = line.lstrip()
        if not stripped or stripped.startswith("#"):
            continue
        m = _HEADER_RE.match(line)
        if m and (m.group(1) == "[[") == (m.group(3) == "]]"):
            key = _split_key(m.group(2))
            if m.group(1) == "[[":
                counters[key] = counters.get(key, -1) + 1
                # forget the previous entry's sub-tables' counters
                for k in [k for k in counters if len(k) > len(key) and k[:len(key)] == key]:
                    del counters[k]
                path: list[str | int] = []
                for i in range(len(key)):
                    path.append(key[i])
                    if key[: i + 1] in counters and i + 1 < len(key):
                        path.append(counters[key[: i + 1]])
                path.append(counters[key])
                table = tuple(path)
                lm.lines.setdefault(table[:-1], lineno)
            else:
                path = []
                for i in range(len(key)):
                    path.append(key[i])
                    if key[: i + 1] in counters:
                        path.append(counters[key[: i + 1]])
                table = tuple(path)
            for i in range(1, len(table) + 1):  # `[bogus.a.b]` also starts `bogus` here
                lm.lines.setdefault(table[:i], lineno)
            continue
        if stripped.startswith("["):
            # a header-looking line we can't read: still scan it for nesting
            depth, in_ml = _value_state(line, 0, 0, None, name, lineno)
            depth, in_ml = 0, None
            continue
        keyline = _KEYLINE_RE.match(line)
        if keyline:
            key_path = table + _split_key(keyline.group(1))
            for i in range(len(table) + 1, len(key_path) + 1):
                lm.lines.setdefault(key_path[:i], lineno)
            depth, in_ml = _value_state(line, keyline.end(), 0, None, name, lineno)
        else:
            depth, in_ml = _value_state(line, 0, 0, None, name, lineno)
    lm.lines.setdefault((), 1)
    return lm


def read_text(path: str | os.PathLike[str], name: str | None = None) -> str:
    """The file's text, refusing what can't be a scenario before parsing anything."""
    if not os.fspath(path):
        raise ScenarioError("no scenario file named '' (the path is empty): give the path of a "
                            ".toml scenario, e.g. mtg_rulekit/scenarios/r01_undefined_mana.toml")
    name = name or str(path)
    try:
        # non-blocking, and checked before reading: a FIFO or a device would block forever
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        with open(fd, "rb") as fh:
            st = os.fstat(fh.fileno())
            if stat.S_ISDIR(st.st_mode):
                raise IsADirectoryError
            if not stat.S_ISREG(st.st_mode):
                raise ScenarioError("this is not a regular file (a FIFO, a device or a socket?): "
                                    "a scenario is a .toml file", path=name, line=1)
            if st.st_size > MAX_BYTES:
                raise ScenarioError(f"the file is too large ({st.st_size / 1e6:.1f} MB); a "
                                    f"scenario is at most {_LIMIT}", path=name, line=1)
            data = fh.read(MAX_BYTES + 1)
    except IsADirectoryError:
        raise ScenarioError("this is a directory, not a scenario file", path=name,
                            line=1) from None
    except FileNotFoundError:
        raise ScenarioError("no such file", path=name, line=1) from None
    except OSError as err:
        raise ScenarioError(f"can't read the file ({err.strerror})", path=name, line=1) from None
    if len(data) > MAX_BYTES:
        raise ScenarioError(f"the file is too large; a scenario is at most {_LIMIT}",
                            path=name, line=1)
    return decode(data, name)


def decode(data: bytes, name: str) -> str:
    if b"\x00" in data:
        raise ScenarioError("this is a binary file, not a TOML scenario", path=name, line=1)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        raise ScenarioError("the file is not UTF-8 text (a binary file?)", path=name,
                            line=line) from None
    return text.removeprefix("\ufeff")


def parse(text: str, name: str) -> tuple[dict[str, Any], LineMap]:
    """TOML text to data plus its line map; empty or invalid TOML refused with file:line."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise ScenarioError(f"the text is too large; a scenario is at most {_LIMIT}",
                            path=name, line=1)
    if not any(ln.strip() and not ln.lstrip().startswith("#") for ln in text.split("\n")):
        raise ScenarioError("the file is empty: a scenario needs a title, a [setup] and at least "
                            "one [[step]]", path=name, line=1)
    lines = scan(text, name)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        msg = str(err)
        m = _TOML_POS.search(msg)
        line = int(m.group(1)) if m else 1
        reason = _TOML_POS.sub("", msg).strip().rstrip(".")
        if "Illegal character '\\n'" in reason or "Unterminated string" in reason:
            reason += " (is a quote left open on this line?)"
        raise ScenarioError(f"invalid TOML: {reason}", path=name, line=line) from None
    except RecursionError:
        raise ScenarioError("values are nested too deeply", path=name, line=1) from None
    except ValueError:  # Python's integer-string limit (4,300 digits), not a TOMLDecodeError
        raise _long_number(text, name) from None
    if _count_nodes(data, MAX_NODES) > MAX_NODES:
        raise ScenarioError(f"the scenario has more than {MAX_NODES} values: far more than a "
                            "walkthrough needs", path=name, line=1)
    return data, lines


_DIGITS = re.compile(r"[0-9][0-9_]*")


def _long_number(text: str, name: str) -> ScenarioError:
    """The error for a number too long for Python to read (tomllib raises ValueError)."""
    best, line = 0, 1
    for lineno, ln in enumerate(text.split("\n"), start=1):
        for m in _DIGITS.finditer(ln):
            digits = len(m.group(0).replace("_", ""))
            if digits > best:
                best, line = digits, lineno
    return ScenarioError(f"a number with {best:,} digits: numbers in a scenario are small "
                         "(a life total, a count, a turn)", path=name, line=line)


def _count_nodes(value: Any, limit: int) -> int:
    """Number of values (stops counting past `limit`)."""
    count, todo = 0, [value]
    while todo and count <= limit:
        v = todo.pop()
        count += 1
        if isinstance(v, dict):
            todo.extend(v.values())
        elif isinstance(v, list):
            todo.extend(v)
    return count
