"""draw.io reader: per page, shape labels and edges as `A -> B (label)` lines."""

from __future__ import annotations

import base64
import binascii
import html
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote

from agentcli.files import FileTooLargeError, read_regular
from officecli.readers.model import Block, Document, ReadOptions, count_chars
from officecli.readers.ooxml import escape_inline
from officecli.readers.safety import (
    BrokenFileError,
    ExpansionBudget,
    inflate_limited,
    parse_xml,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from xml.etree.ElementTree import Element

MAX_FILE_BYTES = 64 * 1024 * 1024
MAX_EXPANDED_BYTES = 64 * 1024 * 1024  # all compressed pages of one file together
BREAKS = {"br", "div", "p", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6"}


class _HtmlText(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in BREAKS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def label_text(value: str, is_html: bool) -> str:
    """A label as plain text: HTML labels lose their tags, lines are joined with ' / '."""
    if is_html:
        parser = _HtmlText()
        parser.feed(value)
        parser.close()
        value = "".join(parser.parts)
    lines = [" ".join(line.split()) for line in value.replace("\xa0", " ").splitlines()]
    return " / ".join(line for line in lines if line)


def _raw_label_chars(value: str) -> int:
    """Independent count: tags removed by a regular expression, entities decoded."""
    return count_chars(html.unescape(re.sub(r"<[^>]*>", " ", value)))


def _inflated(diagram: Element, label: str, budget: ExpansionBudget) -> str | None:
    """A page's compressed model as XML text; None when the page holds it as elements."""
    if diagram.find("mxGraphModel") is not None:
        return None
    data = (diagram.text or "").strip()
    if not data:
        return ""
    try:
        packed = base64.b64decode(data, validate=False)
    except (binascii.Error, ValueError) as exc:
        raise BrokenFileError(f"{label}: diagram data is not base64 ({exc})") from None
    inflated = inflate_limited(packed, budget.left, label)
    budget.take(len(inflated), label)
    return unquote(inflated.decode("utf-8", "replace"))


def _pages(root: Element, name: str) -> list[tuple[str, Element]]:
    """(page name, model) of every page; every page is inflated within the file's budget
    before any is parsed, so a bomb costs no parsing."""
    budget = ExpansionBudget(name, MAX_EXPANDED_BYTES)
    diagrams = root.findall("diagram")
    texts = [_inflated(d, f"{name}: page {n}", budget) for n, d in enumerate(diagrams, 1)]
    pages = []
    for n, (diagram, text) in enumerate(zip(diagrams, texts, strict=True), 1):
        if text is None:
            model = diagram.find("mxGraphModel")
        else:
            model = parse_xml(text, f"{name}: page {n}") if text else None
        if model is not None:
            pages.append((diagram.get("name") or f"Page-{n}", model))
    return pages


def _fill_placeholders(value: str, attrs: dict[str, str]) -> str:
    return re.sub(r"%(\w+)%", lambda m: attrs.get(m.group(1), m.group(0)), value)


def _cells(model: Element) -> list[tuple[Element, Element]]:
    """(cell, element holding the label and id): object/UserObject wrappers hold them."""
    root = model.find("root")
    out = []
    for el in root if root is not None else []:
        if el.tag == "mxCell":
            out.append((el, el))
        elif el.tag in ("object", "UserObject"):
            cell = el.find("mxCell")
            if cell is not None:
                out.append((cell, el))
    return out


def _page(doc: Document, name: str, model: Element) -> None:
    doc.add(Block("heading", escape_inline(name), level=2))
    labels: dict[str, str] = {}
    vertices: list[str] = []
    edges: list[tuple[str, str, str, str]] = []  # id, source, target, label
    parents: dict[str, str] = {}
    for cell, holder in _cells(model):
        cid = holder.get("id", "")
        value = holder.get("label" if holder is not cell else "value", "") or ""
        if holder.get("placeholders") == "1":  # %name% is filled from the wrapper's attributes
            value = _fill_placeholders(value, dict(holder.attrib))
        doc.raw_chars += _raw_label_chars(value)
        text = label_text(value, "html=1" in (cell.get("style") or "") or holder is not cell)
        labels[cid] = text
        parents[cid] = cell.get("parent", "")
        if cell.get("edge") == "1":
            edges.append((cid, cell.get("source", ""), cell.get("target", ""), text))
        elif cell.get("vertex") == "1":
            vertices.append(cid)
    edge_ids = {e[0] for e in edges}
    edge_labels: dict[str, list[str]] = {}
    shapes: list[str] = []
    for vid in vertices:
        if parents.get(vid) in edge_ids:  # a label placed on an edge
            if labels[vid]:
                edge_labels.setdefault(parents[vid], []).append(labels[vid])
        elif labels[vid]:
            shapes.append(labels[vid])
    if shapes:
        doc.add(Block("heading", "Shapes", level=3))
        for text in shapes:
            doc.add(Block("list_item", escape_inline(text)))
    if edges:
        doc.add(Block("heading", "Edges", level=3))
        for eid, source, target, text in edges:
            names = [text] if text else []
            names += edge_labels.get(eid, [])
            suffix = f" ({'; '.join(names)})" if names else ""
            start = labels.get(source) or source or "?"
            end = labels.get(target) or target or "?"
            doc.add(Block("list_item", escape_inline(f"{start} -> {end}{suffix}")))


def read_drawio(path: Path, options: ReadOptions) -> Document:
    try:
        data = read_regular(path, MAX_FILE_BYTES, path.name)
    except FileTooLargeError:
        raise BrokenFileError(f"{path.name}: larger than {MAX_FILE_BYTES} bytes") from None
    root = parse_xml(data, path.name)
    if root.tag == "mxGraphModel":
        pages = [("Page-1", root)]
    elif root.tag == "mxfile":
        pages = _pages(root, path.name)
    else:
        raise BrokenFileError(f"{path.name}: not a draw.io file (root element <{root.tag}>)")
    doc = Document()
    doc.counts["pages"] = len(pages)
    for name, model in pages:
        _page(doc, name, model)
    return doc
