/* rulekit lesson pages: the classroom view of every walkthrough (.rk-stepper), with no kernel.
   - names the controls that the widget manager leaves unnamed (Play, the slider handle);
   - a live region reads each step's narration and what happened (screen readers);
   - the diagram pane scrolls to what the current step added (.rk-new);
   - presenter mode: a "Present" button puts the walkthrough full screen, and the keyboard
     steps it like a slide deck (Right / Space / Page Down: next; Left / Page Up: back;
     Home: set-up; End: last step; Escape: leave).
   The page contract it relies on is documented in docs/classroom.md. */
(function () {
  "use strict";
  // once per page: a lesson page runs this from its <head>, and every walkthrough's heading
  // carries it too (for JupyterLab, which runs no page script of ours)
  if (window.rkClassroom) { return; }
  window.rkClassroom = true;
  var shown = function (e) { return e.getClientRects().length > 0; };

  function frameOf(root) {
    var frames = root.querySelectorAll(".rk-frame");
    for (var i = 0; i < frames.length; i++) { if (shown(frames[i])) { return frames[i]; } }
    return null;
  }
  function stepButtons(root) {
    return root.querySelectorAll(".rk-controls .widget-toggle-buttons button");
  }
  function current(root) {
    var f = frameOf(root);
    return f ? parseInt(f.getAttribute("data-step"), 10) || 0 : 0;
  }
  function go(root, k) {
    var b = stepButtons(root);
    if (!b.length) { return; }
    b[Math.max(0, Math.min(b.length - 1, k))].click();
  }

  function showNew(root) {
    var f = frameOf(root);
    if (!f) { return; }
    var pane = f.querySelector(".rk-diagram");
    var fresh = f.querySelectorAll(".rk-new");
    if (!pane || !fresh.length) { return; }
    var box = null;
    for (var i = 0; i < fresh.length; i++) {
      var r = fresh[i].getBoundingClientRect();
      if (!r.width && !r.height) { continue; }
      box = box ? {left: Math.min(box.left, r.left), top: Math.min(box.top, r.top),
        right: Math.max(box.right, r.right), bottom: Math.max(box.bottom, r.bottom)} :
        {left: r.left, top: r.top, right: r.right, bottom: r.bottom};
    }
    if (!box) { return; }
    var p = pane.getBoundingClientRect();
    var pad = 12;
    var dy = (box.bottom - box.top <= p.height - 2 * pad) ?
      (box.top + box.bottom - p.top - p.bottom) / 2 : box.top - p.top - pad;
    // sideways, as little as shows it all (the drawing reads from its left edge)
    var dx = 0;
    if (box.right - box.left > p.width - 2 * pad || box.left < p.left) {
      dx = box.left - p.left - pad;
    } else if (box.right > p.right - pad) {
      dx = box.right - p.right + pad;
    }
    pane.scrollBy(dx, dy);
  }

  function announce(root) {
    var f = frameOf(root), live = root.querySelector(".rk-announce");
    if (!f || !live) { return; }
    var parts = [];
    f.querySelectorAll(".rk-stepno, .rk-narration, .rk-does, .rk-refused").forEach(
      function (e) { parts.push(e.textContent.trim()); });
    live.textContent = parts.join(" ");
  }

  function name(root) {
    root.querySelectorAll(".widget-play button").forEach(function (b, i) {
      var words = ["Play or pause the steps, one after another", "Stop", "Repeat"][i] || "";
      if (words && !b.getAttribute("aria-label")) {
        b.setAttribute("aria-label", words);
        b.title = words;
      }
    });
    root.querySelectorAll(".noUi-handle").forEach(function (h) {
      if (!h.getAttribute("aria-label")) { h.setAttribute("aria-label", "Step"); }
    });
  }

  function present(root, on) {
    root.classList.toggle("rk-presenting", on);
    var button = root.querySelector(".rk-present");
    if (button) { button.setAttribute("aria-pressed", on ? "true" : "false"); }
    if (on) {
      if (root.requestFullscreen && !document.fullscreenElement) {
        root.requestFullscreen().catch(function () { /* the fixed layout does it */ });
      }
      root.focus();
    } else if (document.fullscreenElement === root) {
      document.exitFullscreen().catch(function () {});
    }
    requestAnimationFrame(function () { showNew(root); });
  }

  function addPresent(root) {
    var bar = root.querySelector(".rk-controls");
    if (!bar || root.querySelector(".rk-present")) { return; }
    var b = document.createElement("button");
    b.type = "button";
    b.className = "rk-present jupyter-button";
    b.textContent = "Present";
    b.title = "Full screen; then Right or Space: next step, Left: back, Home: set-up, " +
      "End: last step, Escape: leave";
    b.setAttribute("aria-pressed", "false");
    b.addEventListener("click", function () {
      present(root, !root.classList.contains("rk-presenting"));
    });
    bar.appendChild(b);
  }

  var pending = new Set();
  function refresh(root) {
    if (pending.has(root)) { return; }
    pending.add(root);
    requestAnimationFrame(function () {
      pending.delete(root);
      name(root);
      addPresent(root);
      // the kernel's own live region (for front-ends that run no script) would say it twice
      root.querySelectorAll(".rk-live-kernel:not([aria-hidden])").forEach(function (e) {
        e.setAttribute("aria-hidden", "true");
      });
      var f = frameOf(root);
      var step = f ? f.getAttribute("data-step") : null;
      if (step !== root.getAttribute("data-rk-shown")) {
        root.setAttribute("data-rk-shown", step);
        showNew(root);
        if (root.hasAttribute("data-rk-announce")) { announce(root); }
        root.setAttribute("data-rk-announce", "");  // not on page load: only on a change
      }
    });
  }

  function setUp(root) {
    if (root.hasAttribute("data-rk-ready")) { return; }
    root.setAttribute("data-rk-ready", "");
    root.setAttribute("tabindex", "-1");
    var live = document.createElement("div");
    live.className = "rk-announce rk-sr-only";
    live.setAttribute("role", "status");
    live.setAttribute("aria-live", "polite");
    root.appendChild(live);
    new MutationObserver(function () { refresh(root); }).observe(root,
      {childList: true, subtree: true});
    // a new size (window, JupyterLab's side bar, presentation mode): the diagram pane shows
    // the current step's part again
    if (window.ResizeObserver) {
      var waiting = false;
      new ResizeObserver(function () {
        if (waiting) { return; }
        waiting = true;
        requestAnimationFrame(function () { waiting = false; showNew(root); });
      }).observe(root);
    }
    refresh(root);
  }

  function scan() { document.querySelectorAll(".rk-stepper").forEach(setUp); }
  new MutationObserver(scan).observe(document.documentElement, {childList: true, subtree: true});
  document.addEventListener("DOMContentLoaded", scan);

  document.addEventListener("fullscreenchange", function () {
    document.querySelectorAll(".rk-presenting").forEach(function (root) {
      if (document.fullscreenElement !== root) { present(root, false); }
    });
  });
  document.addEventListener("keydown", function (ev) {
    var root = document.querySelector(".rk-presenting");
    if (!root || ev.altKey || ev.ctrlKey || ev.metaKey) { return; }
    var t = ev.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) {
      return;
    }
    var k = current(root), last = stepButtons(root).length - 1, to = null;
    if (ev.key === "ArrowRight" || ev.key === " " || ev.key === "PageDown") { to = k + 1; }
    else if (ev.key === "ArrowLeft" || ev.key === "PageUp") { to = k - 1; }
    else if (ev.key === "Home") { to = 0; }
    else if (ev.key === "End") { to = last; }
    else if (ev.key === "Escape") { present(root, false); ev.preventDefault(); return; }
    if (to === null) { return; }
    ev.preventDefault();
    ev.stopPropagation();
    go(root, to);
  }, true);
}());
