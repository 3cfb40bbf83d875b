"""The Content-Security-Policy every exported page carries, as a `<meta http-equiv>` first in its
head (docs/classroom.md, "The pages' security policy"): scripts and styles from the site's own
files and the page's own inline blocks, named by their SHA-256, nothing else; WebAssembly
compiled for the live sandbox (Pyodide, Viz.js), never `eval`.

- **Inline blocks:** every inline `<script>` the browser would run (classic or module) and every
  `<style>` is listed by the hash of its text: the pages keep working from `file://`, where a
  module can't be loaded from a file, and a script injected into the page runs nowhere.
- **Style attributes:** a `style="..."` in the page (an HTML output of a notebook: the rulings
  box, a table) becomes a class with the same declarations, in one `<style>` of the page, each
  `!important` so it still wins over the page's other rules as the attribute did.
- **The live sandbox's worker** (a page with the live sandbox only: its `rk-live-config`
  block): the engine runs in a Web Worker started from a blob of the worker's script, which
  imports Pyodide's and Viz.js's ES modules from blobs too (a page opened from `file://` can
  neither start a worker nor import a module from a file). So such a page allows `blob:`
  workers (`worker-src blob:`) and `blob:` scripts; a blob is made only by the page's own
  scripts, which run by their hashes.
- **Jupyter widgets** (ipywidgets outputs, not the kit's views) don't run under it: their widget
  manager compiles its JSON schemas with `new Function` (and, in CDN mode, comes from another
  origin). The build says which lessons have them.

>>> page = secure('<html><head><meta charset="utf-8"></head><body><p style="color:red">Hi</p>'
...               '<script>go()</script></body></html>')
>>> print(page.split("<body>")[1])
<p class="rk-style-06a56c5d">Hi</p><script>go()</script></body></html>
>>> ".rk-style-06a56c5d{color:red !important}" in page
True
>>> "'sha256-" + sha256("go()") + "'" in policy_of(page)["script-src"]
True
"""

from __future__ import annotations

import base64
import hashlib
import html
import re
from collections.abc import Iterator

__all__ = ["META", "policy", "policy_of", "secure", "sha256"]

META = "Content-Security-Policy"

# a comment, a raw text element (its text is not markup) or a start tag; attributes' values
# quoted or not, `>` allowed inside quotes
_ATTRS = r"""(?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*"""
_TOKEN = re.compile(
    r"<!--.*?-->"  # a comment: nothing in it is markup
    rf"|<(?P<raw>script|style|textarea|title)\b(?P<rawattrs>{_ATTRS})\s*>(?P<text>.*?)"
    r"</(?P=raw)\s*>"
    rf"|<(?P<tag>[A-Za-z][^\s/>]*)(?P<attrs>{_ATTRS})\s*/?>", re.S | re.I)
_ATTR = re.compile(r"""([^\s"'>/=]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s"'=<>`]+))?""")
# the scripts a browser runs (an inline block of another type is data: JSON, widget state)
_JS_TYPES = {"", "module", "text/javascript", "application/javascript", "text/ecmascript",
             "application/ecmascript", "text/jscript", "text/livescript"}


def sha256(text: str) -> str:
    """The base64 SHA-256 of an inline block's text, as a policy names it (`'sha256-...'`);
    the HTML parser's line ends (CR LF and CR read as LF) first."""
    data = text.replace("\r\n", "\n").replace("\r", "\n").encode("utf-8")
    return base64.b64encode(hashlib.sha256(data).digest()).decode("ascii")


def _attrs(text: str) -> dict[str, str]:
    """A tag's attributes (the first of a name wins, as in HTML), values unescaped."""
    found: dict[str, str] = {}
    for name, value in _ATTR.findall(text):
        value = value[1:-1] if value[:1] in ("'", '"') else value
        found.setdefault(name.lower(), html.unescape(value))
    return found


def _declarations(style: str) -> Iterator[str]:
    """The declarations of a style attribute, split at `;` outside quotes and brackets (a
    `url(data:...;base64,...)` stays whole)."""
    depth, quote, start = 0, "", 0
    for i, ch in enumerate(style):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in "([":
            depth += 1
        elif ch in ")]":
            depth = max(0, depth - 1)
        elif ch == ";" and not depth:
            yield style[start:i].strip()
            start = i + 1
    yield style[start:].strip()


def _rule(style: str) -> str:
    """The declarations of `style`, each `!important` (as an attribute, it outranked every rule
    of the page's style sheets), kept inside their rule and their `<style>` block: no `{`, `}`
    or `<` but as CSS escapes (the same characters in a string, none outside one)."""
    parts = []
    for decl in _declarations(style):
        if decl:
            important = re.search(r"!\s*important\s*$", decl, re.I)
            parts.append(decl if important else decl + " !important")
    text = ";".join(parts)
    return text.replace("<", "\\3c ").replace("{", "\\7b ").replace("}", "\\7d ")


