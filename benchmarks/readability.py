"""Readability of the lessons' prose: per lesson, the longest prose sentence in words and a
Flesch-Kincaid grade; and the longest sentence a walkthrough puts on a slide (its set-up, each
step's narration, each question and its why: `narration_figures`). Goal: no prose or narration
sentence over 30 words, grade <= 8 in every lesson.

What counts as prose: the text of the notebooks' markdown cells, the "Predict" questions and
their answers included, without

- code cells, fenced code blocks and inline `code`;
- tables (lines starting with `|`) and headings (lines starting with `#`);
- HTML tags (their text stays: a `<summary>` question is prose);
- quotations: a blockquote line (`> ...`) or text in double quotes ("..." or “...”). The
  lessons quote Oracle text, CR text and words under discussion ("could produce") that way, so
  a lesson's author marks a quotation with double quotes or a blockquote, and only the author's
  own words are measured. A quotation inside a sentence counts as one word (the sentence still
  has its object; one ending in ".", "!" or "?" ends the sentence), a sentence that is all
  quotation is not measured;
- rule citations: a parenthesis naming a rule ("(CR 106.5)", "(refused, CR 302.6)") and a
  closing "Rules: CR ..." line;
- mana symbols: a run such as {T} or {B}{G} counts as one word.

Sentences end at ".", "!" or "?" followed by a space or the end of a paragraph; each list item
and each paragraph ends one too. The grade is the Flesch-Kincaid formula (0.39 x words a
sentence + 11.8 x syllables a word - 15.59, as textstat computes it) over the lesson's prose
sentences, with syllables counted by Pyphen's en_US hyphenation, textstat's own fallback (not
textstat itself: its wheel installs a top-level `tests` package that shadows this checkout's,
and it would download NLTK's CMU dictionary at its first use).

    .venv/bin/python benchmarks/readability.py      # the per-lesson figures, as a table
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
MAX_WORDS = 30
MAX_GRADE = 8.0

_FENCE = re.compile(r"^```.*?^```[^\n]*$", re.S | re.M)
_CODE = re.compile(r"`[^`\n]*`")
_TAG = re.compile(r"<[^>\n]+>")
_QUOTE = re.compile(r'"[^"\n]*"|“[^”\n]*”')
_CITE = re.compile(r"\s*\([^()]*\bCR \d[^()]*\)")
_RULES_LINE = re.compile(r"^\s*(?:\*\*)?Rules?:(?:\*\*)?\s.*$", re.M)
_SYMBOLS = re.compile(r"(?:\{[^{}\s]{1,3}\})+")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_EMPHASIS = re.compile(r"\*\*|__|(?<!\w)[*_]|[*_](?!\w)")
_ITEM = re.compile(r"^\s*(?:[-*+]|\d+\.)\s+")
_END = re.compile(r"(?<=[.!?])\s+(?=[^a-z\s])")
_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'’/+-]*")


@dataclass(frozen=True)
class Figures:
    """One lesson's readability: its prose sentences, the longest one and the grade."""

    stem: str
    sentences: tuple[str, ...]
    longest_words: int
    longest: str
    grade: float

    @property
    def met(self) -> bool:
        return self.longest_words <= MAX_WORDS and self.grade <= MAX_GRADE


def words(sentence: str) -> list[str]:
    """The words of a prose sentence (a number such as 2/2 or X = 0's parts count as words)."""
    return _WORD.findall(sentence)


def _blocks(markdown: str) -> list[str]:
    """Paragraphs and list items of one markdown cell, as single lines of text."""
    out: list[str] = []
    current: list[str] = []

    def close() -> None:
        if current:
            out.append(" ".join(current))
            current.clear()

    for line in markdown.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith(("#", "|", ">")) \
                or re.fullmatch(r"</?(details|summary)>", stripped):
            close()
            continue
        if _ITEM.match(line):
            close()
            stripped = _ITEM.sub("", line).strip()
        if stripped.startswith("<summary>"):  # the question is its own sentence
            close()
        current.append(stripped)
        if stripped.endswith("</summary>"):
            close()
    close()
    return out


def prose_sentences(markdown: str) -> list[str]:
    """The prose sentences of one markdown cell, with quotations, code, tags and citations
    taken out (the rules are in the module's docstring)."""
    text = _FENCE.sub("", markdown)
    text = _RULES_LINE.sub("", text)
    sentences: list[str] = []
    for block in _blocks(text):
        block = _TAG.sub(" ", block)
        block = _CODE.sub(" Code ", block)
        block = _LINK.sub(r"\1", block)
        block = _CITE.sub("", block)
        # a quotation ending a sentence ("... Powerstone token.") ends it here too
        block = _QUOTE.sub(lambda m: " Quote. " if m.group()[-2] in ".!?" else " Quote ",
                           block)
        block = _SYMBOLS.sub(" Mana ", block)
        block = _EMPHASIS.sub("", block)
        block = re.sub(r"\s+", " ", block).strip()
        for sentence in _END.split(block):
            sentence = sentence.strip()
            # a "sentence" of quotations only (an Oracle text quoted alone) is not prose
            if words(sentence) and any(w != "Quote" for w in words(sentence)):
                sentences.append(sentence)
    return sentences


