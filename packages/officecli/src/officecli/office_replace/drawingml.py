"""DrawingML text (PowerPoint shapes and tables, Excel drawings, chart titles): segments
of each a:p and where it is. Fields (slide numbers, dates) are protected; a:br is a barrier.
"""

from __future__ import annotations

from collections.abc import Iterator

from lxml import etree

from officecli.office_replace.package import EditablePackage
from officecli.office_replace.stories import Story
from officecli.office_replace.textedit import Segment, barrier

A = "http://schemas.openxmlformats.org/drawingml/2006/main"
P_NS = "http://schemas.openxmlformats.org/presentationml/2006/main"
XDR = "http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing"
C = "http://schemas.openxmlformats.org/drawingml/2006/chart"
MC = "http://schemas.openxmlformats.org/markup-compatibility/2006"
MC_FALLBACK, MC_ALTERNATE = f"{{{MC}}}Fallback", f"{{{MC}}}AlternateContent"
A_P, A_R, A_T, A_BR, A_FLD = (f"{{{A}}}{n}" for n in ("p", "r", "t", "br", "fld"))
A_TBL, A_TR, A_TC = (f"{{{A}}}{n}" for n in ("tbl", "tr", "tc"))
SHAPES = {f"{{{ns}}}{n}" for ns in (P_NS, XDR) for n in ("sp", "cxnSp", "graphicFrame")}
GROUPS = {f"{{{P_NS}}}grpSp", f"{{{XDR}}}grpSp"}
CHART_TITLE = f"{{{C}}}title"


def segments(p: etree._Element) -> list[Segment]:
    out: list[Segment] = []
    for child in p:
        if child.tag == A_R:
            t = child.find(A_T)
            if t is not None:
                out.append(Segment(t, t.text or ""))
        elif child.tag == A_BR:
            out.append(barrier("a line break"))
        elif child.tag == MC_ALTERNATE:  # an equation (a14:m) and its picture fallback
            out.append(barrier("an equation", ""))
        elif child.tag == A_FLD:
            t = child.find(A_T)
            if t is not None:
                out.append(Segment(t, t.text or "", protected="a field"))
    return out


def _name(shape: etree._Element) -> str:
    for el in shape.iter():
        if el.tag.endswith("}cNvPr"):
            return el.get("name") or ""
    return ""


def _cell(tc: etree._Element, tables: dict[etree._Element, int]) -> str:
    row = tc.getparent()
    table = row.getparent() if row is not None else None
    if row is None or table is None:
        return ""
    r = [c for c in table if c.tag == A_TR].index(row) + 1
    c = [c for c in row if c.tag == A_TC].index(tc) + 1
    return f"table {tables.get(table, 0)} r{r}c{c}"


def paragraphs(
    root: etree._Element, within: str | None = None
) -> Iterator[tuple[str, list[Segment], bool]]:
    """(place, segments, silent) for every a:p (only those under `within` elements, if given)."""
    tables = {t: n for n, t in enumerate(root.iter(A_TBL), 1)}
    for p in root.iter(A_P):
        silent, where, inside = False, [], within is None
        for anc in p.iterancestors():
            if anc.tag == MC_FALLBACK:
                silent = True
            elif anc.tag == A_TC:
                where.append(_cell(anc, tables))
            elif anc.tag in SHAPES and not where:
                where.append(f"shape {_name(anc)!r}")
            elif anc.tag in GROUPS:
                where.append(f"group {_name(anc)!r}")
            elif anc.tag == CHART_TITLE:
                where.append("chart title")
            if within is not None and anc.tag == within:
                inside = True
        if not inside:
            continue
        parent = p.getparent()
        number = [c for c in parent if c.tag == A_P].index(p) + 1 if parent is not None else 1
        yield " / ".join([*reversed(where), f"paragraph {number}"]), segments(p), silent


def story(
    pkg: EditablePackage, part: str, story: str, *where: str, within: str | None = None
) -> Story:
    """The DrawingML paragraphs of one part (only those under `within` elements, if given)."""
    return Story(story, part, where, lambda: paragraphs(pkg.xml(part), within))


def chart_stories(pkg: EditablePackage, source: str, *where: str) -> Iterator[Story]:
    """Titles of the charts a part (slide or drawing) shows."""
    for chart in pkg.targets(source, "chart"):
        label = chart.rpartition("/")[2].removesuffix(".xml")
        yield story(pkg, chart, "charts", *where, label, within=CHART_TITLE)
