"""The scenario as data: loading (schema, then checks that need the card catalog), the
`Scenario` object, and writing it back as canonical TOML.

Every problem is one `ScenarioError` whose message starts with `file:line:`.
"""

from __future__ import annotations

import difflib
import json
import os
import re
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from mtg_rulekit.core.decisions import show_number
from mtg_rulekit.core.errors import ScenarioError, UsageError
from mtg_rulekit.scenario.source import LineMap, Path_, parse, read_text

PENDING = "pending-engine"
DEFAULT_PLAYERS = ("Alice", "Bob")
ZONE_LISTS = ("hand", "graveyard", "exile", "library")

# Which keys each action takes (besides narration, notes, do, decisions, expect_error, labels,
# expect).
ACTION_KEYS: dict[str, tuple[str, ...]] = {
    "look": (),
    "play_land": ("card",),
    "cast": ("card", "x", "targets", "player"),
    "activate": ("object", "ability", "mana", "x", "targets", "sacrifice", "tap", "player"),
    "tap_for_mana": ("object", "mana", "player"),
    "pass_priority": (),
    "resolve": (),
    "advance": ("to", "resolve_triggers"),
    "next_turn": (),
    "declare_attackers": ("attackers", "exert"),
    "declare_blockers": ("blocks",),
    "destroy": ("objects",),
    "exile": ("objects",),
    "gain_control": ("object", "player", "until_end_of_turn"),
    "undo": ("n",),
}
COMMON_STEP_KEYS = ("narration", "notes", "do", "decisions", "expect_error", "labels",
                    "question", "expect")

# What a teaching scenario may build (docs/scenarios.md, "Limits"). The schema bounds each
# list (at most 100 permanents in the set-up, 100 cards per zone list, 1,000 mana per pool, 20,000
# steps); these bound what they add up to, so every file plays in about a second.
MAX_SETUP_COUNTERS = 1_000
"""Counters on all the set-up's permanents together."""
MAX_OBJECTS = 10_000
"""Objects a game may hold after any step (cards, tokens, spells, abilities, left zones)."""
MAX_COUNTERS = 10_000
"""Counters on all permanents together after any step."""

# canonical key order when writing a scenario back
TOP_ORDER = ("title", "ruling", "status", "intro", "description", "setup", "step")
SETUP_ORDER = ("players", "life", "turn", "active", "step", "pool", "hand", "graveyard", "exile",
               "library", "permanent")
PERMANENT_ORDER = ("card", "name", "controller", "owner", "tapped", "sick", "token", "counters",
                   "choices", "attached_to", "attacking")
STEP_ORDER = ("narration", "notes", "do", "card", "object", "ability", "mana", "x", "targets",
              "sacrifice", "tap", "to", "resolve_triggers", "attackers", "exert", "blocks",
              "objects", "player", "until_end_of_turn", "n", "decisions", "expect_error",
              "labels", "question", "expect")
EXPECT_ORDER = ("turn", "step", "active", "life", "pool", "spent", "decided", "tapped", "sick", "counters",
                "damage", "pt", "zone", "controller", "attached", "could_produce", "types",
                "subtypes", "supertypes", "colors", "keywords", "abilities", "mana_value", "count",
                "tokens", "contents", "stack", "triggered", "events", "no_events", "rules", "log")
# characteristics (CR 109.3) an expectation can name, each a list compared in any order
CHARACTERISTIC_LISTS = ("types", "subtypes", "supertypes", "colors", "keywords", "abilities")
# what a step's question may ask about (`[step.question] about = ...`, docs/scenarios.md
# "Questions"): "refused" (allowed, or refused by which rule), or an expectation whose reading of
# the game doesn't depend on the value written ("pool.Alice", "triggered.refinery", "pt.token")
QUESTION_ABOUT = ("turn", "step", "active", "life", "pool", "spent", "tapped", "sick", "counters",
                  "damage", "pt", "zone", "controller", "could_produce", "types", "subtypes",
                  "supertypes", "colors", "keywords", "abilities", "mana_value", "count",
                  "tokens", "triggered")
QUESTION_REFUSED = "refused"
MAX_CHOICE_ITEMS = 20
"""A question's choice is an answer read on a button: a list or table in it holds at most this
many entries (a pool of 20 mana)."""
_REFUSAL_CHOICE = {"type": "string", "pattern": "^(allowed|refused|[0-9]{3}(\\.[0-9]+[a-z]?)?)$",
                   "x-message": 'a choice is "allowed", "refused" or a rule number such as '
                                '"302.6"'}


