"""office-replace against python-docx-replace (Word) and python-pptx-text-replacer
(PowerPoint) on generated documents: wall time, files per second, occurrences missed.

The peers are installed into bench/.venv-replace (never project dependencies) on first use.
A folder of FILES documents (docx/xlsx/pptx in turn, 30 pages, sheets or slides each) holds
placeholders `${keyNN}` for 20 rules, in the places people put them: body paragraphs (some
split across runs with different formatting), tables, headers and footers, text boxes,
hyperlinks; cells and shapes; titles, tables, groups and notes. Every file and every tool
gets the same 20 rules. "missed" counts placeholders still in the outputs' text (paragraph
by paragraph, so a placeholder split across runs counts too). Usage:
python bench/office_replace_bench.py [FILES]
"""

from __future__ import annotations

import csv
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

from _results import Results
from lxml import etree

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / "bench" / ".venv-replace"
PEER = VENV / "bin" / "python"
FILES = int(sys.argv[1]) if len(sys.argv) > 1 else 200
PAGES = 30
RULES = 20
W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
LEAF_TEXT = {f"{{{W}}}p": f"{{{W}}}t"} | {
    f"{{{ns}}}{p}": f"{{{ns}}}t"
    for ns, p in (
        ("http://schemas.openxmlformats.org/drawingml/2006/main", "p"),
        ("http://schemas.openxmlformats.org/spreadsheetml/2006/main", "si"),
        ("http://schemas.openxmlformats.org/spreadsheetml/2006/main", "is"),
    )
}
FALLBACK = "{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback"
PHONETIC = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}rPh"

PEER_SCRIPT = """
import sys, pathlib
from docx import Document
from python_docx_replace import docx_replace
from python_pptx_text_replacer import TextReplacer
out = pathlib.Path(sys.argv[1]); n = int(sys.argv[2])
keys = {f"key{i:02d}": f"VALUE-{i:02d}" for i in range(n)}
pairs = [("${" + k + "}", v) for k, v in keys.items()]
for name in sys.argv[3:]:
    p = pathlib.Path(name)
    if p.suffix == ".docx":
        doc = Document(str(p)); docx_replace(doc, **keys); doc.save(str(out / p.name))
    elif p.suffix == ".pptx":
        r = TextReplacer(str(p), tables=True, charts=True, textframes=True, quiet=True)
        r.replace_text(pairs); r.write_presentation_to_file(str(out / p.name))
"""

TEXTBOX = (
    '<w:r xmlns:w="{w}"><mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006">'
    '<mc:Choice Requires="wps"><w:drawing><wp:anchor xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" '
    'simplePos="0" relativeHeight="0" behindDoc="0" locked="0" layoutInCell="1" allowOverlap="1">'
    '<wp:simplePos x="0" y="0"/><wp:positionH relativeFrom="column"><wp:posOffset>0</wp:posOffset></wp:positionH>'
    '<wp:positionV relativeFrom="paragraph"><wp:posOffset>0</wp:posOffset></wp:positionV><wp:extent cx="900000" cy="300000"/>'
    '<wp:wrapNone/><wp:docPr id="{id}" name="Box {id}"/><a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main">'
    '<a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape">'
    '<wps:wsp xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:cNvSpPr txBox="1"/>'
    '<wps:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="900000" cy="300000"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></wps:spPr>'
    "<wps:txbx><w:txbxContent><w:p><w:r><w:t>{text}</w:t></w:r></w:p></w:txbxContent></wps:txbx><wps:bodyPr/></wps:wsp>"
    "</a:graphicData></a:graphic></wp:anchor></w:drawing></mc:Choice><mc:Fallback><w:pict>"
    '<v:shape xmlns:v="urn:schemas-microsoft-com:vml" style="width:70pt;height:24pt"><v:textbox><w:txbxContent><w:p><w:r>'
    "<w:t>{text}</w:t></w:r></w:p></w:txbxContent></v:textbox></v:shape></w:pict></mc:Fallback>"
    "</mc:AlternateContent></w:r>"
)


def key(i: int) -> str:
    return "${key" + f"{i % RULES:02d}" + "}"


