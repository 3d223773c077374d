"""What the log capture tests share: the type of the capture_child fixture (logs/conftest)."""

from __future__ import annotations

from collections.abc import Callable

from procler.logs.store import LogStore

# capture_child(store, process, run, code): run `python -c code`, store both pipes as
# `process` run `run`, flush; the exit code.
CaptureChild = Callable[[LogStore, str, int, str], int]
