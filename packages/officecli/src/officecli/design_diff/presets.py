"""Presets: YAML data files naming a kind of design table's columns, keys and severities.

A preset says how header labels are recognised (`columns`: role -> labels), which roles
form the row key (`keys`, optionally within a `scope` column or section rows), which are
ignored, which are graded by direction (`grading`: sizes, types, required marks), and the
severity of each kind of change. `spec` (API definitions only) tells the OpenAPI check how
to read endpoints, sections, types and required marks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agentcli.errors import UsageError
from agentcli.report import SEVERITIES, Severity
from officecli.design_diff.errors import PresetError
from officecli.design_diff.grading import Direction, Grading, ladder_rungs
from officecli.design_diff.normalize import label_key
from officecli.design_diff.rules import EXCEL_RULES
from officecli.fieldcheck.errors import RulesFileError, closest
from officecli.fieldcheck.rules_yaml import plain, position, read_yaml
from officecli.readers.paths import not_a_file

PRESET_NAMES = ("api", "table", "screen", "generic")
DIFF_RULES = tuple(EXCEL_RULES)
_TOP = ("name", "description", "columns", "keys", "scope", "section_rows", "ignore")
_TOP_ALL = (*_TOP, "severity", "spec", "grading")
_SEVERITY_KEYS = ("default", "rules", "changed", "narrowed", "widened", "added")
_BY_ROLE = ("changed", "narrowed", "widened")  # severity by the role of a changed cell
_GRADING_KEYS = ("sizes", "types", "required", "nullable", "marks", "ladders")
_ADDED_KEYS = ("column", "optional", "severity")
_SPEC_KEYS = ("method_labels", "path_labels", "sections", "required_values", "types")
SPEC_SECTIONS = ("path", "query", "header", "request", "response")


@dataclass(frozen=True)
class AddedRule:
    """An added row whose `column` value is one of `optional` gets `severity`."""

    column: str
    optional: frozenset[str]
    severity: Severity


@dataclass(frozen=True)
class SpecHints:
    method_labels: tuple[str, ...] = ()
    path_labels: tuple[str, ...] = ()
    sections: dict[str, tuple[str, ...]] = field(default_factory=dict)
    required_values: frozenset[str] = frozenset()
    types: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def section_place(self, text: str) -> str:
        """path/query/header/request/response for a section label ('' when unknown); the
        longest label the text starts with wins (`レスポンス（正常時）` is a response)."""
        key = label_key(text)
        best, size = "", 0
        for place, labels in self.sections.items():
            for label in labels:
                lk = label_key(label)
                if key.startswith(lk) and len(lk) > size:
                    best, size = place, len(lk)
        return best


@dataclass(frozen=True)
class Preset:
    name: str
    description: str
    source: str
    columns: dict[str, tuple[str, ...]]
    keys: tuple[str, ...] = ()
    scope: str = ""
    section_rows: bool = False
    ignore: tuple[str, ...] = ()
    default_severity: Severity = "warning"
    rule_severity: dict[str, Severity] = field(default_factory=dict)
    changed_severity: dict[str, Severity] = field(default_factory=dict)
    narrowed_severity: dict[str, Severity] = field(default_factory=dict)
    widened_severity: dict[str, Severity] = field(default_factory=dict)
    added: AddedRule | None = None
    spec: SpecHints = field(default_factory=SpecHints)
    grading: Grading = field(default_factory=Grading)

    def role_of(self, header: str) -> str:
        """The role a header label plays ('' when none); a two-level header by either part."""
        keys = {label_key(header), label_key(header.rpartition("/")[2])}
        for role, labels in self.columns.items():
            if any(label_key(label) in keys for label in labels):
                return role
        return ""

    def severity(self, rule_id: str, role: str = "", direction: Direction = "") -> Severity:
        """A rule's severity; a changed cell's by its role, and by its direction when the
        preset grades that role's widening and narrowing apart."""
        if rule_id == "cell.changed":
            graded = {"narrowed": self.narrowed_severity, "widened": self.widened_severity}
            if direction and role in graded[direction]:
                return graded[direction][role]
            if role in self.changed_severity:
                return self.changed_severity[role]
        return self.rule_severity.get(rule_id, self.default_severity)


