"""Load rules.yaml with ruamel.yaml and check it, pointing every error at its line and column."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from agentcli import confine
from officecli.fieldcheck.errors import RulesFileError, closest
from officecli.fieldcheck.expr_parse import ExpressionError, parse_expression
from officecli.fieldcheck.model import DatasetSpec, MasterSpec, RuleSet, RuleSpec
from officecli.fieldcheck.patterns import PatternError, compile_pattern
from officecli.fieldcheck.rules_yaml import plain, position, read_yaml
from officecli.fieldcheck.ruletypes import (
    AGGREGATE_FUNCTIONS,
    COMMON_KEYS,
    COMPARE_OPS,
    CONDITION_OPS,
    EACH_FIELD,
    FIELD_TYPES,
    RULE_TYPES,
    SEVERITY_LEVELS,
    TOP_KEYS,
    Param,
)
from officecli.readers.paths import not_a_file

_TOP_KEYS = tuple(p.name for p in TOP_KEYS)


class _Checker:
    """Walks the ruamel tree; `fail` raises with the position of a node or key."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def fail(
        self, message: str, node: Any = None, key: Any = None, *, value: bool = True
    ) -> RulesFileError:
        line, col = position(node, key, value)
        where = f"{self.path.name}:{line}:{col}" if line else self.path.name
        return RulesFileError(
            f"{where}: {message}",
            data={"file": str(self.path), "line": line, "column": col},
        )

    def mapping(self, node: Any, what: str, parent: Any = None, key: Any = None) -> dict[Any, Any]:
        if not isinstance(node, dict):
            raise self.fail(f"{what} must be a mapping", parent, key)
        return node

    def known_keys(self, node: dict[Any, Any], allowed: tuple[str, ...], what: str) -> None:
        for key in node:
            if key not in allowed:
                near = closest(str(key), allowed)
                raise self.fail(
                    f"unknown key {key!r} in {what}"
                    + (f" (did you mean {near!r}?)" if near else ""),
                    node,
                    key,
                    value=False,
                )


def load_rules(
    path: str | Path, *, dataset_root: str | Path | None = None, given: Iterable[str] = ()
) -> RuleSet:
    """Read and check a rules file; raise RulesFileError at the first problem. Its datasets
    must resolve (symlinks followed) inside `dataset_root`, by default the rules file's
    folder, except those `given` on the command line instead (--dataset NAME=FILE)."""
    problem = not_a_file(path)
    if problem:
        raise RulesFileError(f"{str(path)!r}: {problem}", suggestion="check the -r path")
    path = Path(path)
    doc = read_yaml(path)
    ck = _Checker(path)
    top = ck.mapping(doc, "the rules file")
    ck.known_keys(top, _TOP_KEYS, "the rules file")
    if plain(top.get("version")) != 1:
        raise ck.fail("version must be 1", top, "version" if "version" in top else None)
    if "rules" not in top:
        raise ck.fail("the rules file needs a `rules` list", top)
    ruleset = RuleSet(path=path, name=str(plain(top.get("name")) or path.stem))
    ruleset.key = _key(ck, top)
    ruleset.fields = _fields(ck, top)
    ruleset.datasets = _datasets(ck, top, path.parent)
    _confine(ck, top, ruleset.datasets, Path(dataset_root or path.parent), set(given))
    ruleset.masters = _masters(ck, top, ruleset.datasets)
    rules = top["rules"]
    if not isinstance(rules, list):
        raise ck.fail("rules must be a list", top, "rules")
    seen: set[str] = set()
    for index, node in enumerate(rules):
        checks = _rule(ck, rules, index, ruleset)
        if checks[0].id in seen:
            raise ck.fail(f"duplicate rule id {checks[0].id!r}", node, "id")
        seen.add(checks[0].id)
        ruleset.rules.extend(checks)
    return ruleset


