from __future__ import annotations

import json
import subprocess
import sys

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
    not the handlers of define/remove (procler.cli.definitions)."""
    loaded = new_modules("procler.cli, procler.cli.client, agentcli.main, agentcli.parser")
    assert "'procler.cli.definitions'" not in loaded
    assert loaded == (
        "['_socket', 'agentcli', 'agentcli.commands', 'agentcli.envelope', 'agentcli.errors', "
        "'agentcli.main', 'agentcli.parser', 'procler', 'procler.cli', 'procler.cli.client', "
        "'procler.cli.config', 'procler.cli.daemon', 'procler.cli.events', "
        "'procler.cli.history', 'procler.cli.logs', 'procler.cli.mcp', 'procler.cli.processes', 'procler.cli.recipes', "
        "'procler.cli.replica_commands', 'procler.cli.schedules', "
        "'procler.cli.snippets', 'procler.cli.stack_files', 'procler.cli.tui', 'procler.errors', "
        "'procler.project', 'procler.status_styles', 'procler.wire']\n"
    )


def test_capabilities_describe_exactly_the_parser() -> None:
    from agentcli.testing import assert_capabilities_match_parser
    from procler.cli import APP

    assert_capabilities_match_parser(APP)


def test_supervisor_handles_exactly_the_commands_sent_to_it() -> None:
    from procler.cli import APP
    from procler.cli.daemon import RESTART as RESTART_DAEMON
    from procler.cli.daemon import SERVE
    from procler.cli.daemon import STATUS as DAEMON_STATUS
    from procler.cli.processes import FORWARD, IF_RUNNING, UP
    from procler.supervisor.handlers import Handlers

    handlers = (FORWARD, IF_RUNNING, UP, RESTART_DAEMON, DAEMON_STATUS, SERVE)
    sent = {c.name for c in APP.commands if c.handler in handlers}
    table = Handlers.__new__(Handlers).table()  # the table needs no supervisor to list
    assert sorted(table) == sorted(sent)


def test_the_entry_offers_exactly_the_commands_answered_from_argv() -> None:
    from procler.cli import APP
    from procler.cli.processes import ANSWERED_FROM_ARGV
    from procler.entry import ANSWERED, names_answered

    assert {c.name for c in APP.commands if c.handler in ANSWERED_FROM_ARGV} == ANSWERED
    assert names_answered(["--config", "c.yaml", "-v", "group", "stop", "g"]) is True
    local = (["logs", "api"], ["daemon", "status"], ["daemon", "logs"], ["list"], ["groupx"], [])
    assert [names_answered(argv) for argv in local] == [False] * len(local)


def test_every_command_kept_from_a_supervisor_is_answered_from_disk() -> None:
    """IF_RUNNING commands never start a supervisor: the disk answers them without one."""
    from procler.cli import APP
    from procler.cli.offline import DiskAnswers
    from procler.cli.processes import IF_RUNNING

    table = DiskAnswers.__new__(DiskAnswers).table()
    assert sorted(table) == sorted(c.name for c in APP.commands if c.handler == IF_RUNNING)
