"""No injected scripts, on the site built once per session (`lesson_site`):

- every exported page and every executed lesson notebook's outputs (as the build's kernel left
  them, widget state and all) carry no inline event handler (`onerror=`, `onload=`, any
  `on...=` attribute), no `javascript:` URL, and no `eval(`, `new Function` or `atob(` in a
  script;
- every page carries its Content-Security-Policy (`mtg_rulekit.export.csp`) first in its head: no
  'unsafe-eval' or 'unsafe-inline', its inline scripts and styles by hash, no `style=""`;
- the pages work under it, from file:// and over a local `http.server`: every walkthrough renders
  and steps, Present enters and leaves, the class quiz reveals, and the browser reports no
  violation (`securitypolicyviolation` events and console errors). The live sandbox under it:
  tests/test_live_sandbox.py.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.notebook, pytest.mark.xdist_group("classroom")]

HANDLER = re.compile(r"""<[a-zA-Z][^<>]*?\son[a-z]+\s*=""", re.S)
JS_URL = re.compile(r"""(?:href|src)\s*=\s*["']?\s*javascript:""", re.I)
SCRIPT = re.compile(r"<script\b([^>]*)>(.*?)</script>", re.S | re.I)
CODE = re.compile(r"\beval\s*\(|\(\s*0\s*,\s*eval\s*\)|\bnew\s+Function\b|\batob\s*\(")
# violations, as the page sees them (a CSP report), before any of its own scripts run
WATCH = """window.rkViolations = [];
document.addEventListener('securitypolicyviolation', (e) =>
  window.rkViolations.push(`${e.violatedDirective}: ${e.blockedURI} ${e.sample || ''}`));"""


def _pages(site: Path) -> list[Path]:
    return sorted(site.glob("*.html"))


def injected(html: str) -> list[str]:
    """What in `html` runs code the page contract forbids: handler attributes, javascript:
    URLs, and eval / new Function / atob in scripts (not in JSON data blocks)."""
    found = [m.group(0)[:60] for m in HANDLER.finditer(html)]
    found += [m.group(0) for m in JS_URL.finditer(html)]
    for m in SCRIPT.finditer(html):
        kind = re.search(r"""type\s*=\s*["']?([^"'\s>]+)""", m.group(1))
        if kind and "json" in kind.group(1):
            continue  # data (its strings may mention anything)
        found += [f"<script>: {c.group(0)}" for c in CODE.finditer(m.group(2))]
    return found


def test_the_grep_finds_what_it_looks_for() -> None:
    assert injected("<img alt='' src='data:,' onerror=\"(0,eval)(atob('eA=='))\">") == [
        "<img alt='' src='data:,' onerror="]
    assert injected("<svg><g onload='x()'></g></svg>") == ["<g onload="]
    assert injected("<script>(0,eval)(atob('eA=='))</script>") == ["<script>: (0,eval)",
                                                                   "<script>: atob("]
    assert injected("<script>new Function('x')</script>") == ["<script>: new Function"]
    assert injected("<a href='javascript:go()'>") == ["href='javascript:"]
    assert injected('<script type="application/json">{"t": "eval(x) onload="}</script>') == []
    assert injected("<p>We evaluate (eval) nothing; onload= in text</p>") == []


def test_no_page_and_no_notebook_output_injects_a_script(lesson_site) -> None:
    from mtg_rulekit.export import executed_notebook

    site, report = lesson_site
    found = {}
    for page in _pages(site):
        bad = injected(page.read_text("utf-8"))
        if bad:
            found[page.name] = bad[:5]
    notebooks = [executed_notebook(site, str(e["stem"])) for e in report.lessons]
    assert notebooks and all(p.is_file() for p in notebooks), notebooks
    outputs = 0
    for path in notebooks:
        nb = json.loads(path.read_text("utf-8"))
        texts = [json.dumps(o) for c in nb["cells"] for o in c.get("outputs", [])]
        texts.append(json.dumps(nb["metadata"].get("widgets", {})))
        outputs += len(texts) - 1
        for text in texts:
            # an output's HTML and every module a widget ships (`_esm`) are checked as code
            value = json.loads(text)
            for html in _strings(value):
                bad = injected(html) + [f"module: {c.group(0)}" for c in CODE.finditer(html)
                                        if "export default" in html]
                if bad:
                    found.setdefault(path.name, []).extend(bad[:5])
    assert outputs > 20
    assert found == {}, found


def _strings(value: object):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def _raw_text_removed(html: str) -> str:
    """`html` without comments and the contents of its scripts and styles (what is not markup)."""
    return re.sub(r"<!--.*?-->|<(script|style)\b[^>]*>.*?</\1\s*>", "", html, flags=re.S | re.I)