class _Check:
    def __init__(self, label: str) -> None:
        self.label = label

    def fail(
        self, message: str, node: Any = None, key: Any = None, value: bool = True
    ) -> PresetError:
        line, col = position(node, key, value)
        where = f"{self.label}:{line}:{col}" if line else self.label
        return PresetError(
            f"{where}: {message}", data={"file": self.label, "line": line, "column": col}
        )

    def mapping(self, node: Any, what: str, parent: Any, key: Any) -> dict[Any, Any]:
        if not isinstance(node, dict):
            raise self.fail(f"{what} must be a mapping", parent, key)
        for k in node:
            if not isinstance(k, str):
                raise self.fail(f"{what}: keys must be text", node, k, value=False)
        return node

    def known(self, node: dict[Any, Any], allowed: tuple[str, ...], what: str) -> None:
        for k in node:
            if k not in allowed:
                near = closest(str(k), allowed)
                raise self.fail(
                    f"unknown key {k!r} in {what} (did you mean {near!r}?)", node, k, value=False
                )

    def texts(self, parent: Any, key: Any, what: str) -> tuple[str, ...]:
        node = parent[key]
        if not isinstance(node, list) or not all(isinstance(v, str | int) for v in node):
            raise self.fail(f"{what} must be a list of labels", parent, key)
        return tuple(str(v) for v in node)

    def severity(self, parent: Any, key: Any) -> Severity:
        value = parent[key]
        if value not in SEVERITIES:
            raise self.fail(f"severity must be one of {', '.join(SEVERITIES)}", parent, key)
        return value  # type: ignore[no-any-return]

    def role(self, parent: Any, key: Any, roles: dict[str, Any]) -> str:
        value = parent[key]
        if value not in roles:
            raise self.fail(f"{value!r} is not a role of `columns`", parent, key)
        return str(value)


def _severities(ck: _Check, top: dict[Any, Any], roles: dict[str, Any]) -> dict[str, Any]:
    if "severity" not in top:
        return {}
    sev = ck.mapping(top["severity"], "severity", top, "severity")
    ck.known(sev, _SEVERITY_KEYS, "severity")
    out: dict[str, Any] = {}
    if "default" in sev:
        out["default_severity"] = ck.severity(sev, "default")
    rules = ck.mapping(sev.get("rules", {}), "severity.rules", sev, "rules")
    ck.known(rules, DIFF_RULES, "severity.rules")
    out["rule_severity"] = {k: ck.severity(rules, k) for k in rules}
    for key in _BY_ROLE:
        by_role = ck.mapping(sev.get(key, {}), f"severity.{key}", sev, key)
        for k in by_role:
            if k not in roles:
                raise ck.fail(f"{k!r} is not a role of `columns`", by_role, k, value=False)
        out[f"{key}_severity"] = {k: ck.severity(by_role, k) for k in by_role}
    if "added" in sev:
        added = ck.mapping(sev["added"], "severity.added", sev, "added")
        ck.known(added, _ADDED_KEYS, "severity.added")
        for k in _ADDED_KEYS:
            if k not in added:
                raise ck.fail(f"severity.added needs `{k}`", sev, "added")
        optional = frozenset(label_key(v) for v in ck.texts(added, "optional", "optional"))
        out["added"] = AddedRule(
            ck.role(added, "column", roles), optional, ck.severity(added, "severity")
        )
    return out


def _spec(ck: _Check, top: dict[Any, Any]) -> SpecHints:
    if "spec" not in top:
        return SpecHints()
    spec = ck.mapping(top["spec"], "spec", top, "spec")
    ck.known(spec, _SPEC_KEYS, "spec")
    sections = ck.mapping(spec.get("sections", {}), "spec.sections", spec, "sections")
    ck.known(sections, SPEC_SECTIONS, "spec.sections")
    types = ck.mapping(spec.get("types", {}), "spec.types", spec, "types")
    ck.known(types, ("string", "integer", "number", "boolean", "array", "object"), "spec.types")

    def labels(key: str) -> tuple[str, ...]:
        return ck.texts(spec, key, f"spec.{key}") if key in spec else ()

    return SpecHints(
        method_labels=labels("method_labels"),
        path_labels=labels("path_labels"),
        sections={k: ck.texts(sections, k, f"spec.sections.{k}") for k in sections},
        required_values=frozenset(label_key(v) for v in labels("required_values")),
        types={k: ck.texts(types, k, f"spec.types.{k}") for k in types},
    )


