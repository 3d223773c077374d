"""What a bench writes to bench/results/NAME.json."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import _results
import pytest
from _results import Results, bench_name, goal_met, measured_code, significant


def test_a_bench_is_named_by_its_script_and_arguments() -> None:
    assert bench_name("bench/cli_startup.py", []) == "cli_startup"
    assert bench_name("/x/bench/procler_scale.py", ["1000"]) == "procler_scale-1000"


def test_figures_keep_four_significant_digits_and_counts_stay_counts() -> None:
    assert significant(19.912345) == 19.91
    assert significant(0.000123456) == 0.0001235
    assert significant(2130.77) == 2131.0
    assert significant(1200) == 1200
    assert isinstance(significant(True), int)


def test_goals_are_an_operator_and_a_bound() -> None:
    assert goal_met(1.2, "<= 1.3")
    assert not goal_met(1.3, "< 1.3")
    assert goal_met(0, "== 0")
    assert goal_met(31.0, ">= 30")
    with pytest.raises(ValueError, match="expected one of"):
        goal_met(1.0, "about 1")


def test_write_records_code_machine_figures_and_skipped_peers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "r.json"
    monkeypatch.setenv("BENCH_RESULTS", str(out))
    monkeypatch.setenv("BENCH_COMMIT", "abc123")
    results = Results("a title", argv=["bench/procler_scale.py", "1000"])
    results.ours("start --all", 2.13456, "s", goal="< 3")
    results.ours("lost", 0, "", goal="== 0")
    results.peer("frictionless", 182.04, "s")
    results.ratio("frictionless / fieldcheck", 19.78, "higher", goal=">= 30")
    results.skip_peer("pandera", "could not be installed")
    assert results.write() == out
    document = json.loads(out.read_text())
    machine = document.pop("machine")
    assert document.pop("date")[:2] == "20"
    assert sorted(machine) == ["cores", "cpu", "load_after", "load_before", "python"]
    assert len(machine["load_before"]) == len(machine["load_after"]) == 3
    assert document == {
        "schema_version": 1,
        "bench": "procler_scale-1000",
        "title": "a title",
        "command": "python bench/procler_scale.py 1000",
        "commit": "abc123",
        "dirty": False,
        "ours": {
            "start --all": {
                "value": 2.135,
                "unit": "s",
                "better": "lower",
                "goal": "< 3",
                "met": True,
            },
            "lost": {"value": 0, "unit": "", "better": "lower", "goal": "== 0", "met": True},
        },
        "peers": {"frictionless": {"value": 182.0, "unit": "s", "better": "lower"}},
        "ratios": {
            "frictionless / fieldcheck": {
                "value": 19.78,
                "unit": "x",
                "better": "higher",
                "goal": ">= 30",
                "met": False,
            }
        },
        "skipped_peers": {"pandera": "could not be installed"},
        "notes": [],
    }


def test_a_checkout_is_dirty_by_its_code_not_by_results_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A results file written by the bench before (`make bench BENCH=a,b`) leaves the
    checkout clean, even as the first line of `git status --porcelain` (" M bench/...")."""
    (tmp_path / "bench" / "results").mkdir(parents=True)
    (tmp_path / "bench" / "results" / "a.json").write_text("{}")
    (tmp_path / "code.py").write_text("")
    for argv in (["init", "-q"], ["add", "."], ["commit", "-qm", "x"]):
        command = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(tmp_path)]
        subprocess.run([*command, *argv], check=True)
    monkeypatch.delenv("BENCH_COMMIT", raising=False)
    monkeypatch.setattr(_results, "ROOT", tmp_path)
    (tmp_path / "bench" / "results" / "a.json").write_text('{"new": 1}')
    commit, dirty = measured_code()
    assert (len(commit), dirty) == (40, False)
    (tmp_path / "code.py").write_text("changed = True\n")
    assert measured_code() == (commit, True)
