"""Running Tesseract: one process reads a list of images, one thread each.

A Tesseract process spends about as long loading its language model as reading a picture of
a few words, so the pictures of a document are read by one process (a list file), not one
process each. Each process runs one OpenMP thread: the runs are parallel already (a page or
a batch of pictures per core, a file per core in a batch), and Tesseract's own threads on a
busy machine spin against each other for several times the CPU of a single thread.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from typing import TYPE_CHECKING

from agentcli.tempdir import secure_tempdir

if TYPE_CHECKING:
    from PIL.Image import Image

COMMAND = "tesseract"
SECONDS_PER_IMAGE = 300  # a run is ended after this many seconds for each image it reads
THREADS = {"OMP_THREAD_LIMIT": "1"}


@dataclass(frozen=True)
class Word:
    """One word Tesseract read: its box in the image's pixels and its confidence (0-100)."""

    block: int
    paragraph: int
    line: int
    left: int
    top: int
    width: int
    height: int
    confidence: int
    text: str


def environment() -> dict[str, str]:
    """The environment a Tesseract process runs in: one thread unless the user said otherwise."""
    return {**THREADS, **os.environ}


def read_words(images: list[Image], lang: str, psm: int) -> list[list[Word]]:
    """The words of each image, in the order given, read by one Tesseract process. Images
    are written as PNM (no compression to pay for) to a private folder removed after."""
    if not images:
        return []
    with secure_tempdir("officecli-ocr-") as work:
        names = []
        for number, image in enumerate(images):
            name = work / f"{number}.pnm"
            image.save(name, format="PPM")
            names.append(str(name))
        listed = work / "images.txt"
        listed.write_text("\n".join(names) + "\n", "utf-8")
        argv = [COMMAND, str(listed), "stdout", "-l", lang, "--psm", str(psm), "tsv"]
        try:
            done = subprocess.run(
                argv,
                capture_output=True,
                env=environment(),
                timeout=SECONDS_PER_IMAGE * len(images),
                check=False,
            )
        except subprocess.TimeoutExpired as exc:
            raise RuntimeError(f"Tesseract did not finish within {exc.timeout:.0f} s") from exc
    if done.returncode != 0:
        raise RuntimeError(f"Tesseract failed: {done.stderr.decode('utf-8', 'replace').strip()}")
    return _parse(done.stdout.decode("utf-8", "replace"), len(images))


def _parse(tsv: str, count: int) -> list[list[Word]]:
    """Tesseract's TSV: a row per page, block, paragraph, line and word; page_num is the
    image's place in the list (from 1). Numbers are whole, as Tesseract's own tools read them."""
    words: list[list[Word]] = [[] for _ in range(count)]
    rows = tsv.splitlines()
    for row in rows[1:]:  # the first row names the columns
        cells = row.split("\t")
        if len(cells) < 12 or cells[0] != "5":  # level 5: a word
            continue
        page, block, par, line = (int(cell) for cell in cells[1:5])
        left, top, width, height = (int(cell) for cell in cells[6:10])
        words[page - 1].append(
            Word(block, par, line, left, top, width, height, int(float(cells[10])), cells[11])
        )
    return words
