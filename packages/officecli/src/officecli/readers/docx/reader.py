"""Word (.docx) reader: headings, lists, tables, notes, comments, headers and footers."""

from __future__ import annotations

import re
from pathlib import Path

from officecli.readers.docx.inline import InlineReader, Pending
from officecli.readers.model import Block, Document, ReadOptions, count_chars
from officecli.readers.ooxml import R_ID, local, q, raw_text_chars
from officecli.readers.safety import BrokenFileError, Package

TYPE_CHECKING = False
if TYPE_CHECKING:
    from xml.etree.ElementTree import Element

W_VAL = q("w", "val")
BODY = "word/document.xml"
NESTED_MARK = "[nested table flattened]"
DISPLAY_MATH = q("m", "oMathPara")
TOC_STYLE = re.compile(r"^toc (\d)$")
LIST_STYLE_LEVEL = re.compile(r"^list (?:bullet|number|continue|paragraph) ([2-9])$")
PAGE_NUMBER = re.compile(r"\t\s*[\divxlcIVXLC]+$")


def heading_anchor(text: str) -> str:
    """The anchor Markdown renderers give a heading (GitHub style): lower case, no
    punctuation, spaces as hyphens; letters of any script are kept."""
    plain = re.sub(r"\\(.)", r"\1", text).lower()
    return "#" + re.sub(r"[^\w\- ]", "", plain).replace(" ", "-")


class Styles:
    """Paragraph style id -> heading level and list numbering, following basedOn chains."""

    def __init__(self, pkg: Package) -> None:
        self.by_id: dict[str, Element] = {}
        if pkg.has("word/styles.xml"):
            for style in pkg.xml("word/styles.xml").iter(q("w", "style")):
                self.by_id[style.get(q("w", "styleId"), "")] = style

    def _chain(self, style_id: str) -> list[Element]:
        out: list[Element] = []
        while style_id in self.by_id and len(out) < 20:
            style = self.by_id[style_id]
            out.append(style)
            based = style.find(q("w", "basedOn"))
            style_id = based.get(W_VAL, "") if based is not None else ""
        return out

    def heading_level(self, style_id: str) -> int:
        for style in self._chain(style_id):
            name_el = style.find(q("w", "name"))
            name = (name_el.get(W_VAL, "") if name_el is not None else "").lower()
            if name == "title":
                return 1
            if name.startswith("heading ") and name[8:].isdigit():
                return min(int(name[8:]), 6)
            level = style.find(f"{q('w', 'pPr')}/{q('w', 'outlineLvl')}")
            if level is not None and level.get(W_VAL, "9").isdigit():
                n = int(level.get(W_VAL, "9"))
                if n < 9:
                    return min(n + 1, 6)
        return 0

    def toc_level(self, style_id: str) -> int:
        """1.. for the paragraph styles of table-of-contents entries ("toc 1", ...), else 0."""
        for style in self._chain(style_id):
            name_el = style.find(q("w", "name"))
            found = TOC_STYLE.match((name_el.get(W_VAL, "") if name_el is not None else "").lower())
            if found:
                return int(found.group(1))
        return 0

    def numbering(self, style_id: str) -> tuple[str, int, int] | None:
        """(numId, level, depth) from the style; "List Bullet 2" and the like are at depth 1
        even when their numbering is a separate level-0 list (as in Word's own templates)."""
        for style in self._chain(style_id):
            num = style.find(f"{q('w', 'pPr')}/{q('w', 'numPr')}")
            if num is None:
                continue
            found = _num_pr(num)
            if found is not None:
                name_el = style.find(q("w", "name"))
                name = (name_el.get(W_VAL, "") if name_el is not None else "").lower()
                by_name = LIST_STYLE_LEVEL.match(name)
                if by_name and found[1] == 0:
                    return found[0], 0, int(by_name.group(1)) - 1
            return found
        return None


def _num_pr(num: Element) -> tuple[str, int, int] | None:
    """(numId, level, depth): the numbering level, and how deep the item is nested."""
    num_id = num.find(q("w", "numId"))
    ilvl = num.find(q("w", "ilvl"))
    if num_id is None or num_id.get(W_VAL, "0") == "0":
        return None
    level = int(ilvl.get(W_VAL, "0")) if ilvl is not None else 0
    return num_id.get(W_VAL, ""), level, level


