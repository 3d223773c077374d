"""The unit rules work on: a chunk of rows laid out by column, and a compiled rule.

The engine hands rules a chunk of a few thousand rows, so that most checks are one list
comprehension per chunk rather than a Python call per cell. A check is
`check(chunk, rows) -> [(i, Finding)]`, where `rows` are the chunk indexes the rule applies
to (its `when` holds and no cell it reads has the wrong type).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from agentcli.report import Finding
from officecli.fieldcheck.conditions import Mask
from officecli.fieldcheck.errors import RulesFileError
from officecli.fieldcheck.findings import Place
from officecli.fieldcheck.model import RuleSpec
from officecli.fieldcheck.values import Value

Row = dict[str, str]


class Chunk:
    """Consecutive rows: line numbers, cell texts by column, typed values by column, and
    the positions of the key columns that name a record in findings."""

    __slots__ = ("columns", "key", "numbers", "raw", "records", "vals")

    def __init__(
        self,
        columns: list[str],
        numbers: Sequence[int],
        records: Sequence[Sequence[str]],
        key: Sequence[int] = (),
    ) -> None:
        self.columns = columns
        self.numbers = numbers
        self.records = records
        self.key = key
        self.raw: dict[str, Sequence[str]] = (
            dict(zip(columns, zip(*records, strict=True), strict=True))
            if records
            else {c: () for c in columns}
        )
        self.vals: dict[str, list[Value]] = {}

    def row(self, i: int) -> Row:
        """Row i as {column: text}, built only when a finding needs it."""
        return dict(zip(self.columns, self.records[i], strict=True))

    def place(self, i: int) -> Place:
        """Where row i is: its line and its key values, for a finding."""
        record = self.records[i]
        return Place(self.numbers[i], tuple((self.columns[k], record[k].strip()) for k in self.key))


Hits = list[tuple[int, Finding]]
Check = Callable[[Chunk, Sequence[int]], Hits]


@dataclass
class CompileContext:
    """What compiling needs besides the rule: field types, masters, a skip counter."""

    types: dict[str, str]
    masters: dict[str, frozenset[str]] = field(default_factory=dict)
    skipped: list[int] = field(default_factory=lambda: [0])


def rule_error(spec: RuleSpec, message: str) -> RulesFileError:
    return RulesFileError(f"rule {spec.id} (line {spec.line}): {message}", data={"line": spec.line})


@dataclass
class CompiledRule:
    """A rule ready to run: the fields whose bad type skips it, its `when`, its check."""

    spec: RuleSpec
    needs: frozenset[str]
    when: Mask | None
    check: Check
    finish: Callable[[], list[Finding]] | None = None
