"""Rename Excel sheets (`scope: sheetname`) and rewrite every reference to them: cell
formulas, defined names, data validation and conditional formatting (x14 extensions too),
hyperlinks inside the book, chart series, pivot cache sources and docProps/app.xml.

A formula is scanned, not pattern-matched: string literals are skipped, quoted names
('My sheet'!A1, 'It''s'!B2) and unquoted ones (Sheet1!A1, 3-D Sheet1:Sheet3!A1) are
recognised, and external references ([1]Sheet1!A1) are left alone.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from officecli.office_replace.errors import NewNameError
from officecli.office_replace.found import Found
from officecli.office_replace.package import EditablePackage
from officecli.office_replace.rules import Rule
from officecli.office_replace.textedit import Hit

X = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
FORMULA_TAGS = {
    "f", "formula", "formula1", "formula2", "definedName", "calculatedColumnFormula",
    "totalsRowFormula",
}  # fmt: skip
FORMULA_ATTRS = ("textlink", "fmlaLink", "fmlaRange", "fmlaTxbx", "fmlaGroup")  # shapes, controls
FORMULA_PARTS = re.compile(
    r"xl/(workbook|(worksheets|charts|pivotCache|tables|drawings|ctrlProps)/[^/]+)\.xml"
)
BAD_CHARS = set("[]:*?/\\")
MAX_NAME = 31
_PLAIN = re.compile(r"[^\W\d][\w.]*")
_CELL_LIKE = re.compile(r"([A-Za-z]{1,3}\d+|[Rr]\d*[Cc]\d*|TRUE|FALSE)", re.IGNORECASE)
_NAME_CHAR = re.compile(r"[\w.]")


def name_problem(name: str) -> str:
    """Why Excel would refuse this sheet name ('' when it is valid)."""
    if not name or name != name.strip("'") or len(name) > MAX_NAME:
        return f"must be 1 to {MAX_NAME} characters and not start or end with '"
    bad = sorted(BAD_CHARS & set(name))
    if bad:
        return "may not contain " + " ".join(bad)
    if name.lower() == "history":
        return "'History' is reserved by Excel"
    return ""


def quoted(name: str) -> str:
    if _PLAIN.fullmatch(name) and not _CELL_LIKE.fullmatch(name):
        return name
    return "'" + name.replace("'", "''") + "'"


def _renamed(name: str, renames: dict[str, str]) -> str | None:
    """The new name of a reference (one sheet, or both ends of a 3-D range), or None."""
    ends = name.split(":")
    if len(ends) > 2 or not any(e.lower() in renames for e in ends):
        return None
    return ":".join(renames.get(e.lower(), e) for e in ends)


def rewrite_formula(formula: str, renames: dict[str, str]) -> str:
    """The formula with every reference to a renamed sheet (old name, any case) rewritten."""
    out: list[str] = []
    i, n = 0, len(formula)
    while i < n:
        ch = formula[i]
        if ch == '"':
            j = i + 1
            while j < n and not (formula[j] == '"' and formula[j + 1 : j + 2] != '"'):
                j += 2 if formula[j] == '"' else 1
            out.append(formula[i : j + 1])
            i = j + 1
        elif ch == "'":
            j = i + 1
            while j < n and not (formula[j] == "'" and formula[j + 1 : j + 2] != "'"):
                j += 2 if formula[j] == "'" else 1
            name = formula[i + 1 : j].replace("''", "'")
            new = _renamed(name, renames) if formula[j + 1 : j + 2] == "!" else None
            out.append(formula[i : j + 1] if new is None else "'" + new.replace("'", "''") + "'")
            i = j + 1
        elif _NAME_CHAR.match(ch) and (i == 0 or not _NAME_CHAR.match(formula[i - 1])):
            j = i
            while j < n and (_NAME_CHAR.match(formula[j]) or formula[j] == ":"):
                j += 1
            word = formula[i:j]
            external = i > 0 and formula[i - 1] == "]"
            new = None if external or formula[j : j + 1] != "!" else _renamed(word, renames)
            if new is None:
                out.append(word)
            else:
                ends = new.split(":")
                plain = all(quoted(e) == e for e in ends)
                out.append(new if plain else "'" + new.replace("'", "''") + "'")
            i = j
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def plan_renames(names: Sequence[str], rules: Sequence[Rule], found: Found) -> dict[str, str]:
    """old name (lower case) -> new name; invalid or colliding new names are exit 2."""
    renames: dict[str, str] = {}
    final = []
    for old in names:
        name = old
        for rule in rules:
            new = rule.sub(name)
            if new != name:
                found.hit(
                    Hit(rule, name, new, name, new, ""),
                    "workbook",
                    f"sheet {old!r}",
                    story="sheetname",
                )
                name = new
        final.append(name)
        if name != old:
            problem = name_problem(name)
            if problem:
                raise NewNameError(
                    f"{found.label}: sheet {old!r} would become {name!r}, which {problem}"
                )
            renames[old.lower()] = name
    seen: dict[str, str] = {}
    for old, new in zip(names, final, strict=True):
        if new.lower() in seen:
            raise NewNameError(
                f"{found.label}: sheets {seen[new.lower()]!r} and {old!r} would both be named {new!r} (Excel ignores case)"
            )
        seen[new.lower()] = old
    return renames


def rename_sheets(pkg: EditablePackage, main: str, rules: Sequence[Rule], found: Found) -> None:
    workbook = pkg.xml(main)
    sheet_els = list(workbook.iter(f"{{{X}}}sheet"))
    names = [s.get("name") or "" for s in sheet_els]
    renames = plan_renames(names, rules, found)
    if not renames:
        return
    for el in sheet_els:
        el.set("name", renames.get((el.get("name") or "").lower(), el.get("name") or ""))
    pkg.mark(main)
    for part in pkg.names():
        if FORMULA_PARTS.fullmatch(part) and _rewrite_part(pkg, part, renames):
            pkg.mark(part)
    if pkg.has("docProps/app.xml"):
        app = pkg.xml("docProps/app.xml")
        for el in app.iter("{*}lpstr"):
            if (el.text or "").lower() in renames:
                el.text = renames[(el.text or "").lower()]
                pkg.mark("docProps/app.xml")


def _rewrite_part(pkg: EditablePackage, part: str, renames: dict[str, str]) -> bool:
    changed = False
    for el in pkg.xml(part).iter():
        if not isinstance(el.tag, str):
            continue
        local = el.tag.rpartition("}")[2]
        if local in FORMULA_TAGS and el.text:
            new = rewrite_formula(el.text, renames)
            if new != el.text:
                el.text, changed = new, True
        for attr in ("location",) if local == "hyperlink" else FORMULA_ATTRS:
            value = el.get(attr)
            if value and (new := rewrite_formula(value, renames)) != value:
                el.set(attr, new)
                changed = True
        if local == "worksheetSource" and (el.get("sheet") or "").lower() in renames:
            el.set("sheet", renames[(el.get("sheet") or "").lower()])
            changed = True
    return changed
