"""doc2md's command line: dry runs, naming, failures, strictness, exit codes."""

from __future__ import annotations

import shutil
from pathlib import Path

import jsonschema
from officecli_testkit.doc2md_helpers import Rules, Run

from agentcli.report import report_schema


def test_dry_run_writes_nothing(run_doc2md: Run, corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    code, report = run_doc2md(corpus / "markitdown" / "test.docx", "-d", out, "--dry-run")
    assert code == 0
    assert not out.exists()
    planned = [f for f in report["findings"] if f["rule_id"] == "convert.dry_run"]
    assert planned[0]["field"] == f"{out / 'test.md'}, {out / 'test_assets' / 'image1.png'}"


def test_recursive_outputs_keep_the_tree(run_doc2md: Run, corpus: Path, tmp_path: Path) -> None:
    source = tmp_path / "src"
    (source / "b").mkdir(parents=True)
    shutil.copy(corpus / "markitdown" / "test.docx", source / "test.docx")
    shutil.copy(corpus / "markitdown" / "test.docx", source / "b" / "test.docx")
    code, _ = run_doc2md("-r", source, "-d", tmp_path / "out")
    assert code == 0
    names = sorted(
        p.relative_to(tmp_path / "out").as_posix() for p in (tmp_path / "out").rglob("*.md")
    )
    assert names == ["b/test.md", "test.md"]
    assert (tmp_path / "out" / "b" / "test_assets" / "image1.png").is_file()


def test_output_never_overwrites_an_input(run_doc2md: Run, corpus: Path, tmp_path: Path) -> None:
    odd = tmp_path / "test.md.docx"
    shutil.copy(corpus / "markitdown" / "test.docx", odd)
    shutil.copy(corpus / "markitdown" / "test.docx", tmp_path / "test.docx")
    code, _ = run_doc2md(tmp_path / "test.docx", odd, "-d", tmp_path)
    assert code == 0
    assert sorted(p.name for p in tmp_path.glob("*.md")) == ["test.md", "test.md.md"]
    assert (tmp_path / "test.md.docx").read_bytes() == (
        corpus / "markitdown" / "test.docx"
    ).read_bytes()


def test_broken_file_fails_alone_and_exits_2(
    run_doc2md: Run, corpus: Path, tmp_path: Path, rules: Rules
) -> None:
    broken = tmp_path / "broken.docx"
    broken.write_bytes(b"PK\x03\x04 not really a zip")
    good = corpus / "markitdown" / "test.xlsx"
    code, report = run_doc2md(broken, good, "-d", tmp_path / "out")
    jsonschema.validate(report, report_schema())
    assert code == 2  # bad input, not a bug
    assert rules(report, "error") == ["convert.failed"]
    failed = report["findings"][0]
    assert failed["field"] == "BROKEN_FILE"
    assert (tmp_path / "out" / "test.md").exists()
    assert not (tmp_path / "out" / "broken.md").exists()
    code, _ = run_doc2md(broken, good, "-d", tmp_path / "out", "--continue-on-error")
    assert code == 0


def test_encrypted_and_unsupported_files(run_doc2md: Run, corpus: Path, tmp_path: Path) -> None:
    encrypted = tmp_path / "secret.xlsx"
    encrypted.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 504)
    unsupported = tmp_path / "notes.txt"
    unsupported.write_text("hello", "utf-8")
    code, report = run_doc2md(encrypted, unsupported, "-d", tmp_path / "out")
    assert code == 2
    assert [f["field"] for f in report["findings"]] == ["ENCRYPTED_FILE", "UNSUPPORTED_FORMAT"]


def test_missing_input_is_a_usage_error(run_doc2md: Run, tmp_path: Path) -> None:
    code, envelope = run_doc2md(tmp_path / "nope.docx")
    assert code == 2
    assert envelope["error_code"] == "INVALID_INPUT"


def test_directory_needs_recursive(run_doc2md: Run, tmp_path: Path) -> None:
    code, envelope = run_doc2md(tmp_path)
    assert code == 2
    assert envelope["error_code"] == "USAGE"


def test_an_empty_input_path_is_not_the_current_directory(run_doc2md: Run) -> None:
    code, envelope = run_doc2md("")
    assert (code, envelope["error_code"], envelope["error"]) == (
        2,
        "USAGE",
        "an input path is empty",
    )


def test_strict_turns_warnings_into_exit_1(run_doc2md: Run, tmp_path: Path, rules: Rules) -> None:
    from officecli_testkit.sheets import active_sheet
    from openpyxl import Workbook

    book = Workbook()
    sheet = active_sheet(book)
    for row in range(1, 21):
        sheet.append([f"r{row}", row])
    book.save(tmp_path / "big.xlsx")
    code, report = run_doc2md(tmp_path / "big.xlsx", "-d", tmp_path / "out", "--max-cells", "10")
    assert code == 0
    assert "convert.truncated" in rules(report, "warning")
    code, _ = run_doc2md(
        tmp_path / "big.xlsx", "-d", tmp_path / "out", "--max-cells", "10", "--strict"
    )
    assert code == 1


def test_many_files_use_the_pool_and_keep_order(
    run_doc2md: Run, corpus: Path, tmp_path: Path
) -> None:
    files = sorted((corpus / "drawio").glob("*.drawio"))
    code, report = run_doc2md(*files, "-d", tmp_path, "-j", "2", "--no-llms-txt")
    assert code == 0
    assert [f["location"] for f in report["findings"]] == [str(f) for f in files]
