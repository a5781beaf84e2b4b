# Two commands set up a fresh machine: `make demo` and `make test` (no R: `make test-r`).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: demo test test-fast test-r install install-test lint bench clean chromium proc

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

install: $(BIN)/python
	$(BIN)/pip install -q -e .

install-test: $(BIN)/python
	$(BIN)/pip install -q -e '.[test]'

demo: install
	$(BIN)/measurelab demo --out out/demo

# tests/lab/report/test_site.py renders the report in headless Chromium (Debian package `chromium`);
# installed here when missing and the machine allows it (root), else say what to run.
chromium:
	@command -v chromium >/dev/null 2>&1 || \
	  if [ "$$(id -u)" = 0 ]; then apt-get update && apt-get install -y chromium; \
	  else echo "chromium is missing and this is not root: run" \
	    "'sudo apt-get update && sudo apt-get install -y chromium'" \
	    "(tests/lab/report/test_site.py fails without it)"; fi

# `make test-r` compares with R live (pROC; loess): Debian packages `r-base-core` and
# `r-cran-proc`, installed here when missing and root, as above. `make test` needs no R.
proc:
	@Rscript -e 'quit(status = !requireNamespace("pROC", quietly = TRUE))' >/dev/null 2>&1 || \
	  if [ "$$(id -u)" = 0 ]; then apt-get update && apt-get install -y r-base-core r-cran-proc; \
	  else echo "R's pROC is missing and this is not root: run" \
	    "'sudo apt-get update && sudo apt-get install -y r-base-core r-cran-proc'" \
	    "(make test-r fails without it)"; fi

# --dist loadgroup keeps the tests of the session's Dask cluster on one worker (one cluster).
# R's numbers come from tests/data/r/ (pyproject's addopts deselect the live R tests, marker r).
test: install-test chromium
	$(BIN)/ruff check conftest.py src tests $(wildcard benchmarks)
	$(BIN)/lint-imports --no-cache
	$(BIN)/mypy
	$(BIN)/python -m pytest -n 2 --dist loadgroup -q

# The edit-test loop: no browser, R, Dask cluster or slow tests (docs/DEVELOPING.md, "Tests");
# mypy (settings in pyproject.toml) rechecks only what changed (its cache: .mypy_cache).
FAST := not slow and not browser and not r and not cluster
test-fast: install-test
	$(BIN)/mypy
	$(BIN)/python -m pytest -n 2 -q -m "$(FAST)"

# R live: regenerate tests/data/r/ (tools/r_references.py records the R and pROC versions;
# commit the files if they change), then run the tests against R itself (marker r).
test-r: install-test proc
	$(BIN)/python tools/r_references.py
	$(BIN)/python -m pytest -n 2 -q -m r

bench: install-test
	for f in benchmarks/bench_*.py; do $(BIN)/python $$f; done

clean:
	rm -rf $(VENV) out build *.egg-info src/*.egg-info .mypy_cache
