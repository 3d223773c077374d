"""An Excel API definition checked against an OpenAPI file, both ways, per endpoint."""

from __future__ import annotations

import re
from pathlib import Path

from agentcli.report import SEVERITIES, Finding, Severity
from officecli.design_diff.api_sheet import Endpoint, ExcelField, read_endpoint
from officecli.design_diff.errors import ApiSheetError, PresetError
from officecli.design_diff.oas import Field, Operation, load_operations
from officecli.design_diff.presets import Preset
from officecli.design_diff.rules import SPEC_RULES, SPEC_SEVERITY
from officecli.design_diff.workbook import Sheet
from officecli.fieldcheck.errors import RulesFileError, closest
from officecli.fieldcheck.rules_yaml import position, read_yaml
from officecli.readers.paths import not_a_file

_PARAM = re.compile(r"\{[^}]*\}")


def path_shape(path: str) -> str:
    """'/users/{id}/' -> '/users/{}': path-parameter names do not matter."""
    return _PARAM.sub("{}", path.rstrip("/") or "/")


def load_severities(path: str | None) -> dict[str, Severity]:
    """The default severities, overridden by a YAML mapping rule id -> severity."""
    out = dict(SPEC_SEVERITY)
    if path is None:
        return out
    problem = not_a_file(path)
    if problem:
        raise PresetError(f"--severity-file {path!r}: {problem}")
    try:
        doc = read_yaml(Path(path))
    except RulesFileError as exc:
        raise PresetError(exc.message, data=exc.data) from None
    if not isinstance(doc, dict):
        raise PresetError(f"{path}: must be a mapping of rule id to severity")
    for rule, severity in doc.items():
        line, col = position(doc, rule, rule in SPEC_RULES)
        if rule not in SPEC_RULES:
            raise PresetError(
                f"{path}:{line}:{col}: unknown rule id {rule!r} "
                f"(did you mean {closest(str(rule), list(SPEC_RULES))!r}?)"
            )
        if severity not in SEVERITIES:
            raise PresetError(f"{path}:{line}:{col}: severity must be one of {SEVERITIES}")
        out[rule] = severity
    return out


class SpecCheck:
    def __init__(self, severities: dict[str, Severity]) -> None:
        self.severities = severities
        self.findings: list[Finding] = []

    def put(
        self,
        rule: str,
        message: str,
        location: str,
        *,
        field: str,
        suggestion: str,
        expected: str = "",
        actual: str = "",
    ) -> None:
        self.findings.append(
            Finding(
                rule, self.severities[rule], message, location, field, expected, actual, suggestion
            )
        )

    def endpoints(self, excel: list[Endpoint], oas: list[Operation], bases: list[str]) -> None:
        by_shape = {(op.method, path_shape(op.path)): op for op in oas}
        for base in bases:
            by_shape |= {(op.method, path_shape(base + op.path)): op for op in oas}
        seen: set[int] = set()
        for endpoint in excel:
            op = by_shape.get((endpoint.method, path_shape(endpoint.path)))
            label = f"{endpoint.method.upper()} {endpoint.path}"
            if op is None:
                self.put("spec.endpoint.missing-in-oas", f"{label} is not in the OpenAPI file", endpoint.cell, field="endpoint", expected=label, suggestion="add the operation to the OpenAPI file or fix the method/path")  # fmt: skip
                continue
            seen.add(id(op))
            self.fields(endpoint, op)
        for op in oas:
            if id(op) not in seen:
                label = f"{op.method.upper()} {op.path}"
                self.put("spec.endpoint.missing-in-excel", f"{label} has no sheet in the workbook", op.position, field="endpoint", actual=label, suggestion=f"describe it in a sheet (defined at {op.position})")  # fmt: skip

    def fields(self, endpoint: Endpoint, op: Operation) -> None:
        oas_keys = {(key[0], _fold(*key)): key for key in op.fields}
        # path parameters pair by their position in the path, whatever their names
        renamed = dict(zip(_PARAM.findall(endpoint.path), _PARAM.findall(op.path), strict=False))
        matched: set[tuple[str, str]] = set()
        for (place, name), item in endpoint.fields.items():
            if place == "path":
                name = renamed.get("{" + name + "}", "{" + name + "}")[1:-1]
            key = oas_keys.get((place, _fold(place, name)))
            if key is None:
                self.put("spec.property.missing-in-oas", f"{place} {name} is not in {op.method.upper()} {op.path}", item.cell, field=name, expected=place, suggestion=f"add it to the operation at {op.position}, or remove the row")  # fmt: skip
                continue
            matched.add(key)
            self.compare(item, op.fields[key])
        for key, prop in op.fields.items():
            parent = prop.name.rpartition(".")[0]
            if key in matched or (parent and (prop.place, parent) not in matched):
                continue  # a missing parent is reported once, not with each child
            self.put("spec.property.missing-in-excel", f"{prop.place} {prop.name} of {op.method.upper()} {op.path} is not in the sheet", endpoint.cell, field=prop.name, actual=prop.place, suggestion=f"add a row for it (defined at {prop.position})")  # fmt: skip

    def compare(self, item: ExcelField, prop: Field) -> None:
        ex = item.field
        has = item.roles
        checks: list[tuple[str, str, str, bool]] = [
            ("type-mismatch", ex.type, prop.type, "type" in has and bool(ex.type and prop.type and ex.type != prop.type)),
            ("required-mismatch", _yes(ex.required), _yes(prop.required), "required" in has and ex.required != prop.required),
            ("max-length-mismatch", _text(ex.max_length), _text(prop.max_length), "length" in has and prop.type == "string" and ex.max_length != prop.max_length),
            ("enum-mismatch", _enum(ex.enum), _enum(prop.enum), "enum" in has and set(ex.enum or ()) != set(prop.enum or ())),
            ("format-mismatch", ex.format, prop.format, "format" in has and ex.format != prop.format.lower()),
        ]  # fmt: skip
        for kind, expected, actual, differs in checks:
            if differs:
                rule = f"spec.property.{kind}"
                what = kind.removesuffix("-mismatch").replace("-", " ")
                self.put(rule, f"{ex.place} {ex.name}: {what} {expected or '(none)'} in the sheet, {actual or '(none)'} in the OpenAPI file", item.cell, field=ex.name, expected=expected, actual=actual, suggestion=f"align the sheet with {prop.position} (or the other way round)")  # fmt: skip


def _fold(place: str, name: str) -> str:
    return name.casefold() if place == "header" else name


def _yes(flag: bool) -> str:
    return "required" if flag else "optional"


def _text(value: int | None) -> str:
    return "" if value is None else str(value)


def _enum(values: tuple[str, ...] | None) -> str:
    return ", ".join(values) if values is not None else ""


def check_spec(
    sheets: list[Sheet], excel_path: str, oas: str, preset: Preset, severities: dict[str, Severity]
) -> tuple[list[Finding], int, int]:
    """Findings, and the counts of endpoints in the workbook and operations in the file."""
    endpoints = [e for e in (read_endpoint(s, preset) for s in sheets) if e is not None]
    if not endpoints:
        raise ApiSheetError(f"{excel_path}: no sheet has a method and a path")
    operations, bases = load_operations(oas)
    check = SpecCheck(severities)
    check.endpoints(endpoints, operations, bases)
    return check.findings, len(endpoints), len(operations)
