"""The stories of an Excel package, edited in the XML parts directly (no openpyxl round trip,
so shapes, images, charts, comments and validation survive): shared strings, inline strings,
rich-text runs, drawings, chart titles, and cell comments (the `comments` story).
Phonetic runs (furigana, x:rPh) are never edited or matched; a changed string that has them
gets a warning.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache

from lxml import etree

from officecli.office_replace.commands import FURIGANA
from officecli.office_replace.drawingml import chart_stories, story
from officecli.office_replace.found import Found, Paragraphs
from officecli.office_replace.package import EditablePackage
from officecli.office_replace.rules import Rule
from officecli.office_replace.stories import Story
from officecli.office_replace.textedit import Segment

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


@dataclass
class Strings(Story):
    """SpreadsheetML strings (shared, inline, comments): their x:t and rich-text runs.

    A changed string that has furigana (x:rPh) gets a warning: the reading is left as it was.
    """

    items: Callable[[], Iterator[tuple[str, etree._Element]]] = lambda: iter(())

    def edit(self, pkg: EditablePackage, rules: Sequence[Rule], found: Found) -> None:
        found.growth.begin(self.label)
        edited = False
        for place, item in self.items():
            segments = string_segments(item)
            before = "".join(s.text for s in segments)
            if segments and found.paragraph(segments, rules, place, story=self.story, silent=False):
                edited = True
            after = "".join(s.text for s in segments)
            if after != before and item.find(X_RPH) is not None:
                found.warn(
                    FURIGANA,
                    "the furigana (phonetic guide) of this text was left as it was and no "
                    "longer matches the changed text",
                    place,
                    expected=before,
                    actual=after,
                )
        if edited:
            pkg.mark(self.part)


def strings(
    story: str, part: str, name: str, items: Callable[[], Iterator[tuple[str, etree._Element]]]
) -> Strings:
    def read() -> Paragraphs:
        return ((place, string_segments(item), False) for place, item in items())

    return Strings(story, part, (), read, name, items)


def excel_stories(pkg: EditablePackage) -> Iterator[Story]:
    main = pkg.main_part()
    book = sheets(pkg, main)
    users = cache(lambda: _cells_by_string(pkg, book))  # walks every cell: once, if asked
    for shared in pkg.targets(main, "sharedStrings")[:1]:

        def located(shared: str = shared) -> Iterator[tuple[str, etree._Element]]:
            items = pkg.xml(shared).iter(X_SI)
            return ((_place(users().get(n, []), n), si) for n, si in enumerate(items))

        yield strings("body", shared, "sharedStrings", located)
    for name, part in book:

        def inline(name: str = name, part: str = part) -> Iterator[tuple[str, etree._Element]]:
            return (
                (f"{name}!{item.getparent().get('r')}", item)
                for item in pkg.xml(part).iter(X_IS)
                if item.getparent() is not None and item.getparent().get("t") == "inlineStr"
            )

        yield strings("body", part, f"{name} inline strings", inline)
    for name, part in book:
        for comments in pkg.targets(part, "comments"):

            def notes(
                name: str = name, comments: str = comments
            ) -> Iterator[tuple[str, etree._Element]]:
                return (
                    (f"{name}!{c.get('ref')} comment", c.find(X_TEXT))
                    for c in pkg.xml(comments).iter(X_COMMENT)
                    if c.find(X_TEXT) is not None
                )

            yield strings("comments", comments, f"{name} comments", notes)
        for drawing in pkg.targets(part, "drawing"):
            yield story(pkg, drawing, "body", name)
            yield from chart_stories(pkg, drawing, name)
