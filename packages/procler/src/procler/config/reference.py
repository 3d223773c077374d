"""The config reference: the JSON Schema of `.procler/config.yaml`, derived from the schema
table (procler.config.keys), and docs/config.md, rendered from that JSON Schema.

Nothing here is written by hand per key, so neither can drift from what the loader checks.
Regenerate the page with `make docs` (scripts/generated_docs.py).
"""

from __future__ import annotations

from typing import Any

from agentcli.commands import Command
from procler.config.keys import CONFIG
from procler.config.specs import (
    Bool,
    Duration,
    Either,
    Enum,
    Int,
    ListOf,
    ListOr,
    MapOf,
    Matching,
    Regex,
    Signal,
    Size,
    Spec,
    Str,
    Struct,
    flow,
    shown,
)
from procler.patterns import SYNTAX_HINT

DRAFT = "https://json-schema.org/draft/2020-12/schema"
DURATION_PATTERN = r"^(\d+(\.\d+)?|(\d+(\.\d+)?(ms|h|m|s))+)$"
SIZE_PATTERN = r"^\d+(\.\d+)? *([bB]|[kKmMgG]([iI]?[bB])?)?$"


def json_schema() -> dict[str, Any]:
    """The whole config file's JSON Schema."""
    return {"$schema": DRAFT, "title": "Procler config (.procler/config.yaml)", **of(CONFIG)}


def of(spec: Spec) -> dict[str, Any]:
    """One spec of the table as JSON Schema."""
    if isinstance(spec, Struct):
        return _struct(spec)
    if isinstance(spec, MapOf):
        schema: dict[str, Any] = {"type": ["object", "null"], "additionalProperties": of(spec.each)}
        if spec.key_pattern is not None:
            schema["propertyNames"] = {"pattern": f"^{spec.key_pattern.pattern}$"}
        return schema
    if isinstance(spec, ListOf):
        listed = {"type": "array", "items": of(spec.each)}
        return {"anyOf": [of(spec.each), listed]} if spec.scalar_ok else listed
    if isinstance(spec, Either):
        return {"anyOf": [of(spec.scalar), of(spec.mapping)]}
    if isinstance(spec, ListOr):
        return {"anyOf": [of(spec.listed), of(spec.mapping)]}
    return _scalar(spec)


def _struct(spec: Struct) -> dict[str, Any]:
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {
            key: _described(of(field), field, spec.about.get(key))
            for key, field in spec.fields.items()
        },
        "additionalProperties": False,
    }
    if spec.required:
        schema["required"] = list(spec.required)
    if spec.need_one:
        schema["oneOf"] = [{"required": [key]} for key in spec.exclusive]
    elif spec.exclusive:
        keys = spec.exclusive
        pairs = [[a, b] for i, a in enumerate(keys) for b in keys[i + 1 :]]
        schema["not"] = {"anyOf": [{"required": pair} for pair in pairs]}
    return schema


def _described(
    schema: dict[str, Any], spec: Spec, about: str | tuple[str, Any] | None
) -> dict[str, Any]:
    """A key's schema with its meaning (before the value's own rules), its default and an
    example of a value."""
    if about is None:
        return schema
    meaning, default = (about, None) if isinstance(about, str) else about
    rules = schema.get("description")
    described = {**schema, "description": f"{meaning} ({rules})" if rules else meaning}
    if default is not None:
        described["default"] = default
    described["examples"] = [spec.example()]
    return described


def _scalar(spec: Spec) -> dict[str, Any]:
    if isinstance(spec, Signal):  # TERM or SIGTERM
        return {"enum": [*spec.choices, *(f"SIG{c}" for c in spec.choices)]}
    if isinstance(spec, Enum):
        return {"enum": list(spec.choices)}
    if isinstance(spec, Int):
        bounds = {"minimum": spec.low, "maximum": spec.high}
        return {"type": "integer", **{k: v for k, v in bounds.items() if v is not None}}
    if isinstance(spec, Bool):
        return {"type": "boolean"}
    if isinstance(spec, Duration):
        text = "500ms, 10s, 5m, 1h30m, or seconds; at most a year"
        return _written("duration", "number", DURATION_PATTERN, text)
    if isinstance(spec, Size):
        text = f"bytes, or e.g. 512KB, 10MB, 1GB; at least {spec.low_text}"
        return _written("size", "integer", SIZE_PATTERN, text)
    if isinstance(spec, Regex):
        return {"title": "regular expression", "type": "string", "description": SYNTAX_HINT}
    if isinstance(spec, Matching):
        return {
            "title": spec.what.removeprefix("an ").removeprefix("a "),
            "type": "string",
            "pattern": f"^{spec.pattern.pattern}$",
            "maxLength": spec.longest,
            "description": spec.hint,
        }
    assert isinstance(spec, Str), f"no JSON Schema for {type(spec).__name__}"
    return (
        {"type": "string", "description": spec.description}
        if spec.description
        else {"type": "string"}
    )


