from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from agentcli_testkit import SAMPLE, SAMPLE_ENV

from agentcli.errors import UsageError
from agentcli.outputs import (
    OutputIsInputError,
    check_output_dir,
    check_output_file,
    refuse_inputs,
    write_atomic,
)


def sample(*args: str | Path, cwd: Path) -> tuple[int, dict[str, object]]:
    done = subprocess.run(
        [*SAMPLE, *map(str, args)],
        capture_output=True,
        cwd=cwd,
        env=SAMPLE_ENV,
        timeout=60,
        check=False,
    )
    return done.returncode, json.loads(done.stdout)


def test_report_onto_its_input_is_refused_and_the_input_kept(tmp_path: Path) -> None:
    data = tmp_path / "data.csv"
    data.write_text("a,b\n", encoding="utf-8")
    code, env = sample("check", data, "-o", data, cwd=tmp_path)
    assert (code, env["error_code"]) == (2, "OUTPUT_IS_INPUT")
    assert data.read_text(encoding="utf-8") == "a,b\n"


def test_report_onto_a_hard_link_of_its_input_is_refused(tmp_path: Path) -> None:
    data = tmp_path / "data.csv"
    data.write_text("a,b\n", encoding="utf-8")
    os.link(data, tmp_path / "alias.csv")
    code, env = sample("check", "data.csv", "-o", "alias.csv", cwd=tmp_path)
    assert (code, env["error_code"]) == (2, "OUTPUT_IS_INPUT")
    assert data.read_text(encoding="utf-8") == "a,b\n"


@pytest.mark.parametrize("target", [".", "..", "sub/", "sub", "missing/report.json"])
def test_report_to_a_folder_or_into_a_missing_folder_is_exit_2(tmp_path: Path, target: str) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "data.csv").write_text("a\n", encoding="utf-8")
    code, env = sample("check", "data.csv", "-o", target, cwd=tmp_path)
    assert (code, env["error_code"]) == (2, "USAGE")


def test_a_name_longer_than_255_bytes_is_a_usage_error(tmp_path: Path) -> None:
    code, env = sample("check", "é" * 128 + ".csv", cwd=tmp_path)
    assert (code, env["error_code"]) == (2, "USAGE")


def test_symlink_to_an_input_is_the_input(tmp_path: Path) -> None:
    data = tmp_path / "data.csv"
    data.write_text("x", encoding="utf-8")
    (tmp_path / "link.csv").symlink_to(data)
    with pytest.raises(OutputIsInputError):
        refuse_inputs([tmp_path / "link.csv"], [data])
    refuse_inputs([tmp_path / "other.csv"], [data])  # a new file is fine


def test_output_dir_under_a_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x", encoding="utf-8")
    with pytest.raises(UsageError):
        check_output_dir(tmp_path / "file")
    with pytest.raises(UsageError):
        check_output_dir(tmp_path / "file" / "out")
    assert check_output_dir(tmp_path / "new" / "out") == tmp_path / "new" / "out"
    with pytest.raises(UsageError) as raised:
        check_output_dir(tmp_path / ("a" * 300))
    assert str(raised.value) == f"{tmp_path / ('a' * 300)}: File name too long"


def test_check_output_file_accepts_a_new_file(tmp_path: Path) -> None:
    assert check_output_file(tmp_path / "r.json") == tmp_path / "r.json"


class Boom(Exception):
    pass


def test_atomic_write_leaves_the_old_file_and_no_temporary_on_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "out.md"
    target.write_text("old", encoding="utf-8")

    def fail(src: str, dst: str) -> None:
        raise Boom

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(Boom):
        write_atomic(target, b"new")
    assert target.read_text(encoding="utf-8") == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.md"]


def test_atomic_write_replaces_with_the_umask_mode(tmp_path: Path) -> None:
    target = tmp_path / "out.md"
    write_atomic(target, b"new")
    mask = os.umask(0)
    os.umask(mask)
    assert (target.read_bytes(), target.stat().st_mode & 0o777) == (b"new", 0o666 & ~mask)


def test_a_pipe_target_is_written_in_place_not_replaced(tmp_path: Path) -> None:
    """`-o /dev/null` or a named pipe: renaming over it would replace the node with a file."""
    import stat
    import threading

    from agentcli.outputs import write_atomic

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    write_atomic(fifo, b"report\n")
    reader.join(10)
    assert got == [b"report\n"]
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]
