"""The warnings the every-feature stack does not reach, one config per target: each field is
named once, with its process, and the files written stay valid for their schemas."""

from __future__ import annotations

from pathlib import Path

from procler_testkit.export_helpers import load, validate_compose, validate_kubernetes, verify_units
from ruamel.yaml import YAML

from procler.export.compose import export_compose
from procler.export.fidelity import select
from procler.export.kubernetes import export_kubernetes
from procler.export.systemd import export_systemd

EDGES = """
processes:
  Web_1:
    command: serve
    export: {image: "app:1"}
    stop_signal: INT
    healthcheck: {http: {url: "https://example.org:8443/up", method: HEAD, expect_status: "200"}}
    restart: {policy: on-failure, backoff: {initial: 2, max: 10}}
  batch:
    command: run-batch
    restart: {policy: "no"}
    replicas: 3
    export: {image: "app:1"}
  forker:
    command: start-daemon
    daemon_mode: true
    daemon_match_pattern: "mydaemon --serve"
    adopt_existing: true
    export: {image: "app:1"}
  nightly:
    command: run-nightly
    schedule: "0 0 1 * 1"
    restart: {policy: "no"}
    export: {image: "app:1"}
  hourly:
    command: run-hourly
    schedule: "@hourly"
    restart: {policy: "no"}
    export: {image: "app:1"}
  hostnet:
    context: docker
    docker: {image: "redis:7", network_mode: host}
    ports: [6379]
groups:
  cache: {processes: [hostnet]}
"""
CHOSEN = ("Web_1", "batch", "forker", "nightly", "hourly")


def test_compose_edges(project: Path) -> None:
    config = load(project, EDGES)
    result = export_compose(config, select(config, (*CHOSEN, "hostnet"), None))
    assert [(w.process, w.field) for w in result.warnings] == [
        ("Web_1", "healthcheck.http"),
        ("Web_1", "restart.backoff"),
        ("forker", "daemon"),
        ("nightly", "schedule"),
        ("hourly", "schedule"),
        ("cache", "groups"),
    ]
    document = YAML(typ="safe", pure=True).load(result.files["compose.yaml"])
    validate_compose(document)
    hostnet = document["services"]["hostnet"]
    assert (hostnet["network_mode"], "ports" in hostnet) == ("host", False)
    assert document["services"]["Web_1"]["restart"] == "on-failure:5"


def test_kubernetes_edges(project: Path) -> None:
    config = load(project, EDGES)
    result = export_kubernetes(config, select(config, CHOSEN, None))
    assert [(w.process, w.field, w.message) for w in result.warnings if w.field != "cwd"] == [
        ("Web_1", "healthcheck.http", "the kubelet probes the pod itself, not example.org"),
        ("Web_1", "healthcheck.http", "Kubernetes probes with GET and counts 200-399 as healthy"),
        ("Web_1", "stop_signal", "Kubernetes stops with TERM (or the image's STOPSIGNAL)"),
        ("Web_1", "name", "named web-1 (Kubernetes names)"),
        (
            "Web_1",
            "restart.policy",
            "a Deployment restarts its pods whatever their exit; max_restarts is not kept",
        ),
        ("batch", "replicas", "a Job runs once: use parallelism to run several"),
        (
            "forker",
            "daemon",
            "a command that forks and exits ends its pod: run it in the foreground",
        ),
        (
            "forker",
            "restart.policy",
            "a Deployment restarts its pods whatever their exit; max_restarts is not kept",
        ),
    ]  # no group warning: no member of `cache` is exported
    documents = list(YAML(typ="safe", pure=True).load_all(result.files["kubernetes.yaml"]))
    for document in documents:
        validate_kubernetes(document)
    web = documents[0]["spec"]["template"]["spec"]["containers"][0]
    assert web["readinessProbe"]["httpGet"] == {"path": "/up", "port": 8443, "scheme": "HTTPS"}
    assert [d["kind"] for d in documents] == [
        "Deployment",
        "Job",
        "Deployment",
        "CronJob",
        "CronJob",
    ]


def test_systemd_edges(project: Path, tmp_path: Path) -> None:
    config = load(project, EDGES)
    result = export_systemd(config, select(config, CHOSEN, None))
    assert [
        (w.process, w.field, w.message) for w in result.warnings if w.field != "healthcheck.http"
    ] == [
        (
            "Web_1",
            "restart.backoff",
            "systemd restarts after a fixed RestartSec (the initial backoff): it does not grow",
        ),
        (
            "forker",
            "daemon.match_pattern",
            "systemd follows a forking daemon by its pidfile or guesses its main process: "
            "the command-line pattern is not kept (give daemon_pidfile)",
        ),
        ("forker", "daemon.adopt_existing", "systemd starts its own daemon"),
        (
            "forker",
            "restart.backoff",
            "systemd restarts after a fixed RestartSec (the initial backoff): it does not grow",
        ),
        (
            "nightly",
            "schedule",
            "cron runs when the day of month OR the weekday matches; systemd needs both: "
            "no timer written, the service runs once",
        ),
    ]
    # A group none of whose members is exported gets no target; the replicas a template.
    assert sorted(result.files) == [
        "shop-Web_1.service",
        "shop-batch@.service",
        "shop-forker.service",
        "shop-hourly.service",
        "shop-hourly.timer",
        "shop-nightly.service",
    ]
    assert "Type=forking" in result.files["shop-forker.service"].splitlines()
    assert "Unit=shop-hourly.service" in result.files["shop-hourly.timer"].splitlines()
    verify_units(result.files, tmp_path / "units")
