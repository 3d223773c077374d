"""Replacing across segments: the joined text is what str.replace gives, whatever the split,
and segments no match overlaps keep their text."""

from __future__ import annotations

import random
import re

from lxml import etree

from officecli.office_replace.rules import compile_rule
from officecli.office_replace.textedit import Segment, apply_rules


def split(text: str, rng: random.Random) -> list[Segment]:
    cuts = sorted(rng.sample(range(1, len(text)), rng.randint(0, min(6, len(text) - 1))))
    pieces = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
    return [Segment(etree.Element("t"), piece) for piece in pieces]


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
            assert seg.el.text == (seg.text if overlapped else None)
            at += len(old)
