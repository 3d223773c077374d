"""Rename Excel sheets (`scope: sheetname`) and rewrite every reference to them (the
formulas of `formulas.py`, and docProps/app.xml); each rewrite is a finding, so that the
dry run reports all the real run writes.
"""

from __future__ import annotations

from collections.abc import Sequence

from officecli.office_replace.errors import NewNameError
from officecli.office_replace.formulas import (
    formulas,
    renamed_ends,
    rewrite_formula,
    sheet_references,
)
from officecli.office_replace.found import Found
from officecli.office_replace.growth import renamed
from officecli.office_replace.package import EditablePackage
from officecli.office_replace.rules import Rule
from officecli.office_replace.textedit import Hit

X = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
BAD_CHARS = set("[]:*?/\\")
MAX_NAME = 31


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


def plan_renames(
    names: Sequence[str], rules: Sequence[Rule], found: Found
) -> tuple[dict[str, str], dict[str, str]]:
    """old name (lower case) -> new name, and -> the id of the first rule that changes it;
    invalid or colliding new names are exit 2."""
    renames: dict[str, str] = {}
    by_rule: dict[str, str] = {}
    final = []
    for old in names:
        name = old
        for rule, before, new in renamed(old, rules, found.growth, f"sheet {old!r}"):
            found.hit(
                Hit(rule, before, new, before, new, ""),
                "workbook",
                f"sheet {old!r}",
                story="sheetname",
            )
            by_rule.setdefault(old.lower(), rule.id)
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
    return renames, by_rule


def rename_sheets(
    pkg: EditablePackage, main: str, rules: Sequence[Rule], found: Found, sheet_of: dict[str, str]
) -> None:
    """Rename the sheets and rewrite every reference; `sheet_of` names the sheet (old name)
    of each worksheet part."""
    workbook = pkg.xml(main)
    sheet_els = list(workbook.iter(f"{{{X}}}sheet"))
    names = [s.get("name") or "" for s in sheet_els]
    renames, by_rule = plan_renames(names, rules, found)
    if not renames:
        return
    for el in sheet_els:
        el.set("name", renames.get((el.get("name") or "").lower(), el.get("name") or ""))
    pkg.mark(main)
    for formula in formulas(pkg, sheet_of):
        old = formula.text
        if formula.bare_name:
            new, ends = renames.get(old.lower(), old), [old] if old.lower() in renames else []
        else:
            new = rewrite_formula(old, renames)
            ends = [e for _, _, ref in sheet_references(old) for e in renamed_ends(ref, renames)]
        if new != old:
            formula.store(new)
            pkg.mark(formula.part)
            what = "source sheet" if formula.bare_name else "formula"
            found.rewritten(by_rule[ends[0].lower()], what, old, new, *formula.where)
    if pkg.has("docProps/app.xml"):
        for el in pkg.xml("docProps/app.xml").iter("{*}lpstr"):
            old = el.text or ""
            if old.lower() in renames:
                el.text = renames[old.lower()]
                pkg.mark("docProps/app.xml")
                found.rewritten(
                    by_rule[old.lower()], "sheet title", old, el.text, "docProps/app.xml"
                )
