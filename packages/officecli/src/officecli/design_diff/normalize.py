"""How two cell values are compared: each normalisation is a switch of the command line."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from itertools import chain

_SPACES = re.compile(r"\s+")
_NUMBER = re.compile(r"[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?")


def label_key(text: str) -> str:
    """A header label as matched against preset labels and --key: NFKC, no spaces, casefold."""
    return _SPACES.sub("", unicodedata.normalize("NFKC", text)).casefold()


@dataclass(frozen=True)
class Normaliser:
    """Cell comparison: -w whitespace, -i case, NFKC width folding, numeric tolerance."""

    whitespace: bool = False
    case: bool = False
    nfkc: bool = True
    tolerance: float = 0.0

    def __call__(self, text: str) -> str:
        if self.nfkc and not text.isascii():  # ASCII is already NFKC: skip the call
            text = unicodedata.normalize("NFKC", text)
        if self.whitespace:
            text = _SPACES.sub(" ", text).strip()
        if self.case:
            text = text.casefold()
        return text

    def rows(self, rows: list[list[str]]) -> list[list[str]]:
        """Many rows at once, each distinct value normalised once (sheets repeat theirs);
        the rows themselves when every value is already normal (the common case, found by
        one C-level test of all the values joined by NUL, a character that never combines,
        so the whole is NFKC exactly when each value is)."""
        if not self.whitespace and not self.case:
            values = list(chain.from_iterable(rows))
            joined = "\0".join(values)
            if not self.nfkc or joined.isascii():
                return rows
            if joined.count("\0") == len(values) - 1 and unicodedata.is_normalized("NFKC", joined):
                return rows
        shown = {v: self(v) for v in set[str]().union(*rows)}
        return [list(map(shown.__getitem__, row)) for row in rows]

    def same(self, a: str, b: str) -> bool:
        """Whether two normalised values are equal (numbers within the tolerance)."""
        if a == b:
            return True
        if self.tolerance > 0:
            x, y = as_number(a), as_number(b)
            if x is not None and y is not None:
                return abs(x - y) <= self.tolerance
        return False


def as_number(text: str) -> float | None:
    """'1,234.5' -> 1234.5; None when the text is not a plain number."""
    plain = unicodedata.normalize("NFKC", text).replace(",", "").strip()
    return float(plain) if _NUMBER.fullmatch(plain) else None
