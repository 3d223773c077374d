"""design-diff spec: an Excel API definition against a generated OpenAPI file with $ref."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from officecli_testkit.design_diff_helpers import write_book

from agentcli.main import run
from officecli.design_diff.commands import APP

OAS = """openapi: 3.1.0
info: {title: users, version: "1"}
servers:
  - url: https://api.example.com/v1
paths:
  /users/{userId}:
    parameters:
      - $ref: '#/components/parameters/UserId'
    get:
      parameters:
        - name: fields
          in: query
          schema: {type: string, maxLength: 50}
      responses:
        "200":
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/User'
        "404": {description: missing}
  /users:
    post:
      requestBody:
        content:
          application/json:
            schema: {$ref: '#/components/schemas/User'}
      responses:
        "201": {description: created}
components:
  parameters:
    UserId:
      name: userId
      in: path
      required: true
      schema: {type: integer}
  schemas:
    User:
      type: object
      required: [id, name]
      properties:
        id: {type: integer}
        name: {type: string, maxLength: 20}
        status: {type: string, enum: [active, locked]}
        email: {type: string, format: email}
"""

HEADER = ["No", "区分", "物理名", "論理名", "型", "必須", "最大長", "列挙値"]


def _sheet(items: list[list[Any]], path: str = "/v1/users/{id}") -> list[list[Any]]:
    return [["メソッド", "GET"], ["パス", path], [None], HEADER, *items]


GOOD = [
    [1, "パス", "id", "ユーザーID", "integer", "○", None, None],
    [2, "クエリ", "fields", "項目", "string", None, 50, None],
    [3, "レスポンス", "id", "ID", "integer", "○", None, None],
    [4, "レスポンス", "name", "氏名", "文字列", "○", 20, None],
    [5, "レスポンス", "status", "状態", "string", None, None, "active, locked"],
    [6, "レスポンス", "email", "メール", "string", None, None, None],
]


@pytest.fixture
def spec(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Callable[..., tuple[int, Any]]:
    def go(
        sheets: dict[str, Any], *args: str, oas: str = OAS, severity: str = ""
    ) -> tuple[int, Any]:
        book = write_book(tmp_path / "api.xlsx", sheets)
        (tmp_path / "openapi.yaml").write_text(oas, encoding="utf-8")
        argv = ["spec", "--excel", str(book), "--oas", str(tmp_path / "openapi.yaml"), *args]
        if severity:
            (tmp_path / "sev.yaml").write_text(severity, encoding="utf-8")
            argv += ["--severity-file", str(tmp_path / "sev.yaml")]
        code = run(APP, argv)
        return code, json.loads(capsys.readouterr().out)

    return go


def _found(report: dict[str, Any]) -> list[tuple[str, str, str, str, str]]:
    return [
        (f["rule_id"], f["location"], f["field"], f["expected"], f["actual"])
        for f in report["findings"]
    ]


def test_matching_definition_only_misses_the_undescribed_operation(spec: Any) -> None:
    code, report = spec({"ユーザー取得": _sheet(GOOD)})
    assert code == 1
    assert _found(report) == [
        ("spec.endpoint.missing-in-excel", "openapi.yaml:22:5", "endpoint", "", "POST /users")
    ]
    assert report["meta"]["endpoints_in_excel"] == 1 and report["meta"]["operations_in_oas"] == 2


def test_mismatches_point_at_the_sheet_cell_and_the_oas_line(spec: Any) -> None:
    items = [list(r) for r in GOOD]
    items[0][4] = "string"  # path id: integer in the OAS ($ref parameter)
    items[3][6] = 30  # name: maxLength 20 in the $ref schema
    items[3][5] = None  # name: required in the schema
    items[4][7] = "active, locked, deleted"
    del items[5]  # email not in the sheet
    items.append([7, "レスポンス", "age", "年齢", "integer", None, None, None])
    _, report = spec(
        {"ユーザー取得": _sheet(items)}, severity="spec.property.enum-mismatch: error\n"
    )
    assert _found(report) == [
        ("spec.property.type-mismatch", "ユーザー取得!C5", "id", "string", "integer"),
        ("spec.property.required-mismatch", "ユーザー取得!C8", "name", "optional", "required"),
        ("spec.property.max-length-mismatch", "ユーザー取得!C8", "name", "30", "20"),
        ("spec.property.enum-mismatch", "ユーザー取得!C9", "status", "active, locked, deleted", "active, locked"),
        ("spec.property.missing-in-oas", "ユーザー取得!C10", "age", "response", ""),
        ("spec.property.missing-in-excel", "ユーザー取得!B1", "email", "", "response"),
        ("spec.endpoint.missing-in-excel", "openapi.yaml:22:5", "endpoint", "", "POST /users"),
    ]  # fmt: skip
    by_rule = {f["rule_id"]: f for f in report["findings"]}
    assert by_rule["spec.property.type-mismatch"]["suggestion"] == (
        "align the sheet with openapi.yaml:32:7 (or the other way round)"
    )
    assert by_rule["spec.property.max-length-mismatch"]["suggestion"].startswith(
        "align the sheet with openapi.yaml:42:9"
    )
    assert by_rule["spec.property.enum-mismatch"]["severity"] == "error"  # --severity-file


def test_bad_severity_file_is_exit_2_with_its_line(spec: Any) -> None:
    code, env = spec(
        {"S": _sheet(GOOD)}, severity="spec.property.type-mismatch: info\nspec.typo: error\n"
    )
    assert (code, env["error_code"]) == (2, "INVALID_PRESET")
    assert env["error"].endswith(
        "sev.yaml:2:1: unknown rule id 'spec.typo' (did you mean 'spec.property.type-mismatch'?)"
    )


def test_section_rows_and_no_section_means_response(spec: Any) -> None:
    rows = [
        ["Method", "GET"],
        ["Path", "/users/{uid}"],
        [None],
        ["物理名", "型", "必須"],
        ["id", "integer", "○"],
        ["name", "string", "○"],
        ["status", "string", ""],
        ["email", "string", ""],
    ]
    _, report = spec({"S": rows})
    assert [(f["rule_id"], f["field"]) for f in report["findings"]] == [
        ("spec.property.missing-in-excel", "userId"),
        ("spec.property.missing-in-excel", "fields"),
        ("spec.endpoint.missing-in-excel", "endpoint"),
    ]


def test_endpoint_missing_in_oas(spec: Any) -> None:
    _, report = spec({"S": _sheet(GOOD, "/v1/orders/{id}")})
    assert [f["rule_id"] for f in report["findings"]] == [
        "spec.endpoint.missing-in-oas",
        "spec.endpoint.missing-in-excel",
        "spec.endpoint.missing-in-excel",
    ]


@pytest.mark.parametrize(
    ("oas", "message"),
    [
        (OAS.replace("'#/components/schemas/User'\n        \"404\"", "'#/components/schemas/Nobody'\n        \"404\""), "openapi.yaml:19:17: $ref '#/components/schemas/Nobody' does not resolve (no 'Nobody')"),
        ("openapi: [3\n", "openapi.yaml:2:1: expected ',' or ']', but got '<stream end>'"),
        ("title: x\n", "openapi.yaml: not an OpenAPI 3 document (needs `openapi` and `paths`)"),
        (OAS.replace("'#/components/schemas/User'\n        \"404\"", "'../x.yaml#/User'\n        \"404\""), "openapi.yaml:19:17: $ref '../x.yaml#/User' points outside the OpenAPI file's folder"),
    ],
)  # fmt: skip
def test_bad_oas_is_exit_2(spec: Any, oas: str, message: str) -> None:
    code, env = spec({"S": _sheet(GOOD)}, oas=oas)
    assert (code, env["error_code"], env["error"]) == (2, "INVALID_OAS", message)


def test_workbook_without_endpoint_is_exit_2(spec: Any) -> None:
    code, env = spec({"S": [HEADER, *GOOD]})
    assert (code, env["error_code"]) == (2, "NO_ENDPOINT")


NESTED = """openapi: 3.0.3
info: {title: orders, version: "1"}
paths:
  /orders:
    get:
      responses:
        "200":
          content:
            application/json:
              schema:
                type: object
                properties:
                  customer:
                    type: object
                    properties:
                      name: {type: string}
                  items:
                    type: array
                    items:
                      type: object
                      properties:
                        sku: {type: string}
