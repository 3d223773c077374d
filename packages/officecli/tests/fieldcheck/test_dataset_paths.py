"""A rules file reads datasets only under its own folder (or --dataset-root), symlinks
followed; --dataset NAME=FILE on the command line names any file. No error quotes a
file's content: a header's names only when the rules' columns are recognised in it."""

from __future__ import annotations

from pathlib import Path

import pytest
from officecli_testkit.fieldcheck_helpers import run_cli, write_csv

SECRET = "root:$6$S3cr3tSalt$hash:20228:0:99999:7:::\nAPI_TOKEN=tok-S3CR3T-0123\n"
MASTER_RULES = (
    "version: 1\ndatasets: {{codes: {path}}}\nmasters: {{m: {{dataset: codes, column: code}}}}\n"
    "rules:\n  - {{id: M1, type: reference, field: code, master: m}}\n"
)


@pytest.fixture
def layout(tmp_path: Path) -> Path:
    """rules/ (the rules and the data), a secret file beside it, a master outside it."""
    (tmp_path / "rules").mkdir()
    (tmp_path / "secret").write_text(SECRET, encoding="utf-8")
    write_csv(tmp_path / "codes.csv", "code\nA\n")
    write_csv(tmp_path / "rules" / "data.csv", "code\nA\nB\n")
    return tmp_path


def _rules(layout: Path, path: str) -> Path:
    rules = layout / "rules" / "rules.yaml"
    rules.write_text(MASTER_RULES.format(path=path), encoding="utf-8")
    return rules


def _clean(*texts: str) -> None:
    for text in texts:
        assert "S3cr3t" not in text and "S3CR3T" not in text and "root:" not in text


@pytest.mark.parametrize("path", ["shadow.csv", "../codes.csv", "ABSOLUTE"])
def test_a_dataset_outside_the_rules_folder_is_refused_at_its_line(layout: Path, path: str) -> None:
    (layout / "rules" / "shadow.csv").symlink_to(layout / "secret")
    path = str(layout / "codes.csv") if path == "ABSOLUTE" else path
    rules = _rules(layout, path)
    name = Path(path).name
    commands: list[list[str | Path]] = [
        ["validate", layout / "rules" / "data.csv", "-r", rules],
        ["check-rules", rules],
    ]
    for args in commands:
        result = run_cli(*args)
        env = result.json
        assert (result.code, env["error_code"], env["error"]) == (
            2,
            "INVALID_RULES",
            f"rules.yaml:2:19: dataset 'codes': {name} resolves outside {layout / 'rules'}",
        )
        assert env["suggestion"] == (
            f"keep the file under {layout / 'rules'}, pass --dataset codes=FILE, or name a "
            "folder that holds it with --dataset-root"
        )
        _clean(result.stdout, result.stderr)


def test_dataset_root_and_the_command_line_may_name_files_elsewhere(layout: Path) -> None:
    rules = _rules(layout, "../codes.csv")
    data = layout / "rules" / "data.csv"
    result = run_cli("validate", data, "-r", rules, "--dataset-root", layout)
    assert (result.code, [f["actual"] for f in result.json["findings"]]) == (1, ["B"])
    rules = _rules(layout, "missing.csv")
    result = run_cli("validate", data, "-r", rules, "--dataset", f"codes={layout / 'codes.csv'}")
    assert (result.code, [f["actual"] for f in result.json["findings"]]) == (1, ["B"])


def test_a_secret_read_as_a_dataset_or_as_data_is_never_quoted(layout: Path) -> None:
    """The leak of 2026-12: `shadow.csv -> /etc/shadow` read as a dataset (here through
    --dataset-root /), its first line shown as the columns in MISSING_COLUMN's hint."""
    (layout / "rules" / "shadow.csv").symlink_to(layout / "secret")
    rules = _rules(layout, "shadow.csv")
    data = layout / "rules" / "data.csv"
    commands: list[list[str | Path]] = [
        ["validate", data, "-r", rules, "--dataset-root", "/"],
        ["validate", data, "-r", rules, "--dataset", "codes=rules/shadow.csv"],
        ["validate", layout / "rules" / "shadow.csv", "-r", rules, "--dataset-root", "/"],
    ]
    for args in commands:
        result = run_cli(*args, cwd=layout)
        env = result.json
        assert (result.code, env["error_code"]) == (2, "MISSING_COLUMN"), env
        assert env["suggestion"] == (
            "none of the columns the rules name is in its header (1 column(s)): "
            "check that it is the right file"
        )
        _clean(result.stdout, result.stderr)
