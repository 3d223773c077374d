"""The diff of two versions of one table: columns, then rows joined on their key."""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Hashable, Iterable, Iterator
from dataclasses import dataclass, field
from itertools import compress
from operator import itemgetter, ne
from typing import Any

from agentcli.report import SEVERITIES, Finding, Severity
from officecli.design_diff.align import Alignment, align, similarity
from officecli.design_diff.columns import ColumnMatch, header_pairs, match_columns
from officecli.design_diff.errors import KeyColumnError
from officecli.design_diff.normalize import Normaliser, NormalRows, label_key
from officecli.design_diff.presets import Preset
from officecli.design_diff.renames import renamed_rows
from officecli.design_diff.workbook import Row, Table
from officecli.fieldcheck.errors import closest
from officecli.readers.grid import cell_ref, column_letter

CONTENT_SAMPLE = 500  # matched rows looked at to recognise a renamed column
Placed = tuple[tuple[float, int], Finding]  # (new-file row position, kind order), finding


@dataclass(frozen=True)
class TableOptions:
    keys: tuple[str, ...] = ()  # --key header labels
    ignore: tuple[str, ...] = ()  # --ignore header labels
    normaliser: Normaliser = field(default_factory=Normaliser)
    renamed_rows: bool = True  # a removed and an added row alike at one place: one rename


def find_column(headers: list[str], label: str) -> int:
    """Index of the header reading `label` (either part of a two-level header), or -1."""
    want = label_key(label)
    for i, h in enumerate(headers):
        if label_key(h) == want or label_key(h.rpartition("/")[2]) == want:
            return i
    return -1


class _Side:
    """One version of the table with what the diff needs about it."""

    def __init__(self, table: Table, preset: Preset, opts: TableOptions) -> None:
        self.table = table
        self.preset = preset
        self.roles = [preset.role_of(h) for h in table.headers]
        ignored = {label_key(x) for x in opts.ignore}
        self.ignored = {
            i
            for i, (h, role) in enumerate(zip(table.headers, self.roles, strict=True))
            if role in preset.ignore or label_key(h) in ignored
        }
        self.raw = [row.values for row in table.rows]
        self.norm = NormalRows(self.raw, opts.normaliser)
        # no scope: -1 (a preset without one must not key on the first column lacking a role)
        has_scope = bool(preset.scope) and preset.scope in self.roles
        self.scope = self.roles.index(preset.scope) if has_scope else -1
        self.key_cols: list[int] = []
        self.by_role = False

    def set_keys(self, labels: tuple[str, ...], preset: Preset, like: _Side | None = None) -> None:
        """--key labels; else the preset's key roles; else the column headed as `like`'s
        key (the before table's: a key column that moved stays the key); else the first
        column not ignored. Loose cells are keyed by each row's first filled cell."""
        if self.table.loose:
            self.key_cols = [0]
            return
        if labels:
            self.key_cols = [find_column(self.table.headers, k) for k in labels]
            return
        self.key_cols = [self.roles.index(r) for r in preset.keys if r in self.roles]
        self.by_role = bool(self.key_cols)
        if self.key_cols:
            return
        if like is not None and like.key_cols and not like.by_role:
            same = find_column(self.table.headers, like.table.headers[like.key_cols[0]])
            if same >= 0 and same not in self.ignored:
                self.key_cols = [same]
                return
        free = [i for i in range(len(self.table.headers)) if i not in self.ignored]
        self.key_cols = free[:1]

    def keys(self) -> list[Hashable | None]:
        """Each row's key, None when its key values are blank: (section, values) when the
        table has sections, else the values (the one value for one key column, cheaper to
        hash); a loose row is keyed by its first filled cell. C-level maps (this is per row)."""
        if self.table.loose:  # a label row: its first cell names it
            return [next(v for v in self.norm.row(i) if v.strip()) for i in range(len(self.raw))]
        if not self.key_cols:  # every column ignored: nothing to key on
            return [None] * len(self.norm)
        columns = [self.norm.column(c) for c in self.key_cols]
        # one column: the value; several: a tuple
        values: list[Any] = columns[0] if len(columns) == 1 else list(zip(*columns, strict=True))
        texts: list[str] = values if len(self.key_cols) == 1 else list(map("".join, values))
        if self.scope >= 0:
            values = list(zip(self.norm.column(self.scope), values, strict=True))
        elif self.preset.section_rows:
            values = list(zip([row.section for row in self.table.rows], values, strict=True))
        out: list[Hashable | None] = list(values)
        for i, text in enumerate(map(str.strip, texts)):
            if not text:
                out[i] = None
        return out

    def key_field(self) -> str:
        return ", ".join(self.table.headers[c] for c in self.key_cols)

    def describe(self, row: Row) -> str:
        if self.table.loose:
            return next(v for v in row.values if v.strip())
        parts = [f"{self.table.headers[c]}={row.values[c]}" for c in self.key_cols]
        return ", ".join(parts)

    def where(self, row: Row, col: int) -> str:
        key = self.describe(row)
        ref = f"{self.table.sheet}!{cell_ref(row.number, self.table.columns[col])}"
        return f"{ref} ({key})" if key else ref

    def summary(self, row: Row) -> str:
        return "; ".join(
            f"{h}={v}"
            for i, (h, v) in enumerate(zip(self.table.headers, row.values, strict=True))
            if v and i not in self.ignored
        )


