# rulekit: every target bootstraps what it needs, and a second run does no install work.
#   make lessons    build the lesson site (python -m mtg_rulekit.export --out site)
#                   (make lessons REPO_URL=https://github.com/ORG/REPO: each page offers Binder)
#   make lite       optional: a JupyterLite site of the lessons in site/lite (edit and run them
#                   in a browser, no install; served over HTTP), and the pages link to it
#   make new-lesson TITLE="..." SCENARIO=FILE GOAL="..."   start the next lesson from the template
#                   (RULINGS=R05,R06 instead of, or as well as, SCENARIO: docs/teaching.md)
#   make lab        JupyterLab on the notebooks (saves widget state; outputs never committed)
#   make check      the fast tier, after every edit: ruff + mypy + the tests that start no browser,
#                   kernel or server and aren't slow (under a minute of pytest on 2 cores)
#   make test       everything: ruff + mypy + the whole suite on every core (pytest-xdist)
#                   (extra args for either: make test PYTEST_ARGS='-k ruling -x')
#   make diagrams   regenerate diagrams/ (committed)
#   make bench      run benchmarks/run.py
#   make fuzz       10,000 seeded random action sequences against the error contract, a summary
#                   table (extra args: make fuzz FUZZ_ARGS='--sequences 500 --seed 3')
#   make lint       ruff check + mypy (strict on the engine's tiers; see [tool.mypy] in pyproject)
#                   + vulture (dead code, at a confidence with no false positives on this tree)
#                   + ESLint over mtg_rulekit/**/*.js (pinned: tools/eslint)
#   make lock       re-pin constraints.txt after changing dependencies in pyproject.toml
#   make clean      remove what the build made in this checkout (distclean: the .venv too);
#                   every path it deletes is written below, none comes from a variable

PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP_DEPS := $(VENV)/.stamp-deps
# where `make lessons` builds; `make lessons SITE=DIR` builds elsewhere (the environment is not
# read: a SITE variable set for something else must not redirect the build)
SITE := site
# the lessons' repository, for the pages' "Open on Binder" link (`make lessons REPO_URL=...`;
# as for SITE, the environment is not read)
REPO_URL :=
PYTEST_ARGS ?=
# the fast tier (tests/conftest.py checks that every test that starts a browser, a kernel or a
# server carries its marker, so this expression can't pull one in by mistake)
FAST := not browser and not notebook and not lab and not slow
# pytest-xdist workers: one per core
WORKERS ?= auto
# Python writes its bytecode caches (__pycache__, git-ignored) even where the environment says
# not to: pytest then rewrites each test module's asserts once, not in every worker, and each
# kernel and command the suite starts compiles the package once (make check: 5 s to 2 s of
# collection a worker)
unexport PYTHONDONTWRITEBYTECODE
LAB_ARGS ?=
FUZZ_ARGS ?=
LINT_PATHS = $(wildcard mtg_rulekit tests benchmarks)
SYSDEPS := bash tools/ensure-system-deps
# configurable-http-proxy for the JupyterHub class test (tests/test_jupyterhub.py): npm installs
# it, pinned with every dependency (tools/configurable-http-proxy/package-lock.json), in this
# checkout's .cache/node (git-ignored), never on the PATH
PROXY_DIR := .cache/node
STAMP_PROXY := $(PROXY_DIR)/.stamp-proxy
# ESLint for the JavaScript (make lint), pinned the same way (tools/eslint) in .cache/eslint
ESLINT_DIR := .cache/eslint
STAMP_ESLINT := $(ESLINT_DIR)/.stamp-eslint

.DEFAULT_GOAL := test
.PHONY: lessons lite lab new-lesson check test diagrams bench fuzz lint lock clean distclean venv deps sysdeps-dot sysdeps-chromium proxy eslint

# --- bootstrap -------------------------------------------------------------------------------

$(BIN)/python:
	@$(PY) -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null || { \
	  echo "rulekit needs Python >= 3.11, but PY=$(PY) is $$($(PY) -c 'import platform; print(platform.python_version())' 2>/dev/null || echo 'not a working Python'): run make PY=python3.11 (or newer)"; exit 1; }
	$(PY) -m venv $(VENV)

