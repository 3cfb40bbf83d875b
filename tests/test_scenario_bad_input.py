"""Malformed scenarios: one clear line `file:line: message`, the right exit code, no traceback,
and quick refusal of files that can't be scenarios at all.

The corpus is `tests/bad_scenarios/*.toml`; `expected.json` there says, for each file, the exit
code of `python -m mtg_rulekit run FILE`, the line the message names and a piece of the message.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from mtg_rulekit.cli import main
from mtg_rulekit.scenario import ScenarioError, load, loads, play

CORPUS = Path(__file__).parent / "bad_scenarios"
EXPECTED = json.loads((CORPUS / "expected.json").read_text("utf-8"))
FILES = sorted(p.name for p in CORPUS.glob("*.toml"))


def test_the_corpus_is_big_and_every_file_has_an_expectation():
    assert len(FILES) >= 20
    assert sorted(k for k in EXPECTED if not k.startswith("_")) == FILES


@pytest.mark.parametrize("name", FILES)
def test_bad_scenario_gives_one_line_with_file_and_line(name, capsys, monkeypatch):
    monkeypatch.chdir(CORPUS.parent.parent)
    want = EXPECTED[name]
    path = f"tests/bad_scenarios/{name}"
    start = time.perf_counter()
    code = main(["run", path])
    took = time.perf_counter() - start
    out, err = capsys.readouterr()
    assert code == want["exit"], err or out
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert "Traceback" not in out + err
    assert "bug in rulekit" not in out + err  # an author's mistake is never the kit's
    assert "\x1b" not in out + err  # control characters are shown escaped
    prefix = f"{path}:{want['line']}: "
    if want["exit"] == 2:
        # one line (or the earlier failed expectations, then it), and nothing played printed
        assert len(lines) == want.get("lines", 1), err
        assert all(ln.startswith(f"{path}:") for ln in lines), err
        assert out == ""
    # a hostile file (a 5,000-digit number, 2,000 Mana Reflections...) is refused fast; the
    # bound is generous (a shared, slow machine), the point is "not 60 s"
    assert took < want.get("seconds", 60), f"{name} took {took:.1f} s"
    assert any(ln.startswith(prefix) and want["contains"] in ln for ln in lines), err


@pytest.mark.parametrize("name", [n for n in FILES if EXPECTED[n]["exit"] == 2])
def test_unusable_files_raise_scenario_error_on_load_or_play(name):
    with pytest.raises(ScenarioError) as info:
        play(load(CORPUS / name))
    assert info.value.line == EXPECTED[name]["line"]
    assert EXPECTED[name]["contains"] in str(info.value)


def _refused_before_parsing(path: Path, words: str) -> None:
    """Refused by a guard that runs before parsing (size, bytes, nesting), so at line 1 and with
    the guard's own words (speed is a benchmark matter, never a timed assert)."""
    with pytest.raises(ScenarioError) as info:
        load(path)
    assert words in str(info.value) and str(info.value).startswith(f"{path}:1: ")


def test_empty_file_is_refused_before_parsing(tmp_path):
    (tmp_path / "empty.toml").write_bytes(b"")
    _refused_before_parsing(tmp_path / "empty.toml", "empty")


def test_binary_file_is_refused_before_parsing(tmp_path):
    (tmp_path / "noise.toml").write_bytes(os.urandom(200_000) + b"\x00")
    _refused_before_parsing(tmp_path / "noise.toml", "binary")


def test_20_mb_file_is_refused_unread(tmp_path):
    big = tmp_path / "big.toml"
    with open(big, "wb") as fh:
        fh.write(b'title = "big"\n' + b"# padding padding padding\n" * 800_000)
    assert big.stat().st_size > 20_000_000
    _refused_before_parsing(big, "too large")


@pytest.mark.parametrize("text", [
    "x = " + "[" * 400_000,
    "x = " + "{ a = " * 100_000,
    "x = " + "[" * 50 + "1" + "]" * 50,
])
def test_absurdly_nested_file_is_refused_before_parsing(tmp_path, text):
    path = tmp_path / "deep.toml"
    path.write_text(text, encoding="utf-8")
    _refused_before_parsing(path, "nested")


