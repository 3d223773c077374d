"""Special files named where Procler reads a file: an env_file, an import's source, the
config an import merges into, a nested Procfile. A FIFO or `/dev/stdin` (an open pipe)
hung `config validate`, `status` and `import`; `/dev/zero` ran them out of memory (exit 3).
Each is refused before it is read; every run is a child capped at 1 GiB and 60 s."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from procler_testkit.config_helpers import write_config

PROCLER = [sys.executable, "-c", "from procler.cli import main; main()"]
NOT_REGULAR = "name a regular file; pipes, devices and sockets are never read"


def capped(cwd: Path, *args: str) -> tuple[int, dict[str, Any]]:
    """procler run with stdin an open pipe nobody writes to (so /dev/stdin would block),
    its address space capped at 1 GiB and its run at 60 s."""

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    env = {k: v for k, v in os.environ.items() if not k.startswith("PROCLER_")}
    with subprocess.Popen(
        [*PROCLER, *args],
        cwd=cwd,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=cap,
    ) as proc:
        try:
            out, _ = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            pytest.fail(f"procler {' '.join(args)} still running after 60 s")
    return proc.returncode, json.loads(out)


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "pipe"
    os.mkfifo(path)
    return path


def test_env_files_that_are_not_regular_files_are_findings(project: Path, fifo: Path) -> None:
    write_config(
        project,
        f"""
        version: 1
        processes:
          a:
            command: sleep 60
            env_file: [/dev/stdin, {fifo}, /dev/zero]
        """,
    )
    for command in (["config", "validate"], ["status"]):
        code, env = capped(project, *command)
        errors = env["data"]["errors"]
        assert (code, env["success"], env["error_code"]) == (2, False, "CONFIG_INVALID"), env
        assert [(e["path"], e["line"], e["column"], e["message"]) for e in errors] == [
            ("processes.a.env_file[0]", 5, 16, "env_file /dev/stdin: is a pipe (FIFO), not a regular file"),
            ("processes.a.env_file[1]", 5, 28, f"env_file {fifo}: is a pipe (FIFO), not a regular file"),
            ("processes.a.env_file[2]", 5, 30 + len(str(fifo)), "env_file /dev/zero: is a character device, not a regular file"),
        ]  # fmt: skip


def test_an_env_file_past_its_bound_is_a_finding(project: Path) -> None:
    from procler.config.dotenv import MAX_ENV_FILE_BYTES

    (project / "big.env").write_bytes(b"A=" + b"x" * MAX_ENV_FILE_BYTES)
    write_config(project, "version: 1\nprocesses:\n  a: {command: x, env_file: big.env}\n")
    code, env = capped(project, "config", "validate")
    assert (code, env["error_code"]) == (2, "CONFIG_INVALID")
    assert [e["message"] for e in env["data"]["errors"]] == [
        f"env_file {project / 'big.env'}: larger than {MAX_ENV_FILE_BYTES} bytes"
    ]


@pytest.mark.parametrize("kind", ["procfile", "compose", "procler03"])
@pytest.mark.parametrize("source", ["fifo", "/dev/zero", "/dev/stdin"])
def test_an_import_source_that_is_not_a_regular_file_is_refused(
    project: Path, fifo: Path, kind: str, source: str
) -> None:
    path = str(fifo) if source == "fifo" else source
    code, env = capped(project, "import", kind, path, "-o", "new.yaml")
    what = "a character device" if source == "/dev/zero" else "a pipe (FIFO)"
    assert (code, env["error_code"], env["error"], env["suggestion"]) == (
        2,
        "NOT_REGULAR_FILE",
        f"{path}: is {what}, not a regular file",
        NOT_REGULAR,
    )
    assert not (project / "new.yaml").exists()


@pytest.mark.parametrize("target", ["/dev/zero", "fifo", "folder"])
def test_merging_into_a_target_that_is_not_a_regular_file_is_refused(
    project: Path, fifo: Path, target: str
) -> None:
    (project / "Procfile").write_text("web: serve\n", encoding="utf-8")
    (project / "folder").mkdir()
    path = {"/dev/zero": "/dev/zero", "fifo": str(fifo), "folder": "folder"}[target]
    code, env = capped(project, "import", "procfile", "Procfile", "--merge", "-o", path)
    what = {"/dev/zero": "a character device", "fifo": "a pipe (FIFO)", "folder": "a folder"}
    assert (code, env["error_code"], env["error"]) == (
        2,
        "NOT_REGULAR_FILE",
        f"-o {path}: is {what[target]}, not a regular file",
    )
    assert sorted(p.name for p in project.iterdir()) == ["Procfile", "folder"]


def test_a_nested_procfile_that_is_a_pipe_stays_one_process(project: Path) -> None:
    (project / "sub").mkdir()
    os.mkfifo(project / "sub" / "Procfile")
    (project / "Procfile").write_text("web: serve\njobs: cd sub && foreman start\n")
    code, env = capped(project, "import", "procfile", "Procfile", "--dry-run")
    assert (code, env["data"]["processes"]) == (0, ["web", "jobs"])
    assert [(w["process"], w["message"]) for w in env["data"]["warnings"]] == [
        ("jobs", "sub/Procfile: is a pipe (FIFO), not a regular file: kept as one process")
    ]
