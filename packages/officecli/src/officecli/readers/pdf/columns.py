"""A page's reading order: text columns found per region of the page, not per page.

A region is a run of lines and boxes (tables, pictures) from top to bottom that nothing
crosses at some x: a full-width title, a picture or table spanning the columns, or a line
running across ends one. A region whose two sides at that x are text columns (each side's
lines start at one left edge and fill their width, the sides run side by side, a gutter
clear between them) is read left column, then right column, and each side is looked at
again for columns of its own. Everything else is read top to bottom. The best regions of
every candidate x are taken greedily, so a page can have regions of different splits.
"""

from __future__ import annotations

from dataclasses import dataclass
from statistics import median

from officecli.readers.model import Block
from officecli.readers.pdf.layout import Line, Word

STEPS = range(25, 76)  # candidate gutters: 1% steps across the middle half of the region
MIN_COLUMN_LINES = 2  # lines on each side of a gutter
MIN_REGION_LINES = 5  # lines in a region split into columns
GUTTER_EMS = 1.2  # the clear gap between two columns is at least this many font sizes
FILLED = 0.5  # a text column's lines fill at least this share of its width (median)
ALIGN_TOLERANCE = 6.0  # points: starts on one left edge
INDENT_EMS = 2.2  # a first-line indent still starts "on" the column's edge
ALIGNED = 0.8  # share of a column's lines that start on its left edge
SIDE_BY_SIDE = 0.5  # the two sides overlap vertically by this share of the shorter one
WIDTH_RATIO = 3.0  # one column at most this many times as wide as the other
MAX_DEPTH = 2  # columns within columns (three or four columns)


@dataclass
class Box:
    """A table or a picture where it stands on the page, and its blocks (a picture's text
    read by OCR goes under it)."""

    top: float
    bottom: float
    x0: float
    x1: float
    blocks: list[Block]


Item = Line | Box
Fragment = tuple[float, float, float, float, float]  # x0, x1, top, bottom, size


def reading_order(lines: list[Line], boxes: list[Box], width: float) -> list[Item]:
    """Lines and boxes in reading order: top to bottom, column regions column by column."""
    items: list[Item] = sorted([*lines, *boxes], key=lambda item: item.top)
    return _order(items, 0.0, width, 0)


def _order(items: list[Item], lo: float, hi: float, depth: int) -> list[Item]:
    if depth >= MAX_DEPTH or len(items) < MIN_REGION_LINES:
        return items
    out: list[Item] = []
    done = 0
    for start, end, g in _regions(items, lo, hi):
        out += items[done:start]
        left, right = _split(items[start:end], g)
        out += _column(_order(left, lo, g, depth + 1))
        out += _column(_order(right, g, hi, depth + 1))
        done = end
    return out + items[done:]


def _regions(items: list[Item], lo: float, hi: float) -> list[tuple[int, int, float]]:
    """(start, end, gutter x) of the column regions, in page order, none overlapping."""
    found: list[tuple[tuple[int, float], int, int, float]] = []
    for step in STEPS:
        g = lo + (hi - lo) * step / 100
        for start, end in _runs(items, g):
            fit = _fit(items[start:end], g)
            if fit is not None:
                found.append((fit, start, end, g))
    taken: list[tuple[int, int, float]] = []
    for _score, start, end, g in sorted(found, key=lambda f: f[0], reverse=True):
        if all(end <= s or start >= e for s, e, _g in taken):
            taken.append((start, end, g))
    return sorted(taken)


def _runs(items: list[Item], g: float) -> list[tuple[int, int]]:
    """Maximal runs of items nothing of which crosses x = g."""
    runs: list[tuple[int, int]] = []
    start = 0
    for i, item in enumerate(items):
        if _crosses(item, g):
            if i - start >= MIN_REGION_LINES:
                runs.append((start, i))
            start = i + 1
    if len(items) - start >= MIN_REGION_LINES:
        runs.append((start, len(items)))
    return runs


