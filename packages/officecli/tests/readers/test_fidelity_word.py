"""Word constructs read the way a Markdown renderer shows them: nested lists, furigana,
line breaks, HYPERLINK fields and tables of contents (asserted on the parsed Markdown)."""

from __future__ import annotations

import zipfile
from pathlib import Path

from officecli_testkit.markdown_tree import links, outline

from officecli.doc2md.markdown import render
from officecli.readers.docx.reader import read_docx
from officecli.readers.model import ReadOptions

W_NS = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'


def _markdown(path: Path, options: ReadOptions | None = None) -> str:
    return render(read_docx(path, options or ReadOptions()), "x_assets")


def _docx_with(path: Path, paragraph_xml: str) -> Path:
    """A Word document whose one paragraph is the given raw WordprocessingML."""
    import docx

    document = docx.Document()
    document.add_paragraph("PLACEHOLDER")
    document.save(str(path))
    with zipfile.ZipFile(path) as src:
        parts = {n: src.read(n) for n in src.namelist()}
    body = parts["word/document.xml"].decode("utf-8")
    end = body.index("<w:t>PLACEHOLDER</w:t>")
    start = body.rindex("<w:p>", 0, end) if "<w:p>" in body[:end] else body.rindex("<w:p ", 0, end)
    stop = body.index("</w:p>", end) + len("</w:p>")
    parts["word/document.xml"] = (body[:start] + paragraph_xml + body[stop:]).encode("utf-8")
    with zipfile.ZipFile(path, "w") as dst:
        for name, data in parts.items():
            dst.writestr(name, data)
    return path


def test_nested_lists_nest_under_their_parent_marker(tmp_path: Path) -> None:
    import docx

    document = docx.Document()
    for n in range(1, 11):
        document.add_paragraph(f"step {n}", style="List Number")
        if n in (1, 10):
            document.add_paragraph(f"detail {n}a", style="List Bullet 2")
            document.add_paragraph(f"detail {n}b", style="List Bullet 2")
    document.add_paragraph("plain", style="List Bullet")
    document.add_paragraph("deeper", style="List Number 2")
    document.save(str(tmp_path / "lists.docx"))
    text = _markdown(tmp_path / "lists.docx")
    items = [x for x in outline(text) if x[0] == "li"]
    assert items[:4] == [
        ("li", 0, True, "step 1"),
        ("li", 1, False, "detail 1a"),
        ("li", 1, False, "detail 1b"),
        ("li", 0, True, "step 2"),
    ]
    assert items[11:14] == [
        ("li", 0, True, "step 10"),
        ("li", 1, False, "detail 10a"),
        ("li", 1, False, "detail 10b"),
    ]
    assert items[14:] == [("li", 0, False, "plain"), ("li", 1, True, "deeper")]
    assert "\n10. step 10\n    - detail 10a\n" in text  # indented by the width of "10. "
    assert [x for x in outline(text) if x[0] != "li"] == []


RUBY = (
    f'<w:p {W_NS}><w:r><w:t xml:space="preserve">部長 </w:t></w:r><w:r><w:ruby><w:rubyPr/>'
    "<w:rt><w:r><w:t>しょうじ</w:t></w:r></w:rt><w:rubyBase><w:r><w:t>東海林</w:t></w:r>"
    '</w:rubyBase></w:ruby></w:r><w:r><w:t xml:space="preserve"> 様</w:t></w:r></w:p>'
)


def test_ruby_keeps_the_base_text_and_optionally_the_reading(tmp_path: Path) -> None:
    _docx_with(tmp_path / "ruby.docx", RUBY)
    assert outline(_markdown(tmp_path / "ruby.docx")) == [("p", "部長 東海林 様")]
    assert outline(_markdown(tmp_path / "ruby.docx", ReadOptions(ruby="paren"))) == [
        ("p", "部長 東海林(しょうじ) 様")
    ]
    doc = read_docx(tmp_path / "ruby.docx", ReadOptions())
    assert doc.raw_chars == len("部長東海林様")  # the reading left out on purpose is not a loss


def test_line_break_is_a_hard_break(tmp_path: Path) -> None:
    import docx

    document = docx.Document()
    para = document.add_paragraph("〒100-0001")
    para.add_run().add_break()
    para.add_run("東京都千代田区")
    document.add_paragraph("one", style="List Bullet").add_run().add_break()
    document.paragraphs[-1].add_run("two")
    document.save(str(tmp_path / "br.docx"))
    assert outline(_markdown(tmp_path / "br.docx")) == [
        ("p", "〒100-0001\n東京都千代田区"),
        ("li", 0, False, "one\ntwo"),
    ]