def test_every_page_carries_its_policy(lesson_site) -> None:
    from mtg_rulekit.export.csp import META, policy_of

    site, _ = lesson_site
    pages = _pages(site)
    assert {"index.html", "teachers.html", "cards.html", "quiz.html"} <= {p.name for p in pages}
    for path in pages:
        html = path.read_text("utf-8")
        found = policy_of(html)
        assert found, f"{path.name} has no {META}"
        # first in the head: it covers only what comes after it
        head = html[:html.index("<body")]
        assert head.index(META) < min(head.index(t) for t in ("<script", "<style", "<link",
                                                             "<title") if t in head), path
        assert found["default-src"] == ["'none'"] and found["object-src"] == ["'none'"]
        assert found["base-uri"] == ["'none'"] and found["form-action"] == ["'none'"]
        assert found["script-src"][:2] == ["'self'", "'wasm-unsafe-eval'"], path.name
        # the live sandbox's worker and its modules come from blobs: only its pages allow them
        live = 'id="rk-live-config"' in html
        hashed = found["script-src"][3:] if live else found["script-src"][2:]
        assert (found["script-src"][2:3] == ["blob:"]) is live, path.name
        assert found.get("worker-src") == (["blob:"] if live else None), path.name
        values = {v for k, vs in found.items() if k not in ("script-src", "worker-src")
                  for v in vs} | set(hashed)
        assert not values & {"'unsafe-eval'", "'unsafe-inline'", "'unsafe-hashes'", "*",
                             "blob:"}, (path.name, found)
        assert all(v.startswith("'sha256-") for v in hashed), path.name
        markup = _raw_text_removed(html)
        assert not re.search(r"<[a-zA-Z][^>]*\sstyle\s*=", markup), path.name


WATCH_ALL = WATCH + """
window.rkErrors = [];
window.addEventListener('error', (e) => window.rkErrors.push(String(e.message)));"""


def _walk_under_the_policy(visit) -> list[str]:
    """Every walkthrough of the page rendered and stepped once (Next), the first one presented
    and left (Escape), the first quiz question revealed; what went wrong."""
    page, wrong = visit.page, []
    steppers = page.locator(".rk-stepper")
    views = page.locator(".rk-view[data-rk-view=stepper]").count()
    if steppers.count() != views:
        wrong.append(f"{steppers.count()} of {views} walkthroughs rendered")
    for i in range(steppers.count()):
        stepper = steppers.nth(i)
        stepper.locator(".rk-next").click()
        page.wait_for_function("(e) => e.querySelector('.rk-frame').dataset.step === '1'",
                               arg=stepper.element_handle(), timeout=5000)
    if steppers.count():
        first = steppers.first
        first.locator(".rk-present").click()
        page.wait_for_function("(e) => e.classList.contains('rk-presenting')",
                               arg=first.element_handle(), timeout=5000)
        page.keyboard.press("ArrowLeft")  # a slide steps with the keys
        page.wait_for_function("(e) => e.querySelector('.rk-frame').dataset.step === '0'",
                               arg=first.element_handle(), timeout=5000)
        page.keyboard.press("Escape")
        page.wait_for_function("(e) => !e.classList.contains('rk-presenting') && "
                               "!document.fullscreenElement", arg=first.element_handle(),
                               timeout=5000)
    quizzes = page.locator(".rk-quiz")
    if page.locator(".rk-view[data-rk-view=quiz]").count():
        if not quizzes.count():
            wrong.append("no quiz rendered")
        else:
            lesson = quizzes.first.evaluate("(q) => q.closest('.quiz-lesson').id")
            page.evaluate("(id) => { location.hash = '#' + id; }", lesson)
            quiz = page.locator(f"#{lesson} .rk-quiz")
            quiz.wait_for(state="visible", timeout=5000)
            quiz.locator(".rk-quiz-reveal").click()
            quiz.locator(".rk-quiz-answer").wait_for(state="visible", timeout=5000)
    page.wait_for_timeout(200)  # a late report arrives
    wrong += [f"CSP: {v}" for v in page.evaluate("() => window.rkViolations")]
    wrong += [f"error: {e}" for e in page.evaluate("() => window.rkErrors")]
    wrong += [f"console: {e}" for e in visit.console_errors]
    return wrong


@pytest.mark.parametrize("how", ["file", "http"])
def test_pages_work_under_their_own_policy(lesson_site, browser, how: str) -> None:
    """Each page as built (its policy in its `<meta>`, nothing added), opened from file://, and
    from a local web server the pages of each kind: the index, the quiz, and the lesson with
    the most walkthroughs (what differs over HTTP is what 'self' allows, the same for every
    page; each page's own hashes are checked from file://)."""
    from contextlib import nullcontext

    from mtg_rulekit.export.browser import open_page, serve

    site, _ = lesson_site
    pages = _pages(site)
    if how == "http":
        lessons = [p for p in pages if p.name[:2].isdigit()]
        most = max(lessons, key=lambda p: p.read_text("utf-8").count('data-rk-view="stepper"'))
        pages = [p for p in pages if p.name in ("index.html", "quiz.html")] + [most]
    wrong: dict[str, list[str]] = {}
    with serve(site) if how == "http" else nullcontext(None) as base:
        for path in pages:
            has = 'data-rk-view="stepper"' in path.read_text("utf-8")  # not the quiz page
            visit = open_page(browser, path, site, server=base, stepper=has,
                              init_script=WATCH_ALL)
            try:
                got = _walk_under_the_policy(visit)
                if got:
                    wrong[path.name] = got
            finally:
                visit.page.close()
    assert wrong == {}, wrong
