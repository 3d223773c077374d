"""LibreOffice headless as a converter: recalculate a workbook, or print a document to PDF.

Each call gets its own user profile in a private temp dir, so runs never share (or lock) a
profile, and is bounded in time; a conversion that overruns is killed with its process group.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
from pathlib import Path

from officecli.readers.safety import ReaderError

TIMEOUT = 180.0  # seconds for one conversion, start-up included (~6 s cold here)
INSTALL_HINT = "install LibreOffice: apt-get install libreoffice-core libreoffice-writer libreoffice-calc libreoffice-impress"


class ConversionError(ReaderError):
    code = "LIBREOFFICE_FAILED"
    default_suggestion = "open the file in LibreOffice or Office and save it again"


def soffice() -> str | None:
    """The LibreOffice binary, if installed."""
    return shutil.which("soffice") or shutil.which("libreoffice")


def convert(source: Path, target_format: str, workdir: Path) -> Path:
    """Convert `source` into `workdir` (a private temp dir) as `target_format` (pdf, xlsx)."""
    binary = soffice()
    if binary is None:
        raise ConversionError(
            f"{source.name}: LibreOffice is not installed", suggestion=INSTALL_HINT
        )
    out = workdir / "out"
    command = [
        binary,
        "--headless",
        "--norestore",
        f"-env:UserInstallation={(workdir / 'profile').as_uri()}",
        "--convert-to",
        target_format,
        "--outdir",
        str(out),
        str(source.resolve()),
    ]
    with subprocess.Popen(
        command,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,  # so a timeout can kill soffice.bin and its helpers together
    ) as proc:
        try:
            _, err = proc.communicate(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            raise ConversionError(
                f"{source.name}: LibreOffice did not finish within {TIMEOUT:.0f} s"
            ) from None
    result = out / f"{source.stem}.{target_format}"
    if proc.returncode != 0 or not result.is_file():
        detail = err.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no output"]
        raise ConversionError(f"{source.name}: LibreOffice could not convert it ({detail[0]})")
    return result
