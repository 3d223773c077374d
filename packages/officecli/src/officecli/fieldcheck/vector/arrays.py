"""Column operations on Arrow string arrays: stripping, blanks, and typed values of the
usual shapes, with a mask of the cells of any other shape (left to the Python parsers)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pyarrow as pa
import pyarrow.compute as pc

from officecli.fieldcheck.values import BOOLEAN_WORDS

# The characters str.isspace() is true for (and so str.strip() removes); a test checks it.
PY_WHITESPACE = (
    "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005"
    "\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
# Texts Python's float() reads exactly as Arrow's cast does (ASCII digits, no spaces, no
# sign '+', no underscores, no inf or nan); any other text is left to parse_number.
_PLAIN_NUMBER = r"^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$"
_WHOLE_NUMBER = r"^-?\d+$"
_ISO_DATE = r"^\d{4}-\d{2}-\d{2}$"


def strip(texts: pa.Array) -> pa.Array:
    """str.strip() of every cell."""
    return pc.utf8_trim(texts, characters=PY_WHITESPACE)


@dataclass
class Typed:
    """A column's values of one type (null where blank or not read here) and the mask of
    its non-blank cells that are not of a usual shape."""

    values: pa.Array
    unusual: pa.Array


# A column with a cell of another shape (a blank, `¥1,000`, `2026/4/1`) makes the one cast
# fail; it is then read in steps, and those cells marked unusual.
Blank = Callable[[], pa.Array]


def _numbers(raw: pa.Array, blank: Blank, whole: bool) -> Typed:
    try:
        # Every text Arrow reads as a number, Python's float() reads as the same number
        # (Arrow refuses spaces and underscores, which float() takes).
        values = pc.cast(raw, pa.float64())
        unusual = pc.invert(pc.is_finite(values))
    except pa.ArrowInvalid:
        empty = blank()
        filled = pc.if_else(empty, "0", raw)
        usual = pc.match_substring_regex(filled, _WHOLE_NUMBER if whole else _PLAIN_NUMBER)
        values = pc.cast(pc.if_else(usual, filled, "0"), pa.float64())
        usual = pc.and_(usual, pc.is_finite(values))
        values = pc.if_else(empty, None, values)
        unusual = pc.and_(pc.invert(usual), pc.invert(empty))
    if whole:  # 1.5 in an integer column: the Python parser says it is not one
        unusual = pc.or_(unusual, pc.fill_null(pc.not_equal(pc.floor(values), values), False))
    if pc.any(unusual).as_py():
        values = pc.if_else(unusual, None, values)
    # -0.0 + 0.0 is 0.0: keys compare as Python's floats do (-0.0 == 0.0).
    return Typed(pc.add(values, 0.0), unusual)


def _dates(raw: pa.Array, blank: Blank) -> Typed:
    try:
        # Arrow reads exactly YYYY-MM-DD of a real day (not year 0), which
        # date.fromisoformat reads as the same day.
        days = pc.cast(raw, pa.date32())
        return Typed(days, pc.is_null(days))
    except pa.ArrowInvalid:
        pass
    empty = blank()
    filled = pc.if_else(empty, "2000-01-01", raw)
    usual = pc.and_(
        pc.match_substring_regex(filled, _ISO_DATE),
        pc.invert(pc.starts_with(filled, "0000")),  # year 0 is not a date for Python
    )
    parsed = pc.strptime(
        pc.if_else(usual, filled, "2000-01-01"), format="%Y-%m-%d", unit="s", error_is_null=True
    )
    days = pc.cast(parsed, pa.date32())
    # strptime rolls 2026-02-30 over into March; only texts that read back alike are kept.
    usual = pc.fill_null(pc.and_(usual, pc.equal(pc.cast(days, pa.string()), filled)), False)
    values = pc.if_else(pc.or_(empty, pc.invert(usual)), None, days)
    return Typed(values, pc.and_(pc.invert(usual), pc.invert(empty)))


_WORDS = pa.array(list(BOOLEAN_WORDS))
_TRUTHS = pa.array([word for word, value in BOOLEAN_WORDS.items() if value])


def _booleans(raw: pa.Array, blank: Blank) -> Typed:
    usual = pc.is_in(raw, value_set=_WORDS)
    values = pc.if_else(usual, pc.is_in(raw, value_set=_TRUTHS), None)
    if pc.all(usual).as_py():
        return Typed(values, pc.invert(usual))
    return Typed(values, pc.and_(pc.invert(usual), pc.invert(blank())))


def typed(raw: pa.Array, blank: Blank, kind: str) -> Typed:
    """The values of a column of type `kind` (as the Python engine's converters read
    them; null where blank or unusual) and its unusual cells. `blank` gives the mask of
    blank cells, asked only when needed."""
    if kind == "string":
        empty = blank()
        return Typed(pc.if_else(empty, None, raw), pc.and_(empty, False))
    if kind == "date":
        return _dates(raw, blank)
    if kind == "boolean":
        return _booleans(raw, blank)
    return _numbers(raw, blank, kind == "integer")  # number, integer, auto (text is unusual)