class Numbering:
    """numId and level -> whether the list is ordered (anything but bullets), and the
    number Word shows: counted per abstract list, so a list continued after other
    paragraphs goes on counting, unless the numId restarts it (startOverride); a level
    restarts after an item above it."""

    def __init__(self, pkg: Package) -> None:
        self.formats: dict[tuple[str, int], str] = {}
        self.starts: dict[tuple[str, int], int] = {}
        self.abstract_of: dict[str, str] = {}  # numId -> abstractNumId
        self.counters: dict[tuple[str, int], int] = {}  # (list, level) -> last number
        self.restarted: set[tuple[str, int]] = set()  # (numId, level) with a startOverride
        if not pkg.has("word/numbering.xml"):
            return
        root = pkg.xml("word/numbering.xml")
        abstract: dict[str, dict[int, tuple[str, int]]] = {}
        for ab in root.iter(q("w", "abstractNum")):
            levels = abstract.setdefault(ab.get(q("w", "abstractNumId"), ""), {})
            for lvl in ab.iter(q("w", "lvl")):
                fmt = lvl.find(q("w", "numFmt"))
                start = lvl.find(q("w", "start"))
                levels[int(lvl.get(q("w", "ilvl"), "0"))] = (
                    fmt.get(W_VAL, "decimal") if fmt is not None else "decimal",
                    int(start.get(W_VAL, "1")) if start is not None else 1,
                )
        for num in root.iter(q("w", "num")):
            ab_el = num.find(q("w", "abstractNumId"))
            ab_id = ab_el.get(W_VAL, "") if ab_el is not None else ""
            num_id = num.get(q("w", "numId"), "")
            self.abstract_of[num_id] = ab_id
            for lvl_n, (fmt_name, first) in abstract.get(ab_id, {}).items():
                self.formats[(num_id, lvl_n)] = fmt_name
                self.starts[(num_id, lvl_n)] = first
            for override in num.iter(q("w", "lvlOverride")):
                start = override.find(q("w", "startOverride"))
                if start is not None:  # "restart numbering": this list counts on its own
                    level = int(override.get(q("w", "ilvl"), "0"))
                    self.starts[(num_id, level)] = int(start.get(W_VAL, "1"))
                    self.restarted.add((num_id, level))

    def ordered(self, num_id: str, level: int) -> bool:
        return self.formats.get((num_id, level), "bullet") not in ("bullet", "none")

    def next_number(self, num_id: str, level: int) -> int:
        restarted = (num_id, level) in self.restarted
        key = (num_id if restarted else self.abstract_of.get(num_id, num_id), level)
        number = self.counters.get(key, self.starts.get((num_id, level), 1) - 1) + 1
        self.counters[key] = number
        for deeper in [k for k in self.counters if k[0] == key[0] and k[1] > level]:
            del self.counters[deeper]
        return number


