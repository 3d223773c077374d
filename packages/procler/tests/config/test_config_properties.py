"""Property: whatever a config file is mutated into, `procler config validate` answers one
JSON document (valid UTF-8, never exit 3), and every finding has a suggestion and points
at a real place in its file (a line and column that exist, never 0:0)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from agentcli_testkit.mutations import mutated
from hypothesis import HealthCheck, given, settings
from procler_testkit.config_helpers import BASE, errors_of

from agentcli.main import run
from procler.declarations import APP

ENV_FILE = "A=1\nexport B='two'\nnot a pair\n"


@settings(
    max_examples=200,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(text=mutated(BASE))
def test_a_mutated_config_is_reported_not_a_crash(
    tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes], text: str
) -> None:
    folder = tmp_path / ".procler"
    folder.mkdir(exist_ok=True)
    (tmp_path / ".env").write_text(ENV_FILE)
    path = folder / "config.yaml"
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    lines = text.count("\n") + 1
    for finding in errors_of(path):
        assert finding["suggestion"] != "", finding
        assert "not a pair" not in finding["message"]  # an env_file line is never quoted
        if finding["file"] == str(path):
            assert 1 <= finding["line"] <= lines and finding["column"] >= 1, (text, finding)
    code = run(APP, ["--config", str(path), "config", "validate"])  # the CLI, in this process
    out = capsysbinary.readouterr().out.decode("utf-8")  # strict: stdout is valid UTF-8
    assert out.count("\n") == 1, (text, out)
    envelope = json.loads(out)
    assert code in (0, 2), (text, envelope)
    assert envelope["error_code"] in (None, "CONFIG_INVALID", "CONFIG_NOT_FOUND"), envelope
