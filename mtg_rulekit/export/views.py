"""The exported page's views: each rulekit anywidget output of an executed notebook
(a `Stepper`; once it is one, the sandbox) becomes the page contract's `rk-view` markup, its
traits taken from the notebook's saved widget state (nbclient `store_widget_state=True`): the
frames the kernel made, not a second derivation. The page's host (`mtg_rulekit/display/front/
host.js`) renders them with the same ES module as JupyterLab. Widget models nothing shows any
more leave the state; when no widget output is left, the widget state (and with it nbconvert's
html-manager `<script>`) leaves the page.

>>> nb = {"metadata": {"widgets": {STATE_MIME: {"state": {"m1": {"state": {
...     "rk_view": "stepper", "frames": [], "title": "<T>", "_esm": "x", "layout": "IPY_MODEL_l1"}},
...     "l1": {"state": {}}}}}}, "cells": [{"cell_type": "code", "outputs": [
...     {"output_type": "display_data", "data": {VIEW_MIME: {"model_id": "m1"}}}]}]}
>>> to_views(nb)
1
>>> html = nb["cells"][0]["outputs"][0]["data"]["text/html"]
>>> html.startswith('<div class="rk-view" data-rk-view="stepper" id="walkthrough">'), "<T>" in html
(True, False)
>>> contents(nb)
[('walkthrough', '<T>')]
>>> "widgets" in nb["metadata"]
False
"""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["STATE_MIME", "VIEW_MIME", "VIEWS", "contents", "to_views",
           "view_html", "view_id", "view_names", "view_traits"]

STATE_MIME = "application/vnd.jupyter.widget-state+json"
VIEW_MIME = "application/vnd.jupyter.widget-view+json"
# the views the page's host renders, and the traits each one needs (the rest of a widget's
# state, e.g. its `_esm`, the page has once for all its views)
VIEWS: dict[str, tuple[str, ...]] = {
    "stepper": ("frames", "svg", "board_parts", "legends", "uid", "title", "step", "slug",
                "about"),
    "sandbox": ("state", "status", "position", "title"),
    "quiz": ("title", "questions", "index", "linked"),
}
_REF = re.compile(r"IPY_MODEL_([0-9a-f]+)")


def _script_json(value: Any) -> str:
    r"""JSON safe inside `<script>`: `<`, `>`, `&` as `\u003c`, `\u003e`, `\u0026`."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def view_id(name: str, traits: dict[str, Any]) -> str:
    """The page id of a view (the target of the page's contents links and of `#<id>/<step>`
    addresses): a walkthrough's `slug`, else its `uid` without `rk-`; `sandbox` for a sandbox."""
    if name == "stepper":
        found = str(traits.get("slug") or traits.get("uid") or "walkthrough")
        found = re.sub(r"^rk-", "", found) if not traits.get("slug") else found
    else:
        found = name
    return re.sub(r"[^a-z0-9-]+", "-", found.lower()).strip("-") or name


def view_html(name: str, traits: dict[str, Any], ident: str = "") -> str:
    """The `rk-view` markup of one view (`id` = `ident` if given): its traits as JSON data,
    and what shows until (or unless) the page's host renders it."""
    what = {"stepper": "walkthrough", "quiz": "quiz"}.get(name, name)
    at = f' id="{ident}"' if ident else ""
    return (f'<div class="rk-view" data-rk-view="{name}"{at}>'
            f'<script type="application/json">{_script_json(traits)}</script>'
            f'<p class="rk-view-missing" role="status">Loading the {what}&hellip; If this '
            "message stays, this page's scripts did not run (JavaScript is turned off, or the "
            "page was opened outside a browser).</p></div>")


