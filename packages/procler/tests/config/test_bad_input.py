"""Input Procler cannot use is refused with exit 2 before anything is written."""

from __future__ import annotations

import contextlib
import os
import subprocess
from pathlib import Path

import pytest
from procler_testkit.config_helpers import errors_of, run_procler, write_config

from procler.config.keys import NAME_HINT
from procler.contexts.container_kind import IMAGE_HINT

VALID = "version: 1\nprocesses:\n  db: {command: sleep 60}\n"


def test_an_image_name_docker_would_refuse_is_a_finding(project: Path) -> None:
    path = write_config(project, "processes:\n  c: {context: docker, docker: {image: 'BAD::x'}}\n")
    assert [(e["message"], e["suggestion"]) for e in errors_of(path)] == [
        ("'BAD::x' is not an image reference", IMAGE_HINT)
    ]


def test_run_with_a_refused_image_leaves_no_definition(project: Path) -> None:
    write_config(project, VALID)
    code, env = run_procler(project, "run", "web", "--image", "BAD::x", "--", "sh")
    assert (code, env["error_code"], env["error"]) == (
        2,
        "USAGE",
        "--image 'BAD::x' is not an image reference",
    )
    assert not (project / ".procler" / "state" / "definitions.json").exists()
    assert [p["name"] for p in run_procler(project, "list")[1]["data"]["processes"]] == ["db"]


def test_names_longer_than_the_log_store_holds_are_refused(project: Path) -> None:
    long = "a" * 129
    path = write_config(project, f"processes:\n  {long}: {{command: x}}\n")
    assert [(e["message"], e["suggestion"]) for e in errors_of(path)] == [
        (f"invalid name {long!r}", NAME_HINT)
    ]
    write_config(project, VALID)
    code, env = run_procler(project, "define", long, "--command", "sleep 1")
    assert (code, env["error_code"], env["suggestion"]) == (2, "USAGE", NAME_HINT)
    assert "128" in NAME_HINT


def test_an_env_file_error_names_the_line_and_never_prints_it(project: Path) -> None:
    (project / "secrets.env").write_text("TOKEN=1\nroot:$6$hash:19000:0:99999:7:::\n")
    path = write_config(project, "processes:\n  a: {command: x, env_file: secrets.env}\n")
    (finding,) = errors_of(path)
    assert finding["message"] == (
        f"cannot read env_file {project / 'secrets.env'}: line 2 is not KEY=VALUE"
    )
    assert "$6$hash" not in str(finding)


def test_a_cwd_that_is_a_file_is_a_finding_and_define_refuses_one(project: Path) -> None:
    path = write_config(project, "processes:\n  a:\n    command: x\n    cwd: /etc/passwd\n")
    assert [(e["line"], e["column"], e["path"], e["message"]) for e in errors_of(path)] == [
        (4, 10, "processes.a.cwd", "cwd /etc/passwd is not a directory")
    ]
    write_config(project, VALID)
    code, env = run_procler(project, "define", "x", "--command", "true", "--cwd", "/dev/zero")
    assert (code, env["error_code"], env["error"]) == (
        2,
        "USAGE",
        "--cwd /dev/zero is not a directory",
    )
    assert not (project / ".procler" / "state" / "definitions.json").exists()


def test_a_cwd_that_became_a_file_fails_the_start_with_a_code(project: Path) -> None:
    """A runtime definition stored before the check (or a folder replaced by a file since):
    the start says so, and the next command still works."""
    write_config(project, VALID)
    (project / "work").mkdir()
    assert run_procler(project, "define", "x", "--command", "sleep 60", "--cwd", "work")[0] == 0
    (project / "work").rmdir()
    (project / "work").write_text("now a file\n")
    try:
        code, env = run_procler(project, "start", "x")
        assert (code, env["error_code"], env["error"]) == (
            1,
            "START_FAILED",
            f"x: cannot start: Not a directory: {project / 'work'}",
        )
        code, env = run_procler(project, "restart", "--all")
        assert (code, env["error_code"]) == (1, "START_FAILED")
        assert run_procler(project, "remove", "x")[0] == 0
        assert run_procler(project, "up")[0] == 0
    finally:
        run_procler(project, "daemon", "stop")


