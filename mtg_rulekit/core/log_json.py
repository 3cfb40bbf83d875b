"""The log's JSON read back, in today's format (docs/engine.md, "The log's JSON").

`read_log` takes what `EventLog.dumps` or `EventLog.to_json` wrote, in format 2 or in format 1
(unversioned: a bare list of events), and returns it in format 2's shape. Format 1 carried some
facts as English. Where format 2's facts follow exactly from format 1's fields they are written
as format 2 writes them; where they don't (a note's or a choice's `says`, mana spent's `purpose`,
state-based actions' `why`), the sentence is kept, as it was, under `said`: it is never parsed
back into facts the engine didn't record.
"""

from __future__ import annotations

import json
from typing import Any

from mtg_rulekit.core.errors import UsageError
from mtg_rulekit.core.events import LOG_FORMAT, EventKind

_KINDS = frozenset(k.value for k in EventKind)

_ENGLISH = {"note": "says", "choice": "says", "mana_spent": "purpose", "sba": "why"}
"""The format-1 field that held, as a sentence, what format 2 says as facts."""

_MOVED = "exert's effect ends: another player controls it now"  # format 1's words for `moved`
_LOSES = {"0 or less life": "life"}  # format 1's reasons for losing, as format 2's keys


def read_log(doc: str | bytes | list[Any] | dict[str, Any]) -> dict[str, Any]:
    """`{"format": 2, "events": [...]}` from a log's JSON text or data, in format 2 or 1.

    Raises `UsageError` (one line) for text that isn't JSON, an unknown format, or events
    that aren't a log's: each a mapping with its `id` (counting from 1), a known `kind` and
    its `data`."""
    if isinstance(doc, (str, bytes, bytearray)):
        try:
            doc = json.loads(doc)
        except (ValueError, RecursionError) as err:
            raise UsageError("log", f"not JSON: {err}") from None
    if isinstance(doc, list):
        return {"format": LOG_FORMAT, "events": [_from_format_1(e) for e in _events(doc)]}
    if not isinstance(doc, dict) or "format" not in doc:
        raise UsageError("log", f"not a log's JSON: expected {{\"format\": {LOG_FORMAT}, "
                                "\"events\": [...]}, or a list of events (format 1)")
    if type(doc["format"]) is not int or doc["format"] != LOG_FORMAT:
        raise UsageError("log", f"format {json.dumps(doc['format'])[:40]} is not one this kit "
                                f"reads: {LOG_FORMAT}, or 1 (a bare list of events)")
    return {"format": LOG_FORMAT, "events": _events(doc.get("events"))}


def _events(events: Any) -> list[dict[str, Any]]:
    """The events, checked to be a log's (a copy: the caller's data is left as it was)."""
    if not isinstance(events, list):
        raise UsageError("log", "its events are not a list")
    out = []
    for n, event in enumerate(events, 1):
        if not isinstance(event, dict):
            raise UsageError("log", f"event {n} is not a mapping")
        if type(event.get("id")) is not int or event["id"] != n:
            raise UsageError("log", f"event {n}: its id must be {n} (ids count up from 1)")
        if event.get("kind") not in _KINDS:
            raise UsageError("log", f"event {n}: {json.dumps(event.get('kind'))[:40]} is not "
                                    "an event kind")
        if not isinstance(event.get("data"), dict):
            raise UsageError("log", f"event {n}: its data is not a mapping")
        out.append({**event, "data": dict(event["data"])})
    return out


def _from_format_1(event: dict[str, Any]) -> dict[str, Any]:
    """A format-1 event as format 2 writes it (changed in place: `_events` made it a copy)."""
    data, kind = event["data"], event["kind"]
    english = _ENGLISH.get(kind)
    if english is not None and isinstance(data.get(english), str):
        data["said"] = data.pop(english)
        data.pop("undefined", None)  # a note's flag for undefined mana: its sentence says so
    elif kind == "untap_skipped" and "reason" in data:
        reason = data.pop("reason")
        if not data.get("clears_exert"):
            data["ability"] = reason  # the static ability's text
        elif reason == _MOVED:
            data["moved"] = True
    elif kind == "lost" and data.get("reason") in _LOSES:
        data["reason"] = _LOSES[data["reason"]]
    elif kind == "action" and data.get("action") == "set_life" and "x" in data:
        data["life"] = data.pop("x")
    return event
