"""Ask the diagram why (issue 28), in Debian's Chromium, through the accessibility tree: a
walkthrough page made from a shipped scenario's frames (`StepFrames.data()`, the stepper module
and the page host, as an exported page has them; no notebook), its diagram one Tab stop, the
arrow keys walking the boxes along the arrows with each box's name saying its words and its
rule, Enter opening the "why" panel (the chain back to the player's action, the rule with the
kit's summary and its number, a replaced event before and after), Escape closing it and giving
the focus back to the box. Screenshots at three sizes with the panel open, axe-core clean."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.helpers import unavailable

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("diagram-why")]

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts" / "why"
SIZES = [(1280, 720), (1366, 768), (1920, 1080)]


def _page_html(scenario: str) -> str:
    from rulekit.display.frames import StepFrames
    from rulekit.display.front import css_text, module_text, page_module
    from rulekit.export.views import view_html

    data = StepFrames(scenario).data()
    traits = {"frames": data["frames"], "svg": data["svg"], "uid": data["uid"],
              "legends": data["legends"], "board_parts": data["board_parts"],
              "title": data["title"], "step": 0}
    return ("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>Why</title>"
            f"<style>{css_text('stepper')}</style></head><body><main>"
            f"{view_html('stepper', traits)}</main>"
            f"<script type='module'>{page_module('stepper')}</script>"
            f"<script type='module'>{module_text('host')}</script></body></html>")


@pytest.fixture(scope="module")
def why_page(browser, tmp_path_factory):
    """Mana Reflection's walkthrough (R05: a replacement effect and a trigger), at step 1."""
    if shutil.which("dot") is None:
        unavailable("Graphviz's dot is not installed (sudo apt-get install graphviz)")
    path = tmp_path_factory.mktemp("why") / "why.html"
    path.write_text(_page_html("R05"), "utf-8")
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(path.as_uri())
    page.locator(".rk-stepper .rk-box").first.wait_for()
    page.locator(".rk-stepper").evaluate("(e) => e.scrollIntoView({block: 'start'})")
    page.locator(".rk-steps button").nth(1).click()
    page.wait_for_timeout(200)
    yield page
    assert errors == []
    page.close()


def _focused(page) -> dict:
    """Chromium's accessibility node of the focused element (through the DevTools protocol):
    its role and its name, what a screen reader says on reaching it."""
    page.evaluate("() => document.activeElement.setAttribute('data-rk-probe', '')")
    cdp = page.context.new_cdp_session(page)
    try:
        cdp.send("Accessibility.enable")
        root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
        node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": "[data-rk-probe]"})
        found = cdp.send("Accessibility.getPartialAXTree",
                         {"nodeId": node["nodeId"], "fetchRelatives": False})["nodes"]
        n = found[0] if found else {}
        return {"role": n.get("role", {}).get("value", ""),
                "name": n.get("name", {}).get("value", "")}
    finally:
        cdp.detach()
        page.evaluate("() => document.querySelector('[data-rk-probe]')"
                      ".removeAttribute('data-rk-probe')")


def _box(page) -> str:
    return page.evaluate("() => Array.from(document.activeElement.classList)"
                         ".find((c) => c.startsWith('rkbox-')) || ''")


def test_the_diagram_is_one_tab_stop_and_the_arrows_walk_its_boxes(why_page) -> None:
    page = why_page
    boxes = page.locator(".rk-frame .rk-diagram .rk-box")
    assert boxes.count() > 5
    assert page.locator(".rk-frame .rk-diagram .rk-box[tabindex='0']").count() == 1  # roving
    page.locator(".rk-figure-tools .rk-zoom").focus()
    page.keyboard.press("Tab")
    first = _focused(page)
    assert first["role"] == "button" and _box(page) == "rkbox-sum_s0", first
    assert "Set-up" in first["name"]
    page.keyboard.press("Tab")  # one Tab stop: the next Tab leaves the diagram
    assert _box(page) == ""
    page.keyboard.press("Shift+Tab")
    assert _box(page) == "rkbox-sum_s0"
    seen = []
    for _ in range(3):  # down the arrows: the player's action, then what it does
        page.keyboard.press("ArrowDown")
        seen.append((_box(page), _focused(page)["name"]))
    names = [n for _, n in seen]
    assert names[0].startswith("Alice taps Forest (#1) for mana CR 605.3a, 106.12")  # as drawn
    assert "{T}: Add {G}." in names[0]  # then its whole words
    assert "When mana abilities can be used" in names[0]  # the rule, with its title
    assert "Forest (#1)'s mana ability is activated" in names[1] and "CR 605.1a" in names[1]
    assert "comes of: Alice taps Forest" in names[1]
    assert "Forest (#1) becomes tapped" in names[2] and "CR 107.5" in names[2]
    page.keyboard.press("ArrowUp")  # back to its cause
    assert _box(page) == seen[1][0]
    page.keyboard.press("ArrowDown")  # again: its next effect (it had two)
    other = _focused(page)["name"]
    assert "resolves at once, without the stack" in other and _box(page) != seen[2][0]
    assert "Effect 2 of 2" in page.locator(".rk-announce").inner_text()
    page.keyboard.press("ArrowLeft")
    assert _box(page) == seen[1][0]
    page.keyboard.press("End")
    page.keyboard.press("Home")
    assert _box(page) == "rkbox-sum_s0"


