"""The wire encoder writes what agentcli's `dumps` writes, and refuses what it refuses."""

from __future__ import annotations

import dataclasses
import datetime
from typing import Any

import pytest

from agentcli.envelope import dumps
from procler.supervisor.api.json_bytes import encode


@dataclasses.dataclass
class Point:
    x: int


@pytest.mark.parametrize(
    "value",
    [
        {"schema_version": "1.0", "success": True, "data": {"name": "api", "pid": None}},
        {"text": '名前 é \n \t " \\ \u2028', "floats": [0.1, 81.972, -3.0], "big": 2**63 - 1},
        {"nested": [[], {}, [1, [2, {"a": (3, 4)}]]], "bool": [True, False]},
        {"beyond 64 bits": 2**70, "negative": -(2**65)},  # orjson refuses: dumps writes them
        {1: "an int key", None: "a null key"},  # idem: dumps writes "1" and "null"
    ],
)
def test_the_bytes_are_those_of_dumps(value: Any) -> None:
    assert encode(value) == dumps(value).encode()


@pytest.mark.parametrize("value", [Point(1), datetime.datetime(2026, 1, 1), {1, 2}])
def test_what_dumps_refuses_is_refused(value: Any) -> None:
    with pytest.raises(TypeError, match="is not JSON serialisable"):
        encode({"data": value})
