"""An agent that read only a tool's SKILL.md: every workflow it gives, run as written with
the real console scripts on the shared corpus (and workbooks made here), does what its goal
says; the files after each run are checked, not only the answers."""

from __future__ import annotations

import hashlib
import json
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from officecli_testkit.sheets import active_sheet

from agentcli.testing import skill_workflows

ROOT = Path(__file__).resolve().parents[4]
CORPUS = ROOT / ".." / "shared" / "corpus" / "markitdown"
BIN = Path(sys.executable).parent


def run(cwd: Path, line: str) -> tuple[int, dict[str, Any]]:
    words = shlex.split(line)
    done = subprocess.run(
        [str(BIN / words[0]), *words[1:]], cwd=cwd, capture_output=True, text=True, timeout=300
    )
    return done.returncode, json.loads(done.stdout)


Step = tuple[str, int, dict[str, Any], list[str]]


def files(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())


def session(tool: str, cwd: Path) -> list[tuple[str, list[Step]]]:
    """Each workflow of the skill with each step's line, exit code, answer, and the files
    in the folder after it."""
    text = (ROOT / "skills" / tool / "SKILL.md").read_text("utf-8")
    answered = []
    for goal, lines in skill_workflows(text):
        answered.append((goal, [(line, *run(cwd, line), files(cwd)) for line in lines]))
    return answered


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_doc2md(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    for name, copy in (("test.docx", "minutes"), ("test.pptx", "slides"), ("test.xlsx", "sales")):
        shutil.copy(CORPUS / name, tmp_path / "docs" / (copy + Path(name).suffix))
    shutil.copy(CORPUS / "test.docx", tmp_path / "report.docx")
    inputs = files(tmp_path)
    before = {p: digest(tmp_path / p) for p in inputs}
    (summarise, strict) = session("doc2md", tmp_path)
    (dry, dry_code, dry_report, after_dry), (_real, code, report, after) = summarise[1]
    assert "--dry-run" in dry and (dry_code, code) == (0, 0)
    assert [f["rule_id"] for f in dry_report["findings"]].count("convert.dry_run") == 3
    assert after_dry == inputs  # the dry run wrote nothing
    written = sorted(set(after) - set(inputs))
    assert [p for p in written if p.endswith(".md")] == [
        "out/minutes.md",
        "out/sales.md",
        "out/slides.md",
    ]
    assert report["summary"]["error"] == 0
    assert {p: digest(tmp_path / p) for p in inputs} == before
    [(line, code, report, _after)] = strict[1]
    assert (line, code) == ("doc2md report.docx -d out/ --strict", 0)
    assert (tmp_path / "out" / "report.md").read_text("utf-8").startswith("# AutoGen")


def test_fieldcheck(tmp_path: Path) -> None:
    (tmp_path / "expenses.csv").write_text(
        "日付,金額,部署\n2026-04-01,1000,営業\n2026-04-02,-5,総務\n", "utf-8"
    )
    (tmp_path / "rules.yaml").write_text(
        "version: 1\nname: expenses\nrules:\n"
        "  - {id: EXP-001, type: required, field: 金額}\n"
        "  - {id: EXP-002, type: range, field: 金額, min: 0}\n",
        "utf-8",
    )
    (start, check) = session("fieldcheck", tmp_path)
    (_l0, c0, shown, after_dry), (_l1, c1, wrote, after) = start[1]
    assert (c0, c1) == (0, 0)
    assert after_dry == ["expenses.csv", "rules.yaml"]  # the dry run wrote nothing
    assert after == ["expenses.csv", "expenses.rules.yaml", "rules.yaml"]
    assert (tmp_path / "expenses.rules.yaml").read_text("utf-8") == shown["data"]["text"]
    assert wrote["data"]["written"] is True
    (_l2, c2, rules, _f2), (_l3, c3, checked, _f3), (_l4, c4, report, _f4) = check[1]
    assert (c2, c3, c4) == (0, 0, 1)
    assert "required" in [t["type"] for t in rules["data"]["rule_types"]]
    assert [r["id"] for r in checked["data"]["rules"]] == ["EXP-001", "EXP-002"]
    assert [(f["rule_id"], f["location"], f["actual"]) for f in report["findings"]] == [
        ("EXP-002", "line 3", "-5")
    ]


def workbook(path: Path, rows: list[list[Any]]) -> None:
    book = openpyxl.Workbook()
    sheet = active_sheet(book)
    sheet.title = "users"
    for row in rows:
        sheet.append(row)
    book.save(path)


def test_design_diff(tmp_path: Path) -> None:
    header = ["物理名", "論理名", "型", "桁数"]
    workbook(
        tmp_path / "v1.xlsx", [header, ["id", "ID", "int", 10], ["name", "氏名", "varchar", 100]]
    )
    workbook(
        tmp_path / "v2.xlsx", [header, ["id", "ID", "int", 10], ["name", "氏名", "varchar", 50]]
    )
    [(_goal, steps)] = session("design-diff", tmp_path)
    (_l1, c1, presets, _f1), (_l2, c2, report, _f2) = steps
    assert (c1, c2) == (0, 1)
    assert "table" in presets["data"]
    assert [
        (f["rule_id"], f["severity"], f["expected"], f["actual"]) for f in report["findings"]
    ] == [("cell.changed", "error", "100", "50")]


def test_office_replace(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    shutil.copy(CORPUS / "test.docx", tmp_path / "docs" / "paper.docx")
    (tmp_path / "rules.csv").write_text("find,replace\nAutoGen,AutoWeave\n", "utf-8")
    original = digest(tmp_path / "docs" / "paper.docx")
    [(_goal, steps)] = session("office-replace", tmp_path)
    (dry, c1, planned, after_dry), (real, c2, done, _f2), (check, c3, left, _f3) = steps
    assert (c1, c2, c3) == (0, 0, 0)
    assert after_dry == ["docs/paper.docx", "rules.csv"]
    assert "--dry-run" in dry and "-d out/" in real and "--fail-on info" in check
    assert planned["findings"] == done["findings"]  # the dry run said what the run wrote
    assert len(planned["findings"]) > 0 and left["findings"] == []
    assert digest(tmp_path / "docs" / "paper.docx") == original
    assert (tmp_path / "out" / "paper.docx").is_file()


CHECKS: dict[str, Callable[[Path], None]] = {
    "doc2md": test_doc2md,
    "fieldcheck": test_fieldcheck,
    "design-diff": test_design_diff,
    "office-replace": test_office_replace,
}


@pytest.mark.parametrize("tool", sorted(CHECKS))
def test_every_office_skill_has_a_session(tool: str) -> None:
    assert skill_workflows((ROOT / "skills" / tool / "SKILL.md").read_text("utf-8"))
