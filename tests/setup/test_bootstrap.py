"""`make` behind a TLS-inspecting proxy: uv runs with the system's certificate store and
SSL_CERT_FILE is honoured, from the uv bootstrap to `make sync` on a cold cache."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SYSTEM_PATH = "/usr/sbin:/usr/bin:/sbin:/bin"
CERT_VARIABLES = ("UV_SYSTEM_CERTS", "UV_NATIVE_TLS", "SSL_CERT_FILE")

# Records its environment and arguments, one call per line, then succeeds.
RECORDER = """#!/bin/sh
printf '%s|UV_SYSTEM_CERTS=%s|UV_NATIVE_TLS=%s|SSL_CERT_FILE=%s\\n' \
  "$(basename "$0") $*" "${UV_SYSTEM_CERTS-}" "${UV_NATIVE_TLS-}" "${SSL_CERT_FILE-}" >> "$RECORD"
"""


def executable(path: Path, text: str) -> None:
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


def make(target: str, tmp: Path, env: dict[str, str], *args: str) -> list[str]:
    """Run `make TARGET` in a copy of the Makefile; every uv/python call it made."""
    shutil.copy(ROOT / "Makefile", tmp / "Makefile")
    base = {k: v for k, v in os.environ.items() if k not in CERT_VARIABLES}
    record = tmp / "record"
    record.write_text("")
    subprocess.run(
        ["make", "-s", target, *args],
        cwd=tmp,
        env={**base, "RECORD": str(record), **env},
        check=True,
        capture_output=True,
        timeout=60,
    )
    return record.read_text().splitlines()


def test_make_runs_uv_with_the_system_certificates(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    executable(bin_dir / "uv", RECORDER)
    path = {"PATH": f"{bin_dir}:{SYSTEM_PATH}"}
    calls = make("sync", tmp_path, path)
    assert calls == [
        "uv sync --frozen --all-packages --quiet --compile-bytecode"
        "|UV_SYSTEM_CERTS=1|UV_NATIVE_TLS=1|SSL_CERT_FILE=",
        "uv run --frozen python -m compileall -q packages/agentcli/src packages/procler/src "
        "packages/officecli/src|UV_SYSTEM_CERTS=1|UV_NATIVE_TLS=1|SSL_CERT_FILE=",
    ]
    bundle = str(tmp_path / "corporate.pem")
    calls = make("sync", tmp_path, {**path, "SSL_CERT_FILE": bundle, "UV_SYSTEM_CERTS": "0"})
    assert {call.partition("|")[2] for call in calls} == {
        f"UV_SYSTEM_CERTS=0|UV_NATIVE_TLS=1|SSL_CERT_FILE={bundle}"  # the user's values win
    }


def test_the_uv_bootstrap_gives_pip_the_certificate_bundle_set(tmp_path: Path) -> None:
    # A python whose `-m venv DIR` makes DIR/bin/python a recorder that also "installs" uv.
    fake_python = tmp_path / "python3"
    executable(
        fake_python,
        f"""#!/bin/sh
{RECORDER.partition(chr(10))[2]}
if [ "$1 $2" = "-m venv" ]; then
  mkdir -p "$3/bin" && cp "$0" "$3/bin/python"
else
  printf '#!/bin/sh\\n' > "$(dirname "$0")/uv" && chmod +x "$(dirname "$0")/uv"
fi
""",
    )
    bundle = str(tmp_path / "corporate.pem")
    env = {k: v for k, v in os.environ.items() if k not in CERT_VARIABLES}
    subprocess.run(
        ["bash", str(ROOT / "scripts" / "bootstrap-uv.sh"), str(fake_python), str(tmp_path / "t")],
        env={**env, "RECORD": str(tmp_path / "record"), "SSL_CERT_FILE": bundle},
        check=True,
        capture_output=True,
        timeout=60,
    )
    assert [line.partition("|")[0] for line in (tmp_path / "record").read_text().splitlines()] == [
        f"python3 -m venv {tmp_path / 't'}",
        f"python -m pip install --quiet --disable-pip-version-check --cert {bundle} uv",
    ]
    assert (tmp_path / "t" / "bin" / "uv").exists()


@pytest.mark.network
@pytest.mark.timeout(900)
def test_make_sync_on_the_system_python_with_no_uv_and_a_cold_cache() -> None:
    """The Done-when of the proxy point: .ci/bootstrap-check.sh syncs a copy of this tree with
    an empty environment (scratch HOME, system PATH, no certificate variables)."""
    done = subprocess.run(
        ["bash", str(ROOT / ".ci" / "bootstrap-check.sh")],
        capture_output=True,
        text=True,
        timeout=880,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.startswith("bootstrap check: make sync on Python 3."), done.stdout
    assert "no uv on PATH, a cold cache in a scratch HOME, no certificate variables" in done.stdout
