"""The doc2md handler: plan, convert (in a process pool for many files), write, report."""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from agentcli.commands import Command, Outcome
from agentcli.errors import ExitCode, UsageError
from agentcli.logs import progress
from agentcli.outputs import check_output_dir, same_file, write_atomic
from agentcli.report import Finding, Report
from officecli.doc2md import __version__, manifest
from officecli.doc2md.convert import Plan, Result, convert
from officecli.doc2md.llms_txt import write_llms_txt
from officecli.doc2md.plan import collect, plan_outputs
from officecli.readers.model import ReadOptions
from officecli.readers.ocr import OCR_UNAVAILABLE
from officecli.readers.pdf.limits import LIMITS

log = logging.getLogger("doc2md")
POOL_THRESHOLD = 4  # below this many files, starting workers costs more than it saves
RUN_WIDE_NOTES = frozenset({OCR_UNAVAILABLE})


def parse_header_rows(values: list[str]) -> dict[str, int]:
    """--header-row [SHEET=]N, repeatable; N is the 1-based sheet row of the header."""
    out: dict[str, int] = {}
    for raw in values:
        sheet, _, number = raw.rpartition("=")
        if not number.isdigit() or int(number) < 1:
            raise UsageError(
                f"--header-row {raw!r}: expected [SHEET=]N with N >= 1",
                suggestion="e.g. --header-row 3 or --header-row 'Sales=2'",
            )
        out[sheet] = int(number)
    return out


def _check_routes(values: dict[str, Any]) -> None:
    """OCR and LibreOffice options that cannot work here are usage errors, before any work."""
    from officecli.readers import libreoffice, ocr

    lang = values["ocr_lang"] or ""
    if lang and not re.fullmatch(r"[a-z][a-z_]*(\+[a-z][a-z_]*)*", lang):
        raise UsageError(
            f"--ocr-lang {lang!r}: expected Tesseract language codes joined by +",
            suggestion="e.g. --ocr-lang jpn+eng",
        )
    if (values["ocr"] == "always" or lang) and not ocr.available():
        raise UsageError(
            "OCR was asked for but no OCR engine is installed", suggestion=ocr.INSTALL_HINT
        )
    missing = ocr.check_language(lang) if lang else None
    if missing:
        raise UsageError(
            f"--ocr-lang {lang}: Tesseract has no {missing!r} language data",
            suggestion="installed: "
            + ", ".join(sorted(ocr.languages()))
            + f"; apt-get install tesseract-ocr-{missing.replace('_', '-')}",
        )
    if values["via_pdf"] and libreoffice.soffice() is None:
        raise UsageError("--via-pdf needs LibreOffice", suggestion=libreoffice.INSTALL_HINT)


def _pdf_limits(values: dict[str, Any]) -> dict[str, int]:
    limits = {}
    for name, (option, _what, default) in LIMITS.items():
        limits[name] = values[option.lstrip("-").replace("-", "_")]
        if limits[name] < 1:
            raise UsageError(f"{option} must be at least 1", suggestion=f"e.g. {option} {default}")
    return limits


def read_options(values: dict[str, Any], files: int) -> ReadOptions:
    if values["max_cells"] < 1:
        raise UsageError("--max-cells must be at least 1", suggestion="e.g. --max-cells 200000")
    pdf_limits = _pdf_limits(values)
    _check_routes(values)
    jobs = values["jobs"] or os.cpu_count() or 1
    return ReadOptions(
        track_changes=values["track_changes"],
        comments=not values["no_comments"],
        header_footer=not values["no_header_footer"],
        header_rows=parse_header_rows(values["header_row"]),
        skip_hidden=values["skip_hidden"],
        max_cells=values["max_cells"],
        keep_running_headers=values["keep_running_headers"],
        ruby=values["ruby"],
        toc=not values["no_toc"],
        iso_dates=values["iso_dates"],
        ocr=values["ocr"],
        ocr_lang=values["ocr_lang"] or "",
        ocr_images=values["ocr_images"],
        # pages of one file are OCR'd in parallel only when files are not converted in parallel
        ocr_jobs=jobs if files < POOL_THRESHOLD else 1,
        recalc=values["recalc"],
        via_pdf=values["via_pdf"],
        pdf_limits=pdf_limits,
    )


