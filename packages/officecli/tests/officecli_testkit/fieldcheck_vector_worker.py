"""What the vectorised engine's tests run in a spawned child process: importing PyArrow
starts threads, and a test process with other threads running cannot fork (the forked
readers' tests then fall back and fail). The pytest process never imports PyArrow."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from multiprocessing import get_context
from pathlib import Path
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

if TYPE_CHECKING:
    from officecli.fieldcheck.engine import Engine

Outcome = tuple[str, int, int, dict[str, int], list[dict[str, Any]]]


def run_engine(
    rules: str, data: str, engine: Engine, block: int, options: dict[str, Any]
) -> Outcome:
    """(engine used, rows, skipped evaluations, totals, findings as JSON) of one run."""
    from officecli.fieldcheck.engine import Options
    from officecli.fieldcheck.loader import load_rules
    from officecli.fieldcheck.run import validate_data as validate
    from officecli.fieldcheck.vector import scan

    scan.BLOCK_BYTES = block
    result = validate(load_rules(rules), Path(data), Options(engine=engine, **options))
    findings = [f.to_json() for f in result.findings]
    return result.engine, result.rows, result.skipped, result.totals, findings


def missing_column_error(rules: str, data: str, engine: Engine) -> tuple[str, str, Any]:
    """(message, suggestion, data) of the MissingColumnError a run raises."""
    from officecli.fieldcheck.engine import Options
    from officecli.fieldcheck.errors import MissingColumnError
    from officecli.fieldcheck.loader import load_rules
    from officecli.fieldcheck.run import validate_data as validate

    try:
        validate(load_rules(rules), Path(data), Options(engine=engine))
    except MissingColumnError as exc:
        return exc.message, exc.suggestion, exc.data
    raise AssertionError("no MissingColumnError")


def render(rules: str, data: str, engine: Engine, shown_as: str) -> dict[str, str]:
    """The report of one engine in every format, as the CLI renders it."""
    from agentcli.report import RENDERERS
    from officecli.fieldcheck.engine import Options
    from officecli.fieldcheck.loader import load_rules
    from officecli.fieldcheck.run import build_report
    from officecli.fieldcheck.run import validate_data as validate

    ruleset = load_rules(rules)
    options = Options(engine=engine)
    result = validate(ruleset, Path(data), options)
    assert result.engine == engine
    report = build_report(ruleset, shown_as, result, options)
    return {fmt: render(report) for fmt, render in RENDERERS.items()}


def read_cells(cells: list[str], kind: str) -> tuple[list[Any], list[bool]]:
    """The vectorised reading of cells as `kind`: (values, unusual)."""
    import pyarrow as pa

    from officecli.fieldcheck.values import is_blank
    from officecli.fieldcheck.vector.arrays import typed

    got = typed(pa.array(cells, pa.string()), lambda: pa.array([is_blank(c) for c in cells]), kind)
    return got.values.to_pylist(), got.unusual.to_pylist()


def strip_cells(cells: list[str]) -> list[str]:
    import pyarrow as pa

    from officecli.fieldcheck.vector.arrays import strip

    stripped: list[str] = strip(pa.array(cells, pa.string())).to_pylist()
    return stripped


def whitespace() -> str:
    from officecli.fieldcheck.vector.arrays import PY_WHITESPACE

    return PY_WHITESPACE


Arguments = ParamSpec("Arguments")
Answer = TypeVar("Answer")


class InChild:
    """call(function, *args): what the function returns, run in the child process."""

    def __init__(self, pool: ProcessPoolExecutor) -> None:
        self._pool = pool

    def __call__(
        self,
        function: Callable[Arguments, Answer],
        /,
        *args: Arguments.args,
        **kwargs: Arguments.kwargs,
    ) -> Answer:
        return self._pool.submit(function, *args, **kwargs).result()


@contextmanager
def child() -> Iterator[InChild]:
    """One spawned child process, kept for the block."""
    with ProcessPoolExecutor(1, mp_context=get_context("spawn")) as pool:
        yield InChild(pool)
