"""Recipe step options with the real CLI and real processes: bad ones found at load time,
wait_for a port that really listens. Retries, `when` and snippet steps are tested in
process: supervisor/test_recipe_step_options.py."""

from __future__ import annotations

import socket
from pathlib import Path

from procler_testkit.harness import PY, Project

# Fails until it has been run three times (it counts its runs in a file).
FLAKY = (
    f"{PY} -c \\\"import pathlib, sys; p = pathlib.Path('tries'); "
    "n = len(p.read_text()) + 1 if p.exists() else 1; p.write_text('x' * n); "
    "print('try', n); sys.exit(0 if n >= 3 else 1)\\\""
)
CONFIG = f"""
version: 1
processes:
  api:
    command: {PY} -c "import time; time.sleep(600)"
snippets:
  echo:
    command: "{PY} -c 'import sys; print(sys.argv[1:])' @{{word}} @{{n}}"
    args: {{n: {{type: integer}}}}
recipes:
  flaky:
    steps:
      - id: try
        exec: "{FLAKY}"
        retries: 3
        retry_delay: 10ms
  guarded:
    on_error: stop
    steps:
      - id: migrate
        exec: "{PY} -c 'import sys; sys.exit(1)'"
      - start: api
      - id: rollback
        when: {{step: migrate, outcome: failed}}
        snippet: echo
        args: {{word: "undo; it", n: "2"}}
      - id: only-if-up
        when: {{process: api, status: running}}
        exec: "echo up"
"""


def test_bad_snippet_steps_and_when_are_found_at_load_time(tmp_path: Path) -> None:
    config = (
        CONFIG.replace('n: "2"', 'n: "two"')
        .replace("step: migrate, outcome", "step: migrat, outcome")
        .replace("      - start: api\n", "      - start: api\n      - snippet: ecko\n")
    )
    code, answer = Project(tmp_path, config).run("config", "validate")
    assert (code, answer["error_code"]) == (2, "CONFIG_INVALID")
    assert [(e["path"], e["message"]) for e in answer["data"]["errors"]] == [
        ("recipes.guarded.steps[2].snippet", "snippet names unknown snippet 'ecko'"),
        ("recipes.guarded.steps[3].when.step", "when names 'migrat', not an earlier step"),
        ("recipes.guarded.steps[3].args", "snippet echo: n must be an integer, not 'two'"),
    ]


def test_wait_for_port_waits_until_the_port_listens_or_the_process_ends(tmp_path: Path) -> None:
    with socket.socket() as sock, socket.socket() as other:
        sock.bind(("127.0.0.1", 0))
        other.bind(("127.0.0.1", 0))
        port, never = sock.getsockname()[1], other.getsockname()[1]
    server = (
        f"import socket, time; time.sleep(0.3); s = socket.socket(); "
        f"s.bind(('127.0.0.1', {port})); s.listen(); time.sleep(600)"
    )
    project = Project(
        tmp_path,
        f"""
version: 1
processes:
  web:
    command: {PY} -c "{server}"
    ports: [{port}]
  quitter:
    command: {PY} -c "import time; time.sleep(0.5)"
    ports: [{never}]
recipes:
  up:
    steps:
      - start: web
      - wait_for: {{process: web, condition: port, timeout: 20s}}
  gone:
    steps:
      - start: quitter
      - wait_for: {{process: quitter, condition: port, timeout: 20s}}
""",
    )
    try:
        run = project.ok("recipe", "run", "up")
        assert run["steps"][1]["output"] == f"web listens on {port}"
        # the process ending ends the wait (not its 20 s timeout)
        code, answer = project.run("recipe", "run", "gone")
        step = answer["data"]["steps"][1]
        assert (code, step["status"], step["error"]) == (
            1,
            "failed",
            f"quitter will not open port {never}: it is exited",
        )
    finally:
        project.close()
