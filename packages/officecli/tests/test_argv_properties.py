"""Property tests over argument lists built from each tool's capabilities: whatever the
arguments, stdout is one JSON document in valid UTF-8 (with --stdout, the document on stdout
and one JSON document as stderr's last line) and the exit code is 0, 1 or 2.

The paths drawn include hostile ones: a FIFO, /dev/zero and /dev/stdin, a symlink to a
file of secrets (never shown), a PDF of nested forms, a workbook merging its whole sheet
and a rules file with a 5,000-digit number; integers of 5,000 digits too. Every run is a
child capped at 1 GiB of address space and 60 s, so a regression fails, not the machine."""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from officecli_testkit.bomb_files import merged_xlsx, nested_forms_pdf

from agentcli.commands import App, capabilities
from agentcli.main import with_builtins
from officecli.design_diff.commands import APP as DESIGN_DIFF
from officecli.doc2md.commands import APP as DOC2MD
from officecli.fieldcheck.commands import APP as FIELDCHECK
from officecli.office_replace.commands import APP as OFFICE_REPLACE

CORPUS = Path(__file__).resolve().parents[3] / ".." / "shared" / "corpus" / "markitdown"
ENTRIES = {
    "doc2md": "from officecli.doc2md.cli import main; main()",
    "fieldcheck": "from officecli.fieldcheck.cli import main; main()",
    "design-diff": "from officecli.design_diff.cli import main; main()",
    "office-replace": "from officecli.office_replace.cli import main; main()",
}
BAD_NAME = os.fsdecode(b"bad-\xff\xfe.csv")  # not UTF-8: must come back escaped, not raw
PATHS = [
    "data.csv",
    "rules.yaml",
    "replace.csv",
    "test.docx",
    "test.xlsx",
    "broken.pdf",
    "empty.docx",
    "folder",
    "missing.csv",
    ".",
    "",
    "x" * 300 + ".csv",
    BAD_NAME,
    "fifo",
    "/dev/zero",
    "/dev/stdin",
    "secret.csv",
    "forms.pdf",
    "merge.xlsx",
    "big.yaml",
]
SECRET = "root:$6$S3cr3tSalt$hash:20228:0:99999:7:::\nAPI_TOKEN=tok-S3CR3T-0123\n"
MARKS = ("S3cr3t", "S3CR3T", "root:$6$")
BIG = "9" * 5000
# argv cannot carry NUL; every other character can come from an agent.
TEXT = st.text(
    st.characters(codec="utf-8", exclude_categories=["Cs"], exclude_characters="\x00"), max_size=12
)
# Cases that answered exit 3 or raw bytes before, always tried besides the drawn ones.
EXAMPLES = {
    "doc2md": [
        ["convert", BAD_NAME],
        ["convert", "broken.pdf", "empty.docx", "-d", "data.csv"],
        ["convert", "test.docx", "-o", "."],
        ["convert", "test.docx", "test.xlsx", "--stdout"],
        ["convert", "broken.pdf", "--stdout", "--report", BAD_NAME],
        ["convert", "fifo", "/dev/zero", "forms.pdf", "merge.xlsx", "-d", "out"],
        ["convert", "test.docx", "--max-cells", BIG, "--max-pdf-forms", "0"],
    ],
    "fieldcheck": [
        ["validate", "x" * 300 + ".csv", "-r", "rules.yaml"],
        ["validate", BAD_NAME, "-r", "rules.yaml"],
        ["validate", "data.csv", "-r", "rules.yaml", "--encoding", "rot13"],
        ["validate", "data.csv", "-r", "rules.yaml", "-o", "."],
        ["validate", "secret.csv", "-r", "rules.yaml", "--dataset", "m=secret.csv"],
        ["validate", "data.csv", "-r", "big.yaml"],
        ["check-rules", "fifo"],
    ],
    "design-diff": [
        ["excel", "--before", "test.xlsx", "--after", BAD_NAME],
        ["excel", "--before", "test.xlsx", "--after", "test.xlsx", "--key", "x" * 300],
        ["spec", "--excel", "test.xlsx", "--oas", "rules.yaml"],
        ["excel", "--before", "test.xlsx", "--after", "empty.docx", "--preset-file", "data.csv"],
        ["excel", "--before", "merge.xlsx", "--after", "test.xlsx", "--preset-file", "big.yaml"],
        ["spec", "--excel", "/dev/stdin", "--oas", "fifo"],
    ],
    "office-replace": [
        ["replace", "test.docx", "--rules", "replace.csv", "-d", "."],
        ["replace", "test.docx", "--rules", "rules.yaml", "--dry-run"],
        ["replace", BAD_NAME, "--rules", "replace.csv", "-d", "data.csv"],
        ["replace", "test.docx", "--rules", "secret.csv", "--dry-run"],
        ["replace", "fifo", "--rules", "/dev/zero", "--dry-run"],
    ],
}
# The report format is left at json, and --help/--version (plain text) are not drawn.
SKIPPED = {"format"}


