// ESLint for rulekit's JavaScript (`make lint`, over rulekit/**/*.js): ESLint's recommended
// rules plus strict equality. The anywidget modules are ES modules; the page's sandbox back-end
// is a classic script (a page opened from file:// can't import modules), and so is the
// worker the engine runs in (a page opened from file:// can't start a module worker). `make` copies this file
// next to its pinned node_modules (.cache/eslint), so the imports below resolve there.
import js from "@eslint/js";
import globals from "globals";

const rules = {
  eqeqeq: ["error", "smart"],
  "no-unused-vars": ["error", { args: "after-used", caughtErrors: "none" }],
};

export default [
  js.configs.recommended,
  {
    files: ["rulekit/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.browser } },
    rules: { ...rules, "no-var": "error", "prefer-const": "error" },
  },
  {
    files: ["rulekit/display/front/sandbox_backend.js"],
    languageOptions: { sourceType: "script" },
    rules: { "no-var": "off" },
  },
  {
    files: ["rulekit/display/front/sandbox_worker.js"],
    languageOptions: { sourceType: "script", globals: { ...globals.worker } },
  },
];
