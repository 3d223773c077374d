"""Safe access to untrusted files: zip bomb limits, defused XML, typed reader errors.

Every reader goes through this module, so the limits are enforced once.
"""

from __future__ import annotations

import threading
import zipfile
import zlib
from collections.abc import Generator, Iterator
from contextlib import suppress
from pathlib import Path

from agentcli.files import open_regular
from officecli.readers.errors import (
    BrokenFileError,
    EncryptedFileError,
    ReaderError,
    UnsafeFileError,
    UnsupportedFormatError,
)

__all__ = [
    "BrokenFileError",
    "EncryptedFileError",
    "ExpansionBudget",
    "Package",
    "ReaderError",
    "UnsafeFileError",
    "UnsupportedFormatError",
    "parse_xml",
]

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Protocol
    from xml.etree.ElementTree import Element

    class XmlHandler(Protocol):
        def start(self, name: str, attrs: dict[str, str]) -> None: ...
        def end(self, name: str) -> None: ...
        def data(self, text: str) -> None: ...


MAX_TOTAL_BYTES = 512 * 1024 * 1024  # all members together, uncompressed
MAX_MEMBER_BYTES = 256 * 1024 * 1024
MAX_RATIO = 200  # uncompressed / compressed, for members big enough to matter
RATIO_FLOOR = 1024 * 1024  # small members may compress extremely well; that is harmless
MAX_MEMBERS = 20_000
ENCRYPTED = 0x1  # a zip member's general purpose flag: zipfile asks for its password
OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
LARGE_MEMBER_CHUNKS = 4  # a member read in more chunks keeps its freed memory (heap.py)


class StopScan(Exception):
    """Raised by a scan_xml handler that has read enough."""


def refuse_dtd(parser: Any, label: str) -> None:
    """Make an expat parser refuse a DTD, entity declarations and external references: XML
    without a DTD declares no entity, so none can expand or reach outside."""

    def refuse(*_args: object) -> int:
        raise UnsafeFileError(f"{label}: XML with a DTD or entity declarations refused")

    parser.StartDoctypeDeclHandler = refuse
    parser.EntityDeclHandler = refuse
    parser.UnparsedEntityDeclHandler = refuse
    parser.ExternalEntityRefHandler = refuse


def scanner(handler: XmlHandler, label: str) -> Any:
    """An expat parser handing `handler` names as 'namespace}local', DTDs refused."""
    from xml.parsers import expat

    parser = expat.ParserCreate(namespace_separator="}")
    parser.buffer_text = True
    refuse_dtd(parser, label)
    parser.StartElementHandler = handler.start
    parser.EndElementHandler = handler.end
    parser.CharacterDataHandler = handler.data
    return parser


def scan_xml_bytes(data: bytes, handler: XmlHandler, label: str) -> None:
    """Package.scan_xml over bytes already read (not well formed: BrokenFileError)."""
    from xml.parsers import expat

    try:
        scanner(handler, label).Parse(data, True)
    except expat.ExpatError as exc:
        raise BrokenFileError(f"{label}: XML is not well formed ({exc})") from None


class _RootReached(Exception):
    """The prolog is over: a DTD, and so any entity declaration, can only come before."""


def _root_reached(*_args: object) -> None:
    raise _RootReached


def parse_xml(data: bytes | str, part: str) -> Element:
    """Parse XML refusing DTDs, entity declarations and external references. Expat reads
    the prolog (where a DTD must stand) with those refused, stopping at the root element;
    then ElementTree's C parser builds the tree, in which an entity without a DTD can only
    be undefined (not well formed). A parser calling Python for every element (as
    defusedxml's does) took ten times as long on a large part."""
    from xml.etree.ElementTree import ParseError, XMLParser
    from xml.parsers import expat

    screen = expat.ParserCreate()
    refuse_dtd(screen, part)
    screen.StartElementHandler = _root_reached
    try:
        with suppress(_RootReached):
            screen.Parse(data, True)
        builder = XMLParser()
        builder.feed(data)
        return builder.close()
    except (expat.ExpatError, ParseError) as exc:
        raise BrokenFileError(f"{part}: XML is not well formed ({exc})") from None


def sniff_encrypted_ooxml(path: Path, head: bytes) -> None:
    """An encrypted .docx/.xlsx/.pptx is an OLE compound file, not a zip: say so clearly."""
    if head == OLE_MAGIC:
        raise EncryptedFileError(
            f"{path.name}: an OLE compound file where a zip package was expected "
            "(password-protected Office file, or an old binary format renamed)"
        )


def _check_limits(path: Path, infos: list[zipfile.ZipInfo]) -> None:
    """Members, their sizes and ratios, and their total, before anything is read."""
    if len(infos) > MAX_MEMBERS:
        raise UnsafeFileError(f"{path.name}: {len(infos)} zip members (limit {MAX_MEMBERS})")
    total = 0
    for info in infos:
        total += info.file_size
        ratio = info.file_size / max(info.compress_size, 1)
        if info.file_size > MAX_MEMBER_BYTES or (
            info.file_size > RATIO_FLOOR and ratio > MAX_RATIO
        ):
            raise UnsafeFileError(
                f"{path.name}: member {info.filename} expands to {info.file_size} bytes "
                f"(ratio {ratio:.0f}:1, limits {MAX_MEMBER_BYTES} bytes and {MAX_RATIO}:1)"
            )
    if total > MAX_TOTAL_BYTES:
        raise UnsafeFileError(
            f"{path.name}: expands to {total} bytes in total (limit {MAX_TOTAL_BYTES})"
        )