def _key(ck: _Checker, top: dict[Any, Any]) -> list[str]:
    """The columns naming a record: one column or a list of them."""
    value = plain(top.get("key", []))
    names = [value] if isinstance(value, str) else value
    if not isinstance(names, list) or not all(isinstance(n, str) and n for n in names):
        raise ck.fail("key must be a column name or a list of column names", top, "key")
    return names


def _fields(ck: _Checker, top: dict[Any, Any]) -> dict[str, str]:
    node = ck.mapping(top.get("fields") or {}, "fields", top, "fields")
    out: dict[str, str] = {}
    for name, spec in node.items():
        type_name = spec.get("type") if isinstance(spec, dict) else spec
        if type_name not in FIELD_TYPES:
            raise ck.fail(
                f"field {name!r}: type must be one of {', '.join(FIELD_TYPES)}", node, name
            )
        out[str(name)] = str(type_name)
    return out


def _entry(
    ck: _Checker, node: Any, name: Any, spec: Any, keys: tuple[str, ...], what: str
) -> dict[Any, Any]:
    """One named entry as a mapping with only `keys`; the short form (a dataset's path as
    text, a master's values as a list) stands for {keys[0]: value}."""
    if isinstance(spec, str if keys[0] == "path" else list):
        spec = {keys[0]: spec}
    entry = ck.mapping(spec, f"{what} {name!r}", node, name)
    ck.known_keys(entry, keys, f"{what} {name!r}")
    return entry


def _datasets(ck: _Checker, top: dict[Any, Any], base: Path) -> dict[str, DatasetSpec]:
    node = ck.mapping(top.get("datasets") or {}, "datasets", top, "datasets")
    out: dict[str, DatasetSpec] = {}
    for name, short in node.items():
        spec = _entry(ck, node, name, short, ("path", "sheet", "encoding"), "dataset")
        if not isinstance(spec.get("path"), str):
            raise ck.fail(f"dataset {name!r} needs a path", node, name)
        sheet, encoding = spec.get("sheet"), spec.get("encoding")
        out[str(name)] = DatasetSpec(
            str(name),
            base / str(spec["path"]),
            None if sheet is None else str(sheet),
            None if encoding is None else str(encoding),
        )
    return out


def _confine(
    ck: _Checker, top: dict[Any, Any], datasets: dict[str, DatasetSpec], root: Path, given: set[str]
) -> None:
    """A rules file reads only files under its folder (or --dataset-root): a rules file
    from elsewhere must not make fieldcheck read `/etc/shadow` or `../../.ssh/id_rsa`."""
    inside = root.resolve()
    node = top.get("datasets") or {}
    for name, spec in datasets.items():
        if name in given or spec.path.resolve().is_relative_to(inside):
            continue
        confine.check(spec.path)  # a server's own root, when one confines the call, first
        error = ck.fail(f"dataset {name!r}: {spec.path.name} resolves outside {root}", node, name)
        error.suggestion = (
            f"keep the file under {root}, pass --dataset {name}=FILE, or name a folder "
            "that holds it with --dataset-root"
        )
        raise error


def _masters(
    ck: _Checker, top: dict[Any, Any], datasets: dict[str, DatasetSpec]
) -> dict[str, MasterSpec]:
    node = ck.mapping(top.get("masters") or {}, "masters", top, "masters")
    out: dict[str, MasterSpec] = {}
    for name, short in node.items():
        spec = _entry(ck, node, name, short, ("values", "dataset", "column"), "master")
        if "values" in spec:
            values = plain(spec["values"])
            if not isinstance(values, list):
                raise ck.fail("values must be a list", spec, "values")
            out[str(name)] = MasterSpec(str(name), values=tuple(str(v) for v in values))
            continue
        dataset, column = spec.get("dataset"), spec.get("column")
        if not isinstance(dataset, str) or not isinstance(column, str):
            raise ck.fail(f"master {name!r} needs `values`, or `dataset` and `column`", node, name)
        if dataset not in datasets:
            raise ck.fail(
                f"master {name!r}: no dataset {dataset!r} under datasets", spec, "dataset"
            )
        out[str(name)] = MasterSpec(str(name), dataset=dataset, column=column)
    return out


