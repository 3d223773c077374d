"""Replace across the runs of one paragraph (or cell, or text frame).

A paragraph is a list of segments: text held by one XML element (w:t, a:t, x:t), or a
barrier (tab, line break) that shows as a space. Rules match the joined text; a match
edits only the segments it overlaps: the replacement goes into the first one (so it takes
that run's formatting), the overlapped part of the others is removed, and every other
segment is left alone. A match that overlaps a barrier or protected text (a field, a
tracked change, a bound content control) is not made: it comes back as skipped.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from lxml import etree

from officecli.office_replace.growth import Growth, cost
from officecli.office_replace.rules import Match, Rule

XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"
CONTEXT = 30  # characters of context either side of a match in the report


@dataclass(eq=False)
class Segment:
    el: etree._Element | None  # the element whose .text is this text; None for a barrier
    text: str
    protected: str = ""  # why this text may not be edited ('' when it may)
    barrier: str = ""  # what this barrier is ('' for text)
    preserve_space: bool = False  # WordprocessingML/SpreadsheetML need xml:space="preserve"

    def store(self, text: str) -> None:
        self.text = text
        assert self.el is not None
        self.el.text = text
        if self.preserve_space and text != text.strip():
            self.el.set(XML_SPACE, "preserve")


@dataclass(frozen=True)
class Hit:
    rule: Rule
    found: str
    replacement: str
    before: str  # context around the match, before
    after: str  # the same context with the replacement
    skipped: str  # why the match was not made ('' when it was)


def barrier(reason: str, shown: str = " ") -> Segment:
    """A barrier shows as a space (tab, break), or as nothing (deleted text)."""
    return Segment(None, shown, barrier=reason)


def window(text: str, start: int, end: int, middle: str | None = None) -> str:
    """Context around text[start:end]; with `middle`, as it reads once that replaces it."""
    lo, hi = max(0, start - CONTEXT), min(len(text), end + CONTEXT)
    shown = text[start:end] if middle is None else middle
    return (
        ("…" if lo else "")
        + text[lo:start]
        + shown
        + text[end:hi]
        + ("…" if hi < len(text) else "")
    )


def _overlapped(
    segments: Sequence[Segment], offsets: Sequence[int], ends: Sequence[int], m: Match
) -> list[tuple[Segment, int]]:
    """The segments a match overlaps (a barrier that shows as nothing, when strictly inside)."""
    return [
        (segments[i], offsets[i])
        for i in range(bisect_right(ends, m.start), bisect_left(offsets, m.end))
        if segments[i].text or (segments[i].barrier and m.start < offsets[i] < m.end)
    ]


def _edit(edits: list[tuple[list[tuple[Segment, int]], Match]]) -> None:
    """Make the edits (left to right, none overlapping), rebuilding each segment once: the
    replacement goes into the first segment a match overlaps, the rest of it is cut."""
    cuts: dict[Segment, list[tuple[int, int, str]]] = {}
    for touched, m in edits:
        for n, (seg, off) in enumerate(touched):
            lo, hi = max(m.start, off) - off, min(m.end, off + len(seg.text)) - off
            cuts.setdefault(seg, []).append((lo, hi, "" if n else m.replacement))
    for seg, pieces in cuts.items():
        out, last = [], 0
        for lo, hi, new in pieces:
            out += [seg.text[last:lo], new]
            last = hi
        out.append(seg.text[last:])
        seg.store("".join(out))


def apply_rules(
    segments: Sequence[Segment], rules: Sequence[Rule], growth: Growth | None = None
) -> list[Hit]:
    """Apply every text rule in order; each rule sees the text the previous ones left.

    `growth` is charged for each rule's replacements before they are made (GrowthError when
    a rule set would write too much)."""
    hits: list[Hit] = []
    text = "".join(s.text for s in segments)
    if growth is not None:
        growth.seen(text)
    for rule in rules:
        matches = list(rule.finditer(text)) if rule.may_match(text) else []
        if not matches:
            continue
        if growth is not None:
            growth.charge(rule, cost(rule, matches))
        offsets, ends, at = [], [], 0
        for seg in segments:
            offsets.append(at)
            at += len(seg.text)
            ends.append(at)
        edits = []
        for m in matches:
            touched = _overlapped(segments, offsets, ends, m)
            reason = next((s.barrier for s, _ in touched if s.barrier), "") or next(
                (s.protected for s, _ in touched if s.protected), ""
            )
            hits.append(
                Hit(
                    rule,
                    text[m.start : m.end],
                    m.replacement,
                    window(text, m.start, m.end),
                    window(text, m.start, m.end, m.replacement),
                    reason,
                )
            )
            if not reason:
                edits.append((touched, m))
        if edits:
            _edit(edits)
            text = "".join(s.text for s in segments)
    return hits
