"""The office-replace handler: check everything, edit every file in memory, then (unless
--dry-run) write each output atomically. The dry run is the same code path minus the writes,
so its report is the real run's report."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from agentcli.commands import Command, Outcome
from agentcli.errors import ExitCode, UsageError
from agentcli.logs import progress
from agentcli.outputs import check_output_dir
from agentcli.report import Report
from officecli import __version__
from officecli.office_replace.commands import DEFAULT_FACTOR, STORIES
from officecli.office_replace.edit import Edited, RuleSet, edit_file
from officecli.office_replace.errors import OutDirError
from officecli.office_replace.files import check_out_dir, check_outputs, collect, rename_files
from officecli.office_replace.found import Found
from officecli.office_replace.output import copy_file, write_package
from officecli.office_replace.rules import load_rules

log = logging.getLogger("office-replace")
FAIL_ON = {"none": (), "warning": ("warning", "error"), "info": ("info", "warning", "error")}


def parse_stories(raw: str) -> set[str]:
    stories = {s.strip() for s in raw.split(",") if s.strip()}
    unknown = sorted(stories - set(STORIES))
    if unknown or not stories:
        raise UsageError(
            f"--stories: unknown {', '.join(unknown) or '(none given)'}",
            suggestion="give --stories a comma-separated list of: " + ", ".join(STORIES),
        )
    return stories


def handle(values: dict[str, Any], command: Command) -> Outcome:
    dry_run = bool(values["dry_run"])
    out_dir = check_output_dir(values["out_dir"]) if values["out_dir"] else None
    if out_dir is None and not dry_run:
        raise OutDirError(
            "-d OUTDIR is required unless --dry-run",
            suggestion="pass -d OUTDIR (a folder outside the inputs), or add --dry-run to "
            "write nothing",
        )
    stories = parse_stories(values["stories"])
    if values["max_growth"] < 1:
        raise UsageError(
            f"--max-growth {values['max_growth']}: must be 1 or more",
            suggestion=f"leave --max-growth out (default {DEFAULT_FACTOR}), or give a larger one",
        )
    if out_dir is not None:
        check_out_dir(out_dir, values["inputs"])
    rules = RuleSet.of(load_rules(values["rules"]))
    items = collect(values["inputs"], values["recursive"], values["include"], values["exclude"])
    found = {item.label: Found(item.label, values["max_growth"]) for item in items}
    rename_files(items, rules.filename, found)
    if out_dir is not None:
        check_outputs(items, out_dir, values["force"])
    edited = [
        edit_file(item, rules, stories, found[item.label])
        for item in progress(items, len(items), "office-replace")
    ]
    report = _report(edited, found, rules, dry_run, out_dir)
    failed = sum(1 for e in edited if e.failed)
    if failed and not values["continue_on_error"]:
        log.warning("%d file(s) could not be read; nothing written", failed)
        return Outcome(report, ExitCode.USAGE)
    if out_dir is not None and not dry_run:
        _write(edited, out_dir)
    failing = FAIL_ON[values["fail_on"]]
    return Outcome(report, 1 if any(f.severity in failing for f in report.findings) else 0)


def _write(edited: list[Edited], out_dir: Path) -> None:
    for e in edited:
        assert e.item.output is not None
        target = out_dir / e.item.output
        if e.failed:
            continue
        if e.changed:
            write_package(e.item.source, e.changed, target)
        else:
            copy_file(e.item.source, target)
    log.info("%d file(s) written to %s", sum(1 for e in edited if not e.failed), out_dir)


def _report(
    edited: list[Edited],
    found: dict[str, Found],
    rules: RuleSet,
    dry_run: bool,
    out_dir: Path | None,
) -> Report:
    report = Report(
        tool="office-replace",
        tool_version=__version__,
        title="office-replace report" + (" (dry run: nothing written)" if dry_run else ""),
        meta={"dry_run": dry_run, "out_dir": str(out_dir or "")},
    )
    per_rule: dict[str, int] = {}
    for rule in rules.file.rules:
        per_rule.setdefault(rule.id, 0)
    counts = {"files_scanned": 0, "files_changed": 0, "files_copied": 0, "files_failed": 0}
    per_file: dict[str, int] = {}
    skipped: dict[str, str] = {}
    for e in edited:
        f = found[e.item.label]
        for finding in f.findings:
            report.add(finding)
            if finding.severity == "info":
                per_rule[finding.rule_id] = per_rule.get(finding.rule_id, 0) + 1
        renamed = e.item.output != e.item.relative
        counts["files_scanned"] += bool(e.item.kind)
        counts["files_failed"] += bool(e.failed)
        counts["files_changed"] += bool(e.changed) or renamed
        counts["files_copied"] += not e.failed and not e.changed and not renamed
        if f.replaced:
            per_file[e.item.label] = f.replaced
        if not e.item.kind:
            skipped[e.item.label] = (
                "excluded by --include/--exclude; copied unchanged"
                if not e.item.selected
                else "not a Word, Excel or PowerPoint file; copied unchanged"
            )
    report.meta.update({"files": len(edited), **counts})
    report.meta.update({f"rule {k}": v for k, v in per_rule.items()})
    report.meta.update({f"file {k}": v for k, v in per_file.items()})
    report.meta.update({f"skipped {k}": v for k, v in skipped.items()})
    log.info(
        "%d file(s) scanned, %d changed, %d failed", counts["files_scanned"],
        counts["files_changed"], counts["files_failed"],
    )  # fmt: skip
    return report
