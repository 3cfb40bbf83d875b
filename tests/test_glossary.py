"""The words every lesson leans on are defined once (`mtg_rulekit/data/glossary.toml`), shown in
Start here, and marked with `<dfn>` where each lesson first uses them, linking to the entry; a
lesson page's glossary links point at the Start here page, titled with the meaning."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

from mtg_rulekit.core.glossary import START_HERE, glossary, term, word_pattern
from mtg_rulekit.core.rules import all_rules
from mtg_rulekit.display.lesson import glossary_html
from tests.lesson_shape import SANDBOX_HEADING, lesson_notebooks

ROOT = Path(__file__).resolve().parent.parent
LESSONS = lesson_notebooks(ROOT / "notebooks")
REQUIRED = ("permanent", "the stack", "priority", "trigger", "token", "mana pool",
            "mana ability", "tapped for mana")
DFN = re.compile(r'<dfn><a href="00_start_here\.ipynb#glossary-([a-z0-9-]+)">([^<]+)</a></dfn>')
QUOTED = re.compile(r'"[^"]*"')
TAG = re.compile(r"<[^>]*>")


def lesson_prose(path: Path) -> str:
    """A lesson's markdown before its sandbox (the lesson's own words), headings blanked, quoted
    card and rules text blanked (a student meets a word in the lesson's own sentences first)."""
    nb = nbformat.read(path, as_version=4)
    text = []
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            continue
        if cell.source.lstrip().startswith(SANDBOX_HEADING):
            break
        lines = [" " * len(line) if line.lstrip().startswith("#") else line
                 for line in cell.source.splitlines()]
        prose = "\n".join(lines)
        masked = TAG.sub(lambda m: "<" + "x" * (len(m.group()) - 2) + ">", prose)  # tags' quotes
        for m in QUOTED.finditer(masked):
            prose = prose[:m.start()] + re.sub(r"[^\n]", " ", m.group()) + prose[m.end():]
        text.append(prose)
    return "\n\n".join(text)


def test_the_glossary_defines_the_core_words_with_listed_rules():
    words = [t.word for t in glossary()]
    assert set(REQUIRED) <= set(words) and len(set(words)) == len(words)
    listed = all_rules()
    for t in glossary():
        assert t.means.strip() and "ETB" not in t.means, t.id
        assert t.rules and all(r in listed for r in t.rules), (t.id, t.rules)
        assert re.fullmatch(r"[a-z0-9-]+", t.id) and term(t.word) == t == term(t.id)
    with pytest.raises(KeyError, match="no glossary term"):
        term("mana burn")


def test_start_here_shows_every_entry_with_its_anchor():
    nb = nbformat.read(ROOT / "notebooks" / f"{START_HERE}.ipynb", as_version=4)
    assert any("lesson.show_glossary()" in c.source for c in nb.cells if c.cell_type == "code")
    html = glossary_html()
    for t in glossary():
        assert f"<dt id='{t.anchor}'" in html and f"<dfn>{t.word}</dfn>" in html.replace(
            "&#x27;", "'")


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem)
def test_each_lesson_marks_the_first_use_of_a_glossary_word(path):
    """Where a lesson first uses a glossary word in its own sentences, the word is a <dfn>
    linking to its entry in Start here; every <dfn> links to an entry that exists."""
    prose = lesson_prose(path)
    marked = [(m.start(), m.end(), m.group(1)) for m in DFN.finditer(prose)]
    ids = {t.id for t in glossary()}
    assert all(tid in ids for _, _, tid in marked), marked
    for t in glossary():
        first = word_pattern(t.word).search(prose)
        if first is None:
            continue
        inside = [tid for start, end, tid in marked if start <= first.start() < end]
        assert inside == [t.id], (f"{path.stem}: the first use of {t.word!r} is not marked "
                                  f"<dfn> with a link to its entry: "
                                  f"...{prose[max(0, first.start() - 60):first.end() + 20]}...")


def test_no_lesson_text_says_etb():
    """"ETB" is jargon no lesson defines: the lessons, walkthroughs, rulings and rule summaries
    say "enters" instead."""
    texts = [p.read_text("utf-8") for p in (ROOT / "notebooks").glob("*.ipynb")]
    texts += [p.read_text("utf-8") for p in (ROOT / "mtg_rulekit" / "scenarios").glob("*.toml")]
    texts += [(ROOT / "mtg_rulekit" / "data" / f).read_text("utf-8")
              for f in ("rulings.toml", "rules.toml", "glossary.toml")]
    assert not [t for t in texts if re.search(r"\bETBs?\b", t)]
