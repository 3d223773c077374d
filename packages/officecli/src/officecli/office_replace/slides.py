"""The stories of a PowerPoint package: slides (shapes, tables, groups), chart titles,
notes, and slide masters and layouts (the `masters` story)."""

from __future__ import annotations

from collections.abc import Iterator

from officecli.office_replace.drawingml import chart_stories, story
from officecli.office_replace.package import EditablePackage
from officecli.office_replace.stories import Story

P_NS = "http://schemas.openxmlformats.org/presentationml/2006/main"
R_ID = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"


def slide_parts(pkg: EditablePackage, main: str) -> list[str]:
    """Slide parts in presentation order (p:sldIdLst), not in part-name order."""
    rels = pkg.rels(main)
    order = pkg.xml(main).iter(f"{{{P_NS}}}sldId")
    return [
        rels[s.get(R_ID) or ""][0] for s in order if pkg.has(rels.get(s.get(R_ID) or "", ("",))[0])
    ]


def slide_stories(pkg: EditablePackage) -> Iterator[Story]:
    main = pkg.main_part()
    for number, slide in enumerate(slide_parts(pkg, main), 1):
        where = f"slide {number}"
        yield story(pkg, slide, "body", where)
        yield from chart_stories(pkg, slide, where)
        for notes in pkg.targets(slide, "notesSlide"):
            yield story(pkg, notes, "notes", where, "notes")
    for master in pkg.targets(main, "slideMaster"):
        for part in (master, *pkg.targets(master, "slideLayout")):
            yield story(pkg, part, "masters", part.rpartition("/")[2].removesuffix(".xml"))
