"""PDF characters to words and lines (the reading order of lines is columns.py's)."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from statistics import median
from typing import Any

LINE_TOLERANCE = 2.5  # points between character tops on the same line
WORD_GAP = 0.1  # share of the font size a gap exceeds the line's letter spacing by: a space
MAX_TRACKING = 0.6  # share of the font size: a wider gap is never letter spacing
# Between CJK and Latin letters or digits, Word, LibreOffice and pLaTeX add about a quarter of
# the font size (autospace, xkanjiskip) that is no space: a gap there must be wider than this.
AUTOSPACE = 0.3
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


Metric = tuple[float, float, float]  # a word's (text size, top, bottom); size 0: glyphs only


@dataclass
class Line:
    words: list[Word] = field(default_factory=list)
    top: float = 0.0
    bottom: float = 0.0
    size: float = 0.0
    fonts: list[str] = field(default_factory=list)  # font of each word's first character
    right: float = 0.0  # right edge of the text column the line is in (0: the page's)
    metrics: list[Metric] = field(default_factory=list)  # per word, when read from characters

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
        """Some of the line's words as a line of their own, with their own size and height
        (one side of a gutter: a heading beside body text is not the body's size)."""
        fonts = [f for w, f in zip(self.words, self.fonts, strict=False) if w in words]
        metrics = [m for w, m in zip(self.words, self.metrics, strict=False) if w in words]
        top, bottom, size = self.top, self.bottom, self.size
        if metrics:
            top, bottom = min(m[1] for m in metrics), max(m[2] for m in metrics)
            size = _half_points(max(m[0] for m in metrics)) or size
        return Line(words, top, bottom, size, fonts, self.right, metrics)


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


def _words(chars: list[dict[str, Any]]) -> tuple[list[Word], list[str], list[Metric]]:
    """A line's characters (left to right) as words: a word ends at a space character, or
    at a gap wider than the line's own letter spacing by WORD_GAP of the font size, so
    letter-spaced (tracked) text stays whole and a real space is kept in any script."""
    chars = sorted(chars, key=lambda c: c["x0"])
    spacing = letter_spacing(chars)
    words: list[Word] = []
    fonts: list[str] = []
    metrics: list[Metric] = []
    word: list[dict[str, Any]] = []
    for ch in chars:
        if word and (ch["text"].isspace() or _spaced(word[-1], ch, spacing)):
            _add_word(word, words, fonts, metrics)
            word = []
        if ch["text"].isspace():
            continue
        word.append(ch)
    if word:
        _add_word(word, words, fonts, metrics)
    return words, fonts, metrics


def _spaced(before: dict[str, Any], ch: dict[str, Any], spacing: float) -> bool:
    """A space between two neighbouring characters: their gap is wider than the line's
    letter spacing by WORD_GAP of the font size (by AUTOSPACE between CJK and Latin)."""
    left, right = str(before["text"])[-1:], str(ch["text"])[:1]
    share = AUTOSPACE if left and right and wide(left) != wide(right) else WORD_GAP
    return bool(ch["x0"] - before["x1"] > spacing + share * ch["size"])


def _add_word(
    chars: list[dict[str, Any]], words: list[Word], fonts: list[str], metrics: list[Metric]
) -> None:
    text = "".join(str(ch["text"]) for ch in chars).strip()
    if not text:
        return
    words.append((chars[0]["x0"], chars[-1]["x1"], text))
    fonts.append(str(chars[0].get("fontname", "")))
    sized = [float(ch["size"]) for ch in chars if not _is_glyph(ch)]
    top = min(float(ch["top"]) for ch in chars)
    metrics.append((max(sized, default=0.0), top, max(float(ch["bottom"]) for ch in chars)))


def _half_points(size: float) -> float:
    return round(size * 2) / 2


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
        words, fonts, metrics = _words(group)
        if words:
            sized = [c for c in group if not c["text"].isspace() and not _is_glyph(c)]
            size = _half_points(max(c["size"] for c in sized or group))
            bottom = max(c["bottom"] for c in group)
            lines.append(Line(words, group[0]["top"], bottom, size, fonts, 0.0, metrics))
    return lines
