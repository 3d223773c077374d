"""The read options a conversion takes, checked before any work: options that cannot work
here (a malformed or missing OCR language, OCR or LibreOffice asked for but not installed)
are usage errors."""

from __future__ import annotations

import re

from agentcli.errors import UsageError
from officecli.readers.drawing_limits import LIMITS
from officecli.readers.model import ReadOptions

LANGS = re.compile(r"[a-z][a-z_]*(\+[a-z][a-z_]*)*")


def parse_header_rows(values: list[str]) -> dict[str, int]:
    """--header-row [SHEET=]N, repeatable; N is the 1-based sheet row of the header."""
    out: dict[str, int] = {}
    for raw in values:
        sheet, _, number = raw.rpartition("=")
        if not number.isdigit() or int(number) < 1:
            raise UsageError(
                f"--header-row {raw!r}: expected [SHEET=]N with N >= 1",
                suggestion="e.g. --header-row 3 or --header-row 'Sales=2'",
            )
        out[sheet] = int(number)
    return out


def check_options(options: ReadOptions) -> None:
    if options.max_cells < 1:
        raise UsageError("--max-cells must be at least 1", suggestion="e.g. --max-cells 200000")
    for name, (option, _what, default) in LIMITS.items():
        if options.pdf_limits.get(name, default) < 1:
            raise UsageError(f"{option} must be at least 1", suggestion=f"e.g. {option} {default}")
    if options.ocr not in ("auto", "always", "never"):
        raise UsageError(f"--ocr {options.ocr!r}: expected auto, always or never")
    lang = options.ocr_lang
    if lang and not LANGS.fullmatch(lang):
        raise UsageError(
            f"--ocr-lang {lang!r}: expected Tesseract language codes joined by +",
            suggestion="e.g. --ocr-lang jpn+eng",
        )
    if options.ocr == "always" or lang:
        _check_ocr(lang)
    if options.via_pdf:
        from officecli.readers import libreoffice

        if libreoffice.soffice() is None:
            raise UsageError("--via-pdf needs LibreOffice", suggestion=libreoffice.INSTALL_HINT)


def _check_ocr(lang: str) -> None:
    from officecli.readers import ocr

    if not ocr.available():
        raise UsageError(
            "OCR was asked for but no OCR engine is installed", suggestion=ocr.INSTALL_HINT
        )
    missing = ocr.check_language(lang) if lang else None
    if missing:
        raise UsageError(
            f"--ocr-lang {lang}: Tesseract has no {missing!r} language data",
            suggestion="installed: "
            + ", ".join(sorted(ocr.languages()))
            + f"; apt-get install tesseract-ocr-{missing.replace('_', '-')}",
        )
