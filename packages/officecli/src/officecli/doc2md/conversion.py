"""Convert one file in memory: read it (the registry picks the reader), write its Markdown,
audit what was lost. Writes nothing; runs in worker processes, so its values pickle."""

from __future__ import annotations

from pathlib import Path

from agentcli.errors import AgentError, InternalError
from agentcli.logs import Logger, describe_text
from agentcli.report import Finding
from officecli.doc2md.audit import audit
from officecli.doc2md.markdown import Counts, measured, recognised, render
from officecli.doc2md.naming import assets_dir, output_stem
from officecli.readers.model import Document, ReadOptions
from officecli.readers.registry import reader_for

log = Logger("doc2md")
SUMMARY_CHARS = 160
FrontMatterValue = str | int | bool | list[int]


class Image:
    """A picture of the document: its file name in the assets folder, and its bytes."""

    __slots__ = ("data", "name")

    def __init__(self, name: str, data: bytes) -> None:
        self.name = name
        self.data = data

    def __repr__(self) -> str:
        return f"Image({self.name!r}, {len(self.data)} bytes)"


class Meta:
    """What the conversion found out about the document."""

    def __init__(
        self,
        format: str,  # the reader's name: docx, xlsx, xls, pptx, pdf, drawio
        title: str,  # the first heading, or ""
        summary: str,  # the first paragraph (else the heading), on one line, shortened
        name: str,  # the Markdown file's name by doc2md's naming rule (report.md)
        assets_dir: str,  # the folder the Markdown's picture links point into (report_assets)
        counts: dict[str, int],  # pages, sheets, slides ... as the reader counted them
        written: Counts,  # headings, list items, tables, rows, pictures and characters kept
        ocr_pages: tuple[int, ...] = (),  # pages whose text came from OCR
    ) -> None:
        self.format = format
        self.title = title
        self.summary = summary
        self.name = name
        self.assets_dir = assets_dir
        self.counts = counts
        self.written = written
        self.ocr_pages = ocr_pages


class Conversion:
    """One document as Markdown. `markdown` links its pictures as `<assets_dir>/<name>`;
    `findings` are the report's notes and warnings about this file (losses, cuts, hidden
    content); nothing is on disk unless the conversion was asked to write (`written`)."""

    def __init__(
        self,
        source: Path,
        markdown: str,
        findings: list[Finding],
        images: list[Image],
        meta: Meta,
    ) -> None:
        self.source = source
        self.markdown = markdown
        self.findings = findings
        self.images = images
        self.meta = meta
        self.written: list[Path] = []
        self._front_matter: dict[str, FrontMatterValue] | None = None

    @property
    def front_matter(self) -> dict[str, FrontMatterValue]:
        """The YAML front matter's values: the source's name and sha256, the reader's counts,
        whether OCR read any of it (the source is read again for the digest, once)."""
        if self._front_matter is None:
            self._front_matter = front_matter(self.source, self.meta)
        return self._front_matter

    def text(self, with_front_matter: bool = False) -> str:
        """The Markdown as doc2md writes it, with the YAML front matter first if asked."""
        if not with_front_matter:
            return self.markdown
        return front_matter_yaml(self.front_matter) + "\n\n" + self.markdown


def read_document(path: Path, options: ReadOptions) -> tuple[str, Document]:
    """(format name, Document): the file's reader (from the registry), with the routes
    around it: --via-pdf, --recalc, --ocr-images."""
    fmt = reader_for(path)
    if options.via_pdf and fmt.zip_based:  # OOXML: LibreOffice prints it
        from officecli.doc2md import routes

        return fmt.name, routes.via_pdf(path, options)
    doc = fmt.read(path, options)
    if fmt.name == "xlsx" and options.recalc:
        from officecli.doc2md import routes

        doc = routes.recalculated(path, options, doc, fmt.read)
    if options.ocr_images and options.ocr != "never" and fmt.zip_based:  # pictures in parts
        from officecli.doc2md import routes

        routes.ocr_pictures(doc, options)
    return fmt.name, doc