def _spelling(ck: _Checker, node: dict[Any, Any], param: Param) -> str | None:
    """The key a rule uses for `param`: its name, or the seed's alias; both at once is an error."""
    used = [key for key in (param.name, param.alias) if key and key in node]
    if len(used) == 2:
        raise ck.fail(
            f"`{param.name}` and `{param.alias}` are two spellings of one key; keep one",
            node,
            param.alias,
            value=False,
        )
    return used[0] if used else None


def _rule(ck: _Checker, rules: list[Any], index: int, ruleset: RuleSet) -> list[RuleSpec]:
    """One rule of the file; a single-column rule written with `fields:` is one check a column."""
    node = ck.mapping(rules[index], "a rule", rules, index)
    rule_type = node.get("type")
    if not isinstance(rule_type, str) or rule_type not in RULE_TYPES:
        near = closest(str(rule_type), list(RULE_TYPES))
        hint = f" (did you mean {near!r}?)" if near and rule_type is not None else ""
        raise ck.fail(
            f"rule type must be one of {', '.join(RULE_TYPES)}; got {plain(rule_type)!r}{hint}",
            node,
            "type" if "type" in node else None,
        )
    params = RULE_TYPES[rule_type].params
    allowed = (*COMMON_KEYS, *params)
    ck.known_keys(
        node, tuple(key for p in allowed for key in (p.name, p.alias) if key), f"a {rule_type} rule"
    )
    spelled = {p.name: _spelling(ck, node, p) for p in allowed}
    for param in allowed:
        if param.required and spelled[param.name] is None:
            raise ck.fail(f"a {rule_type} rule needs `{param.name}` ({param.help})", node)
    rule_id = node["id"]
    if not isinstance(rule_id, str | int) or not str(rule_id).strip():
        raise ck.fail("id must be a non-empty text", node, "id")
    severity = node.get("severity", "error")
    if severity not in SEVERITY_LEVELS:
        raise ck.fail(f"severity must be one of {', '.join(SEVERITY_LEVELS)}", node, "severity")
    values = {
        p.name: _param(ck, node, p, ruleset, key)
        for p in params
        if (key := spelled[p.name]) is not None
    }
    _check_combination(ck, node, rule_type, values)
    when = node.get("when")
    if when is not None:
        _condition(ck, node, "when")
    columns = values["field"] if spelled.get("field") == EACH_FIELD else [None]
    return [
        RuleSpec(
            id=str(rule_id),
            type=rule_type,
            severity=str(severity),
            message=str(plain(node.get("message", "")) or ""),
            suggestion=str(plain(node.get("suggestion", "")) or ""),
            description=str(plain(node.get("description", "")) or ""),
            when=plain(when),
            params=values if column is None else {**values, "field": column},
            line=position(node, None, True)[0],
            each_field=column is not None,
        )
        for column in columns
    ]


