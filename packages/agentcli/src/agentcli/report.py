"""The findings report of checking and converting tools, and its four renderers.

Plain classes, not dataclasses, and csv/html/json loaded by the renderers that use them:
every report command pays for this module's imports at start-up.
"""

from __future__ import annotations

from pathlib import Path

from agentcli.envelope import SCHEMA_VERSION, dumps, write_stdout

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any, Literal

    Severity = Literal["error", "warning", "info"]
else:
    Severity = str  # the Literal for mypy; typing stays unloaded

SEVERITIES: tuple[Severity, ...] = ("error", "warning", "info")
FINDING_KEYS = (
    "rule_id",
    "severity",
    "message",
    "location",
    "field",
    "expected",
    "actual",
    "suggestion",
)
CSV_COLUMNS = (
    "severity",
    "rule_id",
    "location",
    "field",
    "message",
    "expected",
    "actual",
    "suggestion",
)
MetaValue = str | int | float | bool


class Finding:
    """One observation; every key is always present, empty string when it does not apply.
    Immutable, compared by its values (and hashed by the keys', not `details`).

    `details` holds a tool's own facts about the finding, by name (`direction: narrowed`),
    for a program to act on without parsing the message; rendered in JSON only, and only
    when there are some (the message says the same in words).

    `record` names the record of a tabular input a finding is about, for a program to act
    on without parsing `location`: `{"line": 18, "key": {"id": "E0017"}}` (`key` when the
    caller named key columns; `file` when the record is in another file than the input).
    JSON only too: the table renderers show `location`, which says the same.
    """

    __slots__ = (*FINDING_KEYS, "details", "record")
    rule_id: str
    severity: Severity
    message: str
    location: str
    field: str
    expected: str
    actual: str
    suggestion: str
    details: Mapping[str, str]
    record: Any  # a mapping or None; typed Any so that callers may still pass **parts: str

    def __init__(
        self,
        rule_id: str,
        severity: Severity,
        message: str,
        location: str = "",
        field: str = "",
        expected: str = "",
        actual: str = "",
        suggestion: str = "",
        details: Mapping[str, str] | None = None,
        record: Any = None,
    ) -> None:
        values = (rule_id, severity, message, location, field, expected, actual, suggestion)
        for key, value in zip(FINDING_KEYS, values, strict=True):
            object.__setattr__(self, key, value)
        object.__setattr__(self, "details", {} if details is None else details)
        object.__setattr__(self, "record", record)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a Finding cannot be changed (tried to set {name})")

    def _values(self) -> tuple[str, ...]:
        return tuple(getattr(self, key) for key in FINDING_KEYS)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Finding)
            and self._values() == other._values()
            and dict(self.details) == dict(other.details)
            and self.record == other.record
        )

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={getattr(self, k)!r}" for k in FINDING_KEYS)
        return f"Finding({shown}, details={dict(self.details)!r}, record={self.record!r})"

    def __reduce__(self) -> tuple[type[Finding], tuple[Any, ...]]:
        return Finding, (*self._values(), dict(self.details), self.record)

    def to_dict(self) -> dict[str, str]:
        return {k: str(getattr(self, k)) for k in FINDING_KEYS}

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = self.to_dict()
        if self.details:
            out["details"] = dict(self.details)
        if self.record is not None:
            out["record"] = dict(self.record)
        return out


class Report:
    """A tool's findings in processing order, with counts derived from them."""

    def __init__(
        self,
        tool: str,
        tool_version: str,
        title: str,
        meta: dict[str, MetaValue] | None = None,
        findings: list[Finding] | None = None,
    ) -> None:
        self.tool = tool
        self.tool_version = tool_version
        self.title = title
        self.meta: dict[str, MetaValue] = {} if meta is None else meta
        self.findings: list[Finding] = [] if findings is None else findings

    def add(self, finding: Finding) -> None:
        self.findings.append(finding)

    @property
    def summary(self) -> dict[str, int]:
        counts: dict[str, int] = {s: 0 for s in SEVERITIES}
        for f in self.findings:
            counts[f.severity] += 1
        return counts

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema_version": SCHEMA_VERSION,
            "tool": self.tool,
            "tool_version": self.tool_version,
            "title": self.title,
            "meta": dict(self.meta),
            "summary": self.summary,
            "findings": [f.to_json() for f in self.findings],
        }


