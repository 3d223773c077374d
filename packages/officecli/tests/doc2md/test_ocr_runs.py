"""How Tesseract is run, seen from outside: a `tesseract` on PATH that logs each run (its
thread limit, how many images it was given) and hands over to the real engine. A document's
pictures are read by one process, every process runs one OpenMP thread, and a blank picture
is not read at all; the Markdown is what reading each picture alone gave."""

from __future__ import annotations

import io
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from docx import Document as WordDocument
from officecli_testkit.scans import FONT, scanned_page
from PIL import Image, ImageDraw, ImageFont

from officecli.doc2md import Options, convert
from officecli.readers import ocr, tesseract

pytestmark = pytest.mark.skipif(
    not (ocr.available() and FONT.is_file()) and not os.environ.get("CI"),
    reason="needs tesseract-ocr and fonts-ipafont-gothic (.ci/run installs them)",
)

INTRO = "The depot's three signs, photographed on the first day."
SIGNS = ["NORTH GATE", "LOADING BAY", "VISITOR PARKING"]
COVERED = "These words are drawn over a picture, so the text layer has them."
WRAPPER = """#!/bin/sh
count=1
case "$1" in *.txt) count=$(wc -l < "$1") ;; esac
echo "${{OMP_THREAD_LIMIT-unset}} $count $*" >> {log}
exec {real} "$@"
"""


@pytest.fixture
def runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A logging `tesseract` first on PATH, and no thread limit set by anyone; the log's path."""
    real = shutil.which("tesseract")
    assert real is not None
    folder, log = tmp_path / "bin", tmp_path / "runs.log"
    folder.mkdir()
    (folder / "tesseract").write_text(WRAPPER.format(log=log, real=real), "utf-8")
    (folder / "tesseract").chmod(0o755)
    log.touch()
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("OMP_THREAD_LIMIT", "")  # undone after the test, as it was before it
    monkeypatch.delenv("OMP_THREAD_LIMIT")
    return log


def _reads(log: Path) -> list[tuple[str, int]]:
    """(thread limit, images) of each run that read words in a language, in order."""
    rows = [line.split(" ", 2) for line in log.read_text("utf-8").splitlines()]
    return [(limit, int(count)) for limit, count, argv in rows if " -l " in argv]


def _png(text: str, shade: int = 0) -> Any:
    from reportlab.lib.utils import ImageReader

    image = Image.new("RGB", (900, 200), (255, 255, 255) if text else (shade,) * 3)
    ImageDraw.Draw(image).text((40, 50), text, font=ImageFont.truetype(str(FONT), 80), fill=0)
    buf = io.BytesIO()
    image.save(buf, format="PNG")
    return ImageReader(io.BytesIO(buf.getvalue()))


