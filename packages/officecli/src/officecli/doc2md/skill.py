"""doc2md's Agent Skill: the hand-written part (when to use it, tasks, rules, workflows).

Everything else in the skill (commands, options, error codes) is generated from
doc2md.commands by agentcli.skills; a test parses every command line below.
"""

from __future__ import annotations

from agentcli.skills import Guide, Task, Workflow

GUIDE = Guide(
    description=(
        "Convert Word (.docx), Excel (.xlsx, .xls), PowerPoint (.pptx), PDF (scans too, by "
        "OCR) and draw.io files to Markdown on this machine, with a report of anything the "
        "conversion lost. Use when the user asks to read, summarise, search, quote or index "
        "such documents, or to turn them into Markdown or llms.txt. Not for editing documents "
        "(office-replace), checking table data against rules (fieldcheck) or comparing two "
        "versions of a design workbook (design-diff); text, Markdown, HTML and CSV files need "
        "no conversion."
    ),
    compatibility="Needs the doc2md command (officecli package). Works offline; OCR needs "
    "tesseract, --recalc and --via-pdf need LibreOffice.",
    tasks=(
        Task("read documents as Markdown (out/<stem>.md, pictures in out/<stem>_assets/)",
             ("doc2md report.docx slides.pptx -d out/",)),
        Task("convert every document under a folder, in parallel", ("doc2md -r docs/ -d out/",)),
        Task("see what would be written, writing nothing", ("doc2md -r docs/ -d out/ --dry-run",)),
        Task("fail (exit 1) if any content may have been lost", ("doc2md report.docx --strict",)),
        Task("the report for a person instead of JSON", ("doc2md report.docx -f markdown",)),
        Task("YAML front matter (source, sha256, counts) on each file",
             ("doc2md -r docs/ -d out/ --front-matter",)),
        Task("print one file's Markdown (the report on stderr as one JSON line, or --report)",
             ("doc2md report.docx --stdout > report.md", "doc2md report.docx -o -")),
        Task("convert files that share a stem (a.docx, a.pdf; else OUTPUT_CONFLICT)",
             ("doc2md a.docx a.pdf -d out/ --keep-ext",)),
        Task("replace an output no document accounts for (another document's is never replaced)",
             ("doc2md report.docx -d out/ --force",)),
        Task("read a scanned PDF (pages without a text layer are OCR'd by default)",
             ("doc2md scan.pdf -d out/", "doc2md scan.pdf --ocr always --ocr-lang jpn+eng -d out/")),
        Task("read the text inside every picture (PDF: large pictures on text pages are read "
             "by default; Word, Excel, PowerPoint: only with this)",
             ("doc2md slides.pptx --ocr-images -d out/",)),
        Task("show values of formulas that have none cached (needs LibreOffice)",
             ("doc2md book.xlsx --recalc -d out/",)),
        Task("leave hidden sheets, rows and columns out (default: kept and marked)",
             ("doc2md book.xlsx --skip-hidden -d out/",)),
        Task("every Excel date as YYYY-MM-DD", ("doc2md book.xlsx --iso-dates -d out/",)),
        Task("take a sheet's table header from a given row", ("doc2md book.xlsx --header-row Sales=3 -d out/",)),
        Task("Word furigana in parentheses / no table of contents",
             ("doc2md doc.docx --ruby paren", "doc2md doc.docx --no-toc")),
    ),
    rules=(
        "**Tell the user what was lost**: every `loss.*` finding (headings, list items, tables, "
        "rows, images, text, glyphs, formulas without a value, words OCR read with low "
        "confidence) and every `content.hidden` warning, with its file. Never call a summary "
        "complete when the report has one.",
        "A file that could not be read is `convert.failed` with the reason's code in `field` "
        "(`BROKEN_FILE`, `ENCRYPTED_FILE`, `UNSUPPORTED_FORMAT`, `UNSAFE_FILE`): exit 2, "
        "nothing written, unless `--continue-on-error`. Ask the user for a repaired or "
        "unlocked copy; do not retry as is.",
        "Markdown is written to `-d` (default `out/`) as `<stem>.md`, a name that depends only "
        "on the file's own path; `out/.doc2md-manifest.json` remembers each file's source, and "
        "another document's output is never replaced, even with `--force`.",
        "From Python: `from officecli.doc2md import convert; convert(\"a.docx\").markdown` "
        "(typed result and errors; writes nothing unless `out_dir=`).",
    ),
    workflows=(
        Workflow(
            "summarise documents, saying what was lost (then read out/*.md and the report's "
            "loss.* findings)",
            ("doc2md -r docs/ -d out/ --dry-run", "doc2md -r docs/ -d out/"),
        ),
        Workflow(
            "read one file and fail if anything was lost",
            ("doc2md report.docx -d out/ --strict",),
        ),
    ),
)  # fmt: skip
