"""Ask the diagram why, in Debian's Chromium, through the accessibility tree: a
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

# the picture shown at a desktop size (a step may have a phone's picture too, hidden there)
PANE = ".rk-frame .rk-diagram:not(.rk-phone)"


def _page_html(scenario: str) -> str:
    from mtg_rulekit.display.front import css_text, module_text, page_module
    from mtg_rulekit.display.walkthrough.frames import StepFrames
    from mtg_rulekit.export.views import view_html

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
    boxes = page.locator(f"{PANE} .rk-box")
    assert boxes.count() > 5
    assert page.locator(f"{PANE} .rk-box[tabindex='0']").count() == 1  # roving
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
    target = page.locator(f"{PANE} .rk-box.rkbox-n30")  # {G}{G}: replaced
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
    from mtg_rulekit.export.checks import axe

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
    page.locator(f"{PANE} .rk-box.rkbox-n26").focus()
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


def _open_scenario(browser, folder: Path, scenario: str, size: tuple[int, int]):
    """A page of one walkthrough (`_page_html`) at `size`, scrolled to it; (page, errors)."""
    path = folder / "walkthrough.html"
    path.write_text(_page_html(scenario), "utf-8")
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(path.as_uri())
    page.locator(".rk-stepper .rk-box").first.wait_for()
    page.locator(".rk-stepper").evaluate("(e) => e.scrollIntoView({block: 'start'})")
    return page, errors


def test_a_narrow_layouts_one_box_walks_its_arrows_and_answers_before_and_after(
        browser, tmp_path) -> None:
    """Lesson 6's Shatterstorm under Rest in Peace ships in a narrow layout (a fan-out's
    replaced events one box each): its legend has no "as first proposed" box, the arrow
    keys walk its own arrows (the resolution, then each replaced event's one box; Up and Up
    again from the resolution: both its causes, the spell cast a step before and the
    player's action that let it resolve), and the one box's "why" still gives the event
    before and after Rest in Peace."""
    if shutil.which("dot") is None:
        unavailable("Graphviz's dot is not installed (sudo apt-get install graphviz)")
    from mtg_rulekit.scenario import shipped_dir

    page, errors = _open_scenario(
        browser, tmp_path, str(shipped_dir() / "r11_refinery_rest_in_peace.toml"), (1280, 720))
    try:
        page.locator(".rk-steps button").nth(2).click()
        page.wait_for_timeout(300)
        assert page.locator(f"{PANE} .rkbox-p37").count() == 0  # one box
        legend = page.locator(".rk-frame .rk-legend-box:not(.rk-phone)")
        assert legend.locator("[data-role='replacement']").count() == 1
        assert legend.locator("[data-role='proposed']").count() == 0
        page.locator(f"{PANE} .rk-box.rkbox-n36").focus()  # resolves
        seen = []
        for _ in range(4):  # its effects, in turn: each replaced event is one box
            page.keyboard.press("ArrowDown")
            seen.append(_box(page))
            page.keyboard.press("ArrowUp")
            assert _box(page) == "rkbox-n36"
        assert "rkbox-n37" in seen and not [b for b in seen if b[6] in "pr"], seen
        causes = []  # two arrows lead into the resolution: Up, and Up again, reach both
        for _ in range(2):
            page.locator(f"{PANE} .rk-box.rkbox-n36").focus()
            page.keyboard.press("ArrowUp")
            causes.append(_box(page))
        assert sorted(causes) == ["rkbox-n35", "rkbox-sum_s1"], causes  # (the action)
        assert "Cause 2 of 2" in page.locator(".rk-announce").inner_text()
        page.locator(f"{PANE} .rk-box.rkbox-n37").focus()
        assert "Slagstone Refinery (#2) is destroyed" in _focused(page)["name"]
        page.keyboard.press("Enter")
        text = page.locator(".rk-frame .rk-why").inner_text()
        assert "Before: Slagstone Refinery (#2) would move from battlefield to graveyard" \
            in text, text
        assert "Changed by: Rest in Peace" in text
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "narrow-why-1280x720.png"))
        page.keyboard.press("Escape")
        assert errors == []
    finally:
        page.close()


# where the grid puts things: the control row's, the words', the legend's and the pane's boxes
PLACES = """(r) => { const box = (s) => r.querySelector(s).getBoundingClientRect().toJSON();
  const f = r.querySelector('.rk-frame');
  return {root: r.getBoundingClientRect().toJSON(), controls: box('.rk-controls'),
    text: box('.rk-frame > .rk-text'), head: box('.rk-figure-head'), pane: box('.rk-diagram'),
    legendInHead: !!r.querySelector('.rk-figure-head > .rk-legend-box'),
    textFirst: f.firstElementChild.classList.contains('rk-text')}; }"""


@pytest.mark.parametrize("size", [(1280, 720), (926, 600)], ids=["1280x720", "narrow"])
def test_the_grid_places_controls_words_legend_and_picture(browser, tmp_path, size) -> None:
    """One screen (stepper.css, no element moved by script): the control row heads the words'
    column, the step's words under it, the legend and the picture's tools at their foot, the
    picture's pane as tall as the walkthrough beside them. A third of the width for the words
    at 1280x720; in a walkthrough 1,100 px wide or narrower (here 910 px, as JupyterLab's
    beside its file browser at 1280x720), about 200 px. The 1:1 toggle still works."""
    if shutil.which("dot") is None:
        unavailable("Graphviz's dot is not installed (sudo apt-get install graphviz)")
    page, errors = _open_scenario(browser, tmp_path, "r16_exert_already_untapped", size)
    try:
        stepper = page.locator(".rk-stepper")
        page.locator(".rk-steps button").nth(6).click()
        page.wait_for_timeout(300)
        got = stepper.evaluate(PLACES)
        root, controls, text, head, pane = (got[k] for k in ("root", "controls", "text", "head",
                                                            "pane"))
        assert got["legendInHead"] and got["textFirst"], got  # the DOM as the module made it
        assert abs(controls["left"] - text["left"]) <= 1 and controls["bottom"] <= text["top"] + 1
        assert controls["right"] <= pane["left"] and text["right"] <= pane["left"]
        assert head["top"] >= text["bottom"] - 1 and abs(head["left"] - text["left"]) <= 1
        assert pane["top"] - root["top"] <= 2 and root["bottom"] - pane["bottom"] <= 2, got
        words = text["right"] - root["left"]
        if size[0] < 1000:
            assert 195 <= words <= 225, got
        else:
            assert 0.28 <= words / root["width"] <= 0.36, got
        page.locator(".rk-figure-head .rk-zoom").click()
        page.wait_for_timeout(200)
        assert page.locator(".rk-zoom").get_attribute("aria-pressed") == "true"
        assert stepper.evaluate("(r) => r.querySelector('.rk-diagram svg').style.width") == \
            stepper.evaluate("(r) => r.querySelector('.rk-diagram svg').getAttribute('width')"
                             " + 'px'")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"grid-{size[0]}x{size[1]}.png"))
        assert errors == []
    finally:
        page.close()
