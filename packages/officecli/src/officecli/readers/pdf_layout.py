"""PDF characters to lines, and lines to reading order (two-column regions read by column)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

LINE_TOLERANCE = 2.5  # points between character tops on the same line
MIN_SPLIT_LINES = 5
ALIGN_TOLERANCE = 6.0
WORD_GAP = 0.1  # share of the font size; pdfminer's word margin


@dataclass
class Line:
    words: list[tuple[float, float, str]] = field(default_factory=list)  # (x0, x1, text)
    top: float = 0.0
    bottom: float = 0.0
    size: float = 0.0

    @property
    def text(self) -> str:
        return " ".join(w[2] for w in self.words)

    def part(self, words: list[tuple[float, float, str]]) -> Line:
        return Line(words, self.top, self.bottom, self.size)


def _words(chars: list[dict[str, Any]]) -> list[tuple[float, float, str]]:
    words: list[tuple[float, float, str]] = []
    x0 = x1 = 0.0
    text = ""
    for ch in sorted(chars, key=lambda c: c["x0"]):
        gap = ch["x0"] - x1
        if text and (gap > WORD_GAP * ch["size"] or ch["text"].isspace()):
            if text.strip():
                words.append((x0, x1, text.strip()))
            text = ""
        if ch["text"].isspace():
            continue
        if not text:
            x0 = ch["x0"]
        text += ch["text"]
        x1 = ch["x1"]
    if text.strip():
        words.append((x0, x1, text.strip()))
    return words


def text_lines(chars: list[dict[str, Any]]) -> list[Line]:
    """Group characters into visual lines, top to bottom; size is the line's largest font."""
    groups: list[list[dict[str, Any]]] = []
    for ch in sorted(chars, key=lambda c: (c["top"], c["x0"])):
        if groups and abs(ch["top"] - groups[-1][0]["top"]) <= LINE_TOLERANCE:
            groups[-1].append(ch)
        else:
            groups.append([ch])
    lines = []
    for group in groups:
        words = _words(group)
        if words:
            size = round(max(c["size"] for c in group if not c["text"].isspace()) * 2) / 2
            lines.append(Line(words, group[0]["top"], max(c["bottom"] for c in group), size))
    return lines


def _gutter(lines: list[Line], width: float) -> float | None:
    """An x in the middle of the page that many lines have a gap around, if any."""
    best, best_split = None, 0
    for step in range(30, 71, 2):
        g = width * step / 100
        split = sum(
            1
            for line in lines
            if not any(w[0] < g < w[1] for w in line.words)
            and any(w[1] < g for w in line.words)
            and any(w[0] > g for w in line.words)
        )
        if split > best_split:
            best, best_split = g, split
    return best if best_split >= MIN_SPLIT_LINES else None


def _aligned(starts: list[float]) -> bool:
    """Most starts share one left edge: the mark of a text column, not of a number column."""
    if not starts:
        return False
    left = min(starts)
    return sum(1 for s in starts if s - left <= ALIGN_TOLERANCE) >= 0.8 * len(starts)


def _region_order(region: list[Line], g: float) -> list[Line]:
    split = [
        line
        for line in region
        if any(w[1] < g for w in line.words) and any(w[0] > g for w in line.words)
    ]
    rights = [min(w[0] for w in line.words if w[0] > g) for line in split]
    lefts = [min(w[0] for w in line.words) for line in split]
    if len(split) < MIN_SPLIT_LINES or not (_aligned(rights) and _aligned(lefts)):
        return region
    left = [line.part([w for w in line.words if w[1] < g]) for line in region]
    right = [line.part([w for w in line.words if w[0] > g]) for line in region]
    return [line for line in left + right if line.words]


def order_lines(lines: list[Line], page: Any) -> list[Line]:
    """Reading order: top to bottom, except two-column regions, which are read column by column."""
    g = _gutter(lines, float(page.width))
    if g is None:
        return lines
    out: list[Line] = []
    region: list[Line] = []
    for line in lines:
        if any(w[0] < g < w[1] for w in line.words):
            out += _region_order(region, g)
            region = []
            out.append(line)
        else:
            region.append(line)
    return out + _region_order(region, g)
