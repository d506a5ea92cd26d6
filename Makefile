# Two commands do everything on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The versions the development environment (tests, lint, CI) was last proven with: a release of a
# dependency cannot change what `make test` and `make lint` check until `make lock` takes it in.
CONSTRAINTS := constraints-dev.txt

.PHONY: demo test test-fast test-ts lint lock bench clean chromium

$(STAMP): pyproject.toml $(CONSTRAINTS)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c $(CONSTRAINTS) -e '.[dev]'
	touch $(STAMP)

# Re-pins $(CONSTRAINTS) to the newest versions pyproject.toml allows, resolved in a scratch
# virtualenv; then run `make test lint` before committing the new file.
LOCK_VENV := .venv-lock
lock:
	rm -rf $(LOCK_VENV) && $(PYTHON) -m venv $(LOCK_VENV)
	$(LOCK_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(LOCK_VENV)/bin/python -m pip install --quiet -e '.[dev]'
	{ echo "# pip constraints for .[dev], written by make lock on $$(date -u +%F) with $$($(LOCK_VENV)/bin/python -V)"; \
	  $(LOCK_VENV)/bin/python -m pip freeze --exclude-editable; } > $(CONSTRAINTS)
	rm -rf $(LOCK_VENV)

demo: $(STAMP)
	$(BIN)/python -m memforest.demo

test: $(STAMP) chromium
	$(BIN)/python -m pytest -q -rs -p no:cacheprovider  # -rs: each skip says why
	$(MAKE) test-ts

# The TypeScript client (clients/typescript) against a real server; needs Node.js >= 20.
test-ts: $(STAMP)
	@if node -e 'process.exit(+process.versions.node.split(".")[0] >= 20 ? 0 : 1)' 2>/dev/null; then \
	  cd clients/typescript && npm ci --no-audit --no-fund && npm run build && \
	  MEMFOREST_PYTHON=$(abspath $(BIN))/python npm test; \
	else echo "test-ts: SKIPPED: Node.js >= 20 is not installed (the TypeScript client's tests need it)"; fi

# The memory browser's tests drive Debian's Chromium (tests/db/test_ui_browser.py): installed here
# where it is missing and apt can (root); elsewhere those tests skip and say why (ADR 0046).
CHROMIUM ?= /usr/bin/chromium
chromium:
	@if [ ! -x "$(CHROMIUM)" ] && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		echo "installing Debian's chromium for the browser tests"; \
		DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null; \
	fi

# The unit tier: no database, no server processes.
test-fast: $(STAMP)
	$(BIN)/python -m pytest -q -p no:cacheprovider tests/unit

lint: $(STAMP)
	$(BIN)/ruff check memforest tests bench migrations scripts examples
	$(BIN)/ruff format --check memforest tests bench migrations scripts examples
	$(BIN)/mypy
	$(BIN)/python scripts/check_layers.py

clean:
	rm -rf $(VENV) $(LOCK_VENV) build *.egg-info