def choice_schema(about: str) -> dict[str, Any]:
    """The JSON Schema of one choice of a question about `about` ("pool", "refused", ...): the
    value an expectation of that key takes, at most `MAX_CHOICE_ITEMS` entries long."""
    if about == QUESTION_REFUSED:
        return _REFUSAL_CHOICE
    full = schema()
    value = full["$defs"]["expect"]["properties"][about]
    if value.get("type") == "object":  # a table by player, object or card: one entry's value
        value = value["additionalProperties"]
    return {"$defs": full["$defs"], "allOf": [value], "maxItems": MAX_CHOICE_ITEMS,
            "maxProperties": MAX_CHOICE_ITEMS}


def is_reasoned(choice: Any) -> bool:
    """Whether a question's choice is written `{ value = ..., because = "..." }`."""
    return isinstance(choice, dict) and "value" in choice


def split_choice(choice: Any) -> tuple[Any, str]:
    """A question's choice as (its value, its reason: "" without)."""
    if is_reasoned(choice):
        return choice["value"], choice.get("because", "")
    return choice, ""


def question_rules(q: dict[str, Any]) -> list[str]:
    """The rules a question names as deciding its answer (its `rule`: one, or a list)."""
    rule = q.get("rule", [])
    return [str(r) for r in (rule if isinstance(rule, list) else [rule])]


# expectation tables whose keys name an object (a label, or a card name on the battlefield)
OBJECT_KEYED = ("tapped", "sick", "counters", "damage", "pt", "zone", "controller", "attached",
                "could_produce", *CHARACTERISTIC_LISTS, "mana_value", "triggered")


@cache
def schema() -> dict[str, Any]:
    """The JSON Schema of the scenario format (`mtg_rulekit/scenario/schema.json`)."""
    text = resources.files("mtg_rulekit.scenario").joinpath("schema.json").read_text("utf-8")
    return json.loads(text)


SCHEMA_PATH = os.path.join(os.path.dirname(__file__), "schema.json")


# ---------------------------------------------------------------------------- the object
@dataclass(eq=False)
class Scenario:
    """A loaded, validated scenario: plain data. `spec` is what the TOML says; two scenarios are
    equal when their specs are. The runner plays it (`mtg_rulekit.scenario.play(sc)`, and
    `game_at(sc, k)` for the game after step k)."""

    spec: dict[str, Any]
    path: str = "<scenario>"
    lines: LineMap = field(default_factory=LineMap, repr=False)

    # -- reading
    def __eq__(self, other: object) -> bool:
        return isinstance(other, Scenario) and self.spec == other.spec

    __hash__ = None  # type: ignore[assignment]

    @property
    def title(self) -> str:
        return self.spec["title"]

    @property
    def rulings(self) -> list[str]:
        return list(self.spec.get("ruling", []))

    @property
    def description(self) -> str:
        """What the walkthrough shows, said after it (Present's end card, `rulekit run`)."""
        return self.spec.get("description", "")

    @property
    def intro(self) -> str:
        """What the set-up (step 0) says: the board and the puzzle, never the answer, which a
        question after it asks; `description` when the file has no `intro`."""
        return self.spec.get("intro") or self.description

    @property
    def status(self) -> str | None:
        return self.spec.get("status")

    @property
    def pending(self) -> bool:
        """True when marked `status = "pending-engine"`: `check` skips it."""
        return self.status == PENDING

    @property
    def players(self) -> list[str]:
        return list(self.spec["setup"].get("players", DEFAULT_PLAYERS))

    @property
    def steps(self) -> list[dict[str, Any]]:
        """The `[[step]]` tables as written (step k is `steps[k - 1]`)."""
        return self.spec["step"]

    def __len__(self) -> int:
        return len(self.steps)

    def line(self, *path: str | int) -> int:
        """The line in the file where `path` (e.g. `"step", 2, "expect"`) is written."""
        return self.lines.line(tuple(path))

    # -- writing
    def dumps(self) -> str:
        return dumps(self)

    def dump(self, path: str | os.PathLike[str]) -> None:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(dumps(self))


# ---------------------------------------------------------------------------- loading
def load(path: str | os.PathLike[str], *, name: str | None = None) -> Scenario:
    """Read and validate a scenario file; ScenarioError (`file:line: message`) if it's bad."""
    name = name or _display(path)
    try:
        text = read_text(path, name)
    except ScenarioError as err:
        raise capped(err) from None
    return loads(text, name=name)


def loads(text: str, *, name: str = "<scenario>") -> Scenario:
    """Validate scenario text (TOML)."""
    try:
        data, lines = parse(text, name)
        _check_numbers(data, lines, name)
        _check_schema(data, lines, name)
        _Validator(data, lines, name).run()
    except ScenarioError as err:
        raise capped(err) from None
    return Scenario(spec=data, path=name, lines=lines)


