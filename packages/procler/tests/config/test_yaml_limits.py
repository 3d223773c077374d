"""Budgets of the YAML loader: alias expansion, nesting, number length, YAML version."""

from __future__ import annotations

from pathlib import Path

import pytest
from procler_testkit.config_helpers import errors_of, run_procler, write_config

from procler.config.substitute import MAX_EXPANSION, MAX_VALUE
from procler.config.yaml_nodes import MAX_DEPTH, MAX_NODES


def alias_bomb(levels: int, fan: int = 9) -> str:
    """Each level's list repeats the previous level's alias `fan` times: fan**levels nodes."""
    lines = ["version: 1", "vars:", "  l0: &l0 x"]
    for level in range(1, levels + 1):
        refs = ", ".join([f"*l{level - 1}"] * fan)
        lines.append(f"  l{level}: &l{level} [{refs}]")
    return "\n".join([*lines, "processes: {}", ""])


def only_finding(path: Path) -> tuple[int, int, str, str]:
    (finding,) = errors_of(path)
    return finding["line"], finding["column"], finding["message"], finding["suggestion"]


def test_an_alias_bomb_is_refused_at_the_alias_that_crosses_the_budget(project: Path) -> None:
    path = write_config(project, alias_bomb(30))
    # Levels 0-4 make about 7,400 nodes; each alias of level 5 adds 9**4 = 6,561, so the
    # second one (line 8, column 17) crosses 20,000.
    assert only_finding(path) == (
        8,
        17,
        f"aliases expand the document past {MAX_NODES} nodes",
        "repeat fewer aliases (an alias of an alias multiplies the size)",
    )


def test_aliases_within_the_budget_are_expanded(project: Path) -> None:
    path = write_config(
        project,
        """
        version: 1
        processes:
          web: &web {command: serve, env: {A: "1"}}
          api: {<<: *web, command: api}
        """,
    )
    assert errors_of(path) == []


def test_nesting_deeper_than_the_limit_is_a_finding_not_a_recursion_error(project: Path) -> None:
    depth = 5000
    path = write_config(project, "version: 1\nvars:\n  x: " + "[" * depth + "]" * depth + "\n")
    # The first '[' is at column 6; the document, `vars` and 48 lists make MAX_DEPTH levels.
    assert only_finding(path) == (
        3,
        6 + MAX_DEPTH - 2,
        f"the document nests deeper than {MAX_DEPTH} levels",
        "flatten the structure: Procler's config nests a few levels at most",
    )


def test_a_number_of_thousands_of_digits_is_a_finding(project: Path) -> None:
    path = write_config(project, "version: 1\nlogs: {max_files: " + "9" * 5000 + "}\n")
    assert only_finding(path) == (
        2,
        19,
        "the number 999999999999999999... has more than 18 digits",
        "write a smaller number",
    )


def test_a_huge_duration_is_a_finding(project: Path) -> None:
    path = write_config(project, "processes:\n  a: {command: x, stop_timeout: " + "9" * 400 + "}\n")
    assert only_finding(path) == (
        2,
        33,
        "duration 99999999999999999999... is longer than a year (366 days)",
        "write e.g. 500ms, 10s, 5m, 1h30m",
    )


def test_a_log_size_of_zero_is_a_finding(project: Path) -> None:
    path = write_config(project, "logs: {max_size: 0}\n")
    assert only_finding(path) == (1, 18, "0 is too small", "use at least 1KB")


def test_an_unknown_yaml_version_is_a_finding(project: Path) -> None:
    path = write_config(project, "# config\n%YAML 1.3\n---\nversion: 1\n")
    assert only_finding(path) == (
        2,
        1,
        "unsupported YAML version '1.3' in the %YAML directive",
        "remove the %YAML line (Procler reads YAML 1.2) or write %YAML 1.2",
    )


def test_status_on_an_alias_bomb_answers_config_invalid_and_leaves_no_hung_supervisor(
    project: Path,
) -> None:
    write_config(project, alias_bomb(30))  # 9**30 nodes once expanded
    code, env = run_procler(project, "status")
    assert (code, env["error_code"]) == (2, "CONFIG_INVALID")
    assert [(e["line"], e["column"]) for e in env["data"]["errors"]] == [(8, 17)]
    assert run_procler(project, "daemon", "stop")[0] == 0  # a supervisor, if any, answers
    code, env = run_procler(project, "daemon", "status")
    assert (code, env["data"]) == (0, {"running": False})


def doubling(count: int) -> str:
    """`V0: "xxxxxxxxxx"`, then each var twice the one above: 10 * 2**(count-1) characters
    in the last, from a file of a few hundred bytes."""
    lines = ["version: 1", "vars:", '  V0: "xxxxxxxxxx"']
    lines += [f'  V{i}: "${{V{i - 1}}}${{V{i - 1}}}"' for i in range(1, count)]
    last = count - 1
    return "\n".join([*lines, "processes:", f"  a: {{command: 'echo ${{V{last}}}'}}", ""])


@pytest.mark.parametrize("count", [26, 40])
def test_doubling_variables_are_refused_at_the_var_that_crosses_the_value_budget(
    project: Path, count: int
) -> None:
    path = write_config(project, doubling(count))
    assert len(path.read_bytes()) < 1000  # 598 bytes for 26 vars with the spacing
    # V14 would be 163,840 characters: the first past MAX_VALUE (131,072); the vars that
    # use it are not said again.
    expected = [
        {
            "line": 17,
            "column": 8,
            "path": "vars.V14",
            "message": f"the value is longer than {MAX_VALUE} characters once '${{V13}}'"
            " is substituted",
        }
    ]
    # Capped at 256 MiB: before the budget, 26 vars built 1 GB and 40 a MemoryError (exit 3).
    code, env = run_procler(project, "list", memory_mib=256)
    assert (code, env["error_code"]) == (2, "CONFIG_INVALID")
    found = [
        {k: e[k] for k in ("line", "column", "path", "message")} for e in env["data"]["errors"]
    ]
    assert found == expected


def test_substituting_a_long_var_in_many_places_is_refused_where_the_total_crosses(
    project: Path,
) -> None:
    # V13 is 81,920 characters (under MAX_VALUE); env values use it until MAX_EXPANSION.
    uses = "\n".join(f"      E{i}: ${{V13}}" for i in range(260))
    write_config(
        project,
        doubling(14).replace(
            "processes:\n", "processes:\n  b:\n    command: x\n    env:\n" + uses + "\n"
        ),
    )
    # resolving V1..V13 handed out 163,820 characters, then each use 81,920: the 203rd
    # use (E202: E0 is on line 21) is the first past MAX_EXPANSION, and the only finding.
    code, env = run_procler(project, "list", memory_mib=256)
    assert (code, env["error_code"]) == (2, "CONFIG_INVALID")
    assert [(e["line"], e["column"], e["path"], e["message"]) for e in env["data"]["errors"]] == [
        (
            223,
            13,
            "processes.b.env.E202",
            f"variables substituted in this config add more than {MAX_EXPANSION} characters",
        )
    ]


def test_a_value_of_the_longest_size_a_process_can_take_is_accepted(project: Path) -> None:
    path = write_config(
        project,
        f'vars:\n  BIG: "{"x" * (MAX_VALUE - 2)}"\nprocesses:\n  a: {{command: "${{BIG}}ab"}}\n',
    )
    assert errors_of(path) == []
