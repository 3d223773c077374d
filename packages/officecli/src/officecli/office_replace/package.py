"""An OOXML package being edited: parts parsed on demand, changed parts re-serialised with
their own XML declaration, every other member copied byte for byte.

Opening goes through the registry's safety.Package (zip-bomb limits, encrypted files).
Parts are parsed with lxml (it keeps every namespace declaration and prefix as written),
with entities and network access off; a part with a DTD is refused as unsafe.
"""

from __future__ import annotations

import re
from pathlib import Path

from lxml import etree

from officecli.readers import registry
from officecli.readers.errors import BrokenFileError, UnsafeFileError, UnsupportedFormatError
from officecli.readers.safety import resolve_part

MAX_FILE_BYTES = 512 * 1024 * 1024
_PARSER = etree.XMLParser(
    resolve_entities=False,
    no_network=True,
    load_dtd=False,
    huge_tree=False,
    remove_blank_text=False,
)
_ENCODING = re.compile(rb"encoding=[\"']([A-Za-z0-9._-]+)")
STRICT = "{http://purl.oclc.org/ooxml/"
REL_NS = "http://schemas.openxmlformats.org/package/2006/relationships"


class EditablePackage:
    """Parsed parts of one package, and which of them were changed."""

    def __init__(self, path: Path) -> None:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise UnsafeFileError(f"{path.name}: larger than {MAX_FILE_BYTES} bytes")
        self.path = path
        self.pkg = registry.open_package(path)
        self.label = path.name
        self.trees: dict[str, etree._Element] = {}
        self.declarations: dict[str, bytes] = {}
        self.changed: set[str] = set()

    def __enter__(self) -> EditablePackage:
        return self

    def __exit__(self, *exc: object) -> None:
        self.pkg.close()

    def has(self, name: str) -> bool:
        return self.pkg.has(name)

    def names(self) -> list[str]:
        return [i.filename for i in self.pkg.zip.infolist()]

    def xml(self, name: str) -> etree._Element:
        """The parsed part (parsed once, then shared)."""
        if name not in self.trees:
            data = self.pkg.read(name)
            try:
                root = etree.fromstring(data, _PARSER)
            except etree.XMLSyntaxError as exc:
                raise BrokenFileError(
                    f"{self.label}:{name}: XML is not well formed ({exc})"
                ) from None
            if root.getroottree().docinfo.doctype:
                raise UnsafeFileError(f"{self.label}:{name}: XML with a DTD refused")
            self.trees[name] = root
            self.declarations[name] = _declaration(data)
        return self.trees[name]

    def mark(self, name: str) -> None:
        self.changed.add(name)

    def rels(self, part: str) -> dict[str, tuple[str, str]]:
        """Relationships of a part: id -> (resolved internal target, type suffix)."""
        folder, _, base = part.rpartition("/")
        rels_name = f"{folder}/_rels/{base}.rels" if folder else f"_rels/{base}.rels"
        if not self.has(rels_name):
            return {}
        out = {}
        for rel in self.xml(rels_name).iter(f"{{{REL_NS}}}Relationship"):
            if rel.get("TargetMode") == "External":
                continue
            kind = (rel.get("Type") or "").rpartition("/")[2]
            out[rel.get("Id") or ""] = (resolve_part(folder, rel.get("Target") or ""), kind)
        return out

    def targets(self, part: str, kind: str) -> list[str]:
        """Existing parts related to `part` by relationships of this type, in rels order."""
        return [t for t, k in self.rels(part).values() if k == kind and self.has(t)]

    def main_part(self) -> str:
        """The main document part; Strict Open XML is refused (its names would match nothing)."""
        found = self.targets("", "officeDocument")
        if not found:
            raise BrokenFileError(f"{self.label}: no main document part in the package")
        if self.xml(found[0]).tag.startswith(STRICT):
            raise UnsupportedFormatError(
                f"{self.label}: Strict Open XML is not supported",
                suggestion="save the file again as a regular (Transitional) Office document",
            )
        return found[0]

    def part_bytes(self, name: str) -> bytes:
        """A changed part: its original declaration, then lxml's serialisation of the tree."""
        root = self.trees[name]
        declaration = self.declarations[name]
        declared = _ENCODING.search(declaration)
        encoding = declared[1].decode("ascii") if declared else "UTF-8"
        if encoding.upper() not in ("UTF-8", "UTF8"):
            return etree.tostring(root, encoding=encoding, xml_declaration=True)  # type: ignore[no-any-return]
        body: bytes = etree.tostring(root, encoding="UTF-8", xml_declaration=False)
        return declaration + body

    def changed_parts(self) -> dict[str, bytes]:
        return {name: self.part_bytes(name) for name in sorted(self.changed)}


def _declaration(data: bytes) -> bytes:
    """The XML declaration and the whitespace after it, exactly as the part had them."""
    if not data.startswith(b"<?xml"):
        return b""
    end = data.find(b"?>")
    if end < 0:
        return b""
    end += 2
    while end < len(data) and data[end : end + 1] in b" \t\r\n":
        end += 1
    return data[:end]