def make_docx(path: Path, seed: int) -> int:
    import docx
    from docx.enum.text import WD_BREAK
    from docx.oxml import parse_xml

    d = docx.Document()
    n = 0
    d.sections[0].header.paragraphs[0].text = f"header {key(seed)}"
    d.sections[0].footer.paragraphs[0].text = f"footer {key(seed + 1)}"
    n += 2
    for page in range(PAGES):
        k = seed + page
        d.add_heading(f"Section {page} {key(k)}", level=2)
        for line in range(6):
            d.add_paragraph(f"Line {line} of page {page} mentions {key(k + line)} once.")
        p = d.add_paragraph("split: ")
        placeholder = key(k + 7)
        p.add_run(placeholder[:4]).bold = True
        p.add_run(placeholder[4:]).italic = True
        table = d.add_table(rows=2, cols=3)
        table.cell(1, 2).text = f"cell {key(k + 8)}"
        n += 9
        if page % 5 == 0:
            box = d.add_paragraph()
            xml = TEXTBOX.replace("{w}", W).replace("{id}", str(page + 1))
            box._p.append(parse_xml(xml.replace("{text}", f"box {key(k + 9)}")))
            n += 1
        d.add_paragraph().add_run().add_break(WD_BREAK.PAGE)
    d.save(str(path))
    return n


def make_xlsx(path: Path, seed: int) -> int:
    import openpyxl

    wb = openpyxl.Workbook()
    wb.remove(wb.worksheets[0])  # the new workbook's one sheet
    n = 0
    for sheet in range(PAGES):
        ws = wb.create_sheet(f"S{sheet}")
        for row in range(1, 41):
            ws.append(
                [row, f"item {row}", f"{key(seed + sheet + row)} note", row * 1.5, "plain", "text"]
            )
            n += 1
    wb.save(path)
    return n


def make_pptx(path: Path, seed: int) -> int:
    import pptx
    from pptx.util import Inches

    prs = pptx.Presentation()
    n = 0
    for slide_no in range(PAGES):
        k = seed + slide_no
        s = prs.slides.add_slide(prs.slide_layouts[1])
        s.shapes.title.text = f"Slide {slide_no} {key(k)}"
        body = s.placeholders[1].text_frame
        body.text = f"first point {key(k + 1)}"
        for i in range(3):
            body.add_paragraph().text = f"point {i} {key(k + 2 + i)}"
        table = s.shapes.add_table(2, 2, Inches(1), Inches(5), Inches(4), Inches(1)).table
        table.cell(1, 1).text = f"cell {key(k + 5)}"
        group = s.shapes.add_group_shape()
        group.shapes.add_textbox(
            Inches(6), Inches(5), Inches(2), Inches(1)
        ).text_frame.text = f"grouped {key(k + 6)}"
        p = s.shapes.add_textbox(Inches(6), Inches(6), Inches(2), Inches(1)).text_frame.paragraphs[
            0
        ]
        placeholder = key(k + 7)
        first, second = p.add_run(), p.add_run()
        first.text, second.text = placeholder[:5], placeholder[5:]
        first.font.bold = True
        s.notes_slide.notes_text_frame.text = f"notes {key(k + 8)}"
        n += 9
    prs.save(str(path))
    return n


def remaining(path: Path) -> int:
    """Placeholders left in a file's text, joined per paragraph (mc:Fallback copies left out)."""
    left = 0
    with zipfile.ZipFile(path) as z:
        for name in z.namelist():
            if not name.endswith(".xml"):
                continue
            root = etree.fromstring(z.read(name))
            for tag, text_tag in LEAF_TEXT.items():
                for p in root.iter(tag):
                    fallback = any(a.tag == FALLBACK for a in p.iterancestors())
                    if fallback or any(True for _ in p.iterdescendants(tag)):
                        continue  # the mc:Choice copy is counted; text boxes count on their own
                    text = "".join(
                        t.text or ""
                        for t in p.iter(text_tag)
                        if not any(a.tag == PHONETIC for a in t.iterancestors())
                    )
                    left += text.count("${key")
    return left


