/* rulekit: the class quiz as an anywidget front-end module (AFM).

   A lesson's checked questions, one a screen, large enough for a projector. The same module in
   every host: a kernel (`Quiz` in mtg_rulekit/display/quiz/widget.py) and an exported page
   (mtg_rulekit/display/front/host.js; the site's quiz.html). Traits: `title`, `questions`
   (mtg_rulekit.display.quiz.questions.quiz_questions: the walkthroughs' own questions, with the
   engine's answer recorded at build time), `index` (the question shown: set here and saved) and
   `linked` (the walkthroughs a kernel can turn to a step: uids).

   Nothing of the answer is in the document before "Reveal": the answer, its one-line why, the
   deciding rules (the step's other rules folded under them) and the link back to the step are
   made on reveal. Keys, with the focus anywhere in the quiz:
   Right / PageDown next, Left / PageUp back, Home / End first / last, Enter reveal (or hide).
   A live region says each new question and the revealed answer. No document-wide listener,
   nothing read from another widget's markup, every field set as text; no eval. */

let renders = 0; // quizzes made by this module in this page: unique ids

const LETTERS = "ABCDEF";

function answerOf(q, linked, onShow) {
  // the revealed part of question k: the engine's answer and why, the deciding rules (the
  // step's other rules folded), the way back to the step
  const box = el("div", {class: "rk-quiz-answer"},
    el("p", {class: "rk-quiz-verdict"}, "The engine says: ",
      el("b", {class: "rk-quiz-right", text: q.answer_label})));
  if (q.why) box.append(el("p", {class: "rk-quiz-why", text: q.why}));
  box.append(...rulesOf(q, "rk-quiz"));
  if (q.href) {
    const a = el("a", {class: "rk-quiz-step", href: q.href,
      text: `See it happen: ${q.walkthrough}, ${q.label.toLowerCase()}`});
    if (linked.includes(q.uid)) { // a kernel: the walkthrough above turns to the step
      a.addEventListener("click", (ev) => { ev.preventDefault(); onShow(q); });
    }
    box.append(el("p", {}, a));
  }
  return box;
}

