"""procler export through the real CLI: the envelope, --dry-run, --strict, -o, typed errors."""

from __future__ import annotations

from pathlib import Path

from procler_testkit.config_helpers import run_procler, write_config

STACK = """
processes:
  db:
    context: docker
    docker: {image: "redis:7"}
    ready_log_line: Ready to accept connections
  web:
    command: serve --port 8000
    export: {image: "python:3.12"}
    depends_on: [{name: db, condition: log_ready}]
  helper:
    command: helper
"""


def test_dry_run_answers_the_content_and_writes_nothing(project: Path) -> None:
    write_config(project, STACK)
    code, env = run_procler(project, "export", "compose", "db", "--dry-run")
    assert code == 0
    assert env["data"] == {
        "target": "compose",
        "processes": ["db"],
        "warnings": [
            {
                "process": "db",
                "field": "ready_log_line",
                "message": "compose cannot watch the output for a line: not kept",
            }
        ],
        "files": {
            "compose.yaml": "name: shop\nservices:\n  db:\n    image: redis:7\n"
            "    network_mode: host\n    restart: on-failure:5\n    stop_signal: SIGTERM\n"
            "    stop_grace_period: 10s\n    labels:\n      procler.process: db\n"
        },
    }
    assert sorted(p.name for p in project.iterdir()) == [".procler"]


def test_files_are_written_to_the_output_folder_with_the_warnings(project: Path) -> None:
    write_config(project, STACK)
    code, env = run_procler(project, "export", "systemd", "-o", "units")
    assert code == 0
    assert env["data"]["written"] == [
        str(Path("units") / n)
        for n in ("shop-db.service", "shop-web.service", "shop-helper.service")
    ]
    assert (project / "units" / "shop-web.service").read_text().count("After=shop-db.service") == 1
    assert [(w["process"], w["field"]) for w in env["data"]["warnings"]] == [
        ("db", "restart.backoff"),
        ("db", "ready_log_line"),
        ("web", "depends_on"),
        ("web", "restart.backoff"),
        ("helper", "restart.backoff"),
    ]


def test_compose_may_name_its_file(project: Path) -> None:
    write_config(project, STACK)
    code, env = run_procler(project, "export", "compose", "--group", "x")
    assert (code, env["error_code"]) == (2, "GROUP_NOT_FOUND")
    code, env = run_procler(project, "export", "compose", "-o", "deploy/stack.yml")
    assert (code, env["error_code"]) == (2, "USAGE")  # a named file's folder must exist
    (project / "deploy").mkdir()
    code, env = run_procler(project, "export", "compose", "-o", "deploy/stack.yml")
    assert code == 0
    assert env["data"]["written"] == ["deploy/stack.yml"]
    assert (project / "deploy" / "stack.yml").read_text().startswith("name: shop\n")


def test_strict_exits_1_on_a_warning_and_writes_nothing(project: Path) -> None:
    write_config(project, STACK)
    code, env = run_procler(project, "export", "compose", "--strict", "-o", "out")
    assert (code, env["error_code"]) == (1, "CONDITION_NOT_MET")
    assert [(w["process"], w["field"]) for w in env["data"]["warnings"]] == [
        ("db", "ready_log_line"),
        ("helper", "export.image"),
        ("web", "depends_on"),
    ]
    assert not (project / "out").exists()


def test_bad_input_exits_2_with_a_code_and_writes_nothing(project: Path) -> None:
    config = write_config(project, STACK)
    before = config.read_text()
    code, env = run_procler(project, "export", "compose", "-o", str(config))
    assert (code, env["error_code"]) == (2, "OUTPUT_IS_INPUT")
    assert config.read_text() == before
    code, env = run_procler(project, "export", "compose", "nope")
    assert (code, env["error_code"], env["suggestion"]) == (
        2,
        "PROCESS_NOT_FOUND",
        "run `procler list` to see the defined processes",
    )
    code, env = run_procler(project, "export", "systemd", "--all", "db")
    assert (code, env["error_code"]) == (2, "USAGE")
