"""Word (WordprocessingML): the segments of each paragraph, and where it is.

Fields (their code is left out, their result is protected), tracked insertions and
deletions, and data-bound content controls are never edited; tabs and breaks are barriers.
Text boxes are stored twice (mc:Choice and mc:Fallback): both are edited, only the
mc:Choice copy is reported, so each replacement counts once.
"""

from __future__ import annotations

from collections.abc import Iterator

from lxml import etree

from officecli.office_replace.textedit import Segment, barrier

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
MC_FALLBACK = "{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback"


def w(name: str) -> str:
    return f"{{{W}}}{name}"


P, R, T, TBL, TR, TC = w("p"), w("r"), w("t"), w("tbl"), w("tr"), w("tc")
TXBX = w("txbxContent")
SDT, SDT_PR, SDT_CONTENT, DATA_BINDING = w("sdt"), w("sdtPr"), w("sdtContent"), w("dataBinding")
TRANSPARENT = {w(n) for n in ("hyperlink", "smartTag", "customXml", "bdo", "dir", "sdtContent")}
INSERTED = {w("ins"), w("moveTo")}
DELETED = {w("del"), w("moveFrom")}
RUN_BARRIERS = {
    w("tab"): "a tab",
    w("ptab"): "a tab",
    w("br"): "a line break",
    w("cr"): "a line break",
    w("noBreakHyphen"): "a non-breaking hyphen",
    w("softHyphen"): "a soft hyphen",
    w("sym"): "a symbol",
}
RUBY, RUBY_TEXT = w("ruby"), "text with ruby (furigana)"
OBJECTS = {
    w("drawing"): "a drawing",
    w("pict"): "a drawing",
    w("object"): "an embedded object",
    "{http://schemas.openxmlformats.org/markup-compatibility/2006}AlternateContent": "a drawing",
}
MATH = {
    f"{{http://schemas.openxmlformats.org/officeDocument/2006/math}}{n}"
    for n in ("oMath", "oMathPara")
}
FIELD = "a field"
TRACKED = "a tracked change"
BOUND = "a data-bound content control"


def _bound(sdt: etree._Element) -> bool:
    props = sdt.find(SDT_PR)
    return props is not None and props.find(DATA_BINDING) is not None


class _Collector:
    """Walks one paragraph (not the paragraphs of text boxes inside it)."""

    def __init__(self) -> None:
        self.segments: list[Segment] = []
        self.fields: list[str] = []  # stack of "code" / "result" for complex fields

    def walk(self, el: etree._Element, protected: str) -> None:
        for child in el:
            tag = child.tag
            if tag == R:
                self.run(child, protected)
            elif tag in INSERTED:
                self.walk(child, protected or TRACKED)
            elif tag in DELETED:
                self.segments.append(barrier(TRACKED, ""))
            elif tag == w("fldSimple"):
                self.walk(child, protected or FIELD)
            elif tag == SDT:
                content = child.find(SDT_CONTENT)
                if content is not None:
                    self.walk(content, protected or (BOUND if _bound(child) else ""))
            elif tag in TRANSPARENT:
                self.walk(child, protected)
            elif tag in MATH:
                self.segments.append(barrier("an equation", ""))
            # anything else (properties, bookmarks) holds no paragraph text

    def run(self, r: etree._Element, protected: str) -> None:
        for child in r:
            tag = child.tag
            if tag == T:
                if self.fields and self.fields[-1] == "code":
                    continue
                reason = protected or (FIELD if self.fields else "")
                self.segments.append(Segment(child, child.text or "", reason, preserve_space=True))
            elif tag in RUN_BARRIERS:
                self.segments.append(barrier(RUN_BARRIERS[tag]))
            elif tag == RUBY:
                base = child.find(w("rubyBase"))
                for t in base.iter(T) if base is not None else ():
                    self.segments.append(Segment(t, t.text or "", RUBY_TEXT, preserve_space=True))
            elif tag in OBJECTS:
                self.segments.append(barrier(OBJECTS[tag], ""))
            elif tag == w("fldChar"):
                kind = child.get(w("fldCharType"))
                if kind == "begin":
                    self.fields.append("code")
                elif kind == "separate" and self.fields:
                    self.fields[-1] = "result"
                elif kind == "end" and self.fields:
                    self.fields.pop()


def _container(el: etree._Element, tables: dict[etree._Element, int]) -> str:
    if el.tag == TC:
        row = el.getparent()
        table = row.getparent() if row is not None else None
        if row is None or table is None:
            return ""
        r = [c for c in table if c.tag == TR].index(row) + 1
        c = [c for c in row if c.tag == TC].index(el) + 1
        return f"table {tables.get(table, 0)} r{r}c{c}"
    if el.tag == TXBX:
        return "text box"
    return ""


def paragraphs(root: etree._Element) -> Iterator[tuple[str, list[Segment], bool]]:
    """(place, segments, silent) for every paragraph of a part, in document order.

    `silent` marks the mc:Fallback copy of a text box: edited, not reported.
    """
    tables = {t: n for n, t in enumerate(root.iter(TBL), 1)}
    number = 0
    for p in root.iter(P):
        silent, protected, where = False, "", []
        for anc in p.iterancestors():
            if anc.tag == MC_FALLBACK:
                silent = True
            elif anc.tag == SDT and _bound(anc):
                protected = BOUND
            elif anc.tag in (TC, TXBX) and _container(anc, tables):
                where.append(_container(anc, tables))
        collector = _Collector()
        collector.walk(p, protected)
        if not silent:
            number += 1
        place = " / ".join([*reversed(where), f"paragraph {number}"])
        yield place, collector.segments, silent