def _crosses(item: Item, g: float) -> bool:
    """A box over x = g; a line with a word over it, or whose words meet there with no more
    than a word space between them (a full-width line)."""
    if isinstance(item, Box):
        return item.x0 < g < item.x1
    left = [w for w in item.words if w[1] <= g]
    right = [w for w in item.words if w[0] >= g]
    if len(left) + len(right) < len(item.words):
        return True
    return bool(left and right) and right[0][0] - left[-1][1] < GUTTER_EMS * item.size


def _sides(item: Line, g: float) -> tuple[list[Word], list[Word]]:
    return [w for w in item.words if w[1] <= g], [w for w in item.words if w[0] >= g]


def _fragment(line: Line, words: list[Word]) -> Fragment:
    """Where some of a line's words stand, and their size (the line's without metrics)."""
    if not line.metrics or len(words) == len(line.words):
        return words[0][0], words[-1][1], line.top, line.bottom, line.size
    first = line.words.index(words[0])
    metrics = line.metrics[first : first + len(words)]
    size = max(m[0] for m in metrics) or line.size
    top, bottom = min(m[1] for m in metrics), max(m[2] for m in metrics)
    return words[0][0], words[-1][1], top, bottom, size


def _fit(region: list[Item], g: float) -> tuple[int, float] | None:
    """(lines, clearance) when x = g splits the region into two text columns, else None."""
    left: list[Fragment] = []
    right: list[Fragment] = []
    for item in region:
        if isinstance(item, Line):
            words_left, words_right = _sides(item, g)
            if words_left:
                left.append(_fragment(item, words_left))
            if words_right:
                right.append(_fragment(item, words_right))
    if min(len(left), len(right)) < MIN_COLUMN_LINES or len(left) + len(right) < MIN_REGION_LINES:
        return None
    size = median(f[4] for f in left + right)
    clearance = min(f[0] for f in right) - max(f[1] for f in left)
    if clearance < GUTTER_EMS * size or not _side_by_side(left, right):
        return None
    widths = [max(f[1] for f in side) - min(f[0] for f in side) for side in (left, right)]
    if max(widths) > WIDTH_RATIO * min(widths):
        return None
    for side, width in zip((left, right), widths, strict=True):
        if not _aligned([f[0] for f in side], size):
            return None
        if median(f[1] - f[0] for f in side) < FILLED * width:
            return None
    return len(left) + len(right), clearance


def _side_by_side(left: list[Fragment], right: list[Fragment]) -> bool:
    spans = [(min(f[2] for f in side), max(f[3] for f in side)) for side in (left, right)]
    overlap = min(spans[0][1], spans[1][1]) - max(spans[0][0], spans[1][0])
    shorter = min(bottom - top for top, bottom in spans)
    return overlap >= SIDE_BY_SIDE * shorter


def _aligned(starts: list[float], size: float) -> bool:
    """Most starts are on one left edge (or a first-line indent from it): a text column,
    not a column of numbers or labels."""
    edge = min(starts)
    near = max(ALIGN_TOLERANCE, INDENT_EMS * size)
    return sum(1 for s in starts if s - edge <= near) >= ALIGNED * len(starts)


def _split(region: list[Item], g: float) -> tuple[list[Item], list[Item]]:
    """The region's items left and right of x = g; a line with words on both sides (two
    columns' lines at one height) in two parts, each with its own size."""
    left: list[Item] = []
    right: list[Item] = []
    for item in region:
        if isinstance(item, Box):
            (left if (item.x0 + item.x1) / 2 < g else right).append(item)
            continue
        words_left, words_right = _sides(item, g)
        if words_left:
            left.append(item.part(words_left) if words_right else item)
        if words_right:
            right.append(item.part(words_right) if words_left else item)
    return left, right


def _column(items: list[Item]) -> list[Item]:
    """A column's items; its lines learn the column's right edge (where a line is full)."""
    lines = [item for item in items if isinstance(item, Line)]
    edge = max((line.words[-1][1] for line in lines), default=0.0)
    for line in lines:
        if not line.right:
            line.right = edge
    return items
