"""`site/index.html`, the lessons as a course: where to start, a suggested order, one
line per lesson on what you will be able to do after it and about how long it takes
(`mtg_rulekit.repo.course`); and `site/teachers.html`, for teachers: planning, projecting with
Present, printing, and the rulings coverage table (R01-R19 -> lessons, walkthroughs, tests,
diagrams; `mtg_rulekit.display.tables.coverage`, the same table as the `00_start_here` lesson's).
Every piece of text is HTML-escaped."""

from __future__ import annotations

import re
from collections.abc import Sequence
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

from mtg_rulekit.display.tables.coverage import Targets, rows, table_html
from mtg_rulekit.export.csp import secure
from mtg_rulekit.export.ownership import GENERATOR_TAG, write_atomic
from mtg_rulekit.repo.course import CourseEntry, read_course_entry

if TYPE_CHECKING:
    from mtg_rulekit.export import BuildReport
    from mtg_rulekit.repo.coverage import Coverage

CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
  font-size: 20px; line-height: 1.5; color: #111; background: #fff; margin: 0; }
main { max-width: 1280px; margin: 0 auto; padding: 1rem 1.2rem 3rem; }
h1 { font-size: 2.1em; margin: .3em 0; } h2 { font-size: 1.5em; border-bottom: 2px solid #ddd; }
a { color: #0b4f9c; } a:focus-visible { outline: 3px solid #e66100; outline-offset: 2px; }
ol.lessons li { margin: .35em 0; } .rulings { color: #444; font-size: .85em; }
table { border-collapse: collapse; width: 100%; font-size: 17px; }
th, td { border: 1px solid #bbb; padding: .35em .5em; text-align: left; vertical-align: top; }
th { background: #eef2f7; } tr:nth-child(even) td { background: #fafafa; }
td code { font-size: 14px; overflow-wrap: break-word; } td ul { margin: 0; padding-left: 1.1em; }
.missing { color: #a00; font-weight: 600; }
.note { background: #fff4d6; border-left: 6px solid #b35900; padding: .5em .9em; }
details summary { cursor: pointer; }
.wide { max-width: 100%; overflow-x: auto; }
@media (max-width: 600px) { main { padding: .5rem .5rem 2rem; } td code { font-size: 13px; } }
"""


_COURSE_CSS = """
main { max-width: 60rem; }
.lead { font-size: 1.15em; }
a.button { display: inline-block; background: #0b4f9c; color: #fff; padding: .45em 1em;
  border-radius: 6px; font-weight: 600; text-decoration: none; }
a.button:hover { background: #083a73; } a.button:focus-visible { outline-color: #111; }
ol.lessons { padding-left: 2.2em; } ol.lessons li { margin: .2em 0 1em; }
ol.lessons a { font-weight: 600; } .minutes { color: #444; white-space: nowrap; }
.goal { margin: .15em 0 0; } .rulings { color: #444; font-size: .85em; }
nav.site { font-size: .95em; } nav.site a { margin-right: 1.2em; }
kbd { font-family: inherit; border: 1px solid #888; border-bottom-width: 2px; border-radius: 4px;
  padding: 0 .3em; background: #f6f6f6; }
@media print { a.button { color: #111; background: none; border: 1px solid #111; } }
"""
TEACHERS = "teachers.html"
SITE_CSS = CSS + _COURSE_CSS  # the course pages' style (the quiz page's too: mtg_rulekit.export.quiz)


def _number(stem: str) -> int | None:
    m = re.match(r"(\d+)", stem)
    return int(m.group(1)) if m else None


def _entry(e: dict[str, object]) -> CourseEntry | None:
    """The course entry of an index entry's notebook (None: no notebook to read)."""
    notebook = e.get("notebook")
    return read_course_entry(Path(str(notebook))) if notebook else None


def _href(stem: str) -> str:
    # percent-encoded: a newline or `#` in a notebook's name can't break the link
    return escape(quote(stem + ".html"))


def _notes(report: BuildReport) -> str:
    note = f'<p class="note">{escape(report.widgets_note)}</p>' if report.widgets_note else ""
    if report.sandbox_note:
        note += f'<p class="note">{escape(report.sandbox_note)}</p>'
    return note


def _page(title: str, body: str, css: str = "") -> str:
    return secure(f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
{GENERATOR_TAG}
<title>{escape(title)}</title>
<style>{CSS}{_COURSE_CSS}{css}</style>
</head>
<body>
<main>
{body}
</main>
</body>
</html>
""")


def render(report: BuildReport, coverage: Sequence[Coverage], link_diagrams: bool = True) -> str:
    """The index page: the lessons built (`report.lessons`) as a course, in their order, each
    with its goal and minutes. (`coverage` and `link_diagrams` are the teachers' page's; the
    signature is kept for the callers that render both.)"""
    del coverage, link_diagrams
    items, total, first = [], 0, ""
    for e in report.lessons:
        stem = str(e["stem"])
        course = _entry(e)
        number = _number(stem)
        value = f' value="{number}"' if number is not None else ""
        minutes = (f' <span class="minutes">(about {course.minutes} minutes)</span>'
                   if course else "")
        said = course.goal[:1].lower() + course.goal[1:] if course else ""
        goal = f'<p class="goal">You will be able to {escape(said)}</p>' if said else ""
        total += course.minutes if course else 0
        first = first or stem
        items.append(f'<li{value}><a href="{_href(stem)}">{escape(str(e["title"]))}</a>'
                     f"{minutes}{goal}</li>")
    if items:
        hours = f" About {total // 60} h {total % 60:02d} min in all." if total >= 60 else (
            f" About {total} minutes in all." if total else "")
        title = str(report.lessons[0]["title"])
        label = title if title.lower().startswith("start here") else f"Start with {title}"
        start = f'<p><a class="button" href="{_href(first)}">{escape(label)}</a></p>'

        lessons_html = (f"<h2>The lessons, in order</h2>\n<p>Take them in this order: each lesson"
                        f" uses what the ones before it taught.{hours} The minutes are an "
                        "estimate from the lesson's reading, its walkthroughs' steps and its "
                        f"questions.</p>\n<ol class=\"lessons\">{''.join(items)}</ol>")
    else:
        start, lessons_html = "", '<p class="missing">No lessons built yet.</p>'
    sandbox = ("Each lesson ends with a sandbox: press <em>Start the live sandbox</em> and the "
               "real engine runs in the page, offline "
               '(<a href="_static/sandbox/LICENSES.txt">licences of its files</a>).'
               if report.live else
               "Each lesson ends with a sandbox: open the notebooks in JupyterLab to play in it.")
    return _page("rulekit lessons", f"""<h1>Magic rules, one lesson at a time</h1>
<p class="lead">Short lessons on the Magic: The Gathering rules that trip players up. Every
example is played on a real rules engine. You step through it, guess what happens next, and then
try it yourself.</p>
<nav class="site" aria-label="The site"><a href="{TEACHERS}">For teachers</a>
<a href="cards.html">The cards</a></nav>
{start}
{_notes(report)}
{lessons_html}
<h2>How the pages work</h2>
<ul>
<li>Each walkthrough is a short game. Step through it with <em>Play</em>, its slider or its step
buttons. No Python and no network are needed.</li>
<li>Each lesson asks questions: decide on your answer, then open it to check.</li>
<li>{sandbox}</li>
<li><a href="cards.html">The cards</a>: every card the lessons use, with its Oracle text.</li>
<li><a href="{TEACHERS}">For teachers</a>: planning a class, projecting with <em>Present</em>,
printing, and which lesson covers which ruling.</li>
</ul>""")


def render_teachers(report: BuildReport, coverage: Sequence[Coverage],
                    link_diagrams: bool = True) -> str:
    """The teachers' page: the lessons with their minutes and rulings, projecting, printing,
    the sandboxes in class, and the coverage table, whose lesson links go to the built pages
    and diagram links (if `link_diagrams`) to `diagrams/`."""
    topics = {c.ruling.id: c.ruling.topic for c in coverage}
    plan = []
    for e in report.lessons:
        stem = str(e["stem"])
        course = _entry(e)
        ids = [str(i) for i in e.get("rulings", [])]  # type: ignore[attr-defined]
        rulings = "<br>".join(f"{escape(i)}: {escape(topics[i])}" if i in topics else escape(i)
                              for i in ids) or "-"
        plan.append(f'<tr><th scope="row"><a href="{_href(stem)}">{escape(str(e["title"]))}'
                    f'</a></th><td>{course.minutes if course else "-"}</td><td>{rulings}</td>'
                    "</tr>")
    plan_html = ("<table><caption>The lessons in their suggested order</caption><thead><tr>"
                 '<th scope="col">Lesson</th><th scope="col">Minutes (about)</th>'
                 '<th scope="col">Rulings it teaches</th></tr></thead><tbody>'
                 f'{"".join(plan)}</tbody></table>') if plan else \
        '<p class="missing">No lessons built yet.</p>'
    targets = Targets(lesson_ext="html", diagrams_url="diagrams/" if link_diagrams else None,
                      built=frozenset(str(e["stem"]) for e in report.lessons))
    table = table_html(rows(coverage, targets))
    sandbox = ("The sandboxes run in the page: <em>Start the live sandbox</em> loads about "
               "12 MB once (shared by every lesson) and is ready in a few seconds, offline."
               if report.live else
               "This build has no live sandbox: the sandboxes need JupyterLab.")
    return _page("rulekit for teachers", f"""<nav class="site" aria-label="The site"><a href="index.html">&larr; All lessons</a>
<a href="cards.html">The cards</a></nav>
<h1>For teachers</h1>
<p>The lessons are one small rules engine's games, shown step by step. Nothing needs installing:
copy the <code>site/</code> folder to a USB stick or a web server, or open it where it is.</p>
{_notes(report)}
<h2>Planning a class</h2>
<p>Take the lessons in order: each uses what the ones before it taught. A lesson has a short
text, one to four walkthroughs, a few predict questions and a sandbox. The minutes are an
estimate for a student working alone; in class, a walkthrough step read aloud and discussed
takes longer.</p>
<div class="wide" tabindex="0" role="region" aria-label="The lessons in order">
{plan_html}
</div>
<h2>Projecting a walkthrough</h2>
<ul>
<li>Press <em>Present</em> above a walkthrough: it becomes a slide that fills the screen (the
step's words large, its diagram, "Step 3 / 6"). Then <kbd>Right</kbd>,
<kbd>Space</kbd> or <kbd>Page Down</kbd> go to the next step, <kbd>Left</kbd> or
<kbd>Page Up</kbd> go back, <kbd>Home</kbd> and <kbd>End</kbd> go to the set-up and the last
step, and <kbd>Esc</kbd> comes back to the page at the same step. After the last step,
<kbd>Right</kbd> shows an end card, then the page's next walkthrough. A presentation clicker
sends these keys.</li>
<li>The address of a lesson page follows the step shown (<code>#copy-of-a-copy/3</code>):
reloading the page, or a link you share, comes back to that step. <em>More &rsaquo; Copy a
link to this step</em> copies it (in JupyterLab: the link to the exported page).</li>
<li>The pages are laid out for 1280x720, 1366x768 and 1920x1080 screens: one step is one screen.
If the back of the room can't read the diagram, zoom the page (<kbd>Ctrl</kbd> and <kbd>+</kbd>).</li>
<li>In JupyterLab, <em>View &rsaquo; Appearance &rsaquo; Presentation Mode</em> keeps the same
layout, and <em>Present</em> works there too.</li>
</ul>
<h2>A class quiz</h2>
<p><a href="quiz.html">The class quiz</a> puts a lesson's predict questions on the screen, one a
screen and large enough for the back of the room. The class answers (a show of hands for the
lettered choices), then <em>Reveal</em> (or <kbd>Enter</kbd>) shows what the rules engine did,
the rule that decided it, and a link to that step in the lesson's walkthrough.
<kbd>Right</kbd> or <kbd>Page Down</kbd> goes to the next question, <kbd>Left</kbd> or
<kbd>Page Up</kbd> back; <em>Full screen</em> fills the screen. Nothing shows the answer before
<em>Reveal</em>. Each lesson page with questions links to its own quiz at the top. In a
notebook, <code>Quiz(walkthrough, ...)</code> (<code>mtg_rulekit.display.Quiz</code>) shows the
same quiz for the walkthroughs it is given.</p>
<h2>Printing</h2>
<p>Print a lesson page from the browser (<kbd>Ctrl</kbd> and <kbd>P</kbd>, or <kbd>Cmd</kbd> and
<kbd>P</kbd> on a Mac). The text, the predict questions and each walkthrough at the step it
shows are printed: step to the moment you want on paper first. A question prints closed: open
the answers you want on paper first. For a handout of every step, print a walkthrough's whole
diagram: the table at the end of this page links each one. On <a href="cards.html">the cards
page</a>, type in the filter box first to print only some cards.</p>
<h2>The sandboxes in class</h2>
<p>{sandbox} For a class working in notebooks, a JupyterHub gives each student their own copy
of the lessons (see <code>docs/teaching.md</code> in the project).</p>
<h2>Rulings and where they are covered</h2>
<p>The nineteen rulings the lessons teach, from the official rulings pages of Slagstone Refinery
and Sandstorm Crasher, each with the lesson sections, walkthroughs, tests and diagram that cover
it.</p>
<div class="wide" tabindex="0" role="region" aria-label="Rulings and where they are covered">
{table}
</div>""", css="main { max-width: 80rem; }")


def load_coverage() -> list:
    """`mtg_rulekit.repo.coverage.coverage()` for the checkout (loads every shipped scenario)."""
    from mtg_rulekit.repo.coverage import coverage, repo_root

    return coverage(repo_root())


def write_index(out: Path, report: BuildReport, cov: list | None = None) -> Path:
    """Write `out/index.html`."""
    path = out / "index.html"
    write_atomic(path, render(report, cov or []))
    return path


def write_teachers(out: Path, report: BuildReport, cov: list | None = None) -> Path:
    """Write `out/teachers.html` (and copy the diagrams its coverage table links into
    `out/diagrams/`)."""
    from mtg_rulekit.repo.coverage import repo_root

    root = repo_root()
    cov = load_coverage() if cov is None else cov
    dest = out / "diagrams"
    for c in cov:
        for d in c.diagrams:
            src = root / d
            if src.is_file():
                dest.mkdir(parents=True, exist_ok=True)
                data = src.read_bytes()
                target = dest / src.name
                if not target.is_file() or target.read_bytes() != data:
                    write_atomic(target, data)
    path = out / TEACHERS
    write_atomic(path, render_teachers(report, cov))
    return path