# Re-install when the dependencies or the pins change, or once the rulekit package first appears
# (an editable install made before mtg_rulekit/__init__.py existed maps no package); then define the
# nbstripout git filter (.gitattributes) so notebook outputs never reach a commit, and give the
# virtualenv's JupyterLab the lessons' settings (no news pop-up, docs/hosts.md).
$(STAMP_DEPS): pyproject.toml constraints.txt $(wildcard mtg_rulekit/__init__.py) | $(BIN)/python
	$(BIN)/pip install --disable-pip-version-check -c constraints.txt -e '.[test]'
	$(BIN)/python -m mtg_rulekit.lab.gitfilter
	@# the settings a wheel installs for JupyterLab (setup.py); an editable install skips them
	install -D -m 644 mtg_rulekit/lab/settings/overrides.d/mtg-rulekit.json \
	  $(VENV)/share/jupyter/lab/settings/overrides.d/mtg-rulekit.json
	@touch $@

venv: $(BIN)/python
deps: $(STAMP_DEPS)

sysdeps-dot:
	@$(SYSDEPS) dot

sysdeps-chromium:
	@$(SYSDEPS) chromium

# Node.js >= 20 and npm (ensure-system-deps), then `npm ci` from the committed lock file. If that
# fails (no Node.js, no npm registry) the JupyterHub test skips on a developer's machine, and
# under CI the bootstrap fails.
$(STAMP_PROXY): tools/configurable-http-proxy/package.json tools/configurable-http-proxy/package-lock.json
	@if $(SYSDEPS) node && mkdir -p $(PROXY_DIR) && \
	  cp tools/configurable-http-proxy/package.json tools/configurable-http-proxy/package-lock.json $(PROXY_DIR)/ && \
	  npm ci --prefix $(PROXY_DIR) --no-audit --no-fund --loglevel=error; then touch $@; \
	else echo "make: configurable-http-proxy is not installed (see above): the JupyterHub test skips (and fails under CI)"; \
	  test -z "$$CI"; fi

proxy: $(STAMP_PROXY)

# ESLint from the committed lock file, with its config beside it so the config's imports resolve.
# Without Node.js a developer's lint skips the JavaScript (saying so); under CI it fails.
$(STAMP_ESLINT): tools/eslint/package.json tools/eslint/package-lock.json tools/eslint/eslint.config.mjs
	@if $(SYSDEPS) node && mkdir -p $(ESLINT_DIR) && cp tools/eslint/package.json \
	  tools/eslint/package-lock.json tools/eslint/eslint.config.mjs $(ESLINT_DIR)/ && \
	  npm ci --prefix $(ESLINT_DIR) --no-audit --no-fund --loglevel=error; then touch $@; \
	else echo "make: ESLint is not installed (see above): make lint skips the JavaScript (and fails under CI)"; \
	  test -z "$$CI"; fi

eslint: $(STAMP_ESLINT)

# --- targets ---------------------------------------------------------------------------------

# ruff, mypy, vulture (dead code) at the confidence that gives no false positives here, then
# ESLint over the JavaScript when it is installed
define LINT
	$(BIN)/ruff check $(LINT_PATHS)
	$(BIN)/mypy
	$(BIN)/vulture $(LINT_PATHS) --min-confidence 80
	@if [ -f $(STAMP_ESLINT) ]; then echo "eslint 'mtg_rulekit/**/*.js'"; \
	  $(ESLINT_DIR)/node_modules/.bin/eslint --config $(ESLINT_DIR)/eslint.config.mjs 'mtg_rulekit/**/*.js'; \
	else echo "make: ESLint skipped (not installed)"; fi
endef

lint: $(STAMP_DEPS) $(STAMP_ESLINT)
	$(LINT)

# The fast tier: lint, then the engine, rules, scenario, error-contract, property (a bounded
# hypothesis profile), fuzz (bounded), CLI and packaging tests.
check: $(STAMP_DEPS) $(STAMP_ESLINT) sysdeps-dot
	$(LINT)
	$(BIN)/python -m pytest -m "$(FAST)" -n $(WORKERS) --hypothesis-profile=check $(PYTEST_ARGS)

