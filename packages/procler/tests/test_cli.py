from __future__ import annotations

import json
import subprocess
import sys

import pytest

PROCLER = [sys.executable, "-c", "from procler.commands import main; main()"]


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


@pytest.mark.parametrize(
    "module", ["pydantic", "starlette", "uvicorn", "docker", "ruamel", "argparse", "json"]
)
def test_cli_import_path_stays_light(module: str) -> None:
    code = f"import sys; from procler.commands import main; print({module!r} in sys.modules)"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.stdout == "False\n"


def test_capabilities_describe_exactly_the_parser() -> None:
    from agentcli.testing import assert_capabilities_match_parser
    from procler.commands import APP

    assert_capabilities_match_parser(APP)
