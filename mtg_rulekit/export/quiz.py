"""`site/quiz.html`, the class quiz: every lesson's predict questions, one a screen,
for a teacher to project. Linked from the teachers' page and from each lesson page with
questions (`quiz.html#quiz-<lesson>` opens that lesson's quiz).

The questions are read from each lesson's walkthrough data as its page embeds it (the executed
notebook's widget state, turned into the page's views by `mtg_rulekit.export.views.to_views`):
`mtg_rulekit.display.quiz.questions.quiz_questions`, no second source. Each one links back to its step
in the lesson page (`<lesson>.html#<slug>/<k>`, the one step-address scheme, opened there by the
walkthrough). The quiz is drawn by the quiz module (`mtg_rulekit/display/front/quiz.js`) through the
same host as the lesson pages. Every piece of text is HTML-escaped; the views' JSON is
`\\u003c`-escaped.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from html import escape
from pathlib import Path
from typing import Any
from urllib.parse import quote

from mtg_rulekit.display.quiz.questions import quiz_questions
from mtg_rulekit.export.csp import secure
from mtg_rulekit.export.ownership import GENERATOR_TAG, write_atomic
from mtg_rulekit.export.views import to_views, view_html, view_traits

PAGE = "quiz.html"
TEACHERS = "teachers.html"  # (mtg_rulekit.export.index.TEACHERS: this module imports no other page's)

__all__ = ["PAGE", "anchor", "lesson_questions", "notebook_questions", "render", "write_quiz"]

_QUIZ_CSS = """
main { max-width: 96rem; }
.quiz-lesson:not(:target) { display: none; }
/* a lesson's quiz fills the screen: the page's heading stays for screen readers only */
main:has(.quiz-lesson:target) { padding-top: .3rem; padding-bottom: .3rem; }
main:has(.quiz-lesson:target) .chooser { display: none; }
main:has(.quiz-lesson:target) > h1 { position: absolute; width: 1px; height: 1px;
  overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.quiz-head { display: flex; flex-flow: row wrap; align-items: baseline; gap: 0 1.2em;
  margin: 0 0 .3em; }
.quiz-head h2 { font-size: 1.05em; margin: 0; border: 0; }
.quiz-head p { font-size: .85em; margin: 0; }
ol.quiz-lessons li { margin: .3em 0; } .count { color: #444; }
.rk-view-missing { background: #fff4d6; border-left: 6px solid #b35900; padding: .5em .9em; }
.rk-view[data-rk-ready] > .rk-view-missing { display: none; }
"""


def anchor(stem: str) -> str:
    """The id of lesson `stem`'s quiz on the quiz page (`quiz.html#quiz-<stem>`)."""
    return "quiz-" + "".join(c if c.isalnum() or c in "-_" else "-" for c in stem)


def lesson_questions(nb: Any, stem: str) -> list[dict[str, Any]]:
    """The questions of a lesson notebook `nb` whose outputs are the page's views (after
    `to_views`), each linking to its step on the lesson's page `<stem>.html`."""
    return quiz_questions(view_traits(nb, "stepper"), page=quote(stem + ".html"))


def notebook_questions(executed: Path, stem: str) -> list[dict[str, Any]]:
    """`lesson_questions` of an executed notebook file (widget state stored), as the build
    keeps it; [] when there is none."""
    if not executed.is_file():
        return []
    nb = json.loads(executed.read_text("utf-8"))
    to_views(nb)
    return lesson_questions(nb, stem)


def render(lessons: Sequence[tuple[str, str, list[dict[str, Any]]]], site_css: str = "") -> str:
    """The quiz page for `lessons`: (stem, title, questions), in course order, with the site's
    style sheet `site_css` (`mtg_rulekit.export.index.SITE_CSS`, given by the build)."""
    from mtg_rulekit.display.front import css_text, module_text, page_module

    asked = [(s, t, qs) for s, t, qs in lessons if qs]
    items = "".join(
        f'<li><a href="#{anchor(s)}">{escape(t)}</a> <span class="count">({len(qs)} '
        f'question{"s" if len(qs) != 1 else ""})</span></li>' for s, t, qs in asked)
    sections = "".join(
        f'<section class="quiz-lesson" id="{anchor(s)}" aria-labelledby="{anchor(s)}-h">'
        f'<div class="quiz-head"><h2 id="{anchor(s)}-h">{escape(t)}</h2>'
        f'<p><a href="#">&larr; Other lessons</a> · '
        f'<a href="{escape(quote(s + ".html"))}">Open the lesson</a></p></div>'
        + view_html("quiz", {"title": "", "questions": qs, "index": 0,
                             "linked": []})
        + "</section>" for s, t, qs in asked)
    chooser = (f'<ol class="quiz-lessons">{items}</ol>' if items else
               '<p class="missing">No lesson has questions yet.</p>')
    head, scripts = "", ""
    if asked:  # the quiz module (registering itself), then the page's host, as in a lesson page
        head = f"<style>{css_text('quiz')}</style>"
        scripts = "".join(f'<script type="module">\n{m}\n</script>\n'
                          for m in (page_module("quiz"), module_text("host")))
    return secure(f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
{GENERATOR_TAG}
<title>Class quiz: rulekit lessons</title>
<style>{site_css}{_QUIZ_CSS}</style>
{head}
</head>
<body>
<main>
<nav class="site" aria-label="The site"><a href="index.html">&larr; All lessons</a>
<a href="{TEACHERS}">For teachers</a></nav>
<h1>Class quiz</h1>
<div class="chooser">
<p>Each lesson's predict questions, one a screen, to project for a class. The class answers,
then <em>Reveal</em> shows what the rules engine did, the rule that decided it and a link to the
step in the lesson's walkthrough. Keys: <kbd>Right</kbd> or <kbd>Page Down</kbd> next,
<kbd>Left</kbd> or <kbd>Page Up</kbd> back, <kbd>Enter</kbd> reveal.</p>
<h2>Pick a lesson</h2>
{chooser}
</div>
{sections}
</main>
{scripts}</body>
</html>
""")


def write_quiz(out: Path, lessons: Sequence[tuple[str, str, Path]], site_css: str = "") -> Path:
    """Write `out/quiz.html` from `lessons`: (stem, title, executed notebook), in order."""
    path = out / PAGE
    write_atomic(path, render([(s, t, notebook_questions(nb, s)) for s, t, nb in lessons],
                              site_css))
    return path
