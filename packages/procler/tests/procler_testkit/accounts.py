"""Other local users, for what another user must not reach or block (root creates them).

The test's interpreter may sit where other users cannot traverse (a virtualenv under
/root), so a command run as another user uses the system Python of the same version with
the environment's packages on PYTHONPATH (read-only for them, as an install would be).
"""

from __future__ import annotations

import os
import pwd
import shutil
import site
import subprocess
import sys
from pathlib import Path

import pytest

OTHER_USER = "procler-other"  # the second user: reads, writes, runs commands
SQUATTER = "procler-squatter"  # a third one, who takes names before the second


def account(name: str) -> pwd.struct_passwd:
    """The local account `name` (created once; root is needed to act as it)."""
    if os.geteuid() != 0:
        pytest.skip("acting as another user needs root to create and become that user")
    try:
        return pwd.getpwnam(name)
    except KeyError:
        made = subprocess.run(
            ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", name],
            capture_output=True,
            timeout=30,
        )
        assert made.returncode in (0, 9), made.stderr  # 9: created meanwhile by another run
    return pwd.getpwnam(name)


def other_user() -> str:
    return account(OTHER_USER).pw_name


def python_for_others() -> tuple[str, dict[str, str]]:
    """(interpreter, environment) with which another user runs this checkout's procler."""
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    system = shutil.which(version, path="/usr/bin:/usr/local/bin")
    if system is None:
        pytest.skip(f"no system {version} that another user could run")
    paths = [*site.getsitepackages()]
    for pth in Path(paths[0]).glob("*.pth"):  # the workspace's editable installs
        paths += [line for line in pth.read_text().splitlines() if line.startswith("/")]
    env = {k: v for k, v in os.environ.items() if not k.startswith("PROCLER_")}
    env["PYTHONPATH"] = os.pathsep.join(paths)
    return system, env


def run_as(
    user: str, cwd: Path, *args: str, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """`procler ARGS` in cwd as `user` (its own uid, gid and no supplementary groups)."""
    python, env = python_for_others()
    info = pwd.getpwnam(user)
    env["HOME"] = str(cwd)
    return subprocess.run(
        [python, "-c", "from procler.entry import main; main()", *args],
        cwd=cwd,
        env=env,
        user=info.pw_uid,
        group=info.pw_gid,
        extra_groups=[],
        capture_output=True,
        text=True,
        timeout=timeout,
    )