def _convert_one(job: tuple[Plan, ReadOptions, bool]) -> Result:
    return convert(*job)


def convert_all(
    plans: list[Plan], options: ReadOptions, front: bool, jobs: int
) -> Iterator[Result]:
    """Results in input order; a pool of worker processes when there are enough files."""
    work = [(plan, options, front) for plan in plans]
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


def write_result(result: Result) -> None:
    """Each file under a temporary name beside its target, then renamed: assets first,
    Markdown last, so a Markdown file never points at pictures not yet there."""
    plan = result.plan
    plan.markdown.parent.mkdir(parents=True, exist_ok=True)
    if result.assets:
        plan.assets.mkdir(exist_ok=True)
        for asset in result.assets:
            write_atomic(plan.assets / asset.name, asset.data)
    write_atomic(plan.markdown, result.markdown.encode("utf-8"))


def _refuse_report_onto_outputs(report_path: str | None, plans: list[Plan]) -> None:
    if not report_path:
        return
    for plan in plans:
        if same_file(Path(report_path), plan.markdown):
            raise UsageError(
                f"-o {report_path} is where the Markdown of {plan.source} goes",
                suggestion="write the report somewhere else",
            )


def handle(values: dict[str, Any], command: Command) -> Outcome:
    out_dir = check_output_dir(values["out_dir"] or "out")
    plans = plan_outputs(collect(values["inputs"], values["recursive"]), out_dir)
    options = read_options(values, len(plans))
    _refuse_report_onto_outputs(values.get("output"), plans)
    recorded = manifest.load(out_dir)
    if not values["force"]:
        manifest.refuse_conflicts(plans, recorded)
    dry_run = bool(values["dry_run"])
    report = Report(
        tool="doc2md",
        tool_version=__version__,
        title="doc2md conversion report",
        meta={"inputs": len(plans), "out_dir": str(out_dir), "dry_run": dry_run},
    )
    failed = crashed = 0
    written: list[Plan] = []
    index: list[Result] = []
    said: set[str] = set()  # run-wide notes (OCR not available) are said once, not per file
    try:
        for result in convert_all(plans, options, values["front_matter"], values["jobs"]):
            if not result.ok:
                failed += 1
                crashed += result.crashed
                log.warning("could not convert %s", result.plan.source.name)
            elif dry_run:
                result.findings.append(_planned(result))
            else:
                write_result(result)
                written.append(result.plan)
            if result.ok:
                index.append(result)
            for finding in result.findings:
                if finding.message in RUN_WIDE_NOTES:
                    if finding.message in said:
                        continue
                    said.add(finding.message)
                report.add(finding)
    finally:  # what was written is recorded even when the run is interrupted
        if written:
            manifest.save(out_dir, recorded, written)
    if index and (len(plans) > 1 or values["recursive"]) and not values["no_llms_txt"]:
        report.add(write_llms_txt(out_dir, index, dry_run))
    report.meta.update({"converted": len(plans) - failed, "failed": failed})
    if failed and not values["continue_on_error"]:
        return Outcome(report, ExitCode.INTERNAL if crashed else ExitCode.USAGE)
    if values["strict"] and report.summary["warning"]:
        return Outcome(report, 1)
    return Outcome(report, 0)


def _planned(result: Result) -> Finding:
    files = [str(result.plan.markdown)] + [str(result.plan.assets / a.name) for a in result.assets]
    return Finding(
        "convert.dry_run",
        "info",
        f"would write {len(files)} file(s); nothing written (--dry-run)",
        location=str(result.plan.source),
        field=", ".join(files),
    )
