"""Every rule number the engine cites is a known, summarised CR rule (data/rules.toml)."""

import re
from pathlib import Path

import pytest

from mtg_rulekit.core.rules import all_rules, explain, rule

ROOT = Path(__file__).resolve().parents[1] / "mtg_rulekit"
CITATION = re.compile(r"""["'](\d{3}\.\d+[a-z]?)["']""")


def cited_numbers() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for path in sorted(ROOT.rglob("*.py")):
        for lineno, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            for number in CITATION.findall(line):
                found.setdefault(number, []).append(f"{path.relative_to(ROOT)}:{lineno}")
    return found


def test_engine_cites_rules():
    assert len(cited_numbers()) > 30


def test_every_cited_rule_is_listed_with_a_summary():
    known = all_rules()
    missing = {n: where[:2] for n, where in cited_numbers().items() if n not in known}
    assert not missing, f"cite only rules listed in mtg_rulekit/data/rules.toml: {missing}"


def test_summaries_are_short_and_our_own():
    for r in all_rules().values():
        assert 0 < len(r.summary) <= 160, r.number
        assert r.title


def test_explain_and_unknown_rule():
    assert explain("302.6").startswith("CR 302.6")
    with pytest.raises(KeyError, match="999.9"):
        rule("999.9")