def _param(ck: _Checker, node: dict[Any, Any], param: Param, ruleset: RuleSet, key: str) -> Any:
    """The checked, converted value of `param`, written under `key` (its name or alias)."""
    value = plain(node[key])
    kind = "fields" if key == EACH_FIELD else param.kind
    ok = {
        "field": isinstance(value, str) and value != "",
        "fields": isinstance(value, str)
        or (isinstance(value, list) and value and all(isinstance(v, str) for v in value)),
        "number": isinstance(value, int | float) and not isinstance(value, bool),
        "count": isinstance(value, int) and not isinstance(value, bool) and value >= 0,
        "number_or_date": isinstance(value, int | float | str) and not isinstance(value, bool),
        "values": isinstance(value, list) and bool(value),
        "scalar": isinstance(value, str | int | float | bool),
        "op": value in COMPARE_OPS,
        "function": value in AGGREGATE_FUNCTIONS,
        "field_type": value in FIELD_TYPES,
        "regex": isinstance(value, str),
        "expression": isinstance(value, str) and value.strip() != "",
        "master": isinstance(value, str) and value in ruleset.masters,
        "dataset": isinstance(value, str) and value in ruleset.datasets,
    }[kind]
    if not ok:
        raise ck.fail(f"`{key}`: {param.help}; got {value!r}", node, key)
    if kind == "fields" and isinstance(value, str):
        return [value]
    if kind == "regex":
        try:
            return compile_pattern(value)
        except PatternError as exc:
            raise ck.fail(f"`{key}`: bad regular expression: {exc}", node, key) from None
    if kind == "expression":
        try:
            tree = parse_expression(value)
            literal_patterns(tree)
            return (value, tree)
        except PatternError as exc:
            raise ck.fail(
                f"`{key}`: bad regular expression in matches(): {exc}", node, key
            ) from None
        except ExpressionError as exc:
            line, col = position(node, key, True)
            raise RulesFileError(
                f"{ck.path.name}:{line}:{col}: expression error at character {exc.position + 1}: "
                f"{exc.message}",
                data={
                    "file": str(ck.path),
                    "line": line,
                    "column": col,
                    "offset": exc.position + 1,
                },
            ) from None
    return value


def literal_patterns(tree: Any) -> None:
    """Compile every text literal given to matches() now, so a bad one is a rules error."""
    if not isinstance(tree, tuple):
        return
    if tree[:2] == ("call", "matches") and len(tree[2]) == 2 and tree[2][1][0] == "str":
        compile_pattern(tree[2][1][1])
    for child in tree[1:]:
        if isinstance(child, tuple):
            if child and isinstance(child[0], tuple):
                for item in child:
                    literal_patterns(item)
            else:
                literal_patterns(child)


def _check_combination(
    ck: _Checker, node: dict[Any, Any], rule_type: str, values: dict[str, Any]
) -> None:
    if rule_type in ("range", "length") and "min" not in values and "max" not in values:
        raise ck.fail(f"a {rule_type} rule needs `min`, `max` or both", node)
    if rule_type == "compare" and ("right" in values) == ("value" in values):
        raise ck.fail("a compare rule needs exactly one of `right` and `value`", node)
    if rule_type == "aggregate_equals" and values["function"] != "count" and "field" not in values:
        raise ck.fail(f"aggregate function {values['function']} needs `field`", node)


def _condition(ck: _Checker, parent: Any, key: Any) -> None:
    node = parent[key]
    if isinstance(node, list):
        for index in range(len(node)):
            _condition(ck, node, index)
        return
    cond = ck.mapping(node, "a condition", parent, key)
    ck.known_keys(cond, ("field", *CONDITION_OPS, "all", "any", "not"), "a condition")
    for group in ("all", "any"):
        if group in cond:
            if not isinstance(cond[group], list) or not cond[group]:
                raise ck.fail(f"`{group}` must be a non-empty list of conditions", cond, group)
            _condition(ck, cond, group)
    if "not" in cond:
        _condition(ck, cond, "not")
    ops = [op for op in CONDITION_OPS if op in cond]
    if ops and not isinstance(cond.get("field"), str):
        raise ck.fail(f"`{ops[0]}` needs a `field`", cond)
    if "field" in cond and not ops:
        raise ck.fail(f"a condition on a field needs one of {', '.join(CONDITION_OPS)}", cond)
    if not ops and not any(g in cond for g in ("all", "any", "not")):
        raise ck.fail("an empty condition", parent, key)
    if "in" in cond and not isinstance(cond["in"], list):
        raise ck.fail("`in` must be a list", cond, "in")
    if "present" in cond and not isinstance(cond["present"], bool):
        raise ck.fail("`present` must be true or false", cond, "present")
