"""A broken config must not lock the user out of a running stack (the last valid one runs)."""

from __future__ import annotations

from collections.abc import Callable

from procler_testkit.harness import PY, Project, supervisors_of, wait_for

from procler.config.last_valid import STILL_WORKS

VALID = f"""version: 1
processes:
  api:
    args: [{PY}, -c, "print('api up', flush=True); import time; time.sleep(600)"]
  worker:
    args: [{PY}, -c, "import time; time.sleep(599)"]
"""
# A typo at line 2 (grups), and worker's definition changed.
BROKEN = VALID.replace("version: 1\n", "version: 1\ngrups: {}\n").replace("(599)", "(598)")


def finding(project: Project) -> dict[str, object]:
    return {
        "file": str(project.root / ".procler" / "config.yaml"),
        "line": 2,
        "column": 1,
        "path": "grups",
        "message": "unknown key 'grups'",
        "suggestion": "did you mean groups?",
    }


def test_a_running_stack_stays_manageable_while_the_config_is_broken(
    make_project: Callable[[str], Project],
) -> None:
    p = make_project(VALID)
    assert p.ok("start", "api")["status"] == "running"
    assert wait_for(lambda: p.ok("logs", "api")["lines"] != [])
    config = p.root / ".procler" / "config.yaml"
    config.write_text(BROKEN)
    warning = {
        "message": "the config has 1 error: procler goes on using the last valid config "
        "until the file is fixed",
        "errors": [finding(p)],
    }

    status = p.ok("status", "api")
    assert (status["status"], status["config_warning"]) == ("running", warning)
    listed = p.ok("list")
    assert ([row["name"] for row in listed["processes"]], listed["config_warning"]) == (
        ["api", "worker"],
        warning,
    )
    assert listed["processes"][1]["args"][-1].endswith("time.sleep(599)")  # the last valid one
    logs = p.ok("logs", "api")
    assert ([line["text"] for line in logs["lines"]], logs["config_warning"]) == (
        ["api up"],
        warning,
    )
    assert p.ok("daemon", "status")["config_warning"] == warning

    code, started = p.run("start", "worker")  # its definition changed in the broken file
    assert (code, started["error_code"], started["error"], started["suggestion"]) == (
        2,
        "CONFIG_INVALID",
        "not started: the invalid config changed the definition of worker (the supervisor "
        "runs the last valid config)",
        STILL_WORKS,
    )
    assert started["data"] == {"errors": [finding(p)]}
    code, reloaded = p.run("reload")
    assert (code, reloaded["error_code"], reloaded["data"]) == (
        2,
        "CONFIG_INVALID",
        {"errors": [finding(p)]},
    )

    stopped = p.ok("stop", "api")
    assert (stopped["status"], stopped["config_warning"]) == ("stopped", warning)
    assert p.ok("start", "api")["status"] == "running"  # unchanged: it may start
    down = p.ok("down")
    assert [(row["name"], row["status"]) for row in down["processes"]] == [
        ("api", "stopped"),
        ("worker", "stopped"),
    ]
    assert p.ok("status", "worker")["status"] == "stopped"

    config.write_text("version: 1\nprocesses: [\n")  # does not parse: no start is safe
    code, refused = p.run("start", "api")
    assert (code, refused["error_code"], refused["error"]) == (
        2,
        "CONFIG_INVALID",
        "not started: the invalid config changed the definition of api (the supervisor "
        "runs the last valid config)",
    )
    assert p.ok("status", "api")["config_warning"]["errors"][0]["line"] == 3

    config.write_text(BROKEN.replace("grups: {}\n", ""))  # fixed
    fixed = p.ok("start", "worker")
    assert (fixed["status"], "config_warning" in fixed) == ("running", False)


def test_no_supervisor_is_started_on_a_broken_config(
    make_project: Callable[[str], Project],
) -> None:
    p = make_project(VALID)
    p.ok("start", "api")
    assert wait_for(lambda: p.ok("logs", "api")["lines"] != [])
    p.ok("daemon", "stop")
    (p.root / ".procler" / "config.yaml").write_text(BROKEN)

    status = p.ok("status")  # from disk, on the last valid config
    assert [(row["name"], row["status"]) for row in status["processes"]] == [
        ("api", "stopped"),
        ("worker", "stopped"),
    ]
    assert status["config_warning"]["errors"] == [finding(p)]
    code, started = p.run("start", "api")
    assert (code, started["error_code"], started["suggestion"]) == (
        2,
        "CONFIG_INVALID",
        STILL_WORKS,
    )
    assert [line["text"] for line in p.ok("logs", "api")["lines"]] == ["api up"]
    assert supervisors_of(p.root) == []


def test_without_any_valid_config_the_answer_says_what_still_works(
    make_project: Callable[[str], Project],
) -> None:
    p = make_project(BROKEN)
    for argv in (["status"], ["stop", "api"], ["list"], ["up"]):
        code, answer = p.run(*argv)
        assert (code, answer["error_code"], answer["suggestion"], answer["data"]) == (
            2,
            "CONFIG_INVALID",
            STILL_WORKS,
            {"errors": [finding(p)]},
        ), argv
    assert p.ok("logs", "--all")["lines"] == []
    assert supervisors_of(p.root) == []
