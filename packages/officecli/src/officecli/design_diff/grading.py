"""Which way a change goes: a size, a type or a required mark widened or narrowed.

A preset names the roles to grade (`grading:`) and the severity of each direction
(`severity.narrowed`, `severity.widened`). Narrowing can break what exists (data longer
than the new length, clients that did not send a field now required); widening breaks
nothing stored, so presets grade it lower. A change with no direction (string -> date,
a text that is not a size) keeps the preset's `changed` severity.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Literal

from officecli.design_diff.normalize import label_key

Direction = Literal["widened", "narrowed", ""]
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_TYPE = re.compile(r"\s*([^()]*?)\s*(?:\((.*)\))?\s*")  # name, then its sizes in brackets


def _sizes(text: str) -> tuple[float, ...]:
    """'10,2' -> (10.0, 2.0): a length, or a precision and scale."""
    return tuple(map(float, _NUMBER.findall(unicodedata.normalize("NFKC", text))))


def size_direction(old: str, new: str) -> Direction:
    """Smaller in any part is narrowed (decimal(10,2) -> (12,1) loses a decimal place)."""
    a, b = _sizes(old), _sizes(new)
    if not a or len(a) != len(b) or a == b:
        return ""
    return "narrowed" if any(y < x for x, y in zip(a, b, strict=True)) else "widened"


@dataclass(frozen=True)
class Grading:
    """The roles a preset grades by direction, and what each needs to do so."""

    sizes: frozenset[str] = frozenset()  # roles holding a length or precision
    types: frozenset[str] = frozenset()  # roles holding a type name (sizes in brackets)
    required: frozenset[str] = frozenset()  # a mark turned on is narrowed
    nullable: frozenset[str] = frozenset()  # a mark turned off is narrowed
    marks: frozenset[str] = frozenset()  # label_key of the values that mean "on"
    rungs: dict[str, tuple[int, int]] = field(default_factory=dict)  # type -> (ladder, rung)

    def direction(self, role: str, old: str, new: str) -> Direction:
        if role in self.sizes:
            return size_direction(old, new)
        if role in self.types:
            return self._type_direction(old, new)
        if role in self.required or role in self.nullable:
            was, now = label_key(old) in self.marks, label_key(new) in self.marks
            if was == now:
                return ""
            stricter = now if role in self.required else was
            return "narrowed" if stricter else "widened"
        return ""

    def _type_direction(self, old: str, new: str) -> Direction:
        """The same type with other sizes (varchar(255) -> (320)) by its sizes; two types
        of one ladder (bigint -> int) by their rungs; anything else has no direction."""
        a, b = _TYPE.fullmatch(old), _TYPE.fullmatch(new)
        if a is None or b is None:
            return ""
        name_a, name_b = label_key(a[1]), label_key(b[1])
        if name_a == name_b:
            return size_direction(a[2] or "", b[2] or "")
        ladder_a, rung_a = self.rungs.get(name_a, (-1, 0))
        ladder_b, rung_b = self.rungs.get(name_b, (-2, 0))
        if ladder_a != ladder_b or rung_a == rung_b:
            return ""
        return "widened" if rung_b > rung_a else "narrowed"


def ladder_rungs(ladders: list[list[tuple[str, ...]]]) -> dict[str, tuple[int, int]]:
    """Each type name's (ladder, rung): a rung is one label or several synonyms."""
    return {
        label_key(name): (i, j)
        for i, ladder in enumerate(ladders)
        for j, rung in enumerate(ladder)
        for name in rung
    }