def report_schema() -> dict[str, Any]:
    """The JSON Schema every report validates against (shipped in the package)."""
    import json
    from importlib import resources  # off the path of every report command (about 20 ms)

    text = resources.files("agentcli").joinpath("schemas/report.schema.json").read_text("utf-8")
    return json.loads(text)  # type: ignore[no-any-return]


def render_json(report: Report) -> str:
    return dumps(report.to_dict(), pretty=True) + "\n"


def _no_html(text: str) -> str:
    """Text from files and rules as Markdown that shows it: no tag can open (`<script>`,
    `<img onerror=...>`, `</td>`) nor an entity be spelled, so a viewer that renders HTML
    in Markdown shows them instead of running them. A `<` or `&` that opens nothing
    (`<= 30`, `R & D`) is left as written."""
    import re  # loaded by the renderer that uses it, as csv and html are

    text = re.sub(r"&(?=[#A-Za-z])", "&amp;", text)
    return re.sub(r"<(?=[A-Za-z/!?])", "&lt;", text)


def _md_text(text: object) -> str:
    return _no_html(str(text)).replace("\r", " ").replace("\n", " ")


def _md_cell(text: str) -> str:
    return _no_html(text).replace("|", "\\|").replace("\r", " ").replace("\n", "<br>")


def render_markdown(report: Report) -> str:
    s = report.summary
    lines = [f"# {_md_text(report.title)}", ""]
    for key, value in report.meta.items():
        lines.append(f"- **{_md_text(key)}**: {_md_text(value)}")
    lines += [
        "",
        f"**Summary**: {s['error']} error(s), {s['warning']} warning(s), {s['info']} info",
        "",
    ]
    if report.findings:
        lines.append("| " + " | ".join(CSV_COLUMNS) + " |")
        lines.append("|" + "---|" * len(CSV_COLUMNS))
        for f in report.findings:
            row = f.to_dict()
            lines.append("| " + " | ".join(_md_cell(row[c]) for c in CSV_COLUMNS) + " |")
    else:
        lines.append("No findings.")
    return "\n".join(lines) + "\n"


def render_html(report: Report) -> str:
    import html

    e = html.escape
    s = report.summary
    meta = "".join(f"<dt>{e(str(k))}</dt><dd>{e(str(v))}</dd>" for k, v in report.meta.items())
    head = "".join(f"<th>{e(c)}</th>" for c in CSV_COLUMNS)
    rows = "".join(
        '<tr class="{}">{}</tr>'.format(
            e(f.severity), "".join(f"<td>{e(f.to_dict()[c])}</td>" for c in CSV_COLUMNS)
        )
        for f in report.findings
    )
    return (
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8">'
        f"<title>{e(report.title)}</title></head><body>\n"
        f"<h1>{e(report.title)}</h1>\n<dl>{meta}</dl>\n"
        f"<p>{s['error']} error(s), {s['warning']} warning(s), {s['info']} info</p>\n"
        f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>\n"
        "</body></html>\n"
    )


FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")  # OWASP: CSV injection


def _csv_cell(text: str) -> str:
    """A cell a spreadsheet shows as text: one starting like a formula (`=cmd|...`) gets a
    leading single quote (OWASP's rule), so opening the report never runs it. A CR inside
    becomes LF: the writer quotes a field holding its line terminator (LF), not a CR, and
    a bare CR would end the row for most readers."""
    if text.startswith(FORMULA_PREFIXES):
        text = "'" + text
    return text.replace("\r\n", "\n").replace("\r", "\n")


def render_csv(report: Report) -> str:
    import csv
    import io

    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for f in report.findings:
        row = f.to_dict()
        writer.writerow([_csv_cell(row[c]) for c in CSV_COLUMNS])
    return buf.getvalue()


RENDERERS = {
    "json": render_json,
    "markdown": render_markdown,
    "html": render_html,
    "csv": render_csv,
}


def write_report(report: Report, fmt: str, output: str | Path | None) -> None:
    """Render; write to `output` as UTF-8 without BOM with LF endings, or to stdout."""
    text = RENDERERS[fmt](report)
    if output:
        from agentcli.outputs import write_text_atomic

        write_text_atomic(Path(output), text)
    else:
        write_stdout(text)
