"""A real application opens the outputs: LibreOffice converts one file of each kind to PDF,
and the PDF shows the replaced text. Skipped where LibreOffice is not installed."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pdfplumber
import pytest
from officecli_testkit.replace_helpers import Replace, docx_body, para, run, write_rules
from officecli_testkit.replace_samples import TEXTBOX, book_with_everything, deck

SOFFICE = shutil.which("soffice")


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")
def test_libreoffice_renders_each_kind_of_output(replace: Replace, tmp_path: Path) -> None:
    source = tmp_path / "in"
    source.mkdir()
    docx_body(source / "w.docx", para(run("Acme ", "<w:b/>"), run("Corp report")) + para(TEXTBOX))
    book_with_everything(source / "x.xlsx")
    deck(source / "p.pptx")
    rules = write_rules(tmp_path / "r.csv", [["find", "replace"], ["Acme Corp", "Globex Inc"]])
    code, _ = replace("-r", source, "--rules", rules, "-d", tmp_path / "out")
    assert code == 0
    outputs = [tmp_path / "out" / n for n in ("w.docx", "x.xlsx", "p.pptx")]
    assert SOFFICE is not None
    profile = (tmp_path / "profile").as_uri()
    subprocess.run(
        [SOFFICE, f"-env:UserInstallation={profile}", "--headless", "--convert-to", "pdf",
         "--outdir", str(tmp_path / "pdf"), *map(str, outputs)],
        capture_output=True, check=True, timeout=240,
    )  # fmt: skip
    for output in outputs:
        with pdfplumber.open(tmp_path / "pdf" / f"{output.stem}.pdf") as pdf:
            text = "".join(page.extract_text() or "" for page in pdf.pages)
        assert "Globex Inc" in text
        assert "Acme Corp" not in text