def to_views(nb: Any, overrides: dict[str, dict[str, Any]] | None = None) -> int:
    """Turn every rulekit view output of `nb` (a notebook dict, executed with its widget state
    stored) into `rk-view` HTML, in place; drop the widget models no remaining output needs,
    and the whole widget state when none does. `overrides`: traits a page gives a view
    instead of the kernel's, by view name (a sandbox's `status`: not ready until its engine
    has loaded in the page). Returns how many views it made."""
    meta = nb.get("metadata", {})
    state = meta.get("widgets", {}).get(STATE_MIME, {}).get("state", {})
    made, shown, ids = 0, [], set()
    for cell in nb.get("cells", []):
        for out in cell.get("outputs", []) if cell.get("cell_type") == "code" else []:
            data = out.get("data", {})
            ref = data.get(VIEW_MIME)
            if not ref:
                continue
            model = state.get(ref.get("model_id"), {}).get("state", {})
            name = model.get("rk_view")
            if name in VIEWS:
                traits = {k: model[k] for k in VIEWS[name] if k in model}
                traits.update((overrides or {}).get(name, {}))
                data.pop(VIEW_MIME)
                ident = base = view_id(name, traits)
                n = 1
                while ident in ids:  # the same scenario (or a second sandbox) again
                    n += 1
                    ident = f"{base}-{n}"
                ids.add(ident)
                if name == "stepper":  # its data names it as its page does (a quiz's links)
                    traits["slug"] = ident
                data["text/html"] = view_html(name, traits, ident)
                made += 1
            else:
                shown.append(ref.get("model_id"))
    if "widgets" in meta:
        keep: set[str] = set()
        todo = [m for m in shown if m in state]
        while todo:  # the models the remaining outputs show, and the models they refer to
            m = todo.pop()
            if m in keep:
                continue
            keep.add(m)
            todo += [r for r in _REF.findall(json.dumps(state[m])) if r in state]
        if keep:
            for m in [m for m in state if m not in keep]:
                del state[m]
        else:
            del meta["widgets"]
    return made


_NAME = re.compile(r'<div class="rk-view" data-rk-view="([a-z]+)"')
_VIEW = re.compile(r'<div class="rk-view" data-rk-view="([a-z]+)" id="([a-z0-9-]+)">'
                   r'<script type="application/json">(.*?)</script>', re.S)


def contents(nb: Any) -> list[tuple[str, str]]:
    """The page's contents list (after `to_views`): (id, label) of each view in page order, a
    walkthrough (where the lesson's questions are) labelled with its title, a sandbox
    "Sandbox" (the lesson template's skip links: every view's controls a few Tabs from the top
    of the page; on a wide screen, a panel in view)."""
    found: list[tuple[str, str]] = []
    for cell in nb.get("cells", []):
        for out in cell.get("outputs", []) if cell.get("cell_type") == "code" else []:
            html = out.get("data", {}).get("text/html", "")
            for name, ident, data in _VIEW.findall(html if isinstance(html, str) else
                                                   "".join(html)):
                title = json.loads(data).get("title") if name == "stepper" else ""
                found.append((ident, str(title or {"sandbox": "Sandbox", "quiz": "Quiz"}.get(
                    name, "Walkthrough"))))
    return found


def view_names(nb: Any) -> set[str]:
    """The views the outputs of `nb` show as `rk-view` markup (after `to_views`)."""
    found: set[str] = set()
    for cell in nb.get("cells", []):
        for out in cell.get("outputs", []) if cell.get("cell_type") == "code" else []:
            html = out.get("data", {}).get("text/html", "")
            found.update(_NAME.findall(html if isinstance(html, str) else "".join(html)))
    return found


_DATA = re.compile(r'\A<div class="rk-view" data-rk-view="([a-z]+)"(?: id="[^"]*")?>'
                   r'<script type="application/json">(.*?)</script>', re.S)


def view_traits(nb: Any, name: str) -> list[dict[str, Any]]:
    """The traits of every `name` view the outputs of `nb` show (after `to_views`), in the
    order the page shows them: the data its host renders (a quiz reads the walkthroughs'
    questions from it, `mtg_rulekit.export.quiz`)."""
    found = []
    for cell in nb.get("cells", []):
        for out in cell.get("outputs", []) if cell.get("cell_type") == "code" else []:
            html = out.get("data", {}).get("text/html", "")
            m = _DATA.match(html if isinstance(html, str) else "".join(html))
            if m and m.group(1) == name:
                found.append(json.loads(m.group(2)))
    return found