class DocxReader:
    def __init__(self, pkg: Package, options: ReadOptions) -> None:
        self.pkg = pkg
        self.options = options
        self.doc = Document()
        self.styles = Styles(pkg)
        self.numbering = Numbering(pkg)
        self.note_refs: dict[str, str] = {}
        self.in_toc = False
        self.dropped_chars = 0  # left out on purpose: --no-toc, page numbers of a TOC

    def read(self) -> Document:
        if not self.pkg.has(BODY):
            raise BrokenFileError(f"{self.pkg.label}: no word/document.xml; not a Word document")
        root = self.pkg.xml(BODY)
        body = root.find(q("w", "body"))
        if body is None:
            raise BrokenFileError(f"{self.pkg.label}: word/document.xml has no body")
        raw_parts = [BODY]
        headers, footers = self._header_footer_parts(body)
        if self.options.header_footer:
            self._side_parts(headers, "Header")
            raw_parts += headers
        inline = InlineReader(self.pkg, BODY, self.doc, self.options, self.note_refs)
        self._blocks(body, inline)
        self._end_toc()
        if self.options.header_footer:
            self._side_parts(footers, "Footer")
            raw_parts += footers
        raw_parts += self._notes()
        self.doc.raw_chars = self._raw_chars(raw_parts) - self.dropped_chars
        return self.doc

    def _header_footer_parts(self, body: Element) -> tuple[list[str], list[str]]:
        rels = self.pkg.rels(BODY)
        found: dict[str, list[str]] = {"headerReference": [], "footerReference": []}
        for sect in body.iter(q("w", "sectPr")):
            for ref in sect:
                kind = local(ref.tag)
                target = rels.get(ref.get(R_ID, ""), ("", ""))[0]
                if kind in found and target and target not in found[kind]:
                    found[kind].append(target)
        return found["headerReference"], found["footerReference"]

    def _side_parts(self, parts: list[str], label: str) -> None:
        seen: set[str] = set()
        for part in parts:
            if not self.pkg.has(part):
                continue
            inline = InlineReader(self.pkg, part, self.doc, self.options, self.note_refs)
            for p in self.pkg.xml(part).iter(q("w", "p")):
                text, pending = inline.paragraph(p)
                if text and text not in seen:
                    seen.add(text)
                    self.doc.add(Block("quote", f"{label}: {text}"))
                self._pending(pending, inline)

    def _blocks(self, container: Element, inline: InlineReader) -> None:
        for child in container:
            name = local(child.tag)
            if name == "p":
                self._paragraph(child, inline)
            elif name == "tbl":
                self.doc.add(Block("table", rows=self._table(child, inline)))
            elif name in ("sdt", "sdtContent", "customXml") or (
                name in ("ins", "moveTo") and self.options.track_changes != "reject"
            ):
                self._blocks(child, inline)

    def _toc_entry(self, text: str, level: int) -> None:
        """A table-of-contents line as a link to its heading, without its page number."""
        title = PAGE_NUMBER.sub("", text).replace("\t", " ").strip()
        if not self.options.toc:
            self.dropped_chars += count_chars(text)
            return
        if not self.in_toc:
            self.doc.add(Block("marker", "toc"))
            self.in_toc = True
        self.dropped_chars += count_chars(text) - count_chars(title)  # the page number
        link = f"[{title}]({heading_anchor(title)})" if title else ""
        self.doc.add(Block("list_item", link, level=level - 1))

    def _end_toc(self) -> None:
        if self.in_toc:
            self.doc.add(Block("marker", "/toc"))
            self.in_toc = False

    def _paragraph(self, p: Element, inline: InlineReader) -> None:
        ppr = p.find(q("w", "pPr"))
        style_el = ppr.find(q("w", "pStyle")) if ppr is not None else None
        style_id = style_el.get(W_VAL, "") if style_el is not None else ""
        toc = self.styles.toc_level(style_id)
        parts, pending = inline.paragraph_parts(p, keep_tabs=bool(toc))
        text = " ".join(parts)
        if toc:
            if text:
                self._toc_entry(text, toc)
            return
        self._end_toc()
        level = self.styles.heading_level(style_id)
        outline = ppr.find(q("w", "outlineLvl")) if ppr is not None else None
        if outline is not None and outline.get(W_VAL, "9").isdigit():
            n = int(outline.get(W_VAL, "9"))
            level = min(n + 1, 6) if n < 9 else 0
        num_pr = ppr.find(q("w", "numPr")) if ppr is not None else None
        numbering = _num_pr(num_pr) if num_pr is not None else self.styles.numbering(style_id)
        if next(p.iter(DISPLAY_MATH), None) is not None:  # cut around its display equations
            for part in parts:
                self.doc.add(Block("paragraph", part))
        elif text:
            if level:
                self.doc.add(Block("heading", text, level=level))
            elif numbering is not None:
                num_id, num_level, depth = numbering
                ordered = self.numbering.ordered(num_id, num_level)
                number = self.numbering.next_number(num_id, num_level)
                item = Block("list_item", text, level=depth, ordered=ordered, number=number)
                self.doc.add(item)
            else:
                self.doc.add(Block("paragraph", text))
        self._pending(pending, inline)

    def _pending(self, pending: Pending, inline: InlineReader) -> None:
        for alt, asset in pending.images:
            self.doc.add(Block("image", alt, asset=asset))
        for rows in pending.charts:
            self.doc.add(Block("table", rows=rows))
        for box in pending.boxes:
            for p in box.iter(q("w", "p")):
                text, inner = inline.paragraph(p)
                if text:
                    self.doc.add(Block("quote", text))
                self._pending(inner, inline)
        for what in pending.unconverted:
            self.doc.notes.append(f"{what} not converted")

    def _table(self, tbl: Element, inline: InlineReader) -> list[list[str]]:
        rows: list[list[str]] = []
        above: dict[int, str] = {}  # grid column -> value of the merge that covers it
        for tr in tbl.findall(q("w", "tr")):
            row: list[str] = []
            for tc in tr.findall(q("w", "tc")):
                tcpr = tc.find(q("w", "tcPr"))
                span_el = tcpr.find(q("w", "gridSpan")) if tcpr is not None else None
                span = int(span_el.get(W_VAL, "1")) if span_el is not None else 1
                vmerge = tcpr.find(q("w", "vMerge")) if tcpr is not None else None
                col = len(row)
                if vmerge is not None and vmerge.get(W_VAL, "continue") == "continue":
                    text = above.get(col, "")
                else:
                    text = self._cell_text(tc, inline)
                    above[col] = text
                row.append(text)
                row.extend("" for _ in range(span - 1))
            rows.append(row)
        width = max((len(r) for r in rows), default=0)
        return [r + [""] * (width - len(r)) for r in rows]

    def _cell_text(self, tc: Element, inline: InlineReader) -> str:
        parts: list[str] = []
        for child in tc:
            name = local(child.tag)
            if name == "p":
                text, pending = inline.paragraph(child)
                if text:
                    parts.append(text)
                for alt, asset in pending.images:
                    self.doc.add(Block("image", alt, asset=asset))
            elif name == "tbl":
                nested = self._table(child, inline)
                flat = " / ".join("; ".join(c for c in r if c) for r in nested)
                parts.append(
                    f"{NESTED_MARK} {flat}"
                )  # visible where it happened, not only in the report
                self.doc.notes.append("nested table flattened into its parent cell")
            elif name == "sdt":
                content = child.find(q("w", "sdtContent"))
                parts.append(self._cell_text(child if content is None else content, inline))
        return "<br>".join(p for p in parts if p)

    def _notes(self) -> list[str]:
        """Footnotes, endnotes and comments as Markdown footnotes; returns the parts read."""
        parts = []
        sources = [
            ("word/footnotes.xml", "footnote", ""),
            ("word/endnotes.xml", "endnote", "e"),
        ]
        if self.options.comments:
            sources.append(("word/comments.xml", "comment", "c"))
        for part, tag, prefix in sources:
            if not self.pkg.has(part):
                continue
            parts.append(part)
            inline = InlineReader(self.pkg, part, self.doc, self.options, {})
            for note in self.pkg.xml(part).iter(q("w", tag)):
                label = f"{prefix}{note.get(q('w', 'id'), '')}"
                if label not in self.note_refs:
                    continue  # separators and unreferenced notes
                texts = [inline.paragraph(p)[0] for p in note.iter(q("w", "p"))]
                author = note.get(q("w", "author"), "")
                body = " ".join(t for t in texts if t)
                if author:
                    body = f"{author}: {body}"
                self.doc.add(Block("paragraph", f"[^{label}]: {body}"))
        return parts

    def _raw_chars(self, parts: list[str]) -> int:
        tags = [q("w", "t"), q("m", "t")]
        if self.options.track_changes != "accept":
            tags.append(q("w", "delText"))
        total = 0
        for part in parts:
            if self.pkg.has(part):
                root = self.pkg.xml(part)
                total += raw_text_chars(root, tags)
                if self.options.track_changes == "reject":
                    for ins in root.iter(q("w", "ins")):
                        total -= raw_text_chars(ins, [q("w", "t")])
                if self.options.ruby == "base":  # furigana readings left out on purpose
                    for reading in root.iter(q("w", "rt")):
                        total -= raw_text_chars(reading, [q("w", "t")])
        for part in self.pkg.names:
            if part.startswith("word/diagrams/data") or part.startswith("word/charts/chart"):
                total += raw_text_chars(self.pkg.xml(part), [q("a", "t"), q("c", "v")])
        return total


def read_docx(path: Path, options: ReadOptions) -> Document:
    with Package(path) as pkg:
        return DocxReader(pkg, options).read()
