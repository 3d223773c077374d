"""The format registry: extension first, then the file's first bytes; one API for every tool."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from officecli.readers import registry
from officecli.readers.safety import UnsafeFileError, UnsupportedFormatError

CORPUS = Path(__file__).resolve().parents[4] / ".." / "shared" / "corpus" / "markitdown"


def test_every_extension_names_one_format() -> None:
    assert registry.reader_for("a.DOCX").name == "docx"
    assert registry.reader_for("a.xlsm").name == "xlsx"
    assert registry.reader_for("a.dio").name == "drawio"
    assert sorted(registry.DOCUMENT_EXTENSIONS) == sorted(
        ext for fmt in registry.FORMATS for ext in fmt.extensions
    )


@pytest.mark.parametrize(
    ("source", "name"),
    [("test.docx", "docx"), ("test.xlsx", "xlsx"), ("test.pptx", "pptx"), ("test.pdf", "pdf")],
)
def test_without_a_known_extension_the_content_decides(
    tmp_path: Path, source: str, name: str
) -> None:
    copy = tmp_path / "renamed.bin"
    shutil.copy(CORPUS / source, copy)
    assert registry.reader_for(copy).name == name


def test_unknown_content_is_unsupported(tmp_path: Path) -> None:
    path = tmp_path / "notes"
    path.write_text("just text", encoding="utf-8")
    with pytest.raises(UnsupportedFormatError):
        registry.reader_for(path)


def test_open_document_reads_through_the_registry() -> None:
    doc = registry.open_document(CORPUS / "test.xlsx")
    assert (doc.counts["sheets"], doc.blocks[0].kind) == (2, "heading")


def test_open_package_checks_the_limits_first(tmp_path: Path) -> None:
    import zipfile

    bomb = tmp_path / "bomb.docx"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("word/document.xml", b"<a>" + b"0" * (4 << 20) + b"</a>")
    with pytest.raises(UnsafeFileError):
        registry.open_package(bomb)
    with registry.open_package(CORPUS / "test.docx") as pkg:
        assert pkg.has("word/document.xml") is True
