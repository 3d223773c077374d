"""Each class of error is reported with its exact file, line, column, path and suggestion."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from procler_testkit.config_helpers import errors_of, write_config

from procler.config.load import load_project
from procler.config.model import ContainerSpec
from procler.patterns import SYNTAX_HINT


def finding(
    path: Path, line: int, column: int, where: str, message: str, suggestion: str
) -> dict[str, Any]:
    return {
        "file": str(path),
        "line": line,
        "column": column,
        "path": where,
        "message": message,
        "suggestion": suggestion,
    }


def test_unknown_key_with_did_you_mean(project: Path) -> None:
    path = write_config(
        project,
        """
        processes:
          worker:
            comand: python worker.py
        """,
    )
    assert errors_of(path) == [
        finding(
            path, 3, 5, "processes.worker.comand", "unknown key 'comand'", "did you mean command?"
        ),
        finding(
            path,
            3,
            5,
            "processes.worker",
            "a process needs `command` or `args`",
            "add command: ...",
        ),
    ]


def test_unknown_top_level_key_without_close_match_lists_valid_keys(project: Path) -> None:
    path = write_config(project, "services: {}\n")
    assert errors_of(path) == [
        finding(
            path,
            1,
            1,
            "services",
            "unknown key 'services'",
            "valid keys: version, vars, processes, groups, recipes, snippets, logs, events",
        )
    ]


def test_wrong_type(project: Path) -> None:
    path = write_config(
        project,
        """
        processes:
          web:
            command: [serve, --port]
            ports: 8000
        """,
    )
    assert errors_of(path) == [
        finding(
            path,
            3,
            14,
            "processes.web.command",
            "expected a string, got a list",
            "write a string here, e.g. processes.web.command: python app.py",
        ),
        finding(
            path,
            4,
            12,
            "processes.web.ports",
            "expected a list (each an integer), got the value '8000'",
            "write a list (each an integer) here, e.g. processes.web.ports: [8000]",
        ),
    ]


def test_bad_duration(project: Path) -> None:
    path = write_config(
        project,
        """
        processes:
          web:
            command: serve
            stop_timeout: 10 seconds
        """,
    )
    assert errors_of(path) == [
        finding(
            path,
            4,
            19,
            "processes.web.stop_timeout",
            "invalid duration '10 seconds': use e.g. 500ms, 10s, 5m, 1h, 1h30m",
            "write e.g. 500ms, 10s, 5m, 1h30m",
        )
    ]


def test_unknown_process_in_depends_on_and_group(project: Path) -> None:
    path = write_config(
        project,
        """
        processes:
          worker:
            command: work
          api:
            command: serve
            depends_on:
              - {name: wroker, condition: healthy}
              - db
        groups:
          backend: {processes: [api, workr]}
        """,
    )
    assert errors_of(path) == [
        finding(
            path,
            7,
            16,
            "processes.api.depends_on[0].name",
            "api depends on unknown process 'wroker'",
            "did you mean worker?",
        ),
        finding(
            path,
            8,
            9,
            "processes.api.depends_on[1]",
            "api depends on unknown process 'db'",
            "defined processes: worker, api",
        ),
        finding(
            path,
            10,
            30,
            "groups.backend.processes[1]",
            "group backend names unknown process 'workr'",
            "did you mean worker?",
        ),
    ]


def test_duplicate_process_names(project: Path) -> None:
    path = write_config(
        project,
        """
        processes:
          web:
            command: one
          web:
            command: two
        """,
    )
    assert errors_of(path) == [
        finding(
            path,
            4,
            3,
            "processes.web",
            "duplicate key 'web' (first defined at line 2)",
            "keep one definition under each name; rename or merge the other",
        )
    ]


def test_invalid_regex_in_a_log_healthcheck(project: Path) -> None:
    path = write_config(
        project,
        """
        processes:
          web:
            command: serve
            healthcheck:
              log: "listening on (port"
        """,
    )
    assert errors_of(path) == [
        finding(
            path,
            5,
            12,
            "processes.web.healthcheck.log",
            "invalid regular expression 'listening on (port': missing ): listening on (port",
            f"fix the pattern ({SYNTAX_HINT}); quote it in single quotes in YAML",
        )
    ]


def test_a_backreference_needs_backtracking_and_is_refused_at_its_position(
    project: Path,
) -> None:
    path = write_config(
        project,
        """
        processes:
          web:
            command: serve
            healthcheck: {log: '(a)\\1'}
        """,
    )
    assert errors_of(path) == [
        finding(
            path,
            4,
            24,
            "processes.web.healthcheck.log",
            "invalid regular expression '(a)\\\\1': invalid escape sequence: \\1",
            f"fix the pattern ({SYNTAX_HINT}); quote it in single quotes in YAML",
        )
    ]


def test_cycle_reported_with_its_path_at_the_closing_entry(project: Path) -> None:
    path = write_config(
        project,
        """
        processes:
          a:
            command: run a
            depends_on: [b]
          b:
            command: run b
            depends_on: [c]
          c:
            command: run c
            depends_on:
              - name: a
        """,
    )
    assert errors_of(path) == [
        finding(
            path,
            11,
            15,
            "processes.c.depends_on[0].name",
            "dependency cycle: a -> b -> c -> a",
            "remove one of the depends_on entries in the cycle",
        )
    ]


def test_self_dependency_is_a_cycle(project: Path) -> None:
    path = write_config(project, "processes:\n  a: {command: x, depends_on: [a]}\n")
    assert errors_of(path) == [
        finding(
            path,
            2,
            32,
            "processes.a.depends_on[0]",
            "dependency cycle: a -> a",
            "remove one of the depends_on entries in the cycle",
        )
    ]


def test_healthy_condition_needs_a_healthcheck(project: Path) -> None:
    path = write_config(
        project,
        """
        processes:
          db: {command: db}
          api:
            command: api
            depends_on: [{name: db, condition: healthy}]
        """,
    )
    assert errors_of(path) == [
        finding(
            path,
            5,
            40,
            "processes.api.depends_on[0].condition",
            "db has no healthcheck, so it can never become healthy",
            "add a healthcheck to db, or use condition: started",
        )
    ]


def test_healthcheck_needs_exactly_one_probe(project: Path) -> None:
    path = write_config(
        project,
        """
        processes:
          web:
            command: serve
            healthcheck: {exec: "true", tcp: {port: 80}}
        """,
    )
    assert errors_of(path) == [
        finding(
            path,
            4,
            18,
            "processes.web.healthcheck",
            "exec and tcp exclude each other",
            "keep only one of exec, http, tcp, log, test, http_get, tcp_socket",
        )
    ]


def test_undefined_variable(project: Path) -> None:
    path = write_config(project, "processes:\n  web:\n    command: serve ${PROT}\n")
    assert errors_of(path) == [
        finding(
            path,
            3,
            14,
            "processes.web.command",
            "undefined variable 'PROT'",
            "define PROT under `vars:` or in the environment, or write ${PROT:-default}",
        )
    ]


def test_missing_env_file(project: Path) -> None:
    path = write_config(project, "processes:\n  web:\n    command: s\n    env_file: [.env]\n")
    assert errors_of(path) == [
        finding(
            path,
            4,
            16,
            "processes.web.env_file[0]",
            f"env_file not found: {project}/.env",
            "create it or fix the path",
        )
    ]


def test_yaml_syntax_error_is_positioned(project: Path) -> None:
    path = write_config(project, "processes:\n  web: [a, b\n  api: {}\n")
    assert errors_of(path) == [
        finding(
            path,
            3,
            6,
            "",
            "YAML syntax error: while parsing a flow sequence expected ',' or ']', but got ':'",
            "check the indentation and quoting on this line and the one before",
        )
    ]


def test_all_errors_are_collected_not_only_the_first(project: Path) -> None:
    path = write_config(
        project,
        """
        version: 2
        processes:
          a: {command: x, stop_signal: TERMINATE, ports: [0]}
          b: {args: [y], restart: {policy: sometimes}}
        """,
    )
    assert [(e["line"], e["path"], e["message"]) for e in errors_of(path)] == [
        (1, "version", "2 is out of range"),
        (
            3,
            "processes.a.stop_signal",
            "'TERMINATE' is not one of TERM, INT, QUIT, HUP, KILL, USR1, USR2, WINCH",
        ),
        (3, "processes.a.ports[0]", "0 is out of range"),
        (4, "processes.b.restart.policy", "'sometimes' is not one of no, on-failure, always"),
    ]


def test_docker_context_settings(project: Path) -> None:
    path = write_config(
        project,
        """
        processes:
          a: {context: docker}
          b: {command: x, docker: {image: redis}}
          c: {context: docker, docker: {image: redis, container: cache}}
          d: {env_file: missing.env, command: x}
        """,
    )
    assert [(e["line"], e["column"], e["path"], e["message"]) for e in errors_of(path)] == [
        (2, 16, "processes.a.context", "context docker needs a `docker:` mapping"),
        (3, 27, "processes.b.docker", "docker settings need `context: docker`"),
        (4, 32, "processes.c.docker", "image and container exclude each other"),
        (5, 17, "processes.d.env_file[0]", f"env_file not found: {project}/missing.env"),
    ]


def test_podman_context_settings_follow_the_same_rules(project: Path) -> None:
    path = write_config(
        project,
        """
        processes:
          a: {context: podman}
          b: {context: podman, docker: {image: redis}}
          c: {context: podman, podman: {image: redis, container: cache}}
          d: {context: podman, podman: {image: "Bad Name"}}
          e: {context: podman, container: cache}
        """,
    )
    assert [(e["line"], e["column"], e["path"], e["message"]) for e in errors_of(path)] == [
        (2, 16, "processes.a.context", "context podman needs a `podman:` mapping"),
        (3, 16, "processes.b.context", "context podman needs a `podman:` mapping"),
        (3, 32, "processes.b.docker", "docker settings need `context: docker`"),
        (4, 32, "processes.c.podman", "image and container exclude each other"),
        (5, 40, "processes.d.podman.image", "'Bad Name' is not an image reference"),
    ]
    config = write_config(
        project, "processes:\n  db: {context: podman, podman: {image: 'redis:7'}, ports: [6379]}\n"
    )
    db = load_project(str(config)).processes["db"]
    assert (db.context, db.container_spec) == ("podman", ContainerSpec(image="redis:7"))


def test_empty_file_and_wrong_root(project: Path) -> None:
    path = write_config(project, "")
    assert [(e["line"], e["message"]) for e in errors_of(path)] == [(1, "the config file is empty")]
    path.write_text("- a\n- b\n", encoding="utf-8")
    assert [(e["line"], e["path"], e["message"]) for e in errors_of(path)] == [
        (1, "", "expected a mapping, got a list")
    ]


def test_invalid_names(project: Path) -> None:
    path = write_config(project, "processes:\n  my app: {command: x, env: {1BAD: y}}\n")
    assert [(e["line"], e["column"], e["path"], e["message"]) for e in errors_of(path)] == [
        (2, 3, "processes.my app", "invalid name 'my app'"),
    ]
    path.write_text("processes:\n  app: {command: x, env: {1BAD: y}}\n", encoding="utf-8")
    assert [(e["line"], e["column"], e["path"], e["suggestion"]) for e in errors_of(path)] == [
        (
            2,
            27,
            "processes.app.env.1BAD",
            "use letters, digits and '_' (not starting with a digit)",
        ),
    ]


def test_a_condition_written_short_gets_the_one_it_begins(project: Path) -> None:
    """`completed` (docker compose's service_completed_successfully, said short) begins one
    condition: the suggestion names it, though difflib finds it too far."""
    path = write_config(
        project,
        """
        processes:
          migrate:
            command: ./migrate
          api:
            command: ./api
            depends_on: [{name: migrate, condition: completed}]
        """,
    )
    assert errors_of(path) == [
        finding(
            path,
            6,
            45,
            "processes.api.depends_on[0].condition",
            "'completed' is not one of started, healthy, log_ready, completed_successfully",
            "did you mean completed_successfully?",
        )
    ]
