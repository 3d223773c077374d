"""What `config explain` says about a process is what the supervisor then does with it
(real processes): a one-shot that fails at once is failed, not restarted; a log check that
never matches turns unhealthy after the failures it names."""

from __future__ import annotations

from collections.abc import Callable

from procler_testkit.harness import PY, Project


def sentence(p: Project, name: str) -> str:
    paragraph: str = p.ok("config", "explain")["paragraph"]
    return next(s for s in paragraph.split(". ") if s.startswith(f"{name} runs"))


def test_a_one_shot_that_fails_at_once_is_failed_as_explain_says(
    make_project: Callable[[str], Project],
) -> None:
    p = make_project("""
version: 1
processes:
  migrate:
    args: [/bin/sh, -c, "echo no database >&2; exit 1"]
""")
    assert sentence(p, "migrate").endswith(
        "a run started by a command that ends within 150ms is failed, not restarted"
    )
    code, env = p.run("start", "migrate")
    assert (code, env["error_code"]) == (1, "START_FAILED")
    status = p.ok("status", "migrate")
    assert (status["status"], status["restarts"], status["last_exit"]["reason"]) == (
        "failed",
        0,
        "exit code 1 during start",
    )


def test_a_log_check_that_never_matches_turns_unhealthy_as_explain_says(
    make_project: Callable[[str], Project],
) -> None:
    p = make_project(f"""
version: 1
processes:
  api:
    args: [{PY}, -c, "import time; print('booting', flush=True); time.sleep(600)"]
    healthcheck: {{log: "Application startup complete", interval: 200ms, retries: 2}}
""")
    assert (
        "it is healthy once an output line matches /Application startup complete/, for the "
        "rest of that run, and unhealthy if none has after 400ms"
    ) in sentence(p, "api")
    p.run("start", "api", "--timeout", "20")  # answers once the check has decided
    status = p.ok("wait", "api", "--for", "unhealthy", "--timeout", "20")
    assert (status["status"], status["health"]["failures"]) == ("unhealthy", 2)
    assert status["health"]["last_output"] == "no matching line yet"
