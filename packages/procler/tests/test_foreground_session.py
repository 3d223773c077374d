"""An attached `up`'s session, in process: the order of what it prints when `down`'s
answer and the event stream's last status lines arrive on their two connections."""

from __future__ import annotations

import time

import pytest

from agentcli.commands import Raw
from procler.foreground.session import LAST_LINES, Session

STOPPED = {"type": "status", "name": "web", "from": "stopping", "to": "stopped"}


def stopping_session() -> Session:
    """A session following web, running, whose Ctrl-C sent `down`."""
    session = Session("unused.yaml", ["web"], None, colour=False)
    session._snapshot({"processes": [{"name": "web", "status": "running"}]})
    session.up_done = session.stopping = True
    return session


def test_the_last_status_line_comes_before_the_stack_is_stopped_even_after_down_answered(
    capsys: pytest.CaptureFixture[str],
) -> None:
    session = stopping_session()
    assert session._take("down", Raw("", 0)) is None  # the stream has not shown it stopped
    assert session._take("event", {**STOPPED, "reason": "stop requested"}) == 0
    assert capsys.readouterr().out == (
        "[procler] web: stopping -> stopped (stop requested)\n[procler] the stack is stopped\n"
    )


def test_a_status_line_that_never_comes_delays_the_end_by_a_bounded_wait(
    capsys: pytest.CaptureFixture[str],
) -> None:
    session = stopping_session()
    assert session._take("down", Raw("", 0)) is None
    assert session.down_at is not None
    session.down_at = time.monotonic() - LAST_LINES  # as if that long had passed
    assert session._stopped() == 0
    assert capsys.readouterr().out == "[procler] the stack is stopped\n"