def timed(argv: list[str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - t0


def ensure_peer() -> None:
    if PEER.exists():
        return
    subprocess.run(["uv", "venv", "-q", str(VENV), "--python", "3.11"], check=True)
    subprocess.run(
        [
            "uv",
            "pip",
            "install",
            "-q",
            "--python",
            str(PEER),
            "python-docx-replace",
            "python-pptx-text-replacer",
        ],
        check=True,
    )


def main() -> None:
    results = Results(
        f"office-replace on {FILES} generated documents ({PAGES} pages, sheets or slides each, "
        f"{RULES} rules) against python-docx-replace and python-pptx-text-replacer"
    )
    ensure_peer()
    makers = {".docx": make_docx, ".xlsx": make_xlsx, ".pptx": make_pptx}
    with tempfile.TemporaryDirectory() as tmp:
        source, rules = Path(tmp, "in"), Path(tmp, "rules.csv")
        source.mkdir()
        expected: dict[str, int] = {}
        t0 = time.perf_counter()
        for i in range(FILES):
            ext = list(makers)[i % 3]
            path = source / f"doc{i:03d}{ext}"
            expected[path.name] = makers[ext](path, i)
        print(
            f"generated {FILES} files ({PAGES} pages/sheets/slides each) in {time.perf_counter() - t0:.0f} s"
        )
        with open(rules, "w", newline="", encoding="utf-8") as fh:
            writer = csv.writer(fh)
            writer.writerow(["find", "replace"])
            writer.writerows([key(i), f"VALUE-{i:02d}"] for i in range(RULES))
        ours = [sys.executable, "-c", "from officecli.office_replace.cli import main; main()"]
        ours += ["-r", str(source), "--rules", str(rules)]
        dry = timed([*ours, "--dry-run"])
        real = timed([*ours, "-d", str(Path(tmp, "ours"))])
        word = sorted(str(p) for p in source.glob("*.docx"))
        slides = sorted(str(p) for p in source.glob("*.pptx"))
        peer_out = Path(tmp, "peer")
        peer_out.mkdir()
        t_word = timed([str(PEER), "-c", PEER_SCRIPT, str(peer_out), str(RULES), *word])
        t_slides = timed([str(PEER), "-c", PEER_SCRIPT, str(peer_out), str(RULES), *slides])

        def missed(folder: Path, ext: str) -> tuple[int, int]:
            names = [n for n in expected if n.endswith(ext)]
            return sum(expected[n] for n in names), sum(remaining(folder / n) for n in names)

        rows = [
            ("office-replace --dry-run", "all", FILES, dry, None),
            ("office-replace", "all", FILES, real, Path(tmp, "ours")),
        ]
        print(
            "\n| tool | files | wall s | files/s | occurrences | missed |\n|---|---|---|---|---|---|"
        )
        for label, kind, count, seconds, folder in rows:
            results.ours(f"{label}, {count} files", seconds, "s")
            occurrences, missed_cell = "", ""  # a dry run writes nothing to count in
            if folder:
                left = sum(remaining(folder / n) for n in expected)
                results.ours(f"{label}, placeholders missed", left, "", goal="== 0")
                occurrences, missed_cell = str(sum(expected.values())), str(left)
            print(
                f"| {label} | {count} {kind} | {seconds:.2f} | {count / seconds:.1f} "
                f"| {occurrences} | {missed_cell} |"
            )
        for ext, label, seconds, files in (
            (".docx", "python-docx-replace", t_word, word),
            (".pptx", "python-pptx-text-replacer", t_slides, slides),
        ):
            same = Path(tmp, f"ours{ext}")
            ours_alone = [*ours[:3], *files, "--rules", str(rules), "-d", str(same)]
            t_ours = timed(ours_alone)
            total, left_peer = missed(peer_out, ext)
            _, left_ours = missed(same, ext)
            for name, t, left in (
                (label, seconds, left_peer),
                ("office-replace", t_ours, left_ours),
            ):
                print(
                    f"| {name} | {len(files)} {ext} | {t:.2f} | {len(files) / t:.1f} | {total} | {left} |"
                )
            print(f"| ratio {label} / office-replace | | {seconds / t_ours:.1f}x | | | |")
            results.ours(f"office-replace, the same {len(files)} {ext}", t_ours, "s")
            results.ours(f"office-replace, {ext} placeholders missed", left_ours, "", goal="== 0")
            results.peer(f"{label}, {len(files)} {ext}", seconds, "s")
            results.peer(f"{label}, placeholders missed of {total}", left_peer, "")
            results.ratio(f"{label} / office-replace", seconds / t_ours, "higher")
    results.write()


if __name__ == "__main__":
    main()
