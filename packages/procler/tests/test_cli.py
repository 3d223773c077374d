from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

PROCLER = [sys.executable, "-c", "from procler.cli import main; main()"]


def procler(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*PROCLER, *args], capture_output=True, text=True, timeout=60)


def test_unknown_flag_is_a_usage_envelope() -> None:
    proc = procler("--no-such-flag")
    assert proc.returncode == 2
    env = json.loads(proc.stdout)
    assert env["error_code"] == "USAGE"
    assert env["success"] is False


def test_capabilities_is_json() -> None:
    proc = procler("capabilities")
    assert proc.returncode == 0
    caps = json.loads(proc.stdout)["data"]
    assert caps["tool"] == "procler"


def new_modules(imports: str) -> str:
    code = f"import sys; before = set(sys.modules)\nimport {imports}\nprint(sorted(set(sys.modules) - before))"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    return proc.stdout


def test_full_cli_path_stays_light() -> None:
    """The full CLI (parser, declarations, client): no supervisor, pydantic or yaml, and
    no handler module but the client's (each loads when its command runs); of the contexts
    only their declarations (the errors and choices the commands declare)."""
    loaded = new_modules(
        "procler.cli, procler.cli.client, procler.declarations, agentcli.main, agentcli.parser"
    )
    assert loaded == (
        "['__future__', '_socket', 'agentcli', 'agentcli.commands', 'agentcli.envelope', "
        "'agentcli.errors', "
        "'agentcli.main', 'agentcli.parser', 'agentcli.skill_command', 'procler', 'procler.cli', "
        "'procler.cli.client', 'procler.contexts', 'procler.contexts.container_kind', "
        "'procler.contexts.docker', 'procler.contexts.kind', 'procler.contexts.podman', "
        "'procler.contexts.registry', "
        "'procler.declarations', 'procler.declarations.config', "
        "'procler.declarations.daemon', 'procler.declarations.events', "
        "'procler.declarations.history', 'procler.declarations.logs', "
        "'procler.declarations.mcp', 'procler.declarations.processes', "
        "'procler.declarations.recipes', 'procler.declarations.replica_commands', "
        "'procler.declarations.schedules', 'procler.declarations.skills', "
        "'procler.declarations.snippets', "
        "'procler.declarations.stack_files', 'procler.declarations.tui', 'procler.errors', "
        "'procler.project', 'procler.recipe_states', 'procler.states', "
        "'procler.wire']\n"
    )


def test_capabilities_describe_exactly_the_parser() -> None:
    from agentcli.testing import assert_capabilities_match_parser
    from procler.declarations import APP

    assert_capabilities_match_parser(APP)


def test_help_as_json_matches_the_plain_help() -> None:
    """`--help -f json` works for every command, `logs` (where -f is --follow) too."""
    from agentcli.testing import assert_help_as_json
    from procler.declarations import APP

    assert_help_as_json(APP)


def test_supervisor_handles_exactly_the_commands_sent_to_it() -> None:
    from procler.declarations import APP
    from procler.declarations.daemon import RESTART as RESTART_DAEMON
    from procler.declarations.daemon import SERVE
    from procler.declarations.daemon import STATUS as DAEMON_STATUS
    from procler.declarations.daemon import STOP as DAEMON_STOP
    from procler.declarations.processes import FORWARD, IF_RUNNING, UP
    from procler.supervisor.commands import command_names

    handlers = (FORWARD, IF_RUNNING, UP, RESTART_DAEMON, DAEMON_STATUS, DAEMON_STOP, SERVE)
    sent = {c.name for c in APP.commands if c.handler in handlers}
    assert sorted(command_names()) == sorted(sent)  # listed without a supervisor


def test_the_entry_offers_exactly_the_commands_answered_from_argv() -> None:
    from procler.declarations import APP
    from procler.declarations.processes import ANSWERED_FROM_ARGV
    from procler.entry import ANSWERED, names_answered

    assert {c.name for c in APP.commands if c.handler in ANSWERED_FROM_ARGV} == ANSWERED
    assert names_answered(["--config", "c.yaml", "-v", "group", "stop", "g"]) is True
    local: tuple[list[str], ...] = (
        ["logs", "api"],
        ["daemon", "status"],
        ["daemon", "logs"],
        ["list"],
        ["groupx"],
        [],
    )
    assert [names_answered(argv) for argv in local] == [False] * len(local)


def test_every_command_kept_from_a_supervisor_is_answered_from_disk() -> None:
    """IF_RUNNING commands (and `daemon stop`, which forwards as they do) never start a
    supervisor: the disk answers them without one."""
    from procler.cli.offline import DiskAnswers
    from procler.declarations import APP
    from procler.declarations.daemon import STOP as DAEMON_STOP
    from procler.declarations.processes import IF_RUNNING

    table = DiskAnswers.__new__(DiskAnswers).table()
    kept = (IF_RUNNING, DAEMON_STOP)
    assert sorted(table) == sorted(c.name for c in APP.commands if c.handler in kept)


def imported_by_status(cwd: Path) -> tuple[int, set[str]]:
    """The exit code of `procler status` (no supervisor runs) and the modules it loads, from
    -X importtime."""
    proc = subprocess.run(
        [
            sys.executable,
            "-X",
            "importtime",
            "-c",
            "from procler.entry import main; main()",
            "status",
        ],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
    )
    return proc.returncode, {
        line.rsplit("|", 1)[1].strip() for line in proc.stderr.splitlines()[1:]
    }


# What an answer from disk loads only when it needs it: SQLite and the store when there is a
# state database, the schedules' tables for a scheduled process, the fingerprint (hashlib)
# for a completed one-shot, RE2 for a pattern, tempfile for a write, logging for an error.
ONLY_WHEN_NEEDED = {
    "procler.supervisor.schedule_store",
    "procler.config.fingerprint",
    "hashlib",
    "re2",
    "tempfile",
    "logging",
}


def test_status_without_a_supervisor_loads_only_what_its_answer_needs(tmp_path: Path) -> None:
    """No config: the answer (CONFIG_NOT_FOUND) comes before the answers from disk and the
    config core are loaded. With one: the config is read, and state.db once there is one,
    but no event loop, no execution context (only the contexts' declarations: their status
    fields) and nothing the answer does not need."""
    code, without = imported_by_status(tmp_path)
    assert code == 2
    assert {"procler.cli.offline", "procler.config", "sqlite3", "typing"} & without == set()
    project = tmp_path / "project"
    (project / ".procler").mkdir(parents=True)
    (project / ".procler" / "config.yaml").write_text(
        "version: 1\nprocesses:\n  api:\n    command: sleep 60\n"
    )
    code, loaded = imported_by_status(project)
    assert code == 0
    assert {"procler.cli.offline", "procler.config.load"} <= loaded
    implementations = {
        "procler.contexts.base",
        "procler.contexts.local",
        "procler.contexts.container",
    }
    never_ran = {"sqlite3", "procler.supervisor.state_store", *ONLY_WHEN_NEEDED}
    assert {"asyncio", "procler.supervisor.sampler", *implementations} & loaded == set()
    assert never_ran & loaded == set()

    from procler.supervisor.state_store import StateStore

    StateStore(project / ".procler" / "state" / "state.db").close()  # as a past supervisor left it
    code, ran = imported_by_status(project)
    assert code == 0
    assert {"sqlite3", "procler.supervisor.state_store"} <= ran
    assert ONLY_WHEN_NEEDED & ran == set()
