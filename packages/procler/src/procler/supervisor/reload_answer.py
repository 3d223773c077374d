"""`procler reload [--dry-run]`: the config file's diff against the running config, applied
(or only shown). A broken file is refused whole (CONFIG_INVALID, every error with its
line and column) and nothing changes."""

from __future__ import annotations

from typing import Any

from procler.config.fingerprint import diff
from procler.errors import StartFailed
from procler.supervisor.core import Supervisor
from procler.supervisor.reloader import Applied


async def reload(sup: Supervisor, dry_run: bool) -> dict[str, Any]:
    if dry_run:
        cfg = sup.keeper.peek()
        change = diff(sup.reloader.applied, cfg.processes).as_dict()
        return {**change, "dry_run": True, "processes": list(cfg.processes)}
    taken = sup.reloader.generation
    sup.keeper.refuse_reload()  # takes up a changed valid file, refuses a broken one
    cfg = sup.config()
    applied = await sup.settle()
    if sup.reloader.generation == taken:  # nothing changed since the config applied last
        answer = Applied(diff(sup.reloader.applied, sup.reloader.applied)).as_dict()
    else:
        answer = applied.as_dict()
    answer = {
        **answer,
        "dry_run": False,
        "processes": list(cfg.processes),
        "groups": list(cfg.groups),
    }
    if applied.failed and sup.reloader.generation != taken:
        names = ", ".join(applied.failed)
        raise StartFailed(
            f"the new config is applied, but {names} did not start: "
            + "; ".join(f"{n}: {e}" for n, e in applied.failed.items()),
            suggestion="read `procler logs NAME --run last-failed`, fix the definition, then "
            "`procler reload` again",
            data=answer,
        )
    return answer
