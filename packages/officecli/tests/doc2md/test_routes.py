"""--recalc and --via-pdf through a real LibreOffice, formulas without values, llms.txt."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from docx import Document as WordDocument
from officecli_testkit.doc2md_helpers import ENTRY, Run
from officecli_testkit.sheets import active_sheet
from openpyxl import Workbook

from officecli.readers import libreoffice

needs_libreoffice = pytest.mark.skipif(
    libreoffice.soffice() is None and not os.environ.get("CI"),
    reason="needs LibreOffice (apt-get install libreoffice-calc libreoffice-writer; .ci/run installs it)",
)


def _formula_book(path: Path) -> Path:
    """A workbook written by a library: its formulas have no cached value."""
    book = Workbook()
    sheet = active_sheet(book)
    sheet.title = "Data"
    sheet.append(["item", "amount"])
    sheet.append(["a", 1])
    sheet.append(["b", 3])
    sheet["A4"], sheet["B4"] = "total", "=SUM(B2:B3)"
    book.save(path)
    return path


def test_formulas_without_a_value_show_the_formula_and_are_reported(
    run_doc2md: Run, tmp_path: Path
) -> None:
    code, report = run_doc2md(_formula_book(tmp_path / "book.xlsx"), "-d", tmp_path)
    text = (tmp_path / "book.md").read_text("utf-8")
    assert code == 0
    assert "| total | =SUM(B2:B3) |" in text
    [loss] = [f for f in report["findings"] if f["rule_id"] == "loss.formula_no_value"]
    assert (loss["severity"], loss["message"]) == (
        "warning",
        "sheet 'Data': 1 formula cell(s) have no calculated value (shown as their formula): B4",
    )


@needs_libreoffice
def test_recalc_computes_them_with_libreoffice(run_doc2md: Run, tmp_path: Path) -> None:
    code, report = run_doc2md(_formula_book(tmp_path / "book.xlsx"), "-d", tmp_path, "--recalc")
    text = (tmp_path / "book.md").read_text("utf-8")
    notes = [f["message"] for f in report["findings"] if f["rule_id"] == "convert.note"]
    assert code == 0
    assert "| total | 4 |" in text
    assert notes == ["formulas without a cached value recalculated with LibreOffice (--recalc)"]
    assert "loss.formula_no_value" not in [f["rule_id"] for f in report["findings"]]


def test_recalc_without_libreoffice_keeps_the_formulas_and_says_why(tmp_path: Path) -> None:
    book = _formula_book(tmp_path / "book.xlsx")
    proc = subprocess.run(
        [sys.executable, "-c", ENTRY, str(book), "-d", str(tmp_path), "--recalc", "-f", "json"],
        capture_output=True, text=True, check=False, timeout=120,
        env={**os.environ, "PATH": "/nonexistent"},
    )  # fmt: skip
    assert proc.returncode == 0
    assert "| total | =SUM(B2:B3) |" in (tmp_path / "book.md").read_text("utf-8")
    assert f'"--recalc: LibreOffice is not installed; {libreoffice.INSTALL_HINT}"' in proc.stdout


@needs_libreoffice
def test_via_pdf_reads_the_printed_document(run_doc2md: Run, tmp_path: Path) -> None:
    doc = WordDocument()
    doc.add_heading("Delivery plan", 1)
    doc.add_paragraph("Trucks leave the depot at six.")
    doc.save(str(tmp_path / "plan.docx"))
    code, report = run_doc2md(tmp_path / "plan.docx", "-d", tmp_path / "out", "--via-pdf")
    text = (tmp_path / "out" / "plan.md").read_text("utf-8")
    notes = [f["message"] for f in report["findings"] if f["rule_id"] == "convert.note"]
    assert code == 0
    assert text.startswith("<!-- page 1 -->\n\n")
    assert "Delivery plan" in text and "Trucks leave the depot at six." in text
    assert notes == ["read through PDF: .docx printed with LibreOffice (--via-pdf)"]


def _two_documents(folder: Path) -> list[Path]:
    folder.mkdir()
    first = WordDocument()
    first.add_heading("Delivery plan", 1)
    first.add_paragraph("Trucks leave the depot at six; the last one returns by noon.")
    first.save(str(folder / "plan.docx"))
    second = WordDocument()
    second.add_paragraph("No heading here, only a note about [brackets].")
    second.save(str(folder / "note.docx"))
    return [folder / "note.docx", folder / "plan.docx"]


def test_llms_txt_indexes_a_converted_folder(run_doc2md: Run, tmp_path: Path) -> None:
    _two_documents(tmp_path / "docs")
    out = tmp_path / "handbook"
    code, report = run_doc2md("-r", tmp_path / "docs", "-d", out)
    assert code == 0
    assert (out / "llms.txt").read_text("utf-8") == (
        "# handbook\n\n"
        "> Markdown conversions of 2 document(s), written by doc2md 0.1.0.\n\n"
        "## Documents\n\n"
        "- [note.docx](<note.md>): No heading here, only a note about \\[brackets\\]. "
        "(source: note.docx)\n"
        "- [Delivery plan](<plan.md>): Trucks leave the depot at six; the last one returns by "
        "noon. (source: plan.docx)\n"
    )
    [index] = [f for f in report["findings"] if f["rule_id"] == "convert.index"]
    assert index["message"] == f"{out / 'llms.txt'} indexes 2 converted file(s)"


def test_no_llms_txt_and_dry_run_write_no_index(run_doc2md: Run, tmp_path: Path) -> None:
    files = _two_documents(tmp_path / "docs")
    code, _ = run_doc2md(*files, "-d", tmp_path / "a", "--no-llms-txt")
    assert (code, (tmp_path / "a" / "llms.txt").exists()) == (0, False)
    code, report = run_doc2md(*files, "-d", tmp_path / "b", "--dry-run")
    [index] = [f for f in report["findings"] if f["rule_id"] == "convert.index"]
    assert (code, (tmp_path / "b").exists()) == (0, False)
    assert index["message"] == (
        f"would write {tmp_path / 'b' / 'llms.txt'} indexing 2 file(s); nothing written"
    )
    code, _ = run_doc2md(files[0], "-d", tmp_path / "c")
    assert (code, (tmp_path / "c" / "llms.txt").exists()) == (0, False)  # one file: no index
