"""Helpers for office-replace tests: rules files, generated documents, zip patching."""

from __future__ import annotations

import csv
import json
import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

import agentcli.main
from officecli.office_replace.commands import APP

Replace = Callable[..., tuple[int, dict[str, Any]]]
W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


def run_replace(
    capsys: pytest.CaptureFixture[str], *args: str | Path
) -> tuple[int, dict[str, Any]]:
    capsys.readouterr()
    code = agentcli.main.run(APP, ["replace", *map(str, args)])
    out = capsys.readouterr().out
    return code, json.loads(out)


def write_rules(path: Path, rows: Sequence[Sequence[str]], encoding: str = "utf-8") -> Path:
    with open(path, "w", encoding=encoding, newline="") as fh:
        csv.writer(fh).writerows(rows)
    return path


def findings(report: dict[str, Any], rule_id: str | None = None) -> list[dict[str, str]]:
    return [f for f in report["findings"] if rule_id in (None, f["rule_id"])]


def places(report: dict[str, Any], rule_id: str | None = None) -> list[str]:
    return [f["location"] for f in findings(report, rule_id)]


def members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as z:
        return {n: z.read(n) for n in z.namelist()}


def patch_zip(path: Path, edits: dict[str, Callable[[str], str] | str]) -> None:
    """Rewrite members: a function edits the member's text, a string is a new member's text."""
    parts = members(path)
    for name, edit in edits.items():
        parts[name] = (edit if isinstance(edit, str) else edit(parts[name].decode("utf-8"))).encode(
            "utf-8"
        )
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for name, data in parts.items():
            out.writestr(name, data)


def add_override(part: str, content_type: str) -> Callable[[str], str]:
    """An edit of [Content_Types].xml adding an Override for a new part."""
    return lambda xml: xml.replace(
        "</Types>", f'<Override PartName="/{part}" ContentType="{content_type}"/></Types>'
    )


def add_rel(rid: str, kind: str, target: str) -> Callable[[str], str]:
    rel_type = f"http://schemas.openxmlformats.org/officeDocument/2006/relationships/{kind}"
    return lambda xml: xml.replace(
        "</Relationships>",
        f'<Relationship Id="{rid}" Type="{rel_type}" Target="{target}"/></Relationships>',
    )


def docx_body(
    path: Path, body: str, extra: dict[str, Callable[[str], str] | str] | None = None
) -> Path:
    """A python-docx document whose body is `body` (WordprocessingML, w: prefix bound)."""
    import docx

    docx.Document().save(str(path))

    def set_body(xml: str) -> str:
        start = xml.index("<w:body>") + len("<w:body>")
        end = xml.index("<w:sectPr")
        return xml[:start] + body + xml[end:]

    patch_zip(path, {"word/document.xml": set_body, **(extra or {})})
    return path


def para(*runs: str) -> str:
    return "<w:p>" + "".join(runs) + "</w:p>"


def run(text: str, props: str = "") -> str:
    rpr = f"<w:rPr>{props}</w:rPr>" if props else ""
    return f'<w:r>{rpr}<w:t xml:space="preserve">{text}</w:t></w:r>'


ENTRY = "from officecli.office_replace.cli import main; main()"


def run_capped(
    *args: str | Path, memory_mib: int = 512, timeout: float = 120
) -> tuple[int, dict[str, Any]]:
    """The console script in a child whose address space is capped (RLIMIT_AS), so that a
    regression that balloons fails the test instead of exhausting the machine."""
    import resource
    import subprocess
    import sys

    def cap() -> None:
        limit = memory_mib << 20
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    proc = subprocess.run(
        [sys.executable, "-c", ENTRY, *map(str, args)],
        capture_output=True,
        text=True,
        timeout=timeout,
        preexec_fn=cap,  # the limit is set in the child, before exec
        check=False,
    )
    return proc.returncode, json.loads(proc.stdout) if proc.stdout else {"stderr": proc.stderr}
