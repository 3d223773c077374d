"""The Python API as a user's program imports it (a separate interpreter, run from another
folder): typed results, nothing written unless asked, typed errors with the CLI's codes; and
the guide's example (docs/office/doc2md.md) runs as written."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[4]
CORPUS = REPO / ".." / "shared" / "corpus" / "markitdown"

USER_PROGRAM = """
import json, sys
from pathlib import Path
from officecli.doc2md import Conversion, Image, Meta, Options, convert
from agentcli.errors import AgentError

source = Path(sys.argv[1])
result = convert(source)
assert isinstance(result, Conversion) and isinstance(result.meta, Meta)
assert all(isinstance(image, Image) for image in result.images)
errors = {}
for name, call in {
    "missing": lambda: convert("nope.docx"),
    "folder": lambda: convert("."),
    "broken": lambda: convert("broken.docx"),
    "unsupported": lambda: convert("notes.txt"),
    "encrypted": lambda: convert("secret.xlsx"),
    "options": lambda: convert(source, Options(max_cells=0)),
    "language": lambda: convert(source, Options(ocr_lang="jpn; rm -rf")),
}.items():
    try:
        call()
    except AgentError as err:
        errors[name] = [type(err).__name__, err.code, err.exit_code, bool(err.suggestion)]
print(json.dumps({
    "markdown": result.markdown,
    "front_matter": result.front_matter,
    "findings": [f.rule_id for f in result.findings],
    "images": {image.name: len(image.data) for image in result.images},
    "meta": [result.meta.format, result.meta.name, result.meta.assets_dir, result.meta.title],
    "headings": result.meta.written.headings,
    "written": [str(p) for p in result.written],
    "errors": errors,
}))
"""


def _user_run(cwd: Path, script: str, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", script, *args],
        capture_output=True, text=True, check=False, cwd=cwd, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_users_program_gets_typed_results_and_typed_errors(tmp_path: Path) -> None:
    (tmp_path / "broken.docx").write_bytes(b"PK\x03\x04 not a zip")
    (tmp_path / "notes.txt").write_text("hello", "utf-8")
    (tmp_path / "secret.xlsx").write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 504)
    before = sorted(p.name for p in tmp_path.iterdir())
    out = json.loads(_user_run(tmp_path, USER_PROGRAM, str(CORPUS / "test.docx")))
    with zipfile.ZipFile(CORPUS / "test.docx") as docx:
        media = docx.read("word/media/image1.png")
    assert out["images"] == {"image1.png": len(media)}
    assert "](test_assets/image1.png)" in out["markdown"]
    assert out["meta"] == ["docx", "test.md", "test_assets", out["meta"][3]]
    assert out["headings"] == out["markdown"].count("\n#") + out["markdown"].startswith("#")
    assert out["front_matter"]["source"] == "test.docx"
    assert out["findings"] == []  # nothing lost
    assert out["written"] == []
    assert out["errors"] == {
        "missing": ["InputError", "INVALID_INPUT", 2, True],
        "folder": ["InputError", "INVALID_INPUT", 2, True],
        "broken": ["BrokenFileError", "BROKEN_FILE", 2, True],
        "unsupported": ["UnsupportedFormatError", "UNSUPPORTED_FORMAT", 2, True],
        "encrypted": ["EncryptedFileError", "ENCRYPTED_FILE", 2, True],
        "options": ["UsageError", "USAGE", 2, True],
        "language": ["UsageError", "USAGE", 2, True],
    }
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # nothing written


def test_writing_when_asked_is_what_the_command_writes(tmp_path: Path) -> None:
    from officecli.doc2md import convert

    result = convert(CORPUS / "test.docx", out_dir=tmp_path / "api", front_matter=True)
    assert result.written == [
        tmp_path / "api" / "test_assets" / "image1.png",
        tmp_path / "api" / "test.md",
    ]
    subprocess.run(
        [sys.executable, "-c", "from officecli.doc2md.cli import main; main()",
         str(CORPUS / "test.docx"), "-d", str(tmp_path / "cli"), "--front-matter"],
        check=True, capture_output=True, timeout=120,
    )  # fmt: skip
    for name in ("test.md", "test_assets/image1.png", ".doc2md-manifest.json"):
        assert (tmp_path / "api" / name).read_bytes() == (tmp_path / "cli" / name).read_bytes()


def test_the_guide_example_runs_as_written(tmp_path: Path) -> None:
    page = (REPO / "docs" / "office" / "doc2md.md").read_text("utf-8")
    [example] = re.findall(r"```python\n(.*?)```", page, re.S)
    (tmp_path / "report.docx").write_bytes((CORPUS / "test.docx").read_bytes())
    out = _user_run(tmp_path, textwrap.dedent(example))
    assert out.startswith("docx report.md 1\n")
    assert (tmp_path / "out" / "report.md").is_file()