def _grading(ck: _Check, top: dict[Any, Any], roles: dict[str, Any]) -> Grading:
    if "grading" not in top:
        return Grading()
    node = ck.mapping(top["grading"], "grading", top, "grading")
    ck.known(node, _GRADING_KEYS, "grading")

    def role_set(key: str) -> frozenset[str]:
        if key not in node:
            return frozenset()
        for i in range(len(ck.texts(node, key, f"grading.{key}"))):
            ck.role(node[key], i, roles)
        return frozenset(str(v) for v in node[key])

    ladders = node.get("ladders", [])
    if not isinstance(ladders, list) or not all(isinstance(x, list) for x in ladders):
        raise ck.fail("grading.ladders must be a list of ladders (lists of types)", node, "ladders")
    rungs: list[list[tuple[str, ...]]] = []
    for ladder in ladders:
        for i, rung in enumerate(ladder):
            if not isinstance(rung, str | list):
                raise ck.fail("a rung is a type or a list of synonyms", ladder, i)
        rungs.append([ck.texts(ladder, i, "a rung") if isinstance(r, list) else (r,) for i, r in enumerate(ladder)])  # fmt: skip
    marks = ck.texts(node, "marks", "grading.marks") if "marks" in node else ()
    return Grading(
        sizes=role_set("sizes"),
        types=role_set("types"),
        required=role_set("required"),
        nullable=role_set("nullable"),
        marks=frozenset(label_key(m) for m in marks),
        rungs=ladder_rungs(rungs),
    )


def parse_preset(doc: Any, label: str) -> Preset:
    """Check a preset's YAML tree (ruamel, with positions) and build the Preset."""
    ck = _Check(label)
    top = ck.mapping(doc, "a preset", None, None)
    ck.known(top, _TOP_ALL, "the preset")
    if "columns" not in top:
        raise ck.fail("a preset needs `columns` (role: [header labels])", top)
    cols = ck.mapping(top["columns"], "columns", top, "columns")
    columns = {k: ck.texts(cols, k, f"columns.{k}") for k in cols}
    keys = ck.texts(top, "keys", "keys") if "keys" in top else ()
    for i in range(len(keys)):
        ck.role(top["keys"], i, columns)
    ignore = ck.texts(top, "ignore", "ignore") if "ignore" in top else ()
    for i in range(len(ignore)):
        ck.role(top["ignore"], i, columns)
    scope = ck.role(top, "scope", columns) if "scope" in top else ""
    section_rows = top.get("section_rows", False)
    if not isinstance(section_rows, bool):
        raise ck.fail("section_rows must be true or false", top, "section_rows")
    return Preset(
        name=str(plain(top.get("name", Path(label).stem))),
        description=str(plain(top.get("description", ""))),
        source=label,
        columns=columns,
        keys=keys,
        scope=scope,
        section_rows=section_rows,
        ignore=ignore,
        spec=_spec(ck, top),
        grading=_grading(ck, top, columns),
        **_severities(ck, top, columns),
    )


def _read(path: Path, label: str) -> Any:
    try:
        return read_yaml(path)
    except RulesFileError as exc:
        raise PresetError(exc.message.replace(path.name, label, 1), data=exc.data) from None


def builtin_path(name: str) -> Path:
    """A shipped preset: a file beside this module (importlib.resources costs 20 ms)."""
    return Path(__file__).with_name("presets") / f"{name}.yaml"


def builtin_json(name: str) -> str:
    """A shipped preset's YAML as plain JSON: what load_preset reads, the YAML reader left
    unloaded (its import and parse were a tenth of a diff of two 20,000-row workbooks).
    `make docs` writes it beside the YAML; a test fails when it is stale."""
    import json

    path = builtin_path(name)
    return json.dumps(plain(_read(path, path.name)), ensure_ascii=False, indent=1) + "\n"


def load_preset(name: str | None, preset_file: str | None) -> Preset:
    """--preset-file wins over --type; the default is `generic`."""
    if preset_file is not None:
        problem = not_a_file(preset_file)
        if problem:
            raise PresetError(f"--preset-file {preset_file!r}: {problem}")
        return parse_preset(_read(Path(preset_file), preset_file), preset_file)
    name = name or "generic"
    if name not in PRESET_NAMES:
        raise UsageError(f"unknown preset {name!r}", suggestion=f"use one of {PRESET_NAMES}")
    import json

    path = builtin_path(name)
    return parse_preset(json.loads(path.with_suffix(".json").read_bytes()), path.name)
