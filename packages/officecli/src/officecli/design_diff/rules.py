"""Every rule id design-diff reports, with what it means (shown in capabilities)."""

from __future__ import annotations

TYPE_CHECKING = False  # imported by the declarations: `typing` stays off the start-up path
if TYPE_CHECKING:
    from agentcli.report import Severity

EXCEL_RULES = {
    "sheet.added": "a sheet only in the after workbook",
    "sheet.removed": "a sheet only in the before workbook",
    "sheet.renamed": "a sheet whose name changed (recognised by its content)",
    "row.added": "a row whose key is only in the after table",
    "row.removed": "a row whose key is only in the before table",
    "row.moved": "a row outside the longest run kept in order (its cells are compared apart)",
    "row.renamed": "a row whose key changed: a removed and an added row at the same place with their other values (nearly) equal; details: old_key, new_key, also_changed",
    "cell.changed": "one changed cell of a row matched on its key (old value in expected); details: direction widened|narrowed where the preset grades the column, change: whitespace only",
    "column.added": "a column only in the after table",
    "column.removed": "a column only in the before table",
    "column.renamed": "a column whose header changed (recognised by role or content)",
    "column.moved": "a column outside the longest run kept in order",
    "key.duplicate": "a key repeated in one table; rows compared by (key, occurrence)",
    "key.blank": "a row without a key in the after table; matched by content similarity",
}
SPEC_RULES = {
    "spec.endpoint.missing-in-oas": "an endpoint of the workbook absent from the OpenAPI file",
    "spec.endpoint.missing-in-excel": "an OpenAPI operation no sheet of the workbook describes",
    "spec.property.missing-in-oas": "an item of the workbook absent from the operation",
    "spec.property.missing-in-excel": "a parameter or property the workbook does not list",
    "spec.property.type-mismatch": "the item's type differs from the schema's type",
    "spec.property.required-mismatch": "required in one, optional in the other",
    "spec.property.max-length-mismatch": "the item's length differs from maxLength",
    "spec.property.enum-mismatch": "the allowed values differ from the schema's enum",
    "spec.property.format-mismatch": "the item's format differs from the schema's format",
}
SPEC_SEVERITY: dict[str, Severity] = {
    "spec.endpoint.missing-in-oas": "error",
    "spec.endpoint.missing-in-excel": "warning",
    "spec.property.missing-in-oas": "error",
    "spec.property.missing-in-excel": "warning",
    "spec.property.type-mismatch": "error",
    "spec.property.required-mismatch": "error",
    "spec.property.max-length-mismatch": "warning",
    "spec.property.enum-mismatch": "warning",
    "spec.property.format-mismatch": "warning",
}


def rules_schema(rules: dict[str, str]) -> dict[str, object]:
    """The report schema reference plus the rule ids this command can report."""
    return {
        "$ref": "agentcli report schema (schema_version, tool, meta, summary, findings)",
        "rule_ids": dict(rules),
    }
