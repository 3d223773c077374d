"""export kubernetes: every manifest passes the pinned Kubernetes schema subset, the stream
matches the golden file, and what Kubernetes cannot carry (start order first) is a warning."""

from __future__ import annotations

from pathlib import Path

from procler_testkit.export_helpers import golden, load, validate_kubernetes
from ruamel.yaml import YAML

from procler.export.fidelity import select
from procler.export.kubernetes import export_kubernetes


def test_every_feature_matches_the_golden_manifests_and_the_schema(project: Path) -> None:
    config = load(project)
    text = export_kubernetes(config, select(config, (), None)).files["kubernetes.yaml"]
    assert text.replace(str(project), "$ROOT") == golden("every-feature.kubernetes.yaml")
    documents = list(YAML(typ="safe", pure=True).load_all(text))
    for document in documents:
        validate_kubernetes(document)
    assert [(d["kind"], d["metadata"]["name"]) for d in documents] == [
        ("Job", "migrate"),
        ("Deployment", "db"),
        ("Service", "db"),
        ("Deployment", "api"),
        ("Service", "api"),
        ("Deployment", "worker"),
        ("CronJob", "report"),
    ]


def test_every_field_kubernetes_cannot_carry_is_a_warning(project: Path) -> None:
    config = load(project)
    warnings = export_kubernetes(config, select(config, (), None)).warnings
    assert [(w.process, w.field) for w in warnings] == [
        ("migrate", "cwd"),
        ("db", "docker.volumes"),
        ("db", "env_file"),
        ("db", "restart.policy"),
        ("api", "cwd"),
        ("api", "env_file"),
        ("api", "ready_log_line"),
        ("api", "depends_on"),
        ("api", "depends_on"),
        ("worker", "cwd"),
        ("worker", "healthcheck.log"),
        ("worker", "max_memory"),
        ("worker", "ready_log_line"),
        ("worker", "success_exit_codes"),
        ("worker", "restart.policy"),
        ("worker", "depends_on"),
        ("report", "cwd"),
        ("legacy", "docker.container"),
        ("tail", "export.image"),
        ("backend", "groups"),
    ]
    assert warnings[7].message == (
        "Kubernetes has no start order: api may start before db is healthy; it must retry "
        "until db answers (or wait in an initContainer)"
    )
