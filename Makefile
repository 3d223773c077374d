# Two commands for a newcomer: `make demo` and `make test`. Both use the uv on PATH, or
# bootstrap one into .tools/ (scripts/bootstrap-uv.sh: a venv, so PEP 668 systems work too).
SHELL := /bin/bash
PYTHON ?= python3
TOOLS ?= $(CURDIR)/.tools
UV := $(shell command -v uv 2>/dev/null || echo "$(TOOLS)/bin/uv")
RUN := $(UV) run --frozen
PACKAGES := packages/agentcli packages/procler packages/officecli

.PHONY: bootstrap sync lint types pytest test demo install bench docs skills clean

bootstrap:
	@command -v uv >/dev/null 2>&1 || bash scripts/bootstrap-uv.sh "$(PYTHON)" "$(TOOLS)" >/dev/null

sync: bootstrap
	@$(UV) sync --frozen --all-packages --quiet --compile-bytecode
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

# procler, doc2md and fieldcheck as commands in ~/.local/bin (uv tool), usable from any project.
install: bootstrap
	$(UV) tool install --force --python "$(PYTHON)" ./packages/procler
	$(UV) tool install --force --python "$(PYTHON)" ./packages/officecli
	@echo "installed into $$($(UV) tool dir --bin); put it on PATH if it is not"

# Each script prints its figures and ratios against peers measured in the same run.
# PYTHONDONTWRITEBYTECODE is cleared so start-up is measured with bytecode caches, as users run.
BENCH := PYTHONDONTWRITEBYTECODE= $(RUN) python
bench: sync
	$(BENCH) bench/cli_startup.py
	$(BENCH) bench/procler_status.py
	$(BENCH) bench/procler_scale.py
	$(BENCH) bench/procler_scale.py 1000
	$(BENCH) bench/procler_readiness.py
	$(BENCH) bench/procler_recovery.py
	$(BENCH) bench/procler_schedule.py
	$(BENCH) bench/procler_rest.py
	$(BENCH) bench/procler_events.py
	$(BENCH) bench/recipe_bench.py
	$(BENCH) bench/procler_reload.py
	$(BENCH) bench/logs_supervisor.py
	$(BENCH) bench/logs_capture.py
	$(BENCH) bench/logs_tail.py
	$(BENCH) bench/user_regex.py
	$(BENCH) bench/doc2md_bench.py
	$(BENCH) bench/fieldcheck_bench.py
	$(BENCH) bench/design_diff_bench.py
	$(BENCH) bench/xlsx_rows_bench.py
	$(BENCH) bench/office_replace_bench.py
	$(BENCH) bench/ocr_bench.py

# Generated pages (a test fails when one is stale).
docs: sync
	$(RUN) python -m procler.config.reference > docs/config.md

# Each tool's Agent Skill (skills/TOOL/) and the Copilot prompt files (.github/prompts/).
skills: sync
	$(RUN) python scripts/agent_guides.py

clean:
	rm -rf .venv .tools .mypy_cache .ruff_cache .pytest_cache .hypothesis
