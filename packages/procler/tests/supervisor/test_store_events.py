"""The event log read back for a recipe step's transitions: after a mark, by name, bounded."""

from __future__ import annotations

from pathlib import Path

from procler.supervisor.store import StateStore


def test_events_since_keeps_the_named_changes_after_the_mark_and_the_last_ones(
    tmp_path: Path,
) -> None:
    store = StateStore(tmp_path / "state.db")
    store.event("api", "stopped", "starting", "start requested")
    mark = store.event_mark()
    store.event("api", "starting", "running", "started")
    store.event("api", "running", "running", "desired stopped")  # no change: not kept
    store.event("worker", "stopped", "starting", "start requested")  # not named
    for i in range(3):
        store.event("api", "running", f"s{i}", "")
    changes = [(e["process"], e["from"], e["to"]) for e in store.events_since(mark, ["api"], 3)]
    assert changes == [("api", "running", "s0"), ("api", "running", "s1"), ("api", "running", "s2")]
    assert [e["to"] for e in store.events_since(mark, ["api", "worker"])] == [
        "running",
        "starting",
        "s0",
        "s1",
        "s2",
    ]
    store.close()
