"""Links to a walkthrough's step, without a browser: each walkthrough's slug (its
name in a page's address, `#<slug>/<step>`), the exported page's address a kernel host's
"Copy a link to this step" gives (`Stepper.step_link`, `site_page`), the page's contents list
and ids (`mtg_rulekit.export.views`), and the prose taken out of the Tab order."""

from __future__ import annotations

import pytest

from mtg_rulekit.core.errors import UsageError
from mtg_rulekit.display.walkthrough.frames import page_slug
from mtg_rulekit.display.walkthrough.widget import Stepper, site_page
from mtg_rulekit.export.lesson import untab_prose
from mtg_rulekit.export.views import STATE_MIME, VIEW_MIME, contents, to_views


@pytest.fixture(scope="module")
def stepper() -> Stepper:
    return Stepper("r14_exert_borrowed_creature")


def test_a_walkthrough_is_named_by_its_scenario_in_the_address(stepper) -> None:
    assert stepper.slug.startswith("exert-borrowed-creature")
    data = stepper.steps.data()
    assert data["slug"] == stepper.slug
    assert data["about"].startswith("Alice takes Bob's Glory-Bound Initiate")
    # the same scenario again in this kernel: a name of its own; a scenario from text: its title
    first, again = page_slug("r99_same_thing"), page_slug("r99_same_thing")
    assert (first, again) == ("same-thing", "same-thing-2")
    assert page_slug("", "Tap: the <b>Forest</b>!") == "tap-the-b-forest-b"


def test_copy_a_link_gives_the_exported_pages_address(stepper, monkeypatch) -> None:
    monkeypatch.setenv("JPY_SESSION_NAME", "/home/t/notebooks/08_exert.ipynb")
    monkeypatch.setenv("RULEKIT_SITE_URL", "https://school.example/rulekit")
    assert site_page() == "https://school.example/rulekit/08_exert.html"
    stepper.link_base = site_page()  # what a Stepper made in that kernel has
    assert stepper.step_link(3) == \
        f"https://school.example/rulekit/08_exert.html#{stepper.slug}/3"
    stepper.step = 2  # what the browser tells the kernel
    assert stepper.step_link().endswith(f"#{stepper.slug}/2")
    with pytest.raises(UsageError, match="step: .* is not a step"):
        stepper.step_link(stepper.last + 1)
    monkeypatch.delenv("RULEKIT_SITE_URL")  # no base: relative to the site's folder
    assert site_page() == "08_exert.html"
    monkeypatch.delenv("JPY_SESSION_NAME")  # no notebook known: the module finds it
    assert site_page() == ""
    assert site_page("a b.ipynb", "") == "a%20b.html"


def _nb(*views: tuple[str, dict]) -> dict:
    state, outputs = {}, []
    for i, (name, traits) in enumerate(views):
        state[f"m{i}"] = {"state": {"rk_view": name, **traits}}
        outputs.append({"output_type": "display_data", "data": {VIEW_MIME: {"model_id": f"m{i}"}}})
    return {"metadata": {"widgets": {STATE_MIME: {"state": state}}},
            "cells": [{"cell_type": "code", "outputs": outputs}]}


def test_the_pages_contents_link_every_view() -> None:
    nb = _nb(("stepper", {"slug": "exert-borrowed", "title": "Exerting <a> creature"}),
             ("stepper", {"slug": "exert-borrowed", "title": "Again"}),
             ("sandbox", {"title": "Sandbox"}))
    assert to_views(nb) == 3
    assert contents(nb) == [("exert-borrowed", "Exerting <a> creature"),
                            ("exert-borrowed-2", "Again"), ("sandbox", "Sandbox")]
    html = nb["cells"][0]["outputs"][0]["data"]["text/html"]
    assert html.startswith('<div class="rk-view" data-rk-view="stepper" id="exert-borrowed">')


def test_prose_is_not_a_tab_stop() -> None:
    page = ('<div class="jp-Cell-inputWrapper" tabindex="0"><p>Text</p></div>'
            '<div class="jp-RenderedHTMLCommon jp-OutputArea-output" data-mime-type="text/html"'
            ' tabindex="0">out</div><div class="rk-diagram" tabindex="0"></div>')
    out = untab_prose(page)
    assert out.count('tabindex="0"') == 1 and '<div class="rk-diagram" tabindex="0">' in out
