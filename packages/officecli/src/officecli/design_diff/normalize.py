"""How two cell values are compared: each normalisation is a switch of the command line."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from operator import itemgetter

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

    def keeps(self, values: list[str]) -> bool:
        """Whether every value is already normal (the common case: one C-level test of the
        values joined by NUL, a character that never combines, so that the whole is NFKC
        exactly when each value is)."""
        if self.whitespace or self.case:
            return False
        joined = "\0".join(values)
        if not self.nfkc or joined.isascii():
            return True
        return joined.count("\0") == len(values) - 1 and unicodedata.is_normalized("NFKC", joined)

    def same(self, a: str, b: str) -> bool:
        """Whether two normalised values are equal (numbers within the tolerance)."""
        if a == b:
            return True
        if self.tolerance > 0:
            x, y = as_number(a), as_number(b)
            if x is not None and y is not None:
                return abs(x - y) <= self.tolerance
        return False


class NormalRows:
    """A table's rows normalised on first use. Most rows of a diff are compared as read:
    equal values are equal once normalised, so only keys, samples and the rows whose
    values differ are normalised (each distinct key value once)."""

    def __init__(self, rows: list[list[str]], normaliser: Normaliser) -> None:
        self.rows = rows
        self.normaliser = normaliser
        self.done: dict[int, list[str]] = {}

    def __len__(self) -> int:
        return len(self.rows)

    def row(self, i: int) -> list[str]:
        done = self.done.get(i)
        if done is None:
            done = self.done[i] = list(map(self.normaliser, self.rows[i]))
        return done

    def column(self, col: int) -> list[str]:
        values = list(map(itemgetter(col), self.rows))
        if self.normaliser.keeps(values):
            return values
        shown = {v: self.normaliser(v) for v in set(values)}
        return list(map(shown.__getitem__, values))


def as_number(text: str) -> float | None:
    """'1,234.5' -> 1234.5; None when the text is not a plain number."""
    plain = unicodedata.normalize("NFKC", text).replace(",", "").strip()
    return float(plain) if _NUMBER.fullmatch(plain) else None
