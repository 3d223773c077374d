"""procler import procfile|compose: the config each gives (golden), loadable as is; warnings
with file:line:column; --dry-run, --merge with CONFLICT; compose -> import -> export."""

from __future__ import annotations

import shlex
import shutil
from pathlib import Path
from typing import Any

from procler_testkit.config_helpers import run_procler
from procler_testkit.export_helpers import golden
from ruamel.yaml import YAML

from procler.config.load import check_config
from procler.config.yaml_nodes import MAX_NODES
from procler.export.compose import export_compose
from procler.export.fidelity import select
from procler.export.from_compose import import_compose
from procler.export.imported import new_config

DATA = Path(__file__).parent / "data"


def loads(text: str) -> Any:
    return YAML(typ="safe", pure=True).load(text)


def copy_data(project: Path, *names: str) -> None:
    for name in names:
        shutil.copy(DATA / name, project / name)


def test_procfile_import_is_the_golden_config_and_loads(project: Path) -> None:
    copy_data(project, "Procfile", ".env")
    code, env = run_procler(project, "import", "procfile", "Procfile")
    assert code == 0
    assert env["data"]["processes"] == ["web", "worker", "release", "clock"]
    assert env["data"]["warnings"] == [
        {
            "process": "",
            "field": "line",
            "message": "not `name: command`: 'this line is not a process' (skipped)",
            "at": "Procfile:6:1",
        }
    ]
    config_path = project / ".procler" / "config.yaml"
    assert config_path.read_text() == golden("Procfile.config.yaml")
    config, findings = check_config(str(config_path), {})
    assert findings.as_dicts() == []
    assert config is not None
    web = config.processes["web"]
    assert (dict(web.env)["PORT"], dict(web.env)["RAILS_ENV"], web.ports) == (
        "5000",
        "development",
        (5000,),
    )
    assert dict(config.processes["clock"].env)["PORT"] == "5300"
    assert config.processes["worker"].command == "bundle exec sidekiq -c ${SIDEKIQ_CONCURRENCY:-5}"


def test_compose_import_warns_at_line_and_column(project: Path) -> None:
    copy_data(project, "voting-compose.yaml")
    code, env = run_procler(project, "import", "compose", "voting-compose.yaml", "--dry-run")
    assert code == 0
    assert not (project / ".procler").exists()
    assert env["data"]["content"] == golden("voting.config.yaml")
    assert [(w["process"], w["field"], w["at"]) for w in env["data"]["warnings"]] == [
        ("", "volumes", "voting-compose.yaml:51:1"),
        ("", "networks", "voting-compose.yaml:53:1"),
        ("", "secrets", "voting-compose.yaml:56:1"),
        ("vote", "build", "voting-compose.yaml:5:5"),
        ("vote", "networks", "voting-compose.yaml:18:5"),
        ("vote", "ports", "voting-compose.yaml:8:9"),
        ("redis", "networks", "voting-compose.yaml:24:5"),
        ("db", "secrets", "voting-compose.yaml:32:5"),
        ("worker", "restart", "voting-compose.yaml:40:14"),
    ]
    config_path = project / "imported.yaml"
    config_path.write_text(env["data"]["content"])
    config, findings = check_config(str(config_path), {})
    assert findings.as_dicts() == []
    assert config is not None
    assert config.processes["vote"].depends_on[0].condition == "healthy"
    assert (config.replica_sets["worker"].declared, config.processes["result"].namespaces) == (
        2,
        ("frontend",),
    )


def test_merge_adds_new_processes_and_refuses_a_conflict(project: Path) -> None:
    copy_data(project, "Procfile", ".env")
    config_path = project / ".procler" / "config.yaml"
    config_path.parent.mkdir()
    config_path.write_text("# ours\nprocesses:\n  web:\n    command: serve  # the API\n")
    code, env = run_procler(project, "import", "procfile", "Procfile")
    assert (code, env["error_code"]) == (2, "CONFIG_EXISTS")
    code, env = run_procler(project, "import", "procfile", "Procfile", "--merge")
    assert (code, env["error_code"]) == (2, "CONFLICT")
    assert env["data"] == {"conflicts": [{"section": "processes", "name": "web"}]}
    assert config_path.read_text() == "# ours\nprocesses:\n  web:\n    command: serve  # the API\n"
    (project / "Procfile").write_text("jobs: run-jobs\n")
    code, env = run_procler(project, "import", "procfile", "Procfile", "--merge")
    assert code == 0
    assert config_path.read_text() == (
        "# ours\nprocesses:\n  web:\n    command: serve  # the API\n"
        "  jobs:\n    command: run-jobs\n    env:\n      PORT: '5000'\n"
        "    env_file:\n    - .env\n"
    )


