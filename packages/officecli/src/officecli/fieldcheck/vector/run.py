"""A plain CSV/TSV file through the vectorised filters, batch by batch; the candidate rows
of each batch are checked by the Python engine's `check_chunk` (see the package's doc).

`unique` keys are collected during the pass and compared once at its end; when some key
repeats, a second pass fetches just those rows to report them in line order."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv

from officecli.fieldcheck.checks import unique_hit, unique_key_kinds
from officecli.fieldcheck.chunk import Check, Chunk, CompiledRule, Hits
from officecli.fieldcheck.chunk_check import Collector, Hit, check_chunk
from officecli.fieldcheck.engine import Plan
from officecli.fieldcheck.vector.batch import Batch, Filter, any_of
from officecli.fieldcheck.vector.filters import FILTERS
from officecli.fieldcheck.vector.scan import BLOCK_BYTES, Lines, NotPlain, blank_lines, blocks
from officecli.fieldcheck.vector.uniques import UniqueKeys


def _silent(rule: CompiledRule) -> CompiledRule:
    """The rule in its place (its order), reporting nothing: its rows are reported apart."""
    return CompiledRule(rule.spec, rule.needs, rule.when, lambda chunk, rows: [])


def run_file(
    path: Path, delimiter: str, columns: list[str], plan: Plan, collector: Collector
) -> int:
    """Check the file into `collector` (blank lines included); return its record count.
    Raises NotPlain when the file is for the Python engine (`collector` is then spoilt)."""
    ctx = plan.ctx
    filters: list[Filter] = [
        FILTERS[r.spec.type](r.spec, ctx) for r in plan.rules if r.spec.type != "unique"
    ]
    uniques = {
        id(r): UniqueKeys(
            r.spec.params["fields"],
            unique_key_kinds(r.spec, ctx),
            [ctx.types.get(f, "string") for f in r.spec.params["fields"]],
        )
        for r in plan.rules
        if r.spec.type == "unique"
    }
    rules = [_silent(r) if id(r) in uniques else r for r in plan.rules]
    typed = [name for name, kind in ctx.types.items() if kind != "string"]
    layout = Lines()
    reported = 0  # blank lines reported so far
    done = 0
    for batch in _batches(path, delimiter, columns, layout):
        b = Batch({name: batch.column(i) for i, name in enumerate(columns)}, ctx.types)
        masks = [f(b) for f in filters]
        if typed:
            masks.append(b.unusual(*typed))
        for keys in uniques.values():
            keys.add(b, done)
        rows = pc.indices_nonzero(any_of(masks, b))
        chunk = _chunk(batch, rows.to_pylist(), done, columns, layout, plan.key)
        last = layout.line(done + b.size - 1) if b.size else 0
        here = [n for n in layout.blank[reported:] if n <= last]
        reported += len(here)
        collector.extend(check_chunk(chunk, plan.converters, rules, here))
        done += batch.num_rows
    rest = layout.blank[reported:]
    collector.extend(check_chunk(Chunk(columns, [], [], plan.key), [], [], rest))
    repeats = {id(r): uniques[id(r)].repeats() for r in plan.rules if id(r) in uniques}
    if any(len(rows) for rows, _ in repeats.values()):
        collector.merge(_repeat_hits(path, delimiter, columns, layout, plan, repeats))
    return done


def _chunk(
    batch: pa.RecordBatch,
    rows: list[int],
    done: int,
    columns: list[str],
    layout: Lines,
    key: list[int],
) -> Chunk:
    """These rows of the batch as the Python engine's chunk."""
    picked = batch.take(pa.array(rows, pa.int64()))
    cells = [picked.column(i).to_pylist() for i in range(len(columns))]
    records = [list(r) for r in zip(*cells, strict=True)] if rows else []
    return Chunk(columns, [layout.line(done + r) for r in rows], records, key)


def _repeat_hits(
    path: Path,
    delimiter: str,
    columns: list[str],
    layout: Lines,
    plan: Plan,
    repeats: dict[int, tuple[list[int], list[int]]],
) -> list[Hit]:
    """A second pass: the findings of the rows repeating a unique key, in line order."""
    first_line: dict[int, dict[int, int]] = {}
    wanted: set[int] = set()
    for rule_id, (records, firsts) in repeats.items():
        first_line[rule_id] = {
            layout.line(r): layout.line(f) for r, f in zip(records, firsts, strict=True)
        }
        wanted.update(records)
    order = {id(r): len(plan.converters) + n for n, r in enumerate(plan.rules)}
    hits: list[Hit] = []
    done = 0
    for batch in _batches(path, delimiter, columns, Lines()):
        rows = [r - done for r in sorted(wanted) if done <= r < done + batch.num_rows]
        if rows:
            chunk = _chunk(batch, rows, done, columns, layout, plan.key)
            for rule in plan.rules:
                if id(rule) in first_line:
                    lines = first_line[id(rule)]
                    found = _replay(rule, lines)(chunk, range(len(rows)))
                    hits += [(chunk.numbers[i], order[id(rule)], f) for i, f in found]
        done += batch.num_rows
    hits.sort(key=lambda hit: (hit[0], hit[1]))
    return hits


def _replay(rule: CompiledRule, first_lines: dict[int, int]) -> Check:
    """The unique rule's check for rows whose first line is known."""
    hit = unique_hit(rule.spec)

    def check(chunk: Chunk, rows: Sequence[int]) -> Hits:
        return [
            (i, hit(chunk, i, first_lines[chunk.numbers[i]]))
            for i in rows
            if chunk.numbers[i] in first_lines
        ]

    return check


def _batches(
    path: Path, delimiter: str, columns: list[str], lines: Lines
) -> Iterator[pa.RecordBatch]:
    """The file's records in batches of cells as text, one block of lines at a time, read
    as the csv module reads a file without quotes; NotPlain when it cannot be. Arrow
    parses the next block in a thread (it lets go of the GIL) while this one is checked."""
    options = (
        pacsv.ReadOptions(column_names=columns, block_size=max(BLOCK_BYTES, 1 << 20) << 1),
        pacsv.ParseOptions(
            delimiter=delimiter, quote_char=False, newlines_in_values=False, ignore_empty_lines=True
        ),
        pacsv.ConvertOptions(
            column_types={name: pa.string() for name in columns},
            strings_can_be_null=False,
            quoted_strings_can_be_null=False,
            null_values=[],
        ),
    )

    def parsed(block: bytes) -> pa.Table:
        try:
            return pacsv.read_csv(pa.py_buffer(block), *options)
        except pa.ArrowInvalid as exc:  # a record of another width, a byte not UTF-8
            raise NotPlain(str(exc)) from None

    with ThreadPoolExecutor(1) as pool:
        pending: Pending | None = None
        for block, done in blocks(path):
            future = pool.submit(parsed, block)
            if pending is not None:
                yield from _ready(pending, lines)
            pending = (future, block, done)
        if pending is not None:
            yield from _ready(pending, lines)


Pending = tuple["Future[pa.Table]", bytes, int]


def _ready(pending: Pending, lines: Lines) -> Iterator[pa.RecordBatch]:
    """A parsed block as a batch, once its blank lines are numbered."""
    future, block, done = pending
    table = future.result()
    for line in blank_lines(block, done, table.num_rows):
        lines.add_blank(line)
    if table.num_rows:
        yield table.combine_chunks().to_batches()[0]