def test_enter_opens_why_and_escape_returns_to_the_box(why_page) -> None:
    page = why_page
    target = page.locator(".rk-frame .rk-diagram .rk-box.rkbox-n30")  # {G}{G}: replaced
    target.focus()
    assert "Alice adds {G}{G} from Forest" in _focused(page)["name"]
    page.keyboard.press("Enter")
    panel = page.locator(".rk-frame .rk-why")
    assert panel.count() == 1
    got = _focused(page)
    assert got["role"] == "region" and got["name"].startswith("Why: Alice adds {G}{G}"), got
    text = panel.inner_text()
    assert "Before: Alice would add {G} from Forest" in text
    assert "After: Alice adds {G}{G} from Forest" in text
    assert "Changed by: Mana Reflection" in text and "CR 614.1a" in text
    assert "CR 106.4" in text  # the rule the box cites, with the kit's summary
    chain = panel.locator(".rk-why-chain li").all_inner_texts()
    assert chain[0].startswith("Alice taps Forest (#1) for mana") and "player's action" in chain[0]
    assert chain[-1] == "does → Alice adds {G}{G} from Forest"  # the arrow into it, its words
    assert chain[1].startswith("does → Forest (#1)'s mana ability is activated")
    for size in SIZES:
        page.set_viewport_size({"width": size[0], "height": size[1]})
        page.wait_for_timeout(150)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"why-open-{size[0]}x{size[1]}.png"))
    from rulekit.export.checks import axe

    assert axe(page, within=".rk-stepper") == {}
    page.keyboard.press("Escape")
    assert panel.count() == 0 and _box(page) == "rkbox-n30"
    target.click()  # a click opens it too; its Close button gives the focus back
    assert panel.count() == 1
    panel.locator(".rk-why-close").click()
    assert panel.count() == 0 and _box(page) == "rkbox-n30"
    page.set_viewport_size({"width": 1280, "height": 720})


def test_presenting_the_diagram_keys_stay_the_diagrams(why_page) -> None:
    """In Present the walkthrough takes the arrow keys page-wide; on a box they walk the
    diagram, and Escape closes the panel before it leaves Present."""
    page = why_page
    page.locator(".rk-present").click()
    page.wait_for_timeout(200)
    step = page.locator(".rk-frame").get_attribute("data-step")
    page.locator(".rk-frame .rk-diagram .rk-box.rkbox-n26").focus()
    page.keyboard.press("ArrowRight")
    assert page.locator(".rk-frame").get_attribute("data-step") == step
    assert _box(page) != "rkbox-n26"
    page.keyboard.press("Enter")
    page.keyboard.press("Escape")
    assert page.locator(".rk-stepper").evaluate("(e) => e.classList.contains('rk-presenting')")
    page.keyboard.press("Escape")
    page.wait_for_timeout(200)
    assert not page.locator(".rk-stepper").evaluate(
        "(e) => e.classList.contains('rk-presenting')")


