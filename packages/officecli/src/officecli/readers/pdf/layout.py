"""PDF characters to lines, and lines to reading order (two-column regions read by column)."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from statistics import median
from typing import Any

LINE_TOLERANCE = 2.5  # points between character tops on the same line
MIN_SPLIT_LINES = 5
ALIGN_TOLERANCE = 6.0
WORD_GAP = 0.1  # share of the font size a gap exceeds the line's letter spacing by: a space
MAX_TRACKING = 0.6  # share of the font size: a wider gap is never letter spacing
GUTTER_EMS = 1.5  # the gap between columns is wider than this many font sizes (median)
FILLED = 0.5  # a text column's lines fill at least this share of its width (median)
SYMBOL_FONT = re.compile(r"dingbat|symbol|wingding|webding", re.I)
UNMAPPED = re.compile(r"\(cid:\d+\)|[\ue000-\uf8ff]")  # glyphs with no Unicode meaning
BULLET_GLYPHS = set("•●○◦■□▪▫◆◇►▶‣⁃∙")
BOLD_FONT = re.compile(r"bold|black|heavy|semibold|demi|-w[6-9]\b", re.I)

HYPHENATED = re.compile(r"[A-Za-z]-$")

Word = tuple[float, float, str]  # (x0, x1, text)


def wide(ch: str) -> bool:
    """A character of the scripts written without spaces between words (CJK, kana, and
    their full-width punctuation)."""
    return unicodedata.east_asian_width(ch) in ("W", "F")


def join_lines(left: str, right: str) -> str:
    """Two lines of one paragraph: a space between them, except next to a CJK character
    (Japanese text puts none between its words, nor before a Latin word); a word hyphenated
    across the break is rejoined."""
    if not left or not right:
        return left or right
    if wide(left[-1]) or wide(right[0]):
        return left + right
    if HYPHENATED.search(left) and right[0].isalpha():  # con-/firming, multi-/Agent
        return (left[:-1] if right[0].islower() else left) + right
    return f"{left} {right}"


@dataclass
class Line:
    words: list[Word] = field(default_factory=list)
    top: float = 0.0
    bottom: float = 0.0
    size: float = 0.0
    fonts: list[str] = field(default_factory=list)  # font of each word's first character
    right: float = 0.0  # right edge of the text column the line is in (0: the page's)

    @property
    def text(self) -> str:
        """The words with a space between each two: a word ends only where the source has a
        space (a space character, or a gap wider than the line's letter spacing)."""
        return " ".join(word[2] for word in self.words)

    @property
    def x0(self) -> float:
        return self.words[0][0]

    @property
    def bold(self) -> bool:
        """Every word set in a bold face (a mark of headings); symbol glyphs do not count."""
        fonts = [f for f in self.fonts if not SYMBOL_FONT.search(f)]
        return bool(fonts) and all(BOLD_FONT.search(f) for f in fonts)

    def part(self, words: list[Word]) -> Line:
        fonts = [f for w, f in zip(self.words, self.fonts, strict=False) if w in words]
        return Line(words, self.top, self.bottom, self.size, fonts, self.right)


def letter_spacing(chars: list[dict[str, Any]]) -> float:
    """The line's own letter spacing: the median gap between neighbouring characters (no
    space character between them; overlaps count as 0). Gaps wider than MAX_TRACKING of the
    font size are word or column gaps, not spacing, and are left out."""
    gaps: list[float] = []
    before: dict[str, Any] | None = None
    for ch in chars:
        if ch["text"].isspace():
            before = None
            continue
        if before is not None:
            gap = max(ch["x0"] - before["x1"], 0.0)
            if gap <= MAX_TRACKING * ch["size"]:
                gaps.append(gap)
        before = ch
    return median(gaps) if gaps else 0.0


def _words(chars: list[dict[str, Any]]) -> tuple[list[Word], list[str]]:
    """A line's characters (left to right) as words: a word ends at a space character, or
    at a gap wider than the line's own letter spacing by WORD_GAP of the font size, so
    letter-spaced (tracked) text stays whole and a real space is kept in any script."""
    chars = sorted(chars, key=lambda c: c["x0"])
    spacing = letter_spacing(chars)
    words: list[Word] = []
    fonts: list[str] = []
    x0 = x1 = 0.0
    text = font = ""
    for ch in chars:
        gap = ch["x0"] - x1
        if text and (gap > spacing + WORD_GAP * ch["size"] or ch["text"].isspace()):
            if text.strip():
                words.append((x0, x1, text.strip()))
                fonts.append(font)
            text = ""
        if ch["text"].isspace():
            continue
        if not text:
            x0, font = ch["x0"], str(ch.get("fontname", ""))
        text += ch["text"]
        x1 = ch["x1"]
    if text.strip():
        words.append((x0, x1, text.strip()))
        fonts.append(font)
    return words, fonts


@lru_cache(maxsize=256)
def _symbol_font(font: str) -> bool:
    return SYMBOL_FONT.search(font) is not None


def _is_glyph(ch: dict[str, Any]) -> bool:
    """A bullet or other symbol glyph (symbol font, unmapped, a bullet character): its
    size and height are not the line's."""
    text = str(ch["text"])
    if text in BULLET_GLYPHS or _symbol_font(str(ch.get("fontname", ""))):
        return True
    return text.startswith("(cid:") or "\ue000" <= text[:1] <= "\uf8ff"


def _same_line(ch: dict[str, Any], first: dict[str, Any], bottom: float) -> bool:
    """On the line that starts with `first` and reaches down to `bottom`: tops within a
    tolerance, or, after a bullet glyph (often larger, so higher), a box mostly inside."""
    top = first["top"]
    if abs(ch["top"] - top) <= LINE_TOLERANCE:
        return True
    height = min(bottom - top, ch["bottom"] - ch["top"])
    overlap = min(bottom, ch["bottom"]) - max(top, ch["top"])
    return _is_glyph(first) and height > 0 and overlap >= 0.5 * height


def text_lines(chars: list[dict[str, Any]]) -> list[Line]:
    """Group characters into visual lines, top to bottom; size is the line's largest font
    (bullets and other symbol glyphs left out)."""
    groups: list[list[dict[str, Any]]] = []
    bottom = 0.0  # lowest bottom of the current line
    for ch in sorted(chars, key=lambda c: (c["top"], c["x0"])):
        if groups and _same_line(ch, groups[-1][0], bottom):
            groups[-1].append(ch)
            bottom = max(bottom, ch["bottom"])
        else:
            groups.append([ch])
            bottom = ch["bottom"]
    lines = []
    for group in groups:
        words, fonts = _words(group)
        if words:
            sized = [c for c in group if not c["text"].isspace() and not _is_glyph(c)]
            size = round(max(c["size"] for c in sized or group) * 2) / 2
            bottom = max(c["bottom"] for c in group)
            lines.append(Line(words, group[0]["top"], bottom, size, fonts))
    return lines


def _sides(line: Line, g: float) -> tuple[list[Word], list[Word]] | None:
    """The words left and right of x = g, or None when a word crosses it."""
    if any(w[0] < g < w[1] for w in line.words):
        return None
    return [w for w in line.words if w[1] <= g], [w for w in line.words if w[0] >= g]


def _column_fit(lines: list[Line], g: float) -> tuple[int, float, float] | None:
    """(lines split at g, clearance around g, median gap of those lines) when g separates two text columns: many
    lines have words on both sides, each side starts at one left edge, and the text fills
    its column (which tells columns from a form's labels and values). None otherwise."""
    split = [s for s in (_sides(line, g) for line in lines) if s and s[0] and s[1]]
    if len(split) < MIN_SPLIT_LINES:
        return None
    lefts, rights = [s[0][0][0] for s in split], [s[1][0][0] for s in split]
    if not (_aligned(lefts) and _aligned(rights)):
        return None
    left_width = g - min(lefts)
    right_width = max(s[1][-1][1] for s in split) - min(rights)
    filled_left = median(s[0][-1][1] - s[0][0][0] for s in split) >= FILLED * left_width
    filled_right = median(s[1][-1][1] - s[1][0][0] for s in split) >= FILLED * right_width
    if not (filled_left and filled_right):
        return None
    left_end = max(s[0][-1][1] for s in split)
    gap = median(s[1][0][0] - s[0][-1][1] for s in split)
    if gap < GUTTER_EMS * median(line.size for line in lines):
        return None  # word spaces, not a gutter
    return len(split), min(min(rights) - g, g - left_end), gap


def _gutter(lines: list[Line], width: float) -> tuple[float, float] | None:
    """(x, width) of the gap between two text columns in the middle half of the page, if
    any: the x splitting the most lines, then the one farthest from any word."""
    best: tuple[float, float] | None = None
    best_fit = (0, 0.0, 0.0)
    for step in range(25, 76):  # 1% steps: a gutter is wider than that
        g = width * step / 100
        fit = _column_fit(lines, g)
        if fit is not None and fit > best_fit:
            best, best_fit = (g, fit[2]), fit
    return best


def _across(line: Line, g: float, gap: float) -> bool:
    """A line across the gutter: a word crosses it, or its words leave a gap there no wider
    than a word space (a full-width line with a space near the gutter)."""
    sides = _sides(line, g)
    if sides is None:
        return True
    left, right = sides
    return bool(left and right) and right[0][0] - left[-1][1] < min(0.5 * gap, line.size)


def _aligned(starts: list[float]) -> bool:
    """Most starts share one left edge: the mark of a text column, not of a number column."""
    if not starts:
        return False
    left = min(starts)
    return sum(1 for s in starts if s - left <= ALIGN_TOLERANCE) >= 0.8 * len(starts)


def _region_order(region: list[Line], g: float) -> list[Line]:
    left = [line.part([w for w in line.words if w[1] <= g]) for line in region]
    right = [line.part([w for w in line.words if w[0] >= g]) for line in region]
    out: list[Line] = []
    for column in (left, right):
        column = [line for line in column if line.words]
        edge = max((line.words[-1][1] for line in column), default=0.0)
        for line in column:
            line.right = edge
        out += column
    return out


def order_lines(lines: list[Line], width: float) -> list[Line]:
    """Reading order: top to bottom, except two-column regions, which are read column by
    column; a line across the gutter (a title, a full-width paragraph) stays in place."""
    gutter = _gutter(lines, width)
    if gutter is None:
        return lines
    g, gap = gutter
    out: list[Line] = []
    region: list[Line] = []
    for line in lines:
        if _across(line, g, gap):
            out += _region_order(region, g)
            region = []
            out.append(line)
        else:
            region.append(line)
    return out + _region_order(region, g)
