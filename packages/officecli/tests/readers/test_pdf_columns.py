"""Two-column PDFs read as a person reads them: columns found per region of the page, a
full-width title above them and a picture across them kept in place, each column's heading
and paragraphs whole; made by LibreOffice and by reportlab, in Japanese and in English."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from officecli_testkit.markdown_tree import outline
from officecli_testkit.two_columns import (
    ENGLISH,
    JAPANESE,
    expected,
    reportlab_newsletter,
    word_newsletter,
)

from officecli.doc2md.markdown import render
from officecli.readers import libreoffice
from officecli.readers.model import ReadOptions
from officecli.readers.pdf.reader import read_pdf

LANGUAGES = [("ja", JAPANESE, "IPAGothic", True), ("en", ENGLISH, "Liberation Serif", False)]


def _outline(pdf: Path) -> list[tuple[object, ...]]:
    return outline(render(read_pdf(pdf, ReadOptions()), "x"))


@pytest.mark.parametrize(("lang", "texts", "font", "japanese"), LANGUAGES, ids=["ja", "en"])
def test_reportlab_columns_whose_lines_do_not_line_up(
    tmp_path: Path, lang: str, texts: dict[str, str], font: str, japanese: bool
) -> None:
    reportlab_newsletter(tmp_path / "news.pdf", texts, japanese)
    assert _outline(tmp_path / "news.pdf") == expected(texts, title=1, heading=2)


@pytest.mark.skipif(
    libreoffice.soffice() is None and not os.environ.get("CI"),
    reason="needs LibreOffice (apt-get install libreoffice-writer; .ci/run installs it)",
)
@pytest.mark.parametrize(("lang", "texts", "font", "japanese"), LANGUAGES, ids=["ja", "en"])
def test_libreoffice_two_column_sections(
    tmp_path: Path, lang: str, texts: dict[str, str], font: str, japanese: bool
) -> None:
    word_newsletter(tmp_path / "news.docx", texts, font)
    pdf = libreoffice.convert(tmp_path / "news.docx", "pdf", tmp_path / "lo")
    shutil.copy(pdf, tmp_path / "news.pdf")
    assert _outline(tmp_path / "news.pdf") == expected(texts, title=1, heading=2)
