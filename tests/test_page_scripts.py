"""No injected scripts (issue 26), on the site built once per session (`lesson_site`):

- every exported page and every executed lesson notebook's outputs (as the build's kernel left
  them, widget state and all) carry no inline event handler (`onerror=`, `onload=`, any
  `on...=` attribute), no `javascript:` URL, and no `eval(`, `new Function` or `atob(` in a
  script;
- the pages work under a Content-Security-Policy without 'unsafe-eval' (only
  'wasm-unsafe-eval', which Pyodide needs): sent as a header by a local `http.server`, and as a
  `<meta http-equiv>` in a copy of each page opened from file://. Every walkthrough renders and
  steps, and the browser reports no violation.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.notebook, pytest.mark.xdist_group("classroom")]

# what the pages need: their own inline scripts and styles, files of the site, data: images
# and fonts, Pyodide's WebAssembly; nothing evaluated from a string
CSP = ("default-src 'self'; script-src 'self' 'unsafe-inline' 'wasm-unsafe-eval'; "
       "style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; "
       "connect-src 'self' data:; worker-src 'self' blob:; object-src 'none'; base-uri 'none'")
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
    from rulekit.export import executed_notebook

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


def _steps_under_csp(visit) -> list[str]:
    """Every walkthrough of the page rendered and stepped once (Next); what went wrong."""
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
    violations = page.evaluate("() => window.rkViolations")
    wrong += [f"CSP: {v}" for v in violations]
    wrong += [f"console: {e}" for e in visit.console_errors]
    return wrong


def test_pages_work_under_a_csp_header_without_unsafe_eval(lesson_site, browser) -> None:
    from http.server import SimpleHTTPRequestHandler

    from rulekit.export.browser import open_page, serve

    class Strict(SimpleHTTPRequestHandler):
        def end_headers(self) -> None:
            self.send_header("Content-Security-Policy", CSP)
            super().end_headers()

    site, _ = lesson_site
    wrong: dict[str, list[str]] = {}
    with serve(site, handler=Strict) as base:
        for path in _pages(site):
            has = 'data-rk-view="stepper"' in path.read_text("utf-8")  # not the quiz page
            visit = open_page(browser, path, site, server=base, stepper=has, init_script=WATCH)
            try:
                got = _steps_under_csp(visit)
                if got:
                    wrong[path.name] = got
            finally:
                visit.page.close()
    assert wrong == {}, wrong


def test_pages_work_under_a_csp_meta_from_file(lesson_site, browser, tmp_path) -> None:
    from rulekit.export.browser import open_page

    site, _ = lesson_site
    for item in site.iterdir():  # the site's files, the pages copied with the policy in them
        if item.suffix != ".html":
            (tmp_path / item.name).symlink_to(item.resolve())
    wrong: dict[str, list[str]] = {}
    meta = f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
    for path in _pages(site):
        html = path.read_text("utf-8")
        head = re.search(r"<head[^>]*>", html)
        assert head, path
        copy = tmp_path / path.name
        copy.write_text(html[:head.end()] + meta + html[head.end():], "utf-8")
        visit = open_page(browser, copy, tmp_path, stepper='data-rk-view="stepper"' in html,
                          init_script=WATCH)
        try:
            got = _steps_under_csp(visit)
            if got:
                wrong[path.name] = got
        finally:
            visit.page.close()
    assert wrong == {}, wrong
