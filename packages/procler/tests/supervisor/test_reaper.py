"""Reaping zombie children that nobody else owns (orphans reparented to the supervisor)."""

from __future__ import annotations

import json
import subprocess
import sys

# Run in a process of its own: pytest's children (other tests') must not be reaped here.
SCRIPT = """
import json, os, subprocess, sys
from procler.contexts import procfs
from procler.supervisor.reaper import reap_orphans

seen = [reap_orphans(set())]  # no zombie child: answered by one waitid, no walk
child = subprocess.Popen([sys.executable, "-c", "pass"])
os.waitid(os.P_PID, child.pid, os.WEXITED | os.WNOWAIT)  # it has exited, still a zombie
seen.append(procfs.read_stat(child.pid).state)
seen.append(reap_orphans({child.pid}))  # its owner reaps it
seen.append(procfs.read_stat(child.pid).state)
seen.append(reap_orphans(set()))
seen.append(procfs.read_stat(child.pid))
print(json.dumps(seen))
"""


def test_a_zombie_child_is_reaped_unless_owned() -> None:
    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=30)
    assert json.loads(out.stdout) == [0, "Z", 0, "Z", 1, None]