MAX_MESSAGE = 400
"""Characters of a ScenarioError's message (after `file:line: `): a message quotes the author's
text, and a 400 KB title or 10,000 permanents must not become a 400 KB line."""


def shorten(text: str, limit: int = MAX_MESSAGE) -> str:
    """`text` cut to `limit` characters, saying how much was cut."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text) - limit:,} more characters cut)"


def one_line(text: str) -> str:
    r"""`text` with every control character (newline and tab included), format character
    (zero-width space, bidirectional marks, category Cf) and lone surrogate shown as an
    escape: a message is one line that reads the same in any terminal.

    >>> one_line("forest1\u200b\nnext")
    'forest1\\u200b\\nnext'
    """
    if text.isascii() and text.isprintable():
        return text
    return "".join(_escape_char(c) for c in text)


_NAMED_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape_char(c: str) -> str:
    import unicodedata

    if c in _NAMED_ESCAPES:
        return _NAMED_ESCAPES[c]
    if unicodedata.category(c) not in ("Cc", "Cf", "Cs", "Zl", "Zp"):
        return c
    n = ord(c)
    return f"\\x{n:02x}" if n < 0x100 else (f"\\u{n:04x}" if n < 0x10000 else f"\\U{n:08x}")


def capped(err: ScenarioError) -> ScenarioError:
    """`err`, or the same error as one line (see `one_line`) with its message shortened (see
    `MAX_MESSAGE`)."""
    reason, path = one_line(err.reason), one_line(err.path)
    if len(reason) <= MAX_MESSAGE and len(path) <= MAX_MESSAGE and \
            (reason, path) == (err.reason, err.path):
        return err
    out = ScenarioError(shorten(reason), path=shorten(path), line=err.line)
    if hasattr(err, "played"):
        out.played = err.played  # type: ignore[attr-defined]
    return out


def _display(path: str | os.PathLike[str]) -> str:
    p = os.fspath(path)
    try:
        rel = os.path.relpath(p)
    except ValueError:
        return p
    return rel if not rel.startswith("..") else p


def _dotted(parts: list[str | int]) -> str:
    out = ""
    for p in parts:
        out += f"[{p + 1}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out


def where(path: Path_) -> str:
    """`step 3: expect.pool.Alice` style location for messages ("" for the whole file)."""
    parts = list(path)
    if len(parts) >= 2 and parts[0] == "step" and isinstance(parts[1], int):
        rest = _dotted(parts[2:])
        return f"step {parts[1] + 1}" + (f": {rest}" if rest else "")
    if len(parts) >= 3 and parts[:2] == ["setup", "permanent"] and isinstance(parts[2], int):
        rest = _dotted(parts[3:])
        return f"setup permanent {parts[2] + 1}" + (f": {rest}" if rest else "")
    return _dotted(parts)


def _at(loc: str) -> str:
    return f"{loc}: " if loc else ""


def skip_slow_optional_imports() -> None:
    """For processes that exist to run rulekit (the CLI, the lesson build, lesson kernels):
    jsonschema imports `rfc3987_syntax` only to check the "iri" string format, which the
    scenario schema doesn't use, and that import builds a parser grammar (about 0.8 s). This
    tells Python the module is absent, so jsonschema skips that one format. It does nothing
    once jsonschema is imported, and library users who don't call it are not affected."""
    import sys

    if "jsonschema" not in sys.modules:
        sys.modules.setdefault("rfc3987_syntax", None)  # type: ignore[arg-type]


MAX_NUMBER = 10**12
"""Largest whole number anywhere in a scenario (the schema bounds each field more tightly)."""


def _how_long(n: int) -> str:
    """"a number with 14 digits"; past Python's limit for printing an int (4,300 digits: a long
    hex, octal or binary literal, which Python reads at any length), its length estimated."""
    try:
        return f"a number with {len(str(abs(n))):,} digits"
    except ValueError:
        return show_number(n)


def _check_numbers(data: dict[str, Any], lines: LineMap, name: str) -> None:
    """No scenario field takes a decimal number (`life = 20.0`, `turn = 2e0`, nan, inf), and
    no number is astronomically long; the first one in the file is refused at its line."""
    bad: list[tuple[int, str]] = []
    todo: list[tuple[Path_, Any]] = [((), data)]
    while todo:
        path, v = todo.pop()
        if isinstance(v, dict):
            todo.extend((path + (k,), x) for k, x in v.items())
        elif isinstance(v, list):
            todo.extend((path + (i,), x) for i, x in enumerate(v))
        elif isinstance(v, float):
            whole = f" (write {int(v)})" if v.is_integer() else ""
            bad.append((lines.line(path), f"{_at(where(path))}expected a whole number, got the "
                        f"decimal number {v!r}{whole}"))
        elif isinstance(v, int) and not isinstance(v, bool) and abs(v) > MAX_NUMBER:
            bad.append((lines.line(path), f"{_at(where(path))}{_how_long(v)}: far more than "
                        f"a scenario needs (limit {MAX_NUMBER:,})"))
    if bad:
        line, message = min(bad)
        raise ScenarioError(message, path=name, line=line)


