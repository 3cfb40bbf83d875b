"""The sandbox's board and card menus in exported pages (issue 27), in Debian's Chromium with
every request outside the site blocked, on the session's built lessons (`lesson_site`). In
every lesson's live sandbox (one page per lesson) every card is clicked and its menu must list the state's
`card_actions` with each verdict shown before any click (unavailable: aria-disabled, with its
reason and rule in its accessible name); every available action is chosen (through its picker
when it asks a decision) and must be done, then undone; every unavailable one, sent as the same
click, must be refused by that rule. The keyboard works (arrows between cards, Enter opens,
Escape closes and gives focus back), axe finds nothing critical or serious, "Save as
walkthrough" downloads the session's TOML, free play adds a card, sets the turn and starts
again, and screenshots (lessons 01 and 03) at 1366x768, 1920x1080 and 390x844
go to test-artifacts/sandbox-board/ (ignored by git)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from rulekit.export.checks import axe
from tests.board_games import lesson_sandboxes
from tests.helpers import unavailable

pytestmark = [pytest.mark.browser, pytest.mark.notebook, pytest.mark.slow]

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts" / "sandbox-board"
LESSONS = tuple(stem[:2] for stem, _, _ in lesson_sandboxes())  # every lesson with a sandbox
SHOTS = ("01", "03")  # the screenshots and axe at three sizes
SIZES = ((1366, 768), (1920, 1080), (390, 844))
FOCUSED = "() => document.activeElement.closest('.rk-card').dataset.id"


@pytest.fixture(scope="module")
def small_site(lesson_site) -> Path:
    """The session's built lessons (`lesson_site`, built once per session and shared with the
    other page tests; this module used to build lessons 01 and 03 into a temp site of its own,
    with a cache of its own, which cost a second build of those lessons per run)."""
    site, report = lesson_site
    if report.sandbox_note:
        unavailable(report.sandbox_note)
    assert not report.failures, [f.error for f in report.failures]
    return Path(site)


def _live(browser: Any, site: Path, prefix: str, viewport: tuple[int, int] = (1366, 768)):
    from rulekit.export.browser import Live, open_page

    (path,) = sorted(site.glob(f"{prefix}_*.html"))
    visit = open_page(browser, path, site, viewport=viewport)
    live = Live(visit)
    live.root.wait_for(state="attached")
    live.start()
    assert live.state == "ready", live.box.inner_text()
    return visit, live


def _state(live: Any) -> dict[str, Any]:
    return live.view_state()


def _card_ids(live: Any) -> list[str]:
    """The cards a reader can click now (not in a closed graveyard or exile pile)."""
    return live.root.locator(".rk-board .rk-card[data-id]").evaluate_all(
        "(cs) => cs.filter((c) => !c.closest('details:not([open])'))"
        ".map((c) => c.dataset.id)")


def _open(live: Any, cid: str) -> Any:
    card = live.root.locator(f".rk-board .rk-card[data-id='{cid}']").first
    card.click()
    menu = live.root.locator(".rk-actions")
    menu.wait_for(state="visible")
    return menu


def _close(live: Any) -> None:
    live.visit.page.keyboard.press("Escape")
    live.root.locator(".rk-actions").wait_for(state="hidden")


def _shown(menu: Any) -> list[dict[str, Any]]:
    return menu.locator(".rk-action:not(.rk-close)").evaluate_all(
        "(bs) => bs.map((b) => ({label: b.querySelector('.rk-action-label').textContent, "
        "disabled: b.getAttribute('aria-disabled') === 'true', text: b.textContent}))")


def _wait_done(live: Any, done: str) -> None:
    live.visit.page.wait_for_function(
        "([r, n]) => (r.dataset.done || '0') !== n && !r.hasAttribute('aria-busy')",
        arg=[live.root.element_handle(), done])


def _choose(live: Any, menu: Any, index: int) -> dict[str, Any]:
    """Choose the menu's entry `index` (through its picker: the first legal answer); the
    outcome (`state.last`)."""
    done = live.root.get_attribute("data-done") or "0"
    menu.locator(".rk-action:not(.rk-close)").nth(index).click()
    page = live.visit.page
    page.wait_for_function(
        "([r, n]) => (r.dataset.done || '0') !== n || "
        "r.querySelector('.rk-actions.rk-picker:not([hidden])')",
        arg=[live.root.element_handle(), done])
    while live.root.locator(".rk-actions.rk-picker:not([hidden])").count():
        picker = live.root.locator(".rk-actions.rk-picker")
        who = picker.locator(".rk-picker-who").inner_text()
        assert re.search(r"\(CR \d{3}\.\d+[a-z]?\)", who), who  # who decides, and why
        picked = picker.locator(".rk-choice:not([aria-disabled='true'])").first
        seen = _state(live).get("picker", {}).get("seq")
        picked.click()
        page.wait_for_function(
            "([r, n, s]) => (r.dataset.done || '0') !== n || (r.querySelector("
            "'.rk-actions.rk-picker:not([hidden])') && rulekit.host.models().filter((m) => "
            "m.name === 'sandbox')[0].model.get('state').picker.seq !== s)",
            arg=[live.root.element_handle(), done, seen])
    _wait_done(live, done)
    return _state(live)["last"]


def _send(live: Any, content: dict[str, Any]) -> dict[str, Any]:
    """Send a click as the module does (for an unavailable entry, which the menu won't send)."""
    return live.visit.page.evaluate(
        "(c) => { const m = rulekit.host.models().filter((x) => x.name === 'sandbox')[0].model;"
        " m.send(c); return m.get('state').last; }", content)


def _undo(live: Any) -> None:
    live.click("undo")
    live.root.locator("details.rk-all-controls").evaluate("(d) => { d.open = false; }")


def _every_card(live: Any) -> tuple[int, int]:
    """Open every card the reader can reach: its menu must be its `card_actions` with each
    verdict shown; choose each available entry (done, then undone: the board as it was) and
    send each unavailable one (refused by the rule shown). (chosen, refused)."""
    start = _state(live)
    board = start["board"]
    ids = _card_ids(live)
    assert ids
    chosen = refused = 0
    for cid in ids:
        entries = start["card_actions"].get(cid, [])
        menu = _open(live, cid)
        shown = _shown(menu)
        assert [s["label"] for s in shown] == [e["label"] for e in entries]
        for s, e in zip(shown, entries, strict=True):
            assert s["disabled"] == (not e["legal"])
            if not e["legal"]:
                assert e["reason"] in s["text"] and f"CR {e['rule']}" in s["text"]
                # its reason is in its accessible name
                name = re.compile(re.escape(e["reason"][:40]))
                assert menu.get_by_role("menuitem", name=name).count() >= 1
        for i, e in enumerate(entries):
            if e["legal"]:
                if i:
                    menu = _open(live, cid)
                last = _choose(live, menu, i)
                assert last["kind"] == "done", (e, last)
                chosen += 1
                _undo(live)
                assert _state(live)["board"] == board, "undo did not restore the board"
            else:
                _close(live)
                n = 10_000 + refused + 100 * chosen
                _send(live, {"click": e["action"], "values": e["values"], "seq": n})
                live.visit.page.wait_for_function(
                    "(n) => rulekit.host.models().filter((m) => m.name === 'sandbox')[0]"
                    ".model.get('state').seq === n", arg=n)
                last = _state(live)["last"]
                assert last["kind"] == "refused" and last["rule"] == e["rule"], (e, last)
                refused += 1
            if not live.root.locator(".rk-actions").is_hidden():
                _close(live)
        if live.root.locator(".rk-actions").is_visible():
            _close(live)
    return chosen, refused


@pytest.mark.parametrize("prefix", LESSONS)
def test_every_cards_verdicts_are_what_choosing_them_does(small_site, browser,
                                                          prefix: str) -> None:
    """In every lesson's sandbox (one page per lesson)."""
    visit, live = _live(browser, small_site, prefix)
    try:
        chosen, refused = _every_card(live)
        if not chosen:  # a combat lesson: its cards act in the declare attackers step
            done = live.root.get_attribute("data-done") or "0"
            live.click("combat")
            _wait_done(live, done)
            live.root.locator("details.rk-all-controls").evaluate("(d) => { d.open = false; }")
            assert _state(live)["last"]["kind"] == "done"
            chosen, more = _every_card(live)
            refused += more
        assert chosen >= 1 and chosen + refused >= 2, (chosen, refused)
        assert visit.outside == [] and visit.console_errors == [], visit.console_errors
    finally:
        visit.page.close()


def test_free_play_adds_a_card_sets_the_turn_and_starts_again(small_site, browser) -> None:
    """Free play in the page: a misspelt name finds the card (did you mean), the card goes
    onto Bob's battlefield, the turn and step are set, and "Start again" gives the board the
    sandbox was given; all by the keyboard-usable, labelled controls."""
    visit, live = _live(browser, small_site, "01")
    try:
        page = visit.page
        given = _state(live)["board"]
        free = live.root.locator("details.rk-free-play")
        free.locator("summary").click()
        box = free.get_by_label("Find a card by name")
        box.fill("lanowar elfs")
        found = free.locator(".rk-fp-found")
        page.wait_for_function("(e) => e.textContent.includes('Did you mean')",
                               arg=found.element_handle())
        assert "Llanowar Elves" in found.inner_text()
        box.press("Enter")  # to the results
        assert page.evaluate("() => document.activeElement.id").endswith("-fp-card")
        assert free.get_by_label("Card", exact=True).input_value() == "Llanowar Elves"
        free.get_by_label("Whose", exact=True).select_option("Bob")

        def press(name: str) -> dict[str, Any]:
            done = live.root.get_attribute("data-done") or "0"
            free.get_by_role("button", name=name).click()
            _wait_done(live, done)
            return _state(live)

        state = press("Add the card")
        assert state["last"]["kind"] == "done", state["last"]
        assert "Llanowar Elves into Bob's battlefield" in state["last"]["text"]
        bob = live.root.locator(".rk-board .rk-side[data-player='Bob'] .rk-card")
        assert bob.filter(has_text="Llanowar Elves").count() == 1
        free.get_by_label("Turn", exact=True).fill("7")
        free.get_by_label("Step", exact=True).select_option("upkeep")
        state = press("Set the turn")
        assert state["last"]["kind"] == "done", state["last"]
        assert state["free_play"]["turn"] == 7 and state["free_play"]["step"] == "upkeep"
        assert "Turn 7" in live.root.locator(".rk-board .rk-turnline").inner_text()
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        free.scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / "free-play-1366x768.png"))
        state = press("Start again")
        assert state["last"]["kind"] == "undone" and state["board"] == given
        assert visit.outside == [] and visit.console_errors == [], visit.console_errors
        free.locator("summary").scroll_into_view_if_needed()
        found_axe = axe(page, within=".rk-sb")  # (axe's own requests log console errors)
        assert found_axe == {}, found_axe
    finally:
        visit.page.close()


