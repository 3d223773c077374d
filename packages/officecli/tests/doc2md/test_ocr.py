"""OCR of scanned PDF pages and of pictures, with a real Tesseract, on pages made here."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from docx import Document as WordDocument
from officecli_testkit.doc2md_helpers import ENTRY, Run
from officecli_testkit.scans import (
    ENGLISH,
    FONT,
    JAPANESE,
    VERTICAL,
    recall,
    save_pdf,
    scanned_page,
    table_page,
    vertical_page,
)

from officecli.readers import ocr

# Skipped only where the engine cannot be installed; CI installs it, so there it must run.
pytestmark = pytest.mark.skipif(
    not (ocr.available() and "jpn" in ocr.languages() and FONT.is_file())
    and not os.environ.get("CI"),
    reason="needs tesseract-ocr, tesseract-ocr-jpn(-vert) and fonts-ipafont-gothic (.ci/run installs them)",
)
MARKER = re.compile(r"<!-- page 1 \(ocr, confidence (0\.\d\d|1\.00)\) -->")


def _markdown(out: Path, stem: str) -> str:
    return (out / f"{stem}.md").read_text("utf-8")


def test_a_clean_scan_is_read_in_both_languages(run_doc2md: Run, tmp_path: Path) -> None:
    pdf = save_pdf(tmp_path / "scan.pdf", scanned_page(ENGLISH + JAPANESE))
    code, report = run_doc2md(pdf, "-d", tmp_path / "out", "--front-matter")
    text = _markdown(tmp_path / "out", "scan")
    score = recall(ENGLISH + JAPANESE, text)
    print(f"clean scan: character recall {score:.3f}")
    assert code == 0
    assert score >= 0.95
    assert MARKER.search(text) is not None
    assert "\nocr: true\nocr_pages: [1]\n---\n" in text
    assert "新物流センターが本格稼働しました。" in text  # CJK read without spaces between words
    assert [f["rule_id"] for f in report["findings"]] == ["convert.ok"]


def test_a_noisy_turned_scan_keeps_most_text_and_counts_doubtful_words(
    run_doc2md: Run, tmp_path: Path
) -> None:
    pdf = save_pdf(tmp_path / "photo.pdf", scanned_page(ENGLISH + JAPANESE, noisy=True))
    code, report = run_doc2md(pdf, "-d", tmp_path / "out", "--ocr-lang", "jpn+eng")
    score = recall(ENGLISH + JAPANESE, _markdown(tmp_path / "out", "photo"))
    print(f"noisy scan: character recall {score:.3f}")
    assert code == 0
    assert score >= 0.85
    doubtful = [f for f in report["findings"] if f["rule_id"] == "loss.ocr_low_confidence"]
    assert [f["severity"] for f in doubtful] == ["warning"]
    assert re.fullmatch(
        r"page 1: \d+ of \d+ OCR'd words read with confidence under 60%", doubtful[0]["message"]
    )


def test_vertical_japanese_is_read_right_to_left(run_doc2md: Run, tmp_path: Path) -> None:
    pdf = save_pdf(tmp_path / "tate.pdf", vertical_page(VERTICAL))
    code, _ = run_doc2md(pdf, "-d", tmp_path / "out")
    text = _markdown(tmp_path / "out", "tate")
    score = recall(VERTICAL, text)
    print(f"vertical scan: character recall {score:.3f}")
    assert code == 0
    assert score >= 0.9
    assert text.index("物流") < text.index("開所") < text.index("千個")


def test_a_scanned_table_becomes_a_markdown_table(run_doc2md: Run, tmp_path: Path) -> None:
    rows = [["Depot", "Parcels", "Late"], ["Leeds", "12040", "31"], ["York", "8312", "12"]]
    pdf = save_pdf(tmp_path / "table.pdf", table_page(rows))
    code, _ = run_doc2md(pdf, "-d", tmp_path / "out", "--ocr-lang", "eng")
    assert code == 0
    assert (
        "| Depot | Parcels | Late |\n| --- | --- | --- |\n| Leeds | 12040 | 31 |\n"
        "| York | 8312 | 12 |" in _markdown(tmp_path / "out", "table")
    )


def test_ocr_never_leaves_the_scan_unread_and_always_reads_text_pages(
    run_doc2md: Run, corpus: Path, tmp_path: Path
) -> None:
    pdf = save_pdf(tmp_path / "scan.pdf", scanned_page(ENGLISH))
    code, _ = run_doc2md(pdf, "-d", tmp_path / "never", "--ocr", "never")
    assert code == 0
    assert "Quarterly" not in _markdown(tmp_path / "never", "scan")
    code, _ = run_doc2md(
        corpus / "markitdown" / "masterformat_partial_numbering.pdf", "-d", tmp_path / "always",
        "--ocr", "always", "--ocr-lang", "eng",
    )  # fmt: skip
    text = _markdown(tmp_path / "always", "masterformat_partial_numbering")
    assert code == 0
    assert MARKER.search(text) is not None


def test_pictures_in_office_files_are_read_with_ocr_images(
    run_doc2md: Run, corpus: Path, tmp_path: Path
) -> None:
    code, _ = run_doc2md(
        corpus / "markitdown" / "docx_multiple_images.docx", "-d", tmp_path, "--ocr-images",
        "--front-matter",
    )  # fmt: skip
    text = _markdown(tmp_path, "docx_multiple_images")
    assert code == 0
    assert "> Chart 1: Revenue Growth" in text
    assert "> Chart 2: Customer Satisfaction" in text
    assert "\nocr_pictures: 2\nocr: true\n---\n" in text
    code, _ = run_doc2md(corpus / "markitdown" / "pptx_multiple_images.pptx", "-d", tmp_path)
    assert "Efficiency" not in _markdown(tmp_path, "pptx_multiple_images")  # only when asked


def test_a_generated_docx_picture_is_read(run_doc2md: Run, tmp_path: Path) -> None:
    picture = tmp_path / "note.png"
    scanned_page(["Invoice 2026-041 due on 30 June"]).crop((0, 60, 1400, 220)).save(picture)
    doc = WordDocument()
    doc.add_paragraph("The scanned note:")
    doc.add_picture(str(picture))
    doc.save(str(tmp_path / "note.docx"))
    code, _ = run_doc2md(tmp_path / "note.docx", "-d", tmp_path / "out", "--ocr-images")
    assert code == 0
    assert "> Invoice 2026-041 due on 30 June" in _markdown(tmp_path / "out", "note")


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (
            ("--ocr-lang", "jpn;eng"),
            "--ocr-lang 'jpn;eng': expected Tesseract language codes joined by +",
        ),
        (("--ocr-lang", "klingon"), "--ocr-lang klingon: Tesseract has no 'klingon' language data"),
    ],
)
def test_bad_ocr_languages_are_usage_errors(
    run_doc2md: Run, tmp_path: Path, args: tuple[str, ...], error: str
) -> None:
    pdf = save_pdf(tmp_path / "scan.pdf", scanned_page(ENGLISH))
    code, envelope = run_doc2md(pdf, "-d", tmp_path, *args)
    assert (code, envelope["error_code"], envelope["error"]) == (2, "USAGE", error)


def _without_tesseract(*args: str | Path) -> tuple[int, dict[str, Any]]:
    """doc2md with a PATH on which no tesseract (nor soffice) can be found."""
    proc = subprocess.run(
        [sys.executable, "-c", ENTRY, *map(str, args)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
        env={**os.environ, "PATH": "/nonexistent"},
    )
    return proc.returncode, json.loads(proc.stdout)


def test_without_an_engine_auto_says_so_once_and_always_is_a_usage_error(tmp_path: Path) -> None:
    first = save_pdf(tmp_path / "a.pdf", scanned_page(ENGLISH))
    second = save_pdf(tmp_path / "b.pdf", scanned_page(JAPANESE))
    code, report = _without_tesseract(first, second, "-d", tmp_path / "out", "--no-llms-txt")
    notes = [f["message"] for f in report["findings"] if f["rule_id"] == "convert.note"]
    assert code == 0
    assert notes == [ocr.OCR_UNAVAILABLE]
    code, envelope = _without_tesseract(first, "-d", tmp_path / "out", "--ocr", "always")
    assert (code, envelope["error_code"], envelope["suggestion"]) == (2, "USAGE", ocr.INSTALL_HINT)
