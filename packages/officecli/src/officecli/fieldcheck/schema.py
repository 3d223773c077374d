"""The JSON Schema of rules.yaml, derived from the rule-type table."""

from __future__ import annotations

from typing import Any

from officecli.fieldcheck.ruletypes import (
    AGGREGATE_FUNCTIONS,
    COMMON_KEYS,
    COMPARE_OPS,
    EACH_FIELD,
    FIELD_TYPES,
    RULE_TYPES,
    SEVERITY_LEVELS,
    TOP_KEYS,
    Param,
)

_SCALAR: dict[str, Any] = {"type": ["string", "number", "boolean"]}
_FIELDS: dict[str, Any] = {
    "oneOf": [
        {"type": "string"},
        {"type": "array", "items": {"type": "string"}, "minItems": 1},
    ]
}
KIND_SCHEMAS: dict[str, dict[str, Any]] = {
    "field": {"type": "string", "minLength": 1},
    "fields": _FIELDS,
    "string": {"type": "string"},
    "number": {"type": "number"},
    "count": {"type": "integer", "minimum": 0},
    "number_or_date": {"type": ["number", "string"]},
    "regex": {"type": "string"},
    "values": {"type": "array", "items": _SCALAR, "minItems": 1},
    "scalar": _SCALAR,
    "op": {"enum": list(COMPARE_OPS)},
    "expression": {"type": "string", "minLength": 1},
    "master": {"type": "string"},
    "dataset": {"type": "string"},
    "function": {"enum": list(AGGREGATE_FUNCTIONS)},
    "field_type": {"enum": list(FIELD_TYPES)},
    "severity": {"enum": list(SEVERITY_LEVELS)},
}

_CONDITION: dict[str, Any] = {
    "type": "object",
    "properties": {
        "field": {"type": "string"},
        "equals": _SCALAR,
        "in": {"type": "array", "items": _SCALAR},
        "present": {"type": "boolean"},
        "gt": {"type": ["number", "string"]},
        "gte": {"type": ["number", "string"]},
        "lt": {"type": ["number", "string"]},
        "lte": {"type": ["number", "string"]},
        "all": {"type": "array", "items": {"$ref": "#/$defs/condition"}},
        "any": {"type": "array", "items": {"$ref": "#/$defs/condition"}},
        "not": {"$ref": "#/$defs/condition"},
    },
    "additionalProperties": False,
}


def _param_schema(param: Param) -> dict[str, Any]:
    if param.kind == "condition":
        return {
            "oneOf": [
                {"$ref": "#/$defs/condition"},
                {"type": "array", "items": {"$ref": "#/$defs/condition"}},
            ]
        }
    return {**KIND_SCHEMAS[param.kind], "description": param.help}


def _rule_schema(name: str) -> dict[str, Any]:
    common = [p for p in COMMON_KEYS if p.name != "type"]
    params = RULE_TYPES[name].params
    props = {p.name: _param_schema(p) for p in (*common, *params)}
    props["type"] = {"const": name}
    required: list[str] = []
    one_spelling: list[dict[str, Any]] = []
    for param in (*COMMON_KEYS, *params):
        if param.alias:
            props[param.alias] = (
                {**KIND_SCHEMAS["fields"], "description": param.help}
                if param.alias == EACH_FIELD
                else props[param.name]
            )
            both = {"required": [param.name, param.alias]}
            if param.required:
                one_spelling.append(
                    {"oneOf": [{"required": [param.name]}, {"required": [param.alias]}]}
                )
            else:
                one_spelling.append({"not": both})
        elif param.required:
            required.append(param.name)
    schema: dict[str, Any] = {
        "type": "object",
        "description": RULE_TYPES[name].summary,
        "properties": props,
        "required": sorted(set(required), key=required.index),
        "additionalProperties": False,
    }
    if one_spelling:
        schema["allOf"] = one_spelling
    return schema


def rules_schema() -> dict[str, Any]:
    """JSON Schema (draft 2020-12) of a rules file; each top-level key is described from
    the same table as `list-rules` and the loader."""
    schema = _file_schema()
    for param in TOP_KEYS:
        schema["properties"][param.name]["description"] = param.help
    return schema


def _file_schema() -> dict[str, Any]:
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "fieldcheck rules file",
        "type": "object",
        "required": ["version", "rules"],
        "additionalProperties": False,
        "properties": {
            "version": {"const": 1},
            "name": {"type": "string"},
            "key": {**_FIELDS},
            "fields": {
                "type": "object",
                "additionalProperties": {
                    "oneOf": [
                        {"enum": list(FIELD_TYPES)},
                        {
                            "type": "object",
                            "properties": {"type": {"enum": list(FIELD_TYPES)}},
                            "required": ["type"],
                            "additionalProperties": False,
                        },
                    ]
                },
            },
            "datasets": {
                "type": "object",
                "additionalProperties": {
                    "oneOf": [
                        {"type": "string"},
                        {
                            "type": "object",
                            "properties": {
                                "path": {"type": "string"},
                                "sheet": {"type": "string"},
                                "encoding": {"type": "string"},
                            },
                            "required": ["path"],
                            "additionalProperties": False,
                        },
                    ]
                },
            },
            "masters": {
                "type": "object",
                "additionalProperties": {
                    "oneOf": [
                        {"type": "array", "items": _SCALAR},
                        {
                            "type": "object",
                            "properties": {"values": {"type": "array", "items": _SCALAR}},
                            "required": ["values"],
                            "additionalProperties": False,
                        },
                        {
                            "type": "object",
                            "properties": {
                                "dataset": {"type": "string"},
                                "column": {"type": "string"},
                            },
                            "required": ["dataset", "column"],
                            "additionalProperties": False,
                        },
                    ]
                },
            },
            "rules": {"type": "array", "items": {"$ref": "#/$defs/rule"}},
        },
        "$defs": {
            "condition": _CONDITION,
            "rule": {"oneOf": [_rule_schema(name) for name in RULE_TYPES]},
        },
    }