def test_a_decision_through_the_picker(small_site, browser) -> None:
    """Lesson 03's Mana Flare: tapping a land asks which mana the trigger adds; the picker says
    who chooses and why, and its legal answers; the answer chosen is the one made."""
    visit, live = _live(browser, small_site, "03")
    try:
        state = _state(live)
        found = [(cid, i, e) for cid, es in state["card_actions"].items()
                 for i, e in enumerate(es) if e["legal"] and e["asks"]]
        assert found, "no action that asks a decision in lesson 03"
        cid, i, entry = found[0]
        menu = _open(live, cid)
        shown = _shown(menu)
        assert "You will choose" in shown[i]["text"]
        done = live.root.get_attribute("data-done") or "0"
        menu.locator(".rk-action:not(.rk-close)").nth(i).click()
        picker = live.root.locator(".rk-actions.rk-picker")
        picker.wait_for(state="visible")
        who = picker.locator(".rk-picker-who").inner_text()
        asked = _state(live)["picker"]["decisions"][0]
        assert who == asked["why"] and asked["who"] in who
        legal = [o for o in asked["options"] if o["legal"]]
        choices = picker.locator(".rk-choice")
        assert choices.count() == len(asked["options"])
        assert picker.locator(".rk-choice[aria-disabled='true']").count() == \
            len(asked["options"]) - len(legal)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        visit.page.screenshot(path=str(ARTIFACTS / "picker-1366x768.png"))
        picker.locator(".rk-choice:not([aria-disabled='true'])").first.click()
        _wait_done(live, done)
        assert _state(live)["last"]["kind"] == "done"
        made = [d for d in live.to_json()["log"] if "decision" in str(d).lower()]
        assert made or legal[0]["label"]
    finally:
        visit.page.close()


