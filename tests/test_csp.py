"""The Content-Security-Policy every exported page carries (`mtg_rulekit.export.csp`): style
attributes turned into classes, each inline script and style named by its hash, the policy first
in the head; the site's own pages (index, teachers, cards, quiz) rendered with it; and, in
Chromium from file:// and over HTTP, that it does what it says: the page's own scripts, styles
and WebAssembly run, an injected script, an added style attribute and eval do not. The built
site under it: tests/test_page_scripts.py and tests/test_live_sandbox.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mtg_rulekit.export.csp import META, policy_of, secure, sha256


def _page(head: str = "", body: str = "") -> str:
    return (f'<!DOCTYPE html>\n<html><head><meta charset="utf-8">\n<title>t</title>{head}'
            f"</head><body>{body}</body></html>")


def _added_rules(page: str) -> str:
    """The style block `secure` added (the last one in the head)."""
    return re.findall(r"<style>(.*?)</style>", page, re.S)[-1]


def test_style_attributes_become_classes_with_the_same_declarations() -> None:
    page = secure(_page(body="<p class='a b' style=\"color:red; background:url(data:x;y)\">1"
                             "</p><p style=color:red>2</p><td STYLE='x:1' id=k>3</td>"
                             "<svg><rect style=\"fill:#000!important\"/></svg><p style=''>4</p>"))
    body = page.split("<body>")[1]
    assert not re.search(r"\sstyle\s*=", body, re.I)
    classes = re.findall(r'class="([^"]*)"', body)
    assert classes[0].startswith("a b rk-style-") and len(set(classes)) == 4
    assert '<p>4</p>' in body and 'id=k class="rk-style-' in body
    rules = _added_rules(page)
    assert "{color:red !important;background:url(data:x;y) !important}" in rules
    assert "{fill:#000!important}" in rules  # kept as it was
    assert rules.count("{color:red !important}") == 1  # the same style, one class


def test_comments_scripts_and_data_keep_their_text() -> None:
    body = ("<!-- <p style='a:b'> --><script>const s = \"<p style='a:b'>\";</script>"
            '<script type="application/json">{"h": "\\u003cp style=\'a:b\'\\u003e"}</script>'
            "<p title=\"a > b style='c'\">x</p>")
    assert secure(_page(body=body)).split("<body>")[1] == body + "</body></html>"


def test_a_style_stays_inside_its_rule_and_its_block() -> None:
    page = secure(_page(body="<p style=\"x:y}body{display:none\">a</p>"
                             "<p style='content:&quot;&lt;/style&gt;&lt;script&gt;'>b</p>"))
    rules = _added_rules(page)
    assert rules.count("{") == rules.count("}") == 2  # two rules, nothing more
    assert "<" not in rules and "\\7d body\\7b display:none" in rules
    assert "<script>" not in page


def test_the_policy_names_each_inline_script_and_style_by_its_hash() -> None:
    scripts = ["go()", "\nimport('x');\n"]
    page = secure(_page(
        head="<style>p{color:red}</style>"
             '<script src="_static/x.js"></script>'
             '<script src="https://cdn.example.org/a/embed.js"></script>',
        body=f"<script>{scripts[0]}</script><script type=\"module\">{scripts[1]}</script>"
             '<script type="application/json">{"a": 1}</script>'
             '<script type="application/vnd.jupyter.widget-state+json">{}</script>'))
    found = policy_of(page)
    assert found["default-src"] == ["'none'"]
    # (nothing from elsewhere: the widget manager from a CDN can't run here anyway)
    assert found["script-src"] == ["'self'", "'wasm-unsafe-eval'",
                                   *sorted(f"'sha256-{sha256(s)}'" for s in scripts)]
    assert found["style-src"] == ["'self'", f"'sha256-{sha256('p{color:red}')}'"]
    assert found["object-src"] == found["base-uri"] == found["form-action"] == ["'none'"]
    assert "'unsafe-eval'" not in str(found) and "'unsafe-inline'" not in str(found)


def test_the_hash_is_of_the_text_the_browser_reads() -> None:
    assert sha256("a\r\nb\rc") == sha256("a\nb\nc")  # the parser's line ends
    assert sha256("") == "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="


def test_the_policy_comes_first_in_the_head() -> None:
    page = secure(_page(head="<style>p{}</style><script>x()</script>"))
    head = page.split("</head>")[0]
    assert re.match(r'<!DOCTYPE html>\n<html><head><meta charset="utf-8">\s*'
                    f'<meta http-equiv="{META}" content="', head), head
    assert "&#x27;" not in head and "'self'" in head  # readable: quotes need no escaping there
    assert policy_of(secure("<html><head><title>x</title></head></html>"))  # without charset


def _inline_blocks(page: str) -> tuple[list[str], list[str]]:
    """The texts of the inline scripts a browser runs, and of the style blocks, as Python's
    own HTML parser reads them."""
    from html.parser import HTMLParser

    found: tuple[list[str], list[str]] = ([], [])

    class Blocks(HTMLParser):
        into: list[str] | None = None

        def handle_starttag(self, tag, attrs):
            kind = dict(attrs).get("type") or ""
            runs = tag == "script" and kind in ("", "module") and "src" not in dict(attrs)
            self.into = found[0] if runs else found[1] if tag == "style" else None
            if self.into is not None:
                self.into.append("")

        def handle_data(self, data):
            if self.into is not None:
                self.into[-1] += data

        def handle_endtag(self, tag):
            self.into = None

    Blocks(convert_charrefs=False).feed(page)
    return found


def _site_pages() -> dict[str, str]:
    from mtg_rulekit.authoring.cards import entries
    from mtg_rulekit.export import BuildReport
    from mtg_rulekit.export.cards import render as cards
    from mtg_rulekit.export.index import render, render_teachers
    from mtg_rulekit.export.quiz import render as quiz

    report = BuildReport(out=Path("."))
    report.lessons = [{"stem": "01_x", "title": "One", "rulings": ["R01"]}]
    question = {"ask": "What happens?", "choices": [["a", "A"]], "answer": "a",
                "answer_label": "A", "rules": [], "walkthrough": "W", "uid": "rk-1",
                "slug": "w", "situation": "", "label": "Step 1", "href": "01_x.html#w/1"}
    return {"index": render(report, [], link_diagrams=False),
            "teachers": render_teachers(report, [], link_diagrams=False),
            "cards": cards(entries()[:3], {"01_x": "One"}),
            "quiz": quiz([("01_x", "One", [question])])}


def test_the_sites_own_pages_carry_it() -> None:
    for name, page in _site_pages().items():
        found = policy_of(page)
        assert found and "'wasm-unsafe-eval'" in found["script-src"], name
        markup = re.sub(r"<(script|style)\b[^>]*>.*?</\1>", "", page, flags=re.S)
        assert not re.search(r"<[a-zA-Z][^>]*\sstyle\s*=", markup), name
        scripts, styles = _inline_blocks(page)
        assert found["script-src"][2:] == sorted(f"'sha256-{sha256(t)}'" for t in scripts), name
        assert found["style-src"][1:] == sorted(f"'sha256-{sha256(t)}'" for t in styles), name


# what the page does, as it sees it: its own script, an added one, a style attribute, eval,
# WebAssembly (the smallest module: 8 bytes), every violation reported to it
PROBE = """
window.rk = {own: true, violations: []};
document.addEventListener('securitypolicyviolation',
  (e) => window.rk.violations.push(e.violatedDirective));
