"""Run a rule set over a data file in one streaming pass, a chunk of rows at a time.

Rules are compiled once into closures working on a chunk laid out by column, so typed
conversion is one `map(float, column)` in C for clean columns and most checks are one
comprehension per chunk. Memory does not grow with the file: one chunk is held at a time,
except for `unique` (one entry per distinct key), `aggregate_equals` (one accumulator per
group, and the other dataset read whole), a JSON array input (read whole) and the findings
themselves (bounded in the report by --max-findings). A wrongly typed cell gives one
`schema.type` finding (or the finding of the `type` rule for that column) and every rule
reading that cell skips the row.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from agentcli.errors import UsageError
from agentcli.report import Finding
from officecli.fieldcheck.aggregates import Loaded, compile_aggregate
from officecli.fieldcheck.checks import COMPILERS
from officecli.fieldcheck.chunk import Chunk, CompileContext, CompiledRule, rule_error
from officecli.fieldcheck.chunk_check import (
    Collector,
    Converters,
    blank_hits,
    check_chunk,
    passed_blanks,
)
from officecli.fieldcheck.conditions import compile_condition, condition_fields
from officecli.fieldcheck.errors import missing_column
from officecli.fieldcheck.expr_parse import names_in
from officecli.fieldcheck.findings import FindingMaker, check_placeholders, finding_maker
from officecli.fieldcheck.model import RuleSet, RuleSpec
from officecli.fieldcheck.ruletypes import RULE_TYPES
from officecli.fieldcheck.values import TYPE_HINTS, parse_date
from officecli.readers.tabular import Table, open_table

_OTHER_DATASET_PARAMS = ("key", "target")  # aggregate_equals columns of the other file
Engine = Literal["auto", "python", "vector"]


@dataclass
class Options:
    sheet: str | None = None
    encoding: str | None = None
    datasets: dict[str, str] = field(default_factory=dict)
    max_findings: int | None = None
    key: list[str] | None = None  # columns naming a record in findings (else the rules' key)
    # "auto": the vectorised engine for a large CSV/TSV (see VECTOR_MIN_BYTES); "python"
    # or "vector" choose one (tests run both on the same data).
    engine: Engine = "auto"


@dataclass
class Result:
    """Findings kept (in row order, then rule order; aggregates last) and what was read."""

    findings: list[Finding]
    totals: dict[str, int]
    rows: int
    skipped: int
    table: Table
    engine: str = "python"  # or "vector": which engine read the rows


def rule_fields(spec: RuleSpec) -> list[str]:
    """Columns of the data a rule reads, including its `when`."""
    out: list[str] = []
    for param in RULE_TYPES[spec.type].params:
        value = spec.params.get(param.name)
        if value is None or (
            param.name in _OTHER_DATASET_PARAMS and spec.type == "aggregate_equals"
        ):
            continue
        if param.kind == "field":
            out.append(value)
        elif param.kind == "fields":
            out += value
        elif param.kind == "expression":
            out += names_in(value[1])
    if spec.when is not None:
        out += condition_fields(spec.when)
    return list(dict.fromkeys(out))


def plan_types(ruleset: RuleSet) -> tuple[dict[str, str], dict[str, RuleSpec]]:
    """Each typed column's type: declared, from a `type` rule, or inferred from its rules."""
    types = dict(ruleset.fields)
    type_rules: dict[str, RuleSpec] = {}
    for spec in ruleset.rules:
        if spec.type == "type":
            name, kind = spec.params["field"], spec.params["value_type"]
            if types.get(name, kind) != kind:
                raise rule_error(spec, f"{name!r} is declared {types[name]}, not {kind}")
            types[name], type_rules[name] = kind, spec
    for spec in ruleset.rules:
        p = spec.params
        if spec.type == "range":
            bound = p.get("min", p.get("max"))
            kind = "date" if isinstance(bound, str) else "number"
            types.setdefault(p["field"], kind)
        elif spec.type == "sum_equals":
            for name in [p["total"], *p["parts"]]:
                types.setdefault(name, "number")
        elif spec.type == "aggregate_equals" and p["function"] != "count":
            types.setdefault(p["field"], "number")
        elif spec.type == "compare":
            sides = [p["left"]] + ([p["right"]] if "right" in p else [])
            known = next((types[s] for s in sides if s in types), None)
            guess = _kind_of_constant(p["value"]) if "value" in p else "auto"
            for side in sides:
                types.setdefault(side, known or guess)
    for spec in ruleset.rules:
        if spec.type == "expression":
            for name in names_in(spec.params["expr"][1]):
                types.setdefault(name, "auto")
    return types, type_rules


def _kind_of_constant(value: Any) -> str:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return "number"
    if isinstance(value, str) and parse_date(value) is not None:
        return "date"
    return "string"


def _type_finder(name: str, kind: str, spec: RuleSpec | None) -> FindingMaker:
    schema_spec = spec or RuleSpec("schema.type", "type", "error", "", "", "", None, {}, 0)
    return finding_maker(schema_spec, f"{{field}} is not a valid {kind}", TYPE_HINTS.get(kind, ""))