def syllables(word: str) -> int:
    """A word's syllables, by Pyphen's en_US hyphenation (textstat's own fallback)."""
    import pyphen

    global _HYPHENS
    if _HYPHENS is None:
        _HYPHENS = pyphen.Pyphen(lang="en_US")
    return len(_HYPHENS.positions(word.lower().strip("'’"))) + 1


_HYPHENS = None


def grade(sentences: list[str] | tuple[str, ...]) -> float:
    """Flesch-Kincaid grade of `sentences`: 0.39 x words a sentence + 11.8 x syllables a word
    - 15.59, rounded to 2 places."""
    found = [words(s) for s in sentences]
    n_words = sum(len(w) for w in found)
    if not sentences or not n_words:
        return 0.0
    total = sum(syllables(w) for ws in found for w in ws)
    return round(0.39 * n_words / len(sentences) + 11.8 * total / n_words - 15.59, 2)


def lesson_figures(path: Path) -> Figures:
    """The readability figures of one notebook."""
    nb = json.loads(path.read_text("utf-8"))
    sentences: list[str] = []
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown":
            source = cell["source"]
            sentences += prose_sentences("".join(source) if isinstance(source, list) else source)
    longest = max(sentences, key=lambda s: len(words(s)), default="")
    return Figures(path.stem, tuple(sentences), len(words(longest)), longest, grade(sentences))


@dataclass(frozen=True)
class Narration:
    """The longest sentence the shipped walkthroughs show: its words, where, and the text."""

    longest_words: int
    where: str
    longest: str

    @property
    def met(self) -> bool:
        return self.longest_words <= MAX_WORDS


def walkthrough_texts() -> list[tuple[str, str]]:
    """(where, text) of every text a shipped walkthrough shows a class: its set-up words, each
    step's narration, each question's words and its why ("r07_paying_tap step 3: question")."""
    sys.path.insert(0, str(ROOT))
    from mtg_rulekit.scenario import load, shipped

    out = []
    for path in shipped():
        sc = load(path)
        out.append((f"{path.stem} set-up", sc.intro))
        for k, step in enumerate(sc.steps, start=1):
            out.append((f"{path.stem} step {k}", step["narration"]))
            if "question" in step:
                out.append((f"{path.stem} step {k}: question", step["question"]["ask"]))
                out.append((f"{path.stem} step {k}: why", step["question"]["why"]))
    return out


def narration_figures() -> Narration:
    """The longest sentence of `walkthrough_texts`, measured as lesson prose is."""
    best = Narration(0, "", "")
    for where, text in walkthrough_texts():
        for sentence in prose_sentences(text):
            n = len(words(sentence))
            if n > best.longest_words:
                best = Narration(n, where, sentence)
    return best


def all_figures(notebooks: Path = NOTEBOOKS) -> list[Figures]:
    """Every notebook's figures ("Start here" and the lessons), in file order."""
    numbered = [p for p in notebooks.glob("*.ipynb") if re.match(r"\d+_", p.name)]
    return [lesson_figures(p) for p in sorted(numbered, key=lambda p: int(p.name.split("_")[0]))]


def summary(figures: list[Figures]) -> dict[str, object]:
    """The benchmark table's two figures (the worst lesson's) and the per-lesson raw figures."""
    return {
        "longest_words": max((f.longest_words for f in figures), default=None),
        "grade_max": max((f.grade for f in figures), default=None),
        "lessons": {f.stem: {"longest_words": f.longest_words, "grade": f.grade,
                             "sentences": len(f.sentences), "longest": f.longest}
                    for f in figures},
    }


def table(figures: list[Figures]) -> str:
    """The per-lesson figures as printed by `make bench`."""
    width = max((len(f.stem) for f in figures), default=6)
    lines = [f"{'lesson':<{width}}  longest  grade  met  longest sentence (start)"]
    for f in figures:
        start = f.longest if len(f.longest) <= 60 else f.longest[:57] + "..."
        lines.append(f"{f.stem:<{width}}  {f.longest_words:>7}  {f.grade:>5.1f}  "
                     f"{'yes' if f.met else 'NO':>3}  {start}")
    lines.append(f"goal: longest <= {MAX_WORDS} words, grade <= {MAX_GRADE:g}")
    return "\n".join(lines)


def narration_line(n: Narration) -> str:
    """The walkthroughs' figure as `make bench` prints it under the lessons'."""
    start = n.longest if len(n.longest) <= 60 else n.longest[:57] + "..."
    return (f"walkthroughs: longest sentence {n.longest_words} words ({n.where}), "
            f"{'met' if n.met else 'NOT met'}: {start}")


if __name__ == "__main__":
    found = all_figures(Path(sys.argv[1]) if len(sys.argv) > 1 else NOTEBOOKS)
    print(table(found))
    print(narration_line(narration_figures()))
