from __future__ import annotations

from procler.config.graph import Cycle, DependencyGraph

# web -> api -> (db, cache); worker -> db; docs alone
EDGES = {
    "db": [],
    "cache": [],
    "api": ["db", "cache"],
    "worker": ["db"],
    "web": ["api"],
    "docs": [],
}


def test_start_levels_put_independent_processes_together() -> None:
    graph = DependencyGraph(EDGES)
    assert graph.start_levels() == [["db", "cache", "docs"], ["api", "worker"], ["web"]]


def test_start_levels_for_targets_include_transitive_dependencies_only() -> None:
    graph = DependencyGraph(EDGES)
    assert graph.start_levels(["web"]) == [["db", "cache"], ["api"], ["web"]]
    assert graph.start_order(["worker"]) == ["db", "worker"]


def test_stop_levels_are_the_reverse() -> None:
    graph = DependencyGraph(EDGES)
    assert graph.stop_levels(["web"]) == [["web"], ["api"], ["db", "cache"]]


def test_transitive_dependencies_and_dependents() -> None:
    graph = DependencyGraph(EDGES)
    assert graph.dependencies("web") == ["db", "cache", "api"]
    assert graph.dependents("db") == ["api", "worker", "web"]
    assert graph.dependents("web") == []


def test_cycles_are_found_once_with_their_path() -> None:
    graph = DependencyGraph({"a": ["b"], "b": ["c"], "c": ["a"], "d": ["d"], "e": ["a"]})
    assert graph.cycles() == [Cycle(("a", "b", "c", "a")), Cycle(("d", "d"))]
    assert graph.cycles()[0].describe() == "a -> b -> c -> a"


def test_no_cycles_in_a_dag() -> None:
    assert DependencyGraph(EDGES).cycles() == []
