"""The doc2md handler: plan, convert (in a process pool for many files), write, report."""

from __future__ import annotations

import logging
import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from agentcli.commands import Command, Outcome
from agentcli.errors import UsageError
from agentcli.logs import progress
from agentcli.report import Finding, Report
from agentcli.tempdir import secure_tempdir
from officecli.doc2md import __version__
from officecli.doc2md.convert import Plan, Result, convert
from officecli.doc2md.llms_txt import write_llms_txt
from officecli.doc2md.plan import collect, plan_outputs
from officecli.readers.model import ReadOptions
from officecli.readers.ocr import OCR_UNAVAILABLE

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


def read_options(values: dict[str, Any], files: int) -> ReadOptions:
    if values["max_cells"] < 1:
        raise UsageError("--max-cells must be at least 1", suggestion="e.g. --max-cells 200000")
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
        ocr=values["ocr"],
        ocr_lang=values["ocr_lang"] or "",
        ocr_images=values["ocr_images"],
        # pages of one file are OCR'd in parallel only when files are not converted in parallel
        ocr_jobs=jobs if files < POOL_THRESHOLD else 1,
        recalc=values["recalc"],
        via_pdf=values["via_pdf"],
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
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        yield from progress(pool.map(_convert_one, work), len(work), "doc2md")


def write_result(result: Result, staging: Path) -> None:
    """Stage the files in the private temp dir, then move them in: assets first, Markdown last."""
    plan = result.plan
    plan.markdown.parent.mkdir(parents=True, exist_ok=True)
    if result.assets:
        plan.assets.mkdir(exist_ok=True)
        for asset in result.assets:
            staged = staging / asset.name
            staged.write_bytes(asset.data)
            shutil.move(staged, plan.assets / asset.name)
    staged_md = staging / "document.md"
    with open(staged_md, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(result.markdown)
    shutil.move(staged_md, plan.markdown)


def handle(values: dict[str, Any], command: Command) -> Outcome:
    out_dir = Path(values["out_dir"] or "out")
    plans = plan_outputs(collect(values["inputs"], values["recursive"]), out_dir)
    options = read_options(values, len(plans))
    dry_run = bool(values["dry_run"])
    report = Report(
        tool="doc2md",
        tool_version=__version__,
        title="doc2md conversion report",
        meta={"inputs": len(plans), "out_dir": str(out_dir), "dry_run": dry_run},
    )
    failed = converted = 0
    index: list[Result] = []
    said: set[str] = set()  # run-wide notes (OCR not available) are said once, not per file
    with secure_tempdir("doc2md-") as staging:
        for result in convert_all(plans, options, values["front_matter"], values["jobs"]):
            if result.ok:
                converted += 1
                index.append(result)
                if dry_run:
                    result.findings.append(_planned(result))
                else:
                    write_result(result, staging)
            else:
                failed += 1
                log.warning("could not convert %s", result.plan.source.name)
            for finding in result.findings:
                if finding.message in RUN_WIDE_NOTES:
                    if finding.message in said:
                        continue
                    said.add(finding.message)
                report.add(finding)
        if index and (len(plans) > 1 or values["recursive"]) and not values["no_llms_txt"]:
            report.add(write_llms_txt(out_dir, index, staging, dry_run))
    report.meta.update({"converted": converted, "failed": failed})
    if failed and not values["continue_on_error"]:
        return Outcome(report, 3)
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
