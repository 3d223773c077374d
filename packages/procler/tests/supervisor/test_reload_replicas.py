"""Reload of a process with replicas: a new `replicas:` count is a scale (only the new
instances start, the highest ones stop; no dependent restarts), a changed definition
restarts every instance, and a `procler scale` count stays until `replicas:` changes.
In-process supervisor over real processes (test_wait's `supervise`)."""

from __future__ import annotations

from pathlib import Path

from procler_testkit.harness import alive
from procler_testkit.in_process import Commands, supervise
from procler_testkit.reload_helpers import config_file, pids, sleeper


def config(replicas: int, worker_sleep: int = 600, solo_sleep: int = 601) -> str:
    return f"""version: 1
processes:
  worker:
    args: {sleeper(worker_sleep)}
    replicas: {replicas}
  api:
    args: {sleeper(602)}
    depends_on: [worker]
  solo:
    args: {sleeper(solo_sleep)}
"""


def workers(count: int) -> list[str]:
    return [f"worker-{i}" for i in range(count)]


def test_a_new_replicas_count_starts_or_stops_only_the_instances_it_adds_or_drops(
    tmp_path: Path,
) -> None:
    path = config_file(tmp_path)

    async def scenario(handlers: Commands) -> None:
        await handlers.up({})
        before = pids(handlers)
        path.write_text(config(4))
        up = await handlers.reload({})
        assert (up["added"], up["changed"], up["started"], up["restarted"], up["removed"]) == (
            ["worker-2", "worker-3"],
            [],
            ["worker-2", "worker-3"],
            [],
            [],
        )
        assert up["unchanged"] == ["worker-0", "worker-1", "api", "solo"]
        rts = handlers.sup.runtimes
        assert [rts[n].status for n in workers(4)] == ["running"] * 4
        after_up = pids(handlers)
        assert {n: after_up[n] for n in before} == before  # nobody restarted, api neither
        # api depends on every instance now, without a restart
        assert [d.name for d in rts["api"].spec.depends_on] == workers(4)

        path.write_text(config(2))
        down = await handlers.reload({})
        assert (down["removed"], down["stopped"], down["added"], down["changed"]) == (
            ["worker-2", "worker-3"],
            ["worker-2", "worker-3"],
            [],
            [],
        )
        assert [alive(after_up["worker-2"] or 0), alive(after_up["worker-3"] or 0)] == [False] * 2
        assert pids(handlers) == before
        assert [d.name for d in rts["api"].spec.depends_on] == workers(2)

        path.write_text(config(2, worker_sleep=700))  # the definition itself: every instance
        changed = await handlers.reload({})
        assert (changed["changed"], changed["restarted"], changed["unchanged"]) == (
            [{"name": "worker-0", "fields": ["args"]}, {"name": "worker-1", "fields": ["args"]}],
            ["worker-0", "worker-1"],
            ["api", "solo"],
        )
        now = pids(handlers)
        assert [now[n] != before[n] for n in workers(2)] == [True, True]
        assert (now["api"], now["solo"]) == (before["api"], before["solo"])

    supervise(tmp_path, config(2), scenario)


def test_a_scaled_count_survives_a_reload_until_the_config_changes_replicas(
    tmp_path: Path,
) -> None:
    path = config_file(tmp_path)

    async def scenario(handlers: Commands) -> None:
        await handlers.up({})
        scaled = await handlers.scale({"name": "worker", "count": "3"})
        assert scaled["added"] == ["worker-2"]
        kept = pids(handlers)
        path.write_text(config(2, solo_sleep=701))  # replicas: unchanged, solo changed
        answer = await handlers.reload({})
        assert (answer["changed"], answer["added"], answer["removed"]) == (
            [{"name": "solo", "fields": ["args"]}],
            [],
            [],
        )
        assert list(handlers.sup.config().processes) == [*workers(3), "api", "solo"]
        assert {n: pids(handlers)[n] for n in workers(3)} == {n: kept[n] for n in workers(3)}

        path.write_text(config(5, solo_sleep=701))  # a new replicas: value wins over the scale
        answer = await handlers.reload({})
        assert (answer["added"], answer["started"]) == (
            ["worker-3", "worker-4"],
            ["worker-3", "worker-4"],
        )
        assert [handlers.sup.runtimes[n].status for n in workers(5)] == ["running"] * 5

    supervise(tmp_path, config(2), scenario)