def test_the_keyboard_works_the_board(small_site, browser) -> None:
    visit, live = _live(browser, small_site, "01")
    try:
        page = visit.page
        ids = _card_ids(live)
        assert len(ids) >= 2
        first = live.root.locator(".rk-board .rk-card[data-id] .rk-card-open").first
        first.focus()
        page.keyboard.press("ArrowRight")
        assert page.evaluate(FOCUSED) == ids[1]
        page.keyboard.press("ArrowLeft")
        assert page.evaluate(FOCUSED) == ids[0]
        page.keyboard.press("Enter")
        menu = live.root.locator(".rk-actions")
        menu.wait_for(state="visible")
        assert page.evaluate("() => document.activeElement.getAttribute('role')") == "menuitem"
        page.keyboard.press("ArrowDown")
        assert page.evaluate("() => document.activeElement.getAttribute('role')") == "menuitem"
        page.keyboard.press("Escape")
        menu.wait_for(state="hidden")
        assert page.evaluate(FOCUSED) == ids[0]
        page.keyboard.press(" ")
        menu.wait_for(state="visible")
        page.keyboard.press("Escape")
        # Enter on an available entry makes the click; focus comes back to the board
        state = _state(live)
        legal = [(cid, i) for cid in ids for i, e in enumerate(state["card_actions"].get(cid, []))
                 if e["legal"] and not e["asks"]]
        cid, i = legal[0]
        card = live.root.locator(f".rk-board .rk-card[data-id='{cid}'] .rk-card-open").first
        card.focus()
        page.keyboard.press("Enter")
        menu.wait_for(state="visible")
        for _ in range(i):
            page.keyboard.press("ArrowDown")
        done = live.root.get_attribute("data-done") or "0"
        page.keyboard.press("Enter")
        _wait_done(live, done)
        assert _state(live)["last"]["kind"] == "done"
        assert page.evaluate("() => !!document.activeElement.closest('.rk-board')"), \
            page.evaluate("() => document.activeElement.outerHTML.slice(0, 200)")
    finally:
        visit.page.close()


