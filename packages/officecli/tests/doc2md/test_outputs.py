"""Inputs are never lost: outputs never land on inputs, nor on another source's output."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from officecli_testkit.bomb_files import operators_pdf
from officecli_testkit.doc2md_helpers import Run

ENTRY = "from officecli.doc2md.cli import main; main()"

DOCX = Path(__file__).resolve().parents[4] / ".." / "shared" / "corpus" / "markitdown" / "test.docx"


def test_report_onto_the_input_is_refused_and_the_input_kept(
    run_doc2md: Run, tmp_path: Path
) -> None:
    source = tmp_path / "test.docx"
    source.write_bytes(DOCX.read_bytes())
    code, env = run_doc2md(source, "-o", source, "-d", tmp_path / "out")
    assert (code, env["error_code"]) == (2, "OUTPUT_IS_INPUT")
    assert source.read_bytes() == DOCX.read_bytes()
    assert not (tmp_path / "out").exists()


def test_report_onto_a_hard_link_of_the_input_is_refused(run_doc2md: Run, tmp_path: Path) -> None:
    source = tmp_path / "test.docx"
    source.write_bytes(DOCX.read_bytes())
    os.link(source, tmp_path / "alias.json")
    code, env = run_doc2md(source, "-o", tmp_path / "alias.json", "-d", tmp_path / "out")
    assert (code, env["error_code"]) == (2, "OUTPUT_IS_INPUT")
    assert source.read_bytes() == DOCX.read_bytes()


def test_markdown_onto_a_hard_link_of_an_input_is_refused(run_doc2md: Run, tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    source = tmp_path / "test.docx"
    source.write_bytes(DOCX.read_bytes())
    os.link(source, out / "test.md")  # what -d would write is the input itself
    code, env = run_doc2md(source, "-d", out)
    assert (code, env["error_code"]) == (2, "OUTPUT_IS_INPUT")
    assert source.read_bytes() == DOCX.read_bytes()
    assert sorted(p.name for p in out.iterdir()) == ["test.md"]


def test_output_folder_that_is_a_file_is_exit_2(run_doc2md: Run, tmp_path: Path) -> None:
    (tmp_path / "out").write_text("x", encoding="utf-8")
    code, env = run_doc2md(DOCX, "-d", tmp_path / "out")
    assert (code, env["error_code"]) == (2, "USAGE")
    assert (tmp_path / "out").read_text(encoding="utf-8") == "x"


def test_another_source_is_never_replaced_even_with_force(run_doc2md: Run, tmp_path: Path) -> None:
    first, second = tmp_path / "a" / "test.docx", tmp_path / "b" / "test.docx"
    for path in (first, second):
        path.parent.mkdir()
        path.write_bytes(DOCX.read_bytes())
    out = tmp_path / "out"
    assert run_doc2md(first, "-d", out)[0] == 0
    written = (out / "test.md").read_bytes()
    assert run_doc2md(first, "-d", out)[0] == 0  # the same source again is fine
    for extra in ((), ("--force",)):
        code, env = run_doc2md(second, "-d", out, *extra)
        assert (code, env["error_code"]) == (2, "OUTPUT_CONFLICT")
        assert "--force" not in env["suggestion"].replace("--force never", "")
        assert (out / "test.md").read_bytes() == written
    recorded = json.loads((out / ".doc2md-manifest.json").read_text("utf-8"))
    [(name, entry)] = recorded["outputs"].items()
    assert (name, entry["source"], entry["assets"]) == (
        "test.md", str(first.resolve()), ["image1.png"]
    )  # fmt: skip
    # no temporary file is left beside the outputs
    assert sorted(p.name for p in out.iterdir()) == [
        ".doc2md-manifest.json",
        "test.md",
        "test_assets",
    ]


def test_sigterm_removes_temporary_files_as_sigint_does(tmp_path: Path) -> None:
    slow = tmp_path / "slow.pdf"  # a minute of reading, within every limit: surely in progress
    slow.write_bytes(operators_pdf(b"(AAAAAAAAAA) Tj\n", 9000, pages=20))
    temp = tmp_path / "tmp"
    temp.mkdir()
    env = {**os.environ, "TMPDIR": str(temp)}
    proc = subprocess.Popen(
        [sys.executable, "-c", ENTRY, str(DOCX), str(slow), "-d", str(tmp_path / "out")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    first = tmp_path / "out" / "test.md"  # written before the slow file is read
    deadline = time.monotonic() + 60
    while not first.exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert first.exists() and proc.poll() is None, proc.communicate(timeout=60)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, (out[-2000:], err[-4000:])
    assert json.loads(out)["error_code"] == "INTERRUPTED"
    assert list(temp.iterdir()) == []
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        ".doc2md-manifest.json",
        "test.md",
        "test_assets",
    ]


def test_damaged_empty_and_unsupported_inputs_of_every_format_are_exit_2(
    run_doc2md: Run, tmp_path: Path
) -> None:
    from officecli.readers.registry import DOCUMENT_EXTENSIONS

    files = []
    for ext in (*DOCUMENT_EXTENSIONS, ".txt"):
        for kind, data in (
            ("empty", b""),
            ("zip", b"PK\x03\x04garbage"),
            ("junk", b"\x00\xff" * 900),
        ):
            path = tmp_path / f"{kind}{ext}"
            path.write_bytes(data)
            files.append(path)
    code, report = run_doc2md(*files, "-d", tmp_path / "out", "-j", "1", "--keep-ext")
    codes = {f["field"] for f in report["findings"]}
    assert code == 2
    assert codes == {"BROKEN_FILE", "UNSUPPORTED_FORMAT"}
    assert len(report["findings"]) == len(files)
