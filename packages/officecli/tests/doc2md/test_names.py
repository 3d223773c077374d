"""Output names depend on a file's own path alone; a run replaces only its own sources'
earlier outputs (Markdown and pictures) and keeps llms.txt true; no suggestion leads to
another document's output being destroyed."""

from __future__ import annotations

import json
import shutil
from pathlib import Path, PurePosixPath
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from officecli_testkit.doc2md_helpers import Run

from agentcli.errors import AgentError

CORPUS = Path(__file__).resolve().parents[4] / ".." / "shared" / "corpus" / "markitdown"


def _files(out: Path) -> list[str]:
    return sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())


def test_a_shared_stem_is_refused_whichever_run_brings_it(run_doc2md: Run, tmp_path: Path) -> None:
    docx, xlsx = tmp_path / "test.docx", tmp_path / "test.xlsx"
    shutil.copy(CORPUS / "test.docx", docx)
    shutil.copy(CORPUS / "test.xlsx", xlsx)
    out = tmp_path / "out"
    code, env = run_doc2md(docx, xlsx, "-d", out)  # in one run: refused before any work
    assert (code, env["error_code"], out.exists()) == (2, "OUTPUT_CONFLICT", False)
    assert env["suggestion"].startswith("pass --keep-ext")
    assert run_doc2md(docx, "-d", out)[0] == 0
    written = {name: (out / name).read_bytes() for name in _files(out)}
    for extra in ((), ("--force",)):  # in a later run: refused, and --force does not help
        code, env = run_doc2md(xlsx, "-d", out, *extra)
        assert (code, env["error_code"]) == (2, "OUTPUT_CONFLICT")
        assert "--keep-ext" in env["suggestion"]
        assert {name: (out / name).read_bytes() for name in _files(out)} == written
    # --keep-ext names each after its whole file name, alone or together, run after run
    assert run_doc2md(xlsx, "-d", out, "--keep-ext")[0] == 0
    assert run_doc2md(docx, xlsx, "-d", out, "--keep-ext")[0] == 0
    assert _files(out) == [
        ".doc2md-manifest.json",
        "llms.txt",
        "test.docx.md",
        "test.docx_assets/image1.png",
        "test.md",
        "test.xlsx.md",
        "test_assets/image1.png",
    ]
    assert (out / "test.md").read_bytes() == written["test.md"]


NAMES = ["a.docx", "a.pdf", "A.xlsx", "b.docx", "sub/a.docx", "sub/b.pdf", "x.y.docx"]


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(st.lists(st.sampled_from(NAMES), min_size=1, max_size=5, unique=True), st.booleans())
def test_a_name_is_a_function_of_the_files_own_path(batch: list[str], keep_ext: bool) -> None:
    from officecli.doc2md.naming import Source, plan_outputs

    root = Path("/docs")
    sources = [Source(root / n, PurePosixPath(n).parent) for n in batch]

    def alone(source: Any) -> str:
        return plan_outputs([source], Path("out"), keep_ext)[0].key

    try:
        keys = [plan.key for plan in plan_outputs(sources, Path("out"), keep_ext)]
    except AgentError as err:  # refused: two of them would share a name, whatever the order
        assert err.code == "OUTPUT_CONFLICT"
        names = [alone(s).lower() for s in sources]
        assert len(set(names)) < len(names)
        return
    assert keys == [alone(s) for s in sources]


def _docx(path: Path, title: str, pictures: int) -> None:
    import io

    import docx
    from PIL import Image

    document = docx.Document()
    document.add_heading(title, level=1)
    document.add_paragraph("Trucks leave the depot at six.")
    for shade in range(pictures):
        buf = io.BytesIO()
        Image.new("RGB", (8, 8), (shade * 40, 0, 0)).save(buf, format="PNG")
        buf.seek(0)
        document.add_picture(buf)
    document.save(str(path))


def test_converting_again_replaces_its_own_markdown_and_pictures_and_the_index(
    run_doc2md: Run, tmp_path: Path
) -> None:
    docs, out = tmp_path / "docs", tmp_path / "out"
    docs.mkdir()
    _docx(docs / "plan.docx", "Delivery plan", pictures=2)
    _docx(docs / "note.docx", "Site note", pictures=1)
    assert run_doc2md("-r", docs, "-d", out)[0] == 0
    _docx(docs / "plan.docx", "Delivery plan, revised", pictures=1)
    code, report = run_doc2md(docs / "plan.docx", "-d", out)
    assert code == 0
    assert _files(out) == [
        ".doc2md-manifest.json",
        "llms.txt",
        "note.md",
        "note_assets/image1.png",
        "plan.md",
        "plan_assets/image1.png",  # image2.png of the earlier conversion is gone
    ]
    assert (out / "plan.md").read_text("utf-8").startswith("# Delivery plan, revised\n")
    index = (out / "llms.txt").read_text("utf-8")
    assert "- [Delivery plan, revised](<plan.md>)" in index
    assert "- [Site note](<note.md>)" in index  # the other document stays indexed
    assert [f["rule_id"] for f in report["findings"]][-1] == "convert.index"


def test_force_replaces_only_an_output_no_document_accounts_for(
    run_doc2md: Run, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "test.md").write_text("my own notes\n", "utf-8")
    code, env = run_doc2md(CORPUS / "test.docx", "-d", out)
    assert (code, env["error_code"]) == (2, "OUTPUT_CONFLICT")
    assert env["error"] == f"{out / 'test.md'} exists, and doc2md did not write it there"
    assert (out / "test.md").read_text("utf-8") == "my own notes\n"
    assert run_doc2md(CORPUS / "test.docx", "-d", out, "--force")[0] == 0
    recorded = json.loads((out / ".doc2md-manifest.json").read_text("utf-8"))["outputs"]
    assert recorded["test.md"]["source"] == str((CORPUS / "test.docx").resolve())