@pytest.mark.parametrize("missing", ["process", "condition"])
def test_a_wait_for_step_missing_a_key_is_a_finding(project: Path, missing: str) -> None:
    step = {"process": "process: db", "condition": "condition: running"}
    del step[missing]
    path = write_config(
        project,
        VALID + f"recipes:\n  r:\n    steps:\n      - wait_for: {{{next(iter(step.values()))}}}\n",
    )
    assert [(e["line"], e["path"], e["message"]) for e in errors_of(path)] == [
        (7, "recipes.r.steps[0].wait_for", f"missing required key {missing!r}")
    ]
    code, env = run_procler(project, "config", "validate")
    assert code != 3 and env["data"]["errors"][0]["path"] == "recipes.r.steps[0].wait_for"


def test_define_on_a_full_disk_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    """The project on a tmpfs of 256 KiB, filled up: define answers exit 2, the state
    directory holds no half-written or temporary file, and the old definitions stay."""
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(disk)], capture_output=True
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        write_config(disk, VALID)
        assert run_procler(disk, "define", "first", "--command", "sleep 1")[0] == 0
        state = disk / ".procler" / "state"
        before = {p.name: p.read_bytes() for p in state.iterdir()}
        filler = os.open(disk / "filler", os.O_WRONLY | os.O_CREAT, 0o600)
        with contextlib.suppress(OSError):  # ENOSPC once the disk is full
            while True:
                os.write(filler, b"\0" * 4096)
        os.close(filler)
        code, env = run_procler(disk, "define", "second", "--command", "sleep 2")
        assert (code, env["error_code"], env["suggestion"]) == (
            2,
            "STATE_DIR_UNWRITABLE",
            "free some space on the disk holding it, then retry",
        )
        assert env["error"] == (
            f"cannot write {state / 'definitions.json'}: No space left on device; "
            "nothing was changed"
        )
        assert {p.name: p.read_bytes() for p in state.iterdir()} == before
    finally:
        subprocess.run(["umount", "--lazy", str(disk)], check=True)


@pytest.mark.parametrize(
    ("content", "where", "message"),
    [
        (
            b"version: 1\nprocesses:\n  a: {command: 'x\x00y'}\n",
            (3, 18),
            "YAML error: the character U+0000 is not allowed in YAML",
        ),
        (
            "version: 1\nprocesses:\n  \u00e9t\u00e9: {command: x}\n".encode() + b"  b: \xff\n",
            (4, 6),
            "the config file is not UTF-8: byte 0xff cannot start a character here",
        ),
    ],
)
def test_a_file_yaml_cannot_read_is_a_finding_where_it_breaks(
    project: Path, content: bytes, where: tuple[int, int], message: str
) -> None:
    path = write_config(project, "")
    path.write_bytes(content)
    assert [((e["line"], e["column"]), e["message"]) for e in errors_of(path)] == [(where, message)]


@pytest.mark.parametrize(
    "text",
    [
        "snippets:\n  s: {command: x, tags: 7}\n",
        "snippets:\n  s: {command: x, args: {N: {choices: 7}}}\n",
        "snippets:\n  s: {command: x}\nrecipes:\n  r: {steps: [{snippet: s, args: 7}]}\n",
    ],
)
def test_a_list_or_mapping_of_the_wrong_shape_in_snippets_is_a_finding(
    project: Path, text: str
) -> None:
    """Each crashed the builder (TypeError, AttributeError: exit 3) after the schema's
    finding."""
    path = write_config(project, text)
    errors = errors_of(path)
    assert len(errors) == 1 and errors[0]["line"] >= 2, errors
