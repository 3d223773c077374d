"""Fidelity of a Markdown conversion, measured the way a renderer reads it.

Text recall: the share of the source's words (CJK: characters) that the rendered Markdown
shows. The reference words come straight from the file's XML or PDF text layer, through
neither tool's reader, so both tools are measured against the same thing. Structure: the
headings, list items, tables and table rows markdown-it-py parses out of the Markdown.
"""

from __future__ import annotations

import re
import zipfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from markdown_it import MarkdownIt

PARSER = MarkdownIt("commonmark").enable("table")
WIDE = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef"
TOKEN = re.compile(rf"[{WIDE}]|[^\W{WIDE}]+")
XML_TEXT = re.compile(r"<(?:w:t|a:t|t|v)(?: [^>]*)?>([^<]*)</(?:w:t|a:t|t|v)>")
OOXML_PARTS = re.compile(r"^(word/(document|footnotes|endnotes|comments|header\d*|footer\d*)|"
                         r"ppt/(slides|notesSlides)/|xl/(sharedStrings|worksheets/|charts/)|"
                         r"ppt/charts/|word/charts/)")  # fmt: skip


@dataclass
class Fidelity:
    recall: float  # share of the reference words shown, 0..1
    headings: int
    list_items: int
    tables: int
    table_rows: int


def tokens(text: str) -> Counter[str]:
    return Counter(TOKEN.findall(text.lower()))


def reference_text(path: Path) -> str:
    """The source's own text: XML text nodes of Office files, the PDF's text layer."""
    suffix = path.suffix.lower()
    if suffix in (".docx", ".pptx", ".xlsx"):
        with zipfile.ZipFile(path) as pkg:
            parts = [n for n in pkg.namelist() if OOXML_PARTS.match(n) and n.endswith(".xml")]
            return "\n".join(
                " ".join(XML_TEXT.findall(pkg.read(n).decode("utf-8", "replace"))) for n in parts
            )
    if suffix == ".pdf":
        import pdfplumber

        with pdfplumber.open(path) as pdf:
            return "\n".join(page.extract_text() or "" for page in pdf.pages)
    if suffix == ".xls":
        import xlrd

        book = xlrd.open_workbook(path)
        return "\n".join(
            str(sheet.cell_value(r, c))
            for sheet in book.sheets()
            for r in range(sheet.nrows)
            for c in range(sheet.ncols)
        )
    return ""


def _shown_text(markdown: str) -> str:
    """What a renderer displays: inline text of every block (comments and markup left out)."""
    out: list[str] = []
    for token in PARSER.parse(markdown):
        for child in token.children or []:
            if child.type in ("text", "code_inline", "image"):  # an image's content: its alt
                out.append(child.content)
    return " ".join(out)


def fidelity(markdown: str, reference: Counter[str]) -> Fidelity:
    parsed = PARSER.parse(markdown)
    kinds = Counter(token.type for token in parsed)
    shown = tokens(_shown_text(markdown))
    total = sum(reference.values())
    hit = sum(min(n, shown[word]) for word, n in reference.items())
    return Fidelity(
        recall=hit / total if total else 1.0,
        headings=kinds["heading_open"],
        list_items=kinds["list_item_open"],
        tables=kinds["table_open"],
        table_rows=kinds["tr_open"],
    )
