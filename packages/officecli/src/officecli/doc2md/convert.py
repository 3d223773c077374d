"""Convert one file: read it (the registry picks the reader), write Markdown in memory,
audit what was lost.

Runs in worker processes, so it takes and returns plain picklable values.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass, field
from pathlib import Path

from agentcli.errors import InputError
from agentcli.files import open_regular
from agentcli.logs import describe_text
from agentcli.report import Finding
from officecli.doc2md.audit import audit
from officecli.doc2md.markdown import measured, recognised, render
from officecli.readers.model import Asset, Document, ReadOptions
from officecli.readers.registry import reader_for
from officecli.readers.safety import ReaderError

log = logging.getLogger("doc2md")


@dataclass
class Plan:
    source: Path
    markdown: Path
    assets: Path


@dataclass
class Result:
    plan: Plan
    ok: bool
    markdown: str = ""
    assets: list[Asset] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    title: str = ""  # for llms.txt: the first heading, else the file name
    summary: str = ""  # for llms.txt: the first paragraph, shortened
    crashed: bool = False  # the reader raised something other than a ReaderError: a bug


def read_document(path: Path, options: ReadOptions) -> Document:
    """The file's reader (from the registry), with the routes around it: --via-pdf,
    --recalc, --ocr-images."""
    from officecli.doc2md import routes

    fmt = reader_for(path)
    if options.via_pdf and fmt.zip_based:  # OOXML: LibreOffice prints it
        return routes.via_pdf(path, options)
    doc = fmt.read(path, options)
    if fmt.name == "xlsx" and options.recalc:
        doc = routes.recalculated(path, options, doc, fmt.read)
    if options.ocr_images and options.ocr != "never" and fmt.zip_based:  # pictures in parts
        routes.ocr_pictures(doc, options)
    return doc


def front_matter(path: Path, doc: Document) -> str:
    from agentcli.envelope import dumps  # JSON strings are valid YAML double-quoted scalars

    digest = hashlib.sha256()
    with open_regular(path, path.name) as fh:  # in chunks: memory stays flat
        while chunk := fh.read(1 << 20):
            digest.update(chunk)
    lines = ["---", f"source: {dumps(path.name)}", f"source_sha256: {dumps(digest.hexdigest())}"]
    lines += [f"{key}: {value}" for key, value in doc.counts.items()]
    lines.append(f"ocr: {'true' if doc.ocr_pages or doc.counts.get('ocr_pictures') else 'false'}")
    if doc.ocr_pages:
        lines.append(f"ocr_pages: {dumps(doc.ocr_pages)}")
    return "\n".join([*lines, "---"])


SUMMARY_CHARS = 160


def title_and_summary(doc: Document) -> tuple[str, str]:
    """The first heading and the first paragraph of the document, each on one line."""
    heading = next((b.text for b in doc.blocks if b.kind == "heading" and b.text.strip()), "")
    para = next((b.text for b in doc.blocks if b.kind == "paragraph" and b.text.strip()), "")
    summary = " ".join((para or heading).split())
    if len(summary) > SUMMARY_CHARS:
        summary = summary[: SUMMARY_CHARS - 1].rstrip() + "…"
    return " ".join(heading.split()), summary


def failed(plan: Plan, err: Exception) -> Result:
    """A file that could not be read; a crash when the error is not bad input (a bug)."""
    if isinstance(err, ReaderError | InputError):
        message, suggestion, code = err.message, err.suggestion, err.code
    else:
        message = f"{plan.source.name}: unexpected {type(err).__name__} while reading"
        suggestion, code = "rerun with --debug and report it; the file may be damaged", "INTERNAL"
    finding = Finding(
        "convert.failed", "error", message, location=str(plan.source), field=code,
        suggestion=suggestion,
    )  # fmt: skip
    return Result(
        plan, False, findings=[finding], crashed=not isinstance(err, ReaderError | InputError)
    )


def convert(plan: Plan, options: ReadOptions, with_front_matter: bool) -> Result:
    """Read, render and audit one file; a file that cannot be read becomes convert.failed."""
    try:
        doc = read_document(plan.source, options)
    except (ReaderError, InputError) as err:  # bad input (a pipe named as a file): exit 2
        return failed(plan, err)
    except Exception as exc:
        log.debug("reader crashed on %s", plan.source.name, exc_info=True)
        return failed(plan, exc)
    header = front_matter(plan.source, doc) if with_front_matter else ""
    markdown = render(doc, plan.assets.name, header)
    log.info("%s -> %s", plan.source.name, describe_text(markdown))
    want, got = recognised(doc), measured(markdown)
    location = str(plan.source)
    findings = [
        Finding(
            "convert.ok",
            "info",
            f"{plan.source.name} converted to {plan.markdown.name}",
            location=location,
            field=str(plan.markdown),
            actual=got.as_text(),
        )
    ]
    findings += [
        Finding("convert.note", "info", note, location=location)
        for note in dict.fromkeys(doc.notes)
    ]
    findings += [
        Finding(
            "convert.truncated", "warning", cut, location=location,
            suggestion="raise --max-cells, or convert the sheet in parts",
        )
        for cut in dict.fromkeys(doc.cuts)
    ]  # fmt: skip
    if doc.hidden:
        kinds = ("sheets", "rows", "columns")
        counts = ", ".join(f"{doc.hidden[k]} {k}" for k in kinds if doc.hidden.get(k))
        findings.append(
            Finding(
                "content.hidden", "warning",
                f"hidden content kept and marked (hidden) in the Markdown: {counts}",
                location=location, field="hidden", actual=counts,
                suggestion="pass --skip-hidden to leave hidden sheets, rows and columns out",
            )
        )  # fmt: skip
    findings += [
        Finding(rule, "warning", message, location=location, suggestion=suggestion)
        for rule, message, suggestion in doc.warnings
    ]
    findings += audit(location, want, got, doc.raw_chars, doc.dropped_glyphs)
    return Result(plan, True, markdown, doc.assets, findings, *title_and_summary(doc))
