"""README's figures come from bench/results/*.json: the table is regenerated and compared, every
bench of the suite has its file, and no hand-typed figure is left outside the table."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from _results import RESULTS, ROOT, read
from readme_table import BEGIN, END, README, render, replace_block, row, show
from suite import BENCHES, SUITE

TOOLING = {"suite.py", "compare.py", "readme_table.py"}  # bench/ scripts that are not benches


def test_readme_table_is_the_one_generated_from_the_results_files() -> None:
    text = README.read_text()
    assert replace_block(text, render()) == text, "run `make bench-table`"


def test_every_bench_of_the_suite_has_a_results_file() -> None:
    missing = [name for name in BENCHES if not (RESULTS / f"{name}.json").exists()]
    assert missing == [], "run `make bench BENCH=...` for them"
    for name in BENCHES:
        document = read(RESULTS / f"{name}.json")
        assert document["bench"] == name
        assert document["ours"], f"{name}: no figure of ours"
        assert re.fullmatch(r"[0-9a-f]{40}", document["commit"]), name


def test_every_script_in_bench_is_in_the_suite_and_writes_its_results() -> None:
    scripts = {p.name for p in (ROOT / "bench").glob("*.py") if not p.name.startswith("_")}
    assert scripts - TOOLING == {argv[0] for argv in SUITE}
    for name in scripts - TOOLING:
        source = (ROOT / "bench" / name).read_text()
        assert "Results(" in source and ".write()" in source, name


def test_no_hand_typed_figure_outside_the_generated_table() -> None:
    text = README.read_text()
    outside = text[: text.index(BEGIN)] + text[text.index(END) + len(END) :]
    assert re.findall(r"\b\d+(?:\.\d+)?x\b", outside) == []  # ratios
    # a paragraph, list item or table row that speaks of a bench quotes none of its figures
    measured = re.compile(r"\d[\d,.]*\s?(?:ms|µs|s|MB|MiB|GB|%|req/s)\b")
    for block in re.split(r"\n(?=\n|- |\| |#)", outside):
        if "bench" in block:
            assert measured.findall(block) == [], block


@pytest.mark.parametrize(
    ("value", "unit", "shown"),
    [
        (19.91, "ms", "19.9 ms"),
        (1.163, "x", "1.16x"),
        (0.3712, "s", "0.371 s"),
        (2131.0, "ms", "2,131 ms"),
        (130.2, "%", "130%"),
        (1200, "", "1,200"),
        (0, "", "0"),
        (0.0, "ms", "0 ms"),
        (3.456, "MiB", "3.46 MiB"),
    ],
)
def test_figures_are_shown_with_about_three_digits(value: float, unit: str, shown: str) -> None:
    assert show(value, unit) == shown


def test_a_row_names_the_bench_its_figures_goals_commit_date_and_load() -> None:
    document: dict[str, Any] = {
        "title": "CLI start-up",
        "commit": "0123456789abcdef0123456789abcdef01234567",
        "dirty": False,
        "date": "2026-12-06T15:48:26+00:00",
        "machine": {"cores": 2, "load_before": [1.234, 1.0, 1.0], "load_after": [2.06, 1, 1]},
        "ours": {"procler capabilities": {"value": 19.9, "unit": "ms", "better": "lower"}},
        "peers": {"python3 -c pass": {"value": 17.1, "unit": "ms", "better": "lower"}},
        "ratios": {
            "a / b": {"value": 1.164, "unit": "x", "better": "lower", "goal": "<= 1.3", "met": True}
        },
        "skipped_peers": {"pandera": "not installable"},
    }
    assert row(["cli_startup.py"], document) == (
        "| CLI start-up (`cli_startup.py`) | procler capabilities **19.9 ms** "
        "| python3 -c pass 17.1 ms; pandera: not run (not installable) "
        "| a / b **1.16x** (goal <= 1.3: met) "
        "| 2026-12-06, 0123456, load 1.2 -> 2.1 on 2 cores |"
    )
    assert row(["procler_scale.py", "1000"], None) == (
        "| `procler_scale.py 1000` | no results file yet | | | |"
    )


def test_replace_block_keeps_what_is_around_the_markers(tmp_path: Path) -> None:
    readme = f"intro\n{BEGIN}\nold\n{END}\nrest\n"
    assert replace_block(readme, f"{BEGIN}\nnew\n{END}") == f"intro\n{BEGIN}\nnew\n{END}\nrest\n"