function render({model, el: host}) {
  const questions = model.get("questions") || [];
  const title = model.get("title") || ""; // "": the host's page heads the quiz
  const linked = model.get("linked") || [];
  const last = questions.length - 1;
  renders += 1;
  const idBase = `rk-quiz-${renders}`;
  let index = Math.max(0, Math.min(last, model.get("index") || 0));
  let revealed = false;

  const root = el("section", {class: "rk-quiz", tabindex: -1,
    "aria-label": title ? `Quiz: ${title}` : "Quiz",
    "data-lm-suppress-shortcuts": "true"});
  const button = (cls, text, tip) => el("button", {type: "button", class: `rk-quiz-button ${cls}`,
    title: tip, text});
  const back = button("rk-quiz-back", "◀ Back", "The question before (Left arrow)");
  const reveal = button("rk-quiz-reveal", "Reveal", "Show the engine's answer (Enter)");
  const next = button("rk-quiz-next", "Next ▶", "The next question (Right arrow)");
  const full = button("rk-quiz-full", "Full screen", "Fill the screen (Escape leaves)");
  const count = el("p", {class: "rk-quiz-count", "aria-hidden": "true"});
  const screen = el("div", {class: "rk-quiz-screen", id: `${idBase}-screen`});
  reveal.setAttribute("aria-controls", `${idBase}-screen`);
  reveal.setAttribute("aria-expanded", "false");
  const live = el("div", {class: "rk-quiz-live rk-sr-only", role: "status", "aria-live": "polite",
    "aria-atomic": "true"});
  const controls = el("div", {class: "rk-quiz-controls", role: "group",
    "aria-label": "Quiz controls"}, back, count, next, reveal, full);
  root.append(el("div", {class: "rk-quiz-head"}, title ? el("h3", {text: title}) : null,
    controls),
    screen, el("p", {class: "rk-quiz-keys", text:
      "Keys: Right / Left next and back · Enter reveal"}), live);

  function draw(say) {
    screen.replaceChildren();
    if (!questions.length) {
      screen.append(el("p", {class: "rk-quiz-empty", text: "This lesson has no questions."}));
      for (const b of [back, next, reveal]) b.disabled = true;
      return;
    }
    const q = questions[index];
    count.textContent = `Question ${index + 1} of ${questions.length}`;
    const ask = el(title ? "h4" : "h3", {class: "rk-quiz-ask", tabindex: -1, id: `${idBase}-ask`},
      el("span", {class: "rk-sr-only", text: `Question ${index + 1} of ${questions.length}: `}),
      q.ask);
    screen.append(
      el("p", {class: "rk-quiz-where"}, el("b", {text: q.walkthrough}),
        ` · before ${q.label.toLowerCase()}`),
      q.situation ? el("p", {class: "rk-quiz-situation", text: q.situation}) : null, ask);
    const labels = q.labels || [];
    if (labels.length) {
      screen.append(el("ol", {class: "rk-quiz-choices", type: "A"},
        ...labels.map((label, i) => {
          const right = revealed && i === q.correct;
          return el("li", {class: right ? "rk-quiz-choice rk-quiz-correct" : "rk-quiz-choice"},
            el("span", {class: "rk-quiz-letter", "aria-hidden": "true", text: LETTERS[i]}),
            el("span", {text: label}),
            right ? el("span", {class: "rk-quiz-mark", text: " ✓ the engine's answer"}) : null);
        })));
    } else {
      screen.append(el("p", {class: "rk-quiz-open",
        text: "Say your answer (a number or a few words), then reveal."}));
    }
    if (revealed) screen.append(answerOf(q, linked, show));
    back.disabled = index === 0;
    next.disabled = index === last;
    reveal.textContent = revealed ? "Hide the answer" : "Reveal";
    reveal.setAttribute("aria-expanded", revealed ? "true" : "false");
    if (say) live.textContent = say;
  }
  function spoken(q) {
    const choices = (q.labels || []).map((l, i) => `${LETTERS[i]}: ${l}.`).join(" ");
    return `Question ${index + 1} of ${questions.length}. ${q.ask} ${choices}`;
  }
  function go(k) {
    const to = Math.max(0, Math.min(last, k));
    if (to === index || !questions.length) return;
    const from = document.activeElement;
    index = to;
    revealed = false;
    draw(spoken(questions[index]));
    model.set("index", index);
    model.save_changes();
    if (from && from.disabled) root.focus(); // the focused button went out of use
  }
  function toggle() {
    if (!questions.length) return;
    revealed = !revealed;
    const q = questions[index];
    draw(revealed ? `The engine says: ${q.answer_label}. ${q.why || ""} ${rulesSaid(q)}` :
      "Answer hidden.");
  }
  function show(q) {
    model.send({show: q.uid, step: q.step});
    live.textContent = `The walkthrough ${q.walkthrough} now shows ${q.label.toLowerCase()}.`;
  }

  const cleanups = [];
  const on = (target, type, fn) => {
    target.addEventListener(type, fn);
    cleanups.push(() => target.removeEventListener(type, fn));
  };
  on(back, "click", () => go(index - 1));
  on(next, "click", () => go(index + 1));
  on(reveal, "click", toggle);
  on(full, "click", () => {
    if (document.fullscreenElement === root) document.exitFullscreen().catch(() => {});
    else if (root.requestFullscreen) root.requestFullscreen().then(() => root.focus(), () => {});
  });
  on(root, "fullscreenchange", () => {
    full.textContent = document.fullscreenElement === root ? "Leave full screen" : "Full screen";
  });
  on(root, "keydown", (ev) => {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const t = ev.target;
    if (t && t.closest && t.closest("input, select, textarea")) return;
    const onControl = t && t.closest && t.closest("button, a");
    let handled = true;
    if (ev.key === "ArrowRight" || ev.key === "PageDown") go(index + 1);
    else if (ev.key === "ArrowLeft" || ev.key === "PageUp") go(index - 1);
    else if (ev.key === "Home") go(0);
    else if (ev.key === "End") go(last);
    else if (ev.key === "Enter" && !onControl) toggle(); // a button or link: its own Enter
    else handled = false;
    if (handled) { ev.preventDefault(); ev.stopPropagation(); }
  });
  const fromModel = () => {
    const k = Math.max(0, Math.min(last, model.get("index") || 0));
    if (k !== index) { index = k; revealed = false; draw(spoken(questions[index])); }
  };
  model.on("change:index", fromModel);
  cleanups.push(() => model.off("change:index", fromModel));
  host.append(root);
  draw("");
  return () => {
    if (document.fullscreenElement === root) document.exitFullscreen().catch(() => {});
    for (const undo of cleanups.splice(0)) undo();
    root.remove();
  };
}

export default {render};
