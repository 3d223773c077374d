"""Replacing across segments: the joined text is what str.replace gives, whatever the split,
and segments no match overlaps keep their text."""

from __future__ import annotations

import random
import re

from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from officecli.office_replace.rules import compile_rule
from officecli.office_replace.textedit import Segment, apply_rules


def split(text: str, rng: random.Random) -> list[Segment]:
    cuts = sorted(rng.sample(range(1, len(text)), rng.randint(0, min(6, len(text) - 1))))
    pieces = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
    return [Segment(etree.Element("t"), piece) for piece in pieces]


def written(segment: Segment) -> str | None:
    """What the segment's element holds (None: nothing was written to it)."""
    assert segment.el is not None  # these tests make text segments only
    text: str | None = segment.el.text
    return text


def test_any_split_gives_the_same_text_as_str_replace() -> None:
    rng = random.Random(17)
    rule = compile_rule(2, {"find": "abc", "replace": "XY"}, "r.csv")
    for _ in range(300):
        text = "".join(rng.choice("abcx") for _ in range(rng.randint(2, 24)))
        segments = split(text, rng)
        before = [s.text for s in segments]
        hits = apply_rules(segments, [rule])
        assert "".join(s.text for s in segments) == text.replace("abc", "XY")
        assert len(hits) == text.count("abc")
        starts = [m.start() for m in re.finditer("abc", text)]
        at = 0
        for seg, old in zip(segments, before, strict=True):
            overlapped = any(s < at + len(old) and s + 3 > at for s in starts)
            if not overlapped:
                assert seg.text == old
            assert written(seg) == (seg.text if overlapped else None)
            at += len(old)


@settings(max_examples=300, deadline=None)
@given(
    pieces=st.lists(st.text("abx", max_size=6), min_size=1, max_size=8),
    rules=st.lists(
        st.tuples(st.text("abx", min_size=1, max_size=3), st.text("abxY", max_size=4)),
        min_size=1,
        max_size=4,
    ),
)
def test_rules_in_order_give_what_each_rule_gives_on_the_joined_text(
    pieces: list[str], rules: list[tuple[str, str]]
) -> None:
    """Each rule sees the text the previous ones left, whatever the split into runs; and a
    segment no match overlapped is not touched."""
    segments = [Segment(etree.Element("t"), piece) for piece in pieces]
    compiled = [
        compile_rule(n, {"find": find, "replace": new}, "r.csv")
        for n, (find, new) in enumerate(rules, 2)
    ]
    expected = "".join(pieces)
    for find, new in rules:
        expected = expected.replace(find, new)
    apply_rules(segments, compiled)
    assert "".join(s.text for s in segments) == expected
    for seg, piece in zip(segments, pieces, strict=True):
        assert written(seg) is None or written(seg) == seg.text
        if written(seg) is None:
            assert seg.text == piece