FIELDS = (
    f"<w:p {W_NS}><w:fldSimple w:instr=' HYPERLINK \"https://example.com/a\" '>"
    '<w:r><w:t>simple</w:t></w:r></w:fldSimple><w:r><w:t xml:space="preserve"> and </w:t></w:r>'
    '<w:r><w:fldChar w:fldCharType="begin"/></w:r>'
    '<w:r><w:instrText xml:space="preserve"> HYPERLINK "https://example.com/b?q=1" </w:instrText></w:r>'
    '<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:rPr><w:b/></w:rPr><w:t>complex</w:t></w:r>'
    '<w:r><w:fldChar w:fldCharType="end"/></w:r>'
    '<w:r><w:t xml:space="preserve"> page </w:t></w:r><w:r><w:fldChar w:fldCharType="begin"/></w:r>'
    '<w:r><w:instrText> PAGE </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>'
    '<w:r><w:t>3</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>'
)


def test_hyperlink_fields_become_links(tmp_path: Path) -> None:
    text = _markdown(_docx_with(tmp_path / "fields.docx", FIELDS))
    assert links(text) == [
        ("simple", "https://example.com/a"),
        ("complex", "https://example.com/b?q=1"),
    ]
    assert outline(text) == [("p", "[simple] and [complex] page 3")]


def _toc_document(path: Path) -> None:
    import docx
    from docx.enum.style import WD_STYLE_TYPE

    document = docx.Document()
    for level in (1, 2):
        document.styles.add_style(f"toc {level}", WD_STYLE_TYPE.PARAGRAPH)
    document.add_paragraph("目次")
    document.add_paragraph("1 Overview\t1", style="toc 1")
    document.add_paragraph("1.1 経費の申請\t2", style="toc 2")
    document.add_heading("1 Overview", level=1)
    document.add_heading("1.1 経費の申請", level=2)
    document.save(str(path))


def test_table_of_contents_is_a_block_of_links_or_left_out(tmp_path: Path) -> None:
    _toc_document(tmp_path / "toc.docx")
    text = _markdown(tmp_path / "toc.docx")
    assert (
        "<!-- toc -->\n\n- [1 Overview](#1-overview)\n  - [1.1 経費の申請](#11-経費の申請)\n\n<!-- /toc -->"
        in text
    )
    assert [x for x in outline(text) if x[0] == "h"] == [
        ("h", 1, "1 Overview"),
        ("h", 2, "1.1 経費の申請"),
    ]
    without = _markdown(tmp_path / "toc.docx", ReadOptions(toc=False))
    assert outline(without) == [("p", "目次"), ("h", 1, "1 Overview"), ("h", 2, "1.1 経費の申請")]
    assert "toc" not in without


def test_a_numbered_list_continued_after_a_paragraph_keeps_counting(tmp_path: Path) -> None:
    import docx

    document = docx.Document()
    document.add_paragraph("submit the form", style="List Number")
    document.add_paragraph("wait for approval", style="List Number")
    document.add_paragraph("Approval takes two days.")
    document.add_paragraph("book the trip", style="List Number")
    document.add_paragraph("A new list:")
    restarted = document.add_paragraph("pack", style="List Number")
    numbering = document.part.numbering_part.numbering_definitions._numbering
    style_num = numbering.num_having_numId(5)  # what the List Number style uses
    num = numbering.add_num(style_num.abstractNumId.val)
    num.add_lvlOverride(ilvl=0).add_startOverride(1)
    restarted._p.get_or_add_pPr().get_or_add_numPr().get_or_add_numId().val = num.numId
    document.save(str(tmp_path / "steps.docx"))
    text = _markdown(tmp_path / "steps.docx")
    assert "\n\n3. book the trip\n" in text  # CommonMark starts the list at its first number
    assert "\n\n1. pack\n" in text  # "restart numbering" in Word
    assert [x[0] for x in outline(text)] == ["li", "li", "p", "li", "p", "li"]


FRACTION = "<m:f><m:num><m:r><m:t>a</m:t></m:r></m:num><m:den><m:r><m:t>b</m:t></m:r></m:den></m:f>"
EQUATIONS = (
    '<w:p><w:r><w:t xml:space="preserve">For </w:t></w:r>'
    "<m:oMath><m:r><m:t>m=1</m:t></m:r></m:oMath><w:r><w:t>,</w:t></w:r></w:p>"
    f"<w:p><m:oMathPara><m:oMath><m:r><m:t>x=</m:t></m:r>{FRACTION}</m:oMath></m:oMathPara></w:p>"
    "<w:p><w:r><w:t>so that</w:t></w:r><m:oMathPara><m:oMath><m:r><m:t>y=2</m:t></m:r>"
    "</m:oMath></m:oMathPara><w:r><w:t>holds.</w:t></w:r></w:p>"
)


def test_display_equations_stand_on_their_own_lines_and_inline_math_stays_inline(
    tmp_path: Path,
) -> None:
    text = _markdown(_docx_with(tmp_path / "math.docx", EQUATIONS))
    assert text == ("For $m=1$,\n\n$$x=\\frac{a}{b}$$\n\nso that\n\n$$y=2$$\n\nholds.\n")
