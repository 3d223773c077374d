"""The one table of input formats: extension (or, without a known extension, the file's
first bytes) -> reader. Every tool picks its reader here, so a format is added in one place.

    from officecli.readers import registry
    fmt = registry.reader_for(path)            # Format, or UnsupportedFormatError (exit 2)
    doc = registry.open_document(path)         # Document (blocks, assets, counts, notes)
    with registry.open_table(path) as table:   # streaming rows of a tabular file
        ...
    with registry.open_package(path) as pkg:   # an OOXML zip, limits checked (for editors)
        ...

Reader modules and their libraries load only when a file of their format is read. Every
zip-based format is read through `safety.Package`, whose limits are checked once when the
package opens; every other format has its own expansion budget (`safety.ExpansionBudget`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING

from agentcli.files import check_regular, open_regular
from officecli.readers.errors import TooComplexError
from officecli.readers.safety import OLE_MAGIC, Package, UnsupportedFormatError
from officecli.readers.tabular import open_table

if TYPE_CHECKING:
    from officecli.readers.model import Document, ReadOptions

__all__ = ["FORMATS", "Format", "open_document", "open_package", "open_table", "reader_for"]


@dataclass(frozen=True)
class Format:
    name: str
    extensions: tuple[str, ...]
    reader: str  # "module:function" taking (path, ReadOptions) and returning a Document
    zip_based: bool

    def read(self, path: Path, options: ReadOptions) -> Document:
        check_regular(path, path.name)  # a pipe or a device: NotRegularFileError, before any read
        module, _, function = self.reader.partition(":")
        read: Callable[[Path, ReadOptions], Document] = getattr(import_module(module), function)
        try:
            return read(path, options)
        except RecursionError:  # the readers follow nesting (tables in tables) as it comes
            raise TooComplexError(
                f"{path.name}: nested too deeply to read (tables in tables, groups in groups)",
                suggestion="flatten the nesting in its application and save it again",
            ) from None


FORMATS: tuple[Format, ...] = (
    Format("docx", (".docx", ".docm"), "officecli.readers.docx.reader:read_docx", True),
    Format("xlsx", (".xlsx", ".xlsm"), "officecli.readers.xlsx.reader:read_xlsx", True),
    Format("xls", (".xls",), "officecli.readers.xls.reader:read_xls", False),
    Format("pptx", (".pptx", ".pptm"), "officecli.readers.pptx.reader:read_pptx", True),
    Format("pdf", (".pdf",), "officecli.readers.pdf.reader:read_pdf", False),
    Format("drawio", (".drawio", ".dio"), "officecli.readers.drawio.reader:read_drawio", False),
)
BY_EXTENSION = {ext: fmt for fmt in FORMATS for ext in fmt.extensions}
BY_NAME = {fmt.name: fmt for fmt in FORMATS}
DOCUMENT_EXTENSIONS = tuple(BY_EXTENSION)
# The part that tells one OOXML package from another, for files without a known extension.
_MAIN_PARTS = {
    "word/document.xml": "docx",
    "xl/workbook.xml": "xlsx",
    "ppt/presentation.xml": "pptx",
}


def _sniff(path: Path) -> Format | None:
    """The format told by the first bytes (and, for a zip, its main part), or None."""
    try:
        with open_regular(path, path.name) as fh:
            head = fh.read(512)
    except OSError:
        return None
    if head.startswith(b"%PDF-"):
        return BY_NAME["pdf"]
    if head.startswith(OLE_MAGIC):
        return BY_NAME["xls"]
    if head.lstrip().startswith((b"<mxfile", b"<mxGraphModel")):
        return BY_NAME["drawio"]
    if head.startswith(b"PK\x03\x04"):
        import zipfile

        try:
            with zipfile.ZipFile(path) as archive:
                names = set(archive.namelist())
        except (zipfile.BadZipFile, OSError):
            return None
        return next((BY_NAME[kind] for part, kind in _MAIN_PARTS.items() if part in names), None)
    return None


def reader_for(path: str | Path) -> Format:
    """The format of a file: by its extension, else by its content."""
    path = Path(path)
    fmt = BY_EXTENSION.get(path.suffix.lower()) or _sniff(path)
    if fmt is None:
        raise UnsupportedFormatError(
            f"{path.name}: unsupported file type {path.suffix or '(none)'!r}"
        )
    return fmt


def open_document(path: str | Path, options: ReadOptions | None = None) -> Document:
    """Read any supported document into the document model."""
    from officecli.readers.model import ReadOptions

    path = Path(path)
    return reader_for(path).read(path, options or ReadOptions())


def open_package(path: str | Path) -> Package:
    """An OOXML package with its zip-bomb limits checked; use it as a context manager."""
    return Package(Path(path))