@pytest.mark.parametrize("width, height", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_screenshots_and_axe(small_site, browser, width: int, height: int) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for prefix in SHOTS:
        visit, live = _live(browser, small_site, prefix, viewport=(width, height))
        try:
            live.box.scroll_into_view_if_needed()
            menus = _state(live)["card_actions"]
            ids = _card_ids(live)
            cid = next((c for c in ids if any(not e["legal"] for e in menus.get(c, []))),
                       ids[0])
            _open(live, cid)
            found = axe(visit.page, within=".rk-sb")
            assert found == {}, found
            visit.page.screenshot(path=str(ARTIFACTS / f"{prefix}-menu-{width}x{height}.png"))
            live.root.screenshot(path=str(ARTIFACTS / f"{prefix}-{width}x{height}.png"))
            scroll = visit.page.evaluate("() => [document.documentElement.scrollWidth, "
                                         "document.documentElement.clientWidth]")
            assert scroll[0] <= scroll[1], f"sideways scrolling at {width}px: {scroll}"
        finally:
            visit.page.close()


def test_save_as_walkthrough_downloads_it(small_site, browser) -> None:
    visit, live = _live(browser, small_site, "01")
    try:
        state = _state(live)
        cid, i = next((c, i) for c, es in state["card_actions"].items()
                      for i, e in enumerate(es) if e["legal"] and not e["asks"])
        _choose(live, _open(live, cid), i)
        with visit.page.expect_download() as info:
            live.root.get_by_role("button", name="Save as walkthrough").click()
        download = info.value
        text = Path(download.path()).read_text("utf-8")
        assert download.suggested_filename.endswith("-walkthrough.toml")
        assert tomllib.loads(text)["step"], text[:400]  # the click made, as a step
        assert "Downloaded as" in live.root.locator(".rk-saved").inner_text()
    finally:
        visit.page.close()


@pytest.mark.parametrize("width, height", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_walkthrough_frames_draw_their_board(small_site, browser, width: int,
                                             height: int) -> None:
    """A walkthrough's frames carry their board as shared parts (`board_parts`); the stepper
    joins them: each frame shows its `section.rk-board` (what the step changed outlined) with
    the tables one toggle away, no sideways scroll; a screenshot per size."""
    from rulekit.export.browser import open_page

    (path,) = sorted(small_site.glob("07_*.html"))
    visit = open_page(browser, path, small_site, viewport=(width, height))
    try:
        page = visit.page
        stepper = page.locator(".rk-stepper").first
        stepper.scroll_into_view_if_needed()
        nxt = stepper.get_by_role("button", name="Next").first
        nxt.click()
        board = stepper.locator(".rk-board-box .rk-board")
        board.wait_for(state="visible")
        assert board.count() == 1 and stepper.locator(".rk-board .rk-card").count() >= 1
        assert stepper.locator(".rk-board .rk-changed").count() >= 1  # what step 1 changed
        assert stepper.locator("details.rk-tables > summary").inner_text() == \
            "The board as a table"
        nxt.click()  # the next frame's board replaces it
        assert stepper.locator(".rk-board-box .rk-board").count() == 1
        found = axe(page, within=".rk-stepper")
        assert found == {}, found
        scroll = page.evaluate("() => [document.documentElement.scrollWidth, "
                               "document.documentElement.clientWidth]")
        assert scroll[0] <= scroll[1], f"sideways scrolling at {width}px: {scroll}"
        board.first.scroll_into_view_if_needed()
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"frame-board-{width}x{height}.png"))
    finally:
        visit.page.close()