def test_too_many_values_are_refused(tmp_path):
    path = tmp_path / "wide.toml"
    path.write_text('title = "wide"\nx = [' + "1," * 60_000 + "]\n", encoding="utf-8")
    with pytest.raises(ScenarioError, match="more than"):
        load(path)


def test_a_missing_file_and_a_directory_are_one_line_errors(tmp_path):
    with pytest.raises(ScenarioError, match="no such file"):
        load(tmp_path / "nope.toml")
    with pytest.raises(ScenarioError, match="directory"):
        load(tmp_path)


def test_nothing_is_half_applied_when_a_later_step_is_illegal(capsys):
    """The CLI plays the whole scenario before printing: a broken step 2 prints only its error."""
    text = (CORPUS / "illegal_action.toml").read_text("utf-8")
    sc = loads(text.replace('tapped = true\n', ''), name="ok_first.toml")
    assert play(sc)[1].ok
    code = main(["run", str(CORPUS / "illegal_action.toml")])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1


# ------------------------------------------------------------------ message length
def _run_one_line(path: Path, capsys) -> str:
    code = main(["run", str(path)])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err[:500]
    return lines[0]


def test_a_400_kb_title_gives_a_short_message(tmp_path, capsys):
    path = tmp_path / "title.toml"
    path.write_text('title = "' + "A" * 400_000 + '"\n\n[setup]\nplayers = ["Alice", "Bob"]\n\n'
                    '[[step]]\nnarration = "x"\ndo = "look"\n', "utf-8")
    assert _run_one_line(path, capsys) == f"{path}:1: title: 400,000 characters; at most 200"


def test_10000_permanents_give_a_short_message(tmp_path, capsys):
    perms = "".join(f'[[setup.permanent]]\ncard = "Forest"\nname = "f{i}"\n\n'
                    for i in range(10_000))
    path = tmp_path / "many.toml"
    path.write_text('title = "Many"\n\n[setup]\nplayers = ["Alice", "Bob"]\n\n' + perms
                    + '[[step]]\nnarration = "x"\ndo = "look"\n', "utf-8")
    assert _run_one_line(path, capsys) == \
        f"{path}:6: setup.permanent: 10,000 entries (limit 100)"


def test_any_long_message_is_cut_and_says_so(tmp_path, capsys):
    """A message quoting the author's text: a 5,000-character unknown key."""
    path = tmp_path / "long.toml"
    path.write_text(f'title = "Long"\n{"k" * 5000} = 1\n\n[setup]\nplayers = ["Alice", "Bob"]\n\n'
                    '[[step]]\nnarration = "x"\ndo = "look"\n', "utf-8")
    line = _run_one_line(path, capsys)
    assert line.startswith(f"{path}:2: unknown field 'kkk")
    assert line.endswith("more characters cut)") and len(line) < len(str(path)) + 500


def test_capped_keeps_short_errors_and_cuts_long_ones():
    from mtg_rulekit.scenario.model import MAX_MESSAGE, capped

    short = ScenarioError("short", path="f.toml", line=3)
    assert capped(short) is short
    long = capped(ScenarioError("x" * 100_000, path="f.toml", line=3))
    assert str(long) == f"f.toml:3: {'x' * MAX_MESSAGE}... (99,600 more characters cut)"
    assert long.line == 3 and long.path == "f.toml"


