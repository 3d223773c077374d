"""`fieldcheck init`: a commented rules file for a data file, to edit rather than guess.

The skeleton holds the file layout, the data's columns with types guessed from its first
rows, a key, and one example rule of each common kind on those columns. The active
examples hold on the rows read (so a first `validate` reports the data, not the
skeleton); the kinds that need knowledge of the business (compare, sum_equals,
expression, reference) are written as comments, ready to uncomment.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from itertools import islice
from pathlib import Path

from officecli.fieldcheck.values import is_blank, parse_boolean, parse_date, parse_integer
from officecli.fieldcheck.values import parse_number as number_of
from officecli.readers.tabular import open_table

SAMPLE_ROWS = 1000
_PLAIN = re.compile(r"[^\s\-?:,\[\]{}#&*!|>'\"%@`][^:#\[\]{},]*")
_YAML_WORDS = {"true", "false", "yes", "no", "on", "off", "null", "~", "y", "n"}


def yaml_text(text: str) -> str:
    """A YAML scalar for `text`: plain when that reads back as the same text, else quoted."""
    plain = (
        _PLAIN.fullmatch(text)
        and text == text.strip()
        and text.lower() not in _YAML_WORDS
        and number_of(text) is None
    )
    return text if plain else json.dumps(text, ensure_ascii=False)


@dataclass
class Column:
    """What the sample shows of one column."""

    name: str
    kind: str
    blanks: int
    values: list[str]

    @property
    def distinct(self) -> set[str]:
        return set(self.values)


def _kind(values: list[str]) -> str:
    """The narrowest type every non-blank value reads as (string when there is none)."""
    if not values:
        return "string"
    for kind, parse in (
        ("integer", parse_integer),
        ("number", number_of),
        ("date", parse_date),
        ("boolean", parse_boolean),
    ):
        if all(parse(v) is not None for v in values):
            return kind
    return "string"


def sample_columns(
    data: str | Path, sheet: str | None = None, encoding: str | None = None
) -> tuple[list[Column], int]:
    """(columns, rows read) from the first SAMPLE_ROWS rows of the data."""
    with open_table(data, sheet=sheet, encoding=encoding) as table:
        records = [r for _, r in islice(table.records, SAMPLE_ROWS)]
        columns = []
        for index, name in enumerate(table.columns):
            cells = [r[index] for r in records]
            filled = [c.strip() for c in cells if not is_blank(c)]
            columns.append(Column(name, _kind(filled), len(cells) - len(filled), filled))
        return columns, len(records)


def _rule(fields: str) -> str:
    return "  - {" + fields + "}\n"


def skeleton(data: str | Path, sheet: str | None = None, encoding: str | None = None) -> str:
    """The text of a rules file for `data`."""
    path = Path(data)
    columns, count = sample_columns(path, sheet, encoding)
    q = yaml_text
    key = next((c for c in columns if c.blanks == 0 and count and len(c.distinct) == count), None)
    out = [
        f"# fieldcheck rules for {path.name}, written by `fieldcheck init` from its first "
        f"{count} rows.\n",
        "# Layout: version (always 1), name, key, fields, datasets, masters, rules.\n",
        "# `fieldcheck list-rules` lists every rule type with its parameters;\n",
        "# `fieldcheck check-rules FILE` checks this file, "
        f"`fieldcheck validate {q(path.name)} -r FILE` runs it.\n",
        "version: 1\n",
        f"name: {q(path.stem)}\n",
    ]
    if key is not None:
        out += [
            "# key: the columns naming a record in findings, as in `line 18 (id=E0017)`;\n",
            "# every value of this one was distinct in the rows read.\n",
            f"key: {q(key.name)}\n",
        ]
    else:
        out.append("# key: [a, b]   # the columns naming a record in findings\n")
    out += [
        "# fields: each column's type (string, number, integer, date, boolean), guessed from\n",
        "# the rows read; a cell that does not read as its type is a `schema.type` finding.\n",
        "fields:\n",
        *[f"  {q(c.name)}: {c.kind}\n" for c in columns],
        "# datasets: other files the rules read, relative to this file's folder.\n",
        "# datasets: {budget: budget.csv}\n",
        "# masters: lists of allowed values, inline or a column of a dataset.\n",
        "# masters: {dept: [sales, admin], category: {dataset: budget, column: name}}\n",
    ]
    examples = _examples(columns, key, count)
    active = any(line.startswith("  - ") for line in examples)
    out += [
        "rules:\n" if active else "rules: []  # none holds on an empty sample: add yours\n",
        "  # One example of each common kind on this file's columns; edit or delete them.\n",
        *examples,
    ]
    return "".join(out)


def _examples(columns: list[Column], key: Column | None, count: int) -> list[str]:
    q = yaml_text
    out: list[str] = []
    n = 0

    def rule_id() -> str:
        nonlocal n
        n += 1
        return f"R{n:02d}"

    full = [c for c in columns if c.blanks == 0 and c.values]
    if full:
        names = ", ".join(q(c.name) for c in full)
        out += [
            "  # required: the cell is not blank (none was, in the rows read)\n",
            _rule(f"id: {rule_id()}, type: required, fields: [{names}]"),
        ]
    if key is not None:
        out += [
            "  # unique: no two rows share the value\n",
            _rule(f"id: {rule_id()}, type: unique, fields: {q(key.name)}"),
        ]
    numeric = next((c for c in columns if c.kind in ("integer", "number") and c.values), None)
    if numeric is not None:
        found = [v for v in map(number_of, numeric.values) if v is not None]
        low, high = _number_text(min(found)), _number_text(max(found))
        out += [
            "  # range: a number or date within min..max (here the smallest and largest read)\n",
            _rule(
                f"id: {rule_id()}, type: range, field: {q(numeric.name)}, min: {low}, max: {high}"
            ),
        ]
    texts = [c for c in columns if c.kind == "string" and c.values and c is not key]
    few = next((c for c in texts if len(c.distinct) <= 10 < len(c.values)), None)
    if few is not None:
        allowed = ", ".join(q(v) for v in sorted(few.distinct))
        out += [
            "  # enum: the cell is one of a list of values (those read)\n",
            _rule(f"id: {rule_id()}, type: enum, field: {q(few.name)}, values: [{allowed}]"),
        ]
    if texts:
        longest = max(texts, key=lambda c: max(map(len, c.values)))
        most = max(map(len, longest.values))
        out += [
            f"  # length: the text has min..max characters (the longest read has {most})\n",
            _rule(f"id: {rule_id()}, type: length, field: {q(longest.name)}, max: {most}"),
        ]
    first = q(texts[0].name) if texts else "code"
    a, b = _two(columns, ("integer", "number"), ("amount", "tax"))
    d1, d2 = _two(columns, ("date",), ("start", "end"))
    out += [
        "  # The kinds below need what only you know; uncomment and adapt them.\n",
        f"  # - {{id: P1, type: pattern, field: {first}, regex: '[A-Z]{{2}}-\\d{{4}}'}}\n",
        f"  # - {{id: C1, type: compare, left: {d1}, op: '<=', right: {d2}}}\n",
        f"  # - {{id: S1, type: sum_equals, total: total, parts: [{a}, {b}]}}\n",
        f"  # - {{id: X1, type: expression, expr: '{_expr_name(a)} >= 0', severity: warning}}\n",
        f"  # - {{id: M1, type: reference, field: {first}, master: dept}}\n",
        f"  # - {{id: W1, type: required, field: receipt, when: {{field: {a}, gte: 10000}}}}\n",
    ]
    return out


def _two(
    columns: list[Column], kinds: tuple[str, ...], default: tuple[str, str]
) -> tuple[str, str]:
    """The first two columns of these kinds, or placeholder names."""
    names = [yaml_text(c.name) for c in columns if c.kind in kinds]
    return (names[0] if names else default[0]), (names[1] if len(names) > 1 else default[1])


def _expr_name(name: str) -> str:
    """A column name as an expression reads it: back quotes when it is not one word."""
    text = json.loads(name) if name.startswith('"') else name
    return text if text.isidentifier() else f"`{text}`"


def _number_text(value: float) -> str:
    return str(int(value)) if value.is_integer() else repr(value)
