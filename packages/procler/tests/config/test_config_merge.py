"""Several config files merged, as compose merges its files: `--config` given again,
`PROCLER_CONFIG` holding a list (':' between files, as PATH), and the project's
`.procler/config.local.yaml` merged last; each value knows the file and line it came from."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

from procler_testkit.config_helpers import run_procler, write_config

BASE = """
version: 1
vars: {PORT: "8000"}
processes:
  web:
    command: serve --port ${PORT}
    env: {A: base, B: base}
    tags: [one, two]
    healthcheck: {exec: "true", interval: 5s}
    restart: {policy: always, max_restarts: 9}
  worker:
    command: work
"""
OVER = """
vars: {PORT: "9000"}
processes:
  web:
    env: {B: over, C: over}
    tags: [three]
    healthcheck: {tcp: {port: 9000}}
    restart: {max_restarts: 2}
  worker: !reset
"""


def write(path: Path, text: str) -> Path:
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def merged_web(data: dict[str, Any]) -> dict[str, Any]:
    web = data["processes"]["web"]
    return {
        "command": web["command"],
        "env": web["env"],
        "tags": web["tags"],
        "healthcheck": (web["healthcheck"]["kind"], web["healthcheck"]["interval"]),
        "restart": (web["restart"]["policy"], web["restart"]["max_restarts"]),
    }


EXPECTED = {
    "command": "serve --port 9000",  # vars merged; the later file's value replaces
    "env": {"A": "base", "B": "over", "C": "over"},  # env merges by key
    "tags": ["three"],  # a list replaces
    "healthcheck": ("tcp", 5.0),  # tcp replaces the exec probe it excludes; interval stays
    "restart": ("always", 2),
}


def test_config_given_twice_merges_like_compose(project: Path) -> None:
    base = write_config(project, BASE)
    over = write(project / "over.yaml", OVER)
    code, answer = run_procler(
        project, "--config", str(base), "--config", "over.yaml", "config", "show", "--origins"
    )
    assert code == 0, answer
    data = answer["data"]
    assert merged_web(data) == EXPECTED
    assert list(data["processes"]) == ["web"]  # `!reset` removed worker
    assert data["config_files"] == [str(base), str(over)]
    origins = data["origins"]
    assert origins["processes.web.command"] == {"file": str(base), "line": 5, "column": 14}
    assert origins["processes.web.env.A"] == {"file": str(base), "line": 6, "column": 14}
    assert origins["processes.web.env.B"] == {"file": str(over), "line": 4, "column": 14}
    assert origins["processes.web.tags"] == {"file": str(over), "line": 5, "column": 11}
    assert origins["processes.web.healthcheck.interval"]["file"] == str(base)
    assert "processes.web.healthcheck.exec" not in origins
    assert origins["vars.PORT"] == {"file": str(over), "line": 1, "column": 14}


def test_procler_config_holds_a_list_separated_by_colons(project: Path) -> None:
    base = write_config(project, BASE)
    write(project / "over.yaml", OVER)
    code, answer = run_procler(
        project, "config", "show", env={"PROCLER_CONFIG": f"{base}:over.yaml"}
    )
    assert code == 0, answer
    assert merged_web(answer["data"]) == EXPECTED


def test_config_local_yaml_is_merged_last(project: Path) -> None:
    base = write_config(project, BASE)
    local = write(project / ".procler" / "config.local.yaml", OVER)
    code, answer = run_procler(project, "config", "show")
    assert code == 0, answer
    assert merged_web(answer["data"]) == EXPECTED
    assert answer["data"]["config_files"] == [str(base), str(local)]
    code, answer = run_procler(project, "config", "path")
    assert answer["data"]["files"] == [str(base), str(local)]
    write(local, "# nothing to override today\n")
    code, answer = run_procler(project, "config", "validate")
    assert (code, answer["data"]["valid"]) == (0, True)


def test_every_error_names_the_file_it_is_in(project: Path) -> None:
    base = write_config(project, BASE + "    stop_signal: NOPE\n")
    local = write(
        project / ".procler" / "config.local.yaml",
        """
        processes:
          web:
            tags: [ok]
            comand: typo
        """,
    )
    code, answer = run_procler(project, "config", "validate")
    assert code == 2  # CONFIG_INVALID, as reload or up would answer
    where = [(e["file"], e["line"], e["column"], e["path"]) for e in answer["data"]["errors"]]
    assert where == [
        (str(base), 12, 18, "processes.worker.stop_signal"),
        (str(local), 4, 5, "processes.web.comand"),
    ]
    write(local, "processes: {web: [broken\n")
    code, answer = run_procler(project, "config", "validate")
    assert [(e["file"], e["line"]) for e in answer["data"]["errors"]] == [(str(local), 2)]


def test_config_init_ignores_config_local_yaml(project: Path) -> None:
    folder = project / ".procler"
    folder.mkdir()
    (folder / ".gitignore").write_text("state/\nmine.txt")  # an older init, edited since
    code, answer = run_procler(project, "config", "init")
    assert code == 0, answer
    assert answer["data"]["written"] == [str(folder / "config.yaml"), str(folder / ".gitignore")]
    assert (folder / ".gitignore").read_text() == (
        "state/\nmine.txt\n"
        "# Personal overrides, merged over config.yaml (and any --config) when present\n"
        "config.local.yaml\n"
    )
    code, answer = run_procler(project, "config", "init", "--force")
    assert code == 0
    assert "config.local.yaml\n" in (folder / ".gitignore").read_text()
