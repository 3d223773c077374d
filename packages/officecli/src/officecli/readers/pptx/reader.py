"""PowerPoint (.pptx) reader: one section per slide, shapes in reading order, notes."""

from __future__ import annotations

from pathlib import Path

from officecli.readers.model import Block, Document, ReadOptions
from officecli.readers.ooxml import (
    R_EMBED,
    R_ID,
    chart_raw_chars,
    chart_rows,
    chart_title,
    escape_inline,
    local,
    picture_ext,
    q,
    raw_text_chars,
)
from officecli.readers.safety import BrokenFileError, Package

TYPE_CHECKING = False
if TYPE_CHECKING:
    from xml.etree.ElementTree import Element

PRESENTATION = "ppt/presentation.xml"
TITLE_TYPES = ("title", "ctrTitle")


def _position(shape: Element) -> tuple[int, int]:
    off = next(shape.iter(q("a", "off")), None)
    if off is None:
        return (0, 0)
    return (int(off.get("y", "0")), int(off.get("x", "0")))


def _placeholder(shape: Element) -> str:
    ph = next(shape.iter(q("p", "ph")), None)
    if ph is None:
        return ""
    return ph.get("type", "body")


def _paragraph_text(p: Element, rels: dict[str, tuple[str, str]]) -> str:
    out: list[str] = []
    for child in p:
        name = local(child.tag)
        if name in ("r", "fld"):
            t = child.find(q("a", "t"))
            text = escape_inline(t.text or "") if t is not None else ""
            rpr = child.find(q("a", "rPr"))
            link = rpr.find(q("a", "hlinkClick")) if rpr is not None else None
            target = rels.get(link.get(R_ID, ""), ("", ""))[0] if link is not None else ""
            if rpr is not None and text.strip():
                if rpr.get("b") == "1":
                    text = f"**{text.strip()}**"
                if rpr.get("i") == "1":
                    text = f"*{text.strip()}*"
            out.append(f"[{text}]({target})" if target.startswith("http") and text else text)
        elif name == "br":
            out.append("\n")  # a line break inside the paragraph, kept
    return "".join(out).strip()