def test_the_brief_shape_walks_its_own_arrows_and_shows_its_own_legend(browser) -> None:
    """Lesson 6's Shatterstorm under Rest in Peace fits the page's pane at 1280x720 only in
    a brief shape (a fan-out's replaced events one box each: "stacked", the one its frame
    ships): the page shows that shape, its legend (no "as first proposed" box: it draws
    none), the arrow keys walk its own
    arrows (the resolution, then each replaced event's one box; Up and Up again from the
    resolution: both its causes, the spell cast a step before and the player's action that
    let it resolve), and the one box's "why"
    still gives the event before and after Rest in Peace; at 1920x1080, where the default
    shape fits, the page shows it again, with its legend."""
    if shutil.which("dot") is None:
        unavailable("Graphviz's dot is not installed (sudo apt-get install graphviz)")
    import tempfile

    from rulekit.scenario import shipped_dir

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "rip.html"
        path.write_text(_page_html(str(shipped_dir() / "r11_refinery_rest_in_peace.toml")),
                        "utf-8")
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        try:
            page.goto(path.as_uri())
            page.locator(".rk-stepper .rk-box").first.wait_for()
            page.locator(".rk-stepper").evaluate("(e) => e.scrollIntoView({block: 'start'})")
            page.locator(".rk-steps button").nth(2).click()
            page.wait_for_timeout(300)
            svg = page.locator(".rk-frame .rk-diagram > svg")
            assert svg.get_attribute("data-rk-shape") == "stacked"
            legend = page.locator(".rk-frame .rk-legend-box")
            assert legend.locator("[data-role='replacement']").count() == 1
            assert legend.locator("[data-role='proposed']").count() == 0
            page.locator(".rk-frame .rk-diagram .rk-box.rkbox-n36").focus()  # resolves
            seen = []
            for _ in range(4):  # its effects, in turn: each replaced event is one box
                page.keyboard.press("ArrowDown")
                seen.append(_box(page))
                page.keyboard.press("ArrowUp")
                assert _box(page) == "rkbox-n36"
            assert "rkbox-n37" in seen and not [b for b in seen if b[6] in "pr"], seen
            causes = []  # two arrows lead into the resolution: Up, and Up again, reach both
            for _ in range(2):
                page.locator(".rk-frame .rk-diagram .rk-box.rkbox-n36").focus()
                page.keyboard.press("ArrowUp")
                causes.append(_box(page))
            assert sorted(causes) == ["rkbox-n35", "rkbox-sum_s1"], causes  # (the action)
            assert "Cause 2 of 2" in page.locator(".rk-announce").inner_text()
            page.locator(".rk-frame .rk-diagram .rk-box.rkbox-n37").focus()
            assert "Slagstone Refinery (#2) is destroyed" in _focused(page)["name"]
            page.keyboard.press("Enter")
            text = page.locator(".rk-frame .rk-why").inner_text()
            assert "Before: Slagstone Refinery (#2) would move from battlefield to graveyard" \
                in text, text
            assert "Changed by: Rest in Peace" in text
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "brief-why-1280x720.png"))
            page.keyboard.press("Escape")
            page.set_viewport_size({"width": 1920, "height": 1080})  # the default fits here
            page.wait_for_timeout(300)
            assert svg.get_attribute("data-rk-shape") == ""
            assert legend.locator("[data-role='proposed']").count() == 1  # its legend again
            assert errors == []
        finally:
            page.close()


def test_a_narrow_walkthrough_puts_its_legend_under_the_narration(browser) -> None:
    """In a walkthrough 1,100 px wide or narrower (JupyterLab beside its file browser; here
    a window 1,000 px wide) the legend, then the figure's tools ("The whole story", 1:1),
    sit in the words' column under the narration, so the diagram's pane has the figure's
    whole height (its top is the figure's); at 1280x720 both are back above the pane, the
    legend after the tools, and the tools still work from either place."""
    if shutil.which("dot") is None:
        unavailable("Graphviz's dot is not installed (sudo apt-get install graphviz)")
    import tempfile

    where = """(r) => { const l = r.querySelector('.rk-legend-box');
      return {text: l.parentElement.classList.contains('rk-text'),
              afterNarration: !!l.previousElementSibling &&
                l.previousElementSibling.classList.contains('rk-narration'),
              inHead: !!l.closest('.rk-figure-head'),
              toolsAfter: l.nextElementSibling === r.querySelector('.rk-figure-tools'),
              toolsInHead: !!r.querySelector('.rk-figure-tools').closest('.rk-figure-head'),
              paneGap: r.querySelector('.rk-diagram').getBoundingClientRect().top -
                r.querySelector('.rk-figure').getBoundingClientRect().top,
              pane: r.querySelector('.rk-diagram').clientHeight}; }"""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "narrow.html"
        path.write_text(_page_html("R05"), "utf-8")
        page = browser.new_page(viewport={"width": 1000, "height": 720})
        try:
            page.goto(path.as_uri())
            page.locator(".rk-stepper .rk-box").first.wait_for()
            stepper = page.locator(".rk-stepper")
            stepper.evaluate("(e) => e.scrollIntoView({block: 'start'})")
            page.locator(".rk-steps button").nth(1).click()
            page.wait_for_timeout(300)
            narrow = stepper.evaluate(where)
            assert narrow["text"] and narrow["afterNarration"], narrow
            assert narrow["toolsAfter"] and not narrow["toolsInHead"], narrow
            assert narrow["paneGap"] <= 1, narrow  # no row of tools above the pane
            # the 1:1 toggle works from the words' column (and stays pressed)
            page.locator(".rk-text .rk-zoom").click()
            page.wait_for_timeout(200)
            assert page.locator(".rk-zoom").get_attribute("aria-pressed") == "true"
            page.set_viewport_size({"width": 1280, "height": 720})
            page.wait_for_timeout(300)
            wide = stepper.evaluate(where)
            assert wide["inHead"] and not wide["text"], wide
            assert wide["toolsInHead"] and not wide["toolsAfter"], wide
            assert page.locator(".rk-figure-head .rk-zoom").get_attribute("aria-pressed") == "true"
            assert narrow["pane"] > wide["pane"], (narrow, wide)  # the legend's rows given back
        finally:
            page.close()


