from __future__ import annotations

import json

import pytest

from agentcli import envelope


def test_build_orders_keys_and_leaves_out_absent_values() -> None:
    env = envelope.build(False, error="bad", error_code="USAGE", suggestion="fix")
    assert list(env) == ["schema_version", "success", "error", "error_code", "suggestion"]
    assert env == {
        "schema_version": "1.0",
        "success": False,
        "error": "bad",
        "error_code": "USAGE",
        "suggestion": "fix",
    }


def test_build_success_has_data_only() -> None:
    assert envelope.build(True, data={"a": 1}) == {
        "schema_version": "1.0",
        "success": True,
        "data": {"a": 1},
    }
    assert envelope.build(True) == {"schema_version": "1.0", "success": True}


@pytest.mark.parametrize(
    "obj",
    [
        {"b": 1, "a": [1, 2.5, None, True, False], "日本": '語\n\t"\\\x01'},
        [],
        {},
        "plain",
        -3,
        1e100,
        {"nested": {"deep": [{"x": "\u2028"}]}},
    ],
)
def test_fast_dumps_equals_json_dumps(obj: object) -> None:
    assert envelope.dumps(obj) == json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def test_dumps_refuses_nan_and_unknown_types() -> None:
    with pytest.raises(ValueError, match="Out of range float values are not JSON compliant"):
        envelope.dumps({"x": float("nan")})
    with pytest.raises(TypeError, match="set is not JSON serialisable"):
        envelope.dumps({1, 2})


def test_lone_surrogates_from_argv_go_out_escaped_as_valid_utf8(
    capfdbinary: pytest.CaptureFixture[bytes],
) -> None:
    name = b"bad-\xff.csv".decode("utf-8", "surrogateescape")
    envelope.emit(envelope.build(False, error=f"{name}: no such file"))
    raw = capfdbinary.readouterr().out
    assert json.loads(raw.decode("utf-8"))["error"] == "bad-\udcff.csv: no such file"
