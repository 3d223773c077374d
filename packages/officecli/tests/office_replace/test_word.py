"""Word: matches across runs, every story, text boxes once, and each reason to skip."""

from __future__ import annotations

from pathlib import Path

import docx
from lxml import etree
from officecli_testkit.replace_helpers import (
    W_NS,
    Replace,
    add_override,
    add_rel,
    docx_body,
    findings,
    members,
    para,
    places,
    run,
    write_rules,
)
from officecli_testkit.replace_samples import TEXTBOX

BOLD, ITALIC = "<w:b/>", "<w:i/>"
FOOTNOTES = (
    f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:footnotes xmlns:w="{W_NS}">'
    '<w:footnote w:id="1"><w:p><w:r><w:t>note Acme Corp</w:t></w:r></w:p></w:footnote></w:footnotes>'
)
FOOTNOTES_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml"


def rules(tmp_path: Path) -> Path:
    return write_rules(
        tmp_path / "rules.csv", [["id", "find", "replace"], ["co", "Acme Corp", "Globex Inc"]]
    )


def body_runs(path: Path) -> list[bytes]:
    root = etree.fromstring(members(path)["word/document.xml"])
    return [etree.tostring(r) for r in root.iter(f"{{{W_NS}}}r")]


def test_a_match_across_runs_takes_the_first_runs_formatting(
    replace: Replace, tmp_path: Path
) -> None:
    (tmp_path / "in").mkdir()
    source = docx_body(
        tmp_path / "in" / "a.docx",
        para(
            run("Ac", BOLD),
            run("me Co", ITALIC),
            run("rp", ""),
            run(" sells", '<w:u w:val="single"/>'),
        ),
    )
    code, report = replace(source, "--rules", rules(tmp_path), "-d", tmp_path / "out")
    assert code == 0
    out = tmp_path / "out" / "a.docx"
    runs = docx.Document(str(out)).paragraphs[0].runs
    assert [(r.text, r.bold, r.italic) for r in runs] == [
        ("Globex Inc", True, None),
        ("", None, True),
        ("", None, None),
        (" sells", None, None),
    ]
    assert body_runs(out)[3] == body_runs(source)[3]
    assert findings(report, "co")[0]["location"] == "a.docx :: body :: paragraph 1"
    assert findings(report, "co")[0]["expected"] == "Acme Corp sells"
    assert findings(report, "co")[0]["actual"] == "Globex Inc sells"


def test_every_story_is_edited_and_text_boxes_count_once(replace: Replace, tmp_path: Path) -> None:
    (tmp_path / "in").mkdir()
    body = (
        para(TEXTBOX)
        + para(
            '<w:hyperlink r:id="rIdX" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
            + run("link Acme ")
            + run("Corp")
            + "</w:hyperlink>"
        )
        + para(
            "<w:sdt><w:sdtPr/><w:sdtContent>" + run("control Acme Corp") + "</w:sdtContent></w:sdt>"
        )
    )
    source = docx_body(
        tmp_path / "in" / "a.docx",
        body,
        {
            "word/footnotes.xml": FOOTNOTES,
            "word/_rels/document.xml.rels": add_rel("rIdF", "footnotes", "footnotes.xml"),
            "[Content_Types].xml": add_override("word/footnotes.xml", FOOTNOTES_TYPE),
        },
    )
    document = docx.Document(str(source))
    section = document.sections[0]
    section.different_first_page_header_footer = True
    document.settings.odd_and_even_pages_header_footer = True
    for hf in (section.header, section.first_page_header, section.even_page_header, section.footer):
        hf.paragraphs[0].text = "Acme Corp"
    outer = document.add_table(rows=1, cols=1)
    outer.cell(0, 0).add_table(rows=1, cols=2).cell(0, 1).text = "deep Acme Corp"
    document.save(str(source))
    code, report = replace(source, "--rules", rules(tmp_path), "-d", tmp_path / "out")
    assert code == 0
    assert sorted(places(report, "co")) == sorted(
        [
            "a.docx :: body :: text box / paragraph 2",
            "a.docx :: body :: paragraph 3",
            "a.docx :: body :: paragraph 4",
            "a.docx :: body :: table 1 r1c1 / table 2 r1c2 / paragraph 7",
            "a.docx :: footer1 :: paragraph 1",
            "a.docx :: footnotes :: paragraph 1",
            "a.docx :: header1 :: paragraph 1",
            "a.docx :: header2 :: paragraph 1",
            "a.docx :: header3 :: paragraph 1",
        ]
    )
    parts = members(tmp_path / "out" / "a.docx")
    assert parts["word/document.xml"].count(b"box Globex Inc") == 2  # mc:Choice and mc:Fallback
    assert b"Acme" not in b"".join(parts.values())
    out = docx.Document(str(tmp_path / "out" / "a.docx"))
    assert out.paragraphs[1].hyperlinks[0].text == "link Globex Inc"


