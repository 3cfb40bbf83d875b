"""Ruling coverage: the kit's own list of R01-R19, and tests / lessons / diagrams for each."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

from mtg_rulekit.core.rulings import all_rulings
from mtg_rulekit.repo.coverage import coverage, diagrams_exist, lessons_by_ruling, lessons_exist
from mtg_rulekit.repo.coverage import tests_by_ruling as find_marked_tests


def test_the_kit_lists_r01_to_r19_with_topic_and_rules():
    rulings = all_rulings()
    assert list(rulings) == [f"R{i:02d}" for i in range(1, 20)]
    for r in rulings.values():
        assert r.topic and r.plain and r.rules


def test_every_ruling_is_covered():
    """Every ruling has at least one marked test. Lessons (notebooks/*.ipynb headings naming the
    id) and diagrams (diagrams/Rxx*.svg) are required only once any lesson notebook / any
    diagram exists in the checkout: until then those columns can't be filled."""
    rows = coverage()
    missing = [f"{c.ruling.id}: no test" for c in rows if not c.tests]
    if lessons_exist():
        missing += [f"{c.ruling.id}: no lesson section" for c in rows if not c.lessons]
    if diagrams_exist():
        missing += [f"{c.ruling.id}: no diagram" for c in rows if not c.diagrams]
    assert missing == []


def test_marks_are_found_through_aliases_classes_and_pytestmark(tmp_path: Path):
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "test_demo.py").write_text(textwrap.dedent('''
        import pytest
        from pytest import mark
        R01 = pytest.mark.ruling("R01")
        ruling = pytest.mark.ruling
        pytestmark = [pytest.mark.ruling("R19")]

        @R01
        def test_alias(): ...

        @pytest.mark.ruling("R02", "R03")
        def test_direct(): ...

        @ruling("R04")
        def test_aliased_function(): ...

        @mark.ruling("R05")
        class TestGroup:
            pytestmark = pytest.mark.ruling("R06")
            def test_in_class(self): ...
            def helper(self): ...

        def helper(): ...
    '''), encoding="utf-8")
    (tests / "test_broken.py").write_text("def test_(:\n", encoding="utf-8")
    found = find_marked_tests(tmp_path)
    node = "tests/test_demo.py::"
    assert found["R01"] == [node + "test_alias"]
    assert found["R02"] == found["R03"] == [node + "test_direct"]
    assert found["R04"] == [node + "test_aliased_function"]
    assert found["R05"] == found["R06"] == [node + "TestGroup::test_in_class"]
    assert len(found["R19"]) == 4


def test_lessons_are_found_by_headings(tmp_path: Path):
    nb = tmp_path / "notebooks"
    nb.mkdir()
    cells = [{"cell_type": "markdown", "source": ["# Tapping\n", "## Tapped for mana (R04)\n",
                                                   "Not a heading R05\n"]},
             {"cell_type": "code", "source": "# R06 in code"},
             {"cell_type": "markdown", "source": "### Two at once (R01, R02)"}]
    (nb / "02_tapping.ipynb").write_text(json.dumps({"cells": cells}), encoding="utf-8")
    found = {rid: [str(s) for s in sections]
             for rid, sections in lessons_by_ruling(tmp_path).items()}
    assert found == {"R04": ["notebooks/02_tapping.ipynb: ## Tapped for mana (R04)"],
                     "R01": ["notebooks/02_tapping.ipynb: ### Two at once (R01, R02)"],
                     "R02": ["notebooks/02_tapping.ipynb: ### Two at once (R01, R02)"]}
    assert {s.title for sections in lessons_by_ruling(tmp_path).values()
            for s in sections} == {"Tapping"}
    assert lessons_exist(tmp_path) and not diagrams_exist(tmp_path)
