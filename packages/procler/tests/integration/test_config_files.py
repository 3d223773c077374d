"""A supervisor on several config files: started with `--config` given twice, it watches
every file (and the project's config.local.yaml, from the moment it exists), and reloads
what a change in any of them changed."""

from __future__ import annotations

from collections.abc import Callable

from procler_testkit.harness import PY, Project, wait_for

# Writes its GREETING to greeting.txt, then stays up.
GREETER = f"""[{PY}, -c, "import os, pathlib, time; pathlib.Path('greeting.txt').write_text(os.environ['GREETING']); time.sleep(600)"]"""
CONFIG = f"""version: 1
processes:
  web:
    args: {GREETER}
    env: {{GREETING: base}}
"""


def greets(p: Project, text: str) -> bool:
    path = p.root / "greeting.txt"
    return path.exists() and path.read_text() == text


def test_config_local_yaml_is_taken_up_and_watched(make_project: Callable[[str], Project]) -> None:
    p = make_project(CONFIG)
    p.ok("start", "web")
    assert wait_for(lambda: greets(p, "base"))
    local = p.root / ".procler" / "config.local.yaml"
    local.write_text("processes:\n  web:\n    env: {GREETING: local}\n")
    reloaded = p.ok("reload")
    assert reloaded["changed"] == [{"name": "web", "fields": ["env"]}]
    assert wait_for(lambda: greets(p, "local"))
    assert p.ok("status", "web")["run"] == 2
    assert p.ok("daemon", "status")["config_files"] == [
        str(p.root / ".procler" / "config.yaml"),
        str(local),
    ]
    # a broken override: the last valid config goes on, the warning names the file
    local.write_text("processes:\n  web:\n    env: {GREETING: [x]}\n")
    warning = p.ok("status", "web")["config_warning"]
    assert [(e["file"], e["line"], e["path"]) for e in warning["errors"]] == [
        (str(local), 3, "processes.web.env.GREETING")
    ]
    local.write_text("processes:\n  web:\n    env: {GREETING: again}\n")
    noticed = p.ok("status", "web")  # any command notices the change
    assert noticed["config_reloaded"]["changed"] == [{"name": "web", "fields": ["env"]}]
    assert wait_for(lambda: greets(p, "again"))
    local.unlink()
    assert p.ok("reload")["changed"] == [{"name": "web", "fields": ["env"]}]
    assert wait_for(lambda: greets(p, "base"))


def test_a_supervisor_started_with_two_config_files_watches_both(
    make_project: Callable[[str], Project],
) -> None:
    p = make_project(CONFIG)
    extra = p.root / "extra.yaml"
    extra.write_text("processes:\n  web:\n    env: {GREETING: extra}\n")
    both = ("--config", ".procler/config.yaml", "--config", "extra.yaml")
    p.ok(*both, "start", "web")
    assert wait_for(lambda: greets(p, "extra"))
    assert p.ok(*both, "daemon", "status")["config_files"] == [
        str(p.root / ".procler" / "config.yaml"),
        str(extra),
    ]
    extra.write_text("processes:\n  web:\n    env: {GREETING: changed}\n")
    assert p.ok(*both, "reload")["changed"] == [{"name": "web", "fields": ["env"]}]
    assert wait_for(lambda: greets(p, "changed"))
