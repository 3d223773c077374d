"""`procler logs` against a real supervisor capturing real processes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

from procler_testkit.harness import PROCLER, PY, Project, wait_for

BURST = 200_000
CONFIG = f"""version: 1
processes:
  burst:
    args: [{PY}, -c, "import sys\\nfor i in range({BURST}):\\n    print(f'out {{i}}')\\n    print(f'err {{i}}', file=sys.stderr)"]
    restart: {{policy: "no"}}
  talker:
    args: [{PY}, -u, -c, "import time,sys\\nprint('hello', flush=True)\\nprint('oops', file=sys.stderr, flush=True)\\ntime.sleep(600)"]
  ticker:
    args: [{PY}, -u, -c, "import time\\nfor i in range(1000):\\n    print(f'tick {{i}}', flush=True)\\n    time.sleep(0.1)"]
"""


def texts(data: dict[str, Any]) -> list[str]:
    return [line["text"] for line in data["lines"]]


def test_burst_on_both_streams_loses_nothing(make_project: Callable[[str], Project]) -> None:
    p = make_project(CONFIG)
    p.ok("start", "burst")
    code, env = p.run("wait", "burst", "--for", "exited", "--timeout", "120s", timeout=180)
    assert code == 0, env
    for stream in ("out", "err"):
        tail = ("--stream", f"std{stream}", "--tail", str(BURST + 10))
        answers = [p.ok("logs", "burst", *tail)]
        while answers[-1]["more"]:  # each answer holds a page: 10,000 lines at most
            answers.append(p.ok("logs", "burst", *tail, "--after", answers[-1]["cursor"]))
        assert [len(a["lines"]) for a in answers] == [10_000] * (BURST // 10_000)
        assert [t for a in answers for t in texts(a)] == [f"{stream} {i}" for i in range(BURST)]
        assert answers[0]["truncated"] is False


def test_restart_keeps_the_previous_run_and_grep_filters(
    make_project: Callable[[str], Project],
) -> None:
    p = make_project(CONFIG)
    p.ok("start", "talker")
    assert wait_for(lambda: len(p.ok("logs", "talker")["lines"]) == 2)
    p.ok("restart", "talker")
    assert wait_for(lambda: len(p.ok("logs", "talker")["lines"]) == 2)
    previous = p.ok("logs", "talker", "--run", "previous")
    assert [(line["run"], line["stream"], line["text"]) for line in previous["lines"]] == [
        (1, "stdout", "hello"),
        (1, "stderr", "oops"),
    ]
    every = p.ok("logs", "talker", "--run", "all", "--grep", "^oo")
    assert [(line["run"], line["text"]) for line in every["lines"]] == [(1, "oops"), (2, "oops")]
    code, env = p.run("logs", "talker", "--grep", "(")
    assert code == 2
    assert env["error_code"] == "USAGE"


def test_logs_survive_supervisor_kill_9(make_project: Callable[[str], Project]) -> None:
    p = make_project(CONFIG)
    p.ok("start", "talker")
    assert wait_for(lambda: len(p.ok("logs", "talker")["lines"]) == 2)
    os.kill(p.supervisor_pid(), signal.SIGKILL)
    code, env = p.run("logs", "talker", "--run", "1")
    assert code == 0
    assert texts(env["data"]) == ["hello", "oops"]


def test_follow_streams_new_lines_and_stops_at_timeout(
    make_project: Callable[[str], Project],
) -> None:
    p = make_project(CONFIG)
    p.ok("start", "ticker")
    proc = subprocess.run(
        [PROCLER, "logs", "ticker", "--follow", "--tail", "0", "--timeout", "1s"],
        cwd=p.root,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert proc.returncode == 0
    *lines, end = [json.loads(line) for line in proc.stdout.splitlines()]
    assert (end["end"], end["timeout_seconds"], end["lines"]) == ("timeout", 1.0, len(lines))
    numbers = [int(line["text"].split()[1]) for line in lines]
    assert len(numbers) >= 3
    assert numbers == list(range(numbers[0], numbers[0] + len(numbers)))
    assert {line["stream"] for line in lines} == {"stdout"}


def test_logs_of_all_processes_carry_names(make_project: Callable[[str], Project]) -> None:
    p = make_project(CONFIG)
    p.ok("start", "talker")
    assert wait_for(lambda: len(p.ok("logs", "talker")["lines"]) == 2)
    data = p.ok("logs", "--all")
    assert [(line["process"], line["text"]) for line in data["lines"]] == [
        ("talker", "hello"),
        ("talker", "oops"),
    ]


def test_follow_ends_cleanly_on_sigint_and_on_a_closed_pipe(
    make_project: Callable[[str], Project],
) -> None:
    p = make_project(CONFIG)
    p.ok("start", "ticker")
    follow = [PROCLER, "logs", "ticker", "--follow", "--tail", "0", "--timeout", "60s"]
    proc = subprocess.Popen(follow, cwd=p.root, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None
    first = json.loads(proc.stdout.readline())
    proc.send_signal(signal.SIGINT)
    rest, err = proc.communicate(timeout=30)
    assert proc.returncode == 130
    assert first["stream"] == "stdout"
    assert all(json.loads(line)["stream"] == "stdout" for line in rest.splitlines())
    assert b"Traceback" not in err
    piped = subprocess.run(
        " ".join(follow) + " | head -n 2",
        shell=True,
        cwd=p.root,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert [json.loads(line)["stream"] for line in piped.stdout.splitlines()] == ["stdout"] * 2
    assert "Traceback" not in piped.stderr


CRASHERS = f"""version: 1
processes:
  instant:
    args: [{PY}, -c, "import sys; print('no config', file=sys.stderr); sys.exit(2)"]
  late:
    args: [{PY}, -c, "import sys,time; time.sleep(0.4); print('lost the db', file=sys.stderr); sys.exit(1)"]
    restart: {{policy: on-failure, backoff: {{initial: 30s}}}}
