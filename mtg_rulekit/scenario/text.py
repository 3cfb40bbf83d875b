"""Plain-text and JSON views of a played scenario (used by `python -m mtg_rulekit run`)."""

from __future__ import annotations

import json
from typing import Any

from mtg_rulekit.core.errors import ScenarioError
from mtg_rulekit.core.events import Event
from mtg_rulekit.scenario.model import Scenario, one_line, shorten
from mtg_rulekit.scenario.runner import Check, Question, StepResult, jsonable, played_before

# -------------------------------------------------------------------------- text


def _fmt(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)


def action_text(result: StepResult) -> str:
    act = dict(result.action)
    do = act.pop("do", "")
    for key in ("narration", "expect", "labels"):
        act.pop(key, None)
    args = " ".join(f"{k}={_fmt(v)}" for k, v in act.items())
    return f"{do} {args}".strip()


def event_lines(events: list[Event], indent: str = "    ") -> list[str]:
    """Events as a tree (children under their cause), each with its cause kind and rules."""
    depth: dict[int, int] = {}
    out = []
    for e in events:
        d = depth[e.parent] + 1 if e.parent in depth else 0
        depth[e.id] = d
        rules = f"  (CR {', '.join(e.rules)})" if e.rules else ""
        applied = ""
        if e.applied:
            applied = "  [changed by " + ", ".join(a.effect for a in e.applied) + "]"
        out.append(f"{indent}{'  ' * d}- [{e.cause.value}] {e.text}{rules}{applied}")
    return out


def board_lines(snapshot: dict[str, Any], labels: dict[str, int],
                indent: str = "    ") -> list[str]:
    by_id = {v: k for k, v in labels.items()}
    out = []
    for player in snapshot["players"]:
        name = player["name"]
        pool = pool_line(player["pool"])
        perms = []
        for o in snapshot["objects"]:
            if o["zone"] != "battlefield" or o["controller"] != name:
                continue
            bits = []
            if o["id"] in by_id:
                bits.append(by_id[o["id"]])
            if o.get("tapped"):
                bits.append("tapped")
            if o.get("sick"):
                bits.append("sick")
            if o.get("token"):
                bits.append("token")
            if o.get("counters"):
                bits += [f"{n}x{c}" for c, n in o["counters"].items()]
            if o.get("attached_to") is not None:
                host = o["attached_to"]
                bits.append(f"on {by_id.get(host, f'#{host}')}")
            if o.get("attacking"):
                bits.append("attacking")
            extra = f" ({', '.join(bits)})" if bits else ""
            card = o.get("copiable") or o["card"]
            perms.append(f"{card}#{o['id']}{extra}")
        out.append(f"{indent}{name}: life {player['life']}, pool {pool}; "
                   f"{'; '.join(perms) or 'no permanents'}")
    if snapshot["stack"]:
        out.append(f"{indent}stack (top last): " + "; ".join(i["text"] for i in snapshot["stack"]))
    return out


def pool_line(units: list[dict[str, Any]]) -> str:
    """A snapshot's pool in the notation every view shows (`mtg_rulekit.core.mana.shown`): plain
    mana first, in WUBRGC order, then each restricted or ridden group with its words:
    `{G}{G}{R} and {C}{C} (not for nonartifact spells)`; "empty" if empty."""
    order = "WUBRGC"
    groups: dict[tuple[str, str], int] = {}
    for u in units:
        key = (str(u.get("words", "")), str(u["type"]))
        groups[key] = groups.get(key, 0) + int(u.get("n", 1))
    parts = []
    for (words, kind), n in sorted(groups.items(), key=lambda kv: (
            kv[0][0] != "", kv[0][0], order.find(kv[0][1]))):
        one = "{" + kind + "}"
        parts.append((one * n if n <= 8 else f"{n:,} x {one}") + (f" ({words})" if words else ""))
    return " and ".join(parts) or "empty"


def _failed(c: Check, limit: int | None = None) -> str:
    """`expected ..., got ...` for a check that failed; `no_events` names what must not happen
    and what did ('expected none of ["mana_added"] to happen, but ["mana_added"] did')."""
    expected, actual = _fmt(c.expected), _fmt(c.actual)
    if limit is not None:
        expected, actual = shorten(expected, limit), shorten(actual, limit)
    if c.description == "no_events":
        return f"expected none of {expected} to happen, but {actual} did"
    return f"expected {expected}, got {actual}"


def check_line(c: Check) -> str:
    mark = "ok  " if c.ok else "FAIL"
    if c.ok:
        return f"{mark} {c.description} = {_fmt(c.expected)}"
    return f"{mark} {c.description}: {_failed(c)}"


