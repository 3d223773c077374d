"""The quickstart example, exported to every target through the CLI: each file passes its
check (the compose and Kubernetes schemas, systemd-analyze) and the report names what the
target cannot carry."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from procler_testkit.config_helpers import run_procler, write_config
from procler_testkit.export_helpers import validate_compose, validate_kubernetes, verify_units
from ruamel.yaml import YAML

EXAMPLE = Path(__file__).resolve().parents[4] / "examples" / "quickstart"


@pytest.fixture
def quickstart(tmp_path: Path) -> Path:
    """The example's config, each process given the image hint compose and Kubernetes need."""
    text = (EXAMPLE / ".procler" / "config.yaml").read_text(encoding="utf-8")
    text = re.sub(r"(?m)^(    args: .*)$", r'\1\n    export: {image: "python:3.12"}', text)
    project = tmp_path / "quickstart"
    write_config(project, text)
    return project


def export(project: Path, target: str) -> tuple[dict[str, str], list[tuple[str, str]]]:
    code, env = run_procler(project, "export", target, "--dry-run")
    assert code == 0
    files = {Path(path).name: text for path, text in env["data"]["files"].items()}
    return files, [(w["process"], w["field"]) for w in env["data"]["warnings"]]


def test_compose(quickstart: Path) -> None:
    files, warnings = export(quickstart, "compose")
    document = YAML(typ="safe", pure=True).load(files["compose.yaml"])
    validate_compose(document)
    assert document["services"]["worker"]["depends_on"] == {"api": {"condition": "service_healthy"}}
    assert warnings == [
        ("api", "healthcheck.http"),
        ("worker", "healthcheck.log"),
        ("backend", "groups"),
    ]


def test_kubernetes(quickstart: Path) -> None:
    files, warnings = export(quickstart, "kubernetes")
    documents = list(YAML(typ="safe", pure=True).load_all(files["kubernetes.yaml"]))
    for document in documents:
        validate_kubernetes(document)
    assert [(d["kind"], d["metadata"]["name"]) for d in documents] == [
        ("Job", "migrate"),
        ("Deployment", "api"),
        ("Service", "api"),
        ("Deployment", "worker"),
    ]
    assert [w for w in warnings if w[1] != "cwd"] == [
        ("api", "restart.policy"),
        ("api", "depends_on"),
        ("worker", "healthcheck.log"),
        ("worker", "restart.policy"),
        ("worker", "depends_on"),
        ("backend", "groups"),
    ]


def test_systemd(quickstart: Path, tmp_path: Path) -> None:
    files, warnings = export(quickstart, "systemd")
    assert sorted(files) == [
        "quickstart-api.service",
        "quickstart-backend.target",
        "quickstart-migrate.service",
        "quickstart-worker.service",
    ]
    assert ("worker", "depends_on") in warnings  # healthy: systemd only knows started
    verify_units(files, tmp_path / "units")
