"""The README's engine examples run and say what the README says they say."""

import contextlib
import io
import re
from pathlib import Path

import pytest

from mtg_rulekit import RulesError

README = (Path(__file__).resolve().parents[1] / "README.md").read_text("utf-8")
BLOCKS = re.findall(r"```python\n(.*?)```", README, flags=re.S)


def test_readme_has_the_two_engine_examples():
    assert len(BLOCKS) == 2


def test_first_example_prints_what_its_comment_says():
    out = io.StringIO()
    scope: dict = {}
    with contextlib.redirect_stdout(out):
        exec(BLOCKS[0], scope)
    promised = re.search(r"# (\[.*?\])", BLOCKS[0]).group(1)
    assert out.getvalue().splitlines()[0] == promised
    assert "106.12b" in out.getvalue(), "the log lines show the replacement's rule"


def test_second_example_raises_the_error_shown():
    scope: dict = {}
    with contextlib.redirect_stdout(io.StringIO()):
        exec(BLOCKS[0], scope)
    shown = " ".join(line.lstrip("# ").strip() for line in BLOCKS[1].splitlines()
                     if line.startswith("#"))
    shown = shown.removeprefix("RulesError: ")
    with pytest.raises(RulesError) as err:
        exec(BLOCKS[1], scope)
    assert str(err.value) == shown