"""


def test_levels_make_dotted_names_for_nested_properties(spec: Any) -> None:
    rows = [
        ["Method", "GET"],
        ["Path", "/orders"],
        [None],
        ["階層", "物理名", "型"],
        [1, "customer", "object"],
        [2, "name", "string"],
        [1, "items", "array"],
        [2, "sku", "integer"],
    ]
    _, report = spec({"S": rows}, oas=NESTED)
    assert _found(report) == [
        ("spec.property.type-mismatch", "S!B8", "items.sku", "integer", "string")
    ]


def test_ref_to_a_file_beside_and_a_json_oas(tmp_path: Path, spec: Any) -> None:
    (tmp_path / "schemas.json").write_text(
        json.dumps({"Order": {"type": "object", "properties": {"id": {"type": "integer"}}}}),
        encoding="utf-8",
    )
    oas = {
        "openapi": "3.1.0",
        "info": {"title": "o", "version": "1"},
        "paths": {
            "/orders/{orderId}": {
                "get": {
                    "responses": {
                        "200": {
                            "content": {
                                "application/json": {"schema": {"$ref": "schemas.json#/Order"}}
                            }
                        }
                    }
                }
            }
        },
    }
    rows = [["Method", "GET"], ["Path", "/orders/{id}"], [None], ["物理名", "型"], ["id", "string"]]
    _, report = spec({"S": rows}, oas=json.dumps(oas, indent=2))
    assert _found(report) == [("spec.property.type-mismatch", "S!A5", "id", "string", "integer")]
    assert report["findings"][0]["suggestion"] == (
        "align the sheet with schemas.json:1:45 (or the other way round)"
    )
