"""PowerPoint: text frames, placeholders, tables, nested groups, notes, chart titles, masters."""

from __future__ import annotations

from pathlib import Path

import pptx
from officecli_testkit.replace_helpers import Replace, members, places, write_rules
from officecli_testkit.replace_samples import deck
from pptx.util import Inches


def test_every_kind_of_slide_text_is_replaced(replace: Replace, tmp_path: Path) -> None:
    (tmp_path / "in").mkdir()
    source = deck(tmp_path / "in" / "提案.pptx")
    rules = write_rules(
        tmp_path / "r.csv", [["id", "find", "replace"], ["co", "Acme Corp", "Globex Inc"]]
    )
    code, report = replace(source, "--rules", rules, "-d", tmp_path / "out")
    assert code == 0
    assert places(report, "co") == [
        "提案.pptx :: slide 1 :: shape 'Title 1' / paragraph 1",
        "提案.pptx :: slide 3 :: table 1 r2c1 / paragraph 1",
        "提案.pptx :: slide 3 :: group 'Group 2' / group 'Group 3' / shape 'Deep box' / paragraph 1",
        "提案.pptx :: slide 3 :: chart1 :: chart title / paragraph 1",
        "提案.pptx :: slide 3 :: notes :: shape 'Notes Placeholder 2' / paragraph 1",
    ]
    out = pptx.Presentation(str(tmp_path / "out" / "提案.pptx"))
    first, _, third = out.slides
    assert first.shapes.title.text == "Globex Inc plan"
    table, group, chart = (s for s in third.shapes)
    assert table.table.cell(1, 0).text == "Globex Inc"
    (inner,) = group.shapes
    (box,) = inner.shapes
    assert box.text_frame.text == "deep Globex Inc"
    assert chart.chart.chart_title.text_frame.text == "Globex Inc revenue"
    assert third.notes_slide.notes_text_frame.text == "say Globex Inc"
    before, after = members(source), members(tmp_path / "out" / "提案.pptx")
    assert after["ppt/slides/slide2.xml"] == before["ppt/slides/slide2.xml"]
    assert after["ppt/slideMasters/slideMaster1.xml"] == before["ppt/slideMasters/slideMaster1.xml"]


def test_masters_and_layouts_only_with_the_masters_story(replace: Replace, tmp_path: Path) -> None:
    (tmp_path / "in").mkdir()
    source = deck(tmp_path / "in" / "d.pptx")
    rules = write_rules(
        tmp_path / "r.csv", [["id", "find", "replace"], ["m", "Master title", "main title"]]
    )
    code, report = replace(source, "--rules", rules, "--dry-run")
    assert (code, places(report, "m")) == (0, [])
    code, report = replace(source, "--rules", rules, "--dry-run", "--stories", "masters")
    assert (
        places(report, "m")[0]
        == "d.pptx :: slideMaster1 :: shape 'Title Placeholder 1' / paragraph 1"
    )
    assert len(places(report, "m")) == 11  # the master and the ten layouts with a title


def test_a_line_break_or_a_field_in_a_text_frame_is_skipped(
    replace: Replace, tmp_path: Path
) -> None:
    (tmp_path / "in").mkdir()
    prs = pptx.Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[6])
    box = slide.shapes.add_textbox(Inches(1), Inches(1), Inches(4), Inches(1))
    box.text_frame.text = "Acme\vCorp"
    field = box.text_frame.add_paragraph()._p
    field.append(
        field.makeelement(
            "{http://schemas.openxmlformats.org/drawingml/2006/main}fld",
            {"id": "{B6F15528-21DE-4FAA-801E-634DDDAF4B2B}", "type": "slidenum"},
        )
    )
    t = field[-1].makeelement("{http://schemas.openxmlformats.org/drawingml/2006/main}t", {})
    t.text = "Acme Corp"
    field[-1].append(t)
    prs.save(str(tmp_path / "in" / "s.pptx"))
    rules = write_rules(
        tmp_path / "r.csv", [["id", "find", "replace"], ["co", "Acme Corp", "Globex Inc"]]
    )
    code, report = replace(tmp_path / "in" / "s.pptx", "--rules", rules, "-d", tmp_path / "out")
    assert code == 0
    assert [
        (f["rule_id"], f["location"], f["message"].rpartition("spans ")[2])
        for f in report["findings"]
    ] == [
        ("replace.skipped", "s.pptx :: slide 1 :: shape 'TextBox 1' / paragraph 1", "a line break"),
        ("replace.skipped", "s.pptx :: slide 1 :: shape 'TextBox 1' / paragraph 2", "a field"),
    ]
    assert members(tmp_path / "out" / "s.pptx") == members(tmp_path / "in" / "s.pptx")
