"""Replace in an Excel package, editing the XML parts directly (no openpyxl round trip, so
shapes, images, charts, comments and validation survive): shared strings, inline strings,
rich-text runs, drawings, chart titles, and cell comments with the `comments` story.
Phonetic runs (furigana, x:rPh) are never edited or matched; a changed string that has them
gets a warning.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from lxml import etree

from officecli.office_replace.drawingml import edit_charts, edit_part
from officecli.office_replace.found import FURIGANA, Found
from officecli.office_replace.package import EditablePackage
from officecli.office_replace.rules import Rule
from officecli.office_replace.textedit import Segment, apply_rules

X = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
R_ID = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
X_SI, X_T, X_R, X_RPH, X_C, X_V, X_IS = (
    f"{{{X}}}{n}" for n in ("si", "t", "r", "rPh", "c", "v", "is")
)
X_COMMENT, X_TEXT = f"{{{X}}}comment", f"{{{X}}}text"
MAX_LISTED_CELLS = 3


def sheets(pkg: EditablePackage, main: str) -> list[tuple[str, str]]:
    """(sheet name, worksheet part) in workbook order; chart sheets and missing parts left out."""
    rels = pkg.rels(main)
    out = []
    for sheet in pkg.xml(main).iter(f"{{{X}}}sheet"):
        target, kind = rels.get(sheet.get(R_ID) or "", ("", ""))
        if kind == "worksheet" and pkg.has(target):
            out.append((sheet.get("name") or "", target))
    return out


def string_segments(item: etree._Element) -> list[Segment]:
    """The text of an x:si or x:is: its x:t, or the x:t of each rich-text run; never x:rPh."""
    out = []
    for child in item:
        t = child if child.tag == X_T else child.find(X_T) if child.tag == X_R else None
        if t is not None:
            out.append(Segment(t, t.text or "", preserve_space=True))
    return out


def _cells_by_string(pkg: EditablePackage, book: list[tuple[str, str]]) -> dict[int, list[str]]:
    """Shared-string index -> the cells that show it (`Sheet!A1`)."""
    users: dict[int, list[str]] = {}
    for name, part in book:
        for c in pkg.xml(part).iter(X_C):
            if c.get("t") == "s":
                v = c.find(X_V)
                if v is not None and (v.text or "").strip().isdigit():
                    users.setdefault(int(v.text or ""), []).append(f"{name}!{c.get('r')}")
    return users


def _place(cells: list[str], index: int) -> str:
    if not cells:
        return f"sharedStrings si {index + 1}"
    more = len(cells) - MAX_LISTED_CELLS
    return ", ".join(cells[:MAX_LISTED_CELLS]) + (f" (+{more} more cells)" if more > 0 else "")


def _edit_strings(
    items: Iterator[tuple[str, etree._Element]], rules: Sequence[Rule], found: Found
) -> bool:
    edited = False
    for place, item in items:
        segments = string_segments(item)
        if not segments:
            continue
        before = "".join(s.text for s in segments)
        for hit in apply_rules(segments, rules):
            edited = edited or not hit.skipped
            found.hit(hit, place, story="body")
        after = "".join(s.text for s in segments)
        if after != before and item.find(X_RPH) is not None:
            found.warn(
                FURIGANA,
                "the furigana (phonetic guide) of this text was left as it was and no longer "
                "matches the changed text",
                place,
                expected=before,
                actual=after,
            )
    return edited


def replace_excel(
    pkg: EditablePackage, rules: Sequence[Rule], stories: set[str], found: Found
) -> None:
    main = pkg.main_part()
    book = sheets(pkg, main)
    if "body" in stories:
        shared = pkg.targets(main, "sharedStrings")
        if shared:
            users = _cells_by_string(pkg, book)
            items = pkg.xml(shared[0]).iter(X_SI)
            located = ((_place(users.get(n, []), n), si) for n, si in enumerate(items))
            if _edit_strings(located, rules, found):
                pkg.mark(shared[0])
        for name, part in book:
            inline = (
                (f"{name}!{item.getparent().get('r')}", item)
                for item in pkg.xml(part).iter(X_IS)
                if item.getparent() is not None and item.getparent().get("t") == "inlineStr"
            )
            if _edit_strings(inline, rules, found):
                pkg.mark(part)
    for name, part in book:
        if "comments" in stories:
            for comments in pkg.targets(part, "comments"):
                notes = (
                    (f"{name}!{c.get('ref')} comment", c.find(X_TEXT))
                    for c in pkg.xml(comments).iter(X_COMMENT)
                    if c.find(X_TEXT) is not None
                )
                if _edit_strings(notes, rules, found):
                    pkg.mark(comments)
        for drawing in pkg.targets(part, "drawing"):
            if "body" in stories:
                edit_part(pkg, drawing, rules, found, name, story="body")
            if "charts" in stories:
                edit_charts(pkg, drawing, rules, found, name)