def failure_lines(scenario: Scenario, results: list[StepResult]) -> list[str]:
    """`file:line: step k: what: expected ..., got ...` for each failed expectation, once
    each, in the order of their lines in the file."""
    failed = sorted(((c.line, r.number, i, c) for r in results
                     for i, c in enumerate(r.failures)), key=lambda t: t[:3])
    return [one_line(f"{scenario.path}:{line}: step {number}: {c.description}: "
                     f"{_failed(c, 200)}")
            for line, number, _i, c in failed]


def unusable_lines(scenario: Scenario, err: ScenarioError) -> list[str]:
    """What to say about a file that became unusable part-way: the failed expectations of the
    steps played before (`failure_lines`), then the error itself."""
    return [*failure_lines(scenario, played_before(err)), str(err)]


def question_lines(q: Question) -> list[str]:
    """A step's question as the class sees it before the step (its choices, lettered), then
    the engine's answer with the rules that decide it and why."""
    out = [f"  question (asked before the step): {q.ask}"]
    letters = "ABCDEFGH"
    out += [f"    {letters[i]}. {label}" for i, label in enumerate(q.labels)]
    which = f"{letters[q.correct]}. " if q.correct is not None else ""
    rules = f" (CR {', '.join(q.rules)})" if q.rules else ""
    why = f" {q.why}" if q.why else ""
    out.append(f"    the engine's answer: {which}{q.answer_label}{rules}.{why}")
    return out


def render(scenario: Scenario, results: list[StepResult]) -> str:
    """The walkthrough as text: each step's narration, events, board and checks. It ends with
    the count of failed expectations; their `file:line:` messages are `failure_lines` (the CLI
    prints them once, on stderr)."""
    rulings = f" ({', '.join(scenario.rulings)})" if scenario.rulings else ""
    out = [f"{scenario.title}{rulings}", f"file: {scenario.path}"]
    if scenario.pending:
        out.append("status: pending-engine (the engine can't play all of this yet)")
    for r in results:
        out.append("")
        if r.number == 0:
            out.append("Set-up")
            out += ["  " + ln for ln in r.narration.strip().splitlines()]
            out.append("  board:")
            out += board_lines(r.snapshot, r.labels)
            continue
        out.append(f"Step {r.number}: {action_text(r)}")
        if r.question is not None:
            out += question_lines(r.question)
        out += ["  " + ln for ln in r.narration.strip().splitlines()]
        if r.notes.strip():
            out.append("  notes (for the teacher, never shown to the class):")
            out += ["    " + ln for ln in r.notes.strip().splitlines()]
        if r.error is not None:
            out.append(f"  refused, as expected: {r.error}")
        if r.events:
            out.append("  events:")
            out += event_lines(r.events)
        out.append("  board:")
        out += board_lines(r.snapshot, r.labels)
        out += ["  " + check_line(c) for c in r.checks]
    failures = sum(len(r.failures) for r in results)
    out.append("")
    if failures:
        out.append(f"{failures} expectation(s) failed (listed on stderr, in line order)")
    else:
        checks = sum(len(r.checks) for r in results)
        out.append(f"all {checks} expectation(s) hold")
    return "\n".join(out)


# -------------------------------------------------------------------------- JSON


def to_json(scenario: Scenario, results: list[StepResult]) -> dict[str, Any]:
    """The `run --json` document (schema: mtg_rulekit/scenario/run_output.schema.json)."""
    steps = []
    for r in results:
        steps.append({
            "number": r.number,
            "narration": r.narration,
            "action": jsonable(r.action),
            "line": r.line,
            "error": None if r.error is None else {"message": str(r.error), "rule": r.error.rule},
            "events": [jsonable(e.to_json()) for e in r.events],
            "state": jsonable(r.snapshot),
            "labels": dict(r.labels),
            "checks": [jsonable(c.to_json()) for c in r.checks],
            "question": None if r.question is None else jsonable(r.question.to_json()),
            "notes": r.notes,
            "ok": r.ok,
        })
    return {
        "format": "rulekit-run/1",
        "file": scenario.path,
        "title": scenario.title,
        "rulings": scenario.rulings,
        "status": scenario.status,
        "ok": all(r.ok for r in results),
        "steps": steps,
    }


def error_json(path: str, line: int | None, message: str) -> dict[str, Any]:
    return {"format": "rulekit-run/1", "file": path, "ok": False,
            "error": {"file": path, "line": line, "message": message}}
