"""export compose: the file re-parses, passes the pinned compose-spec subset, matches the
golden file, and every field compose cannot carry is a warning with its process and field."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from procler_testkit.export_helpers import golden, load, validate_compose
from ruamel.yaml import YAML

from procler.export.compose import export_compose
from procler.export.fidelity import select


def parsed(text: str) -> Any:
    return YAML(typ="safe", pure=True).load(text)


def test_every_feature_matches_the_golden_file_and_the_schema(project: Path) -> None:
    config = load(project)
    result = export_compose(config, select(config, (), None))
    text = result.files["compose.yaml"]
    assert text.replace(str(project), "$ROOT") == golden("every-feature.compose.yaml")
    document = parsed(text)
    validate_compose(document)
    assert sorted(document["services"]) == ["api", "db", "migrate", "report", "worker"]


def test_every_field_compose_cannot_carry_is_a_warning(project: Path) -> None:
    config = load(project)
    warnings = export_compose(config, select(config, (), None)).warnings
    assert [(w.process, w.field) for w in warnings] == [
        ("api", "healthcheck.http"),
        ("api", "healthcheck.restart_on_unhealthy"),
        ("api", "restart.max_restarts"),
        ("api", "ready_log_line"),
        ("api", "replicas"),
        ("worker", "healthcheck.log"),
        ("worker", "success_exit_codes"),
        ("worker", "ready_log_line"),
        ("worker", "max_memory"),
        ("report", "healthcheck.tcp"),
        ("report", "schedule"),
        ("legacy", "docker.container"),
        ("tail", "export.image"),
        ("worker", "depends_on"),
        ("backend", "groups"),
    ]


def test_a_dependency_left_out_is_dropped_with_a_warning(project: Path) -> None:
    config = load(project)
    result = export_compose(config, select(config, ("api", "db"), None))
    services = parsed(result.files["compose.yaml"])["services"]
    assert services["api"]["depends_on"] == {"db": {"condition": "service_healthy"}}
    assert [w.message for w in result.warnings if w.field == "depends_on"] == [
        "migrate is not in the compose file: the dependency on it is dropped"
    ]


def test_commands_with_colons_and_hashes_stay_one_argument(project: Path) -> None:
    config = load(project)
    services = parsed(export_compose(config, select(config, ("api",), None)).files["compose.yaml"])
    api = services["services"]["api"]
    assert api["command"] == ["/bin/sh", "-c", "uvicorn app:app --port 8000 # main API"]
    assert api["environment"]["DATABASE_URL"] == "postgres://db:5432/shop?sslmode=disable"
    assert api["environment"]["GREETING"] == "50% off $$TODAY"  # compose reads `$$` as `$`
    assert api["restart"] == "always"
    migrate = services["services"]
    assert "migrate" not in migrate  # only the named process is exported


@pytest.mark.skipif(
    shutil.which("docker") is None
    or subprocess.run(["docker", "compose", "version"], capture_output=True).returncode != 0,
    reason="the docker compose plugin is not installed",
)
def test_docker_compose_config_accepts_the_file(project: Path) -> None:
    config = load(project)
    path = project / "compose.yaml"
    path.write_text(export_compose(config, select(config, (), None)).files["compose.yaml"])
    proc = subprocess.run(
        ["docker", "compose", "-f", str(path), "config", "--quiet"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (proc.returncode, proc.stderr) == (0, "")