def _load(ruleset: RuleSet, name: str, options: Options) -> Loaded:
    spec = ruleset.datasets[name]
    path = Path(options.datasets[name]) if name in options.datasets else spec.path
    with open_table(path, sheet=spec.sheet, encoding=spec.encoding) as table:
        return table.name, table.columns, list(table.rows)


def _need_columns(names: Iterable[str], columns: list[str], where: str, rule: str) -> None:
    wanted = list(names)
    for name in wanted:
        if name not in columns:
            raise missing_column(name, where, columns, rule, wanted)


def _masters(ruleset: RuleSet, options: Options) -> dict[str, frozenset[str]]:
    out: dict[str, frozenset[str]] = {}
    for name, master in ruleset.masters.items():
        if not master.dataset:
            out[name] = frozenset(master.values)
            continue
        file_name, columns, rows = _load(ruleset, master.dataset, options)
        _need_columns([master.column], columns, file_name, f"master {name}")
        out[name] = frozenset(r[master.column].strip() for _, r in rows)
    return out


def key_columns(ruleset: RuleSet, columns: list[str], options: Options) -> list[int]:
    """Positions of the key columns (--key, else the rules file's `key`), checked."""
    key = options.key if options.key is not None else ruleset.key
    _need_columns(key, columns, "the data", "--key" if options.key is not None else "key")
    return [columns.index(name) for name in key]


def compile_rules(
    ruleset: RuleSet, columns: list[str], options: Options
) -> tuple[list[CompiledRule], CompileContext]:
    """Check every referenced column exists, then compile each rule once."""
    _need_columns(ruleset.fields, columns, "the data", "fields")
    for spec in ruleset.rules:
        _need_columns(rule_fields(spec), columns, "the data", spec.id)
        for text in (spec.message, spec.suggestion):
            check_placeholders(text, columns, spec.id)
    unknown = sorted(set(options.datasets) - set(ruleset.datasets))
    if unknown:
        raise UsageError(
            f"--dataset {unknown[0]}: the rules file declares no such dataset",
            suggestion="declared datasets: " + (", ".join(ruleset.datasets) or "(none)"),
        )
    types, _ = plan_types(ruleset)
    ctx = CompileContext(types=types, masters=_masters(ruleset, options))
    compiled: list[CompiledRule] = []
    for spec in ruleset.rules:
        if spec.type == "type":
            continue  # applied while converting the cells
        when = compile_condition(spec.when) if spec.when is not None else None
        needs = frozenset(rule_fields(spec))
        if spec.type == "aggregate_equals":
            other = _load(ruleset, spec.params["dataset"], options)
            keys = spec.params.get("key") or spec.params["group_by"]
            _need_columns([*keys, spec.params["target"]], other[1], other[0], spec.id)
            feed, finish = compile_aggregate(spec, other)
            compiled.append(CompiledRule(spec, needs, when, feed, finish))
        else:
            compiled.append(CompiledRule(spec, needs, when, COMPILERS[spec.type](spec, ctx)))
    return compiled, ctx


@dataclass
class Plan:
    """What checking rows needs, compiled once: the key columns, the rules, their context
    and the column conversions (each with its type finding)."""

    key: list[int]
    rules: list[CompiledRule]
    ctx: CompileContext
    converters: Converters


def prepare(ruleset: RuleSet, columns: list[str], options: Options) -> Plan:
    key = key_columns(ruleset, columns, options)
    rules, ctx = compile_rules(ruleset, columns, options)
    _, type_rules = plan_types(ruleset)
    converters = [
        (name, kind, _type_finder(name, kind, type_rules.get(name)))
        for name, kind in ctx.types.items()
    ]
    return Plan(key, rules, ctx, converters)


def finish(plan: Plan, collector: Collector) -> None:
    """The findings of the rules that report after the last row (aggregates), last."""
    for rule in plan.rules:
        if rule.finish is not None:
            for finding in rule.finish():
                collector.add((0, 0, finding))


def validate_rows(ruleset: RuleSet, data: str | Path, options: Options) -> Result:
    """Stream the data file through the compiled rules, chunk by chunk (the Python engine;
    `run.validate_data` chooses between it and the vectorised one)."""
    with open_table(data, sheet=options.sheet, encoding=options.encoding) as table:
        plan = prepare(ruleset, table.columns, options)
        collector = Collector(options.max_findings)
        count = 0
        for numbers, records in table.chunks:
            chunk = Chunk(table.columns, numbers, records, plan.key)
            count += len(records)
            blanks = passed_blanks(table)
            collector.extend(check_chunk(chunk, plan.converters, plan.rules, blanks))
        collector.extend(blank_hits(passed_blanks(table)))
    finish(plan, collector)
    return Result(collector.findings, collector.totals, count, plan.ctx.skipped[0], table)
