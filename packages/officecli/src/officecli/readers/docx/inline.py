"""Word paragraph content: runs, links, tracked changes, fields, pictures, text boxes."""

from __future__ import annotations

import re

from officecli.readers.docx.math_latex import omath_latex
from officecli.readers.ooxml import R_EMBED, R_ID, escape_inline, local, picture_ext, q

TYPE_CHECKING = False
if TYPE_CHECKING:
    from xml.etree.ElementTree import Element

    from officecli.readers.model import Document, ReadOptions
    from officecli.readers.safety import Package

W = q("w", "val")
R_LINK = q("r", "link")
CONTAINERS = {"smartTag", "customXml", "sdt", "sdtContent", "bdo", "dir"}
GRAPHIC_KINDS = {
    "chart": "chart",
    "diagram": "SmartArt diagram",
    "wordprocessingCanvas": "drawing canvas",
    "wordprocessingGroup": "shape group",
}


HYPERLINK_URL = re.compile(r'^\s*HYPERLINK\s+"([^"]+)"')  # not `HYPERLINK \l "bookmark"`
# Around a display equation (m:oMathPara) in a paragraph's text: the paragraph is cut there,
# so the equation stands on a line of its own. Never in a document's text (a C0 control).
DISPLAY = "\x1e"


class Field:
    """A complex field being read (fldChar begin .. separate .. end): its instruction and
    where its displayed result starts in the pieces of the paragraph that holds it."""

    def __init__(self) -> None:
        self.instruction = ""
        self.pieces: list[tuple[str, str]] | None = None
        self.start = 0


class Pending:
    """What a paragraph produced besides its own text: pictures and text-box paragraphs."""

    def __init__(self) -> None:
        self.images: list[tuple[str, str]] = []  # (alt, asset or "")
        self.charts: list[list[list[str]]] = []
        self.boxes: list[Element] = []
        self.unconverted: list[str] = []


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
        self.fields: list[Field] = []  # open complex fields; they may span paragraphs

    def paragraph(self, p: Element, keep_tabs: bool = False) -> tuple[str, Pending]:
        """The paragraph's Markdown text; a tab is a space unless `keep_tabs`. A display
        equation stays `$$...$$` inside the text (a table cell, a note)."""
        parts, pending = self.paragraph_parts(p, keep_tabs)
        return " ".join(parts), pending

    def paragraph_parts(self, p: Element, keep_tabs: bool = False) -> tuple[list[str], Pending]:
        """The paragraph's text cut around its display equations: each `$$...$$` is a part of
        its own, and so is the text before and after it (empty parts left out)."""
        pending = Pending()
        pieces: list[tuple[str, str]] = []  # (style marker, text)
        self._walk(p, pieces, pending, "")
        text = _join(pieces) if keep_tabs else _join(pieces).replace("\t", " ")
        return [part.strip() for part in text.split(DISPLAY) if part.strip()], pending

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
            elif name == "oMath":
                latex = omath_latex(child)
                out.append(("", f"${latex}$" if latex else ""))
            elif name == "oMathPara":  # display math: a line of its own
                latex = omath_latex(child)
                out.append(("", f"{DISPLAY}$${latex}$${DISPLAY}" if latex else ""))
            elif name == "fldSimple":
                start = len(out)
                self._walk(child, out, pending, change)
                _link_field(child.get(q("w", "instr"), ""), out, start)
            elif name in CONTAINERS or name == "AlternateContent" or name == "Choice":
                self._walk(child, out, pending, change)

    def _field_char(self, kind: str, out: list[tuple[str, str]]) -> None:
        if kind == "begin":
            self.fields.append(Field())
        elif kind == "separate" and self.fields:
            self.fields[-1].pieces, self.fields[-1].start = out, len(out)
        elif kind == "end" and self.fields:
            done = self.fields.pop()
            if done.pieces is out:  # a field spanning paragraphs (a TOC) is not a link
                _link_field(done.instruction, out, done.start)

    def _ruby(self, ruby: Element, out: list[tuple[str, str]], pending: Pending) -> None:
        base: list[tuple[str, str]] = []
        reading: list[tuple[str, str]] = []
        for part, pieces in (("rubyBase", base), ("rt", reading)):
            el = ruby.find(q("w", part))
            if el is not None:
                self._walk(el, pieces, pending, "")
        base_text, reading_text = _join(base), _join(reading).strip()
        if self.options.ruby == "paren" and reading_text:
            base_text += f"({reading_text})"
        out.append(("", base_text))

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
            elif name == "tab":
                out.append((style, "\t"))
            elif name == "cr" or (name == "br" and child.get(q("w", "type")) != "page"):
                out.append((style, "\n"))  # a line break inside the paragraph, kept
            elif name == "br":
                out.append((style, " "))
            elif name == "fldChar":
                self._field_char(child.get(q("w", "fldCharType"), ""), out)
            elif name == "instrText" and self.fields:
                self.fields[-1].instruction += child.text or ""
            elif name == "ruby":
                self._ruby(child, out, pending)
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


def _link_field(instruction: str, out: list[tuple[str, str]], start: int) -> None:
    """Turn a HYPERLINK field's displayed result (out[start:]) into one Markdown link."""
    match = HYPERLINK_URL.match(instruction)
    text = _join(out[start:]).strip()
    if match and text:
        url = match.group(1)
        target = f"<{url}>" if any(ch in url for ch in " ()<>") else url
        out[start:] = [("", f"[{text}]({target})")]


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
