"""`office-tools mcp` with the official MCP SDK's client, over stdio and over Streamable HTTP:
the tools it lists (schemas, annotations), a call of each on the shared corpus whose
structured result is the CLI's JSON for the same call, paths confined to --root, the dry
run before office-replace writes, and the HTTP listener's token, Host and Origin rules."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx2
import openpyxl
import pytest
from mcp import Client, ClientSession, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from officecli_testkit.sheets import active_sheet

from agentcli.report import report_schema

ROOT = Path(__file__).resolve().parents[4]
CORPUS = ROOT / ".." / "shared" / "corpus" / "markitdown"
BIN = Path(sys.executable).parent
OAS = """openapi: 3.1.0
info: {title: users, version: "1"}
paths:
  /users/{id}:
    get:
      parameters:
        - {name: id, in: path, required: true, schema: {type: integer}}
      responses:
        "200":
          content:
            application/json:
              schema:
                type: object
                required: [id]
                properties:
                  id: {type: integer}
                  name: {type: string, maxLength: 20}
"""
# (annotations read_only, destructive, idempotent) of every tool
TOOLS = {
    "doc2md_convert": (False, False, True),
    "fieldcheck_validate": (True, False, True),
    "fieldcheck_init": (False, False, True),
    "fieldcheck_check_rules": (True, False, True),
    "fieldcheck_list_rules": (True, False, True),
    "fieldcheck_schema": (True, False, True),
    "design_diff_excel": (True, False, True),
    "design_diff_spec": (True, False, True),
    "design_diff_presets": (True, False, True),
    "office_replace_replace": (False, False, True),
}


def book(path: Path, rows: list[list[Any]]) -> None:
    workbook = openpyxl.Workbook()
    sheet = active_sheet(workbook)
    for row in rows:
        sheet.append(row)
    workbook.save(path)


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder the server is started on, with the inputs of every call."""
    made = tmp_path_factory.mktemp("mcp") / "work"
    (made / "docs").mkdir(parents=True)
    shutil.copy(CORPUS / "test.docx", made / "docs" / "paper.docx")
    shutil.copy(CORPUS / "test.pptx", made / "docs" / "slides.pptx")
    shutil.copy(CORPUS / "test_mskanji.csv", made / "kanji.csv")
    (made / "expenses.csv").write_text("日付,金額\n2026-04-01,1000\n2026-04-02,-5\n", "utf-8")
    (made / "rules.yaml").write_text(
        "version: 1\nname: expenses\nrules:\n  - {id: EXP-002, type: range, field: 金額, min: 0}\n"
    )
    header = ["物理名", "論理名", "型", "桁数"]
    book(made / "v1.xlsx", [header, ["id", "ID", "int", 10], ["name", "氏名", "varchar", 100]])
    book(made / "v2.xlsx", [header, ["id", "ID", "int", 10], ["name", "氏名", "varchar", 50]])
    book(
        made / "api.xlsx",
        [
            ["メソッド", "GET"],
            ["パス", "/users/{id}"],
            [None],
            ["No", "区分", "物理名", "論理名", "型", "必須", "最大長"],
            [1, "パス", "id", "ID", "integer", "○", None],
            [2, "レスポンス", "id", "ID", "integer", "○", None],
            [3, "レスポンス", "name", "氏名", "string", None, 30],
        ],
    )
    (made / "openapi.yaml").write_text(OAS)
    (made / "rules.csv").write_text("find,replace\nAutoGen,AutoWeave\n", "utf-8")
    (made / "outside.yaml").symlink_to("/etc/hostname")  # inside by name, outside for real
    (made / "linked").mkdir()
    (made / "linked" / "notes.docx").symlink_to(CORPUS.resolve() / "test.docx")  # outside too
    lookup = "masters: {m: {dataset: secret, column: root}}\nrules:\n  - {id: L, type: reference, field: 金額, master: m}\n"
    (made / "leak.yaml").write_text(
        f"version: 1\nname: leak\ndatasets: {{secret: /etc/passwd}}\n{lookup}"
    )
    (made / "lookup.yaml").write_text(
        f"version: 1\nname: lookup\ndatasets: {{secret: master.csv}}\n{lookup}"
    )
    (made / "master.csv").write_text("root\n1000\n")
    return made


