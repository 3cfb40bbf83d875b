"""`python -m mtg_rulekit`: run, check, diagram(s) and coverage, as a user runs them. Most tests call
the CLI in this process (`helpers.rulekit_cli`: the same exit code and output); the ones that
check what only a process shows (no traceback, the exit code, terminal escapes) start
`python -m mtg_rulekit`."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import jsonschema
import pytest

from mtg_rulekit.scenario import shipped
from tests.helpers import rulekit_cli

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "bad_scenarios"
OUTPUT_SCHEMA = json.loads(
    (ROOT / "mtg_rulekit" / "scenario" / "run_output.schema.json").read_text("utf-8"))


def cli(*args: str, cwd: Path = ROOT, process: bool = False) -> subprocess.CompletedProcess[str]:
    return rulekit_cli(*args, cwd=cwd, process=process)


def passing() -> Path:
    return next(p for p in shipped() if p.name.startswith("r04"))


def test_run_prints_narration_state_and_events_and_exits_0():
    done = cli("run", str(passing()), process=True)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Step 1: tap_for_mana" in out and "Alice taps Exotic Orchard" in out
    assert "[action]" in out and "[trigger]" in out  # events with their cause
    assert "pool {G}{G}{G}" in out  # the compact board
    assert out.rstrip().endswith("expectation(s) hold")
    assert done.stderr == ""


def test_run_exits_1_with_expected_and_actual_on_a_failed_expectation():
    done = cli("run", str(CORPUS / "failed_expectation.toml"))
    assert done.returncode == 1
    assert "expected [\"G\", \"G\"], got [\"G\"]" in done.stderr
    assert "failed_expectation.toml:16: step 1: pool.Alice" in done.stderr
    assert "Traceback" not in done.stdout + done.stderr


@pytest.mark.parametrize("name", ["unknown_card.toml", "binary.toml", "illegal_action.toml"])
def test_run_exits_2_with_one_line_on_a_bad_file(name):
    done = cli("run", str(CORPUS / name))
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and f"{name}:" in done.stderr
    assert "Traceback" not in done.stderr


def test_run_json_follows_the_documented_schema():
    done = cli("run", "--json", str(passing()))
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    jsonschema.validate(doc, OUTPUT_SCHEMA)
    assert doc["ok"] and doc["steps"][0]["number"] == 0
    assert [s["number"] for s in doc["steps"]] == list(range(len(doc["steps"])))
    kinds = {e["kind"] for s in doc["steps"] for e in s["events"]}
    assert {"mana_added", "triggered", "note"} <= kinds


QUESTION = """title = "A question and notes"
ruling = ["R07"]

[setup]
turn = 2
step = "main1"

[[setup.permanent]]
card = "Forest"
name = "forest"

[[step]]
narration = "Alice taps the Forest."
do = "tap_for_mana"
object = "forest"
notes = "Ask the room first: one {G}, not two."

