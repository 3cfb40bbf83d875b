"""A notebook's outline (`mtg_rulekit.repo.outline`): its title, its headings and the rulings they
name, read once for the coverage table, the lesson lists and the exported pages' titles."""

from __future__ import annotations

import json
from pathlib import Path

import nbformat

from mtg_rulekit.repo.outline import Heading, outline, read_outline

md, code = nbformat.v4.new_markdown_cell, nbformat.v4.new_code_cell


def test_headings_are_atx_lines_of_markdown_cells_with_the_rulings_they_name():
    nb = nbformat.v4.new_notebook(cells=[
        md("Intro\n# The *real* title #\n\nNot a heading R05\n#hashtag R06"),
        code("# R07 in a code cell"),
        md("```python\n# R08 in a fenced block\n```\n### Two at once (R02, R01, R02)\n"
           "~~~\n## fenced R09\n~~~\n   ## Indented (R10)")])
    found = outline(nb, "fallback")
    assert found.title == "The real title"
    assert [h.markdown for h in found.headings] == [
        "# The *real* title", "### Two at once (R02, R01, R02)", "## Indented (R10)"]
    assert found.headings[1].rulings == ("R02", "R01")
    assert found.rulings == ("R01", "R02", "R10")
    assert found.headings[0].text == "The real title"


def test_title_is_metadata_then_first_level_one_heading_then_fallback():
    nb = nbformat.v4.new_notebook(cells=[md("## Section\n# Lesson &amp; <b>title</b>")])
    assert outline(nb, "x").title == "Lesson & title"
    nb.metadata["title"] = "From metadata"
    assert outline(nb, "x").title == "From metadata"
    assert outline({"cells": [md("## Only a section")]}, "x").title == "x"


def test_anchor_is_the_id_nbconvert_gives_the_heading():
    """The link fragment the coverage table uses lands on the exported page's heading."""
    from html import unescape

    from nbconvert.filters.markdown_mistune import markdown2html_mistune

    for source in ('"Is *tapped* for mana" triggers (R04)', r"A \*literal\* star & 50%? {T}",
                   "Mana of an `undefined` type (R01)"):
        page = markdown2html_mistune(f"## {source}")
        assert unescape(page.split('id="', 1)[1].split('"', 1)[0]) == Heading(2, source).anchor
    lessons = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))
    headings = [h for path in lessons for h in (read_outline(path) or outline({})).headings]
    assert len(headings) > 50
    for h in headings:  # every heading of every lesson
        page = markdown2html_mistune(h.markdown)
        assert unescape(page.split('id="', 1)[1].split('"', 1)[0]) == h.anchor, h.markdown


def test_read_outline_reads_a_file_and_skips_what_is_not_a_notebook(tmp_path: Path):
    good = tmp_path / "03_x.ipynb"
    good.write_text(json.dumps({"cells": [{"cell_type": "markdown",
                                           "source": ["## A (R03)\n", "text"]}]}), "utf-8")
    found = read_outline(good)
    assert found is not None and found.title == "03_x" and found.rulings == ("R03",)
    bad = tmp_path / "bad.ipynb"
    bad.write_text("{not json", "utf-8")
    assert read_outline(bad) is None
    (tmp_path / "list.ipynb").write_text("[]", "utf-8")
    assert read_outline(tmp_path / "list.ipynb") is None