class PptxReader:
    def __init__(self, pkg: Package, options: ReadOptions) -> None:
        self.pkg = pkg
        self.options = options
        self.doc = Document()

    def read(self) -> Document:
        if not self.pkg.has(PRESENTATION):
            raise BrokenFileError(
                f"{self.pkg.label}: no ppt/presentation.xml; not a PowerPoint file"
            )
        rels = self.pkg.rels(PRESENTATION)
        slides = []
        for sld in self.pkg.xml(PRESENTATION).iter(q("p", "sldId")):
            target = rels.get(sld.get(R_ID, ""), ("", ""))[0]
            if target and self.pkg.has(target):
                slides.append(target)
        self.doc.counts["slides"] = len(slides)
        for n, part in enumerate(slides, 1):
            self._slide(n, part)
        return self.doc

    def _slide(self, number: int, part: str) -> None:
        root = self.pkg.xml(part)
        rels = self.pkg.rels(part)
        self.doc.raw_chars += raw_text_chars(root, [q("a", "t")])
        tree = next(root.iter(q("p", "spTree")), None)
        shapes = self._flatten(tree) if tree is not None else []
        title = ""
        for shape in shapes:
            if _placeholder(shape) in TITLE_TYPES:
                title = " ".join(
                    t for t in (_paragraph_text(p, rels) for p in shape.iter(q("a", "p"))) if t
                )
                break
        self.doc.add(
            Block("heading", f"Slide {number}: {title}" if title else f"Slide {number}", level=2)
        )
        for shape in sorted(shapes, key=_position):
            if _placeholder(shape) in TITLE_TYPES:
                continue
            self._shape(shape, rels)
        self._notes(rels)

    def _flatten(self, tree: Element) -> list[Element]:
        out: list[Element] = []
        for child in tree:
            name = local(child.tag)
            if name == "grpSp":
                out.extend(self._flatten(child))
            elif name in ("sp", "pic", "graphicFrame", "cxnSp"):
                out.append(child)
            elif name == "AlternateContent":
                choice = child.find(q("mc", "Choice"))
                if choice is not None:
                    out.extend(self._flatten(choice))
        return out

    def _shape(self, shape: Element, rels: dict[str, tuple[str, str]]) -> None:
        name = local(shape.tag)
        if name == "sp":
            body = shape.find(q("p", "txBody"))
            as_list = _placeholder(shape) in ("body", "obj")
            for p in body.iter(q("a", "p")) if body is not None else []:
                text = _paragraph_text(p, rels)
                if not text:
                    continue
                ppr = p.find(q("a", "pPr"))
                level = int(ppr.get("lvl", "0")) if ppr is not None else 0
                numbered = ppr is not None and ppr.find(q("a", "buAutoNum")) is not None
                marked = ppr is not None and ppr.find(q("a", "buChar")) is not None
                unmarked = ppr is not None and ppr.find(q("a", "buNone")) is not None
                if numbered or marked or (as_list and not unmarked):
                    self.doc.add(Block("list_item", text, level=level, ordered=numbered))
                else:
                    self.doc.add(Block("paragraph", text))
        elif name == "pic":
            blip = next(shape.iter(q("a", "blip")), None)
            c_nv = next(shape.iter(q("p", "cNvPr")), None)
            alt = (c_nv.get("descr") or c_nv.get("name") or "") if c_nv is not None else ""
            target = rels.get(blip.get(R_EMBED, "") if blip is not None else "", ("", ""))[0]
            asset = ""
            if target and self.pkg.has(target):
                asset = self.doc.add_asset("image", picture_ext(target), self.pkg.read(target))
            self.doc.add(Block("image", alt, asset=asset))
        elif name == "graphicFrame":
            self._frame(shape, rels)

    def _frame(self, frame: Element, rels: dict[str, tuple[str, str]]) -> None:
        table = next(frame.iter(q("a", "tbl")), None)
        if table is not None:
            self.doc.add(Block("table", rows=self._table(table, rels)))
            return
        chart = next(frame.iter(q("c", "chart")), None)
        if chart is not None:
            part = rels.get(chart.get(R_ID, ""), ("", ""))[0]
            self.doc.raw_chars += chart_raw_chars(self.pkg, part)
            rows = chart_rows(self.pkg, part)
            title = chart_title(self.pkg, part)
            if title:
                self.doc.add(Block("paragraph", f"**{title}**"))
            if rows:
                self.doc.add(Block("table", rows=rows))
            else:
                self.doc.add(Block("image", "chart without cached data"))
                self.doc.notes.append("chart without cached data not converted")
            return
        graphic = next(frame.iter(q("a", "graphicData")), None)
        kind = graphic.get("uri", "").rpartition("/")[2] if graphic is not None else "object"
        label = "SmartArt diagram" if kind == "diagram" else f"embedded {kind}"
        self.doc.add(Block("image", f"{label} not converted"))
        self.doc.notes.append(f"{label} not converted")
        for rel_target, rel_kind in rels.values():
            if rel_kind == "diagramData" and self.pkg.has(rel_target):
                self.doc.raw_chars += raw_text_chars(self.pkg.xml(rel_target), [q("a", "t")])

    def _table(self, tbl: Element, rels: dict[str, tuple[str, str]]) -> list[list[str]]:
        rows: list[list[str]] = []
        above: dict[int, str] = {}
        for tr in tbl.findall(q("a", "tr")):
            row: list[str] = []
            for col, tc in enumerate(tr.findall(q("a", "tc"))):
                text = "<br>".join(
                    t for t in (_paragraph_text(p, rels) for p in tc.iter(q("a", "p"))) if t
                )
                if tc.get("vMerge") == "1":
                    text = above.get(col, "")
                elif tc.get("hMerge") == "1":
                    text = ""
                else:
                    above[col] = text
                row.append(text)
            rows.append(row)
        return rows

    def _notes(self, rels: dict[str, tuple[str, str]]) -> None:
        for target, kind in rels.values():
            if kind != "notesSlide" or not self.pkg.has(target):
                continue
            root = self.pkg.xml(target)
            texts: list[str] = []
            for shape in root.iter(q("p", "sp")):
                if _placeholder(shape) != "body":
                    continue
                self.doc.raw_chars += raw_text_chars(shape, [q("a", "t")])
                texts += [t for t in (_paragraph_text(p, {}) for p in shape.iter(q("a", "p"))) if t]
            if texts:
                self.doc.add(Block("heading", "Notes", level=3))
                for text in texts:
                    self.doc.add(Block("paragraph", text))


def read_pptx(path: Path, options: ReadOptions) -> Document:
    with Package(path) as pkg:
        return PptxReader(pkg, options).read()
