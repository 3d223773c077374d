"""Formulas in an Excel package: where they are (cells, defined names, data validation and
conditional formatting, x14 extensions too, hyperlinks inside the book, chart series, table
columns, shapes and form controls linked to cells, pivot cache sources), where the report
places each, and the references to sheets inside them.

A formula is scanned, not pattern-matched: string literals are skipped, quoted names
('My sheet'!A1, 'It''s'!B2) and unquoted ones (Sheet1!A1, 3-D Sheet1:Sheet3!A1) are
recognised, and external references ([1]Sheet1!A1) are left alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from lxml import etree

from officecli.office_replace.package import EditablePackage

FORMULA_TAGS = {
    "f", "formula", "formula1", "formula2", "definedName", "calculatedColumnFormula",
    "totalsRowFormula",
}  # fmt: skip
FORMULA_ATTRS = ("textlink", "fmlaLink", "fmlaRange", "fmlaTxbx", "fmlaGroup")  # shapes, controls
FORMULA_PARTS = re.compile(
    r"xl/(workbook|(worksheets|charts|pivotCache|tables|drawings|ctrlProps)/[^/]+)\.xml"
)
_PLAIN = re.compile(r"[^\W\d][\w.]*")
_CELL_LIKE = re.compile(r"([A-Za-z]{1,3}\d+|[Rr]\d*[Cc]\d*|TRUE|FALSE)", re.IGNORECASE)
_NAME_CHAR = re.compile(r"[\w.]")
RANGES = {"dataValidation": "data validation", "conditionalFormatting": "conditional format"}
SERIES_ROLES = {"tx": "name", "cat": "categories", "xVal": "categories", "val": "values"}
SERIES_ROLES |= {"yVal": "values", "bubbleSize": "bubble sizes"}
SHAPES = {"sp", "cxnSp", "pic", "graphicFrame", "grpSp"}
# the elements that hold one (found by lxml in C: a worksheet is mostly cells without any);
# shapes and form controls hold theirs in attributes, so their small parts are walked whole
HOLDERS = tuple(f"{{*}}{t}" for t in sorted(FORMULA_TAGS | {"hyperlink", "worksheetSource"}))
LINKED_PARTS = ("xl/drawings/", "xl/ctrlProps/")


def quoted(name: str) -> str:
    """A sheet name as a formula writes it (quoted unless it is a plain name)."""
    if _PLAIN.fullmatch(name) and not _CELL_LIKE.fullmatch(name):
        return name
    return "'" + name.replace("'", "''") + "'"


def sheet_references(formula: str) -> Iterator[tuple[int, int, str]]:
    """(start, end, name) of every reference to a sheet of this book: formula[start:end] is
    the name as written (quotes included; both ends of a 3-D range), `name` without quotes."""
    i, n = 0, len(formula)
    while i < n:
        ch = formula[i]
        external = i > 0 and formula[i - 1] == "]"
        if ch in "\"'":
            j = i + 1
            while j < n and not (formula[j] == ch and formula[j + 1 : j + 2] != ch):
                j += 2 if formula[j] == ch else 1
            if ch == "'" and formula[j + 1 : j + 2] == "!" and not external:
                yield i, j + 1, formula[i + 1 : j].replace("''", "'")
            i = j + 1
        elif _NAME_CHAR.match(ch) and (i == 0 or not _NAME_CHAR.match(formula[i - 1])):
            j = i
            while j < n and (_NAME_CHAR.match(formula[j]) or formula[j] == ":"):
                j += 1
            if formula[j : j + 1] == "!" and not external:
                yield i, j, formula[i:j]
            i = j
        else:
            i += 1


def renamed_ends(name: str, renames: dict[str, str]) -> list[str]:
    """The ends of a reference (one sheet, or both ends of a 3-D range) that are renamed."""
    ends = name.split(":")
    return [e for e in ends if e.lower() in renames] if len(ends) <= 2 else []


def rewrite_formula(formula: str, renames: dict[str, str]) -> str:
    """The formula with every reference to a renamed sheet (old name, any case) rewritten."""
    out, last = [], 0
    for start, end, name in sheet_references(formula):
        if not renamed_ends(name, renames):
            continue
        new = ":".join(renames.get(e.lower(), e) for e in name.split(":"))
        plain = formula[start] != "'" and all(quoted(e) == e for e in new.split(":"))
        out += [formula[last:start], new if plain else "'" + new.replace("'", "''") + "'"]
        last = end
    return "".join(out) + formula[last:] if out else formula


@dataclass
class Formula:
    """One formula (an element's text, or an attribute), or a bare sheet name (`sheet`)."""

    part: str
    el: etree._Element
    attr: str  # '' : the element's text
    where: tuple[str, ...]  # its place in the report
    bare_name: bool = False  # a pivot cache's source sheet: a sheet name, not a formula

    @property
    def text(self) -> str:
        return (self.el.get(self.attr) if self.attr else self.el.text) or ""

    def store(self, text: str) -> None:
        if self.attr:
            self.el.set(self.attr, text)
        else:
            self.el.text = text


def formulas(pkg: EditablePackage, sheet_of: dict[str, str]) -> Iterator[Formula]:
    """Every formula of the book's parts, in part then document order; `sheet_of` names the
    sheet of each worksheet part (how the report places a cell)."""
    for part in pkg.names():
        if not FORMULA_PARTS.fullmatch(part):
            continue
        label = sheet_of.get(part) or part.rpartition("/")[2].removesuffix(".xml")
        root = pkg.xml(part)
        linked = part.startswith(LINKED_PARTS)
        for el in root.iter() if linked else root.iter(*HOLDERS):
            if not isinstance(el.tag, str):
                continue
            local = etree.QName(el).localname
            if local in FORMULA_TAGS and el.text:
                yield Formula(part, el, "", _where(el, label, ""))
            for attr in ("location",) if local == "hyperlink" else FORMULA_ATTRS:
                if el.get(attr):
                    yield Formula(part, el, attr, _where(el, label, attr))
            if local == "worksheetSource" and el.get("sheet"):
                yield Formula(part, el, "sheet", (label, "source sheet"), bare_name=True)


def _where(el: etree._Element, label: str, attr: str) -> tuple[str, ...]:
    """Where a formula is, for the report: `Sheet!C2 formula`, `workbook :: defined name 'x'`,
    `Sheet!B1:B9 data validation`, `chart1 :: series 1 values` ..."""
    child = el
    for anc in (el, *el.iterancestors()):
        local = etree.QName(anc).localname
        if local == "c" and anc.get("r"):
            return (f"{label}!{anc.get('r')} formula",)
        if local == "definedName":
            return (label, f"defined name {anc.get('name')!r}")
        if local in RANGES:
            ranges = anc.get("sqref") or next(
                (s.text or "" for s in anc if etree.QName(s).localname == "sqref"), ""
            )
            return (f"{label}!{ranges} {RANGES[local]}",)
        if local == "hyperlink":
            return (f"{label}!{anc.get('ref')} hyperlink",)
        if local == "ser":
            index = next((i.get("val") for i in anc if etree.QName(i).localname == "idx"), "0")
            number = int(index) + 1 if (index or "").isdigit() else index
            role = SERIES_ROLES.get(etree.QName(child).localname, etree.QName(child).localname)
            return (label, f"series {number} {role}")
        if local == "tableColumn":
            return (label, f"column {anc.get('name')!r} formula")
        if local in SHAPES:
            name = next((e.get("name") for e in anc.iter() if str(e.tag).endswith("}cNvPr")), "")
            return (label, f"shape {name!r} {attr or 'formula'}")
        child = anc
    return (label, attr or etree.QName(el).localname)