# The whole suite: lint, then unit, property, scenario, notebook, browser and JupyterLab tests,
# spread over the cores (a module's expensive fixture stays on one worker where it must:
# --dist loadgroup, see the xdist_group marks; each worker starts at most one JupyterLab).
# The 25 slowest tests are listed at the end: where the next minute of the suite is.
test: $(STAMP_DEPS) $(STAMP_ESLINT) sysdeps-dot sysdeps-chromium $(STAMP_PROXY)
	$(LINT)
	$(BIN)/python -m pytest -n $(WORKERS) --dist loadgroup --durations=25 $(PYTEST_ARGS)

lessons: $(STAMP_DEPS) sysdeps-dot
	$(BIN)/python -m mtg_rulekit.export --out $(SITE) $(if $(REPO_URL),--repo '$(REPO_URL)')

# The JupyterLite site (mtg_rulekit/export/lite.py: Pyodide and Viz.js from npm, the kernel's wheels
# from PyPI, pinned and cached; rulekit's own wheel), then the pages again, now linking to it.
lite: $(STAMP_DEPS) sysdeps-dot
	@$(SYSDEPS) node
	$(BIN)/python -m mtg_rulekit.export.lite --out $(SITE)/lite
	$(BIN)/python -m mtg_rulekit.export --out $(SITE) $(if $(REPO_URL),--repo '$(REPO_URL)')

diagrams: $(STAMP_DEPS) sysdeps-dot
	$(BIN)/python -m mtg_rulekit diagrams --out diagrams

bench: $(STAMP_DEPS) sysdeps-dot sysdeps-chromium
	$(BIN)/python benchmarks/run.py

# The long fuzz run (the suite runs a bounded one, tests/test_fuzz.py); exits 1 on any finding.
fuzz: $(STAMP_DEPS)
	$(BIN)/python tests/fuzz.py --sequences 10000 $(FUZZ_ARGS)

# JupyterLab on 127.0.0.1 that saves widget state in the notebooks (see mtg_rulekit/lab/__init__.py).
lab: $(STAMP_DEPS) sysdeps-dot
	$(BIN)/python -m mtg_rulekit.lab $(LAB_ARGS)

# the words go to the command through the environment (make exports variables set on its
# command line), never pasted into the shell line: a title with a quote stays a title
new-lesson: $(STAMP_DEPS)
	@test -n "$$TITLE" || { echo 'usage: make new-lesson TITLE="Lesson title" SCENARIO=FILE GOAL="what a student will be able to do"'; exit 2; }
	$(BIN)/python -m mtg_rulekit new-lesson "$$TITLE" --rulings "$$RULINGS" --goal "$$GOAL" \
	  $(if $(SCENARIO),--scenario $$SCENARIO)

# Pin every package of a fresh venv with .[test] installed (rulekit itself excluded).
lock:
	rm -rf ./.venv-lock
	$(PY) -m venv ./.venv-lock
	./.venv-lock/bin/pip install --disable-pip-version-check -e '.[test]'
	./.venv-lock/bin/pip freeze --exclude-editable | grep -iv '^mtg-rulekit' > constraints.txt
	rm -rf ./.venv-lock
	@echo "constraints.txt re-pinned; the next make re-installs .venv from it"

# Literal paths only, all inside this checkout: no variable (from the environment, `make -e` or
# the command line) can point a delete elsewhere. JupyterLab's .ipynb_checkpoints/ are a user's
# backups and stay.
clean:
	rm -rf ./site ./build ./dist ./*.egg-info ./.pytest_cache ./.ruff_cache ./.hypothesis \
	  ./test-artifacts ./benchmarks/results.json ./benchmarks/raw.json
	find . \( -path ./.venv -o -path ./.venv-lock -o -path ./.git -o -name .ipynb_checkpoints \) \
	  -prune -o -type d -name __pycache__ -prune -exec rm -rf {} +

distclean: clean
	rm -rf ./.venv ./.venv-lock ./.cache/node ./.cache/eslint
