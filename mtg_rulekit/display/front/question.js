/* rulekit: a walkthrough's questions (predict the next step), joined into the walkthrough's
   module before stepper.js (`PARTS` in mtg_rulekit/display/front/__init__.py).

   A question is answered once, or, after a wrong answer, tried again once (`tries`): the
   answer, its one-line why and the deciding rules show when it is final (right, or wrong
   twice); the other rules the step's events cite are folded under them. The questions, their
   answers and rules are the engine's (mtg_rulekit.display.quiz.questions). */

const squash = (x) => String(x).trim().toLowerCase().replace(/[\s{}]+/g, "");

function rightAnswer(q, value, choice) {
  if ((q.labels || []).length) return choice === q.correct;
  const said = squash(value);
  if (!said) return false;
  const want = [q.answer_label, typeof q.answer === "string" ? q.answer : JSON.stringify(q.answer)];
  if (want.some((w) => squash(w) === said)) return true;
  const n = Number(value.trim());
  return typeof q.answer === "number" && Number.isFinite(n) && n === q.answer;
}

// final: right, or wrong twice
const finalAnswer = (a) => !!a && (a.right || (a.tries || 1) >= 2);

function feedbackWords(q, a) {
  if (!finalAnswer(a)) return `Not this time: you said ${a.value}. Try again, once.`;
  const rules = rulesSaid(q);
  return (a.right ? `Right: ${q.answer_label}.` :
    `Not this time: you said ${a.value}; the engine says ${q.answer_label}.`) +
    (q.why ? ` ${q.why}` : "") + (rules ? ` The rule: ${rules}` : "");
}

function feedbackOf(q, a, final) { // final: show the answer whatever (the step is shown)
  const done = final || finalAnswer(a);
  const box = el("div", {class: `rk-q-feedback ${a.right ? "rk-q-right" : "rk-q-wrong"}`},
    el("p", {class: a.right ? "rk-ok" : "rk-bad", text: a.right ?
      `✓ Right: ${q.answer_label}.` : `✗ Not this time: you said ${a.value}.`}));
  if (!done) {
    box.append(el("p", {class: "rk-q-again", text: "Think about which rule decides it, " +
      "then try once more."}));
    return box;
  }
  if (!a.right) box.append(el("p", {}, "The engine says: ", el("b", {text: q.answer_label})));
  if (q.why) box.append(el("p", {class: "rk-q-why", text: q.why}));
  box.append(...rulesOf(q, "rk-q"));
  return box;
}

function questionOf(q, a, idBase, onCheck) {
  const name = `${idBase}-q-${q.step}`;
  const done = finalAnswer(a);
  const again = !!a && !done; // wrong once: "Try again" opens one more go
  const legend = el("legend", {}, el("b", {text: `Predict step ${q.step}: `}), q.ask);
  const set = el("fieldset", {}, legend);
  const labels = q.labels || [];
  const inputs = [];
  if (labels.length) {
    labels.forEach((label, i) => {
      const input = el("input", {type: "radio", name, value: i,
        checked: !!a && a.choice === i && !again, disabled: !!a});
      inputs.push(input);
      set.append(el("label", {class: a && a.choice === i && !a.right ?
        "rk-q-choice rk-q-tried" : "rk-q-choice"}, input, ` ${label}`));
    });
  } else {
    const input = el("input", {type: "text", name, class: "rk-q-text", autocomplete: "off",
      disabled: !!a, value: done ? a.value : null});
    inputs.push(input);
    set.append(el("label", {class: "rk-q-choice"}, "Your answer ", input));
  }
  const hint = el("p", {class: "rk-q-hint"});
  const check = el("button", {type: "submit", class: "rk-button rk-check", text: "Check",
    disabled: !!a});
  set.append(check, hint);
  const form = el("form", {class: "rk-question", "data-step": q.step}, set);
  if (a) form.append(feedbackOf(q, a));
  if (again) {
    const retry = el("button", {type: "button", class: "rk-button rk-retry", text: "Try again"});
    form.append(retry);
    retry.addEventListener("click", () => { // the other choices (or the box) open once more
      inputs.forEach((input, i) => { input.disabled = labels.length && i === a.choice; });
      check.disabled = false;
      retry.remove();
      const feedback = form.querySelector(".rk-q-feedback");
      if (feedback) feedback.remove();
      const first = inputs.find((input) => !input.disabled);
      if (first) first.focus();
    });
  }
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    let value = "", choice = null;
    if (labels.length) {
      const picked = form.querySelector("input[type=radio]:checked");
      if (picked) { choice = Number(picked.value); value = labels[choice]; }
    } else {
      value = form.querySelector("input[type=text]").value.trim();
    }
    if (!value) {
      hint.textContent = labels.length ? "Choose an answer first." : "Type an answer first.";
      return;
    }
    onCheck(q, {value, choice, right: rightAnswer(q, value, choice), tries: again ? 2 : 1});
  });
  return form;
}

