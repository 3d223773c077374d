"""Which row of a block of cells is its table's header.

Design documents put titles, authors, revision tables and labelled values (`メソッド |
GET`) above their tables. The header is the row among a block's first rows that best
matches what is asked: the --key labels (exactly, or nearly for a typo, so that the error
can say `did you mean 物理名`), then the preset's column vocabulary; else the first row
of labels. Whether the header names the key also tells a table from a block of labels.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from difflib import SequenceMatcher

from officecli.design_diff.normalize import as_number, label_key
from officecli.design_diff.presets import Preset

Cells = Mapping[tuple[int, int], str]
HEADER_SCAN_ROWS = 10  # the header is among a block's first rows (titles may come first)
NEAR_KEY = 0.75  # a label this like a --key label is taken for it misspelled


@dataclass(frozen=True)
class Header:
    index: int  # in the block's rows; -1: no header
    names_key: bool  # names a --key label (nearly) or one of the preset's key roles


def _key_match(labels: list[str], wanted: list[str]) -> int:
    """How many wanted labels the row names: 2 for each exact one, 1 for a near one."""
    found = 0
    keys = [label_key(t) for t in labels if t.strip()]
    keys += [label_key(t.rpartition("/")[2]) for t in labels if "/" in t]
    for want in wanted:
        if want in keys:
            found += 2
        elif any(SequenceMatcher(None, want, k).ratio() >= NEAR_KEY for k in keys):
            found += 1
    return found


def find_header(cells: Cells, band: list[int], cols: list[int], preset: Preset, keys: tuple[str, ...]) -> Header:  # fmt: skip
    """The row naming the --key labels (or the preset's key roles) and the most preset
    roles; else one naming two roles; else the first row of labels (no number among
    them: `版数 | 1.0` is a value, not a header) filled at least half as wide as the block."""
    wanted = [label_key(k) for k in keys]
    best, best_score = -1, (0, 0)
    for i, r in enumerate(band[:HEADER_SCAN_ROWS]):
        labels = [cells.get((r, c), "") for c in cols]
        roles = {preset.role_of(t) for t in labels} - {""}
        named = _key_match(labels, wanted) if wanted else 2 * len(roles & set(preset.keys))
        score = (named, len(roles))
        if score > best_score:
            best, best_score = i, score
    if best_score[0] or best_score[1] >= 2:
        return Header(best, bool(best_score[0]))
    return Header(_first_labels(cells, band, cols), False)


def _first_labels(cells: Cells, band: list[int], cols: list[int]) -> int:
    for i, r in enumerate(band[:HEADER_SCAN_ROWS]):
        texts = [t for t in (cells.get((r, c), "") for c in cols) if t.strip()]
        wide = len(texts) >= max(2, (len(cols) + 1) // 2)
        if wide and not any(as_number(t) is not None for t in texts):
            return i
    return -1
