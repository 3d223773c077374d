"""import procfile beyond one file: a Procfile in another folder runs there with its own .env,
and a line that runs foreman/honcho/overmind/hivemind on another Procfile is flattened into
a group of that Procfile's processes (loops, missing files and unread options warned)."""

from __future__ import annotations

from pathlib import Path

import pytest
from procler_testkit.config_helpers import run_procler
from ruamel.yaml import YAML

from procler.config.load import check_config
from procler.export.from_procfile import Nested, nested_manager


def tree(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")


def test_a_procfile_in_another_folder_runs_there_with_its_env(project: Path) -> None:
    tree(project, {"deploy/Procfile": "web: serve -p $PORT\n", "deploy/.env": "MODE=staging\n"})
    code, env = run_procler(project, "import", "procfile", "deploy/Procfile")
    assert (code, env["data"]["processes"]) == (0, ["web"])
    config, findings = check_config(str(project / ".procler" / "config.yaml"), {})
    assert findings.as_dicts() == []
    assert config is not None
    web = config.processes["web"]
    assert (web.cwd, dict(web.env), web.ports) == (
        str(project / "deploy"),
        {"MODE": "staging", "PORT": "5000"},
        (5000,),
    )


MONOREPO = {
    "Procfile": (
        "web: bundle exec puma -p $PORT\n"
        "backend: cd services/api && foreman start -f Procfile.dev\n"
        "admin: honcho -f services/admin/Procfile start admin\n"
        "again: foreman start\n"
        "jobs: overmind start -f missing/Procfile\n"
        "base: foreman start -p 6000\n"
    ),
    ".env": "RAILS_ENV=development\n",
    "services/api/Procfile.dev": "api: uvicorn app:app --port $PORT\nqueue: rq worker\n",
    "services/api/.env": "API_KEY=dev\n",
    "services/admin/Procfile": "admin: python -m admin\nunused: sleep 1\n",
}


def test_nested_procfiles_become_groups_of_their_processes(project: Path) -> None:
    tree(project, MONOREPO)
    code, env = run_procler(project, "import", "procfile", "Procfile", "--dry-run")
    assert code == 0
    data = YAML(typ="safe", pure=True).load(env["data"]["content"])
    assert env["data"]["processes"] == [
        "web",
        "backend-api",
        "backend-queue",
        "admin-admin",
        "again",
        "jobs",
        "base",
    ]
    assert data["groups"] == {
        "backend": {"processes": ["backend-api", "backend-queue"]},
        "admin": {"processes": ["admin-admin"]},
    }
    assert data["processes"]["backend-api"] == {
        "command": "uvicorn app:app --port $PORT",
        "cwd": "services/api",
        "env": {"PORT": "5100"},
        "env_file": [".env", "services/api/.env"],  # the outer .env reaches it too
        "ports": [5100],
    }
    assert (data["processes"]["admin-admin"]["cwd"], data["processes"]["base"]["env"]) == (
        "services/admin",
        {"PORT": "5600"},
    )
    assert [(w["process"], w["at"], w["message"]) for w in env["data"]["warnings"]] == [
        (
            "backend",
            "Procfile:2:1",
            "runs the Procfile services/api/Procfile.dev: its processes are imported as the "
            "group backend (backend-api, backend-queue), their PORTs continuing the sequence",
        ),
        (
            "admin",
            "Procfile:3:1",
            "runs the Procfile services/admin/Procfile: its processes are imported as the "
            "group admin (admin-admin), their PORTs continuing the sequence",
        ),
        (
            "again",
            "Procfile:4:1",
            "it starts a Procfile already being read (a loop): kept as one process",
        ),
        (
            "jobs",
            "Procfile:5:1",
            "cannot read missing/Procfile: FileNotFoundError: kept as one process",
        ),
        ("base", "Procfile:6:1", "foreman -p is not read by the import: kept as one process"),
    ]
    imported = project / "imported.yaml"
    imported.write_text(env["data"]["content"])
    assert check_config(str(imported), {})[1].as_dicts() == []


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("hivemind -t Procfile.dev", "hivemind -t is not read by the import"),
        ("hivemind Procfile.dev", Nested(Path("Procfile.dev"), Path("."), Path(".env"))),
        (
            "exec overmind start -d app -e app/dev.env web",
            Nested(Path("Procfile"), Path("app"), Path("app/dev.env"), ("web",)),
        ),
        ("foreman run rake", "foreman run does not start a stack"),
        ("hivemind a/Procfile web", "hivemind takes one Procfile, not web"),
        ("honcho", "honcho without `start` does not start a stack"),
        ("bundle exec foreman start", None),
        ("echo 'unclosed", None),
    ],
)
def test_which_commands_start_a_nested_stack(command: str, expected: Nested | str | None) -> None:
    assert nested_manager(command, Path(".")) == expected


def test_merging_a_nested_group_that_exists_differently_is_a_conflict(project: Path) -> None:
    tree(project, MONOREPO)
    config_path = project / ".procler" / "config.yaml"
    existing = "processes:\n  other: {command: x}\ngroups:\n  backend: {processes: [other]}\n"
    tree(project, {".procler/config.yaml": existing})
    code, env = run_procler(project, "import", "procfile", "Procfile", "--merge")
    assert (code, env["error_code"], env["data"]) == (
        2,
        "CONFLICT",
        {"conflicts": [{"section": "groups", "name": "backend"}]},
    )
    assert config_path.read_text() == existing
