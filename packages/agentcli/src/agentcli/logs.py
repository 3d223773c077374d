"""Logging to stderr only, NO_COLOR aware, plus helpers that keep content out of logs.

`logging` loads only when something is logged that can be shown (`Logger`), or when -v/-q
set it up: it is a tenth of a short command's start-up.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    import logging
    from collections.abc import Iterable, Iterator
    from typing import Any, TypeVar

    T = TypeVar("T")


def use_color() -> bool:
    return "NO_COLOR" not in os.environ and sys.stderr.isatty()


_COLORS = {"WARNING": "\033[33m", "ERROR": "\033[31m", "CRITICAL": "\033[31m"}


def setup_logging(verbosity: int = 0) -> None:
    """Send log records to stderr: -q errors only, default warnings, -v info, -vv debug."""
    import logging

    class Formatter(logging.Formatter):
        def format(self, record: logging.LogRecord) -> str:
            text = super().format(record)
            color = _COLORS.get(record.levelname)
            return f"{color}{text}\033[0m" if color and use_color() else text

    level = {-1: logging.ERROR, 0: logging.WARNING, 1: logging.INFO}.get(
        max(-1, min(verbosity, 2)), logging.DEBUG
    )
    root = logging.getLogger()
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(Formatter("%(levelname)s %(name)s: %(message)s"))
    root.handlers[:] = [handler]
    root.setLevel(level)


class Logger:
    """A named logger that imports `logging` only when a record may be shown. Nothing sets
    logging up without importing it, so until then its level is the default, WARNING:
    debug and info records go nowhere, warnings and errors take logging's usual path."""

    def __init__(self, name: str) -> None:
        self.name = name

    def _logger(self) -> logging.Logger:
        import logging

        return logging.getLogger(self.name)

    def debug(self, msg: str, *args: Any, **kwargs: Any) -> None:
        if "logging" in sys.modules:
            self._logger().debug(msg, *args, **kwargs)

    def info(self, msg: str, *args: Any, **kwargs: Any) -> None:
        if "logging" in sys.modules:
            self._logger().info(msg, *args, **kwargs)

    def warning(self, msg: str, *args: Any, **kwargs: Any) -> None:
        self._logger().warning(msg, *args, **kwargs)

    def error(self, msg: str, *args: Any, **kwargs: Any) -> None:
        self._logger().error(msg, *args, **kwargs)


def describe_text(text: str) -> str:
    """Describe text by its size only, so that logs never carry document content."""
    return f"<text {len(text)} chars>"


def progress(items: Iterable[T], total: int, label: str) -> Iterator[T]:
    """Yield items, drawing a progress bar on stderr only when stderr is a terminal."""
    if not sys.stderr.isatty() or total <= 1:
        yield from items
        return
    width = 30
    for done, item in enumerate(items, 1):
        yield item
        filled = width * done // total
        sys.stderr.write(f"\r{label} [{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
        sys.stderr.flush()
    sys.stderr.write("\n")