# ------------------------------------------------------------------ error output
def test_an_unknown_card_message_keeps_its_closing_quote(capsys):
    assert main(["run", str(CORPUS / "unknown_card_no_suggestion.toml")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.endswith("card: unknown card 'Birds of Paradise'"), err


@pytest.mark.parametrize("command", ["run", "check"])
def test_each_failed_expectation_is_reported_once_in_line_order(capsys, monkeypatch, command):
    monkeypatch.chdir(CORPUS.parent.parent)
    path = "tests/bad_scenarios/several_failed_expectations.toml"
    assert main([command, path]) == 1
    out, err = capsys.readouterr()
    messages = [ln.strip() for ln in (out + err).splitlines() if ln.strip().startswith(path)]
    assert [m.split(":")[1] for m in messages] == ["16", "17", "18", "25"], messages
    assert messages[1] == (f'{path}:17: step 1: pool.Alice: expected ["G", "G"], got ["G"]')
    assert len(set(messages)) == len(messages) == 4  # once each, stdout and stderr together


# ------------------------------------------------------------------ hostile scenarios
def test_a_newline_in_the_file_name_does_not_split_the_message(tmp_path, capsys):
    path = tmp_path / "two\nlines\u200b.toml"
    path.write_text((CORPUS / "illegal_action.toml").read_text("utf-8"), "utf-8")
    line = _run_one_line(path, capsys)
    assert line.startswith(f"{tmp_path}/two\\nlines\\u200b.toml:13: step 1: do: ")
    assert main(["check", str(path)]) == 2
    out = capsys.readouterr().out
    assert "two\\nlines\\u200b.toml:13:" in out and "lines\u200b" not in out


def test_format_characters_in_a_message_are_escaped():
    from mtg_rulekit.scenario.model import one_line

    with pytest.raises(ScenarioError) as info:
        loads((CORPUS / "duplicate_label.toml").read_text("utf-8")
              .replace('card = "Forest"', 'card = "For\u200best\u202e"', 1))
    message = str(info.value)
    assert "For\\u200best\\u202e" in message and "\u200b" not in message
    assert one_line("tab\there\nand\u2028there") == "tab\\there\\nand\\u2028there"
    assert one_line("Æther, Kiki-Jiki ✓") == "Æther, Kiki-Jiki ✓"  # letters and symbols stay


def test_check_goes_on_after_a_file_with_a_5000_digit_number(tmp_path, capsys):
    (tmp_path / "a_long_number.toml").write_text(
        (CORPUS / "long_number.toml").read_text("utf-8"), "utf-8")
    (tmp_path / "b_fine.toml").write_text(
        (CORPUS / "illegal_action.toml").read_text("utf-8").replace("tapped = true\n", ""),
        "utf-8")
    assert main(["check", str(tmp_path)]) == 2
    out, err = capsys.readouterr()
    assert "a_long_number.toml:16: a number with 5,000 digits" in out
    assert "PASS" in out and "b_fine.toml" in out and out.rstrip().endswith("1 passed, 1 failed")
    assert "Traceback" not in out + err


@pytest.mark.parametrize("literal, digits", [("0x" + "f" * 5000, "6,021"),
                                             ("0o" + "7" * 5000, "4,516"),
                                             ("0b" + "1" * 20_000, "6,021")])
def test_a_long_hex_octal_or_binary_number_is_one_line_in_run_check_and_diagram(
        literal, digits, tmp_path, capsys):
    """Python reads such literals at any length but can't print them (past 4,300 digits):
    one line and exit 2 in every command, and `check` goes on to the next file."""
    text = (CORPUS / "illegal_action.toml").read_text("utf-8")
    (tmp_path / "a_long.toml").write_text(
        text.replace('players = ["Alice", "Bob"]', f'players = ["Alice", "Bob"]\nturn = {literal}'),
        "utf-8")
    (tmp_path / "b_fine.toml").write_text(text.replace("tapped = true\n", ""), "utf-8")
    line = f"{tmp_path}/a_long.toml:5: setup.turn: a number with about {digits} digits: far more"
    for command in (["run"], ["diagram", "-o", str(tmp_path / "d.svg")]):
        assert main([*command, str(tmp_path / "a_long.toml")]) == 2
        out, err = capsys.readouterr()
        assert out == "" and err.startswith(line) and err.count("\n") == 1, err
    assert main(["check", str(tmp_path)]) == 2
    out, err = capsys.readouterr()
    assert line in out and "Traceback" not in out + err
    assert "b_fine.toml" in out and out.rstrip().endswith("1 passed, 1 failed")


@pytest.mark.parametrize("value, words", [
    ("life = 20.0", "setup.life: expected a whole number, got the decimal number 20.0 (write 20)"),
    ("turn = 2e0", "setup.turn: expected a whole number, got the decimal number 2.0"),
    ("turn = nan", "got the decimal number nan"),
    ("life = { Alice = 7.5 }", "setup.life.Alice: expected a whole number, got the decimal"),
    ("turn = 99999999999999", "a number with 14 digits"),
])
def test_decimal_and_huge_numbers_are_refused_at_their_line(value, words):
    text = (CORPUS / "illegal_action.toml").read_text("utf-8").replace(
        'players = ["Alice", "Bob"]', f'players = ["Alice", "Bob"]\n{value}')
    with pytest.raises(ScenarioError) as info:
        loads(text, name="n.toml")
    assert str(info.value).startswith("n.toml:5: ") and words in str(info.value)


@pytest.mark.parametrize("word", ["no", "yes", "true", "false"])
def test_decision_words_are_not_labels(word):
    """`decisions.copy = "no"` must always mean "don't copy": a permanent can't be labelled
    `no` (nor a card in a hand, nor an object made in a step)."""
    base = (CORPUS / "decision_label_typo.toml").read_text("utf-8")
    for text in (base.replace('name = "bears"', f'name = "{word}"'),
                 base.replace('name = "clone"', f'name = "{word}"')):
        with pytest.raises(ScenarioError, match=f"'{word}' can't be a label"):
            loads(text)
    ok = loads(base.replace('copy = "beers"', 'copy = "no"'))
    assert play(ok)[2].snapshot["objects"][-1]["card"] == "Clone"  # it copied nothing


def test_what_a_step_builds_is_bounded(monkeypatch):
    """The limits after each step (objects, counters) refuse at the step's line; the real
    limits are 10,000 each, lowered here so the test stays fast."""
    from mtg_rulekit.scenario import model

    text = (CORPUS / "counters_in_setup.toml").read_text("utf-8").replace("100000", "3")
    one = text[:text.index("[[setup.permanent]]", text.index("[[setup.permanent]]") + 1)]
    one += '\n[[step]]\nnarration = "It dies."\ndo = "destroy"\nobjects = ["Hangarback Walker"]\n'
    one += '\n[[step]]\nnarration = "Three Thopters."\ndo = "resolve"\n'
    assert play(loads(one))[2].snapshot["objects"][-1]["card"] == "Thopter"
    monkeypatch.setattr(model, "MAX_OBJECTS", 4)
    with pytest.raises(ScenarioError) as info:
        play(loads(one, name="t.toml"))
    assert str(info.value).startswith(
        "t.toml:18: step 2: do: after this step the game holds 5 objects")
    assert str(info.value).endswith("(limit 4)")
    monkeypatch.setattr(model, "MAX_OBJECTS", 10_000)
    monkeypatch.setattr(model, "MAX_COUNTERS", 2)
    with pytest.raises(ScenarioError, match=r"permanents have 3 counters.*\(limit 2\)"):
        play(loads(one.replace('do = "destroy"\nobjects = ["Hangarback Walker"]', 'do = "look"'),
              name="t.toml"))


def test_run_json_lists_the_failures_before_the_refusal(capsys, monkeypatch):
    monkeypatch.chdir(CORPUS.parent.parent)
    path = "tests/bad_scenarios/failure_then_refused.toml"
    assert main(["run", "--json", path]) == 2
    doc = json.loads(capsys.readouterr().out)
    assert doc["error"]["line"] == 20 and "the action was refused" in doc["error"]["message"]
    assert doc["failures"] == [f'{path}:16: step 1: pool.Alice: expected ["R"], got ["G"]']
    assert main(["check", path]) == 2
    out = capsys.readouterr().out
    assert out.index(f"{path}:16: step 1: pool.Alice") < out.index(f"{path}:20: step 2")
