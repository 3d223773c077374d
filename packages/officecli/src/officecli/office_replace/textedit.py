"""Replace across the runs of one paragraph (or cell, or text frame).

A paragraph is a list of segments: text held by one XML element (w:t, a:t, x:t), or a
barrier (tab, line break) that shows as a space. Rules match the joined text; a match
edits only the segments it overlaps: the replacement goes into the first one (so it takes
that run's formatting), the overlapped part of the others is removed, and every other
segment is left alone. A match that overlaps a barrier or protected text (a field, a
tracked change, a bound content control) is not made: it comes back as skipped.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from lxml import etree

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


def _window(text: str, start: int, end: int) -> str:
    lo, hi = max(0, start - CONTEXT), min(len(text), end + CONTEXT)
    return ("…" if lo else "") + text[lo:hi] + ("…" if hi < len(text) else "")


def _overlapped(
    segments: Sequence[Segment], offsets: Sequence[int], m: Match
) -> list[tuple[Segment, int]]:
    return [
        (seg, off)
        for seg, off in zip(segments, offsets, strict=True)
        if (
            (off < m.end and off + len(seg.text) > m.start)
            if seg.text
            else (seg.barrier and m.start < off < m.end)
        )
    ]


def _edit(touched: list[tuple[Segment, int]], m: Match) -> None:
    first, first_off = touched[0]
    tail = ""
    last, last_off = touched[-1]
    if m.end < last_off + len(last.text):
        tail = last.text[m.end - last_off :]
    if last is not first:
        last.store(tail)
        tail = ""
    for seg, _ in touched[1:-1]:
        seg.store("")
    first.store(first.text[: m.start - first_off] + m.replacement + tail)


def apply_rules(segments: Sequence[Segment], rules: Sequence[Rule]) -> list[Hit]:
    """Apply every text rule in order; each rule sees the text the previous ones left."""
    hits: list[Hit] = []
    text = "".join(s.text for s in segments)
    for rule in rules:
        matches = list(rule.finditer(text)) if rule.may_match(text) else []
        if not matches:
            continue
        offsets, at = [], 0
        for seg in segments:
            offsets.append(at)
            at += len(seg.text)
        edits = []
        for m in matches:
            touched = _overlapped(segments, offsets, m)
            reason = next((s.barrier for s, _ in touched if s.barrier), "") or next(
                (s.protected for s, _ in touched if s.protected), ""
            )
            changed = text[: m.start] + m.replacement + text[m.end :]
            hits.append(
                Hit(
                    rule,
                    text[m.start : m.end],
                    m.replacement,
                    _window(text, m.start, m.end),
                    _window(changed, m.start, m.start + len(m.replacement)),
                    reason,
                )
            )
            if not reason:
                edits.append((touched, m))
        for touched, m in reversed(edits):
            _edit(touched, m)
        if edits:
            text = "".join(s.text for s in segments)
    return hits
