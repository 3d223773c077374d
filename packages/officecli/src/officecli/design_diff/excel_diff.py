"""The diff of two design workbooks: sheets by name (then by content), tables, rows, cells."""

from __future__ import annotations

import gc
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from operator import attrgetter, itemgetter

from agentcli.errors import UsageError
from agentcli.report import Finding
from officecli.design_diff.align import SIMILARITY_THRESHOLD, assign_similar
from officecli.design_diff.commands import DEFAULT_MAX_CELLS
from officecli.design_diff.errors import KeyColumnError, NoHeaderError
from officecli.design_diff.normalize import label_key
from officecli.design_diff.presets import Preset
from officecli.design_diff.table_diff import TableDiff, TableOptions, find_column
from officecli.design_diff.workbook import Row, Sheet, Table, sheet_tables, workbook_grids
from officecli.fieldcheck.errors import closest
from officecli.readers.grid import column_letter


@dataclass(frozen=True)
class DiffOptions:
    table: TableOptions = field(default_factory=TableOptions)
    sheets: tuple[str, ...] = ()
    header_row: int = 0
    formulas: bool = False
    max_cells: int = DEFAULT_MAX_CELLS


@dataclass
class DiffResult:
    findings: list[Finding]
    counts: Counter[str]
    sheets: int
    tables: int


def _values(sheet: Sheet) -> Counter[str]:
    return Counter(v for v in sheet.cells.values() if v.strip())


def sheet_similarity(a: Sheet, b: Sheet) -> float:
    """Shared values over all values (multisets), for recognising a renamed sheet."""
    va, vb = _values(a), _values(b)
    union = sum((va | vb).values())
    return sum((va & vb).values()) / union if union else 0.0


def _jaccard(a: set[str], b: set[str]) -> float:
    shared = len(a & b)
    union = len(a) + len(b) - shared
    return shared / union if union else 0.0


def _column_values(table: Table, col: int) -> set[str]:
    return set(map(itemgetter(col), map(attrgetter("values"), table.rows)))


def _leading_columns(a: Table, b: Table) -> tuple[int, int]:
    """The first column of `a` whose header `b` has too, and that column in `b` (a key
    column moved or a column before it removed); else both first columns."""
    labels = [label_key(h) for h in b.headers]
    for i, header in enumerate(a.headers):
        if label_key(header) in labels:
            return i, labels.index(label_key(header))
    return 0, 0


def table_similarity(a: Table, b: Table, alone: bool = False) -> float:
    """Half the likeness of the headers, half that of the values of their first shared
    column: tables with the same header (request and response items) pair by what they
    hold, and a table whose columns moved is still itself. `alone`: the only table of
    both sheets, where the score only decides whether they pair."""
    headers = _jaccard({label_key(h) for h in a.headers}, {label_key(h) for h in b.headers})
    if not (a.rows and b.rows):
        return headers
    if headers == 1.0 and alone:  # paired whatever the values: (1 + x) / 2 >= 0.5
        return 1.0
    i, j = _leading_columns(a, b)
    return (headers + _jaccard(_column_values(a, i), _column_values(b, j))) / 2


def select_sheets(sheets: list[Sheet], names: tuple[str, ...], other: list[Sheet]) -> list[Sheet]:
    if not names:
        return sheets
    known = [s.name for s in sheets] + [s.name for s in other]
    for name in names:
        if name not in known:
            raise UsageError(
                f"--sheet {name!r}: no such sheet in either workbook",
                suggestion=f"the closest sheet is {closest(name, known)!r}",
            )
    return [s for s in sheets if s.name in names]


