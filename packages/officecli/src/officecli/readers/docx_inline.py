"""Word paragraph content: runs, links, tracked changes, fields, pictures, text boxes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from officecli.readers.math_latex import omath_latex
from officecli.readers.ooxml import R_EMBED, R_ID, escape_inline, local, picture_ext, q

if TYPE_CHECKING:
    from xml.etree.ElementTree import Element

    from officecli.readers.model import Document, ReadOptions
    from officecli.readers.safety import Package

W = q("w", "val")
R_LINK = q("r", "link")
CONTAINERS = {"smartTag", "customXml", "sdt", "sdtContent", "fldSimple", "bdo", "dir"}
GRAPHIC_KINDS = {
    "chart": "chart",
    "diagram": "SmartArt diagram",
    "wordprocessingCanvas": "drawing canvas",
    "wordprocessingGroup": "shape group",
}


@dataclass
class Pending:
    """What a paragraph produced besides its own text: pictures and text-box paragraphs."""

    images: list[tuple[str, str]] = field(default_factory=list)  # (alt, asset or "")
    charts: list[list[list[str]]] = field(default_factory=list)
    boxes: list[Element] = field(default_factory=list)
    unconverted: list[str] = field(default_factory=list)


def _on(rpr: Element | None, tag: str) -> bool:
    if rpr is None:
        return False
    el = rpr.find(q("w", tag))
    return el is not None and el.get(W, "true") not in ("0", "false", "none")


class InlineReader:
    """Turns the inline content of one paragraph into Markdown text."""

    def __init__(
        self, pkg: Package, part: str, doc: Document, options: ReadOptions, notes: dict[str, str]
    ) -> None:
        self.pkg = pkg
        self.rels = pkg.rels(part)
        self.doc = doc
        self.options = options
        self.note_labels = notes  # footnote/endnote/comment id -> label, filled as seen

    def paragraph(self, p: Element) -> tuple[str, Pending]:
        pending = Pending()
        pieces: list[tuple[str, str]] = []  # (style marker, text)
        self._walk(p, pieces, pending, "")
        return _join(pieces).strip(), pending

    def _walk(self, el: Element, out: list[tuple[str, str]], pending: Pending, change: str) -> None:
        for child in el:
            name = local(child.tag)
            if name == "r":
                self._run(child, out, pending, change)
            elif name == "hyperlink":
                inner: list[tuple[str, str]] = []
                self._walk(child, inner, pending, change)
                text = _join(inner)
                target = self.rels.get(child.get(R_ID, ""), ("", ""))[0]
                out.append(("", f"[{text}]({target})" if target and text else text))
            elif name in ("ins", "moveTo"):
                if self.options.track_changes != "reject":
                    self._walk(child, out, pending, "ins")
            elif name in ("del", "moveFrom"):
                if self.options.track_changes != "accept":
                    self._walk(child, out, pending, "del")
            elif name in ("oMath", "oMathPara"):
                latex = omath_latex(child)
                out.append(("", f"${latex}$" if latex else ""))
            elif name in CONTAINERS or name == "AlternateContent" or name == "Choice":
                self._walk(child, out, pending, change)

    def _run(self, r: Element, out: list[tuple[str, str]], pending: Pending, change: str) -> None:
        rpr = r.find(q("w", "rPr"))
        style = ("b" if _on(rpr, "b") else "") + ("i" if _on(rpr, "i") else "")
        if change == "del" and self.options.track_changes == "show":
            style += "d"
        elif change == "ins" and self.options.track_changes == "show":
            style += "n"
        for child in r:
            name = local(child.tag)
            if name == "t" or (name == "delText" and change == "del"):
                out.append((style, escape_inline(child.text or "")))
            elif name == "tab" or name in ("br", "cr"):
                out.append((style, " "))
            elif name == "noBreakHyphen":
                out.append((style, "-"))
            elif name in ("footnoteReference", "endnoteReference", "commentReference"):
                if name == "commentReference" and not self.options.comments:
                    continue
                prefix = {"footnoteReference": "", "endnoteReference": "e"}.get(name, "c")
                label = f"{prefix}{child.get(q('w', 'id'), '')}"
                self.note_labels[label] = name
                out.append(("", f"[^{label}]"))
            elif name == "drawing":
                self._drawing(child, pending)
            elif name == "pict":
                self._vml(child, pending)
            elif name == "AlternateContent":
                choice = child.find(q("mc", "Choice"))
                for sub in choice if choice is not None else []:
                    if local(sub.tag) == "drawing":
                        self._drawing(sub, pending)
                    elif local(sub.tag) == "pict":
                        self._vml(sub, pending)
            elif name == "sym":
                out.append((style, chr(int(child.get(q("w", "char"), "20"), 16))))

    def _drawing(self, drawing: Element, pending: Pending) -> None:
        doc_pr = next(drawing.iter(q("wp", "docPr")), None)
        alt = (doc_pr.get("descr") or doc_pr.get("name") or "") if doc_pr is not None else ""
        boxes = list(drawing.iter(q("w", "txbxContent")))
        pending.boxes.extend(boxes)
        blips = list(drawing.iter(q("a", "blip")))
        for blip in blips:
            linked = self.rels.get(blip.get(R_LINK, ""), ("", ""))[0]
            asset = f"link:{linked}" if linked and not blip.get(R_EMBED) else ""
            pending.images.append((alt, asset or self._asset(blip.get(R_EMBED, ""))))
        graphic = next(drawing.iter(q("a", "graphicData")), None)
        kind = graphic.get("uri", "").rpartition("/")[2] if graphic is not None else ""
        if kind == "chart":
            chart = next(graphic.iter(q("c", "chart")), None) if graphic is not None else None
            from officecli.readers.ooxml import chart_rows

            target = self.rels.get(chart.get(R_ID, "") if chart is not None else "", ("", ""))[0]
            rows = chart_rows(self.pkg, target) if target else []
            if rows:
                pending.charts.append(rows)
            else:
                pending.images.append((alt or "chart without cached data", ""))
        elif kind in GRAPHIC_KINDS and not blips and not boxes:
            pending.images.append((f"{GRAPHIC_KINDS[kind]} not converted", ""))
            pending.unconverted.append(GRAPHIC_KINDS[kind])

    def _vml(self, pict: Element, pending: Pending) -> None:
        pending.boxes.extend(pict.iter(q("w", "txbxContent")))
        for image in pict.iter(q("v", "imagedata")):
            title = image.get("{urn:schemas-microsoft-com:office:office}title", "")
            pending.images.append((title, self._asset(image.get(R_ID, ""))))

    def _asset(self, rel_id: str) -> str:
        target, _kind = self.rels.get(rel_id, ("", ""))
        if not target or not self.pkg.has(target):
            return ""
        return self.doc.add_asset("image", picture_ext(target), self.pkg.read(target))


_MARKS = {"b": ("**", "**"), "i": ("*", "*"), "d": ("~~", "~~"), "n": ("<ins>", "</ins>")}


def _join(pieces: list[tuple[str, str]]) -> str:
    """Concatenate runs, wrapping each stretch of equal formatting once."""
    out: list[str] = []
    i = 0
    while i < len(pieces):
        style, text = pieces[i]
        j = i + 1
        while j < len(pieces) and pieces[j][0] == style:
            text += pieces[j][1]
            j += 1
        core = text.strip()
        if style and core:
            lead = text[: len(text) - len(text.lstrip())]
            trail = text[len(text.rstrip()) :]
            for mark in "nbid":
                if mark in style:
                    opening, closing = _MARKS[mark]
                    core = f"{opening}{core}{closing}"
            text = f"{lead}{core}{trail}"
        out.append(text)
        i = j
    return "".join(out)