def front_matter(path: Path, meta: Meta) -> dict[str, FrontMatterValue]:
    import hashlib

    from agentcli.files import open_regular

    digest = hashlib.sha256()
    with open_regular(path, path.name) as fh:  # in chunks: memory stays flat
        while chunk := fh.read(1 << 20):
            digest.update(chunk)
    found: dict[str, FrontMatterValue] = {"source": path.name, "source_sha256": digest.hexdigest()}
    found.update(meta.counts)
    found["ocr"] = bool(meta.ocr_pages or meta.counts.get("ocr_pictures"))
    if meta.ocr_pages:
        found["ocr_pages"] = list(meta.ocr_pages)
    return found


def front_matter_yaml(values: dict[str, FrontMatterValue]) -> str:
    from agentcli.envelope import dumps  # JSON strings are valid YAML double-quoted scalars

    def scalar(value: FrontMatterValue) -> str:
        if isinstance(value, bool):
            return "true" if value else "false"
        return str(value) if isinstance(value, int) else dumps(value)

    return "\n".join(["---", *(f"{key}: {scalar(v)}" for key, v in values.items()), "---"])


def title_and_summary(doc: Document) -> tuple[str, str]:
    """The first heading and the first paragraph of the document, each on one line."""
    heading = next((b.text for b in doc.blocks if b.kind == "heading" and b.text.strip()), "")
    para = next((b.text for b in doc.blocks if b.kind == "paragraph" and b.text.strip()), "")
    summary = " ".join((para or heading).split())
    if len(summary) > SUMMARY_CHARS:
        summary = summary[: SUMMARY_CHARS - 1].rstrip() + "…"
    return " ".join(heading.split()), summary


def convert_document(path: Path, options: ReadOptions, keep_ext: bool = False) -> Conversion:
    """Read, render and audit one file; a file that cannot be read raises its ReaderError."""
    fmt, doc = read_document(path, options)
    assets = assets_dir(path, keep_ext)
    markdown = render(doc, assets)
    log.info("%s -> %s", path.name, describe_text(markdown))
    want, got = recognised(doc), measured(markdown)
    title, summary = title_and_summary(doc)
    meta = Meta(
        fmt, title, summary, f"{output_stem(path, keep_ext)}.md", assets, dict(doc.counts), got,
        tuple(doc.ocr_pages),
    )  # fmt: skip
    images = [Image(asset.name, asset.data) for asset in doc.assets]
    return Conversion(path, markdown, findings(str(path), doc, want, got), images, meta)


def convert_file(path: Path, options: ReadOptions, keep_ext: bool = False) -> Conversion:
    """The conversion, or the file's typed error (a reader's, or PATH_OUTSIDE_ROOT when an
    MCP server confines the call); a reader's bug is an InternalError."""
    try:
        return convert_document(path, options, keep_ext)
    except AgentError:
        raise
    except Exception as exc:
        raise InternalError(
            f"{path.name}: unexpected {type(exc).__name__} while reading",
            suggestion="rerun with --debug and report it; the file may be damaged",
        ) from exc


def findings(location: str, doc: Document, want: Counts, got: Counts) -> list[Finding]:
    """The reader's notes, cuts and warnings, hidden content, and what the audit says was lost."""
    found = [
        Finding("convert.note", "info", note, location=location)
        for note in dict.fromkeys(doc.notes)
    ]
    found += [
        Finding(
            "convert.truncated", "warning", cut, location=location,
            suggestion="raise --max-cells, or convert the sheet in parts",
        )
        for cut in dict.fromkeys(doc.cuts)
    ]  # fmt: skip
    if doc.hidden:
        kinds = ("sheets", "rows", "columns")
        counts = ", ".join(f"{doc.hidden[k]} {k}" for k in kinds if doc.hidden.get(k))
        found.append(
            Finding(
                "content.hidden", "warning",
                f"hidden content kept and marked (hidden) in the Markdown: {counts}",
                location=location, field="hidden", actual=counts,
                suggestion="pass --skip-hidden to leave hidden sheets, rows and columns out",
            )
        )  # fmt: skip
    found += [
        Finding(rule, "warning", message, location=location, suggestion=suggestion)
        for rule, message, suggestion in doc.warnings
    ]
    return found + audit(location, want, got, doc.raw_chars, doc.dropped_glyphs)