def calls(root: Path) -> list[tuple[str, dict[str, Any], list[str]]]:
    """(tool, arguments, the same call on the command line), in the order they run."""
    r = str(root)
    return [
        ("fieldcheck_list_rules", {}, ["fieldcheck", "list-rules"]),
        ("fieldcheck_schema", {}, ["fieldcheck", "schema"]),
        (
            "fieldcheck_init",
            {"data": "expenses.csv", "dry_run": True},
            ["fieldcheck", "init", f"{r}/expenses.csv", "--dry-run"],
        ),
        ("fieldcheck_check_rules", {"rules": "rules.yaml"}, ["fieldcheck", "check-rules", f"{r}/rules.yaml"]),
        (
            "fieldcheck_validate",
            {"data": "expenses.csv", "rules": "rules.yaml"},
            ["fieldcheck", "validate", f"{r}/expenses.csv", "-r", f"{r}/rules.yaml"],
        ),
        ("design_diff_presets", {}, ["design-diff", "presets"]),
        (
            "design_diff_excel",
            {"before": "v1.xlsx", "after": "v2.xlsx", "type": "table"},
            ["design-diff", "excel", "--before", f"{r}/v1.xlsx", "--after", f"{r}/v2.xlsx", "--type", "table"],
        ),
        (
            "design_diff_excel",
            {"before": "v1.xlsx", "after": "v2.xlsx", "key": ["物理"]},  # a typo: the CLI's error
            ["design-diff", "excel", "--before", f"{r}/v1.xlsx", "--after", f"{r}/v2.xlsx", "--key", "物理"],
        ),
        (
            "design_diff_spec",
            {"excel": "api.xlsx", "oas": "openapi.yaml"},
            ["design-diff", "spec", "--excel", f"{r}/api.xlsx", "--oas", f"{r}/openapi.yaml"],
        ),
        (
            "doc2md_convert",
            {"inputs": ["docs"], "recursive": True, "out_dir": "md"},
            ["doc2md", "-r", f"{r}/docs", "-d", f"{r}/md"],
        ),
        (
            "office_replace_replace",
            {"inputs": ["docs"], "recursive": True, "rules": "rules.csv", "dry_run": True},
            ["office-replace", "-r", f"{r}/docs", "--rules", f"{r}/rules.csv", "--dry-run"],
        ),
    ]  # fmt: skip


def cli(root: Path, argv: list[str]) -> tuple[int, dict[str, Any]]:
    done = subprocess.run(
        [str(BIN / argv[0]), *argv[1:]], cwd=root, capture_output=True, text=True, timeout=300
    )
    return done.returncode, json.loads(done.stdout)


def expected(code: int, answer: dict[str, Any]) -> tuple[bool, dict[str, Any], int]:
    """What the MCP result must be for this CLI answer: (is_error, structured, exit code)."""
    if "tool" in answer:  # a findings report, findings or not
        return False, answer, code
    if answer["success"]:
        return False, answer["data"], code
    keys = ("error", "error_code", "suggestion", "data")
    return True, {k: answer[k] for k in keys if k in answer}, code


async def drive(client: Any, root: Path) -> dict[str, Any]:
    """Everything a test checks of one session (stdio or HTTP)."""
    listed = {t.name: t for t in (await client.list_tools()).tools}
    answers = []
    for tool, arguments, _argv in calls(root):
        result = await client.call_tool(tool, arguments)
        answers.append((result.is_error, result.structured_content, result.meta["exit_code"]))
    real = {"inputs": ["docs"], "recursive": True, "rules": "rules.csv", "out_dir": "out"}
    after_dry_run = await client.call_tool("office_replace_replace", real)
    other = {**real, "rules": "rules.yaml", "out_dir": "out2"}  # never dry-run in this session
    refused = await client.call_tool("office_replace_replace", other)
    outside = [
        (await client.call_tool(tool, args)).structured_content
        for tool, args in (
            ("fieldcheck_check_rules", {"rules": "/etc/passwd"}),
            ("fieldcheck_check_rules", {"rules": "outside.yaml"}),
            ("fieldcheck_check_rules", {"rules": "../../etc/passwd"}),
            ("fieldcheck_validate", {"data": "expenses.csv", "rules": "leak.yaml"}),
            ("fieldcheck_validate", {"data": "expenses.csv", "rules": "lookup.yaml", "dataset": ["secret=/etc/passwd"]}),
            ("doc2md_convert", {"inputs": ["outside.yaml"], "dry_run": True}),
            ("doc2md_convert", {"inputs": ["linked"], "recursive": True, "out_dir": "md3"}),
        )
    ]  # fmt: skip
    return {
        "listed": listed,
        "answers": answers,
        "after_dry_run": (after_dry_run.is_error, after_dry_run.structured_content),
        "refused": refused.structured_content,
        "outside": outside,
    }


