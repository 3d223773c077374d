"""`watch:` over real files and processes (in-process supervisor, real inotify): a burst
is one restart, ignored files never count, cascade restarts dependents, signal actions
reach the process, and a process writing into its own watched folder is suspended."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from procler_testkit.harness import PY
from procler_testkit.in_process import Commands, supervise

BOUND = 20.0
SLEEP = f'[{PY}, -c, "import time; time.sleep(600)"]'


async def eventually(check: Callable[[], bool]) -> None:
    """Wait (bounded) until check holds, looking every 20 ms."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + BOUND
    while not check():
        assert loop.time() < deadline, "condition not reached in time"
        await asyncio.sleep(0.02)


def test_a_burst_is_one_restart_ignored_files_never_count_and_cascade_restarts_dependents(
    tmp_path: Path,
) -> None:
    root = tmp_path / "proj"
    (root / "src" / "__pycache__").mkdir(parents=True)
    (root / "src" / "build").mkdir()
    (root / ".gitignore").write_text("src/build/\n")
    config = f"""version: 1
processes:
  lib:
    args: {SLEEP}
    watch: {{paths: ["src/**"], exclude: ["**/*.log"], debounce: 200ms, cascade: true}}
  app:
    args: {SLEEP}
    depends_on: [lib]
  other:
    args: {SLEEP}
"""

    async def scenario(handlers: Commands) -> None:
        await handlers.up({})
        rts = handlers.sup.runtimes
        other = rts["other"].proc
        for ignored in ("__pycache__/m.pyc", "build/out.js", "notes.log", ".m.py.swp", "m.py~"):
            (root / "src" / ignored).write_text("x")
        for i in range(5):
            (root / "src" / f"m{i}.py").write_text(str(i))
        await eventually(lambda: rts["app"].run == 2 and rts["app"].status == "running")
        watch = handlers.describe(rts["lib"])["watch"]
        assert (watch["state"], watch["triggers"], watch["last_trigger"]["files"]) == (
            "armed",
            1,
            [f"src/m{i}.py" for i in range(5)],
        )
        assert (rts["lib"].run, rts["other"].run, rts["other"].proc) == (2, 1, other)

    supervise(tmp_path, config, scenario)


def test_signal_and_exec_actions_leave_the_run_alone(tmp_path: Path) -> None:
    (tmp_path / "proj" / "conf").mkdir(parents=True)
    (tmp_path / "proj" / "out").mkdir()
    trap = (
        "import signal, sys, time; "
        "signal.signal(signal.SIGHUP, lambda *a: print('got HUP', file=sys.stderr, flush=True)); "
        "time.sleep(600)"
    )
    config = f"""version: 1
processes:
  web:
    args: [{PY}, -c, "{trap}"]
    watch: {{paths: [conf], action: "signal:HUP", debounce: 100ms}}
  assets:
    args: {SLEEP}
    watch: {{paths: [conf], action: "exec:echo $PROCLER_PROCESS_NAME > out/built", debounce: 100ms}}
"""

    async def scenario(handlers: Commands) -> None:
        await handlers.start({"name": "web"})
        await handlers.start({"name": "assets"})
        rts = handlers.sup.runtimes
        (tmp_path / "proj" / "conf" / "site.ini").write_text("a=1")
        built = tmp_path / "proj" / "out" / "built"
        await eventually(lambda: "got HUP" in rts["web"].recent_stderr and built.exists())
        await eventually(lambda: built.read_text() == "assets\n")
        for name in ("web", "assets"):
            rt = rts[name]
            assert (rt.run, rt.status, handlers.describe(rt)["watch"]["triggers"]) == (
                1,
                "running",
                1,
            )

    supervise(tmp_path, config, scenario)


def test_a_process_writing_into_its_watched_folder_is_suspended_and_stop_disarms(
    tmp_path: Path,
) -> None:
    (tmp_path / "proj" / "w").mkdir(parents=True)
    writes = "import time; open('w/out.txt', 'a').write('x'); time.sleep(600)"
    config = f"""version: 1
processes:
  selfish:
    args: [{PY}, -c, "{writes}"]
    watch: {{paths: ["w/**"], debounce: 100ms}}
"""

    async def scenario(handlers: Commands) -> None:
        await handlers.start({"name": "selfish"})
        rt = handlers.sup.runtimes["selfish"]
        await eventually(lambda: handlers.describe(rt)["watch"]["state"] == "suspended")
        watch = handlers.describe(rt)["watch"]
        assert (watch["suspended_by"], watch["triggers"], rt.run) == ("w/out.txt", 3, 4)
        await handlers.stop({"name": "selfish"})
        assert handlers.describe(rt)["watch"]["state"] == "disarmed"

    supervise(tmp_path, config, scenario)


def test_a_glob_over_the_whole_project_sees_top_and_nested_files_but_not_the_venv(
    tmp_path: Path,
) -> None:
    root = tmp_path / "proj"
    (root / ".venv" / "lib").mkdir(parents=True)
    (root / "src" / "a").mkdir(parents=True)
    config = f"""version: 1
processes:
  app:
    args: {SLEEP}
    watch: {{paths: ["**/*.py"], debounce: 100ms}}
"""

    async def scenario(handlers: Commands) -> None:
        await handlers.start({"name": "app"})
        rt = handlers.sup.runtimes["app"]
        assert handlers.sup.watcher._roots == (
            frozenset({str(root / "src")}),
            frozenset({str(root)}),  # alone: .venv and .procler are not watched at all
        )
        (root / ".venv" / "lib" / "site.py").write_text("x")
        (root / "top.py").write_text("x")
        await eventually(lambda: rt.run == 2 and rt.status == "running")
        (root / "src" / "a" / "b.py").write_text("x")
        await eventually(lambda: rt.run == 3 and rt.status == "running")
        watch = handlers.describe(rt)["watch"]
        assert (watch["triggers"], watch["last_trigger"]["files"]) == (2, ["src/a/b.py"])

    supervise(tmp_path, config, scenario)
