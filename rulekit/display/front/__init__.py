"""The views' browser code: one anywidget front-end module (AFM: an ES module whose default
export has `render({model, el})`) per view, with its CSS, used by every host (a kernel's
anywidget, an exported page's own host). `module_text(name)` / `css_text(name)` read them from
the installed package (importlib.resources), so a wheel has them too.

>>> "export default" in module_text("sandbox")
True
"""

from __future__ import annotations

from importlib.resources import files

__all__ = ["css_text", "module_text"]


def _text(filename: str) -> str:
    return files(__package__).joinpath(filename).read_text("utf-8")


def module_text(name: str) -> str:
    """The ES module `name.js` of this folder, as text."""
    return _text(f"{name}.js")


def css_text(name: str) -> str:
    """The style sheet `name.css` of this folder, as text."""
    return _text(f"{name}.css")