def test_bad_input_exits_2_and_writes_nothing(project: Path) -> None:
    code, env = run_procler(project, "import", "compose", "missing.yaml")
    assert (code, env["error_code"]) == (2, "INVALID_INPUT")
    (project / "list.yaml").write_text("- not a compose file\n")
    code, env = run_procler(project, "import", "compose", "list.yaml")
    assert (code, env["error_code"]) == (2, "INVALID_INPUT")
    code, env = run_procler(project, "import", "compose", "list.yaml", "-o", "list.yaml")
    assert (code, env["error_code"]) == (2, "OUTPUT_IS_INPUT")
    assert (project / "list.yaml").read_text() == "- not a compose file\n"
    assert sorted(p.name for p in project.iterdir()) == ["list.yaml"]


def test_outputs_no_file_can_be_are_refused_with_exit_2(project: Path) -> None:
    """A 300-character name (longer than a file name may be), or a folder to merge into:
    exit 2 and nothing written, never an OSError (exit 3)."""
    (project / "Procfile").write_text("web: python -m http.server\n")
    (project / "folder").mkdir()
    long = "a" * 300
    for output in (long, f"sub/{long}/config.yaml"):
        code, env = run_procler(project, "import", "procfile", "Procfile", "-o", output)
        assert (code, env["error_code"]) == (2, "USAGE"), env
    code, env = run_procler(project, "import", "procfile", "Procfile", "--merge", "-o", "folder")
    assert (code, env["error_code"]) == (2, "NOT_REGULAR_FILE"), env
    assert sorted(p.name for p in project.iterdir()) == ["Procfile", "folder"]
    assert list((project / "folder").iterdir()) == []


ROUND_TRIP = """
services:
  cache:
    image: redis:7
    command: ["redis-server", "--port", "6390"]
    ports: ["6390:6390"]
    healthcheck:
      test: ["CMD-SHELL", "redis-cli -p 6390 ping"]
      interval: 2s
      timeout: 1s
      retries: 5
      start_period: 1s
    restart: always
  app:
    image: python:3.12
    command: python -m http.server 8000
    environment: {GREETING: hello, PRICE: "5 $$"}
    volumes: ["./src:/src"]
    ports: ["8000:8000"]
    depends_on:
      cache: {condition: service_healthy}
    restart: on-failure:3
    deploy: {replicas: 2}
    profiles: [web]
  once:
    image: busybox
    command: ["true"]
    restart: "no"
"""


def test_compose_import_then_export_gives_the_same_services(project: Path) -> None:
    source = project / "compose.yaml"
    source.write_text(ROUND_TRIP)
    imported = project / "imported.yaml"
    imported.write_text(new_config(import_compose([(source, ROUND_TRIP)])))
    config, findings = check_config(str(imported), {})
    assert findings.as_dicts() == []
    assert config is not None
    result = export_compose(config, select(config, (), None))
    assert [(w.process, w.field) for w in result.warnings] == [("app", "replicas")]
    exported = loads(result.files["compose.yaml"])["services"]
    for name, original in loads(ROUND_TRIP)["services"].items():
        if isinstance(original["command"], str):
            original["command"] = shlex.split(original["command"])
        assert {k: exported[name][k] for k in original} == original


def test_a_compose_file_that_expands_without_bound_is_refused(project: Path) -> None:
    lines = ['a0: &a0 ["x", "x", "x", "x", "x", "x", "x", "x", "x", "x"]']
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 8)]
    (project / "laughs.yaml").write_text("\n".join(lines) + "\nservices: {}\n")
    code, env = run_procler(project, "import", "compose", "laughs.yaml")
    assert (code, env["error_code"]) == (2, "INVALID_INPUT")
    assert env["data"]["errors"][0]["message"] == (
        f"aliases expand the document past {MAX_NODES} nodes"
    )


def test_a_dependency_on_a_service_left_out_is_dropped_with_a_warning(project: Path) -> None:
    text = (
        "services:\n  app:\n    image: app:1\n    depends_on: [assets]\n  assets:\n    build: .\n"
    )
    result = import_compose([(project / "compose.yaml", text)])
    assert result.processes["app"]["depends_on"] == []
    assert [(w.process, w.field, w.at, w.message) for w in result.warnings] == [
        ("assets", "build", "compose.yaml:6:5", "`build` is not imported"),
        (
            "assets",
            "image",
            "compose.yaml:6:5",
            "a service without an image (build only) is not imported",
        ),
        (
            "app",
            "depends_on",
            "compose.yaml:4:18",
            "assets is not imported: the dependency is dropped",
        ),
    ]
    imported = project / "imported.yaml"
    imported.write_text(new_config(result))
    assert check_config(str(imported), {})[1].as_dicts() == []
