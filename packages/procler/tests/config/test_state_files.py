"""The state JSON files share one reader: a missing file is nothing stored, an unreadable,
non-JSON or non-object file is StateFileCorrupt, and `procler define`'s and `procler
scale`'s files become the same finding on the file when damaged."""

from __future__ import annotations

from pathlib import Path

import pytest
from procler_testkit.config_helpers import errors_of, write_config

from procler.config.state_files import StateFileCorrupt, read_state_json, write_state_json

CONFIG = """
version: 1
processes:
  worker: {command: run, replicas: 2}
"""


def test_a_missing_file_is_none_and_an_object_is_read(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    assert read_state_json(str(path)) is None
    path.write_text('{"version": 1, "processes": {}}', encoding="utf-8")
    assert read_state_json(str(path)) == {"version": 1, "processes": {}}


@pytest.mark.parametrize(
    ("content", "why"),
    [
        (
            "{",
            "cannot read {path}: Expecting property name enclosed in double quotes: "
            "line 1 column 2 (char 1)",
        ),
        ("[1]", "{path} does not hold a JSON object"),
        (None, "cannot read {path}: [Errno 21] Is a directory: '{path}'"),
    ],
)
def test_a_damaged_file_is_state_file_corrupt(
    tmp_path: Path, content: str | None, why: str
) -> None:
    path = tmp_path / "state.json"
    if content is None:
        path.mkdir()
    else:
        path.write_text(content, encoding="utf-8")
    with pytest.raises(StateFileCorrupt) as raised:
        read_state_json(str(path))
    assert str(raised.value) == why.format(path=path)


@pytest.mark.parametrize(
    ("name", "hint"),
    [
        ("definitions.json", "fix or delete {path} (it holds the `procler define` definitions)"),
        ("replicas.json", "delete {path} (it holds the `procler scale` counts), then scale again"),
    ],
)
def test_each_damaged_state_file_is_a_finding_on_it(project: Path, name: str, hint: str) -> None:
    config = write_config(project, CONFIG)
    path = project / ".procler" / "state" / name
    path.parent.mkdir()
    path.write_text("[]", encoding="utf-8")
    assert errors_of(config) == [
        {
            "file": str(path),
            "line": 1,
            "column": 1,
            "path": "",
            "message": f"{path} does not hold a JSON object",
            "suggestion": hint.format(path=path),
        }
    ]


def test_a_state_file_that_is_not_json_is_a_finding_where_it_breaks(project: Path) -> None:
    config = write_config(project, CONFIG)
    path = project / ".procler" / "state" / "definitions.json"
    path.parent.mkdir()
    path.write_text('{"version": 1,\n  "processes": {,}}\n', encoding="utf-8")
    (finding,) = errors_of(config)
    assert (finding["file"], finding["line"], finding["column"]) == (str(path), 2, 17)


def test_scale_counts_without_a_processes_object_are_a_finding(project: Path) -> None:
    config = write_config(project, CONFIG)
    path = project / ".procler" / "state" / "replicas.json"
    path.parent.mkdir()
    path.write_text('{"version": 1, "processes": 3}', encoding="utf-8")
    assert [(e["file"], e["message"]) for e in errors_of(config)] == [
        (str(path), "it has no `processes` object")
    ]


def test_a_written_file_replaces_the_old_one_whole_and_private(tmp_path: Path) -> None:
    path = tmp_path / "replicas.json"
    path.write_text("old", encoding="utf-8")
    write_state_json(str(path), {"version": 1, "processes": {"wörker": {"count": 2}}})
    assert read_state_json(str(path)) == {"version": 1, "processes": {"wörker": {"count": 2}}}
    assert (oct(path.stat().st_mode & 0o777), [p.name for p in tmp_path.iterdir()]) == (
        "0o600",
        ["replicas.json"],
    )
