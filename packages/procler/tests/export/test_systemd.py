"""export systemd: the units match the golden file, `systemd-analyze verify` accepts them
(when present), ExecStart= reads back as the argv Procler runs, and every field systemd cannot
carry is a warning."""

from __future__ import annotations

from pathlib import Path

import pytest
from procler_testkit.export_helpers import golden, load, verify_units

from procler.export.fidelity import select
from procler.export.oncalendar import CronUnsupported, on_calendar
from procler.export.systemd import export_systemd
from procler.export.units import exec_line

C_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"', "'": "'"}


def systemd_words(line: str) -> list[str]:
    """The argv systemd reads from an ExecStart= value (quotes, C escapes, %% and $$)."""
    words: list[str] = []
    i, word, quote, started = 0, "", "", False
    while i < len(line):
        ch = line[i]
        if ch == "\\" and quote:
            word += C_ESCAPES[line[i + 1]]
            i += 2
            continue
        if quote and ch == quote:
            quote = ""
        elif not quote and ch in "\"'":
            quote, started = ch, True
        elif not quote and ch == " ":
            if started:
                words.append(word)
            word, started = "", False
        else:
            word, started = word + ch, True
        i += 1
    if started:
        words.append(word)
    return [w.replace("%%", "%").replace("$$", "$") for w in words]


def rendered(files: dict[str, str], root: Path) -> str:
    return "".join(f"== {name}\n{text}" for name, text in files.items()).replace(str(root), "$ROOT")


def test_every_feature_matches_the_golden_units(project: Path) -> None:
    config = load(project)
    result = export_systemd(config, select(config, (), None))
    assert rendered(result.files, project) == golden("every-feature.systemd")


def test_every_field_systemd_cannot_carry_is_a_warning(project: Path) -> None:
    config = load(project)
    warnings = export_systemd(config, select(config, (), None)).warnings
    assert [(w.process, w.field) for w in warnings] == [
        ("db", "restart.backoff"),
        ("db", "healthcheck.exec"),
        ("db", "ports"),
        ("api", "depends_on"),
        ("api", "env"),
        ("api", "restart.backoff"),
        ("api", "healthcheck.http"),
        ("api", "ready_log_line"),
        ("api", "ports"),
        ("worker", "depends_on"),
        ("worker", "restart.backoff"),
        ("worker", "max_memory"),
        ("worker", "healthcheck.log"),
        ("worker", "ready_log_line"),
        ("report", "healthcheck.tcp"),
        ("legacy", "restart.backoff"),
        ("tail", "restart.backoff"),
    ]


def test_env_files_are_read_by_systemd_and_only_the_config_env_is_written(
    project: Path,
) -> None:
    config = load(project)
    result = export_systemd(config, select(config, ("api", "db"), None))
    api = result.files["shop-api@.service"].splitlines()
    assert [line for line in api if line.startswith("Environment")] == [
        f"EnvironmentFile={project}/.env",
        'Environment="GREETING=50%% off $TODAY" '
        '"DATABASE_URL=postgres://db:5432/shop?sslmode=disable"',
        "Environment=PROCLER_REPLICA=%i",
    ]
    assert [w.message for w in result.warnings if w.field == "env"] == [
        "systemd lets EnvironmentFile= win over Environment=: GREETING would take the env "
        "file's value; set each in one place only"
    ]
    db = dict(
        line.split("=", 1) for line in result.files["shop-db.service"].splitlines() if "=" in line
    )
    assert db["EnvironmentFile"] == f"{project}/db.env"
    # docker takes a bare --env KEY from its own environment, which systemd read from the file.
    assert "--env POSTGRES_PASSWORD postgres:16" in db["ExecStart"]
    assert "Environment" not in db


def test_an_env_file_systemd_reads_differently_goes_into_the_unit(project: Path) -> None:
    (project / "shell.env").write_text("export TOKEN=abc  # for the API\n")
    config = load(
        project, "processes:\n  api:\n    command: serve\n    env_file: [.env, shell.env]\n"
    )
    result = export_systemd(config, select(config, (), None))
    lines = result.files["shop-api.service"].splitlines()
    assert [line for line in lines if line.startswith("Environment")] == [
        f"EnvironmentFile={project}/.env",
        'Environment="TOKEN=abc"',
    ]
    assert [(w.field, w.message) for w in result.warnings if w.field == "env_file"] == [
        (
            "env_file",
            f"{project}/shell.env uses `export`, a backslash or a comment after a value, which "
            "systemd reads differently: its values are written into the unit instead",
        )
    ]


@pytest.mark.parametrize(
    "argv",
    [
        ["/bin/sh", "-c", "echo a:b # not a comment; 100% $HOME \"q\" 'x'"],
        ["printf", "%s\\n", "tab\there", "line\nbreak", ""],
        ["python3", "-c", "print('$$ %i')"],
    ],
)
def test_exec_start_reads_back_as_the_argv(argv: list[str]) -> None:
    assert systemd_words(exec_line(argv)) == argv


def test_systemd_analyze_verify_accepts_the_units(project: Path, tmp_path: Path) -> None:
    config = load(project)
    verify_units(export_systemd(config, select(config, (), None)).files, tmp_path / "units")


@pytest.mark.parametrize(
    ("cron", "calendar"),
    [
        ("*/5 * * * *", "*-*-* *:0/5:00"),
        ("30 2 * * 1-5", "Mon..Fri *-*-* 02:30:00"),
        ("0 9,17 1 * *", "*-*-01 09,17:00:00"),
        ("@daily", "daily"),
    ],
)
def test_cron_lines_become_on_calendar(cron: str, calendar: str) -> None:
    assert on_calendar(cron) == calendar


@pytest.mark.parametrize(
    ("cron", "why"),
    [
        ("0 0 1 * 1", "cron runs when the day of month OR the weekday matches; systemd needs both"),
        ("0 0 * * MON", "the day-of-week field 'MON' is not numeric 0-7"),
        ("1-10/2 * * * *", "a stepped range (1-10/2) has no OnCalendar spelling"),
        ("* * *", "'* * *' is not a five-field cron line"),
    ],
)
def test_cron_lines_systemd_cannot_say_are_refused(cron: str, why: str) -> None:
    with pytest.raises(CronUnsupported) as caught:
        on_calendar(cron)
    assert str(caught.value) == why


@pytest.mark.parametrize("engine", ["docker", "podman"])
def test_a_container_process_with_replicas_names_one_container_per_instance(
    project: Path, engine: str
) -> None:
    config = load(
        project,
        f'processes:\n  cache:\n    context: {engine}\n    {engine}: {{image: "redis:7"}}\n'
        "    command: \"redis-server --save '' # 100%\"\n    replicas: 2\n",
    )
    unit = export_systemd(config, select(config, (), None)).files["shop-cache@.service"]
    lines = dict(line.split("=", 1) for line in unit.splitlines() if "=" in line)
    assert systemd_words(lines["ExecStart"]) == [
        engine,
        "run",
        "--rm",
        "--name",
        "shop-cache-%i",
        "--network",
        "host",
        "redis:7",
        "/bin/sh",
        "-c",
        "redis-server --save '' # 100%",
    ]
    assert lines["ExecStop"] == f"{engine} stop shop-cache-%i"
