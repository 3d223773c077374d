"""The pure status rules of procler.states that the supervisor and `logs` share."""

from __future__ import annotations

from procler import states


def test_a_user_start_fails_until_known_good() -> None:
    assert states.failed_start(True, states.STARTING, has_check=False, ever_healthy=False)
    assert not states.failed_start(True, states.RUNNING, has_check=False, ever_healthy=False)
    assert states.failed_start(True, states.RUNNING, has_check=True, ever_healthy=False)
    assert not states.failed_start(True, states.RUNNING, has_check=True, ever_healthy=True)
    assert not states.failed_start(False, states.STARTING, has_check=True, ever_healthy=False)


def test_a_start_settles_when_known_good_or_bad() -> None:
    unsettled = [s for s in states.ALL if not states.start_settled(s, has_check=True)]
    assert unsettled == [states.STARTING, states.RUNNING]  # health still to be decided
    assert [s for s in states.ALL if not states.start_settled(s, has_check=False)] == [
        states.STARTING
    ]


def test_the_crashed_run() -> None:
    assert states.crashed_run(states.BACKOFF, 1, 1) == 1
    assert states.crashed_run(states.FAILED, 1, 0) == 1
    assert states.crashed_run(states.RUNNING, 3, 2) == 2
    assert states.crashed_run(states.RUNNING, 3, 0) is None
    assert states.crashed_run(states.EXITED, 2, 0) is None
    assert states.crashed_run(None, 0, 0) is None


def test_dependencies_down_and_met() -> None:
    assert [s for s in states.ALL if states.dependency_down("started", s)] == [
        states.STOPPED,
        states.STOPPING,
        states.FAILED,
        states.BACKOFF,
    ]
    assert states.dependency_down("healthy", states.EXITED)
    assert not states.dependency_down("completed_successfully", states.EXITED)
    assert states.condition_met("started", states.EXITED)
    assert not states.condition_met("healthy", states.RUNNING)


def test_up_leaves_a_completed_one_shot_alone_only_when_unchanged() -> None:
    assert states.done_for_up(states.EXITED, same_definition=True)
    assert not states.done_for_up(states.EXITED, same_definition=False)
    assert not states.done_for_up(states.FAILED, same_definition=True)
