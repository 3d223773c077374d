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
                         r"ppt/(slides|notesSlides)/|ppt/charts/|word/charts/)")  # fmt: skip


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
    """The source's own text: XML text nodes of Word and PowerPoint files, cell values of
    workbooks, the words of the PDF's text layer."""
    suffix = path.suffix.lower()
    if suffix == ".xlsx":
        return _xlsx_values(path)
    if suffix in (".docx", ".pptx"):
        with zipfile.ZipFile(path) as pkg:
            parts = [n for n in pkg.namelist() if OOXML_PARTS.match(n) and n.endswith(".xml")]
            return "\n".join(
                " ".join(XML_TEXT.findall(pkg.read(n).decode("utf-8", "replace"))) for n in parts
            )
    if suffix == ".pdf":
        return _pdf_words(path)
    if suffix == ".xls":
        import xlrd

        book = xlrd.open_workbook(path)
        return "\n".join(
            _plain(sheet.cell_value(r, c))
            for sheet in book.sheets()
            for r in range(sheet.nrows)
            for c in range(sheet.ncols)
        )
    return ""


def _xlsx_values(path: Path) -> str:
    """Every cell's value (openpyxl, cached results) and every chart's cached values."""
    import openpyxl

    book = openpyxl.load_workbook(path, read_only=True, data_only=True)
    values = [
        _plain(v) for sheet in book.worksheets for row in sheet.iter_rows(values_only=True)
        for v in row if v is not None
    ]  # fmt: skip
    book.close()
    with zipfile.ZipFile(path) as pkg:
        for name in pkg.namelist():
            if name.startswith("xl/charts/chart") and name.endswith(".xml"):
                values += XML_TEXT.findall(pkg.read(name).decode("utf-8", "replace"))
    return "\n".join(values)


def _plain(value: object) -> str:
    """A cell value as plainly as it can be written: 89.0 is 89."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _pdf_words(path: Path) -> str:
    """The PDF's words (pdfplumber's own grouping); a word hyphenated at a line end is
    rejoined, as a reader reads it."""
    import pdfplumber

    out: list[str] = []
    with pdfplumber.open(path) as pdf:
        for page in pdf.pages:
            words = page.extract_words(x_tolerance=1)  # some writers set no space characters
            for word, after in zip(words, [*words[1:], None], strict=True):
                text = word["text"]
                if (
                    after is not None
                    and after["top"] > word["bottom"]
                    and re.search(r"[a-z]-$", text)
                    and after["text"][:1].islower()
                ):
                    out.append(text[:-1])  # glued to the next word
                else:
                    out.append(text + " ")
    return "".join(out)


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
