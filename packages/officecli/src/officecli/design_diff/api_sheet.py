"""An Excel API definition as endpoints: method and path from labelled cells, fields from
the item table (section column or section rows; no section: the success response)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from officecli.design_diff.normalize import as_number, label_key
from officecli.design_diff.oas import Field
from officecli.design_diff.presets import Preset, SpecHints
from officecli.design_diff.workbook import Row, Sheet, Table
from officecli.readers.grid import cell_ref

_ENUM_SPLIT = re.compile(r"[,、，|/\n]+")
_PATH = re.compile(r"(?:[a-z]+://[^/]+)?(/\S*)", re.IGNORECASE)


@dataclass
class ExcelField:
    field: Field
    cell: str  # Sheet!B12 of the item's name
    roles: frozenset[str]  # the columns the item table has: only those are compared


@dataclass
class Endpoint:
    sheet: str
    method: str
    path: str
    cell: str  # Sheet!B3 of the method's value
    fields: dict[tuple[str, str], ExcelField] = field(default_factory=dict)


def _labelled(sheet: Sheet, labels: tuple[str, ...], body: set[int]) -> tuple[str, str]:
    """(value, cell) of the first cell right of a cell reading one of `labels`."""
    wanted = {label_key(x) for x in labels}
    for (r, c), text in sorted(sheet.cells.items()):
        if r in body or label_key(text) not in wanted:
            continue
        right = sorted((cc, v) for (rr, cc), v in sheet.cells.items() if rr == r and cc > c)
        for cc, value in right:
            if value.strip():
                return value.strip(), f"{sheet.name}!{cell_ref(r, cc)}"
    return "", ""


def json_type(text: str, hints: SpecHints) -> str:
    """The JSON Schema type a workbook's type label stands for (lower-cased text if none)."""
    key = label_key(text.split("(")[0])
    for kind, labels in hints.types.items():
        if key in {label_key(x) for x in labels}:
            return kind
    return key


class _ItemReader:
    def __init__(self, table: Table, preset: Preset) -> None:
        self.table = table
        self.hints = preset.spec
        roles = [preset.role_of(h) for h in table.headers]
        self.col = {role: i for i, role in reversed(list(enumerate(roles))) if role}
        self.parents: list[str] = []  # names of the enclosing items, by level (1 = top)
        self.place = ""  # the section the parents belong to

    def full_name(self, name: str, row: Row) -> str:
        """`user.name` for an item of level 2 under `user` (a `階層`/`Level` column), or the
        name as written (already dotted, or without levels)."""
        level = as_number(self.value(row, "level") or "x")
        if level is None or level < 1:
            return name
        depth = int(level)
        self.parents = [*self.parents[: depth - 1], name]
        return ".".join(self.parents[-depth:]) if len(self.parents) >= depth else name

    def value(self, row: Row, role: str) -> str:
        return row.values[self.col[role]].strip() if role in self.col else ""

    def read(self, row: Row) -> ExcelField | None:
        name = self.value(row, "name")
        section = self.value(row, "section") or row.section
        place = self.hints.section_place(section) if section else "response"
        if not name or not place:
            return None
        if place != self.place:
            self.parents, self.place = [], place
        name = self.full_name(name, row)
        length = as_number(self.value(row, "length").split(",")[0] or "x")
        enum_text = self.value(row, "enum")
        item = Field(
            name=name,
            place=place,
            type=json_type(self.value(row, "type"), self.hints),
            required=label_key(self.value(row, "required")) in self.hints.required_values,
            max_length=int(length) if length is not None else None,
            enum=tuple(v.strip() for v in _ENUM_SPLIT.split(enum_text) if v.strip())
            if enum_text
            else None,
            format=self.value(row, "format").lower(),
        )
        cell = cell_ref(row.number, self.table.columns[self.col["name"]])
        return ExcelField(item, f"{self.table.sheet}!{cell}", frozenset(self.col))


def read_endpoint(sheet: Sheet, preset: Preset) -> Endpoint | None:
    """The endpoint a sheet describes, or None when it has no method and path."""
    items = [t for t in sheet.tables if any(preset.role_of(h) == "name" for h in t.headers)]
    body = {row.number for t in items for row in t.rows} | {t.header_row for t in items}
    method, method_cell = _labelled(sheet, preset.spec.method_labels, body)
    raw_path, _cell = _labelled(sheet, preset.spec.path_labels, body)
    found = _PATH.search(raw_path)
    if not method or not found:
        return None
    endpoint = Endpoint(sheet.name, method.lower(), found[1], method_cell)
    for table in items:
        reader = _ItemReader(table, preset)
        for row in table.rows:
            item = reader.read(row)
            if item is not None:
                endpoint.fields.setdefault((item.field.place, item.field.name), item)
    return endpoint
