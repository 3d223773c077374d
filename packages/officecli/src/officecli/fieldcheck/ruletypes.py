"""The rule types and their parameters: one table feeding the loader, `list-rules` and `schema`."""

from __future__ import annotations

from typing import Any, NamedTuple

FIELD_TYPES = ("string", "number", "integer", "date", "boolean")
SEVERITY_LEVELS = ("error", "warning", "info")
COMPARE_OPS = ("==", "!=", "<", "<=", ">", ">=")
AGGREGATE_FUNCTIONS = ("sum", "count", "min", "max")
CONDITION_OPS = ("equals", "in", "present", "gt", "gte", "lt", "lte")


class Param(NamedTuple):
    """One parameter of a rule type; `kind` says how the loader checks it."""

    name: str
    kind: str
    required: bool
    help: str
    alias: str = ""  # the seed fieldcheck's spelling of the same key; a rule may use one of them


class RuleType(NamedTuple):
    summary: str
    params: tuple[Param, ...]


# On a single-column rule the seed writes `fields: [a, b]`: the rule is checked on each column.
EACH_FIELD = "fields"


def _field(help: str, name: str) -> Param:
    return Param(name, "field", True, help)


def _each_field() -> Param:
    return Param(
        "field",
        "field",
        True,
        f"the column checked (or `{EACH_FIELD}`: each of a list)",
        EACH_FIELD,
    )


RULE_TYPES: dict[str, RuleType] = {
    "required": RuleType("the cell is not blank", (_each_field(),)),
    "type": RuleType(
        "the cell reads as the given type (a failure is reported once, as this rule)",
        (
            _each_field(),
            Param("value_type", "field_type", True, "one of " + ", ".join(FIELD_TYPES)),
        ),
    ),
    "range": RuleType(
        "a number or date lies within min..max (inclusive)",
        (
            _each_field(),
            Param("min", "number_or_date", False, "smallest allowed value"),
            Param("max", "number_or_date", False, "largest allowed value"),
        ),
    ),
    "length": RuleType(
        "the text length in characters lies within min..max",
        (
            _each_field(),
            Param("min", "count", False, "fewest characters"),
            Param("max", "count", False, "most characters"),
        ),
    ),
    "pattern": RuleType(
        "the whole cell matches a regular expression",
        (
            _each_field(),
            Param(
                "regex",
                "regex",
                True,
                "regular expression, RE2 syntax (full match; no backreferences or lookaround)",
            ),
        ),
    ),
    "enum": RuleType(
        "the cell is one of a list of values",
        (_each_field(), Param("values", "values", True, "the allowed values")),
    ),
    "unique": RuleType(
        "no two rows share the value (or the combination of values); memory grows with rows",
        (Param("fields", "fields", True, "one column or a list of columns"),),
    ),
    "compare": RuleType(
        "left op right, where right is another column or a fixed value",
        (
            _field("the left-hand column", "left"),
            Param("op", "op", True, "one of " + " ".join(COMPARE_OPS)),
            Param("right", "field", False, "the right-hand column"),
            Param("value", "scalar", False, "a fixed right-hand value"),
        ),
    ),
    "sum_equals": RuleType(
        "a total column equals the sum of its part columns (blank parts count as 0)",
        (
            _field("the total column", "total"),
            Param("parts", "fields", True, "the part columns"),
            Param("tolerance", "number", False, "allowed absolute difference (default 0)"),
        ),
    ),
    "reference": RuleType(
        "the cell is a value of a master list",
        (_each_field(), Param("master", "master", True, "name of an entry under `masters`")),
    ),
    "expression": RuleType(
        "a safe expression over the row is true (e.g. `合計 == 金額 + 税額`)",
        (
            Param(
                "expr", "expression", True, "the expression; see `list-rules` functions", "assert"
            ),
            Param("field", "field", False, "the column the finding is reported on"),
        ),
    ),
    "aggregate_equals": RuleType(
        "sum/count/min/max per group equals a value in another dataset; memory grows with groups",
        (
            Param("group_by", "fields", True, "the grouping columns of this file"),
            Param("function", "function", True, "one of " + ", ".join(AGGREGATE_FUNCTIONS)),
            Param("field", "field", False, "the aggregated column (not needed for count)"),
            Param("dataset", "dataset", True, "name of an entry under `datasets`"),
            Param("key", "fields", False, "the dataset's matching columns (default group_by)"),
            Param("target", "field", True, "the dataset's column holding the expected value"),
            Param("tolerance", "number", False, "allowed absolute difference (default 0)"),
        ),
    ),
}