class Package:
    """A zip package (OOXML) opened with size limits checked before anything is read."""

    def __init__(self, path: Path) -> None:
        try:  # a pipe or a device: NotRegularFileError, never a read that blocks
            self.file = open_regular(path, path.name)
        except OSError as exc:
            raise BrokenFileError(f"{path.name}: cannot be read ({exc.strerror})") from None
        try:
            sniff_encrypted_ooxml(path, self.file.read(8))
            self.file.seek(0)
            self.zip = zipfile.ZipFile(self.file)
        except (zipfile.BadZipFile, OSError) as exc:
            self.file.close()
            raise BrokenFileError(f"{path.name}: not a valid zip package ({exc})") from None
        except BaseException:
            self.file.close()
            raise
        try:
            infos = self.zip.infolist()
            _check_limits(path, infos)
        except BaseException:
            self.close()
            raise
        self.names = {i.filename for i in infos}
        self.label = path.name
        self.path = path

    def __enter__(self) -> Package:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.zip.close()
        self.file.close()

    def has(self, name: str) -> bool:
        return name in self.names

    def read(self, name: str) -> bytes:
        """Member bytes, never more than its declared size (headers can lie)."""
        return b"".join(self.chunks(name, self.zip.getinfo(name).file_size + 1))

    def chunks(self, name: str, size: int = 1 << 20) -> Generator[bytes, None, None]:
        """Member bytes `size` at a time, so that a reader of a big part holds a chunk,
        not the part; never more than the member's declared size (headers can lie)."""
        info = self.zip.getinfo(name)
        if info.file_size > LARGE_MEMBER_CHUNKS * size:
            from officecli.readers.heap import keep_freed_memory

            keep_freed_memory()
        if info.compress_type == zipfile.ZIP_DEFLATED and not info.flag_bits & ENCRYPTED:
            # loaded here: a run that reads no zip package (a PDF, a CSV) never loads zlib-ng
            from officecli.readers.deflated import inflated_chunks

            yield from inflated_chunks(self.file.fileno(), info, size, self.label)
            return
        total = 0
        try:  # stored, or another method: zipfile's stream
            with self.zip.open(info) as fh:
                while chunk := fh.read(size):
                    total += len(chunk)
                    if total > info.file_size:
                        raise UnsafeFileError(
                            f"{self.label}: member {name} is larger than declared"
                        )
                    yield chunk
        except (zipfile.BadZipFile, OSError, EOFError, zlib.error) as exc:
            raise BrokenFileError(f"{self.label}: member {name} is damaged ({exc})") from None

    def xml(self, name: str) -> Element:
        return parse_xml(self.read(name), f"{self.label}:{name}")

    def scan_xml(self, name: str, handler: XmlHandler) -> None:
        """Stream a big part through expat callbacks (no element objects: several times
        faster than an element tree). DTDs and entity declarations are refused as in
        parse_xml; names arrive as 'namespace}local'. A handler raises StopScan to stop."""
        for _ in self.scan_xml_steps(name, handler):
            pass

    def scan_xml_steps(self, name: str, handler: XmlHandler) -> Iterator[None]:
        """scan_xml one 1 MiB chunk at a time, pausing after each: a reader hands on what
        its handler collected so far (rows), so memory stays bounded by a chunk."""
        from xml.parsers import expat

        label = f"{self.label}:{name}"
        parser = scanner(handler, label)
        try:
            for chunk in self.chunks(name):
                parser.Parse(chunk, False)
                yield
            parser.Parse(b"", True)
        except StopScan:
            return
        except expat.ExpatError as exc:
            raise BrokenFileError(f"{label}: XML is not well formed ({exc})") from None

    def rels(self, part: str) -> dict[str, tuple[str, str]]:
        """Relationships of a part: id -> (resolved target path or URL, type suffix)."""
        folder, _, base = part.rpartition("/")
        rels_name = f"{folder}/_rels/{base}.rels" if folder else f"_rels/{base}.rels"
        if not self.has(rels_name):
            return {}
        out: dict[str, tuple[str, str]] = {}
        for rel in self.xml(rels_name):
            target = rel.get("Target", "")
            kind = rel.get("Type", "").rpartition("/")[2]
            if rel.get("TargetMode") != "External":
                target = resolve_part(folder, target)
            out[rel.get("Id", "")] = (target, kind)
        return out


def resolve_part(folder: str, target: str) -> str:
    """Resolve a relative part target against the folder of the source part."""
    if target.startswith("/"):
        return target.lstrip("/")
    parts = folder.split("/") if folder else []
    for piece in target.split("/"):
        if piece == "..":
            if parts:
                parts.pop()
        elif piece and piece != ".":
            parts.append(piece)
    return "/".join(parts)


class ExpansionBudget:
    """The bytes one input file may expand to, shared by all its parts (pages, streams),
    from any thread. A refusal is kept (`refused`), so a library that swallows the error
    cannot hide it."""

    def __init__(self, label: str, limit: int) -> None:
        self.label = label
        self.limit = limit
        self.left = limit
        self.refused = ""
        self._lock = threading.Lock()

    def take(self, size: int, what: str) -> None:
        with self._lock:
            if size > self.left:
                self.refused = (
                    f"{self.label}: {what} expands past the file's budget of {self.limit} bytes"
                )
                raise UnsafeFileError(self.refused)
            self.left -= size


def inflate_limited(data: bytes, limit: int, label: str) -> bytes:
    """Raw-deflate decompression that refuses to grow past `limit` bytes."""
    import zlib

    inflater = zlib.decompressobj(-15)
    try:
        out = inflater.decompress(data, max(limit, 1))  # 0 would mean no limit
    except zlib.error as exc:
        raise BrokenFileError(f"{label}: compressed diagram is damaged ({exc})") from None
    if inflater.unconsumed_tail:
        raise UnsafeFileError(f"{label}: compressed diagram expands beyond {limit} bytes")
    return out
