"""The small document model every reader produces and the Markdown writer consumes.

Plain classes, not dataclasses: a one-file conversion is mostly start-up, and dataclasses
(its import and the code it generates per class) were a sixth of it.
"""

from __future__ import annotations

from officecli.readers.drawing_limits import default_limits

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Literal

    BlockKind = Literal["heading", "paragraph", "list_item", "table", "image", "marker", "quote"]


class Block:
    """One unit of output. `text` is Markdown inline text (already escaped where needed).

    A table carries `rows` (first row is the header); an image carries `asset` (the file
    name under the assets folder, empty when the picture could not be extracted).
    """

    __slots__ = ("asset", "kind", "level", "number", "ordered", "rows", "text")

    def __init__(
        self,
        kind: BlockKind,
        text: str = "",
        level: int = 0,
        ordered: bool = False,
        rows: list[list[str]] | None = None,
        asset: str = "",
        number: int = 0,  # an ordered list item's number as the source shows it (0: count on)
    ) -> None:
        self.kind = kind
        self.text = text
        self.level = level
        self.ordered = ordered
        self.rows: list[list[str]] = [] if rows is None else rows
        self.asset = asset
        self.number = number

    def __repr__(self) -> str:
        return f"Block({self.kind!r}, {self.text!r}, level={self.level}, rows={len(self.rows)})"


class Asset:
    __slots__ = ("data", "name")

    def __init__(self, name: str, data: bytes) -> None:
        self.name = name
        self.data = data


class Document:
    """What a reader recognised in one source file."""

    def __init__(self) -> None:
        self.blocks: list[Block] = []
        self.assets: list[Asset] = []
        # pages / sheets / slides, for the front matter and the report
        self.counts: dict[str, int] = {}
        # things the reader chose to do or could not do (cut, flattened, not converted)
        self.notes: list[str] = []
        # content deliberately cut (e.g. --max-cells): reported as warnings
        self.cuts: list[str] = []
        # characters of text counted straight from the source, independently of `blocks`
        self.raw_chars = 0
        # hidden sheets / rows / columns with content that were kept (marked) in the Markdown
        self.hidden: dict[str, int] = {}
        # glyphs with no Unicode meaning (PDF `(cid:N)`, private-use characters) left out
        self.dropped_glyphs = 0
        # pages (1-based) whose text came from OCR
        self.ocr_pages: list[int] = []
        # (rule id, message, suggestion): reported as warnings
        self.warnings: list[tuple[str, str, str]] = []

    def add(self, block: Block) -> None:
        self.blocks.append(block)

    def add_asset(self, stem: str, ext: str, data: bytes) -> str:
        """Keep picture bytes under a unique, deterministic name; return that name."""
        name = f"{stem}{len(self.assets) + 1}{ext}"
        self.assets.append(Asset(name, data))
        return name


class ReadOptions:
    """Per-format switches from the command line (each keyword is the option's name)."""

    def __init__(
        self,
        *,
        track_changes: str = "accept",
        comments: bool = True,
        header_footer: bool = True,
        header_rows: dict[str, int] | None = None,  # sheet name ("" = all) -> row
        skip_hidden: bool = False,
        max_cells: int = 200_000,
        keep_running_headers: bool = False,
        formulas: bool = False,  # Excel: a formula cell's text is "=FORMULA", not its value
        ruby: str = "base",  # Word furigana: "base" keeps the base text, "paren" adds (reading)
        toc: bool = True,  # Word: a table of contents as a <!-- toc --> block of links
        iso_dates: bool = False,  # Excel: every date as YYYY-MM-DD whatever its number format
        ocr: str = "auto",  # auto | always | never
        ocr_lang: str = "",  # Tesseract languages (jpn+eng); empty: guessed from the document
        ocr_images: bool = False,  # OCR every picture (docx/pptx/xlsx, and PDF pages)
        ocr_jobs: int = 1,  # pages OCR'd at once
        recalc: bool = False,  # recalculate formulas that have no cached value (LibreOffice)
        via_pdf: bool = False,  # read docx/xlsx/pptx through a PDF printed by LibreOffice
        # PDF: what drawing the pages may build (drawing_limits.py: operators, forms, objects)
        pdf_limits: dict[str, int] | None = None,
    ) -> None:
        self.track_changes = track_changes
        self.comments = comments
        self.header_footer = header_footer
        self.header_rows: dict[str, int] = {} if header_rows is None else header_rows
        self.skip_hidden = skip_hidden
        self.max_cells = max_cells
        self.keep_running_headers = keep_running_headers
        self.formulas = formulas
        self.ruby = ruby
        self.toc = toc
        self.iso_dates = iso_dates
        self.ocr = ocr
        self.ocr_lang = ocr_lang
        self.ocr_images = ocr_images
        self.ocr_jobs = ocr_jobs
        self.recalc = recalc
        self.via_pdf = via_pdf
        self.pdf_limits: dict[str, int] = default_limits() if pdf_limits is None else pdf_limits

    def replace(self, **changes: object) -> ReadOptions:
        """A copy with some options changed."""
        copy = ReadOptions.__new__(ReadOptions)
        copy.__dict__.update(self.__dict__)
        unknown = set(changes) - set(self.__dict__)
        if unknown:
            raise TypeError(f"unknown read options: {', '.join(sorted(unknown))}")
        copy.__dict__.update(changes)
        return copy

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ReadOptions) and self.__dict__ == other.__dict__

    def __repr__(self) -> str:
        return "ReadOptions(" + ", ".join(f"{k}={v!r}" for k, v in self.__dict__.items()) + ")"


def count_chars(text: str) -> int:
    """Characters that carry content: everything except whitespace."""
    return len("".join(text.split()))  # str.split() drops exactly the isspace() characters