"""
CHECK = """() => new Promise((done) => setTimeout(async () => {
  // (in a task of the page's own: what the debugger runs directly may eval regardless)
  const added = document.createElement('script');
  added.textContent = 'window.rk.added = true;';
  document.body.append(added);
  const p = document.querySelector('#late');
  p.setAttribute('style', 'color: rgb(0, 0, 255)');
  let evaluated = false;
  try { evaluated = (0, eval)('true'); } catch (e) { evaluated = false; }
  let wasm = false;
  try {
    await WebAssembly.instantiate(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));
    wasm = true;
  } catch (e) { wasm = String(e); }
  await new Promise((r) => setTimeout(r, 100));
  done({own: window.rk.own, added: !!window.rk.added, evaluated, wasm,
        styled: getComputedStyle(document.querySelector('#styled')).color,
        late: getComputedStyle(p).color, violations: window.rk.violations.sort()});
}, 0))"""


@pytest.mark.browser
@pytest.mark.parametrize("how", ["file", "http"])
def test_in_chromium_it_lets_the_page_run_and_nothing_else(browser, tmp_path, how) -> None:
    from contextlib import nullcontext

    from mtg_rulekit.export.browser import open_page, serve

    (tmp_path / "page.html").write_text(secure(_page(
        head="<style>#late{color:rgb(0, 128, 0)}</style>",
        body=f"<p id='styled' style='color: rgb(255, 0, 0)'>a</p><p id='late'>b</p>"
             f"<script>{PROBE}</script>")), "utf-8")
    with serve(tmp_path) if how == "http" else nullcontext(None) as base:
        visit = open_page(browser, tmp_path / "page.html", tmp_path, stepper=False, server=base)
        try:
            got = visit.page.evaluate(CHECK)
        finally:
            visit.page.close()
    assert got == {"own": True, "added": False, "evaluated": False, "wasm": True,
                   "styled": "rgb(255, 0, 0)", "late": "rgb(0, 128, 0)",
                   "violations": ["script-src", "script-src-elem", "style-src-attr"]}


def test_only_a_page_with_the_live_sandbox_allows_its_worker():
    """The live sandbox's engine runs in a worker started from a blob, importing its modules
    from blobs: its page (with `#rk-live-config`) allows `blob:` workers and scripts; any
    other page allows no worker and no blob."""
    from mtg_rulekit.export.csp import policy_of, secure

    plain = secure('<html><head><meta charset="utf-8"></head><body><p>x</p></body></html>')
    live = secure('<html><head><meta charset="utf-8"></head><body><script type="application/'
                  'json" id="rk-live-config">{}</script></body></html>')
    assert "worker-src" not in policy_of(plain)
    assert "blob:" not in " ".join(v for vs in policy_of(plain).values() for v in vs)
    assert policy_of(live)["worker-src"] == ["blob:"]
    assert "blob:" in policy_of(live)["script-src"]
    assert "'unsafe-eval'" not in policy_of(live)["script-src"]
