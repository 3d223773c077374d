"""What reading one PDF may build: the complexity limits beside the decoded-bytes budget.

A few kilobytes of PDF can draw a form that draws another ten times, eight levels deep
(10^8 drawings), or hold a million operators in a stream that decodes within the bytes
budget; the reader builds objects for all of them. These limits are counted while pages
are drawn (`pdf/budget.py`) and refused at the operator, form or object that passes
them. Cheap to import, and outside the `pdf` package (which a run loads only for a PDF):
doc2md declares one option per limit from this table and ReadOptions holds their values,
so the refusal, `--help` and `capabilities` name the same option and default.
"""

from __future__ import annotations

# name -> (doc2md option, what is counted, default). Per page, the limits bound what the
# reader holds at once (some 2 KB per character while a page is laid out); per document,
# how long a file can keep it busy (about 80 us per character).
LIMITS: dict[str, tuple[str, str, int]] = {
    "operators": (
        "--max-pdf-operators",
        "content operators drawn on one page, those inside forms included",
        200_000,
    ),
    "forms": (
        "--max-pdf-forms",
        "form XObjects drawn on one page, counted through nesting",
        10_000,
    ),
    "form_depth": ("--max-pdf-form-depth", "form XObjects nested in one another", 16),
    "page_objects": (
        "--max-pdf-page-objects",
        "objects drawn on one page (characters, lines, curves, pictures, forms)",
        100_000,
    ),
    "objects": (
        "--max-pdf-objects",
        "objects drawn in the whole document (characters, lines, curves, pictures, forms)",
        5_000_000,
    ),
}


def default_limits() -> dict[str, int]:
    return {name: default for name, (_option, _what, default) in LIMITS.items()}