def _check_schema(data: dict[str, Any], lines: LineMap, name: str,
                  against: dict[str, Any] | None = None) -> None:
    """Check `data` against schema.json (or the schema `against`: a sandbox file's, which
    takes the scenario's set-up and expectations), reporting the first problem in file order.
    Needs jsonschema (`mtg-rulekit[authoring]`); without it this check is skipped, so the engine
    alone (standard library only, as in the browser) still plays validated scenarios, and the
    checks below the schema still run."""
    try:
        import jsonschema
    except ImportError:
        return

    validator = jsonschema.Draft202012Validator(against or schema())
    errors = list(validator.iter_errors(data))
    if not errors:
        return
    # report the error that comes first in the file (then the deepest)
    def key(e: Any) -> tuple[int, int]:
        return (lines.line(tuple(e.absolute_path) + _extra_key(e)), -len(e.absolute_path))
    best = min(errors, key=key)
    if best.validator == "required":  # an unknown field (a typo?) explains a missing one
        typo = [e for e in errors if e.validator == "additionalProperties"
                and tuple(e.absolute_path) == tuple(best.absolute_path)]
        best = typo[0] if typo else best
    path = tuple(best.absolute_path)
    raise ScenarioError(_schema_message(best, path), path=name,
                        line=lines.line(path + _extra_key(best)))


def _extra_key(err: Any) -> tuple[str, ...]:
    if err.validator == "additionalProperties" and isinstance(err.instance, dict):
        allowed = set(err.schema.get("properties", {}))
        extra = [k for k in err.instance if k not in allowed]
        return (extra[0],) if extra else ()
    return ()


def _describe_value(v: Any) -> str:
    kind = {str: "text", bool: "true/false", int: "a number", float: "a decimal number",
            list: "a list", dict: "a table"}.get(type(v), type(v).__name__)
    shown = json.dumps(v, ensure_ascii=False, default=str)
    if len(shown) > 40:
        shown = shown[:37] + "..."
    return f"{kind} ({shown})" if not isinstance(v, (list, dict)) else kind


_TYPE_WORDS = {"string": "text in quotes", "integer": "a whole number", "boolean": "true or false",
               "array": "a list [...]", "object": "a table", "number": "a number"}


def _schema_message(err: Any, path: Path_) -> str:
    loc = where(path)
    v = err.validator
    custom = err.schema.get("x-message") if isinstance(err.schema, dict) else None
    if v == "additionalProperties":
        allowed = sorted(err.schema.get("properties", {}))
        unknown = [k for k in err.instance if k not in allowed]
        bad = unknown[0] if unknown else "?"
        close = difflib.get_close_matches(bad, allowed, n=1, cutoff=0.6)
        hint = f"; did you mean {close[0]!r}?" if close else f" (allowed: {', '.join(allowed)})"
        return f"{_at(loc)}unknown field {bad!r}{hint}"
    if v == "required":
        missing = err.message.split("'")[1] if "'" in err.message else err.message
        extra: str = ""
        if path and path[0] == "step" and isinstance(err.instance, dict) and \
                missing in ACTION_KEYS.get(str(err.instance.get("do")), ()):
            extra = f" (do = {err.instance['do']!r} needs it)"
        return f"{_at(loc)}missing {missing!r}{extra}"
    if v == "type":
        want = err.validator_value
        wants = " or ".join(_TYPE_WORDS.get(str(w), str(w))
                            for w in (want if isinstance(want, list) else [want]))
        return f"{_at(loc)}expected {wants}, got {_describe_value(err.instance)}"
    if v == "enum":
        options = [str(o) for o in err.validator_value]
        close = difflib.get_close_matches(str(err.instance), options, n=1, cutoff=0.5)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        if custom:
            return f"{_at(loc)}{custom}{hint}"
        return f"{_at(loc)}{err.instance!r} is not one of {', '.join(options)}{hint}"
    if v == "maxLength":
        return f"{_at(loc)}{len(err.instance):,} characters; at most {err.validator_value}"
    if v == "maxItems":
        return f"{_at(loc)}{len(err.instance):,} entries (limit {err.validator_value:,})"
    if custom:
        return f"{_at(loc)}{custom}, not {json.dumps(err.instance, ensure_ascii=False)[:60]}"
    if v == "oneOf":
        return f"{_at(loc)}{_describe_value(err.instance)} is not allowed here"
    if v == "propertyNames":
        return f"{_at(loc)}a key here is not allowed: {shorten(err.message, 120)}"
    return f"{_at(loc)}{shorten(err.message, 120)}"


