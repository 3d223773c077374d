"""A symlink to a file of secrets, fed to every path-taking option of every command of
every office tool (walked from their declarations, so a new option is covered the day it
is declared): whatever the tool answers, no line of the secret reaches stdout or stderr.
The secret is read as CSV, YAML, JSON, Markdown, a workbook and a document in turn."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from agentcli.commands import App, Arg, Command, command_args
from agentcli.main import run, with_builtins
from officecli.design_diff.commands import APP as DESIGN_DIFF
from officecli.doc2md.commands import APP as DOC2MD
from officecli.fieldcheck.commands import APP as FIELDCHECK
from officecli.office_replace.commands import APP as OFFICE_REPLACE

CORPUS = Path(__file__).resolve().parents[3] / ".." / "shared" / "corpus" / "markitdown"
SECRET = (
    "root:$6$S3cr3tSalt$hash:20228:0:99999:7:::\n"
    "API_TOKEN=tok-S3CR3T-0123\n"
    "password: hunter2-S3CR3T\n"
)
MARKS = ("S3cr3t", "S3CR3T", "hunter2", "root:$6$", "API_TOKEN")
EXTENSIONS = (".csv", ".yaml", ".json", ".md", ".xlsx", ".docx", ".pdf", "")
OAS = """openapi: 3.0.3
info: {title: users, version: "1"}
paths:
  /v1/users/{id}:
    get:
      parameters:
        - {name: id, in: path, required: true, schema: {type: integer}}
      responses:
        "200":
          content:
            application/json:
              schema: {type: object, properties: {id: {type: integer}}}
"""
API_SHEET: list[list[str | int | None]] = [
    ["メソッド", "GET"],
    ["パス", "/v1/users/{id}"],
    [None],
    ["No", "区分", "物理名", "論理名", "型", "必須"],
    [1, "パス", "id", "ID", "integer", "○"],
    [2, "レスポンス", "id", "ID", "integer", "○"],
]
# A valid value for every argument a command needs, so that the argument under test is
# the one that is read (the others are valid inputs).
VALID: dict[str, dict[str, dict[str, Any]]] = {
    "doc2md": {"convert": {"inputs": "test.docx", "out_dir": "out"}},
    "fieldcheck": {
        "validate": {"data": "data.csv", "rules": "rules.yaml"},
        "check-rules": {"rules": "rules.yaml"},
        "init": {"data": "data.csv", "dry_run": True},
    },
    "design-diff": {
        "excel": {"before": "api.xlsx", "after": "api2.xlsx"},
        "spec": {"excel": "api.xlsx", "oas": "openapi.yaml"},
    },
    "office-replace": {"replace": {"inputs": "test.docx", "rules": "replace.csv", "dry_run": True}},
}
APPS = [DOC2MD, FIELDCHECK, DESIGN_DIFF, OFFICE_REPLACE]
# Commands whose answer is the named file's own content, by design: not a leak.
SHOWN = {
    ("fieldcheck", "init", "data"): "drafts rules from the file named: its header is the answer"
}


def _workspace(root: Path) -> None:
    from officecli_testkit.sheets import active_sheet
    from openpyxl import Workbook

    shutil.copy(CORPUS / "test.docx", root / "test.docx")
    (root / "data.csv").write_text("code\nA\n", encoding="utf-8")
    (root / "codes.csv").write_text("code\nA\n", encoding="utf-8")
    (root / "rules.yaml").write_text(
        "version: 1\ndatasets: {codes: codes.csv}\n"
        "masters: {m: {dataset: codes, column: code}}\n"
        "rules:\n  - {id: M1, type: reference, field: code, master: m}\n",
        encoding="utf-8",
    )
    (root / "replace.csv").write_text("find,replace\nthe,THE\n", encoding="utf-8")
    (root / "openapi.yaml").write_text(OAS, encoding="utf-8")
    book = Workbook()
    sheet = active_sheet(book)
    for row in API_SHEET:
        sheet.append(row)
    book.save(root / "api.xlsx")
    shutil.copy(root / "api.xlsx", root / "api2.xlsx")
    (root / "vault").mkdir()
    (root / "vault" / "secret").write_text(SECRET, encoding="utf-8")


def _path_args(command: Command) -> list[Arg]:
    """Paths, and KEY=VALUE arguments whose value is a file (--dataset NAME=FILE)."""
    return [
        a
        for a in command_args(command)
        if a.type == "path" or (a.type == "key_value" and a.metavar.endswith("FILE"))
    ]


def _argv(command: Command, target: str, value: str, valid: dict[str, Any]) -> list[str]:
    words = command.name.split()
    for arg in command_args(command):
        given = value if arg.dest == target else valid.get(arg.dest)
        if given is None or given is False:
            continue
        if arg.type == "key_value" and arg.dest == target:
            given = f"codes={value}"
        if arg.positional:
            words.append(str(given))
        elif given is True:
            words.append(arg.flags[-1])
        else:
            words += [arg.flags[-1], str(given)]
    return words


def _commands(app: App) -> list[Command]:
    return list(with_builtins(app).commands)


def _cases() -> list[tuple[App, str, str]]:
    return [
        (app, command.name, arg.dest)
        for app in APPS
        for command in _commands(app)
        for arg in _path_args(command)
        if (app.name, command.name, arg.dest) not in SHOWN
    ]


@pytest.mark.parametrize(
    ("app", "command_name", "target"),
    _cases(),
    ids=[f"{a.name}-{c}-{t}" for a, c, t in _cases()],
)
def test_a_symlink_to_a_secret_never_shows_the_secret(
    app: App,
    command_name: str,
    target: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capfd: pytest.CaptureFixture[str],
) -> None:
    _workspace(tmp_path)
    monkeypatch.chdir(tmp_path)
    command = next(c for c in _commands(app) if c.name == command_name)
    valid = VALID[app.name][command_name]
    for ext in EXTENSIONS:
        link = tmp_path / f"link{ext}"
        link.unlink(missing_ok=True)
        link.symlink_to(tmp_path / "vault" / "secret")
        code = run(app, _argv(command, target, link.name, valid))
        out, err = capfd.readouterr()
        assert code in (0, 1, 2), (ext, out, err)
        for mark in MARKS:
            assert mark not in out and mark not in err, (ext, mark, out, err)
        assert (tmp_path / "vault" / "secret").read_text(encoding="utf-8") == SECRET


def test_every_command_with_a_path_has_valid_values() -> None:
    for app in APPS:
        for command in _commands(app):
            if _path_args(command):
                assert command.name in VALID[app.name], (app.name, command.name)
