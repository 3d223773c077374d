"""Converting many files into an output folder: plan every name and check it against the
folder's manifest before any work, convert (in a process pool for many files), write each
result, then record them and update llms.txt. The command line and `convert(out_dir=...)`
both run through here."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from agentcli.errors import AgentError, UsageError
from agentcli.logs import Logger, progress
from agentcli.main import check_interrupt
from agentcli.outputs import check_output_dir, same_file
from agentcli.report import Finding, Report
from officecli.doc2md import manifest
from officecli.doc2md.conversion import Conversion, convert_file
from officecli.doc2md.llms_txt import NAME as LLMS_TXT
from officecli.doc2md.naming import Plan, Source, collect, plan_outputs
from officecli.doc2md.options import check_options
from officecli.doc2md.version import __version__
from officecli.readers.model import ReadOptions
from officecli.readers.ocr_engine import OCR_UNAVAILABLE

log = Logger("doc2md")
POOL_THRESHOLD = 4  # below this many files, starting workers costs more than it saves
RUN_WIDE_NOTES = frozenset({OCR_UNAVAILABLE})


class Batch:
    """One run writing into an output folder. Only a source's own earlier output is ever
    replaced (see manifest.refuse_conflicts); the manifest is saved once, at the end."""

    def __init__(
        self,
        out_dir: Path,
        *,
        keep_ext: bool = False,
        force: bool = False,
        front_matter: bool = False,
        dry_run: bool = False,
    ) -> None:
        self.out_dir = check_output_dir(out_dir)
        self.keep_ext, self.force = keep_ext, force
        self.front_matter, self.dry_run = front_matter, dry_run
        self.recorded = manifest.load(self.out_dir)
        self.entries = dict(self.recorded)
        self.wrote = False

    def plan(self, sources: list[Source], reserved: tuple[Path, ...] = ()) -> list[Plan]:
        """Every source's output, refused before any work when it would land on another
        document's output or on a `reserved` path (the run's report file)."""
        plans = plan_outputs(sources, self.out_dir, self.keep_ext)
        for plan in plans:
            for path in reserved:
                if same_file(path, plan.markdown):
                    raise UsageError(
                        f"-o {path} is where the Markdown of {plan.source} goes",
                        suggestion="write the report somewhere else",
                    )
        manifest.refuse_conflicts(plans, self.recorded, self.force)
        return plans

    def write(self, plan: Plan, conversion: Conversion) -> list[Path]:
        from officecli.doc2md.writing import write_conversion

        previous = self.recorded.get(plan.key)
        written, entry = write_conversion(plan, conversion, previous, self.front_matter)
        self.entries[plan.key] = entry
        self.wrote = True
        return written

    def plan_entry(self, plan: Plan, conversion: Conversion) -> None:
        """What a dry run would record, for the index it would write."""
        names = [image.name for image in conversion.images]
        meta = conversion.meta
        self.entries[plan.key] = manifest.Entry(
            manifest.source_id(plan.source), names, meta.title, meta.summary
        )

    def save(self) -> None:
        """Record what was written (once a run ends, or is interrupted)."""
        if self.wrote:
            manifest.save(self.out_dir, self.entries)

    def index(self) -> Finding:
        """Write (or update) llms.txt: every document the folder holds."""
        from officecli.doc2md.llms_txt import write_llms_txt

        return write_llms_txt(self.out_dir, self.entries, self.dry_run)


class Done:
    """One file's outcome in a batch: its conversion, or why there is none."""

    __slots__ = ("conversion", "crashed", "failure", "plan")

    def __init__(
        self,
        plan: Plan,
        conversion: Conversion | None,
        failure: Finding | None = None,
        crashed: bool = False,  # the reader raised something other than a typed error: a bug
    ) -> None:
        self.plan = plan
        self.conversion = conversion
        self.failure = failure
        self.crashed = crashed


class BatchResult:
    """A batch's report, and how many files failed (crashed: a reader's bug)."""

    __slots__ = ("crashed", "failed", "report")

    def __init__(self, report: Report, failed: int, crashed: int) -> None:
        self.report = report
        self.failed = failed
        self.crashed = crashed


def _failed(plan: Plan, err: AgentError) -> Done:
    crashed = err.code == "INTERNAL"
    finding = Finding(
        "convert.failed", "error", err.message, location=str(plan.source), field=err.code,
        suggestion=err.suggestion,
    )  # fmt: skip
    return Done(plan, None, finding, crashed)


