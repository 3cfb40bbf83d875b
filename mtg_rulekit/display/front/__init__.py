"""The browser code of the views: one anywidget front-end module (AFM: an ES module whose
default export has `render({model, el})`) per view, with its style sheet, and the exported
page's own small AFM host (`host.js`). Plain ES2020, no dependency; a module may be written
as several files, joined in order (`PARTS`: the DOM helpers the walkthrough and the quiz
share, `dom.js`; the walkthrough's picture, `diagram.js`, its questions, `question.js`, and the
walkthrough, `stepper.js`).

- `module_text("stepper")`: the walkthrough (`mtg_rulekit.display.walkthrough.widget.Stepper`);
- `module_text("sandbox")`: the sandbox (`mtg_rulekit.sandbox.widget.Sandbox` in a kernel);
- `module_text("host")`: the exported page's host (docs/classroom.md, "the page contract");
- `script_text("sandbox_backend")`: the sandbox's back-end in a page (`rulekit.backends.sandbox`,
  the engine in Pyodide; a classic script);
- `css_text("stepper")`, `css_text("sandbox")`: the views' style sheets, after the frame,
  table and board styles they build on (`css_parts`: a page with both has each once).

>>> "export default" in module_text("stepper")
True
>>> ".rk-stepper" in css_text("stepper")
True
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources

__all__ = ["PARTS", "css_parts", "css_text", "module_text", "page_module", "script_text"]

# the files a module is written in, joined in this order (one module: one scope)
PARTS = {"stepper": ("dom.js", "diagram.js", "question.js", "stepper.js"),
         "quiz": ("dom.js", "quiz.js")}
# a view module's last statement, which a page rewrites into its registration
_EXPORT = re.compile(r"^export default ([^;\n]+);\s*\Z", re.M)


def _read(name: str) -> str:
    return (resources.files(__package__) / name).read_text("utf-8")


@cache
def module_text(name: str) -> str:
    """The ES module `<name>.js` as text (it is inlined in pages: it must not close a
    `<script>` or open an HTML comment), its whole-line comments and its lines' indentation
    left out (`_uncommented`): every walkthrough's widget carries its module in the
    notebook's saved state."""
    text = "\n".join(_read(part) for part in PARTS.get(name, (f"{name}.js",)))
    if "</script" in text.lower() or "<!--" in text:
        raise ValueError(f"{name}.js can't be inlined: it has '</script' or '<!--'")
    return _uncommented(text)


def _uncommented(text: str) -> str:
    r"""`text` (JavaScript) without its lines that are only a comment (`//`, or a `/* ... */`
    block that starts a line and ends one), and without the indentation of its lines, except
    inside a template literal that spans lines (a line with an odd number of backticks opens
    or closes one; the modules escape none, and continue no quoted string on the next line).

    >>> _uncommented("/* a module\n   note */\n// a note\nif (a) {\n  b(); // kept\n}\n"
    ...              "const t = `x\n  // in it\n`;")
    'if (a) {\nb(); // kept\n}\nconst t = `x\n  // in it\n`;'
    >>> _uncommented("/* a\n */ go();")
    'go();'
    """
    out, in_template, in_block = [], False, False
    for line in text.split("\n"):
        bare = line.strip()
        if in_block:
            if "*/" in bare:
                in_block = False
                line = line[line.index("*/") + 2:]  # what follows the comment on its line
                bare = line.strip()
            if in_block or not bare:
                continue
        if not in_template and bare.startswith("/*") and "*/" not in bare[2:-2]:
            in_block = not (bare.endswith("*/") and len(bare) >= 4)
            continue
        if in_template:
            out.append(line)
        elif not bare.startswith("//"):
            out.append(line.lstrip(" "))
        if line.count("`") % 2:
            in_template = not in_template
    return "\n".join(out)


@cache
def css_parts(name: str) -> tuple[str, ...]:
    """The style sheets view `name` needs, in order, without their comments and indentation
    (every view's widget carries its sheet in the notebook's saved state): the frame style it
    builds on (`mtg_rulekit.display.walkthrough.frames.FRAME_CSS`, with the tables'), the legend
    strip's, the board's (a walkthrough's frames and the sandbox both show one) and its own."""
    from mtg_rulekit.display.flow import LEGEND_CSS
    from mtg_rulekit.display.walkthrough.frames import FRAME_CSS

    own = _read(f"{name}.css")
    if "</style" in own.lower():
        raise ValueError(f"{name}.css can't be inlined: it has '</style'")
    if name in ("stepper", "sandbox"):
        return FRAME_CSS, LEGEND_CSS, _compact_css(_read("board.css")), _compact_css(own)
    return (_compact_css(own),)


@cache
def css_text(name: str) -> str:
    """The style sheet of view `name` (`css_parts`, joined)."""
    return "\n".join(css_parts(name))


def _compact_css(text: str) -> str:
    r"""CSS without its comments and its lines' indentation (no sheet of the kit puts `/*` in
    a string).

    >>> _compact_css("/* a\n note */\n.a {\n  color: red; /* why */\n}")
    '.a {\ncolor: red; \n}'
    """
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return "\n".join(line.lstrip() for line in text.split("\n") if line.strip())


@cache
def script_text(name: str) -> str:
    """The classic script `<name>.js` as text, to inline in a page's `<script>` (the same
    checks as `module_text`)."""
    return module_text(name)


@cache
def page_module(name: str) -> str:
    """View module `name` as the text of an exported page's inline `<script type="module">`:
    its last line, `export default {...};`, becomes its registration with the page's host
    (`rulekit.views[name] = {...};`, read by host.js), since an inline module's exports can't
    be imported by another script (and a `file://` page can't `import()` a module file).

    >>> page_module("stepper").rstrip().endswith('.views["stepper"] = {render};')
    True
    """
    key = json.dumps(name)
    text, found = _EXPORT.subn(
        lambda m: "globalThis.rulekit = globalThis.rulekit || {};\n"
                  "globalThis.rulekit.views = globalThis.rulekit.views || {};\n"
                  f"globalThis.rulekit.views[{key}] = {m.group(1)};\n", module_text(name))
    if found != 1:
        raise ValueError(f"{name}.js must end with one `export default {{...}};` line")
    return text
