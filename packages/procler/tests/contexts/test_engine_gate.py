"""Without an engine the container tests skip with the reason, unless CI requires them."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from procler.contexts import registry

HERE = Path(__file__).parent
REQUIRE = {name: f"PROCLER_REQUIRE_{name.upper()}" for name in registry.in_containers()}


def run_without_engines(require: str | None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in REQUIRE.values()}
    env["DOCKER_HOST"] = "unix:///nonexistent/docker.sock"
    env["CONTAINER_HOST"] = "unix:///nonexistent/podman.sock"
    if require is not None:
        env[REQUIRE[require]] = "1"
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            str(HERE / "test_container_context.py"),
            "-k",
            "normalised",
            "-p",
            "no:cacheprovider",
            "-rs",
            "-q",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


def test_no_engine_skips_with_the_reason() -> None:
    result = run_without_engines(require=None)
    assert result.returncode == 0, result.stdout
    assert f"{len(REQUIRE)} skipped" in result.stdout
    assert "no docker engine reachable" in result.stdout
    assert "no podman engine reachable" in result.stdout


@pytest.mark.parametrize("engine", sorted(REQUIRE))
def test_no_engine_fails_when_it_is_required(engine: str) -> None:
    result = run_without_engines(require=engine)
    assert result.returncode == 1, result.stdout
    assert f"{REQUIRE[engine]} is set but no {engine} engine reachable" in result.stdout
    assert re.search(r"1 skipped, \d+ deselected, 1 error", result.stdout)  # a fixture failed
