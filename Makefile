# Two commands for a newcomer: `make demo` and `make test`. Both use the uv on PATH, or
# bootstrap one into .tools/ (scripts/bootstrap-uv.sh: a venv, so PEP 668 systems work too).
SHELL := /bin/bash
comma := ,
PYTHON ?= python3
TOOLS ?= $(CURDIR)/.tools
UV := $(shell command -v uv 2>/dev/null || echo "$(TOOLS)/bin/uv")
RUN := $(UV) run --frozen
PACKAGES := packages/agentcli packages/procler packages/officecli
# Behind a TLS-inspecting proxy (the usual office) uv must trust the certificates the system
# trusts, as pip does: UV_SYSTEM_CERTS (uv >= 0.11), UV_NATIVE_TLS (its name before, for an
# older uv on PATH). A user's own value wins; so does SSL_CERT_FILE, which uv reads itself.
export UV_SYSTEM_CERTS ?= 1
export UV_NATIVE_TLS ?= 1

.PHONY: bootstrap sync lint types pytest test demo install bench bench-table bench-compare docs skills screenshots clean

bootstrap:
	@command -v uv >/dev/null 2>&1 || bash scripts/bootstrap-uv.sh "$(PYTHON)" "$(TOOLS)" >/dev/null

sync: bootstrap
	@$(UV) sync --frozen --all-packages --quiet --compile-bytecode
	@$(RUN) python -m compileall -q $(addsuffix /src,$(PACKAGES))

lint: sync
	$(RUN) ruff check $(PACKAGES) bench tests
	$(RUN) ruff format --check $(PACKAGES) bench tests
	$(RUN) vulture

# mypy strict over the sources, the tests and the benches: a run per package (its sources and
# tests), then one for the benches, scripts and the repository's tests. Test modules are named
# from their tests folder ([tool.mypy] mypy_path), so two packages may each have a
# test_capabilities.py: one run sees one package's. Every run runs; any failure fails.
TYPED := $(foreach p,$(PACKAGES),"$(p)/src $(p)/tests") "bench scripts tests"
types: sync
	@failed=0; for files in $(TYPED); do \
		echo "mypy $$files"; $(RUN) mypy $$files || failed=1; \
	done; exit $$failed

# The suite on several workers (pytest-xdist), a test file on one worker: a file's tests
# share its module fixtures (a supervisor, a listener) and run in their order, as in one
# process. Each test has its own temp dir, free ports, tmux server and containers; tests that
# share something fixed (the quickstart example's port) are in one file. The tests mostly
# wait on processes they start, so two workers a core keep the cores busy. PYTEST_WORKERS=0
# runs it in one process; PYTEST_ARGS comes last (`make pytest PYTEST_ARGS="-k wait -x"`).
PYTEST_WORKERS ?= $(shell echo $$((2 * $$(nproc 2>/dev/null || echo 1))))
pytest: sync
	$(RUN) pytest -n $(PYTEST_WORKERS) --dist loadfile $(PACKAGES) tests $(PYTEST_ARGS)

test: lint types pytest

demo: sync
	@$(RUN) bash examples/demo.sh
	@echo
	@echo "The commands (procler, doc2md, fieldcheck, design-diff, office-replace, office-tools) on PATH in this shell:"
	@echo
	@echo "    . .venv/bin/activate"
	@echo
	@echo "or for good, in ~/.local/bin: make install"

# procler and the office tools as commands in ~/.local/bin (uv tool), usable from any project,
# with the versions of uv.lock: the ones `make test` tested. Our packages are built again each
# time: uv's cache keeps a build per version, and ours change without a new version.
OURS := $(addprefix --reinstall-package ,agentcli procler officecli)
install: bootstrap
	@constraints=$$(mktemp) && trap 'rm -f "$$constraints"' EXIT && \
	$(UV) export --frozen --all-packages --no-dev --no-emit-workspace --no-hashes --no-header \
		--no-annotate --format requirements-txt --quiet --output-file "$$constraints" && \
	for package in procler officecli; do \
		$(UV) tool install --force --python "$(PYTHON)" --constraints "$$constraints" $(OURS) \
			"./packages/$$package" || exit; \
	done
	@echo "installed into $$($(UV) tool dir --bin); put it on PATH if it is not"

# Each script prints its figures and ratios against peers measured in the same run and writes
# them to bench/results/NAME.json; `make bench BENCH=cli_startup,logs_tail` runs some
# (`python bench/suite.py --list` names them). PYTHONDONTWRITEBYTECODE is cleared so start-up
# is measured with bytecode caches, as users run; uv's folder is on PATH for the peers' venvs.
BENCH_RUN := PATH="$(dir $(UV)):$$PATH" PYTHONDONTWRITEBYTECODE= $(RUN) python
bench: sync
	$(BENCH_RUN) bench/suite.py $(subst $(comma), ,$(BENCH))

# README's performance table, from bench/results/*.json (a test fails when it is stale).
bench-table: sync
	$(RUN) python bench/readme_table.py

# The benches on BASE's code and on the working tree, interleaved; new/old ratios, flags.
ROUNDS ?= 3
bench-compare: sync
	@test -n "$(BASE)" || { echo "usage: make bench-compare BASE=REV [BENCH=name,...] [ROUNDS=3]" >&2; exit 2; }
	$(BENCH_RUN) bench/compare.py "$(BASE)" --bench "$(BENCH)" --rounds $(ROUNDS) --uv "$(UV)"

# The guide's pictures (docs/images/) of the dashboard and the TUI, taken anew on examples/quickstart.
screenshots: sync
	$(RUN) python scripts/screenshots.py

# Generated pages: docs/reference/TOOL.md and docs/config.md (a test fails when one is stale).
docs: sync
	$(RUN) python scripts/generated_docs.py

# Each tool's Agent Skill (skills/TOOL/) and the Copilot prompt files (.github/prompts/).
skills: sync
	$(RUN) python scripts/agent_guides.py

clean:
	for tree in .bench-compare/*/; do [ ! -d "$$tree" ] || git worktree remove --force "$$tree"; done
	rm -rf .venv .tools .mypy_cache .ruff_cache .pytest_cache .hypothesis .bench-compare
