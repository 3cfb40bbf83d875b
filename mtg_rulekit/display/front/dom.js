/* rulekit: the DOM helpers the walkthrough (stepper) and the quiz modules share, joined
   before each of them into one module (`PARTS` in mtg_rulekit/display/front/__init__.py).
   Every field is set as text (no innerHTML: the quiz has none). */

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else e.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}

// a question's rules (mtg_rulekit.display.quiz.questions): "CR 601.2 (Casting spells)"
function ruleName(r) {
  return `CR ${r.number}${r.title ? ` (${r.title})` : ""}`;
}

function ruleLine(r, cls) {
  return el("p", {class: cls}, el("b", {text: ruleName(r)}), r.summary ? `: ${r.summary}` : "");
}

// the rules that decide a question, one a line, then the step's other rules folded under
// them (`prefix`: the view's class prefix, "rk-q" or "rk-quiz")
function rulesOf(q, prefix) {
  const lines = (q.rule_texts || []).map((r) => ruleLine(r, `${prefix}-rule`));
  const others = q.other_rule_texts || [];
  if (others.length) {
    lines.push(el("details", {class: `${prefix}-others`},
      el("summary", {text: `Other rules in this step (${others.length})`}),
      ...others.map((r) => ruleLine(r, `${prefix}-rule`))));
  }
  return lines;
}

// the deciding rules as one line of words (the live region's)
const rulesSaid = (q) => (q.rule_texts || []).map((r) => ruleName(r) +
  (r.summary ? `: ${r.summary}` : "")).join(" ");
