from __future__ import annotations

from pathlib import Path

from procler_testkit.config_helpers import run_procler, write_config

from procler.config.load import check_config
from procler.config.template import CONFIG_TEMPLATE, GITIGNORE

MINIMAL = """
processes:
  web:
    command: echo hi
"""


def test_found_from_a_nested_subdirectory(project: Path) -> None:
    write_config(project, MINIMAL)
    nested = project / "src" / "pkg" / "deep"
    nested.mkdir(parents=True)
    code, env = run_procler(nested, "config", "validate")
    assert code == 0
    assert env["data"]["config"] == str(project / ".procler" / "config.yaml")
    assert env["data"]["root"] == str(project)


def test_relative_cwd_resolves_against_the_project_root_not_the_caller(project: Path) -> None:
    write_config(project, MINIMAL + "    cwd: app\n")
    nested = project / "elsewhere"
    nested.mkdir()
    code, env = run_procler(nested, "config", "show")
    assert code == 0
    assert env["data"]["processes"]["web"]["cwd"] == str(project / "app")


def test_explicit_config_option_wins(project: Path, tmp_path: Path) -> None:
    write_config(project, MINIMAL)
    other = tmp_path / "other.yaml"
    other.write_text("processes:\n  other:\n    command: 'true'\n", encoding="utf-8")
    code, env = run_procler(project, "--config", str(other), "list")
    assert code == 0
    assert [p["name"] for p in env["data"]["processes"]] == ["other"]
    assert env["data"]["processes"][0]["cwd"] == str(tmp_path)


def test_procler_config_environment_variable(project: Path, tmp_path: Path) -> None:
    write_config(project, MINIMAL)
    other = tmp_path / "env.yaml"
    other.write_text("processes:\n  fromenv:\n    command: 'true'\n", encoding="utf-8")
    code, env = run_procler(project, "list", env={"PROCLER_CONFIG": str(other)})
    assert code == 0
    assert [p["name"] for p in env["data"]["processes"]] == ["fromenv"]


def test_no_config_is_config_not_found(project: Path) -> None:
    code, env = run_procler(project, "list")
    assert code == 2
    assert env["error_code"] == "CONFIG_NOT_FOUND"
    assert env["suggestion"] == "procler config init"


def test_init_in_an_empty_dir_writes_a_template_that_validates(
    project: Path, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    code, env = run_procler(project, "config", "init", env={"HOME": str(home)})
    assert code == 0
    config = project / ".procler" / "config.yaml"
    assert env["data"] == {
        "config": str(config),
        "root": str(project),
        "written": [str(config), str(project / ".procler" / ".gitignore")],
    }
    assert config.read_text(encoding="utf-8") == CONFIG_TEMPLATE
    assert (project / ".procler" / ".gitignore").read_text(encoding="utf-8") == GITIGNORE
    assert list(home.iterdir()) == []  # nothing written in HOME
    loaded, findings = check_config(str(config), {})
    assert findings.as_dicts() == []
    assert loaded is not None and list(loaded.processes) == ["web"]
    code, env = run_procler(project, "config", "validate", env={"HOME": str(home)})
    assert code == 0


def test_init_refuses_an_existing_config_unless_forced(project: Path) -> None:
    write_config(project, MINIMAL)
    code, env = run_procler(project, "config", "init")
    assert code == 2
    assert env["error_code"] == "CONFIG_EXISTS"
    assert (project / ".procler" / "config.yaml").read_text(encoding="utf-8") == MINIMAL.lstrip()
    code, env = run_procler(project, "config", "init", "--force")
    assert code == 0
    assert (project / ".procler" / "config.yaml").read_text(encoding="utf-8") == CONFIG_TEMPLATE


def test_init_refuses_to_make_home_a_project(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    code, env = run_procler(home, "config", "init", env={"HOME": str(home)})
    assert code == 2
    assert env["error_code"] == "USAGE"
    assert list(home.iterdir()) == []
