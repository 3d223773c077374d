from __future__ import annotations

from pathlib import Path

from procler_testkit.config_helpers import write_config

from procler.config.explain import explain, format_duration
from procler.config.load import check_config

CHAIN = """
processes:
  db:
    command: postgres -D data
    ports: [5432]
    healthcheck:
      tcp: {port: 5432}
      interval: 2s
  api:
    command: uvicorn app:app --port 8000
    cwd: services/api
    restart: {policy: always, max_restarts: 10}
    depends_on: [{name: db, condition: healthy}]
    healthcheck:
      http: {port: 8000, path: /health}
  worker:
    args: [python, worker.py]
    restart: no
    depends_on: [api]
groups:
  backend: {processes: [db, api, worker], description: everything the API needs}
"""


RESTART_ON_FAILURE = (
    "it is restarted when it exits with a code other than 0 (at most 5 times, counted afresh "
    "after 1m up): at once if the run had been {settled}, else after 1s, doubling up to 30s; "
    "a run started by a command that ends {known_good} is failed, not restarted"
)
NO_CHECK = RESTART_ON_FAILURE.format(settled="up 10s", known_good="within 150ms")
WITH_CHECK = RESTART_ON_FAILURE.format(
    settled="healthy or up 10s", known_good="before its health check first passes"
)


def sentences(project: Path, text: str) -> list[str]:
    """explain's paragraph, one sentence per element (the first counts the project)."""
    config, findings = check_config(str(write_config(project, text)), {})
    assert findings.as_dicts() == [] and config is not None
    paragraph: str = explain(config)["paragraph"]
    return paragraph.split(". ")[1:-1]


def test_paragraph_for_a_three_process_chain(project: Path) -> None:
    config, findings = check_config(str(write_config(project, CHAIN)), {})
    assert findings.as_dicts() == []
    assert config is not None
    result = explain(config)
    assert result["paragraph"] == (
        "This project defines 3 processes and 1 group. "
        "db runs `postgres -D data` in the project root; it is healthy when 127.0.0.1:5432 "
        "accepts TCP connections (probed every few ms until then, then every 2s), and "
        f"unhealthy after 3 failed checks in a row, one counted per 2s; {WITH_CHECK}; it uses "
        "port 5432. "
        "api runs `uvicorn app:app --port 8000` in services/api/ once db is healthy; it is "
        "healthy when GET http://127.0.0.1:8000/health answers 200-399 (probed every few ms "
        "until then, then every 10s), and unhealthy after 3 failed checks in a row, one "
        "counted per 10s; it is restarted whenever it ends (at most 10 times, counted afresh "
        "after 1m up): at once if the run had been healthy or up 10s, else after 1s, doubling "
        "up to 30s; a run started by a command that ends before its health check first passes "
        "is failed, not restarted. "
        "worker runs `python worker.py` in the project root once api has started (only "
        "started: api has a health check; consider `condition: healthy`); it is not restarted. "
        "Start order: db, then api, then worker. "
        "Group backend holds db, api and worker (everything the API needs)."
    )
    assert [h["process"] for h in result["hints"]] == ["worker"]
    assert result["start_order"] == [["db"], ["api"], ["worker"]]
    assert result["counts"] == {
        "processes": 3,
        "config_processes": 3,
        "runtime_processes": 0,
        "groups": 1,
        "recipes": 0,
        "snippets": 0,
        "health_checks": 2,
        "liveness_checks": 0,
        "dependencies": 2,
    }


def test_a_service_without_a_health_check(project: Path) -> None:
    assert sentences(project, "processes:\n  web: {command: serve}\n") == [
        f"web runs `serve` in the project root; {NO_CHECK}"
    ]


def test_a_one_shot(project: Path) -> None:
    text = "processes:\n  migrate: {command: ./migrate, restart: {policy: 'no'}}\n"
    assert sentences(project, text) == [
        "migrate runs `./migrate` in the project root; it is not restarted"
    ]


def test_a_process_with_other_success_codes_and_its_own_backoff(project: Path) -> None:
    text = """
processes:
  job:
    command: ./job
    success_exit_codes: [0, 3]
    restart: {max_restarts: 2, backoff: {initial: 500ms, max: 4s, reset_after: 5m}}
"""
    assert sentences(project, text) == [
        "job runs `./job` in the project root; it is restarted when it exits with a code other "
        "than 0 or 3 (at most 2 times, counted afresh after 5m up): at once if the run had been "
        "up 10s, else after 500ms, doubling up to 4s; a run started by a command that ends "
        "within 150ms is failed, not restarted"
    ]


def test_each_kind_of_health_check(project: Path) -> None:
    text = """
processes:
  a:
    command: a
    restart: {policy: 'no'}
    healthcheck: {exec: "test -e ready", interval: 1s, retries: 2, start_period: 5s}
  b:
    command: b
    restart: {policy: 'no'}
    healthcheck: {log: "listening", interval: 2s, retries: 3, start_period: 1s, restart_on_unhealthy: true}
"""
    assert sentences(project, text) == [
        "a runs `a` in the project root; it is healthy when `test -e ready` exits 0 (probed "
        "every few ms until then, then every 1s), and unhealthy after 2 failed checks in a row, "
        "one counted per 1s, not counting its first 5s; it is not restarted",
        # a log check is never `checked every`: it waits for its line; the line counts for the run
        "b runs `b` in the project root; it is healthy once an output line matches /listening/, "
        "for the rest of that run, and unhealthy if none has after 6s; it is restarted if it "
        "turns unhealthy; it is not restarted",
    ]


