"""doc2md's command declarations: the single source for the CLI and `capabilities`.

Imports nothing heavy; the handler module loads only when the command runs.
"""

from __future__ import annotations

from agentcli.commands import App, Arg, Command
from agentcli.errors import InputError, NotRegularFileError
from agentcli.outputs import OutputIsInputError
from officecli.doc2md.errors import OutputConflictError
from officecli.doc2md.version import __version__
from officecli.readers.drawing_limits import LIMITS
from officecli.readers.errors import (
    BrokenFileError,
    EncryptedFileError,
    TooComplexError,
    UnsafeFileError,
    UnsupportedFormatError,
)

PDF_LIMITS = tuple(
    Arg(option, f"PDF: refuse the file past this many {what}", type="integer", default=default)
    for option, what, default in LIMITS.values()
)

CONVERT = Command(
    "convert",
    "convert Word, Excel, PowerPoint, PDF and draw.io files to Markdown, reporting any loss",
    "officecli.doc2md.run:handle",
    mode="report",
    document=True,
    idempotent=True,
    args=(
        Arg("inputs", "files (or directories with -r) to convert", type="path", required=True, multiple=True, metavar="INPUT"),
        Arg("--out-dir", "folder for <stem>.md and <stem>_assets/ (with -r, in the input's sub-folders)", short="-d", type="path", default="out"),
        Arg("--recursive", "convert supported files under directories", short="-r", type="boolean"),
        Arg("--strict", "exit 1 when the report has any warning", type="boolean"),
        Arg("--continue-on-error", "exit 0 even when some files could not be converted", type="boolean"),
        Arg("--dry-run", "list what would be written; write nothing", type="boolean"),
        Arg("--force", "replace an existing output no document accounts for (not in the folder's manifest, or its source gone); never another document's", type="boolean"),
        Arg("--keep-ext", "name outputs after the whole file name (report.docx.md), so files that share a stem never clash", type="boolean"),
        Arg("--front-matter", "start each Markdown file with YAML front matter (source, sha256, counts)", type="boolean"),
        Arg("--jobs", "worker processes for many files (0: one per CPU)", short="-j", type="integer", default=0),
        Arg("--track-changes", "Word tracked changes", choices=("accept", "reject", "show"), default="accept"),
        Arg("--no-comments", "Word: leave comments out", type="boolean"),
        Arg("--no-header-footer", "Word: leave headers and footers out", type="boolean"),
        Arg("--ruby", "Word furigana: the base text only, or the reading in parentheses after it", choices=("base", "paren"), default="base"),
        Arg("--no-toc", "Word: leave the table of contents out (default: a <!-- toc --> block of links)", type="boolean"),
        Arg("--header-row", "Excel: sheet row of the table header, [SHEET=]N (repeatable)", multiple=True, metavar="[SHEET=]N"),
        Arg("--skip-hidden", "Excel: leave hidden sheets, rows and columns out (default: kept, marked, and a content.hidden warning)", type="boolean"),
        Arg("--iso-dates", "Excel: every date as YYYY-MM-DD (default: as its number format shows it)", type="boolean"),
        Arg("--max-cells", "Excel: cut (with a warning) beyond this many cells", type="integer", default=200000),
        Arg("--keep-running-headers", "PDF: keep lines repeated at the top/bottom of every page", type="boolean"),
        *PDF_LIMITS,
        Arg("--ocr", "OCR: auto (PDF pages without a real text layer, and large pictures on the others), always (every page), never", choices=("auto", "always", "never"), default="auto"),
        Arg("--ocr-lang", "Tesseract languages, e.g. jpn+eng (default: guessed from the document)", metavar="LANGS"),
        Arg("--ocr-images", "OCR every picture, whatever its size, in Word, Excel, PowerPoint and PDF files", type="boolean"),
        Arg("--recalc", "Excel: recalculate formulas that have no cached value (needs LibreOffice)", type="boolean"),
        Arg("--via-pdf", "Word/Excel/PowerPoint: read through a PDF printed by LibreOffice", type="boolean"),
        Arg("--no-llms-txt", "with several inputs or -r, do not write <out-dir>/llms.txt", type="boolean"),
    ),
    examples=(
        "doc2md report.docx",
        "doc2md report.pdf -o - > report.md",
        "doc2md -r docs/ -d out/ --front-matter",
        "doc2md book.xlsx --header-row 'Sales=3' --skip-hidden -f markdown",
        "doc2md slides.pptx scan.pdf --strict --dry-run",
        "doc2md scan.pdf --ocr always --ocr-lang jpn+eng -j 2",
    ),
    errors=(InputError, OutputIsInputError, OutputConflictError, NotRegularFileError, BrokenFileError, EncryptedFileError, UnsafeFileError, TooComplexError, UnsupportedFormatError),
)  # fmt: skip

APP = App(
    name="doc2md",
    version=__version__,
    description="Office, PDF and draw.io files to Markdown, with a report of what could not be converted.",
    commands=(CONVERT,),
)