def check_session(seen: dict[str, Any], root: Path, cli_answers: list[Any]) -> None:
    listed = seen["listed"]
    assert sorted(listed) == sorted(TOOLS)
    for name, (read_only, destructive, idempotent) in TOOLS.items():
        notes = listed[name].annotations
        assert (notes.read_only_hint, notes.destructive_hint, notes.idempotent_hint) == (
            read_only, destructive, idempotent
        ), name  # fmt: skip
        assert notes.open_world_hint is False
    assert listed["fieldcheck_validate"].output_schema == report_schema()
    assert (
        listed["office_replace_replace"].input_schema["properties"]["confirm"]["type"] == "boolean"
    )
    assert "output" not in listed["doc2md_convert"].input_schema["properties"]
    assert seen["answers"] == cli_answers
    is_error, report = seen["after_dry_run"]
    assert is_error is False
    dry_report = seen["answers"][-1][1]
    assert report["findings"] == dry_report["findings"]  # the dry run said what it wrote
    assert (root / "out" / "paper.docx").is_file()
    assert seen["refused"]["error_code"] == "DRY_RUN_REQUIRED"
    assert not (root / "out2").exists()
    codes = [answer.get("error_code") for answer in seen["outside"]]
    assert codes == ["PATH_OUTSIDE_ROOT"] * 6 + [None]
    converted = seen["outside"][-1]  # doc2md reports a file it may not read, and reads nothing
    assert [(f["rule_id"], f["field"]) for f in converted["findings"]] == [
        ("convert.failed", "PATH_OUTSIDE_ROOT")
    ]
    assert not list((root / "md3").glob("*.md"))


@pytest.fixture(scope="module")
def cli_answers(root: Path) -> list[Any]:
    return [expected(*cli(root, argv)) for _tool, _args, argv in calls(root)]


def reset(root: Path) -> None:
    for made in ("out", "out2", "md", "md3"):
        shutil.rmtree(root / made, ignore_errors=True)


def test_over_stdio(root: Path, cli_answers: list[Any]) -> None:
    reset(root)
    server = StdioServerParameters(
        command=str(BIN / "office-tools"), args=["mcp", "--root", str(root)]
    )

    async def go() -> dict[str, Any]:
        async with Client(server, read_timeout_seconds=300) as client:
            return await drive(client, root)

    check_session(anyio.run(go), root, cli_answers)


@pytest.fixture
def listener(root: Path, tmp_path: Path) -> Iterator[dict[str, Any]]:
    token_file = tmp_path / "state" / "token"
    proc = subprocess.Popen(
        [str(BIN / "office-tools"), "mcp", "--http", "--port", "0", "--root", str(root), "--token-file", str(token_file)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        about = json.loads(proc.stdout.readline())
        yield {**about, "token": token_file.read_text().strip(), "proc": proc}
    finally:
        os.kill(proc.pid, signal.SIGTERM)
        out, _err = proc.communicate(timeout=30)
    assert (proc.returncode, out) == (130, "")  # interrupted; nothing after the first line


def test_over_http(root: Path, cli_answers: list[Any], listener: dict[str, Any]) -> None:
    reset(root)
    assert listener["root"] == os.path.realpath(root)
    assert listener["mcp"] == listener["url"] + "/mcp"
    assert oct(Path(listener["token_file"]).stat().st_mode & 0o777) == "0o600"

    async def go() -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {listener['token']}"}
        async with (
            httpx2.AsyncClient(headers=headers, timeout=300) as http,
            streamable_http_client(listener["mcp"], http_client=http) as (read, write, *_),
            ClientSession(read, write) as client,
        ):
            await client.initialize()
            return await drive(client, root)

    check_session(anyio.run(go), root, cli_answers)


def test_the_http_listener_refuses_without_token_host_or_origin(listener: dict[str, Any]) -> None:
    message = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    good = {
        "Authorization": f"Bearer {listener['token']}",
        "Accept": "application/json, text/event-stream",
    }
    cases = [
        ({**good, "Authorization": "Bearer wrong"}, 401, "UNAUTHORIZED"),
        ({**good, "Host": "evil.example"}, 403, "FORBIDDEN"),
        ({**good, "Origin": "http://evil.example"}, 403, "FORBIDDEN"),
    ]
    with httpx2.Client(timeout=30) as http:
        for headers, status, code in cases:
            answer = http.post(listener["mcp"], json=message, headers=headers)
            assert (answer.status_code, answer.json()["error_code"]) == (status, code)
        answer = http.post(listener["url"] + "/other", json=message, headers=good)
        assert (answer.status_code, answer.json()["error_code"]) == (404, "ROUTE_NOT_FOUND")


def test_a_root_that_is_no_folder_is_refused(tmp_path: Path) -> None:
    done = subprocess.run(
        [str(BIN / "office-tools"), "mcp", "--root", str(tmp_path / "nope")],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    answer = json.loads(done.stdout)
    assert (done.returncode, answer["error_code"]) == (2, "USAGE")
    assert answer["error"] == f"--root {tmp_path / 'nope'}: not a folder"
