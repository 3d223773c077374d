"""PDF lines in reading order to blocks: wrapped lines joined into paragraphs, headings by
size and weight, bullets as nested list items, unmappable glyphs dropped and counted."""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise
from statistics import median

from officecli.readers.model import Block, count_chars
from officecli.readers.ooxml import escape_inline
from officecli.readers.pdf.layout import SYMBOL_FONT, UNMAPPED, Line, join_lines, wide

# glyphs that start a list item when set apart from the text that follows
BULLET_WORDS = set("•●○◦■□▪▫◆◇►▶‣⁃∙·・-–—*✓✔❖➢➤")
# glyphs that start a list item even when the text follows without a space
BULLET_PREFIX = re.compile(r"^(?:\(cid:\d+\)|[\ue000-\uf8ff•●○◦■□▪▫◆◇►▶‣⁃∙・❖➢➤])")
SENTENCE_END = re.compile(r"[.,;:。、，：！？!?]$")
SECTION_NUMBER = re.compile(r"^\d{1,2}(?:\.\d{1,2})+\.?\s+\S")  # "2.1 申請画面の項目", not a date
SECTION_CHARS = 40
LABEL_VALUE = re.compile(r"[:：]\s*\S")  # "Total: $5" is a bold label, not a heading
NUMBER_WORD = re.compile(r"^(?:\d{1,2}|[a-z])[.)]$")  # "1." "2)" "a." start a numbered item
BOLD_HEADING_CHARS = 80  # a bold paragraph longer than this is emphasis, not a heading
HEADING_CHARS = 200
INDENT_TOLERANCE = 3.0
HANGING_EMS = 2.5  # the second line of a paragraph may start this far right of the first


@dataclass
class Glyphs:
    """Characters of the source not written as text: bullets and numbers that became list
    markers, and glyphs with no Unicode meaning (`(cid:N)`, private use) that were dropped."""

    markers: int = 0
    dropped: int = 0


def _bullet(line: Line) -> tuple[Line, float, str, bool] | None:
    """(the line without its marker, x where the item's text starts, the marker, whether
    the marker is a number) for a list item."""
    x0, x1, first = line.words[0]
    font = line.fonts[0] if line.fonts else ""
    rest = line.words[1:]
    found = BULLET_PREFIX.match(first)
    alone = (
        first in BULLET_WORDS
        or (len(first) == 1 and SYMBOL_FONT.search(font))
        or (found is not None and found.end() == len(first))
    )
    if alone and rest:
        return line.part(rest), rest[0][0], first, False
    if NUMBER_WORD.match(first) and rest:
        return line.part(rest), rest[0][0], first, True
    if found is not None and not alone:
        shown = (x0 + (x1 - x0) * found.end() / len(first), x1, first[found.end() :])
        stripped = Line(
            [shown, *rest], line.top, line.bottom, line.size, line.fonts, line.right, line.metrics
        )
        return stripped, shown[0], found[0], False
    return None


@dataclass
class PageText:
    """What every group on a page measures itself against."""

    width: float  # the text width: a heading wraps only when a line is full
    leading: float  # the usual gap between the lines of a paragraph
    right: float  # the right text edge, for lines outside columns


@dataclass
class Group:
    """Consecutive lines of one paragraph, heading or list item."""

    lines: list[Line]
    page: PageText
    kind: str = "paragraph"
    level: int = 0
    bullet_x: float = 0.0
    text_x: float = 0.0
    marker: str = ""  # the bullet or number, for the count of characters not written as text
    ordered: bool = False

    @property
    def number(self) -> int:
        """The number the item shows ("3." -> 3), 0 for a bullet or a letter."""
        digits = self.marker[:-1]
        return int(digits) if self.ordered and digits.isdigit() else 0

    @property
    def last(self) -> Line:
        return self.lines[-1]

    def continues(self, line: Line) -> bool:
        """Whether `line` wraps this group's text: same type, within the line spacing, and
        on the group's left edge (a heading, often centred, may start anywhere)."""
        last = self.last
        same_type = abs(last.size - line.size) < 0.6 and last.bold == line.bold
        gap = line.top - last.bottom
        if not same_type or not 0 <= gap <= self.page.leading + 0.25 * line.size:
            return False
        if self.kind == "heading":
            next_word = line.words[0][1] - line.words[0][0]
            return last.words[-1][1] - last.x0 + next_word + line.size > self.page.width
        if self._ended_early(line):
            return False
        tolerance = max(INDENT_TOLERANCE, 0.4 * line.size)
        if self.kind == "list_item":  # wrapped under its text, or back at its bullet
            return self.bullet_x - tolerance <= line.x0 <= self.text_x + tolerance
        if len(self.lines) == 1:  # a first-line indent, or a hanging one
            return line.x0 <= self.text_x + HANGING_EMS * line.size
        return abs(line.x0 - self.lines[1].x0) <= tolerance

    def _ended_early(self, line: Line) -> bool:
        """The next line's first word would have fitted on the last one: the writer broke
        the line there (a short last line, an address, a list without markers)."""
        last = self.last
        x0, x1, word = line.words[0]
        first = (x1 - x0) / len(word) if wide(word[0]) else x1 - x0  # CJK breaks anywhere
        right = last.right or self.page.right
        return last.words[-1][1] + 0.5 * line.size + first < right - 0.5 * line.size