class WorkbookDiff:
    def __init__(self, preset: Preset, options: DiffOptions) -> None:
        self.preset = preset
        self.options = options
        self.counts: Counter[str] = Counter()
        self.findings: list[Finding] = []
        self.tables = 0

    def _sheet_finding(
        self, rule: str, message: str, sheet: str, expected: str = "", actual: str = ""
    ) -> None:
        self.counts[rule] += 1
        severity = self.preset.severity(rule)
        self.findings.append(
            Finding(rule, severity, message, sheet, expected=expected, actual=actual)
        )

    def run(self, before: str, after: str) -> DiffResult:
        opts = self.options

        from officecli.readers.xlsx.bulk import RowCache

        rows_read = RowCache()  # the two versions share most rows: each is read once

        def tables(path: str) -> list[Sheet]:
            grids = workbook_grids(path, formulas=opts.formulas, max_cells=opts.max_cells, rows_read=rows_read)  # fmt: skip
            return [
                sheet_tables(grid, self.preset, opts.header_row, opts.table.keys) for grid in grids
            ]

        old_all, new_all = tables(before), tables(after)
        rows_read.clear()  # what the tables and the diff build reuses its memory
        old = select_sheets(old_all, opts.sheets, new_all)
        new = select_sheets(new_all, opts.sheets, old_all)
        for path, sheets in ((before, old), (after, new)):
            self._require_tables(path, sheets)
        _check_ignored(opts.table.ignore, [t.headers for s in old + new for t in s.tables])
        by_name = {s.name: s for s in old}
        pairs = {j: by_name[s.name] for j, s in enumerate(new) if s.name in by_name}
        rest_old = [i for i, s in enumerate(old) if s.name not in {t.name for t in new}]
        rest_new = [j for j in range(len(new)) if j not in pairs]
        renamed = assign_similar(
            rest_old, rest_new, lambda i, j: sheet_similarity(old[i], new[j]), SIMILARITY_THRESHOLD
        )
        for i, j in renamed:
            pairs[j] = old[i]
        for j, sheet in enumerate(new):
            if j not in pairs:
                self._sheet_finding("sheet.added", f"sheet {sheet.name!r} added", sheet.name, actual=sheet.name)  # fmt: skip
                continue
            before_sheet = pairs[j]
            if before_sheet.name != sheet.name:
                self._sheet_finding("sheet.renamed", f"sheet {before_sheet.name!r} renamed to {sheet.name!r}", sheet.name, expected=before_sheet.name, actual=sheet.name)  # fmt: skip
            self._tables(before_sheet, sheet)
        matched = {s.name for s in pairs.values()}
        for sheet in old:
            if sheet.name not in matched:
                self._sheet_finding("sheet.removed", f"sheet {sheet.name!r} removed", sheet.name, expected=sheet.name)  # fmt: skip
        return DiffResult(self.findings, self.counts, len(new), self.tables)

    def _require_tables(self, path: str, sheets: list[Sheet]) -> None:
        """A sheet named by --sheet, or the only content of the workbook, must have a table."""
        for sheet in sheets:
            if not sheet.tables and (self.options.sheets or not any(s.tables for s in sheets)):
                raise NoHeaderError(
                    f"{path}: sheet {sheet.name!r} has no table with a recognisable header"
                )

    def _tables(self, old: Sheet, new: Sheet) -> None:
        """Tables paired by likeness (best first); an unpaired table is all added/removed."""
        alone = len(old.tables) == len(new.tables) == 1
        pairs = assign_similar(
            list(range(len(old.tables))),
            list(range(len(new.tables))),
            lambda i, j: table_similarity(old.tables[i], new.tables[j], alone),
            SIMILARITY_THRESHOLD,
        )
        paired = dict((j, i) for i, j in pairs)
        for j, table in enumerate(new.tables):
            before = old.tables[paired[j]] if j in paired else _like(table, old.name)
            self.findings += self._table(before, table)
        for i, table in enumerate(old.tables):
            if i not in paired.values():
                self.findings += self._table(table, _like(table, new.name))
        if old.loose and new.loose:
            self.findings += self._table(*_same_columns(old.loose, new.loose))
        elif new.loose:
            self.findings += self._table(_like(new.loose, old.name), new.loose)
        elif old.loose:
            self.findings += self._table(old.loose, _like(old.loose, new.name))

    def _table(self, old: Table, new: Table) -> list[Finding]:
        self.tables += not new.loose
        diff = TableDiff(old, new, self.preset, self.options.table)
        placed = sorted(diff.run(), key=lambda item: item[0])
        self.counts.update(diff.counts)
        return [finding for _pos, finding in placed]


def _check_ignored(labels: tuple[str, ...], headers: list[list[str]]) -> None:
    """An --ignore naming no column of any table is a typo: say which column is closest."""
    every = [h for hs in headers for h in hs]
    for label in labels:
        if not any(find_column(hs, label) >= 0 for hs in headers):
            near = closest(label, every)
            raise KeyColumnError(
                f"--ignore {label!r}: no table has such a column",
                suggestion=f"the closest existing column is {near!r}",
                data={"column": label, "closest": near},
            )


def _same_columns(old: Table, new: Table) -> tuple[Table, Table]:
    """Two versions of a sheet's loose cells over the columns either has: a value cleared
    in one version is then compared with the empty cell it left."""
    cols = sorted(set(old.columns) | set(new.columns))
    return _on_columns(old, cols), _on_columns(new, cols)


def _on_columns(table: Table, cols: list[int]) -> Table:
    if cols == table.columns:
        return table
    at = {c: i for i, c in enumerate(table.columns)}
    rows = [Row(r.number, [r.values[at[c]] if c in at else "" for c in cols], r.section) for r in table.rows]  # fmt: skip
    headers = [f"({column_letter(c)})" for c in cols]
    return Table(table.sheet, headers, cols, table.header_row, rows, table.loose, table.span)


def _like(shape: Table, sheet: str) -> Table:
    """An empty table with the same header, standing for a table one version lacks."""
    return Table(sheet, list(shape.headers), list(shape.columns), shape.header_row, [], shape.loose)


@contextmanager
def _no_cycle_collection() -> Iterator[None]:
    """The diff builds hundreds of thousands of lists and tuples that never form cycles;
    the cyclic collector would walk them again and again (a sixth of the run) to find
    nothing. Reference counting still frees them; collection resumes afterwards."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def diff_workbooks(before: str, after: str, preset: Preset, options: DiffOptions) -> DiffResult:
    with _no_cycle_collection():
        return WorkbookDiff(preset, options).run(before, after)