def _convert_one(job: tuple[Plan, ReadOptions, bool]) -> Done:
    plan, options, keep_ext = job
    check_interrupt()  # no file is begun once the run was interrupted
    try:
        return Done(plan, convert_file(plan.source, options, keep_ext))
    except AgentError as err:
        if err.code == "INTERNAL":
            log.debug("reader crashed on %s", plan.source.name, exc_info=True)
        return _failed(plan, err)


def convert_all(
    plans: list[Plan], options: ReadOptions, keep_ext: bool, jobs: int
) -> Iterator[Done]:
    """Outcomes in input order; a pool of worker processes when there are enough files."""
    work = [(plan, options, keep_ext) for plan in plans]
    workers = min(jobs or (os.cpu_count() or 1), len(plans))
    if workers < 2 or len(plans) < POOL_THRESHOLD:
        yield from progress(map(_convert_one, work), len(work), "doc2md")
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context)
    try:
        yield from progress(pool.map(_convert_one, work), len(work), "doc2md")
    finally:  # interrupted: drop the files not started instead of converting them all
        pool.shutdown(wait=True, cancel_futures=True)


def convert_files(
    inputs: list[str],
    out_dir: str | os.PathLike[str],
    options: ReadOptions | None = None,
    *,
    recursive: bool = False,
    keep_ext: bool = False,
    force: bool = False,
    front_matter: bool = False,
    dry_run: bool = False,
    jobs: int = 0,
    index: bool = True,
    reserved: tuple[Path, ...] = (),
) -> BatchResult:
    """Convert files (and, with `recursive`, the documents under folders) into `out_dir`,
    as the command line does: a report with a finding per file, nothing written on a
    refusal. A file that cannot be read is a `convert.failed` finding, not an exception."""
    batch = Batch(
        Path(out_dir), keep_ext=keep_ext, force=force, front_matter=front_matter, dry_run=dry_run
    )
    plans = batch.plan(collect(inputs, recursive), reserved)
    options = options or ReadOptions()
    check_options(options)
    if len(plans) >= POOL_THRESHOLD:  # files are converted in parallel, not a file's pages
        options = options.replace(ocr_jobs=1)
    report = Report(
        tool="doc2md",
        tool_version=__version__,
        title="doc2md conversion report",
        meta={"inputs": len(plans), "out_dir": str(batch.out_dir), "dry_run": dry_run},
    )
    failed = crashed = converted = 0
    said: set[str] = set()  # a note about the machine (no OCR engine) is said once per run
    try:
        for done in convert_all(plans, options, keep_ext, jobs):
            if done.conversion is None:
                assert done.failure is not None
                failed += 1
                crashed += done.crashed
                log.warning("could not convert %s", done.plan.source.name)
                report.add(done.failure)
                continue
            converted += 1
            for finding in _file_findings(batch, done.plan, done.conversion):
                if finding.message in RUN_WIDE_NOTES:
                    if finding.message in said:
                        continue
                    said.add(finding.message)
                report.add(finding)
    finally:  # what was written is recorded even when the run is interrupted
        batch.save()
    wants_index = index and converted > 0
    if wants_index and (len(plans) > 1 or recursive or (batch.out_dir / LLMS_TXT).exists()):
        report.add(batch.index())
    report.meta.update({"converted": converted, "failed": failed})
    return BatchResult(report, failed, crashed)


def _file_findings(batch: Batch, plan: Plan, conversion: Conversion) -> list[Finding]:
    """Write the conversion (or, with --dry-run, say what would be written): convert.ok
    with what the Markdown holds, then the file's own findings."""
    ok = Finding(
        "convert.ok", "info", f"{plan.source.name} converted to {plan.markdown.name}",
        location=str(plan.source), field=str(plan.markdown),
        actual=conversion.meta.written.as_text(),
    )  # fmt: skip
    if not batch.dry_run:
        batch.write(plan, conversion)
        return [ok, *conversion.findings]
    batch.plan_entry(plan, conversion)
    files = [str(plan.markdown)] + [str(plan.assets / image.name) for image in conversion.images]
    planned = Finding(
        "convert.dry_run", "info", f"would write {len(files)} file(s); nothing written (--dry-run)",
        location=str(plan.source), field=", ".join(files),
    )  # fmt: skip
    return [ok, *conversion.findings, planned]