"""


def test_previous_and_last_failed_read_a_first_run_crash(
    make_project: Callable[[str], Project],
) -> None:
    p = make_project(CRASHERS)
    assert p.run("start", "instant")[0] == 1  # failed during start
    p.ok("start", "late")
    # run 1 crashed, run 2 not yet started
    assert wait_for(lambda: p.ok("status", "late")["status"] == "backoff")
    for name, text in (("instant", "no config"), ("late", "lost the db")):
        for run in ("previous", "last-failed"):
            lines = p.ok("logs", name, "--run", run, "--stream", "stderr")["lines"]
            assert [(line["run"], line["text"]) for line in lines] == [(1, text)], (name, run)


def test_names_no_log_folder_can_have_are_not_found(
    make_project: Callable[[str], Project],
) -> None:
    """`..` (the state directory itself) and a name longer than a file name may be: no
    process, exit 2, whether or not the store exists."""
    p = make_project(CONFIG)
    p.ok("start", "talker")
    assert wait_for(lambda: texts(p.ok("logs", "talker")) == ["hello", "oops"])
    for name in ("..", ".", "a" * 300, "talker/..", "é" * 200):
        code, env = p.run("logs", name)
        assert (code, env["error_code"]) == (2, "PROCESS_NOT_FOUND"), (name, env)


def test_a_follow_that_saw_nothing_ends_with_its_cursor_and_resumes_from_it(
    make_project: Callable[[str], Project],
) -> None:
    """`logs --follow --timeout` with no new line printed nothing at all; its last line now
    says the timeout passed and where to resume, and resuming there loses no line."""
    p = make_project(CONFIG)
    p.ok("start", "talker")
    assert wait_for(lambda: texts(p.ok("logs", "talker")) == ["hello", "oops"])

    def follow(*extra: str) -> list[dict[str, Any]]:
        proc = subprocess.run(
            [PROCLER, "logs", "talker", "--follow", "--timeout", "200ms", *extra],
            cwd=p.root, capture_output=True, text=True, timeout=30,
        )  # fmt: skip
        assert proc.returncode == 0, proc.stderr
        return [json.loads(line) for line in proc.stdout.splitlines()]

    (end,) = follow("--tail", "0")
    assert (end["end"], end["timeout_seconds"], end["lines"]) == ("timeout", 0.2, 0)
    assert end["cursor"] == p.ok("logs", "talker")["cursor"]
    assert follow("--after", end["cursor"]) == [end]
    p.ok("restart", "talker")
    assert wait_for(lambda: texts(p.ok("logs", "talker")) == ["hello", "oops"])
    *lines, _ = follow("--after", end["cursor"], "--run", "all")
    assert [(x["run"], x["text"]) for x in lines] == [(2, "hello"), (2, "oops")]


def test_a_scheduled_process_between_runs_shows_its_last_run_by_default(
    make_project: Callable[[str], Project], tmp_path: Path
) -> None:
    p = make_project(f"""version: 1
processes:
  cleanup:
    args: [{PY}, -c, "import os; n = len(os.listdir('{tmp_path}/runs')); open(f'{tmp_path}/runs/{{n}}', 'w'); print(f'cleaned {{n + 1}}')"]
    schedule: "0 0 1 1 *"
""")
    (tmp_path / "runs").mkdir()
    p.ok("start", "cleanup")
    for run in (1, 2):
        # it answers once the run started: a run that ended within its start grace did
        # not leave it waiting for its whole --timeout (30 s) any more
        assert p.run("schedule", "run-now", "cleanup", timeout=20)[0] == 0
        assert wait_for(
            lambda: (
                (s := p.ok("status", "cleanup"))["run"] == run  # noqa: B023
                and s["status"] == "scheduled"
            )
        )
    assert wait_for(lambda: texts(p.ok("logs", "cleanup")) == ["cleaned 2"])
    assert [line["run"] for line in p.ok("logs", "cleanup")["lines"]] == [2]
    assert texts(p.ok("logs", "cleanup", "--run", "all")) == ["cleaned 1", "cleaned 2"]
    # the help says what the default is, and that it is not every run
    help_text = subprocess.run(
        [PROCLER, "logs", "--help"], capture_output=True, text=True, check=True
    ).stdout
    assert "current run by default" in help_text
    assert "current (the default: the run going on; between runs, e.g. a scheduled" in help_text
