"""doc2md on the real files in ../shared/corpus: structure kept, and no loss reported."""

from __future__ import annotations

import re
from pathlib import Path

import jsonschema
from officecli_testkit.doc2md_helpers import Rules, Run

from agentcli.report import report_schema


def headings(markdown: str) -> list[str]:
    return [line for line in markdown.splitlines() if line.startswith("#")]


def test_whole_corpus_converts_without_loss(
    run_doc2md: Run, corpus: Path, tmp_path: Path, rules: Rules
) -> None:
    code, report = run_doc2md("-r", corpus, "-d", tmp_path, "--strict", "--keep-ext")
    jsonschema.validate(report, report_schema())
    assert code == 0
    assert report["summary"]["error"] == 0
    assert report["summary"]["warning"] == 0
    assert report["meta"]["converted"] == 24
    assert rules(report).count("convert.ok") == 24


def test_docx_headings_and_table(run_doc2md: Run, corpus: Path, tmp_path: Path) -> None:
    code, _ = run_doc2md(corpus / "markitdown" / "test.docx", "-d", tmp_path)
    text = (tmp_path / "test.md").read_text("utf-8")
    assert code == 0
    assert headings(text) == [
        "# AutoGen: Enabling Next-Gen LLM Applications via Multi-Agent Conversation",
        "# Abstract",
        "# Introduction",
        "## d666f1f7-46cb-42bd-9a39-9a39cf2a509f",
    ]
    assert "| 1 | 2 | 3 | 4 | 5 | 6 |\n| --- | --- | --- | --- | --- | --- |" in text
    assert "| 13 | 14 | 49e168b7-d2ae-407f-a055-2167576f39a1 | 15 | 16 | 17 |" in text
    assert (tmp_path / "test_assets" / "image1.png").read_bytes()[:4] == b"\x89PNG"


def test_docx_comments_on_and_off(run_doc2md: Run, corpus: Path, tmp_path: Path) -> None:
    source = corpus / "markitdown" / "test_with_comment.docx"
    run_doc2md(source, "-d", tmp_path / "on")
    run_doc2md(source, "-d", tmp_path / "off", "--no-comments")
    with_comments = (tmp_path / "on" / "test_with_comment.md").read_text("utf-8")
    without = (tmp_path / "off" / "test_with_comment.md").read_text("utf-8")
    assert re.findall(r"^\[\^c\d+\]: Unknown Author: ", with_comments, re.M) == [
        "[^c0]: Unknown Author: ",
        "[^c1]: Unknown Author: ",
    ]
    assert re.findall(r"\[\^c\d+\]", without) == []


def test_xlsx_sheets_and_table_ranges(run_doc2md: Run, corpus: Path, tmp_path: Path) -> None:
    run_doc2md(corpus / "markitdown" / "test.xlsx", "-d", tmp_path)
    text = (tmp_path / "test.md").read_text("utf-8")
    assert headings(text) == [
        "## Sheet1",
        "### Table 1 (A1:D24)",
        "## 09060124-b5e7-4717-9d07-3c046eb",
        "### Table 1 (A1:D5)",
    ]
    assert (
        "| Alpha | Beta | Gamma | Delta |\n| --- | --- | --- | --- |\n| 89 | 82 | 100 | 12 |"
        in text
    )
    assert ".0 |" not in text and "NaN" not in text and "Unnamed" not in text


def test_xls_matches_xlsx(run_doc2md: Run, corpus: Path, tmp_path: Path) -> None:
    run_doc2md(corpus / "markitdown" / "test.xls", "-d", tmp_path / "a")
    run_doc2md(corpus / "markitdown" / "test.xlsx", "-d", tmp_path / "b")
    xls = (tmp_path / "a" / "test.md").read_text("utf-8")
    xlsx = (tmp_path / "b" / "test.md").read_text("utf-8")
    assert xls == xlsx


def test_pptx_slides_table_chart_images(run_doc2md: Run, corpus: Path, tmp_path: Path) -> None:
    run_doc2md(corpus / "markitdown" / "test.pptx", "-d", tmp_path)
    text = (tmp_path / "test.md").read_text("utf-8")
    assert headings(text)[:5] == [
        "## Slide 1: AutoGen: Enabling Next-Gen LLM Applications via Multi-Agent Conversation",
        "## Slide 2: 2cdda5c8-e50e-4db4-b5f0-9722a649f455",
        "## Slide 3: A table to test parsing:",
        "## Slide 4: A chart\xa0to test parsing:",  # the source's no-break space is kept
        "## Slide 5: A Nested Shape parsing",
    ]
    assert "| ColA | ColB | ColC | ColD | ColE | ColF |" in text
    assert "| 7 | 8 | 9 | 1b92870d-e3b5-4e65-8153-919f4ff45592 | 11 | 12 |" in text
    assert "| Category | Series 1 |" in text
    assert sorted(p.name for p in (tmp_path / "test_assets").iterdir()) == [
        "image1.jpeg",
        "image2.jpg",
    ]