def _classes_for_styles(page: str) -> tuple[str, list[str]]:
    """`page` with every `style` attribute replaced by a class, and the classes' rules."""
    rules: dict[str, str] = {}

    def tag(match: re.Match[str]) -> str:
        attrs = match.group("attrs") or ""
        if match.group("tag") is None or not re.search(r"\bstyle\b", attrs, re.I):
            return match.group(0)  # a comment, a script, a style, a tag without one
        found = list(_ATTR.finditer(attrs))
        styles = [m for m in found if m.group(1).lower() == "style"]
        if not styles:
            return match.group(0)
        rule = _rule(_attrs(styles[0].group(0))["style"])
        name = "rk-style-" + hashlib.sha256(rule.encode("utf-8")).hexdigest()[:8]
        classes = next((_attrs(m.group(0))["class"] for m in found
                        if m.group(1).lower() == "class"), "")
        if rule:
            rules[name] = rule
            classes = f"{classes} {name}".strip()
        kept = "".join(" " + m.group(0) for m in found
                       if m.group(1).lower() not in ("style", "class"))
        if classes:
            kept += f' class="{html.escape(classes, quote=True)}"'
        whole = match.group(0)
        return whole[:match.start("attrs") - match.start()] + kept + \
            whole[match.end("attrs") - match.start():]

    page = _TOKEN.sub(tag, page)
    return page, [f".{name}{{{rule}}}" for name, rule in sorted(rules.items())]


def policy(scripts: list[str], styles: list[str], *, worker: bool = False) -> str:
    """The policy for a page whose inline scripts and styles hash to `scripts` and `styles`
    (see `sha256`); with `worker`, the live sandbox's worker and its modules from blobs."""
    hashed = [f"'sha256-{h}'" for h in sorted(set(scripts))]
    styled = [f"'sha256-{h}'" for h in sorted(set(styles))]
    blob = ["blob:"] if worker else []
    directives = [
        ("default-src", ["'none'"]),
        # the site's files; Pyodide and Viz.js compile WebAssembly (not JavaScript: no eval)
        ("script-src", ["'self'", "'wasm-unsafe-eval'", *blob, *hashed]),
        ("style-src", ["'self'", *styled]),
        # notebook images and the style sheets' icons are data: URLs; fonts from the site
        ("img-src", ["'self'", "data:"]),
        ("font-src", ["'self'", "data:"]),
        *([("worker-src", ["blob:"])] if worker else []),
        ("object-src", ["'none'"]),
        ("base-uri", ["'none'"]),
        ("form-action", ["'none'"]),
    ]
    return "; ".join(f"{name} {' '.join(values)}" for name, values in directives)


def _inline(page: str) -> tuple[list[str], list[str]]:
    """The hashes of `page`'s inline scripts (those a browser runs) and styles."""
    scripts, styles = [], []
    for match in _TOKEN.finditer(page):
        raw = (match.group("raw") or "").lower()
        attrs = _attrs(match.group("rawattrs") or "")
        if raw == "script" and "src" not in attrs and \
                attrs.get("type", "").strip().lower() in _JS_TYPES:
            scripts.append(sha256(match.group("text")))
        elif raw == "style":
            styles.append(sha256(match.group("text")))
    return scripts, styles


def secure(page: str) -> str:
    """`page` (a whole HTML document) with no style attribute left and its policy first in its
    head: after `<meta charset>` (it covers only what follows it)."""
    page, rules = _classes_for_styles(page)
    if rules:
        block = "<style>\n" + "\n".join(rules) + "\n</style>\n"
        at = page.lower().find("</head>")
        page = page[:at] + block + page[at:] if at >= 0 else block + page
    worker = 'id="rk-live-config"' in page
    meta = (f'<meta http-equiv="{META}" content="'
            f'{html.escape(policy(*_inline(page), worker=worker), quote=False)}">')
    found = re.search(r"<meta\s+charset=[^>]*>\s*", page, re.I) or \
        re.search(r"<head\b[^>]*>\s*", page, re.I)
    at = found.end() if found else 0
    return page[:at] + meta + "\n" + page[at:]


def policy_of(page: str) -> dict[str, list[str]]:
    """The policy a page carries, by directive ({} without one)."""
    found = re.search(rf'<meta http-equiv="{META}" content="([^"]*)">', page)
    if not found:
        return {}
    return {name: values for name, *values in
            (part.split() for part in html.unescape(found.group(1)).split(";") if part.strip())}
