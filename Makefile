# Two commands for a newcomer: `make demo` and `make test`. Both bootstrap uv with pip.
SHELL := /bin/bash
PYTHON ?= python3
UV := $(shell command -v uv 2>/dev/null || echo "$(PYTHON) -m uv")
RUN := $(UV) run --frozen
PACKAGES := packages/agentcli packages/procler packages/officecli

.PHONY: bootstrap sync lint types pytest test demo bench clean

bootstrap:
	@command -v uv >/dev/null 2>&1 || $(PYTHON) -m uv --version >/dev/null 2>&1 || $(PYTHON) -m pip install --quiet uv

sync: bootstrap
	@$(UV) sync --frozen --all-packages --quiet
	@$(RUN) python -m compileall -q $(addsuffix /src,$(PACKAGES))

lint: sync
	$(RUN) ruff check $(PACKAGES) bench
	$(RUN) ruff format --check $(PACKAGES) bench

types: sync
	$(RUN) mypy $(addsuffix /src,$(PACKAGES))

pytest: sync
	$(RUN) pytest $(PACKAGES) $(PYTEST_ARGS)

test: lint types pytest

demo: sync
	@$(RUN) bash examples/demo.sh

bench: sync
	$(RUN) python bench/cli_startup.py

clean:
	rm -rf .venv .mypy_cache .ruff_cache .pytest_cache
