"""A private temporary directory that is removed on every exit path."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def secure_tempdir(prefix: str = "agentcli-") -> Iterator[Path]:
    """Create a 0700 directory; remove it on success, error and KeyboardInterrupt alike."""
    path = Path(tempfile.mkdtemp(prefix=prefix))  # mkdtemp creates it with mode 0700
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)