# ---------------------------------------------------------------------------- semantic checks
RESERVED_LABELS = frozenset({"no", "yes", "n", "y", "true", "false", "none"})
"""Words a decision answer can be (`copy = "no"`, `may = "yes"`): never labels."""


class _Validator:
    """Checks the schema can't: players, card names, labels and references, action keys."""

    def __init__(self, data: dict[str, Any], lines: LineMap, name: str) -> None:
        self.spec, self.lines, self.name = data, lines, name
        setup = self.spec["setup"]
        self.players = list(setup.get("players", DEFAULT_PLAYERS))
        self.labels: dict[str, str] = {}  # label -> card name
        self.permanent_labels: set[str] = set()
        self.tokens: set[str] = set()  # labels of tokens: set up as tokens, or made in a step

    def fail(self, path: Path_, message: str) -> None:
        raise ScenarioError(f"{_at(where(path))}{message}", path=self.name,
                            line=self.lines.line(path))

    # -- helpers
    def player(self, path: Path_, value: str) -> None:
        if value not in self.players:
            close = difflib.get_close_matches(value, self.players, n=1, cutoff=0.5)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            self.fail(path, f"there is no player called {value!r} (players: "
                      f"{', '.join(self.players)}){hint}")

    def card(self, path: Path_, value: str) -> str:
        from mtg_rulekit.cards import card

        try:
            return card(value).name
        except UsageError as err:  # not text, or an `UnknownCard`
            self.fail(path, err.reason)
        raise AssertionError  # pragma: no cover

    def is_card(self, value: str) -> bool:
        from mtg_rulekit.cards import catalog

        return value.casefold() in {n.casefold() for n in catalog()}

    def new_label(self, path: Path_, label: str, card_name: str) -> None:
        from mtg_rulekit.cards import card

        if label in self.labels:
            self.fail(path, f"the label {label!r} is used twice")
        if label in RESERVED_LABELS:
            self.fail(path, f"{label!r} can't be a label: decisions use it as an answer "
                      "(copy = \"no\", may = \"yes\"), so a step naming it would be "
                      "ambiguous; choose another label")
        if self.is_card(label) and card(label).name != card_name:
            self.fail(path, f"the label {label!r} is also the name of the card "
                            f"{card(label).name!r}, but it labels {card_name}: a step naming "
                            f"{label!r} could mean either; choose another label")
        self.labels[label] = card_name

    def ref(self, path: Path_, value: str, *, players: bool = False) -> None:
        """A label known here, a card name, or (for targets) a player."""
        if value in self.labels or self.is_card(value) or (players and value in self.players):
            return
        from mtg_rulekit.cards import catalog

        pool = list(self.labels) + list(catalog()) + (self.players if players else [])
        close = difflib.get_close_matches(value, pool, n=1, cutoff=0.6)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        known = ", ".join(sorted(self.labels)) or "none"
        what = "label, card name or player" if players else "label or card name"
        self.fail(path, f"{value!r} is not a {what} (labels so far: {known}){hint}")

    # -- the scenario
    def run(self) -> None:
        setup = self.spec["setup"]
        if not self.spec["step"]:
            self.fail(("step",), "a scenario needs at least one [[step]]")
        if "active" in setup:
            self.player(("setup", "active"), setup["active"])
        life = setup.get("life")
        if isinstance(life, dict):
            for p in life:
                self.player(("setup", "life", p), p)
        for p in setup.get("pool", {}):
            self.player(("setup", "pool", p), p)
        for zone in ZONE_LISTS:
            for p, entries in setup.get(zone, {}).items():
                self.player(("setup", zone, p), p)
                for entry in entries:
                    where_: Path_ = ("setup", zone, p)
                    name = entry if isinstance(entry, str) else entry["card"]
                    real = self.card(where_, name)
                    if isinstance(entry, dict) and "name" in entry:
                        self.new_label(where_, entry["name"], real)
        perms = setup.get("permanent", [])
        counters = 0
        for i, perm in enumerate(perms):
            counters += sum(perm.get("counters", {}).values())
            if counters > MAX_SETUP_COUNTERS:
                self.fail(("setup", "permanent", i, "counters"),
                          f"{counters:,} counters on the set-up's permanents so far: more than "
                          f"a lesson can show (limit {MAX_SETUP_COUNTERS:,} in all)")
        for i, perm in enumerate(perms):
            at: Path_ = ("setup", "permanent", i)
            real = self.card(at + ("card",), perm["card"])
            for key in ("controller", "owner"):
                if key in perm:
                    self.player(at + (key,), perm[key])
            if "name" in perm:
                self.new_label(at + ("name",), perm["name"], real)
                self.permanent_labels.add(perm["name"])
                if perm.get("token"):
                    self.tokens.add(perm["name"])
        for i, perm in enumerate(perms):
            host = perm.get("attached_to")
            if host is None:
                continue
            at = ("setup", "permanent", i, "attached_to")
            if host not in self.permanent_labels:
                self.fail(at, f"{host!r} is not the label of a permanent in the set-up")
            if host == perm.get("name"):
                self.fail(at, "a permanent can't be attached to itself")
        self._attachment_cycles(perms)
        for i, step in enumerate(self.spec["step"]):
            self.step(i, step)

    def _attachment_cycles(self, perms: list[dict[str, Any]]) -> None:
        host_of = {p["name"]: p.get("attached_to") for p in perms if "name" in p}
        for i, perm in enumerate(perms):
            seen, cur = set(), perm.get("attached_to")
            while cur is not None:
                if cur in seen:
                    self.fail(("setup", "permanent", i, "attached_to"),
                              "these attachments go round in a circle")
                seen.add(cur)
                cur = host_of.get(cur)

    def step(self, i: int, step: dict[str, Any]) -> None:
        at: Path_ = ("step", i)
        do = step["do"]
        allowed = set(ACTION_KEYS[do]) | set(COMMON_STEP_KEYS)
        for key in step:
            if key not in allowed:
                takes = ", ".join(ACTION_KEYS[do]) or "nothing else"
                self.fail(at + (key,), f"do = {do!r} doesn't take {key!r} (it takes: {takes})")
        if do == "look" and ("expect_error" in step or "decisions" in step):
            self.fail(at + ("do",), "a 'look' step does nothing, so it can't have decisions or "
                      "expect an error")
        for key in ("card", "object", "sacrifice", "tap"):
            if key in step:
                self.ref(at + (key,), step[key])
        for key in ("targets",):
            for v in step.get(key, []):
                self.ref(at + (key,), v, players=True)
        for key in ("attackers", "exert", "objects"):
            for v in step.get(key, []):
                self.ref(at + (key,), v)
        for blocker, attacker in step.get("blocks", {}).items():
            self.ref(at + ("blocks", blocker), blocker)
            self.ref(at + ("blocks", blocker), attacker)
        if "player" in step:
            self.player(at + ("player",), step["player"])
        if "expect_error" in step and "labels" in step:
            self.fail(at + ("labels",), "a step that expects an error creates nothing to label")
        for label, card_name in step.get("labels", {}).items():
            self.new_label(at + ("labels", label),
                           label, self.card(at + ("labels", label), card_name))
            self.tokens.add(label)
        if "expect" in step:
            self.expect(at + ("expect",), step["expect"])
        if "question" in step:
            self.question(at + ("question",), step["question"], step)

    def question(self, at: Path_, q: dict[str, Any], step: dict[str, Any]) -> None:
        """`about` names something the engine can answer; the references in it exist; each
        deciding `rule` is one the kit lists (`mtg_rulekit/data/rules.toml`); the `why` is one
        sentence; the words fit the fact (`mtg_rulekit.scenario.wording`)."""
        from mtg_rulekit.scenario.wording import YES_NO, question_problem, why_problem

        for i, number in enumerate(question_rules(q)):
            self.listed_rule(at + (("rule", i) if isinstance(q["rule"], list) else ("rule",)),
                             number)
        problem = why_problem(str(q["why"]))
        if problem:
            self.fail(at + ("why",), problem)
        about = str(q["about"])
        key, _, sub = about.partition(".")
        if about != QUESTION_REFUSED:
            self._about(at, key, sub)
        if key in YES_NO and not q.get("choices"):
            self.fail(at + ("about",), f"a question about {key!r} is answered yes or no: give "
                      "its choices (each a value, or { value = ..., because = \"...\" })")
        self.choices(at + ("choices",), key, q.get("choices", ()))
        problem = question_problem(str(q["ask"]), key, self._subjects(key, sub, step))
        if problem:
            self.fail(at + ("ask",), problem)

    def _about(self, at: Path_, key: str, sub: str) -> None:
        if key not in QUESTION_ABOUT:
            close = difflib.get_close_matches(key, [*QUESTION_ABOUT, QUESTION_REFUSED], n=1,
                                              cutoff=0.5)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            self.fail(at + ("about",), f"a question can't ask about {key!r}{hint} (it asks "
                      f"about {QUESTION_REFUSED!r} or one of: {', '.join(QUESTION_ABOUT)})")
        tabled = key in OBJECT_KEYED or key in ("life", "pool", "spent", "count", "tokens")
        if tabled and not sub:
            self.fail(at + ("about",), f"say whose or which: e.g. {key}.Alice or {key}.<label>")
        if not tabled and sub:
            self.fail(at + ("about",), f"{key!r} takes nothing after it (about = {key!r})")
        if key in OBJECT_KEYED:
            self.ref(at + ("about",), sub)
        elif key in ("life", "pool", "spent"):
            self.player(at + ("about",), sub)
        elif key in ("count", "tokens"):
            self.card(at + ("about",), sub)

    def _subjects(self, key: str, sub: str, step: dict[str, Any]) -> list[str]:
        """What a question about `key`.`sub` must name: the object's card name (and "token",
        "copy" for a token), the player, the card; for "refused", what the step's action
        names (any one of them)."""
        if key in ("life", "pool", "spent"):
            return [sub]
        if key in ("count", "tokens"):
            return [self.card(("step",), sub)]
        refs: list[str] = []
        if key in OBJECT_KEYED:
            refs = [sub]
        elif key == QUESTION_REFUSED:
            for k in ("object", "card", "tap", "sacrifice"):
                if isinstance(step.get(k), str):
                    refs.append(step[k])
            for k in ("attackers", "exert", "objects", "targets"):
                refs += [v for v in step.get(k, []) if isinstance(v, str)]
            refs += [x for pair in step.get("blocks", {}).items() for x in pair]
        names: list[str] = []
        for ref in refs:
            if ref in self.players:
                names.append(ref)
                continue
            names.append(self.labels.get(ref) or self.card(("step",), ref))
            if ref in self.tokens:
                names += ["token", "copy"]
        return names

    def listed_rule(self, at: Path_, number: str) -> None:
        """A rule a question shows with its answer: one the kit lists, with its words."""
        from mtg_rulekit.core.rules import all_rules

        listed = all_rules()
        if number in listed:
            return
        same = sorted((n for n in listed if n.split(".")[0] == number.split(".")[0]),
                      key=lambda n: (len(n), n))
        close = difflib.get_close_matches(number, same or list(listed), n=3, cutoff=0.5)
        hint = f"; did you mean {' or '.join(close)}?" if close else ""
        self.fail(at, f"CR {number} is not a rule the kit lists (mtg_rulekit/data/rules.toml holds "
                      f"{len(listed)}, each with its words for the answer){hint}")

    def choices(self, at: Path_, about: str, choices: list[Any]) -> None:
        """Each choice written as the expectation `about` names is written (`choice_schema`),
        short enough to read on a button, alone or as `{ value = ..., because = "..." }`; no
        two read the same (`wording.choice_label`). The schema check needs jsonschema, as the
        file's does."""
        from mtg_rulekit.scenario.wording import choice_label

        seen: dict[str, int] = {}
        validator: Any = None
        try:
            import jsonschema

            validator = jsonschema.Draft202012Validator(choice_schema(about))
        except ImportError:
            pass
        for i, choice in enumerate(choices):
            value, because = split_choice(choice)
            if is_reasoned(choice):
                extra = sorted(set(choice) - {"value", "because"})
                if extra:
                    self.fail(at + (i, extra[0]), f"a choice takes value and because, not "
                              f"{extra[0]!r}")
                if "because" in choice and (not isinstance(because, str)
                                            or not 0 < len(because.strip()) <= 120):
                    self.fail(at + (i, "because"), "because is the choice's reason in words "
                              "(1 to 120 characters)")
            if validator is not None:
                errors = sorted(validator.iter_errors(value), key=lambda e: len(e.absolute_path))
                if errors:
                    where_ = (i, "value") if is_reasoned(choice) else (i,)
                    self.fail(at + where_ + tuple(errors[-1].absolute_path),
                              _schema_message(errors[-1], ()))
            label = choice_label(about, value, because)
            if label in seen:
                self.fail(at + (i,), f"choices {seen[label] + 1} and {i + 1} both read "
                          f"{label!r}: give each its reason (because = \"...\")")
            seen[label] = i

    def expect(self, at: Path_, exp: dict[str, Any]) -> None:
        from mtg_rulekit.core.events import EventKind

        for key in OBJECT_KEYED:
            for ref in exp.get(key, {}):
                self.ref(at + (key, ref), ref)
        for ref, host in exp.get("attached", {}).items():
            self.ref(at + ("attached", ref), host)
        for key in ("pool", "spent", "life", "contents"):
            for p in exp.get(key, {}):
                self.player(at + (key, p), p)
        for p, zones in exp.get("contents", {}).items():
            for zone, names in zones.items():
                for n in names:
                    self.card(at + ("contents", p, zone), n)
        for p in exp.get("controller", {}).values():
            self.player(at + ("controller",), p)
        for key, who in exp.get("decided", {}).items():
            for p in [who] if isinstance(who, str) else who:
                self.player(at + ("decided", key), p)
        if "active" in exp:
            self.player(at + ("active",), exp["active"])
        for key in ("count", "tokens"):
            for n in exp.get(key, {}):
                self.card(at + (key, n), n)
        kinds = [k.value for k in EventKind]
        for key in ("events", "no_events"):
            for kind in exp.get(key, []):
                if kind not in kinds:
                    close = difflib.get_close_matches(kind, kinds, n=1, cutoff=0.5)
                    hint = f"; did you mean {close[0]!r}?" if close else ""
                    self.fail(at + (key,), f"{kind!r} is not an event kind{hint}")


