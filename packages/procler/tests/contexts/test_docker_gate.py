"""Without an engine the docker tests skip with the reason, unless CI requires them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent


def run_without_engine(require: bool) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "PROCLER_REQUIRE_DOCKER"}
    env["DOCKER_HOST"] = "unix:///nonexistent/docker.sock"
    if require:
        env["PROCLER_REQUIRE_DOCKER"] = "1"
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            str(HERE / "test_docker_context.py"),
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
    result = run_without_engine(require=False)
    assert result.returncode == 0, result.stdout
    assert "1 skipped" in result.stdout
    assert "no Docker engine reachable" in result.stdout


def test_no_engine_fails_when_docker_is_required() -> None:
    result = run_without_engine(require=True)
    assert result.returncode == 1, result.stdout
    assert "PROCLER_REQUIRE_DOCKER is set but no Docker engine reachable" in result.stdout