def test_a_scheduled_process(project: Path) -> None:
    text = """
processes:
  cleanup:
    command: ./cleanup
    schedule: {cron: "*/5 * * * *", timezone: Europe/Paris, run_on_start: true, timeout: 10m}
"""
    assert sentences(project, text) == [
        "cleanup runs `./cleanup` in the project root; it runs on the schedule */5 * * * * "
        "(Europe/Paris), one run at a time, once armed by `start` or `up`, and once as soon as it "
        "is armed; a run longer than 10m is killed; a run that fails waits for the next slot"
    ]


def test_docker_processes(project: Path) -> None:
    text = """
processes:
  cache:
    context: docker
    docker: {image: "redis:7"}
    restart: {policy: 'no'}
  shell:
    context: docker
    command: ls
    docker: {container: box}
    restart: {policy: 'no'}
"""
    assert sentences(project, text) == [
        "cache runs docker image redis:7; it is not restarted",
        "shell runs `ls` in docker container box; it is not restarted",
    ]


def test_replicas_watch_memory_ready_line_stop_and_daemon(project: Path) -> None:
    text = """
processes:
  worker:
    command: ./work
    replicas: 3
    restart: {policy: 'no'}
    watch: {paths: ["src/**/*.py"], action: "signal:HUP"}
    max_memory: 256MB
    ready_log_line: "ready"
    stop_signal: SIGINT
    stop_timeout: 30s
  legacy:
    command: ./start-daemon
    restart: {policy: 'no'}
    daemon_mode: true
    daemon_pidfile: run/legacy.pid
"""
    assert sentences(project, text) == [
        "worker runs `./work` in the project root; it is log_ready once an output line (stdout "
        "or stderr) matches /ready/; it is not restarted; it is stopped with SIGINT, then "
        "SIGKILL after 30s; it is restarted when its memory stays above 256 MiB; it is sent HUP "
        "when src/**/*.py change; 3 replicas (worker-0 to worker-2)",
        f"legacy runs `./start-daemon` in the project root; it daemonizes, and the daemon found "
        f"by pidfile {project / 'run' / 'legacy.pid'} is followed; it is not restarted",
    ]


def test_a_started_dependency_on_a_process_with_a_health_check_is_pointed_out(
    project: Path,
) -> None:
    text = """
processes:
  db:
    command: postgres
    restart: {policy: 'no'}
    healthcheck: {tcp: {port: 5432}}
  worker:
    command: ./work
    restart: {policy: 'no'}
    replicas: 2
  migrate:
    command: ./migrate
    restart: {policy: 'no'}
    depends_on: [db, {name: worker, min: 1}]
"""
    config, _ = check_config(str(write_config(project, text)), {})
    assert config is not None
    result = explain(config)
    assert (
        "migrate runs `./migrate` in the project root once db has started (only started: db has "
        "a health check; consider `condition: healthy`) and at least 1 of worker's instances "
        "has started; it is not restarted."
    ) in result["paragraph"]
    assert result["hints"] == [
        {
            "process": "migrate",
            "dependency": "db",
            "hint": "migrate waits for db to have started, not to be healthy, while db has a "
            "health check: it may start before db is ready; consider "
            "`depends_on: [{name: db, condition: healthy}]`",
        }
    ]


def test_when_a_check_turns_unhealthy_is_what_the_prober_does() -> None:
    """The figure explain gives comes from states.unhealthy_after; the prober, on a fake
    clock, turns a log check unhealthy at that very time."""
    import asyncio

    from procler_testkit.fakes import FakeClock

    from procler import states
    from procler.config.model import HealthCheck
    from procler.supervisor.health import HealthProber

    async def scenario(check: HealthCheck) -> float:
        clock = FakeClock()
        turned: list[float] = []
        start = clock.monotonic()

        def changed(status: str, reason: str, restart: bool) -> None:
            turned.append(clock.monotonic() - start)

        async def no_exec(command: str, timeout: float) -> tuple[bool, str]:
            return False, ""

        prober = HealthProber(check, clock, no_exec, changed)
        prober.begin()
        while not turned:
            await asyncio.sleep(0)
            await clock.sleep(0.01)
        prober.end()
        return turned[0]

    for interval, retries, start_period in ((2.0, 3, 1.0), (0.2, 2, 0.0), (1.0, 1, 5.0)):
        check = HealthCheck(
            kind="log", log="never", interval=interval, retries=retries, start_period=start_period
        )
        when = asyncio.run(scenario(check))
        promised = states.unhealthy_after(interval, retries, start_period)
        assert round(when, 6) == promised, (interval, retries, start_period, when)


def test_parallel_levels_are_said_to_start_together(project: Path) -> None:
    text = (
        "processes:\n  a: {command: a}\n  b: {command: b}\n  c: {command: c, depends_on: [a, b]}\n"
    )
    config, _ = check_config(str(write_config(project, text)), {})
    assert config is not None
    assert explain(config)["paragraph"].endswith("Start order: a and b together, then c.")


def test_format_duration() -> None:
    assert [format_duration(s) for s in (0.05, 1.5, 10, 90, 5400, 3600)] == [
        "50ms",
        "1.5s",
        "10s",
        "1m30s",
        "1h30m",
        "1h",
    ]
