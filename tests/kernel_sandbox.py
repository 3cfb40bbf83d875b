"""Issue 27's every-card check in a kernel host (JupyterLab, Notebook 7): the lesson's
sandbox is the one sandbox module (rulekit/display/front/sandbox.js) answered by the lesson's
kernel; the engine's side is the same notebook cell run here with the pure `SandboxModel`. Used
by tests/test_jupyterlab.py and tests/test_notebook7.py on a page where the lesson has run."""

from __future__ import annotations

from pathlib import Path

__all__ = ["kernel_sandbox"]


def _kernel_truth(stem: str):
    """The engine's side of lesson `stem`'s sandbox: its notebook cell run here with the pure
    model (`SandboxModel`, no kernel, no widget), as the kernel's `Sandbox` built it."""
    from rulekit.sandbox import SandboxModel
    from tests.board_games import lesson_sandboxes

    for name, game, offers in lesson_sandboxes():
        if name == stem:
            return SandboxModel(game, **offers)
    return None


def _await_done(page, sandbox, done: str) -> None:
    page.wait_for_function(
        "([r, n]) => (r.dataset.done || '0') !== n && !r.hasAttribute('aria-busy')",
        arg=[sandbox.element_handle(), done], timeout=30_000)


def _kernel_click(page, sandbox, control: str) -> None:
    """A button of the sandbox's "All controls" form, answered by the kernel."""
    sandbox.evaluate("(r) => { r.querySelector('details.rk-all-controls').open = true; }")
    done = sandbox.get_attribute("data-done") or "0"
    sandbox.locator(f"button[data-control='{control}']").click()
    _await_done(page, sandbox, done)
    sandbox.evaluate("(r) => { r.querySelector('details.rk-all-controls').open = false; }")


def _kernel_every_card(page, sandbox, truth) -> tuple[int, int, list[str]]:
    """Every card a reader can reach in the kernel's sandbox: its menu must show the engine's
    verdicts (`truth.card_actions()`, each unavailable entry with its reason and rule) before
    any click; each available entry is chosen (through its picker: the first legal answer),
    must be done in the kernel, then is undone (the board as it was); each unavailable one,
    made on the engine's side, is refused by the rule shown. (chosen, refused, what's wrong)."""
    expected = {str(k): v for k, v in truth.card_actions().items()}
    board = sandbox.locator(".rk-board")
    before = board.get_attribute("data-html")
    ids = sandbox.locator(".rk-board .rk-card[data-id]").evaluate_all(
        "(cs) => cs.filter((c) => !c.closest('details:not([open])')).map((c) => c.dataset.id)")
    chosen = refused = 0
    wrong: list[str] = []
    menu = sandbox.locator(".rk-actions")

    def open_menu(cid: str) -> None:
        sandbox.locator(f".rk-board .rk-card[data-id='{cid}']").first.click()
        menu.wait_for(state="visible")

    for cid in ids:
        entries = expected.get(cid, [])
        open_menu(cid)
        shown = menu.locator(".rk-action:not(.rk-close)").evaluate_all(
            "(bs) => bs.map((b) => ({label: b.querySelector('.rk-action-label').textContent,"
            " disabled: b.getAttribute('aria-disabled') === 'true', text: b.textContent}))")
        if [x["label"] for x in shown] != [e["label"] for e in entries]:
            wrong.append(f"card {cid}: shows {[x['label'] for x in shown]}, the engine "
                         f"offers {[e['label'] for e in entries]}")
            page.keyboard.press("Escape")
            continue
        for x, e in zip(shown, entries, strict=True):
            if x["disabled"] == e["legal"] or (not e["legal"] and (
                    e["reason"] not in x["text"] or f"CR {e['rule']}" not in x["text"])):
                wrong.append(f"card {cid} {e['label']!r}: shown {x['text']!r:.160}")
        page.keyboard.press("Escape")
        menu.wait_for(state="hidden")
        for i, e in enumerate(entries):
            if not e["legal"]:  # the click the menu won't send, made on the engine's side
                out = truth.click(e["action"], e["values"])
                if out.kind != "refused" or out.rule != e["rule"]:
                    wrong.append(f"card {cid} {e['label']!r}: {out.kind} {out.rule}")
                refused += 1
                continue
            open_menu(cid)
            done = sandbox.get_attribute("data-done") or "0"
            menu.locator(".rk-action:not(.rk-close)").nth(i).click()
            for _ in range(6):  # its picker, as many decisions as it asks
                page.wait_for_function(
                    "([r, n]) => (r.dataset.done || '0') !== n || "
                    "r.querySelector('.rk-actions.rk-picker:not([hidden])')",
                    arg=[sandbox.element_handle(), done], timeout=30_000)
                picker = sandbox.locator(".rk-actions.rk-picker:not([hidden])")
                if (sandbox.get_attribute("data-done") or "0") != done or not picker.count():
                    break
                first = picker.locator(".rk-choice:not([aria-disabled='true'])").first
                handle = first.element_handle()
                first.click()
                page.wait_for_function(
                    "([r, n, old]) => (r.dataset.done || '0') !== n || !old.isConnected",
                    arg=[sandbox.element_handle(), done, handle], timeout=30_000)
            _await_done(page, sandbox, done)
            said = sandbox.locator(".rk-message").inner_text().strip()
            if not said.startswith("Done:"):
                wrong.append(f"card {cid} {e['label']!r}: the kernel says {said!r:.160}")
            chosen += 1
            _kernel_click(page, sandbox, "undo")
            if board.get_attribute("data-html") != before:
                wrong.append(f"card {cid} {e['label']!r}: undo did not restore the board")
            if menu.is_visible():
                page.keyboard.press("Escape")
    return chosen, refused, wrong


def kernel_sandbox(page, stem: str, artifacts: Path) -> list[str]:
    """Issue 27 in the kernel host: every card of lesson `stem`'s sandbox (as in an exported
    page, tests/test_sandbox_board_browser.py), in the combat step too when its cards act
    only there; a screenshot in `artifacts`. What went wrong, if anything."""
    truth = _kernel_truth(stem)
    sandbox = page.locator(".jp-NotebookPanel .rk-sandbox").first
    if truth is None:
        return [] if sandbox.count() == 0 else [f"{stem}: a sandbox the test can't read"]
    sandbox.evaluate("(e) => e.scrollIntoView({block: 'start'})")
    sandbox.locator(".rk-board .rk-card").first.wait_for(state="visible", timeout=60_000)
    chosen, refused, wrong = _kernel_every_card(page, sandbox, truth)
    if not chosen and not wrong:  # a combat lesson: its cards act when attackers are declared
        _kernel_click(page, sandbox, "combat")
        if truth.click("combat", {}).kind != "done":
            wrong.append(f"{stem}: the engine's combat click was not done")
        more, also, wrong = _kernel_every_card(page, sandbox, truth)
        chosen, refused = chosen + more, refused + also
    sandbox.evaluate("(e) => e.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(200)
    page.screenshot(path=str(artifacts / f"{stem}-sandbox-every-card.png"))
    if chosen < 1 or chosen + refused < 2:
        wrong.append(f"{stem}: only {chosen} chosen and {refused} refused")
    print(f"{stem}: kernel sandbox, {chosen} actions chosen, {refused} refused")
    return [f"{stem} sandbox {w}" for w in wrong]