def test_comments_only_with_the_comments_story(replace: Replace, tmp_path: Path) -> None:
    document = docx.Document()
    paragraph = document.add_paragraph("text")
    document.add_comment(paragraph.runs, text="ask Acme Corp")
    (tmp_path / "in").mkdir()
    document.save(str(tmp_path / "in" / "c.docx"))
    code, report = replace(tmp_path / "in" / "c.docx", "--rules", rules(tmp_path), "--dry-run")
    assert code == 0
    assert [
        (f["severity"], f["location"], f["field"], f["expected"], f["suggestion"])
        for f in findings(report)
    ] == [
        (
            "warning",
            "c.docx :: comments :: paragraph 1",
            "co",
            "ask Acme Corp",
            "add comments to --stories: --stories body,headers,footnotes,comments,notes,charts",
        )
    ]
    assert findings(report)[0]["message"] == (
        "rule co (text) finds 'Acme Corp' in comments text, which --stories leaves out"
    )
    code, report = replace(
        tmp_path / "in" / "c.docx",
        "--rules",
        rules(tmp_path),
        "--dry-run",
        "--stories",
        "body,comments",
    )
    assert places(report, "co") == ["c.docx :: comments :: paragraph 1"]


FIELD = (
    '<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> DOCPROPERTY Company </w:instrText></w:r>'
    '<w:r><w:fldChar w:fldCharType="separate"/></w:r>'
    + run("Acme Corp")
    + '<w:r><w:fldChar w:fldCharType="end"/></w:r>'
)
RUBY = (
    "<w:r><w:ruby><w:rubyPr/><w:rt><w:r><w:t>こーぷ</w:t></w:r></w:rt>"
    "<w:rubyBase><w:r><w:t>Corp</w:t></w:r></w:rubyBase></w:ruby></w:r>"
)
BOUND = (
    '<w:sdt><w:sdtPr><w:dataBinding w:xpath="/root/company" w:storeItemID="{1}"/></w:sdtPr>'
    "<w:sdtContent>" + run("Acme Corp") + "</w:sdtContent></w:sdt>"
)


def test_each_reason_to_skip_is_reported_and_nothing_is_edited(
    replace: Replace, tmp_path: Path
) -> None:
    (tmp_path / "in").mkdir()
    body = (
        para(run("Acme"), "<w:r><w:tab/></w:r>", run("Corp"))
        + para(run("Acme"), "<w:r><w:br/></w:r>", run("Corp"))
        + para(FIELD)
        + para('<w:fldSimple w:instr="AUTHOR">' + run("Acme Corp") + "</w:fldSimple>")
        + para('<w:ins w:id="1" w:author="x">' + run("Acme Corp") + "</w:ins>")
        + para(
            run("Acme "),
            '<w:del w:id="2" w:author="x"><w:r><w:delText>old</w:delText></w:r></w:del>',
            run("Corp"),
        )
        + para(BOUND)
        + para(run("Acme "), RUBY)
        + para(run("Acme"), "<w:r><w:drawing/></w:r>", run(" Corp"))
    )
    source = docx_body(tmp_path / "in" / "s.docx", body)
    code, report = replace(
        source, "--rules", rules(tmp_path), "-d", tmp_path / "out", "--fail-on", "warning"
    )
    assert code == 1
    skipped = findings(report, "replace.skipped")
    assert [f["message"].rpartition("spans ")[2] for f in skipped] == [
        "a tab",
        "a line break",
        "a field",
        "a field",
        "a tracked change",
        "a tracked change",
        "a data-bound content control",
        "text with ruby (furigana)",
        "a drawing",
    ]
    assert {f["field"] for f in skipped} == {"co"}
    assert findings(report, "co") == []
    assert members(tmp_path / "out" / "s.docx") == members(source)
