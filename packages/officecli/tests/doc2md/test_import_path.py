"""A one-file run of doc2md loads the reader its file needs and nothing of the others (their
modules and libraries), and a Word or PowerPoint conversion none of the standard modules
that cost start-up without being used (timing itself is measured in bench/, not here)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

CORPUS = Path(__file__).resolve().parents[4] / ".." / "shared" / "corpus"
READERS = ("docx", "xlsx", "xls", "pptx", "pdf", "drawio")
ZIP = {"zlib_ng"}  # inflates the members of a zip package (readers/deflated.py)
LIBRARIES = {  # what each reader may load; no other reader's library is loaded
    "docx": ZIP,
    "xlsx": ZIP,
    "pptx": ZIP,
    "xls": {"xlrd"},
    "pdf": {"pdfplumber", "pdfminer", "pypdfium2", "PIL", "charset_normalizer"},
}
OTHER_LIBRARIES = {"openpyxl", "docx", "pptx", "lxml", "numpy", "pytesseract"}
# loaded by nothing a docx or pptx conversion does
STARTUP = {"dataclasses", "inspect", "typing", "tempfile", "logging", "hashlib", "csv", "html"}
DUMP = """
import atexit, sys
listing = sys.argv.pop()
atexit.register(lambda: open(listing, "w").write("\\n".join(sorted(sys.modules))))
from officecli.doc2md.cli import main
main()
"""


def _loaded(tmp_path: Path, source: Path, *args: str) -> set[str]:
    listing = tmp_path / "modules.txt"
    subprocess.run(
        [sys.executable, "-c", DUMP, str(source), "-d", str(tmp_path / "out"), *args, str(listing)],
        check=True, capture_output=True, timeout=120,
    )  # fmt: skip
    return set(listing.read_text().split())


@pytest.mark.parametrize(
    ("reader", "source"),
    [
        ("docx", CORPUS / "markitdown" / "test.docx"),
        ("xlsx", CORPUS / "markitdown" / "test.xlsx"),
        ("xls", CORPUS / "markitdown" / "test.xls"),
        ("pptx", CORPUS / "markitdown" / "test.pptx"),
        ("pdf", CORPUS / "markitdown" / "test.pdf"),
        ("drawio", CORPUS / "drawio" / "C4.drawio"),
    ],
)
def test_a_run_loads_only_the_reader_its_file_needs(
    tmp_path: Path, reader: str, source: Path
) -> None:
    loaded = _loaded(tmp_path, source)
    readers = {m.split(".")[2] for m in loaded if m.startswith("officecli.readers.")}
    assert {r for r in readers if r in READERS} == {reader}
    assert not {m for m in loaded if m.startswith(("officecli.fieldcheck", "officecli.design"))}
    assert "officecli.readers.tabular" not in loaded  # fieldcheck's table readers
    assert "officecli.readers.libreoffice" not in loaded  # only for --recalc, --via-pdf
    libraries = {m.split(".")[0] for m in loaded}
    others = set().union(*(LIBRARIES.values())) - LIBRARIES.get(reader, set())
    assert not libraries & (others | OTHER_LIBRARIES)
    if reader in ("docx", "pptx"):
        assert not loaded & STARTUP


def test_front_matter_loads_the_digest_only_when_asked(tmp_path: Path) -> None:
    loaded = _loaded(tmp_path, CORPUS / "markitdown" / "test.docx", "--front-matter")
    assert "hashlib" in loaded
    assert not loaded & (STARTUP - {"hashlib"})
