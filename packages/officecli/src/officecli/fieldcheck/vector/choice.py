"""When the vectorised engine runs, and the run itself from the header to the report."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from officecli.fieldcheck.chunk_check import Collector
from officecli.fieldcheck.engine import Options, Result, finish, prepare
from officecli.fieldcheck.model import RuleSet
from officecli.readers.paths import not_a_file
from officecli.readers.tabular import FORMATS, Table
from officecli.readers.tabular.table import check_header

# From this size on, a CSV/TSV file pays for loading Arrow (about 0.3 s of CPU): the Python
# engine checks about 10 MB a second.
VECTOR_MIN_BYTES = 4 << 20
_DELIMITERS = {"csv": ",", "tsv": "\t"}


def eligible(ruleset: RuleSet, path: Path, options: Options) -> str:
    """The delimiter when the vectorised engine may read this file, else ''."""
    fmt = FORMATS.get(path.suffix.lower(), "")
    if fmt not in _DELIMITERS or options.encoding not in (None, "utf-8", "utf-8-sig", "utf8"):
        return ""
    if not_a_file(path):
        return ""  # the Python engine's reader says what is wrong
    # Left to the Python engine: aggregates (accumulated in Python) and a unique rule with
    # a `when` (its rows are chosen by Python conditions).
    if any(
        r.type == "aggregate_equals" or (r.type == "unique" and r.when is not None)
        for r in ruleset.rules
    ):
        return ""
    if options.engine != "vector" and path.stat().st_size < VECTOR_MIN_BYTES:
        return ""
    try:
        import pyarrow.compute  # noqa: F401 - without Arrow, the Python engine
    except ImportError:
        return ""
    return _DELIMITERS[fmt]


def _header(path: Path, delimiter: str) -> tuple[list[str], str] | None:
    """The columns and the encoding, read as the csv module would (the file has no quote)."""
    with open(path, "rb") as fh:
        first = fh.readline()
    line = first.removesuffix(b"\n").removesuffix(b"\r")
    if not line or b'"' in line or b"\r" in line:
        return None  # no header, a quoted one, or CR line ends: the Python engine's reader
    try:
        text = first.decode("utf-8-sig")
    except UnicodeDecodeError:
        return None  # not UTF-8: the Python engine detects the encoding
    encoding = "utf-8-sig" if first.startswith(b"\xef\xbb\xbf") else "utf-8"
    return text.removesuffix("\n").removesuffix("\r").split(delimiter), encoding


@contextmanager
def _returning_pool() -> Iterator[None]:
    """Arrow's jemalloc pool for the run, when the build has it: it gives memory back to
    the system between batches, where the default pool keeps about 90 MB more."""
    import pyarrow as pa

    try:
        pool = pa.jemalloc_memory_pool()
    except NotImplementedError:
        yield
        return
    previous = pa.default_memory_pool()
    pa.set_memory_pool(pool)
    try:
        yield
    finally:
        pa.set_memory_pool(previous)


def validate_plain(ruleset: RuleSet, path: Path, options: Options) -> Result | None:
    """The vectorised run, or None when this file is for the Python engine."""
    delimiter = eligible(ruleset, path, options)
    if not delimiter:
        return None
    from officecli.fieldcheck.vector.run import run_file
    from officecli.fieldcheck.vector.scan import NotPlain

    header = _header(path, delimiter)
    if header is None:
        return None
    columns, encoding = header
    columns = check_header(path, columns)
    fmt = "tsv" if delimiter == "\t" else "csv"
    plan = prepare(ruleset, columns, options)
    collector = Collector(options.max_findings)
    try:
        with _returning_pool():
            count = run_file(path, delimiter, columns, plan, collector)
    except NotPlain:
        return None
    finish(plan, collector)
    table = Table(path.name, fmt, columns, iter(()), encoding=encoding)
    return Result(collector.findings, collector.totals, count, plan.ctx.skipped[0], table, "vector")