def _text(lines: list[Line], glyphs: Glyphs) -> str:
    text = ""
    for line in lines:
        raw = line.text
        kept = UNMAPPED.sub("", raw)
        glyphs.dropped += count_chars(raw) - count_chars(kept)
        text = join_lines(text, escape_inline(kept.strip()))
    return text


def clean_cell(text: str, glyphs: Glyphs) -> str:
    """A table cell without glyphs that have no Unicode meaning."""
    kept = UNMAPPED.sub("", text)
    glyphs.dropped += count_chars(text) - count_chars(kept)
    return kept


def page_text(lines: list[Line]) -> PageText:
    """The measures of a page's text that its groups are judged by."""
    right = max((ln.words[-1][1] for ln in lines), default=0.0)
    width = right - min((ln.x0 for ln in lines), default=0.0)
    return PageText(width, _leading(lines), right)


def group_lines(
    lines: list[Line],
    size_level: dict[float, int],
    bold_level: int,
    page: PageText | None = None,
) -> list[Group]:
    """Lines in reading order to groups; `size_level` maps a font size to its heading level
    on this page, `bold_level` is the level of a short bold paragraph (0: none); `page` the
    measures of the whole page's text (else of these lines)."""
    groups: list[Group] = []
    page = page or page_text(lines)
    for line in lines:
        bullet = _bullet(line)
        if bullet is not None and bold_level and _bold_heading([line]):
            bullet = None  # "1. INTENT" in bold is a numbered heading
        if bullet is None and groups and groups[-1].continues(line):
            groups[-1].lines.append(line)
            continue
        if bullet is not None:
            body, text_x, marker, ordered = bullet
            groups.append(Group([body], page, "list_item", 0, line.x0, text_x, marker, ordered))
            continue
        level = size_level.get(line.size, 0)
        kind = "heading" if level else "paragraph"
        groups.append(Group([line], page, kind, level, text_x=line.x0))
    for group in groups:
        if group.kind == "paragraph" and bold_level and _bold_heading(group.lines):
            group.kind, group.level = "heading", bold_level
        elif group.kind == "paragraph" and _section_heading(group.lines):
            depth = group.lines[0].words[0][2].rstrip(".").count(".") + 1
            group.kind, group.level = "heading", min(depth + 1, 3)
    return groups


def _section_heading(lines: list[Line]) -> bool:
    """A short line of its own starting with a section number ("2.1 ..."): a heading even
    in body type."""
    text = lines[0].text
    return (
        len(lines) == 1
        and len(text) <= SECTION_CHARS
        and SECTION_NUMBER.match(text) is not None
        and not SENTENCE_END.search(text)
    )


def _leading(lines: list[Line]) -> float:
    """The median gap between consecutive lines in the same type that are closer than a
    line's height: paragraphs have more lines than breaks, so this is the line spacing."""
    gaps = [
        b.top - a.bottom
        for a, b in pairwise(lines)
        if a.size == b.size and 0 <= b.top - a.bottom < b.size
    ]
    return median(gaps) if gaps else 0.3 * max((ln.size for ln in lines), default=0.0)


def _bold_heading(lines: list[Line]) -> bool:
    text = " ".join(line.text for line in lines)
    return (
        lines[-1].bold
        and len(text) <= BOLD_HEADING_CHARS
        and not SENTENCE_END.search(text)
        and not LABEL_VALUE.search(text)
        and any(ch.isalpha() for ch in text)
    )


def group_blocks(groups: list[Group], glyphs: Glyphs) -> list[tuple[float, Block]]:
    """(top, block) per group; list items nest by their bullet's indent."""
    out: list[tuple[float, Block]] = []
    indents: list[float] = []  # bullet x of each open list level
    for group in groups:
        text = _text(group.lines, glyphs)
        top = group.lines[0].top
        if group.kind == "list_item":
            glyphs.markers += count_chars(group.marker)
            while indents and group.bullet_x < indents[-1] - INDENT_TOLERANCE:
                indents.pop()
            if not indents or group.bullet_x > indents[-1] + INDENT_TOLERANCE:
                indents.append(group.bullet_x)
            level = len(indents) - 1
            item = Block("list_item", text, level=level, ordered=group.ordered, number=group.number)
            out.append((top, item))
            continue
        indents = []
        if group.kind == "heading" and len(text) < HEADING_CHARS:
            out.append((top, Block("heading", text, level=group.level)))
        elif text:
            out.append((top, Block("paragraph", text)))
    return out
