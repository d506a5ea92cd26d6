# Two commands do everything on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test test-fast lint bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/python -m memforest.demo

test: $(STAMP)
	$(BIN)/python -m pytest -q -p no:cacheprovider

# The unit tier: no database, no server processes.
test-fast: $(STAMP)
	$(BIN)/python -m pytest -q -p no:cacheprovider tests/unit

lint: $(STAMP)
	$(BIN)/ruff check memforest tests bench migrations scripts
	$(BIN)/ruff format --check memforest tests bench migrations scripts
	$(BIN)/mypy
	$(BIN)/python scripts/check_layers.py

clean:
	rm -rf $(VENV) build *.egg-info
