"""YAML's implicit conversions never silently change a value: text stays text, or it is rejected."""

from __future__ import annotations

from pathlib import Path

from procler_testkit.config_helpers import errors_of, write_config

from procler.config.load import check_config


def test_words_that_yaml_1_1_calls_booleans_stay_text(project: Path) -> None:
    path = write_config(
        project,
        """
        processes:
          on:
            command: yes
            description: no
            env: {FEATURE: on, DEBUG: off, VERBOSE: y}
            restart: no
        """,
    )
    config, findings = check_config(str(path), {})
    assert findings.as_dicts() == []
    assert config is not None
    spec = config.processes["on"]
    assert (spec.command, spec.description) == ("yes", "no")
    assert spec.env == (("FEATURE", "on"), ("DEBUG", "off"), ("VERBOSE", "y"))
    assert spec.restart.policy == "no"


def test_leading_zero_and_sexagesimal_stay_text_where_text_is_expected(project: Path) -> None:
    path = write_config(
        project,
        """
        processes:
          cron:
            command: at 12:30
            env: {MODE: 010, AT: 12:30, TRUE_TEXT: true, NUMBER: 1e3}
        """,
    )
    config, findings = check_config(str(path), {})
    assert findings.as_dicts() == []
    assert config is not None
    assert config.processes["cron"].command == "at 12:30"
    assert config.processes["cron"].env == (
        ("MODE", "010"),
        ("AT", "12:30"),
        ("TRUE_TEXT", "true"),
        ("NUMBER", "1e3"),
    )


def test_yes_is_not_a_boolean(project: Path) -> None:
    path = write_config(
        project,
        """
        processes:
          web:
            command: serve
            healthcheck: {exec: "true", restart_on_unhealthy: yes}
        """,
    )
    assert [(e["line"], e["column"], e["path"], e["message"]) for e in errors_of(path)] == [
        (
            4,
            55,
            "processes.web.healthcheck.restart_on_unhealthy",
            "expected true or false, got 'yes' (yes is a boolean only in YAML 1.1; Procler reads "
            "YAML 1.2, where it is text)",
        )
    ]


def test_octal_looking_integer_is_rejected(project: Path) -> None:
    path = write_config(project, "processes:\n  web:\n    command: s\n    ports: [010]\n")
    assert errors_of(path)[0]["message"] == (
        "ambiguous integer 010: YAML 1.1 reads a leading 0 as octal, YAML 1.2 does not"
    )
    assert errors_of(path)[0]["suggestion"] == "write the number without the leading zero (e.g. 10)"


def test_quoted_number_is_accepted_as_written(project: Path) -> None:
    path = write_config(project, "processes:\n  web:\n    command: s\n    ports: ['8080']\n")
    config, _ = check_config(str(path), {})
    assert config is not None
    assert config.processes["web"].ports == (8080,)


def test_sexagesimal_is_rejected_where_a_number_or_duration_is_expected(project: Path) -> None:
    path = write_config(
        project,
        "processes:\n  web:\n    command: s\n    stop_timeout: 1:30\n    success_exit_codes: [1:30]\n",
    )
    assert [(e["path"], e["message"]) for e in errors_of(path)] == [
        (
            "processes.web.stop_timeout",
            "invalid duration '1:30': use e.g. 500ms, 10s, 5m, 1h, 1h30m (YAML 1.1 reads "
            "unquoted 1:30 as a base-60 number; Procler reads it as text)",
        ),
        (
            "processes.web.success_exit_codes[0]",
            "expected an integer, got the value '1:30' (YAML 1.1 reads unquoted 1:30 as a "
            "base-60 number; Procler reads it as text)",
        ),
    ]
