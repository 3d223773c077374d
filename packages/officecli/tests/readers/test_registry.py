"""The format registry: extension first, then the file's first bytes; one API for every tool."""

from __future__ import annotations

import re
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


SOURCE = Path(registry.__file__).resolve().parents[1]  # the officecli package


def test_each_format_has_its_folder_and_nothing_format_specific_sits_beside_them() -> None:
    readers = SOURCE / "readers"
    for fmt in registry.FORMATS:
        assert fmt.reader.startswith(f"officecli.readers.{fmt.name}.reader:"), fmt
        assert (readers / fmt.name / "reader.py").is_file(), fmt
    names = {fmt.name for fmt in registry.FORMATS}
    flat = {p.stem for p in readers.glob("*.py")}
    assert sorted(m for m in flat if m.split("_")[0] in names) == []


def test_tools_read_format_facts_from_the_registry_not_from_a_list_of_names() -> None:
    # a sequence of format names written out, as ("docx", "xlsx", "pptx") was in three places
    names = "|".join(fmt.name for fmt in registry.FORMATS)
    listed = re.compile(rf'"({names})",\s*"({names})"')
    spelled = [
        f"{path.relative_to(SOURCE)}:{number}"
        for path in sorted(SOURCE.rglob("*.py"))
        if path.name != "registry.py"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if listed.search(line)
    ]
    assert spelled == []


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
