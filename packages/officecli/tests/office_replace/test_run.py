"""The whole run: dry run == real run, OUTDIR rules, renames of files, bad files, exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import docx
import openpyxl
import pytest
from officecli_testkit.replace_helpers import (
    W_NS,
    Replace,
    docx_body,
    findings,
    members,
    para,
    patch_zip,
    run,
    write_rules,
)
from officecli_testkit.sheets import active_sheet

RULES = [
    ["id", "find", "replace", "scope"],
    ["co", "Acme Corp", "Globex Inc", ""],
    ["fy", "2024", "2025", "filename"],
]


def tree(root: Path) -> Path:
    """A folder with a Word file and an Excel file in a subfolder, a file without a hit, and
    a file that is not an Office file."""
    (root / "sub").mkdir(parents=True)
    docx_body(root / "報告2024.docx", para(run("Acme Corp report")))
    wb = openpyxl.Workbook()
    active_sheet(wb)["A1"] = "Acme Corp"
    wb.save(root / "sub" / "見積.xlsx")
    docx_body(root / "sub" / "plain.docx", para(run("nothing to see")))
    (root / "notes.txt").write_text("Acme Corp", encoding="utf-8")
    return root


def snapshot(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()
    }


def test_the_dry_run_reports_what_the_real_run_writes(replace: Replace, tmp_path: Path) -> None:
    source = tree(tmp_path / "in")
    before = snapshot(source)
    rules = write_rules(tmp_path / "r.csv", RULES)
    code, planned = replace("-r", source, "--rules", rules, "--dry-run")
    assert code == 0
    code, done = replace("-r", source, "--rules", rules, "-d", tmp_path / "out")
    assert code == 0
    assert planned["findings"] == done["findings"]
    assert [(f["rule_id"], f["location"]) for f in done["findings"]] == [
        ("co", "sub/見積.xlsx :: Sheet!A1"),
        ("fy", "報告2024.docx :: file name"),
        ("co", "報告2024.docx :: body :: paragraph 1"),
    ]
    assert snapshot(source) == before
    out = tmp_path / "out"
    assert sorted(snapshot(out)) == [
        "notes.txt",
        "sub/plain.docx",
        "sub/見積.xlsx",
        "報告2025.docx",
    ]
    assert (out / "notes.txt").read_bytes() == before["notes.txt"]
    assert (out / "sub" / "plain.docx").read_bytes() == before["sub/plain.docx"]
    assert docx.Document(str(out / "報告2025.docx")).paragraphs[0].text == "Globex Inc report"
    assert (
        active_sheet(openpyxl.load_workbook(out / "sub" / "見積.xlsx"))["A1"].value == "Globex Inc"
    )
    changed, original = members(out / "報告2025.docx"), members(source / "報告2024.docx")
    assert [n for n in original if changed[n] != original[n]] == ["word/document.xml"]
    assert list(changed) == list(original)
    assert done["meta"] | {"dry_run": True, "out_dir": ""} == planned["meta"]
    assert {
        k: done["meta"][k] for k in ("files", "files_scanned", "files_changed", "files_copied")
    } == {"files": 4, "files_scanned": 3, "files_changed": 2, "files_copied": 2}
    assert (
        done["meta"]["rule co"],
        done["meta"]["rule fy"],
        done["meta"]["file 報告2024.docx"],
    ) == (2, 1, 2)
    assert (
        done["meta"]["skipped notes.txt"]
        == "not a Word, Excel or PowerPoint file; copied unchanged"
    )


@pytest.mark.parametrize("where", ["in", "in/deeper", "."])
def test_an_out_dir_equal_to_inside_or_containing_an_input_is_refused(
    replace: Replace, tmp_path: Path, where: str
) -> None:
    source = tree(tmp_path / "in")
    rules = write_rules(tmp_path / "r.csv", RULES)
    before = snapshot(tmp_path)
    code, envelope = replace("-r", source, "--rules", rules, "-d", tmp_path / where)
    assert (code, envelope["error_code"]) == (2, "BAD_OUT_DIR")
    assert snapshot(tmp_path) == before


def test_out_dir_is_required_and_nothing_is_overwritten_without_force(
    replace: Replace, tmp_path: Path
) -> None:
    source = tree(tmp_path / "in")
    rules = write_rules(tmp_path / "r.csv", RULES)
    code, envelope = replace("-r", source, "--rules", rules)
    assert (code, envelope["error_code"]) == (2, "BAD_OUT_DIR")
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "notes.txt").write_text("keep", encoding="utf-8")
    code, envelope = replace("-r", source, "--rules", rules, "-d", tmp_path / "out")
    assert (code, envelope["error_code"]) == (2, "BAD_OUT_DIR")
    assert envelope["error"] == f"1 output file(s) already exist: {tmp_path / 'out' / 'notes.txt'}"
    assert sorted(snapshot(tmp_path / "out")) == ["notes.txt"]
    code, _ = replace("-r", source, "--rules", rules, "-d", tmp_path / "out", "--force")
    assert code == 0
    assert (tmp_path / "out" / "notes.txt").read_text(encoding="utf-8") == "Acme Corp"


@pytest.mark.parametrize(
    ("find", "new", "message"),
    [
        ("報告2024", "plain", "1 output name(s) would be used twice: plain.docx and 報告2024.docx"),
        ("2024", "20:24", "1 new file name(s) are not valid: 報告2024.docx -> 報告20:24.docx"),
        ("報告2024", "CON", "報告2024.docx -> CON.docx: is reserved or empty"),
    ],
)
def test_bad_file_renames_are_exit_2(
    replace: Replace, tmp_path: Path, find: str, new: str, message: str
) -> None:
    source = tree(tmp_path / "in")
    (source / "plain.docx").write_bytes((source / "sub" / "plain.docx").read_bytes())
    rules = write_rules(tmp_path / "r.csv", [["find", "replace", "scope"], [find, new, "filename"]])
    code, envelope = replace("-r", source, "--rules", rules, "-d", tmp_path / "out")
    assert (code, envelope["error_code"]) == (2, "BAD_NEW_NAME")
    assert message in envelope["error"]
    assert not (tmp_path / "out").exists()


def test_unreadable_files_fail_alone_and_nothing_is_half_written(
    replace: Replace, tmp_path: Path
) -> None:
    source = tree(tmp_path / "in")
    (source / "broken.docx").write_bytes(b"PK\x03\x04 not really a zip")
    (source / "locked.xlsx").write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 512)
    docx_body(source / "entity.docx", para(run("x")))
    patch_zip(
        source / "entity.docx",
        {
            "word/document.xml": lambda xml: xml.replace(
                "?>", '?><!DOCTYPE d [<!ENTITY e "Acme Corp">]>', 1
            )
        },
    )
    docx_body(source / "strict.docx", para(run("Acme Corp")))
    patch_zip(
        source / "strict.docx",
        {
            "word/document.xml": lambda xml: xml.replace(
                W_NS, "http://purl.oclc.org/ooxml/wordprocessingml/main"
            )
        },
    )
    docx_body(source / "bomb.docx", para(run("x")))
    patch_zip(source / "bomb.docx", {"word/media/zeros.bin": "0" * (4 << 20)})  # ~1000:1
    rules = write_rules(tmp_path / "r.csv", RULES)
    code, report = replace("-r", source, "--rules", rules, "-d", tmp_path / "out")
    assert code == 2
    assert [(f["location"], f["field"]) for f in findings(report, "replace.failed")] == [
        ("bomb.docx", "UNSAFE_FILE"),
        ("broken.docx", "BROKEN_FILE"),
        ("entity.docx", "UNSAFE_FILE"),
        ("locked.xlsx", "ENCRYPTED_FILE"),
        ("strict.docx", "UNSUPPORTED_FORMAT"),
    ]
    assert not (tmp_path / "out").exists()
    code, report = replace(
        "-r", source, "--rules", rules, "-d", tmp_path / "out", "--continue-on-error"
    )
    assert code == 0
    assert report["meta"]["files_failed"] == 5
    assert sorted(snapshot(tmp_path / "out")) == [
        "notes.txt",
        "sub/plain.docx",
        "sub/見積.xlsx",
        "報告2025.docx",
    ]
    assert [p.name for p in (tmp_path / "out").rglob(".*")] == []


def test_include_exclude_and_fail_on(replace: Replace, tmp_path: Path) -> None:
    source = tree(tmp_path / "in")
    rules = write_rules(tmp_path / "r.csv", RULES)
    code, report = replace(
        "-r", source, "--rules", rules, "--dry-run", "--exclude", "sub/*", "--fail-on", "info"
    )
    assert code == 1
    assert {f["location"].partition(" :: ")[0] for f in report["findings"]} == {"報告2024.docx"}
    assert (
        report["meta"]["skipped sub/見積.xlsx"]
        == "excluded by --include/--exclude; copied unchanged"
    )
    code, report = replace(
        "-r", source, "--rules", rules, "--dry-run", "--include", "*.xlsx", "--fail-on", "warning"
    )
    assert code == 0
    assert [f["location"] for f in report["findings"]] == ["sub/見積.xlsx :: Sheet!A1"]


def test_the_console_script_takes_inputs_without_a_command_word(tmp_path: Path) -> None:
    source = tree(tmp_path / "in")
    rules = write_rules(tmp_path / "r.csv", RULES)
    entry = "from officecli.office_replace.cli import main; main()"
    proc = subprocess.run(
        [sys.executable, "-c", entry, "-v", "-r", str(source), "--rules", str(rules), "--dry-run", "-f", "csv"],
        capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 0
    assert (
        proc.stdout.splitlines()[0]
        == "severity,rule_id,location,field,message,expected,actual,suggestion"
    )
    assert len(proc.stdout.splitlines()) == 4
    assert "3 file(s) scanned, 2 changed, 0 failed" in proc.stderr
    assert "Acme" not in proc.stderr
    caps = subprocess.run(
        [sys.executable, "-c", entry, "capabilities"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    assert json.loads(caps.stdout)["data"]["commands"][0]["name"] == "replace"


def test_an_unknown_story_is_a_usage_error(replace: Replace, tmp_path: Path) -> None:
    source = tree(tmp_path / "in")
    rules = write_rules(tmp_path / "r.csv", RULES)
    code, envelope = replace(
        "-r", source, "--rules", rules, "--dry-run", "--stories", "body,slides"
    )
    assert (code, envelope["error_code"]) == (2, "USAGE")
    assert envelope["error"] == "--stories: unknown slides"