def _signs(path: Path, blank: bool = False) -> Path:
    """A text page with a picture of each sign, a blank (one-shade) picture when `blank`,
    and a picture under real text; the pictures cover under a quarter of the page (more,
    with so little text, and it would be read whole as a scan)."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen.canvas import Canvas

    canvas = Canvas(str(path), pagesize=A4)
    top = A4[1] - 80
    canvas.setFont("Helvetica", 11)
    canvas.drawString(60, top, INTRO)
    for i, sign in enumerate(SIGNS):
        canvas.drawImage(_png(sign), 60, top - 110 - i * 110, 240, 54)
    if blank:
        canvas.drawImage(_png("", shade=230), 60, top - 500, 240, 54)
    canvas.drawImage(_png("", shade=200), 60, top - 620, 360, 54)
    canvas.drawString(70, top - 595, COVERED)
    canvas.showPage()
    canvas.save()
    return path


def _quotes(markdown: str) -> list[str]:
    return [line for line in markdown.splitlines() if line.startswith(">")]


def test_a_single_file_run_gives_tesseract_one_thread(tmp_path: Path, runs: Path) -> None:
    result = convert(_signs(tmp_path / "signs.pdf"), Options(ocr_jobs=1))
    assert _quotes(result.markdown) == [f"> {sign}" for sign in SIGNS]
    assert {limit for limit, _images in _reads(runs)} == {"1"}


def test_a_thread_limit_the_user_set_is_kept(
    tmp_path: Path, runs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OMP_THREAD_LIMIT", "2")
    convert(_signs(tmp_path / "signs.pdf"))
    assert {limit for limit, _images in _reads(runs)} == {"2"}


def test_a_documents_pictures_are_read_by_one_tesseract_process(tmp_path: Path, runs: Path) -> None:
    result = convert(_signs(tmp_path / "signs.pdf"), Options(ocr_jobs=2))
    assert _quotes(result.markdown) == [f"> {sign}" for sign in SIGNS]
    assert _reads(runs) == [("1", 3)]  # the picture under the text layer is not read


def test_a_blank_picture_is_not_read(tmp_path: Path, runs: Path) -> None:
    with_blank = convert(_signs(tmp_path / "blank.pdf", blank=True))
    without = convert(_signs(tmp_path / "signs.pdf"))
    assert _quotes(with_blank.markdown) == _quotes(without.markdown)
    assert with_blank.front_matter["ocr_pictures"] == 3
    assert _reads(runs) == [("1", 3), ("1", 3)]


def test_pictures_of_an_office_file_are_read_together(tmp_path: Path, runs: Path) -> None:
    doc = WordDocument()
    doc.add_paragraph("The scanned notes:")
    for n, words in enumerate(["Invoice 2026-041 due on 30 June", "Paid in full"]):
        picture = tmp_path / f"note{n}.png"
        scanned_page([words]).crop((0, 60, 1400, 220)).save(picture)
        doc.add_picture(str(picture))
    Image.new("L", (600, 200), 255).save(tmp_path / "blank.png")
    doc.add_picture(str(tmp_path / "blank.png"))
    doc.save(str(tmp_path / "notes.docx"))
    result = convert(tmp_path / "notes.docx", Options(ocr_images=True, ocr_jobs=2))
    assert _quotes(result.markdown) == ["> Invoice 2026-041 due on 30 June", "> Paid in full"]
    assert _reads(runs) == [("1", 2)]


def test_words_are_parsed_from_tesseracts_tsv() -> None:
    header = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight"
    tsv = "\n".join(
        [
            header + "\tconf\ttext",
            "1\t1\t0\t0\t0\t0\t0\t0\t900\t200\t-1\t",
            "5\t1\t1\t1\t1\t1\t40\t50\t120\t30\t96.417\tNORTH",
            "4\t2\t1\t1\t1\t0\t10\t12\t80\t20\t-1\t",
            "5\t2\t1\t1\t1\t1\t10\t12\t80\t20\t57.9\tGATE",
            "5\t3\t2\t1\t3\t1\t1\t2\t3\t4\t12",  # the last cell missing: an empty word
        ]
    )
    assert tesseract._parse(tsv, 3) == [
        [tesseract.Word(1, 1, 1, 40, 50, 120, 30, 96, "NORTH")],
        [tesseract.Word(1, 1, 1, 10, 12, 80, 20, 57, "GATE")],
        [],
    ]


def test_runs_keep_order_read_pages_alone_and_hold_a_bounded_number_of_pictures() -> None:
    small, page = Image.new("L", (10, 10)), Image.new("L", (20, 20))
    items = [("p", small)] * 3 + [("page", page)] + [("p", small)] * (ocr.PICTURES_PER_RUN + 1)
    grouped = list(ocr.runs(items, lambda item: item[1], lambda item: item[0] == "page"))
    assert [len(run) for run in grouped] == [3, 1, ocr.PICTURES_PER_RUN, 1]
    assert grouped[1] == [("page", page)]
    assert [item for run in grouped for item in run] == items
