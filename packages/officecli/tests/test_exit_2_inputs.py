"""Inputs that answered exit 3 (found by fuzzing): each is exit 2 now, with a code and a
suggestion, and nothing written. A docx of 1,000 nested tables, office-replace
replacements holding control characters or new file names holding `/`, and integers of
more digits than Python converts (4,300) in fieldcheck rules and design-diff presets."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

ENTRIES = {
    "doc2md": "from officecli.doc2md.cli import main; main()",
    "fieldcheck": "from officecli.fieldcheck.cli import main; main()",
    "design-diff": "from officecli.design_diff.cli import main; main()",
    "office-replace": "from officecli.office_replace.cli import main; main()",
}
BIG = "9" * 5000


def tool(name: str, *args: str | Path, cwd: Path) -> tuple[int, dict[str, Any]]:
    """The tool run in a child capped at 1 GiB of address space and 60 s."""
    import resource

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    done = subprocess.run(
        [sys.executable, "-c", ENTRIES[name], *map(str, args)],
        capture_output=True,
        cwd=cwd,
        timeout=60,
        check=False,
        preexec_fn=cap,
    )
    return done.returncode, json.loads(done.stdout)


def docx(path: Path, body: str) -> Path:
    from docx import Document

    Document().save(str(path))
    with zipfile.ZipFile(path) as src:
        parts = {i.filename: src.read(i) for i in src.infolist()}
    xml = parts["word/document.xml"].decode("utf-8")
    parts["word/document.xml"] = xml.replace("<w:body>", "<w:body>" + body, 1).encode("utf-8")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for name, data in parts.items():
            out.writestr(name, data)
    return path


def test_a_docx_of_a_thousand_nested_tables_is_too_complex(tmp_path: Path) -> None:
    inner = "<w:p><w:r><w:t>the deepest cell</w:t></w:r></w:p>"
    for _ in range(1000):
        inner = f"<w:tbl><w:tr><w:tc>{inner}</w:tc></w:tr></w:tbl><w:p/>"
    path = docx(tmp_path / "nested.docx", inner)
    code, report = tool("doc2md", path, "-d", "out", cwd=tmp_path)
    (failed,) = report["findings"]
    assert (code, failed["field"], failed["message"], failed["suggestion"]) == (
        2,
        "INPUT_TOO_COMPLEX",
        "nested.docx: nested too deeply to read (tables in tables, groups in groups)",
        "flatten the nesting in its application and save it again",
    )
    assert not (tmp_path / "out" / "nested.md").exists()
    (tmp_path / "rules.csv").write_text("find,replace\nthe,THE\n", encoding="utf-8")
    code, report = tool("office-replace", path, "--rules", "rules.csv", "-d", "out", cwd=tmp_path)
    assert (code, [f["rule_id"] for f in report["findings"]]) == (2, ["replace.failed"])
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    ("character", "shown"), [("\x0b", "U+000B"), ("\x00", "U+0000"), ("\ufffe", "U+FFFE")]
)
def test_a_replacement_office_files_cannot_hold_is_a_rules_error(
    tmp_path: Path, character: str, shown: str
) -> None:
    path = docx(tmp_path / "a.docx", "<w:p><w:r><w:t>hello</w:t></w:r></w:p>")
    (tmp_path / "rules.csv").write_text(f"find,replace\nhello,a{character}b\n", encoding="utf-8")
    code, env = tool("office-replace", path, "--rules", "rules.csv", "-d", "out", cwd=tmp_path)
    assert (code, env["error_code"], env["error"]) == (
        2,
        "INVALID_RULES",
        f"rules.csv row 2: replace holds {shown}, a character Office files cannot hold",
    )
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("new", ["a/b", "../x", "sub/../../x"])
def test_a_new_file_name_holding_a_slash_is_refused(tmp_path: Path, new: str) -> None:
    path = docx(tmp_path / "a.docx", "<w:p><w:r><w:t>hello</w:t></w:r></w:p>")
    (tmp_path / "rules.csv").write_text(f"find,replace,scope\na,{new},filename\n", encoding="utf-8")
    code, env = tool("office-replace", path, "--rules", "rules.csv", "-d", "out", cwd=tmp_path)
    assert (code, env["error_code"]) == (2, "BAD_NEW_NAME")
    assert env["error"].startswith(f"1 new file name(s) are not valid: a.docx -> {new}.docx: ")
    assert not (tmp_path / "out").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.docx", "rules.csv"]


def test_an_integer_past_4300_digits_in_fieldcheck_rules_is_at_its_line(tmp_path: Path) -> None:
    (tmp_path / "d.csv").write_text("a\n1\n", encoding="utf-8")
    rules = tmp_path / "rules.yaml"
    rules.write_text(f"version: 1\nrules:\n  - {{id: R, type: range, field: a, min: {BIG}}}\n")
    for args in (["validate", "d.csv", "-r", "rules.yaml"], ["check-rules", "rules.yaml"]):
        code, env = tool("fieldcheck", *args, cwd=tmp_path)
        assert (code, env["error_code"], env["error"], env["data"]) == (
            2,
            "INVALID_RULES",
            "rules.yaml:3:41: a number of more than 4300 digits",
            {"file": "rules.yaml", "line": 3, "column": 41},
        )


@pytest.mark.parametrize("option", ["--preset-file", "--severity-file", "--oas"])
def test_an_integer_past_4300_digits_in_design_diff_files_is_exit_2(
    tmp_path: Path, option: str
) -> None:
    from officecli_testkit.sheets import active_sheet
    from openpyxl import Workbook

    book = Workbook()
    sheet = active_sheet(book)
    for row in (
        ["メソッド", "GET"],
        ["パス", "/v1/x"],
        [],
        ["No", "物理名", "型"],
        [1, "id", "integer"],
    ):
        sheet.append(row)
    book.save(tmp_path / "api.xlsx")
    (tmp_path / "big.yaml").write_text(f"openapi: 3.0.3\nname: x\nmaxLength: {BIG}\n")
    args = {
        "--preset-file": ["excel", "--before", "api.xlsx", "--after", "api.xlsx"],
        "--severity-file": ["spec", "--excel", "api.xlsx", "--oas", "big.yaml"],
        "--oas": ["spec", "--excel", "api.xlsx"],
    }[option]
    code, env = tool("design-diff", *args, option, "big.yaml", cwd=tmp_path)
    assert (code, env["error"]) == (2, "big.yaml:3:12: a number of more than 4300 digits")
    assert env["error_code"] in ("INVALID_PRESET", "INVALID_OAS")
