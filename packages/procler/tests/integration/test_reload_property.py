"""After `reload`, every process is where a fresh `up` of the new config puts it: a property
over generated config edits (add, remove, change, gain or lose replicas, add a schedule),
checked against a real supervisor and real processes. The status after `up`, edit,
`reload` equals the status after `down`, `up` of the new config."""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from procler_testkit.harness import PY, Project

NAMES = ("a", "b", "c", "d")
KINDS = ("service", "oneshot", "cron", "manual")  # manual: a service with autostart: false


@dataclass(frozen=True)
class Proc:
    name: str
    kind: str
    replicas: int = 1
    variant: int = 0  # a different variant is a changed definition

    def yaml(self) -> str:
        code = "import time; time.sleep(600)" if self.kind in ("service", "manual") else "pass"
        body = f"  {self.name}:\n    args: [{PY}, -c, {code!r}, v{self.variant}]\n"
        if self.kind == "oneshot":
            body += '    restart: "no"\n'
        if self.kind == "cron":
            body += '    schedule: "0 0 1 1 *"\n'
        if self.kind == "manual":
            body += "    autostart: false\n"
        if self.replicas > 1:
            body += f"    replicas: {self.replicas}\n"
        return body


def config(procs: tuple[Proc, ...]) -> str:
    return "version: 1\nprocesses:\n" + "".join(p.yaml() for p in procs)


@st.composite
def edits(draw: st.DrawFn) -> tuple[tuple[Proc, ...], tuple[Proc, ...]]:
    """A config of 1-3 processes, and the config some edits make of it."""
    names = draw(st.lists(st.sampled_from(NAMES), min_size=1, max_size=3, unique=True))
    before = [Proc(n, draw(st.sampled_from(KINDS))) for n in names]
    after = list(before)
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(("add", "remove", "change", "replicas")))
        taken = [p.name for p in after]
        if op == "add" and len(taken) < len(NAMES):
            name = draw(st.sampled_from([n for n in NAMES if n not in taken]))
            after.append(Proc(name, draw(st.sampled_from(KINDS))))
        elif op == "remove" and len(after) > 1:
            after.pop(draw(st.integers(0, len(after) - 1)))
        elif op == "change":
            i = draw(st.integers(0, len(after) - 1))
            after[i] = replace(after[i], variant=after[i].variant + 1)
        elif op == "replicas":
            services = [i for i, p in enumerate(after) if p.kind == "service"]
            if services:
                i = draw(st.sampled_from(services))
                after[i] = replace(after[i], replicas=draw(st.integers(1, 3)))
    return tuple(before), tuple(after)


def snapshot(p: Project) -> list[tuple[Any, ...]]:
    """What `up` decides about each process: its status, desired state, schedule armed."""
    rows = p.ok("status")["processes"]
    return [
        (r["name"], r["status"], r["desired"], (r.get("schedule") or {}).get("paused"))
        for r in rows
    ]


def settled(p: Project, procs: tuple[Proc, ...]) -> list[tuple[Any, ...]]:
    ready = p.ok("wait", "--all", "--for", "healthy", "--timeout", "30s")
    assert set(ready["left_alone"]) <= {q.name for q in procs if q.kind == "manual"}
    return snapshot(p)


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@example(  # the issue's: a running worker gains replicas, a cron job and a process are added
    (
        (Proc("a", "service"), Proc("b", "oneshot")),
        (
            Proc("a", "service", replicas=3),
            Proc("b", "oneshot"),
            Proc("c", "cron"),
            Proc("d", "service"),
        ),
    )
)
@example(((Proc("a", "service", replicas=3),), (Proc("a", "service", replicas=2, variant=1),)))
@example(  # a running service becomes a scheduled job: its run ends, the schedule waits
    ((Proc("a", "service"), Proc("d", "service")), (Proc("a", "service"), Proc("d", "cron")))
)
@example(((Proc("a", "service"),), (Proc("a", "service"), Proc("b", "manual"))))
@example(  # autostart changes hands: the running one stops, the one `up` left alone starts
    ((Proc("a", "service"), Proc("b", "manual")), (Proc("a", "manual"), Proc("b", "service")))
)
@example(((Proc("a", "oneshot"), Proc("b", "cron")), (Proc("a", "oneshot", variant=1),)))
@given(edits())
def test_reload_leaves_the_stack_as_up_of_the_new_config_would(
    change: tuple[tuple[Proc, ...], tuple[Proc, ...]],
) -> None:
    before, after = change
    work = Path(tempfile.mkdtemp(prefix="procler-reload-"))
    p = Project(work, config(before))
    try:
        p.ok("up", "--wait", "--timeout", "30s")
        path = work / ".procler" / "config.yaml"
        path.write_text(config(after))
        stamp = path.stat().st_mtime + 5  # noticed as changed whatever the clock's grain
        os.utime(path, (stamp, stamp))
        answer = p.ok("reload")
        reloaded = settled(p, after)
        added = {n for n in answer["added"]}
        scheduled = {q.name for q in after if q.kind == "cron"}
        manual = {q.name for q in after if q.kind == "manual"}  # as up leaves them alone
        assert sorted(answer["armed"]) == sorted(added & scheduled), answer
        assert added - scheduled - manual <= set(answer["started"]), answer
        assert not added & manual & set(answer["started"]), answer
        p.ok("down")
        p.ok("up", "--wait", "--timeout", "30s")
        assert reloaded == settled(p, after), (before, after, answer)
    finally:
        p.close()
        shutil.rmtree(work, ignore_errors=True)


def test_a_running_process_that_gains_replicas_runs_them_without_up(tmp_path: Path) -> None:
    p = Project(tmp_path / "w", config((Proc("worker", "service"), Proc("idle", "service"))))
    try:
        p.ok("start", "worker")  # only worker was asked to run: no `up`
        path = p.root / ".procler" / "config.yaml"
        path.write_text(
            config((Proc("worker", "service", replicas=3), Proc("idle", "service", variant=1)))
        )
        stamp = path.stat().st_mtime + 5
        os.utime(path, (stamp, stamp))
        answer = p.ok("reload")
        assert (answer["started"], answer["stopped"], answer["armed"]) == (
            ["worker-0", "worker-1", "worker-2"],
            ["worker"],
            [],
        )
        p.ok("wait", "worker", "--for", "running", "--timeout", "30s")
        assert [(n, s, d) for n, s, d, _ in snapshot(p)] == [
            ("worker-0", "running", "running"),
            ("worker-1", "running", "running"),
            ("worker-2", "running", "running"),
            ("idle", "stopped", "stopped"),  # never asked to run, changed or not
        ]
    finally:
        p.close()