def test_pdf_page_markers_and_headings(run_doc2md: Run, corpus: Path, tmp_path: Path) -> None:
    run_doc2md(corpus / "markitdown" / "REPAIR-2022-INV-001_multipage.pdf", "-d", tmp_path)
    text = (tmp_path / "REPAIR-2022-INV-001_multipage.md").read_text("utf-8")
    assert re.findall(r"<!-- page (\d+) -->", text) == ["1", "2", "3"]
    run_doc2md(corpus / "markitdown" / "SPARSE-2024-INV-1234_borderless_table.pdf", "-d", tmp_path)
    sparse = (tmp_path / "SPARSE-2024-INV-1234_borderless_table.md").read_text("utf-8")
    assert headings(sparse)[0] == "# INVENTORY RECONCILIATION REPORT"
    assert len(list((tmp_path / "SPARSE-2024-INV-1234_borderless_table_assets").iterdir())) == 2


def test_pdf_words_are_spaced(run_doc2md: Run, corpus: Path, tmp_path: Path) -> None:
    run_doc2md(corpus / "markitdown" / "test.pdf", "-d", tmp_path)
    text = (tmp_path / "test.md").read_text("utf-8")
    assert "# 1 Introduction" in text
    assert "Large language models (LLMs) are becoming a crucial building block" in text


def test_drawio_labels_and_edges(run_doc2md: Run, corpus: Path, tmp_path: Path) -> None:
    run_doc2md(corpus / "drawio" / "class-diagram-example.drawio", "-d", tmp_path)
    text = (tmp_path / "class-diagram-example.md").read_text("utf-8")
    assert "- +purchaseParkingPass()" in text
    assert (
        "- Student -> Person\n- Professor -> Person\n- Person -> Address (0..1; 1; lives at)"
        in text
    )


def test_drawio_pages_and_placeholders(run_doc2md: Run, corpus: Path, tmp_path: Path) -> None:
    run_doc2md(corpus / "drawio" / "C4.drawio", "-d", tmp_path, "--front-matter")
    text = (tmp_path / "C4.md").read_text("utf-8")
    assert [h for h in headings(text) if h.startswith("## ")] == [
        "## C4 Context",
        "## C4 Container",
        "## C4 Component",
        "## C4 Class",
    ]
    assert text.startswith('---\nsource: "C4.drawio"\nsource_sha256: "')
    assert "\npages: 4\nocr: false\n---\n" in text
    assert "%c4Name%" not in text


def test_pdf_borderless_tables(run_doc2md: Run, corpus: Path, tmp_path: Path) -> None:
    run_doc2md(corpus / "markitdown" / "movie-theater-booking-2024.pdf", "-d", tmp_path)
    text = (tmp_path / "movie-theater-booking-2024.md").read_text("utf-8")
    assert text.count("\n| --- ") == 6
    assert (
        "## Totals\n\n| Month | # Shows | Gross Amount | Net Amount | Occupancy |\n"
        "| --- | --- | --- | --- | --- |\n"
        "| December 2024 | 48 | $12,500.00 | $11,250.00 | 85% |\n"
        "| Totals | 48 | $12,500.00 | $11,250.00 | 85% |\n" in text
    )
    # a wrapped description joins its row's cell; a note laid over the table stays text
    assert (
        "| 2 | SCR-2 | 12/20/24 | 12/31/24 | Winter Wonderland (Runtime: 98 min); "
        "Matinee Special | Standard | 4:30 PM | Daily | 24 | $150 | MT | $3,600 |" in text
    )
    assert "\n\nAll showtimes are approximate and subject to change.\n\n" in text
    run_doc2md(corpus / "markitdown" / "SPARSE-2024-INV-1234_borderless_table.pdf", "-d", tmp_path)
    sparse = (tmp_path / "SPARSE-2024-INV-1234_borderless_table.md").read_text("utf-8")
    assert "| SKU-9201 |  | 780 | 778 |  | OK |\n|  | C-15 |  |  | +15 |  |" in sparse


def test_pdf_ruled_frame_is_not_a_table(run_doc2md: Run, corpus: Path, tmp_path: Path) -> None:
    run_doc2md(corpus / "markitdown" / "REPAIR-2022-INV-001_multipage.pdf", "-d", tmp_path)
    text = (tmp_path / "REPAIR-2022-INV-001_multipage.md").read_text("utf-8")
    assert text.count("\n| --- ") == 4
    assert "| Body Labor | 2 | 150 | 300 |\n| Paint Labor | 1.5 | 150 | 225 |" in text
    assert "|  |  | Color | White |\n|  |  | Odometer | 9,800 |" in text


def test_pdf_prose_gets_no_tables(run_doc2md: Run, corpus: Path, tmp_path: Path) -> None:
    names = ["test", "masterformat_partial_numbering", "RECEIPT-2024-TXN-98765_retail_purchase"]
    run_doc2md(*(corpus / "markitdown" / f"{name}.pdf" for name in names), "-d", tmp_path)
    assert [(tmp_path / f"{name}.md").read_text("utf-8").count("| --- ") for name in names] == [
        0,
        0,
        0,
    ]
