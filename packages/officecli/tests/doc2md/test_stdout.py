"""`doc2md FILE -o -` / `--stdout`: the Markdown on stdout, the report on stderr as one JSON
line (or in --report FILE), nothing written, exit codes as with -d."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from agentcli.report import report_schema
from officecli.doc2md import convert

ENTRY = "from officecli.doc2md.cli import main; main()"
CORPUS = Path(__file__).resolve().parents[4] / ".." / "shared" / "corpus" / "markitdown"


def run(cwd: Path, *args: str | Path) -> tuple[int, str, list[str]]:
    """Exit code, stdout, and stderr's lines of doc2md run in `cwd`."""
    done = subprocess.run(
        [sys.executable, "-c", ENTRY, *map(str, args)],
        capture_output=True,
        text=True,
        check=False,
        cwd=cwd,
        timeout=120,
    )
    return done.returncode, done.stdout, done.stderr.splitlines()


@pytest.mark.parametrize("flags", [("-o", "-"), ("--stdout",)])
def test_markdown_goes_to_stdout_and_the_report_to_stderr(
    tmp_path: Path, flags: tuple[str, ...]
) -> None:
    code, out, err = run(tmp_path, CORPUS / "test.docx", *flags)
    assert code == 0
    assert out == convert(CORPUS / "test.docx").markdown  # the CLI is the API's Markdown
    [line] = err
    report = json.loads(line)
    jsonschema.validate(report, report_schema())
    assert [f["rule_id"] for f in report["findings"]] == [
        "convert.ok",
        "convert.images_not_written",
    ]
    assert report["findings"][0]["field"] == "-"
    assert list(tmp_path.iterdir()) == []  # no out/, no manifest, no picture


def test_the_report_can_go_to_a_file_and_front_matter_to_stdout(tmp_path: Path) -> None:
    code, out, err = run(
        tmp_path, CORPUS / "test.xlsx", "--stdout", "--front-matter", "--report", "r.md",
        "-f", "markdown",
    )  # fmt: skip
    assert (code, err) == (0, [])
    assert out.startswith('---\nsource: "test.xlsx"\nsource_sha256: "')
    assert out.endswith(convert(CORPUS / "test.xlsx").markdown)
    assert (tmp_path / "r.md").read_text("utf-8").startswith("# doc2md conversion report\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.md"]


def test_exit_codes_are_those_of_a_run_into_a_folder(tmp_path: Path) -> None:
    broken = tmp_path / "broken.docx"
    broken.write_bytes(b"PK\x03\x04 not a zip")
    code, out, err = run(tmp_path, broken, "-o", "-")
    report = json.loads(err[-1])
    assert (code, out, report["findings"][0]["field"]) == (2, "", "BROKEN_FILE")
    code, out, _ = run(tmp_path, broken, "-o", "-", "--continue-on-error")
    assert (code, out) == (0, "")
    big = tmp_path / "big.xlsx"
    _book(big)
    code, out, err = run(tmp_path, big, "--stdout", "--max-cells", "4", "--strict")
    assert code == 1  # a warning (cut) with --strict
    assert "| r1 | 1 |" in out
    assert "convert.truncated" in [f["rule_id"] for f in json.loads(err[-1])["findings"]]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.xlsx", "broken.docx"]


def _book(path: Path) -> None:
    from officecli_testkit.sheets import active_sheet
    from openpyxl import Workbook

    book = Workbook()
    sheet = active_sheet(book)
    for row in range(1, 6):
        sheet.append([f"r{row}", row])
    book.save(path)


def test_several_files_to_stdout_are_refused_saying_what_to_do(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.docx").write_bytes((CORPUS / "test.docx").read_bytes())
    (folder / "b.docx").write_bytes((CORPUS / "test.docx").read_bytes())
    for args in (
        (CORPUS / "test.docx", CORPUS / "test.xlsx", "-o", "-"),
        ("-r", folder, "--stdout"),
    ):
        code, out, err = run(tmp_path, *args)
        [line] = err
        envelope: dict[str, Any] = json.loads(line)
        assert (code, out, envelope["error_code"]) == (2, "", "USAGE")
        assert envelope["error"] == (
            "--stdout prints one document; 2 were given (one stream cannot tell where each begins)"
        )
        assert envelope["suggestion"].startswith("convert several files with -d DIR")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["docs"]
