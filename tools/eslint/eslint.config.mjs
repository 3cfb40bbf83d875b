// ESLint for rulekit's JavaScript (`make lint`, over mtg_rulekit/**/*.js): ESLint's recommended
// rules plus strict equality. The anywidget modules are ES modules; the page's sandbox back-end
// is a classic script (a page opened from file:// can't import modules), and so is the
// worker the engine runs in (a page opened from file:// can't start a module worker). `make` copies this file
// next to its pinned node_modules (.cache/eslint), so the imports below resolve there.
import { existsSync, readFileSync } from "node:fs";
import js from "@eslint/js";
import globals from "globals";

const rules = {
  eqeqeq: ["error", "smart"],
  "no-unused-vars": ["error", { args: "after-used", caughtErrors: "none" }],
};

// A module written as several files joined into one scope (`PARTS` in
// mtg_rulekit/display/front/__init__.py): each file sees the others' top-level names, and a name
// it defines that another file uses is not unused.
const FRONT = "mtg_rulekit/display/front/";
const JOINED = [["dom.js", "diagram.js", "question.js", "stepper.js"], ["dom.js", "quiz.js"]]
  .map((files) => files.map((f) => FRONT + f));
const DECLARED = /^(?:async\s+)?(?:function\*?\s+|(?:const|let|class)\s+)([A-Za-z_$][\w$]*)/gm;

const text = (file) => (existsSync(file) ? readFileSync(file, "utf8") : "");
const topLevel = (file) => [...text(file).matchAll(DECLARED)].map((m) => m[1]);
const uses = (file, name) => new RegExp(`(^|\\.\\.\\.|[^\\w$.])${name.replace(/\$/g, "\\$")}\\b`).test(text(file));

// a file joined into several modules (dom.js) sees, and serves, the files of each of them
const joined = [...new Set(JOINED.flat())].map((file) => {
  const rest = [...new Set(JOINED.filter((files) => files.includes(file)).flat())]
    .filter((f) => f !== file);
  const others = rest.flatMap(topLevel);
  const shared = topLevel(file).filter((name) => rest.some((f) => uses(f, name)));
  return {
    files: [file],
    languageOptions: { globals: Object.fromEntries(others.map((name) => [name, "readonly"])) },
    rules: { "no-unused-vars": ["error", { ...rules["no-unused-vars"][1],
      varsIgnorePattern: shared.length ? `^(${shared.join("|")})$` : "^$" }] },
  };
});

export default [
  js.configs.recommended,
  {
    files: ["mtg_rulekit/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.browser } },
    rules: { ...rules, "no-var": "error", "prefer-const": "error" },
  },
  ...joined,
  {
    files: ["mtg_rulekit/display/front/sandbox_backend.js"],
    languageOptions: { sourceType: "script" },
    rules: { "no-var": "off" },
  },
  {
    files: ["mtg_rulekit/display/front/sandbox_worker.js"],
    languageOptions: { sourceType: "script", globals: { ...globals.worker } },
  },
];
