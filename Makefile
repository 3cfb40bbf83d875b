# rulekit: every target bootstraps what it needs, and a second run does no install work.
#   make lessons    build the lesson site (python -m rulekit.export --out site)
#   make lab        JupyterLab on the notebooks
#   make test       ruff check + pytest (extra args: make test PYTEST_ARGS='-k ruling -x')
#   make diagrams   regenerate diagrams/ (committed)
#   make bench      run benchmarks/run.py
#   make fuzz       10,000 seeded random action sequences against the error contract, a summary
#                   table (extra args: make fuzz FUZZ_ARGS='--sequences 500 --seed 3')
#   make lint       ruff check
#   make lock       re-pin constraints.txt after changing dependencies in pyproject.toml
#   make clean      remove build outputs and caches (distclean: the .venv too)

PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP_DEPS := $(VENV)/.stamp-deps
SITE ?= site
PYTEST_ARGS ?=
LAB_ARGS ?=
FUZZ_ARGS ?=
LINT_PATHS = $(wildcard rulekit tests benchmarks)
SYSDEPS := bash tools/ensure-system-deps

.DEFAULT_GOAL := test
.PHONY: lessons lab test diagrams bench fuzz lint lock clean distclean venv deps sysdeps-dot sysdeps-chromium

# --- bootstrap -------------------------------------------------------------------------------

$(BIN)/python:
	@$(PY) -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null || { \
	  echo "rulekit needs Python >= 3.11, but PY=$(PY) is $$($(PY) -c 'import platform; print(platform.python_version())' 2>/dev/null || echo 'not a working Python'): run make PY=python3.11 (or newer)"; exit 1; }
	$(PY) -m venv $(VENV)

# Re-install when the dependencies or the pins change, or once the rulekit package first appears
# (an editable install made before rulekit/__init__.py existed maps no package).
$(STAMP_DEPS): pyproject.toml constraints.txt $(wildcard rulekit/__init__.py) | $(BIN)/python
	$(BIN)/pip install --disable-pip-version-check -c constraints.txt -e '.[test]'
	@touch $@

venv: $(BIN)/python
deps: $(STAMP_DEPS)

sysdeps-dot:
	@$(SYSDEPS) dot

sysdeps-chromium:
	@$(SYSDEPS) chromium

# --- targets ---------------------------------------------------------------------------------

lint: $(STAMP_DEPS)
	$(BIN)/ruff check $(LINT_PATHS)

# The whole suite: lint, then unit, property, scenario, notebook, browser and JupyterLab tests.
test: $(STAMP_DEPS) sysdeps-dot sysdeps-chromium
	$(BIN)/ruff check $(LINT_PATHS)
	$(BIN)/python -m pytest $(PYTEST_ARGS)

lessons: $(STAMP_DEPS) sysdeps-dot
	$(BIN)/python -m rulekit.export --out $(SITE)

diagrams: $(STAMP_DEPS) sysdeps-dot
	$(BIN)/python -m rulekit diagrams --out diagrams

bench: $(STAMP_DEPS) sysdeps-dot sysdeps-chromium
	$(BIN)/python benchmarks/run.py

# The long fuzz run (the suite runs a bounded one, tests/test_fuzz.py); exits 1 on any finding.
fuzz: $(STAMP_DEPS)
	$(BIN)/python tests/fuzz.py --sequences 10000 $(FUZZ_ARGS)

# Jupyter refuses root without --allow-root (these machines run as root).
lab: $(STAMP_DEPS) sysdeps-dot
	$(BIN)/jupyter lab --ip=127.0.0.1 --notebook-dir=notebooks --no-browser \
	  $(if $(filter 0,$(shell id -u)),--allow-root) $(LAB_ARGS)

# Pin every package of a fresh venv with .[test] installed (rulekit itself excluded).
lock:
	rm -rf $(VENV)-lock
	$(PY) -m venv $(VENV)-lock
	$(VENV)-lock/bin/pip install --disable-pip-version-check -e '.[test]'
	$(VENV)-lock/bin/pip freeze --exclude-editable | grep -iv '^rulekit' > constraints.txt
	rm -rf $(VENV)-lock
	@echo "constraints.txt re-pinned; the next make re-installs .venv from it"

clean:
	rm -rf $(SITE) build dist *.egg-info .pytest_cache .ruff_cache .hypothesis test-artifacts \
	  benchmarks/results.json benchmarks/raw.json
	find . -path ./$(VENV) -prune -o -type d \( -name __pycache__ -o -name .ipynb_checkpoints \) \
	  -prune -exec rm -rf {} +

distclean: clean
	rm -rf $(VENV) $(VENV)-lock
