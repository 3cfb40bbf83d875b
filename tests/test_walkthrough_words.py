"""What a walkthrough puts on a projected slide reads like the lessons: every sentence of its
set-up, narration, questions and whys at most 30 words (`benchmarks/readability.py` measures it
as it measures lesson prose); and the teacher has speaker notes in every walkthrough, at least
wherever nothing happens (a refusal, a look) and wherever a question is answered."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from mtg_rulekit.scenario import load, shipped

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
import readability  # noqa: E402


def test_no_walkthrough_sentence_is_over_30_words():
    n = readability.narration_figures()
    assert n.longest_words <= readability.MAX_WORDS, (n.where, n.longest)
    assert n.longest_words > 10 and n.where  # it measured something
    long = [(where, s) for where, text in readability.walkthrough_texts()
            for s in readability.prose_sentences(text)
            if len(readability.words(s)) > readability.MAX_WORDS]
    assert long == []


@pytest.mark.parametrize("path", shipped(), ids=lambda p: p.stem)
def test_every_walkthrough_has_an_intro_and_speaker_notes_where_they_matter(path):
    sc = load(path)
    assert sc.spec.get("intro", "").strip(), "the set-up says the board and the puzzle"
    assert any(s.get("notes") for s in sc.steps), "no speaker notes at all"
    quiet = [k for k, s in enumerate(sc.steps, start=1)
             if (s.get("expect_error") or s["do"] == "look") and not s.get("notes")]
    assert quiet == [], f"steps where nothing happens, without notes: {quiet}"
