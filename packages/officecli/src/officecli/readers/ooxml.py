"""Namespaces and helpers shared by the Word, PowerPoint and Excel readers (charts too)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from officecli.readers.model import count_chars

TYPE_CHECKING = False
if TYPE_CHECKING:
    from xml.etree.ElementTree import Element

    from officecli.readers.safety import Package

NS = {
    "w": "http://schemas.openxmlformats.org/wordprocessingml/2006/main",
    "a": "http://schemas.openxmlformats.org/drawingml/2006/main",
    "r": "http://schemas.openxmlformats.org/officeDocument/2006/relationships",
    "p": "http://schemas.openxmlformats.org/presentationml/2006/main",
    "c": "http://schemas.openxmlformats.org/drawingml/2006/chart",
    "m": "http://schemas.openxmlformats.org/officeDocument/2006/math",
    "mc": "http://schemas.openxmlformats.org/markup-compatibility/2006",
    "wp": "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing",
    "x": "http://schemas.openxmlformats.org/spreadsheetml/2006/main",
    "xdr": "http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing",
    "v": "urn:schemas-microsoft-com:vml",
    "dgm": "http://schemas.openxmlformats.org/drawingml/2006/diagram",
}


def q(prefix: str, name: str) -> str:
    """Clark notation for prefix:name."""
    return f"{{{NS[prefix]}}}{name}"


def local(tag: str) -> str:
    return tag.rpartition("}")[2]


R_ID = q("r", "id")
R_EMBED = q("r", "embed")
MC_FALLBACK = q("mc", "Fallback")


def iter_skip_fallback(el: Element) -> Iterator[Element]:
    """Every descendant except those under mc:Fallback, which repeat the mc:Choice content."""
    for child in el:
        if child.tag == MC_FALLBACK:
            continue
        yield child
        yield from iter_skip_fallback(child)


def raw_text_chars(root: Element, tags: Iterable[str]) -> int:
    """Characters in the given text elements, straight from the XML (the independent route)."""
    wanted = set(tags)
    return sum(count_chars(el.text or "") for el in iter_skip_fallback(root) if el.tag in wanted)


def escape_inline(text: str) -> str:
    """Escape the characters that would turn plain text into Markdown syntax."""
    out = []
    for ch in text:
        if ch in "\\*_`[]<":
            out.append("\\" + ch)
        else:
            out.append(ch)
    return "".join(out)


IMAGE_EXTS = {"png", "jpg", "jpeg", "gif", "bmp", "tif", "tiff", "emf", "wmf", "svg", "webp"}


def picture_ext(target: str) -> str:
    ext = target.rpartition(".")[2].lower()
    return f".{ext}" if ext in IMAGE_EXTS else ".bin"


def _points(ref: Element | None) -> list[str]:
    """Cached values of a chart data reference (c:strRef/c:numRef/c:strLit/c:numLit)."""
    if ref is None:
        return []
    pts: dict[int, str] = {}
    for pt in ref.iter(q("c", "pt")):
        v = pt.find(q("c", "v"))
        pts[int(pt.get("idx", "0"))] = v.text or "" if v is not None else ""
    size = max(pts, default=-1) + 1
    return [pts.get(i, "") for i in range(size)]


def _formatted(ref: Element | None) -> list[str]:
    """Cached numbers as the chart shows them: under the cache's format code (0% -> 55%)."""
    points = _points(ref)
    code_el = next(ref.iter(q("c", "formatCode")), None) if ref is not None else None
    code = (code_el.text or "") if code_el is not None else ""
    if not code or code == "General":
        return points
    from officecli.readers.numfmt import format_value

    shown = []
    for point in points:
        try:
            shown.append(format_value(float(point), code))
        except ValueError:
            shown.append(point)
    return shown


def chart_title(pkg: Package, part: str) -> str:
    """The chart's own title text, "" when it has none (or only an automatic one)."""
    if not pkg.has(part):
        return ""
    title = next(pkg.xml(part).iter(q("c", "title")), None)
    if title is None:
        return ""
    return escape_inline(" ".join((t.text or "").strip() for t in title.iter(q("a", "t"))).strip())


def chart_rows(pkg: Package, part: str) -> list[list[str]]:
    """A chart as its data table from the cached values in the file; [] when there are none."""
    if not pkg.has(part):
        return []
    root = pkg.xml(part)
    series = list(root.iter(q("c", "ser")))
    categories: list[str] = []
    columns: list[tuple[str, list[str]]] = []
    for n, ser in enumerate(series, 1):
        name = " ".join(_points(ser.find(q("c", "tx")))) or f"Series {n}"
        cat = ser.find(q("c", "cat"))
        if cat is None:
            cat = ser.find(q("c", "xVal"))
        values = ser.find(q("c", "val"))
        if values is None:
            values = ser.find(q("c", "yVal"))
        cats = _points(cat)
        if len(cats) > len(categories):
            categories = cats
        columns.append((name, _formatted(values)))
    length = max([len(categories)] + [len(v) for _, v in columns])
    if length == 0:
        return []
    header = ["Category"] + [name for name, _ in columns]
    rows = [header]
    for i in range(length):
        row = [categories[i] if i < len(categories) else ""]
        row += [vals[i] if i < len(vals) else "" for _, vals in columns]
        rows.append(row)
    return rows


def chart_raw_chars(pkg: Package, part: str) -> int:
    """Independent count for a chart: every cached value and series name in its XML."""
    if not pkg.has(part):
        return 0
    return raw_text_chars(pkg.xml(part), [q("c", "v")])