def test_a_narrow_walkthrough_gives_a_large_step_four_fifths(browser) -> None:
    """In a walkthrough 1,100 px wide or narrower (here 910 px: JupyterLab at 1280x720
    beside its file browser), a step that three quarters of the width (`rk-wide`) show under
    95 % gets four fifths (`rk-wider`: the words' column 200 px) while its narration still
    shows whole, and then meets the 95 % rule: lesson 8's Springleaf Drum paid for with the
    Initiate (R16, step 6: 708x495 px at 16 px, in a 660 px pane at three quarters). A step
    that fits its half keeps it, one too tall (not too wide) keeps three quarters, and at
    1280x720 (not narrow) no frame takes four fifths."""
    if shutil.which("dot") is None:
        unavailable("Graphviz's dot is not installed (sudo apt-get install graphviz)")
    import tempfile

    from rulekit.export.checks import goto_step, step_shares

    look = """(r) => { const f = r.querySelector('.rk-frame'), t = f.querySelector('.rk-text');
      const n = t.querySelector('.rk-narration').getBoundingClientRect();
      const c = t.getBoundingClientRect();
      return {wide: f.classList.contains('rk-wide'), wider: f.classList.contains('rk-wider'),
              words: Math.round(c.width), whole: n.top >= c.top - 1 && n.bottom <= c.bottom + 1,
              width: r.clientWidth}; }"""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "narrow.html"
        path.write_text(_page_html("r16_exert_already_untapped"), "utf-8")
        page = browser.new_page(viewport={"width": 926, "height": 600})  # 910 px inside
        try:
            page.goto(path.as_uri())
            page.locator(".rk-stepper .rk-box").first.wait_for()
            stepper = page.locator(".rk-stepper")
            stepper.evaluate("(e) => e.scrollIntoView({block: 'start'})")
            shares = {s.step: s for s in step_shares(stepper)}
            goto_step(stepper, 6)
            page.wait_for_timeout(300)
            six = stepper.evaluate(look)
            assert six["width"] <= 1100, six
            assert six["wide"] and six["wider"] and six["whole"], six
            assert 198 <= six["words"] <= 210, six
            assert shares[6].share >= 0.95, shares[6]
            goto_step(stepper, 1)
            page.wait_for_timeout(300)
            one = stepper.evaluate(look)
            assert not one["wider"], one
            page.set_viewport_size({"width": 1280, "height": 720})
            goto_step(stepper, 6)
            page.wait_for_timeout(300)
            assert not stepper.evaluate(look)["wider"]
            # a step too tall for the pane, not too wide (lesson 4's Endless One entering
            # with zero counters, R06 step 4: 598x558 px in its between shape, in a window
            # 520 px tall: a 658x510 pane at three quarters): four fifths would show no
            # more of it, so its words keep their column
            path.write_text(_page_html("r06_x_in_enters"), "utf-8")
            page.set_viewport_size({"width": 926, "height": 520})
            page.goto(path.as_uri())
            page.locator(".rk-stepper .rk-box").first.wait_for()
            stepper.evaluate("(e) => e.scrollIntoView({block: 'start'})")
            shares = {s.step: s for s in step_shares(stepper)}
            assert shares[4].share < 0.95, shares[4]  # (so four fifths were weighed)
            goto_step(stepper, 4)
            page.wait_for_timeout(300)
            tall = stepper.evaluate(look)
            assert tall["wide"] and not tall["wider"] and tall["words"] >= 238, tall
        finally:
            page.close()
