"""doc2md: Office, PDF and draw.io files to Markdown, with a loss report.

    from officecli.doc2md import convert
    result = convert("report.docx")   # a Conversion: markdown, front_matter, findings, images, meta

The API loads when first used, so the command line's start-up does not pay for it.
"""

from __future__ import annotations

from officecli.doc2md.version import __version__

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from officecli.doc2md.api import Options, convert
    from officecli.doc2md.batch import BatchResult, convert_files
    from officecli.doc2md.conversion import Conversion, Image, Meta

_API = {
    "convert": "officecli.doc2md.api",
    "Options": "officecli.doc2md.api",
    "convert_files": "officecli.doc2md.batch",
    "BatchResult": "officecli.doc2md.batch",
    "Conversion": "officecli.doc2md.conversion",
    "Image": "officecli.doc2md.conversion",
    "Meta": "officecli.doc2md.conversion",
}
__all__ = [
    "BatchResult",
    "Conversion",
    "Image",
    "Meta",
    "Options",
    "__version__",
    "convert",
    "convert_files",
]


def __getattr__(name: str) -> Any:
    module = _API.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    __import__(module)
    import sys

    return getattr(sys.modules[module], name)
