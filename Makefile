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

# Each script prints its figures and ratios against peers measured in the same run.
# PYTHONDONTWRITEBYTECODE is cleared so start-up is measured with bytecode caches, as users run.
BENCH := PYTHONDONTWRITEBYTECODE= $(RUN) python
bench: sync
	$(BENCH) bench/cli_startup.py
	$(BENCH) bench/procler_status.py
	$(BENCH) bench/procler_scale.py
	$(BENCH) bench/procler_readiness.py
	$(BENCH) bench/procler_recovery.py
	$(BENCH) bench/logs_supervisor.py
	$(BENCH) bench/logs_capture.py
	$(BENCH) bench/logs_tail.py
	$(BENCH) bench/doc2md_bench.py
	$(BENCH) bench/fieldcheck_bench.py
	$(BENCH) bench/ocr_bench.py

clean:
	rm -rf .venv .mypy_cache .ruff_cache .pytest_cache
