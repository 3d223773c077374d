"""The doc2md command: the command line's values to the API's calls, and its results to a
report and an exit code. Nothing else happens here."""

from __future__ import annotations

import os
from pathlib import Path

from agentcli.commands import Command, Document, Outcome
from agentcli.errors import AgentError, ExitCode, UsageError
from agentcli.report import Finding, Report
from officecli.doc2md.options import parse_header_rows
from officecli.doc2md.version import __version__
from officecli.readers.drawing_limits import LIMITS
from officecli.readers.model import ReadOptions

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def read_options(values: dict[str, Any]) -> ReadOptions:
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
        ocr_jobs=values["jobs"] or os.cpu_count() or 1,
        recalc=values["recalc"],
        via_pdf=values["via_pdf"],
        pdf_limits={
            name: values[option.lstrip("-").replace("-", "_")]
            for name, (option, _what, _default) in LIMITS.items()
        },
    )


def _exit_code(failed: int, crashed: int, warnings: int, values: dict[str, Any]) -> int:
    if failed and not values["continue_on_error"]:
        return ExitCode.INTERNAL if crashed else ExitCode.USAGE
    return ExitCode.FINDINGS if values["strict"] and warnings else ExitCode.OK


def handle(values: dict[str, Any], command: Command) -> Outcome | Document:
    if values["stdout"]:
        return to_stdout(values)
    from officecli.doc2md.batch import convert_files

    result = convert_files(
        values["inputs"],
        values["out_dir"] or "out",
        read_options(values),
        recursive=values["recursive"],
        keep_ext=values["keep_ext"],
        force=values["force"],
        front_matter=values["front_matter"],
        dry_run=values["dry_run"],
        jobs=values["jobs"],
        index=not values["no_llms_txt"],
        reserved=(Path(values["output"]),) if values.get("output") else (),
    )
    warnings = result.report.summary["warning"]
    return Outcome(result.report, _exit_code(result.failed, result.crashed, warnings, values))


def to_stdout(values: dict[str, Any]) -> Document:
    """One file's Markdown for stdout, and its report; nothing is written."""
    from officecli.doc2md.api import convert
    from officecli.doc2md.naming import collect
    from officecli.doc2md.options import check_options

    if values["dry_run"]:
        raise UsageError(
            "--dry-run with --stdout: --stdout writes no file", suggestion="drop --dry-run"
        )
    sources = collect(values["inputs"], values["recursive"])
    if len(sources) != 1:
        raise UsageError(
            f"--stdout prints one document; {len(sources)} were given"
            + (" (one stream cannot tell where each begins)" if sources else ""),
            suggestion="convert several files with -d DIR (a Markdown file each, and an "
            "llms.txt index), or run doc2md once per file",
        )
    path = sources[0].path
    report = Report(
        tool="doc2md",
        tool_version=__version__,
        title="doc2md conversion report",
        meta={"inputs": 1, "out_dir": "-", "dry_run": False},
    )
    options = read_options(values)
    check_options(options)  # a usage error, not a file that failed
    try:
        conversion = convert(path, options, keep_ext=values["keep_ext"])
    except AgentError as err:  # the file's typed error: a finding, as in a batch
        report.add(
            Finding(
                "convert.failed", "error", err.message, location=str(path), field=err.code,
                suggestion=err.suggestion,
            )
        )  # fmt: skip
        report.meta.update({"converted": 0, "failed": 1})
        crashed = int(err.code == "INTERNAL")
        return Document("", report, _exit_code(1, crashed, 0, values))
    report.add(
        Finding(
            "convert.ok", "info", f"{path.name} converted to stdout", location=str(path),
            field="-", actual=conversion.meta.written.as_text(),
        )
    )  # fmt: skip
    for finding in conversion.findings:
        report.add(finding)
    if conversion.images:
        report.add(
            Finding(
                "convert.images_not_written", "info",
                f"{len(conversion.images)} picture(s) linked as "
                f"{conversion.meta.assets_dir}/... were not written: --stdout writes the "
                "Markdown alone", location=str(path), field=conversion.meta.assets_dir,
                suggestion="convert with -d DIR to write the pictures too",
            )
        )  # fmt: skip
    report.meta.update({"converted": 1, "failed": 0})
    warnings = report.summary["warning"]
    text = conversion.text(values["front_matter"])
    return Document(text, report, _exit_code(0, 0, warnings, values))