# ---------------------------------------------------------------------------- writing
_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def _key(k: str) -> str:
    return k if _BARE_KEY.match(k) else _str(k)


def _str(s: str) -> str:
    out = json.dumps(s, ensure_ascii=False)
    return out.replace("\x7f", "\\u007f")


def _ml_str(s: str) -> str:
    body = []
    for ch in s:
        if ch == "\\":
            body.append("\\\\")
        elif ch == '"':
            body.append('\\"')
        elif ch == "\n":
            body.append("\n")
        elif ord(ch) < 0x20 or ch == "\x7f":
            body.append(f"\\u{ord(ch):04x}")
        else:
            body.append(ch)
    return '"""\n' + "".join(body) + '"""'


def _value(v: Any, *, multiline: bool = False) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return _ml_str(v) if multiline and "\n" in v else _str(v)
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        if not v:
            return "{}"
        return "{ " + ", ".join(f"{_key(k)} = {_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(f"can't write {type(v).__name__} in a scenario")


def _ordered(d: dict[str, Any], order: tuple[str, ...]) -> list[tuple[str, Any]]:
    rank = {k: i for i, k in enumerate(order)}
    return sorted(d.items(), key=lambda kv: (rank.get(kv[0], len(order)), kv[0]))


def dumps(scenario: Scenario | dict[str, Any]) -> str:
    """Canonical TOML for a scenario: fixed key order, one `[[step]]` per step, expectations as
    dotted keys. `loads(dumps(s)) == s` for every valid scenario."""
    data = scenario.spec if isinstance(scenario, Scenario) else scenario
    out: list[str] = []
    for k, v in _ordered(data, TOP_ORDER):
        if k in ("setup", "step"):
            continue
        out.append(f"{_key(k)} = {_value(v, multiline=True)}")
    setup = data.get("setup", {})
    out += ["", "[setup]"]
    for k, v in _ordered(setup, SETUP_ORDER):
        if k in ("pool", *ZONE_LISTS, "permanent"):
            continue
        out.append(f"{_key(k)} = {_value(v)}")
    for k in ("pool", *ZONE_LISTS):
        if k in setup:
            out += ["", f"[setup.{k}]"]
            out += [f"{_key(p)} = {_value(v)}" for p, v in setup[k].items()]
    for perm in setup.get("permanent", []):
        out += ["", "[[setup.permanent]]"]
        out += [f"{_key(k)} = {_value(v)}" for k, v in _ordered(perm, PERMANENT_ORDER)]
    for step in data.get("step", []):
        out += ["", "[[step]]"]
        for k, v in _ordered(step, STEP_ORDER):
            if k != "expect":
                out.append(f"{_key(k)} = {_value(v, multiline=True)}")
        if "expect" in step:
            out += ["", "[step.expect]"]
            for k, v in _ordered(step["expect"], EXPECT_ORDER):
                if isinstance(v, dict) and v:
                    for sub, val in v.items():
                        if k == "contents" and isinstance(val, dict) and val:
                            out += [f"{k}.{_key(sub)}.{_key(z)} = {_value(names)}"
                                    for z, names in val.items()]
                        else:
                            out.append(f"{k}.{_key(sub)} = {_value(val)}")
                else:
                    out.append(f"{_key(k)} = {_value(v)}")
    return "\n".join(out).lstrip("\n") + "\n"