[step.question]
ask = "What will Alice's pool hold?"
about = "pool.Alice"
choices = [["G", "G"], ["G"], []]
rule = "106.4"
why = "A Forest adds one {G}."
"""


def test_run_shows_each_question_with_its_choices_the_engines_answer_and_the_notes(tmp_path):
    path = tmp_path / "q.toml"
    path.write_text(QUESTION, "utf-8")
    done = cli("run", str(path))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    at = lines.index("  question (asked before the step): What will Alice's pool hold?")
    assert lines[at + 1:at + 5] == ["    A. {G}{G}", "    B. {G}", "    C. Nothing",
                                    "    the engine's answer: B. {G} (CR 106.4). A Forest adds "
                                    "one {G}."]
    assert lines[at + 5:at + 8] == ["  Alice taps the Forest.",
                                    "  notes (for the teacher, never shown to the class):",
                                    "    Ask the room first: one {G}, not two."]
    doc = json.loads(cli("run", "--json", str(path)).stdout)
    jsonschema.validate(doc, OUTPUT_SCHEMA)
    step = doc["steps"][1]
    assert step["notes"] == "Ask the room first: one {G}, not two."
    assert step["question"]["ask"] == "What will Alice's pool hold?"
    assert step["question"]["labels"] == ["{G}{G}", "{G}", "Nothing"]
    assert step["question"]["correct"] == 1 and step["question"]["rules"] == ["106.4"]
    assert doc["steps"][0]["question"] is None and doc["steps"][0]["notes"] == ""


def test_run_json_of_a_failing_and_a_bad_file_follows_the_schema():
    failing = cli("run", "--json", str(CORPUS / "failed_expectation.toml"))
    assert failing.returncode == 1
    doc = json.loads(failing.stdout)
    jsonschema.validate(doc, OUTPUT_SCHEMA)
    assert not doc["ok"] and any(not c["ok"] for s in doc["steps"] for c in s["checks"])
    bad = cli("run", "--json", str(CORPUS / "unknown_card.toml"))
    assert bad.returncode == 2
    doc = json.loads(bad.stdout)
    jsonschema.validate(doc, OUTPUT_SCHEMA)
    assert doc["error"]["line"] == 7 and "did you mean 'Forest'" in doc["error"]["message"]


def test_check_runs_the_shipped_scenarios_by_default():
    done = cli("check")
    lines = done.stdout.strip().splitlines()
    assert done.returncode == 0, done.stdout
    passed = sum(1 for ln in lines if ln.startswith("PASS "))
    assert lines[-1] == f"{passed} passed, 0 failed"
    assert passed >= 10
    assert "Traceback" not in done.stdout + done.stderr


def test_check_counts_failures_and_searches_directories(tmp_path):
    good = tmp_path / "good"
    good.mkdir()
    (good / "a.toml").write_text(passing().read_text("utf-8"), encoding="utf-8")
    done = cli("check", str(good), str(CORPUS / "failed_expectation.toml"))
    assert done.returncode == 1
    assert done.stdout.strip().splitlines()[-1] == "1 passed, 1 failed"
    done = cli("check", str(CORPUS))
    n = len(list(CORPUS.glob("*.toml")))
    assert done.returncode == 2
    assert done.stdout.strip().splitlines()[-1] == f"0 passed, {n} failed"
    assert "Traceback" not in done.stdout + done.stderr


def test_check_reports_pending_scenarios_as_skipped(tmp_path):
    text = passing().read_text("utf-8").replace("\n[setup]", 'status = "pending-engine"\n\n[setup]', 1)
    (tmp_path / "pending.toml").write_text(text, encoding="utf-8")
    done = cli("check", str(tmp_path))
    assert done.returncode == 0
    out = done.stdout.strip().splitlines()
    assert out[0].startswith("SKIP ") and "it passes now" in out[0]
    assert out[-2] == '1 skipped (status = "pending-engine")' and out[-1] == "0 passed, 0 failed"


def test_usage_errors_exit_2_without_traceback():
    for args in ([], ["nonsense"], ["run"], ["diagram", str(passing()), "-o", "out.png"]):
        done = cli(*args)
        assert done.returncode == 2, args
        assert "Traceback" not in done.stderr
    done = cli("run", process=True)  # and as the shell sees it
    assert done.returncode == 2 and "Traceback" not in done.stderr and done.stdout == ""


def test_diagram_writes_dot_or_says_why_not(tmp_path):
    out = tmp_path / "r04.dot"
    done = cli("diagram", str(passing()), "--step", "1", "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert out.read_text("utf-8").lstrip().startswith(("digraph", "strict digraph"))
    done = cli("diagram", str(passing()), "--step", "99", "-o", str(out))
    assert done.returncode == 2 and "--step 99" in done.stderr


def test_coverage_lists_every_ruling():
    done = cli("coverage", "--json")
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)
    assert [r["id"] for r in rows] == [f"R{i:02d}" for i in range(1, 20)]
    r04 = rows[3]
    assert any(t.startswith("tests/") and "::" in t for t in r04["tests"])
    assert any("r04_" in s for s in r04["scenarios"])
    table = cli("coverage")
    assert table.returncode == 0 and table.stdout.startswith("R01 ")


# ------------------------------------------------------------------ files
def test_diagrams_out_an_existing_file_is_one_line_exit_2_and_changes_nothing(tmp_path):
    target = tmp_path / "notes.txt"
    target.write_text("keep me")
    done = cli("diagrams", "--out", str(target))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        f"rulekit: --out {target} is a file, not a folder: name a folder for the diagrams "
        "(e.g. diagrams); nothing was changed"]
    assert target.read_text() == "keep me" and sorted(p.name for p in tmp_path.iterdir()) == \
        ["notes.txt"]


@pytest.mark.parametrize("command", [("run",), ("check",), ("diagram", "-o", "x.dot")])
def test_a_fifo_is_refused_before_it_is_opened_for_reading(tmp_path, command):
    fifo = tmp_path / "f.toml"
    os.mkfifo(fifo)
    done = cli(command[0], str(fifo), *command[1:], cwd=tmp_path)  # would block forever
    assert done.returncode == 2, done
    lines = (done.stdout + done.stderr).strip().splitlines()
    assert any(ln.strip().startswith("f.toml:1: this is not a regular file (a FIFO, a device or "
                                     "a socket?)") for ln in lines), lines
    assert "Traceback" not in done.stdout + done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.toml"]


def test_run_an_empty_path_says_what_it_looked_for():
    done = cli("run", "")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        "no scenario file named '' (the path is empty): give the path of a .toml scenario, e.g. "
        "mtg_rulekit/scenarios/r01_undefined_mana.toml"]


def test_run_shows_control_characters_as_escapes_never_raw(tmp_path):
    """A title or narration with `\\u001b[2J` would clear the screen; BEL rings; CR overwrites."""
    scenario = tmp_path / "ansi.toml"
    scenario.write_text(
        'title = "Clear \\u001b[2J the screen"\n\n[setup]\nplayers = ["Alice", "Bob"]\n\n'
        '[[setup.permanent]]\ncard = "Forest"\n\n[[step]]\n'
        'narration = "Ring \\u0007 the bell, \\u001b[31mred\\r and \\u202egoing back"\n'
        'do = "tap_for_mana"\nobject = "Forest"\n', "utf-8")
    done = cli("run", str(scenario), process=True)
    assert done.returncode == 0, done.stderr
    raw = [c for c in done.stdout if (ord(c) < 32 and c not in "\n\t") or 0x7f <= ord(c) < 0xa0
           or c == "\u202e"]
    assert raw == []
    assert done.stdout.startswith("Clear \\x1b[2J the screen\n")
    assert "Ring \\x07 the bell, \\x1b[31mred" in done.stdout  # CR: a line break in narration
    assert "and \\u202egoing back" in done.stdout
    bad = tmp_path / "bad.toml"
    bad.write_text('title = "x"\n\n[setup]\nplayers = ["Alice", "Bob"]\n\n[[step]]\n'
                   'narration = "x"\ndo = "tap_for_mana"\nobject = "For\\u001b[2Jest"\n', "utf-8")
    done = cli("run", str(bad))
    assert done.returncode == 2 and "\x1b" not in done.stderr and "\\x1b[2J" in done.stderr


def test_a_graph_dot_refuses_is_not_blamed_on_a_missing_graphviz(tmp_path, monkeypatch, capsys):
    """Graphviz ran and refused the graph: say what it said, not "install Graphviz"."""
    from mtg_rulekit.cli import main

    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "dot").write_text(
        "#!/bin/sh\ncat >/dev/null\necho 'Error: <stdin>: syntax error in line 10 scanning a "
        "quoted string (missing endquote? longer than 16384?)' >&2\nexit 1\n", "utf-8")
    (fake / "dot").chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake}{os.pathsep}{os.environ['PATH']}")  # before the real one
    code = main(["diagram", str(passing()), "-o", str(tmp_path / "x.svg")])
    err = capsys.readouterr().err.splitlines()
    assert code == 2 and err == [
        "rulekit: Graphviz could not draw this diagram: Error: <stdin>: syntax error in line 10 "
        "scanning a quoted string (missing endquote? longer than 16384?)"]
    assert not (tmp_path / "x.svg").exists()
    code = main(["diagrams", "--out", str(tmp_path / "all")])  # `dot -V` fails the same way
    err = capsys.readouterr().err
    assert code == 2 and "Graphviz could not draw" in err and "Traceback" not in err


def test_narration_is_bounded_in_the_schema(tmp_path):
    scenario = tmp_path / "long.toml"
    scenario.write_text('title = "Long"\n\n[setup]\nplayers = ["Alice", "Bob"]\n\n[[step]]\n'
                        f'narration = "{"word " * 4000}"\ndo = "look"\n', "utf-8")
    done = cli("diagram", str(scenario), "-o", str(tmp_path / "x.svg"))
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"{scenario}:7: step 1: narration: 20,000 characters; at most 2000"]