def _check_keys(old: _Side, new: _Side, labels: tuple[str, ...]) -> None:
    """Both versions must key on the same columns: a key missing in one of them is an error."""
    if labels:
        missing = [(k, s) for i, k in enumerate(labels) for s in (old, new) if s.key_cols[i] < 0]
    elif old.by_role != new.by_role:
        preset = old.preset
        names = [label for role in preset.keys for label in preset.columns[role]]
        missing = [("/".join(names), old if new.by_role else new)]
    else:
        return
    if not missing:
        return
    label, side = missing[0]
    near = closest(label.split("/")[0], side.table.headers)
    which = "the after file" if side is new else "the before file"
    raise KeyColumnError(
        f"key column {label!r}: not in sheet {side.table.sheet!r} of {which}",
        suggestion=f"did you mean {near!r}? (--key {near}); "
        f"columns are: {', '.join(side.table.headers)}",
        data={"column": label, "closest": near, "sheet": side.table.sheet},
    )


class TableDiff:
    def __init__(self, old: Table, new: Table, preset: Preset, opts: TableOptions) -> None:
        self.preset = preset
        self.opts = opts
        self.old = _Side(old, preset, opts)
        self.new = _Side(new, preset, opts)
        self.counts: Counter[str] = Counter()
        self.out: list[Placed] = []
        self.compared: list[tuple[int, int]] = []  # (old, new) columns whose cells compare

    def _differing(self, cols: ColumnMatch, pairs: list[tuple[int, int]]) -> set[tuple[int, int]]:
        """The compared column pairs, and the row pairs not equal in all of them: C-level
        comparisons of whole rows when both versions compare every column in place (the
        common case), else of the compared values, for the many rows that did not change."""
        old, new = self.old, self.new
        self.compared = [(o, n) for o, n in cols.pairs if o not in old.ignored and n not in new.ignored]  # fmt: skip
        if not self.compared:
            return set()
        width = len(old.table.headers)
        in_place = len(new.table.headers) == width and self.compared == [(c, c) for c in range(width)]  # fmt: skip
        pick_old = itemgetter(*(o for o, _n in self.compared))
        pick_new = itemgetter(*(n for _o, n in self.compared))

        def unequal(old_rows: Iterable[list[str]], new_rows: Iterable[list[str]]) -> Iterator[bool]:
            if in_place:
                return map(ne, old_rows, new_rows)
            return map(ne, map(pick_old, old_rows), map(pick_new, new_rows))

        # values equal as read are equal normalised: only the others are normalised
        olds = map(old.raw.__getitem__, [o for o, _n in pairs])
        news = map(new.raw.__getitem__, [n for _o, n in pairs])
        raw = list(compress(pairs, unequal(olds, news)))  # one pair per row: C-level
        olds = map(old.norm.row, [o for o, _n in raw])
        news = map(new.norm.row, [n for _o, n in raw])
        return set(compress(raw, unequal(olds, news)))

    def run(self) -> list[Placed]:
        old, new = self.old, self.new
        old.set_keys(self.opts.keys, self.preset)
        new.set_keys(self.opts.keys, self.preset, like=old)
        _check_keys(old, new, self.opts.keys)
        known = header_pairs(old.table.headers, new.table.headers, old.roles, new.roles)
        known = {n: o for n, o in known.items() if n not in new.ignored and o not in old.ignored}
        shared = sorted(known.items())

        def row_score(o: int, n: int) -> float:  # over the columns both versions have
            a, b = old.norm.row(o), new.norm.row(n)
            return similarity([a[oc] for _n, oc in shared], [b[nc] for nc, _o in shared])

        keys = old.keys(), new.keys()
        rows = align(*keys, row_score)
        sample = rows.pairs[:CONTENT_SAMPLE]

        def column_score(o: int, n: int) -> float:  # over the first matched rows
            if o in old.ignored or n in new.ignored:
                return 0.0
            return similarity(
                [old.norm.row(a)[o] for a, _b in sample],
                [new.norm.row(b)[n] for _a, b in sample],
                empty=0.0,
            )

        cols = match_columns(old.table.headers, new.table.headers, known, column_score)
        if not new.table.loose:  # loose cells have no header nor key to report on
            self._columns(cols)
            self._keys(keys, rows)
        differing = self._differing(cols, rows.pairs)
        for pair in sorted(rows.moved | differing, key=itemgetter(1)):  # in the pairs' order
            self._cells(*pair, cols, pair in rows.moved, pair in differing)
        renamed = self._renames(rows.removed, rows.added, rows.pairs)
        for o, n in renamed:
            self._renamed(o, n)
        gone, new_rows = {o for o, _n in renamed}, {n for _o, n in renamed}
        for n in rows.added:
            if n not in new_rows:
                self._added(n)
        by_old = sorted(rows.pairs) if rows.removed else []
        olds = [o for o, _n in by_old]
        for o in rows.removed:
            if o in gone:
                continue
            before = bisect.bisect_left(olds, o)  # the matched row just above it
            self._removed(o, (by_old[before - 1][1] if before else -1) + 0.5)
        return self.out

    def _renames(
        self, removed: list[int], added: list[int], pairs: list[tuple[int, int]]
    ) -> list[tuple[int, int]]:
        """Removed and added rows taken for renamed keys: alike in the compared columns
        other than the key, in the same section."""
        old, new = self.old, self.new
        if not self.opts.renamed_rows or new.table.loose or not removed or not added:
            return []
        others = [(o, n) for o, n in self.compared if o not in old.key_cols and n not in new.key_cols]  # fmt: skip
        if not others:
            return []

        def score(o: int, n: int) -> float:
            if old.table.rows[o].section != new.table.rows[n].section:
                return 0.0
            a, b = old.norm.row(o), new.norm.row(n)
            return similarity([a[oc] for oc, _n in others], [b[nc] for _o, nc in others], 0.0)

        return renamed_rows(removed, added, pairs, score)

    def _put(
        self,
        position: float,
        order: int,
        rule: str,
        role: str,
        severity: Severity | None = None,
        /,
        details: dict[str, str] | None = None,
        **parts: str,
    ) -> None:
        """Add a finding at a place in the new file's order; severity from the preset."""
        self.counts[rule] += 1
        severity = severity or self.preset.severity(rule, role)
        finding = Finding(rule_id=rule, severity=severity, details=details or {}, **parts)
        self.out.append(((position, order), finding))

    def _column(
        self,
        rule: str,
        table: Table,
        i: int,
        order: int,
        message: str,
        old: str = "",
        new: str = "",
    ) -> None:
        """A column finding, located at the column's header cell."""
        ref = f"{table.sheet}!{column_letter(table.columns[i])}{table.header_row + 1}"
        header = table.headers[i]
        self._put(
            -1,
            order,
            rule,
            "",
            message=message,
            location=ref,
            field=header,
            expected=old,
            actual=new,
        )

    def _columns(self, cols: ColumnMatch) -> None:
        old, new = self.old.table, self.new.table
        for o, n in cols.pairs:
            if n in self.new.ignored:
                continue
            if (o, n) in cols.renamed:
                message = f"column {old.headers[o]!r} renamed to {new.headers[n]!r}"
                self._column(
                    "column.renamed",
                    new,
                    n,
                    n,
                    message,
                    old.headers[o],
                    new.headers[n],
                )
            if (o, n) in cols.moved:
                letters = (column_letter(old.columns[o]), column_letter(new.columns[n]))
                self._column(
                    "column.moved", new, n, n, f"column {new.headers[n]!r} moved", *letters
                )
        for n in cols.added:
            if n not in self.new.ignored:
                self._column(
                    "column.added",
                    new,
                    n,
                    n,
                    f"column {new.headers[n]!r} added",
                    new=new.headers[n],
                )
        for o in cols.removed:
            if o not in self.old.ignored:
                message = f"column {old.headers[o]!r} removed"
                self._column("column.removed", old, o, 1000 + o, message, old=old.headers[o])

    def _row(
        self,
        side: _Side,
        row: Row,
        place: tuple[float, int],
        rule: str,
        message: str,
        severity: Severity | None = None,
        details: dict[str, str] | None = None,
        **parts: str,
    ) -> None:
        """A finding about a whole row, located at its key cell."""
        location = side.where(row, side.key_cols[0])
        parts.setdefault("field", side.key_field())
        parts |= {"message": message, "location": location}
        self._put(place[0], place[1], rule, "", severity, details, **parts)

    def _keys(
        self, keys: tuple[list[Hashable | None], list[Hashable | None]], aligned: Alignment
    ) -> None:
        # a key repeated in both versions is reported once, for the after file
        old_keys, new_keys = keys
        new_dups, blank = aligned.new_keys.duplicates, aligned.new_keys.blank
        again = {new_keys[repeat] for _first, repeat in new_dups}
        old_only = [(f, r) for f, r in aligned.old_keys.duplicates if old_keys[r] not in again]
        for side, dups in ((self.old, old_only), (self.new, new_dups)):
            which = "before" if side is self.old else "after"
            for first, repeat in dups:
                a, b = side.table.rows[first], side.table.rows[repeat]
                rows = f"rows {a.number + 1} and {b.number + 1}"
                message = f"key {side.describe(b)} appears twice in the {which} file: {rows}; compared by occurrence"
                place = (repeat if side is self.new else -1, 0)
                self._row(
                    side,
                    b,
                    place,
                    "key.duplicate",
                    message,
                    expected=f"row {a.number + 1}",
                    actual=f"row {b.number + 1}",
                    suggestion="give each row its own key",
                )
        for n in blank:
            row = self.new.table.rows[n]
            message = f"row {row.number + 1} has a blank key; matched by content"
            self._row(
                self.new,
                row,
                (n, 0),
                "key.blank",
                message,
                actual=self.new.summary(row),
                suggestion="fill in the key column",
            )

    def _cells(self, o: int, n: int, cols: ColumnMatch, moved: bool, differ: bool) -> None:
        old, new = self.old, self.new
        a, b = old.table.rows[o], new.table.rows[n]
        if moved:
            message = f"row {new.describe(b)} moved from row {a.number + 1} to row {b.number + 1}"
            self._row(
                new,
                b,
                (n, 1),
                "row.moved",
                message,
                expected=f"row {a.number + 1}",
                actual=f"row {b.number + 1}",
            )
        if not differ:
            return
        changes = self._changed(o, n)
        for oc, nc in changes:
            header = new.table.headers[nc]
            words, severity, details = self._change(a.values[oc], b.values[nc], nc)
            self._put(
                n,
                2 + nc,
                "cell.changed",
                new.roles[nc],
                severity,
                message=f"{header} {words}",
                location=new.where(b, nc),
                field=header,
                expected=a.values[oc],
                actual=b.values[nc],
                details=details,
            )
        self.counts["rows_changed"] += bool(changes)

    def _changed(self, o: int, n: int) -> list[tuple[int, int]]:
        """The compared columns whose values differ between old row o and new row n."""
        same = self.opts.normaliser.same
        a, b = self.old.norm.row(o), self.new.norm.row(n)
        return [(oc, nc) for oc, nc in self.compared if not same(a[oc], b[nc])]

    def _change(self, before: str, after: str, nc: int) -> tuple[str, Severity, dict[str, str]]:
        """How a cell changed in words ('narrowed', 'changed (whitespace only)'), its
        severity (by the column's role and the change's direction), and the details."""
        role = self.new.roles[nc]
        direction = self.preset.grading.direction(role, before, after)
        words: str = direction or "changed"
        details: dict[str, str] = {"direction": direction} if direction else {}
        if before.split() == after.split():  # only spaces, tabs or line breaks differ
            words += " (whitespace only)"
            details["change"] = "whitespace only"
        return words, self.preset.severity("cell.changed", role, direction), details

    def _renamed(self, o: int, n: int) -> None:
        """One finding for a row whose key changed, with the other values that changed;
        as severe as the most severe of the rename and those changes."""
        old, new = self.old, self.new
        a, b = old.table.rows[o], new.table.rows[n]
        severity = self.preset.severity("row.renamed")
        also = []
        for oc, nc in self._changed(o, n):
            if oc in old.key_cols or nc in new.key_cols:
                continue
            words, level, _details = self._change(a.values[oc], b.values[nc], nc)
            also.append(f"{new.table.headers[nc]} {a.values[oc]} -> {b.values[nc]} ({words})")
            severity = min(severity, level, key=SEVERITIES.index)
        old_key, new_key = old.describe(a), new.describe(b)
        message = f"row {old_key} renamed to {new_key}"
        details = {"old_key": old_key, "new_key": new_key}
        if also:
            message += "; also changed: " + "; ".join(also)
            details["also_changed"] = "; ".join(also)
        place = (n, 0)
        self._row(new, b, place, "row.renamed", message, severity, expected=old_key, actual=new_key, details=details)  # fmt: skip

    def _added(self, n: int) -> None:
        row = self.new.table.rows[n]
        rule = self.preset.added
        severity = self.preset.severity("row.added")
        if rule is not None and rule.column in self.new.roles:
            value = row.values[self.new.roles.index(rule.column)]
            severity = rule.severity if label_key(value) in rule.optional else severity
        message = f"row {self.new.describe(row)} added"
        self._row(
            self.new, row, (n, 0), "row.added", message, severity, actual=self.new.summary(row)
        )

    def _removed(self, o: int, position: float) -> None:
        row = self.old.table.rows[o]
        message = f"row {self.old.describe(row)} removed"
        self._row(
            self.old, row, (position, 0), "row.removed", message, expected=self.old.summary(row)
        )