def _written(title: str, number: str, pattern: str, text: str) -> dict[str, Any]:
    """A value written as text with a unit, or as a bare number."""
    return {"title": title, "type": ["string", number], "pattern": pattern, "description": text}


def markdown(schema: dict[str, Any]) -> str:
    """docs/config.md: one row per key, found by walking the JSON Schema."""
    rows: list[str] = []
    _rows(schema, "", rows)
    return "\n".join(
        [
            "# Config reference (`.procler/config.yaml`)",
            "",
            "Generated from the schema table by `make docs`; a test fails when it is stale.",
            "`procler config schema` prints the same content as JSON Schema. `NAME` stands",
            "for a process or group name; `[]` for an entry of a list.",
            "",
            "| key | value | default | meaning | example |",
            "|---|---|---|---|---|",
            *rows,
            "",
        ]
    )


def _rows(schema: dict[str, Any], path: str, rows: list[str]) -> None:
    for key, sub in schema.get("properties", {}).items():
        where = f"{path}.{key}" if path else key
        default = f"`{flow(sub['default'])}`" if "default" in sub else ""
        example = f"`{_escaped(shown(key, sub['examples'][0]))}`" if "examples" in sub else ""
        rows.append(f"| `{where}` | {_what(sub)} | {default} | {_rules(sub)} | {example} |")
        for nested, suffix in _children(sub):
            if suffix:  # an entry of a list or a mapping: its own rules (required keys)
                rows.append(f"| `{where}{suffix}` | mapping | | {_rules(nested)} | |")
            _rows(nested, where + suffix, rows)


def _escaped(text: str) -> str:
    return text.replace("|", "\\|")


def _children(schema: dict[str, Any]) -> list[tuple[dict[str, Any], str]]:
    """The mappings inside a value, with the path suffix that reaches them."""
    if "properties" in schema:
        return [(schema, "")]
    if "anyOf" in schema:
        return [c for branch in schema["anyOf"] for c in _children(branch)]
    if schema.get("type") == "array":
        return [(s, "[]" + suffix) for s, suffix in _children(schema["items"])]
    extra = schema.get("additionalProperties")
    if isinstance(extra, dict):
        name = "NAME" if "propertyNames" in schema else "KEY"
        return [(s, f".{name}" + suffix) for s, suffix in _children(extra)]
    return []


def _what(schema: dict[str, Any]) -> str:
    if "enum" in schema:
        return "one of " + ", ".join(f"`{v}`" for v in schema["enum"])
    if "anyOf" in schema:
        return " or ".join(_what(branch) for branch in schema["anyOf"])
    kind = schema.get("type")
    if kind == "array":
        return f"list of {_what(schema['items'])}"
    if isinstance(schema.get("additionalProperties"), dict):
        name = "NAME" if "propertyNames" in schema else "KEY"
        return f"mapping of {name} to {_what(schema['additionalProperties'])}"
    if kind == "object":
        return "mapping"
    if "title" in schema:
        return str(schema["title"])
    return {"integer": "integer", "boolean": "true or false"}.get(str(kind), "string")


def _rules(schema: dict[str, Any]) -> str:
    notes = [schema["description"]] if "description" in schema else []
    if schema.get("type") == "integer":
        low, high = schema.get("minimum"), schema.get("maximum")
        if low == high and low is not None:
            notes.append(f"{low}")
        elif low is not None:
            notes.append(f"from {low} to {high}" if high is not None else f"{low} or more")
    if schema.get("type") == "array" and _rules(schema["items"]):
        notes.append("each: " + _rules(schema["items"]))
    if "maxLength" in schema:
        notes.append(f"at most {schema['maxLength']} characters")
    if "propertyNames" in schema:
        notes.append(f"names match `{schema['propertyNames']['pattern']}`")
    if schema.get("required"):
        notes.append("requires " + ", ".join(f"`{k}`" for k in schema["required"]))
    if "oneOf" in schema:
        notes.append(
            "exactly one of " + ", ".join(f"`{o['required'][0]}`" for o in schema["oneOf"])
        )
    if "not" in schema:
        pairs = schema["not"]["anyOf"]
        named = dict.fromkeys(k for pair in pairs for k in pair["required"])
        notes.append("at most one of " + ", ".join(f"`{k}`" for k in named))
    return _escaped("; ".join(notes))


def schema_command(values: dict[str, Any], command: Command) -> dict[str, Any]:
    """`procler config schema`: the JSON Schema of the config file."""
    return json_schema()
