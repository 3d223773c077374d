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

import sys
from pathlib import Path

from agentcli import confine
from agentcli.files import check_regular, open_regular
from officecli.readers.errors import TooComplexError
from officecli.readers.safety import OLE_MAGIC, Package, UnsupportedFormatError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from contextlib import AbstractContextManager

    from officecli.readers.model import Document, ReadOptions
    from officecli.readers.tabular import Table

__all__ = ["FORMATS", "Format", "open_document", "open_package", "open_table", "reader_for"]


class Format:
    """One input format: its name, extensions, reader ("module:function" taking a path
    and ReadOptions, returning a Document) and the facts tools read instead of names."""

    __slots__ = ("extensions", "name", "reader", "zip_based")

    def __init__(self, name: str, extensions: tuple[str, ...], reader: str, zip_based: bool):
        self.name = name
        self.extensions = extensions
        self.reader = reader
        self.zip_based = zip_based

    def __repr__(self) -> str:
        return f"Format({self.name!r})"

    def read(self, path: Path, options: ReadOptions) -> Document:
        check_regular(path, path.name)  # a pipe or a device: NotRegularFileError, before any read
        module, _, function = self.reader.partition(":")
        __import__(module)  # importlib alone costs a millisecond of start-up
        read: Callable[[Path, ReadOptions], Document] = getattr(sys.modules[module], function)
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
    """The format of a file: by its extension, else by its content (every tool asks this
    before it reads a file: a confined call refuses one outside its root here)."""
    confine.check(path)
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


def open_table(
    path: str | Path, *, sheet: str | None = None, encoding: str | None = None
) -> AbstractContextManager[Table]:
    """A tabular file's rows, streamed (`readers.tabular`, loaded only for tables)."""
    from officecli.readers import tabular

    return tabular.open_table(path, sheet=sheet, encoding=encoding)


def open_package(path: str | Path) -> Package:
    """An OOXML package with its zip-bomb limits checked; use it as a context manager."""
    confine.check(path)
    return Package(Path(path))