# The top level of a rules file, in the order a file is best written.
TOP_KEYS: tuple[Param, ...] = (
    Param("version", "version", True, "always 1"),
    Param("name", "string", False, "the rule set's name in the report title (default: file name)"),
    Param(
        "key",
        "fields",
        False,
        "column(s) naming a record in findings, as in `line 18 (id=E0017)`; --key overrides",
    ),
    Param("fields", "mapping", False, "column: type, one of " + ", ".join(FIELD_TYPES)),
    Param(
        "datasets",
        "mapping",
        False,
        "name: other file the rules read (path relative to the rules file; or {path, sheet, "
        "encoding})",
    ),
    Param(
        "masters",
        "mapping",
        False,
        "name: allowed values, a list or {dataset, column} (for `reference` rules)",
    ),
    Param("rules", "list", True, "the rules; each has the common keys and its type's parameters"),
)
FILE_EXAMPLE = """version: 1
name: expenses
key: id
fields: {amount: number, date: date}
masters: {dept: [sales, admin, dev]}
rules:
  - {id: R1, type: required, fields: [id, amount]}
  - {id: R2, type: range, field: amount, min: 0}
  - {id: R3, type: reference, field: dept, master: dept, severity: warning}
"""

COMMON_KEYS: tuple[Param, ...] = (
    Param("id", "string", True, "rule identifier shown in findings, e.g. EXP-003"),
    Param("type", "rule_type", True, "one of " + ", ".join(RULE_TYPES)),
    Param("severity", "severity", False, "error (default), warning or info"),
    Param(
        "message",
        "string",
        False,
        "finding message; {column}, {field}, {expected}, {actual}, {row} (the line number), {location} are filled in",
    ),
    Param("suggestion", "string", False, "what to do about a finding"),
    Param("description", "string", False, "what the rule is for"),
    Param("when", "condition", False, "only check rows matching these conditions"),
)

EXPRESSION_FUNCTIONS: dict[str, str] = {
    "abs(x)": "absolute value",
    "round(x, n=0)": "x rounded to n decimals",
    "min(a, b, ...)": "smallest argument",
    "max(a, b, ...)": "largest argument",
    "len(s)": "number of characters",
    "blank(x)": "true when the cell is empty",
    "number(x)": "x read leniently as a number",
    "date(x)": "x read leniently as a date",
    "days(a, b)": "days from date a to date b",
    "year(d)": "year of a date",
    "month(d)": "month of a date",
    "day(d)": "day of the month of a date",
    "contains(s, part)": "whether text s contains part",
    "matches(s, regex)": "whether the whole of s matches the regular expression",
}


def list_rules() -> dict[str, Any]:
    """What `fieldcheck list-rules` prints: the file layout first, then the rule types."""
    return {
        "file_layout": {
            "keys": [p._asdict() for p in TOP_KEYS],
            "example": FILE_EXAMPLE,
            "start": "`fieldcheck init DATA` writes a commented rules file for a data file",
        },
        "rule_types": [
            {
                "type": name,
                "summary": rule.summary,
                "parameters": [p._asdict() for p in rule.params],
            }
            for name, rule in RULE_TYPES.items()
        ],
        "common_keys": [p._asdict() for p in COMMON_KEYS],
        "field_types": list(FIELD_TYPES),
        "condition_operators": [*list(CONDITION_OPS), "all", "any", "not"],
        "expression_functions": EXPRESSION_FUNCTIONS,
        "expression_operators": "+ - * / // % ** == != < <= > >= and or not; "
        "names are columns (`back quotes` for names with spaces); literals: numbers, "
        "'text', true, false, null",
    }
