"""What both xlsx readers (doc2md's sheets, fieldcheck's rows) take from a workbook: its
sheets, shared strings and cell number formats, read through the guarded Package."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from officecli.readers.numfmt import BUILTIN_FORMATS
from officecli.readers.ooxml import R_ID
from officecli.readers.safety import BrokenFileError

if TYPE_CHECKING:
    from xml.etree.ElementTree import Element

    from officecli.readers.safety import Package

WORKBOOK = "xl/workbook.xml"
X = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"


@dataclass(frozen=True)
class SheetRef:
    name: str
    part: str  # the worksheet part in the package, "" when the workbook points nowhere
    hidden: bool


def rich_text(si: Element) -> str:
    """Text of a shared or inline string; phonetic guides (rPh, furigana) are not text."""
    out: list[str] = []
    for child in si:
        if child.tag == X + "t":
            out.append(child.text or "")
        elif child.tag == X + "r":
            t = child.find(X + "t")
            out.append(t.text or "" if t is not None else "")
    return "".join(out)


def workbook(pkg: Package) -> Element:
    if not pkg.has(WORKBOOK):
        raise BrokenFileError(f"{pkg.label}: no xl/workbook.xml; not an Excel workbook")
    return pkg.xml(WORKBOOK)


def uses_1904_dates(book: Element) -> bool:
    pr = book.find(X + "workbookPr")
    return pr is not None and pr.get("date1904") in ("1", "true")


def sheet_refs(pkg: Package, book: Element) -> list[SheetRef]:
    """The workbook's sheets in tab order."""
    rels = pkg.rels(WORKBOOK)
    out = []
    for sheet in book.iter(X + "sheet"):
        part = rels.get(sheet.get(R_ID, ""), ("", ""))[0]
        hidden = sheet.get("state", "visible") != "visible"
        out.append(SheetRef(sheet.get("name", ""), part if pkg.has(part) else "", hidden))
    return out


def shared_strings(pkg: Package) -> list[str]:
    """The shared string table, streamed (it can hold every text of a large workbook)."""
    from officecli.readers.xlsx.sheet import StringsScan

    part = "xl/sharedStrings.xml"
    if not pkg.has(part):
        return []
    scan = StringsScan()
    pkg.scan_xml(part, scan)
    return scan.strings


def cell_formats(pkg: Package) -> list[str]:
    """The number format code of each cell style (the `s` attribute indexes this list)."""
    if not pkg.has("xl/styles.xml"):
        return []
    root = pkg.xml("xl/styles.xml")
    custom = {int(f.get("numFmtId", "0")): f.get("formatCode", "") for f in root.iter(X + "numFmt")}
    xfs = root.find(X + "cellXfs")
    return [
        custom.get(fmt_id, BUILTIN_FORMATS.get(fmt_id, "General"))
        for fmt_id in (int(xf.get("numFmtId", "0")) for xf in (xfs if xfs is not None else []))
    ]