def _workspace(root: Path) -> None:
    (root / "data.csv").write_text("a,b\n1,2\n,3\n", encoding="utf-8")
    (root / "rules.yaml").write_text(
        "version: 1\nrules:\n  - {id: R1, type: required, field: a}\n", encoding="utf-8"
    )
    (root / "replace.csv").write_text("find,replace\nthe,THE\n", encoding="utf-8")
    shutil.copy(CORPUS / "test.docx", root / "test.docx")
    shutil.copy(CORPUS / "test.xlsx", root / "test.xlsx")
    (root / "broken.pdf").write_bytes(b"%PDF-1.4\nnot really")
    (root / "empty.docx").write_bytes(b"")
    (root / "folder").mkdir()
    os.mkfifo(root / "fifo")
    (root / "vault").mkdir()
    (root / "vault" / "secret").write_text(SECRET, encoding="utf-8")
    (root / "secret.csv").symlink_to(root / "vault" / "secret")
    (root / "forms.pdf").write_bytes(nested_forms_pdf(depth=8, fanout=10))
    merged_xlsx(root / "merge.xlsx", [["No", "Name"], ["1", "a"]], ["A1:XFD1048576"])
    (root / "big.yaml").write_text(f"version: 1\nrules:\n  - {{id: R, min: {BIG}}}\n")


def _value(arg: dict[str, Any]) -> st.SearchStrategy[str]:
    if arg.get("choices"):
        return st.one_of(st.sampled_from(arg["choices"]), TEXT)
    if arg["type"] == "path":
        return st.sampled_from(PATHS)
    if arg["type"] == "integer":
        return st.one_of(st.integers(-3, 3).map(str), st.just(BIG), TEXT)
    if arg["type"] == "key_value":
        return st.one_of(st.sampled_from(["m=data.csv", "x=missing.csv"]), TEXT)
    return st.one_of(st.sampled_from(["utf-8", "utf-16", "rot13", "hex", "Sales=2"]), TEXT)


@st.composite
def argv(draw: st.DrawFn, caps: dict[str, Any]) -> list[str]:
    command = draw(st.sampled_from(caps["commands"]))
    words: list[str] = command["name"].split()
    for arg in command["arguments"]:
        if arg["name"] in SKIPPED:
            continue
        if arg["kind"] == "positional":
            count = draw(st.integers(1 if arg["required"] else 0, 2 if arg["multiple"] else 1))
            words += [draw(_value(arg)) for _ in range(count)]
        elif arg["type"] == "boolean":
            words += [arg["flags"][0]] if draw(st.booleans()) else []
        elif arg["required"] or draw(st.booleans()):
            words += [draw(st.sampled_from(arg["flags"])), draw(_value(arg))]
    return words


def _cap() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def _check(tool: str, words: list[str], cwd: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", ENTRIES[tool], *words],
        capture_output=True,
        cwd=cwd,
        timeout=60,
        check=False,
        stdin=subprocess.PIPE,  # /dev/stdin is a pipe: read, it would end at once or never
        preexec_fn=_cap,
    )
    text = done.stdout.decode("utf-8")  # raises on invalid UTF-8
    if (
        "--stdout" in words
    ):  # the document on stdout, the report (or --report) or the error on stderr
        lines = done.stderr.decode("utf-8").splitlines()
        text = lines[-1] if lines or "--report" not in words else "{}"
    json.loads(text)  # exactly one JSON document
    assert done.returncode in (0, 1, 2), (words, text[:300], done.stderr[-300:])
    errors = done.stderr.decode("utf-8", "replace")
    assert not [m for m in MARKS if m in text or m in errors], (words, text[:300])


@pytest.mark.parametrize(
    "app", [DOC2MD, FIELDCHECK, DESIGN_DIFF, OFFICE_REPLACE], ids=lambda app: app.name
)
def test_any_argv_answers_one_json_document_and_exit_0_1_or_2(
    app: App, tmp_path_factory: pytest.TempPathFactory
) -> None:
    root = tmp_path_factory.mktemp(app.name)
    _workspace(root)
    caps = capabilities(with_builtins(app))

    @settings(
        max_examples=12,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(argv(caps))
    def check(words: list[str]) -> None:
        _check(app.name, words, root)

    for words in EXAMPLES[app.name]:
        check = example(words)(check)
    check()
