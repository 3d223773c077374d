"""Replace in a PowerPoint package: slides (shapes, tables, groups), notes, chart titles;
slide masters and layouts only with the `masters` story."""

from __future__ import annotations

from collections.abc import Sequence

from officecli.office_replace.drawingml import edit_charts, edit_part
from officecli.office_replace.found import Found
from officecli.office_replace.package import EditablePackage
from officecli.office_replace.rules import Rule

P_NS = "http://schemas.openxmlformats.org/presentationml/2006/main"
R_ID = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"


def slide_parts(pkg: EditablePackage, main: str) -> list[str]:
    """Slide parts in presentation order (p:sldIdLst), not in part-name order."""
    rels = pkg.rels(main)
    order = pkg.xml(main).iter(f"{{{P_NS}}}sldId")
    return [
        rels[s.get(R_ID) or ""][0] for s in order if pkg.has(rels.get(s.get(R_ID) or "", ("",))[0])
    ]


def replace_slides(
    pkg: EditablePackage, rules: Sequence[Rule], stories: set[str], found: Found
) -> None:
    main = pkg.main_part()
    for number, slide in enumerate(slide_parts(pkg, main), 1):
        where = f"slide {number}"
        if "body" in stories:
            edit_part(pkg, slide, rules, found, where, story="body")
        if "charts" in stories:
            edit_charts(pkg, slide, rules, found, where)
        if "notes" in stories:
            for notes in pkg.targets(slide, "notesSlide"):
                edit_part(pkg, notes, rules, found, where, "notes", story="notes")
    if "masters" in stories:
        for master in pkg.targets(main, "slideMaster"):
            for part in (master, *pkg.targets(master, "slideLayout")):
                label = part.rpartition("/")[2].removesuffix(".xml")
                edit_part(pkg, part, rules, found, label, story="masters")
