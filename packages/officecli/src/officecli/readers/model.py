"""The small document model every reader produces and the Markdown writer consumes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from officecli.readers.pdf.limits import default_limits

BlockKind = Literal["heading", "paragraph", "list_item", "table", "image", "marker", "quote"]


@dataclass
class Block:
    """One unit of output. `text` is Markdown inline text (already escaped where needed).

    A table carries `rows` (first row is the header); an image carries `asset` (the file
    name under the assets folder, empty when the picture could not be extracted).
    """

    kind: BlockKind
    text: str = ""
    level: int = 0
    ordered: bool = False
    rows: list[list[str]] = field(default_factory=list)
    asset: str = ""
    number: int = 0  # an ordered list item's number as the source shows it (0: count on)


@dataclass
class Asset:
    name: str
    data: bytes


@dataclass
class Document:
    """What a reader recognised in one source file."""

    blocks: list[Block] = field(default_factory=list)
    assets: list[Asset] = field(default_factory=list)
    # pages / sheets / slides, for the front matter and the report
    counts: dict[str, int] = field(default_factory=dict)
    # things the reader chose to do or could not do (cut, flattened, not converted)
    notes: list[str] = field(default_factory=list)
    # content deliberately cut (e.g. --max-cells): reported as warnings
    cuts: list[str] = field(default_factory=list)
    # characters of text counted straight from the source, independently of `blocks`
    raw_chars: int = 0
    # hidden sheets / rows / columns with content that were kept (marked) in the Markdown
    hidden: dict[str, int] = field(default_factory=dict)
    # glyphs with no Unicode meaning (PDF `(cid:N)`, private-use characters) left out
    dropped_glyphs: int = 0
    # pages (1-based) whose text came from OCR
    ocr_pages: list[int] = field(default_factory=list)
    # (rule id, message, suggestion): reported as warnings
    warnings: list[tuple[str, str, str]] = field(default_factory=list)

    def add(self, block: Block) -> None:
        self.blocks.append(block)

    def add_asset(self, stem: str, ext: str, data: bytes) -> str:
        """Keep picture bytes under a unique, deterministic name; return that name."""
        name = f"{stem}{len(self.assets) + 1}{ext}"
        self.assets.append(Asset(name, data))
        return name


@dataclass
class ReadOptions:
    """Per-format switches from the command line."""

    track_changes: str = "accept"
    comments: bool = True
    header_footer: bool = True
    header_rows: dict[str, int] = field(default_factory=dict)  # sheet name ("" = all) -> row
    skip_hidden: bool = False
    max_cells: int = 200_000
    keep_running_headers: bool = False
    formulas: bool = False  # Excel: a formula cell's text is "=FORMULA", not its cached value
    ruby: str = "base"  # Word furigana: "base" keeps the base text, "paren" adds (reading)
    toc: bool = True  # Word: a table of contents as a <!-- toc --> block of links
    iso_dates: bool = False  # Excel: every date as YYYY-MM-DD whatever its number format
    ocr: str = "auto"  # auto | always | never
    ocr_lang: str = ""  # Tesseract languages (jpn+eng); empty: guessed from the document
    ocr_images: bool = False  # OCR pictures embedded in docx/pptx/xlsx too
    ocr_jobs: int = 1  # pages OCR'd at once
    recalc: bool = False  # recalculate formulas that have no cached value (LibreOffice)
    via_pdf: bool = False  # read docx/xlsx/pptx through a PDF printed by LibreOffice
    # PDF: what drawing the pages may build (pdf/limits.py: operators, forms, characters)
    pdf_limits: dict[str, int] = field(default_factory=default_limits)


def count_chars(text: str) -> int:
    """Characters that carry content: everything except whitespace."""
    return len("".join(text.split()))  # str.split() drops exactly the isspace() characters
