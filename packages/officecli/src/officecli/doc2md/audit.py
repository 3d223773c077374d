"""The loss audit: what the source held, what the reader recognised, what the Markdown kept."""

from __future__ import annotations

from agentcli.report import Finding
from officecli.doc2md.markdown import Counts

KEPT_SHARE = 0.95  # below this share of characters, text is reported as lost
LOSS_RULES = (
    ("headings", "loss.headings", "headings"),
    ("list_items", "loss.list_items", "list items"),
    ("tables", "loss.tables", "tables"),
    ("table_rows", "loss.table_rows", "table rows"),
    ("images", "loss.images", "images"),
)


def audit(
    location: str, recognised: Counts, written: Counts, raw_chars: int, dropped_glyphs: int = 0
) -> list[Finding]:
    """Warnings for every count the Markdown falls short of."""
    findings = []
    if dropped_glyphs:
        findings.append(
            Finding(
                "loss.glyphs",
                "warning",
                f"{dropped_glyphs} character(s) of glyphs with no Unicode meaning (PDF "
                "`(cid:N)` or private-use characters) were left out",
                location=location,
                field="characters",
                expected=str(dropped_glyphs),
                actual="0",
                suggestion="the font has no text mapping for them: check the source where "
                "symbols or icons matter",
            )
        )
    for attr, rule, label in LOSS_RULES:
        want, got = getattr(recognised, attr), getattr(written, attr)
        if got < want:
            findings.append(
                Finding(
                    rule,
                    "warning",
                    f"{want - got} of {want} {label} recognised in the source are missing "
                    "from the Markdown",
                    location=location,
                    field=attr,
                    expected=str(want),
                    actual=str(got),
                    suggestion="open the source for the missing parts; do not trust the Markdown alone",
                )
            )
    if written.characters < KEPT_SHARE * recognised.characters:
        findings.append(
            Finding(
                "loss.text",
                "warning",
                f"the Markdown keeps {written.characters} of {recognised.characters} characters "
                "the converter recognised",
                location=location,
                field="characters",
                expected=str(recognised.characters),
                actual=str(written.characters),
                suggestion="report this as a doc2md bug and read the source directly",
            )
        )
    if written.characters < KEPT_SHARE * raw_chars:
        findings.append(
            Finding(
                "loss.raw_text",
                "warning",
                f"the Markdown keeps {written.characters} of {raw_chars} characters counted "
                "directly in the source",
                location=location,
                field="characters",
                expected=str(raw_chars),
                actual=str(written.characters),
                suggestion="part of the document (e.g. SmartArt, charts, objects) was not "
                "converted; read the source for it",
            )
        )
    return findings
