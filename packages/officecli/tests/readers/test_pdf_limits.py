"""What drawing a PDF may build: operators, forms (fan-out and nesting) and objects per
page, objects per document. The bombs are made here, a few kilobytes each, and doc2md runs
on them in a child capped at 1 GiB of address space and 60 s: before these limits the
nested forms took 3.8 GB and the million operators 2.3 GB and 78 s."""

from __future__ import annotations

import threading
from itertools import pairwise
from pathlib import Path

import pytest
from officecli_testkit.bomb_files import doc2md, doc2md_capped, nested_forms_pdf, operators_pdf

from officecli.readers.drawing_limits import LIMITS
from officecli.readers.model import ReadOptions
from officecli.readers.pdf.reader import read_pdf


def _refused(path: Path, out: Path, limit: str, *args: str) -> dict[str, str]:
    """doc2md refuses the file (INPUT_TOO_COMPLEX, exit 2, nothing written), naming the
    limit and the option that raises it, within the caps."""
    code, report = doc2md_capped(path, "-d", out, *args)
    findings: list[dict[str, str]] = report["findings"]
    (failed,) = findings
    option, _what, default = LIMITS[limit]
    value = next((v for k, v in pairwise(args) if k == option), default)
    assert (code, failed["rule_id"], failed["field"]) == (2, "convert.failed", "INPUT_TOO_COMPLEX")
    assert failed["suggestion"] == f"raise {option} (now {value}) only if you trust the file"
    assert not (out / f"{path.stem}.md").exists()
    return failed


def test_nested_forms_bomb_is_refused_at_the_forms_limit(tmp_path: Path) -> None:
    """The 2.9 KB bomb: ten draws a form, eight levels deep (10^8 words)."""
    path = tmp_path / "forms.pdf"
    path.write_bytes(nested_forms_pdf(depth=8, fanout=10))
    assert path.stat().st_size < 3000
    failed = _refused(path, tmp_path / "out", "forms")
    assert failed["message"] == (
        "forms.pdf: page 1 goes past the limit on form XObjects drawn on one page, counted "
        "through nesting: 10000 (--max-pdf-forms)"
    )


def test_a_million_text_operators_are_refused_at_the_page_objects_limit(tmp_path: Path) -> None:
    """The 71 KB file: a million `(text) Tj` in 28 MiB of content stream, within the bytes
    budget, drawing 21 million characters."""
    path = tmp_path / "text.pdf"
    path.write_bytes(operators_pdf(b"(AAAAAAAAAAAAAAAAAAAAA) Tj\n", 1_000_000))
    assert path.stat().st_size < 80_000
    failed = _refused(path, tmp_path / "out", "page_objects")
    assert failed["message"] == (
        "text.pdf: page 1 goes past the limit on objects drawn on one page (characters, "
        "lines, curves, pictures, forms): 100000 (--max-pdf-page-objects)"
    )


def test_a_million_operators_drawing_nothing_are_refused_at_the_operators_limit(
    tmp_path: Path,
) -> None:
    path = tmp_path / "ops.pdf"
    path.write_bytes(operators_pdf(b"() Tj\n", 1_000_000))
    failed = _refused(path, tmp_path / "out", "operators")
    assert failed["message"] == (
        "ops.pdf: page 1 goes past the limit on content operators drawn on one page, those "
        "inside forms included: 200000 (--max-pdf-operators)"
    )


def test_forms_nested_deeper_than_the_limit_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "deep.pdf"
    path.write_bytes(nested_forms_pdf(depth=40, fanout=1))
    failed = _refused(path, tmp_path / "out", "form_depth")
    assert failed["message"] == (
        "deep.pdf: page 1 goes past the limit on form XObjects nested in one another: 16 "
        "(--max-pdf-form-depth)"
    )


def test_objects_are_counted_over_the_whole_document(tmp_path: Path) -> None:
    """Thirty pages of 1,000 characters each (one content stream shared by every page):
    within the page limit, past a document limit of 20,000 at page 21."""
    path = tmp_path / "pages.pdf"
    path.write_bytes(operators_pdf(b"(AAAAAAAAAA) Tj\n", 100, pages=30))
    failed = _refused(path, tmp_path / "out", "objects", "--max-pdf-objects", "20000")
    assert failed["message"] == (
        "pages.pdf: page 21 goes past the limit on objects drawn in the whole document "
        "(characters, lines, curves, pictures, forms): 20000 (--max-pdf-objects)"
    )


def test_the_option_named_raises_the_limit(tmp_path: Path) -> None:
    """1,111 forms on a page: refused under --max-pdf-forms 1000, read under 2000."""
    path = tmp_path / "forms.pdf"
    path.write_bytes(nested_forms_pdf(depth=3, fanout=10))
    _refused(path, tmp_path / "out", "forms", "--max-pdf-forms", "1000")
    code, report = doc2md(path, "-d", tmp_path / "out", "--max-pdf-forms", "2000")
    assert (code, [f["rule_id"] for f in report["findings"]]) == (0, ["convert.ok"])
    assert (tmp_path / "out" / "forms.md").read_text("utf-8").startswith("<!-- page 1 -->")


@pytest.mark.parametrize("value", ["0", "-1"])
def test_a_limit_under_one_is_a_usage_error(tmp_path: Path, value: str) -> None:
    path = tmp_path / "forms.pdf"
    path.write_bytes(nested_forms_pdf(depth=1, fanout=1))
    code, report = doc2md(path, "-d", tmp_path / "out", "--max-pdf-operators", value)
    assert (code, report["error_code"]) == (2, "USAGE")
    assert not (tmp_path / "out").exists()


def test_the_hooks_are_gone_after_a_conversion_and_limits_are_per_thread(tmp_path: Path) -> None:
    """Two conversions at once: the bomb is refused, the other file read whole; then
    pdfminer's methods are its own again (inherited ones inherited again)."""
    from pdfminer.layout import LTContainer
    from pdfminer.pdfinterp import PDFContentParser, PDFPageInterpreter

    before = (LTContainer.__dict__["add"], PDFPageInterpreter.__dict__["do_Do"])
    assert "nextobject" not in PDFContentParser.__dict__
    bomb, fine = tmp_path / "bomb.pdf", tmp_path / "fine.pdf"
    bomb.write_bytes(nested_forms_pdf(depth=8, fanout=10))
    fine.write_bytes(operators_pdf(b"(fine) Tj\n", 1))
    outcomes: dict[str, str] = {}

    def convert(path: Path) -> None:
        try:
            doc = read_pdf(path, ReadOptions())
            outcomes[path.name] = " ".join(block.text for block in doc.blocks)
        except Exception as exc:  # noqa: BLE001 - the outcome is asserted
            outcomes[path.name] = type(exc).__name__

    threads = [threading.Thread(target=convert, args=(p,)) for p in (bomb, fine)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert outcomes == {"bomb.pdf": "TooComplexError", "fine.pdf": "page 1 fine"}
    assert (LTContainer.__dict__["add"], PDFPageInterpreter.__dict__["do_Do"]) == before
    assert "nextobject" not in PDFContentParser.__dict__
