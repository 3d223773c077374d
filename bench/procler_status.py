"""`procler status` with a warm supervisor vs `python3 -c pass` and `supervisorctl status`;
and in a project where no supervisor runs (answered from the state on disk: the config is
read, which the warm path leaves to the supervisor).

Target: procler status median <= 1.3x python3 -c pass, all measured in the same run.
supervisord is installed into bench/.venv-supervisor (not a project dependency).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _results import Results
from _timing import ROOT, compare, print_table, tool

RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 30
# The floor of any client of this supervisor: the same request from a script that imports
# nothing of ours (only the C socket module) and, like the entry, skips interpreter
# teardown. procler status cannot beat it.
FLOOR = """
import _socket, os, sys
s = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
s.connect(sys.argv[1])
body = b"\\0".join(os.fsencode(x) for x in (os.getcwd(), sys.argv[2], "status"))
s.sendall(b"POST /v1/argv HTTP/1.1\\r\\nHost: x\\r\\nContent-Length: %d\\r\\n"
          b"Connection: close\\r\\n\\r\\n" % len(body) + body)
out = []
while True:
    d = s.recv(65536)
    if not d:
        break
    out.append(d)
sys.stdout.buffer.write(b"".join(out).partition(b"\\r\\n\\r\\n")[2].partition(b"\\n")[2] + b"\\n")
sys.stdout.flush()
os._exit(0)
"""
SUP_VENV = ROOT / "bench" / ".venv-supervisor"


def ensure_supervisor() -> Path:
    bin_dir = SUP_VENV / "bin"
    if not (bin_dir / "supervisorctl").exists():
        subprocess.run(["uv", "venv", "-q", str(SUP_VENV)], check=True)
        subprocess.run(
            ["uv", "pip", "install", "-q", "--python", str(bin_dir / "python"), "supervisor"],
            check=True,
        )
    return bin_dir


def main() -> None:
    results = Results(
        f"`procler status`, warm supervisor, 3 processes, against `python3 -c pass` and "
        f"`supervisorctl status`; and with no supervisor (from disk), median of {RUNS}"
    )
    work = Path(tempfile.mkdtemp(prefix="procler-bench-"))
    (work / ".procler").mkdir()
    sleep = f"[{sys.executable}, -c, 'import time; time.sleep(3600)']"
    config_text = "version: 1\nprocesses:\n" + "".join(
        f"  p{i}:\n    args: {sleep}\n" for i in range(3)
    )
    (work / ".procler" / "config.yaml").write_text(config_text)
    idle = work / "idle" / ".procler" / "config.yaml"  # the same project, never started
    idle.parent.mkdir(parents=True)
    idle.write_text(config_text)
    procler = tool("procler")
    subprocess.run([procler, "start", "--all"], cwd=work, check=True, capture_output=True)

    sup_bin = ensure_supervisor()
    conf = work / "supervisord.conf"
    sock = work / "supervisor.sock"
    conf.write_text(
        f"[unix_http_server]\nfile={sock}\n[supervisord]\nlogfile={work}/sd.log\npidfile={work}/sd.pid\n"
        "[rpcinterface:supervisor]\n"
        "supervisor.rpcinterface_factory = supervisor.rpcinterface:make_main_rpcinterface\n"
        f"[supervisorctl]\nserverurl=unix://{sock}\n"
        + "".join(
            f"[program:p{i}]\ncommand={sys.executable} -c 'import time; time.sleep(3600)'\n"
            for i in range(3)
        )
    )
    subprocess.run([str(sup_bin / "supervisord"), "-c", str(conf)], check=True)
    time.sleep(1.5)
    floor = work / "floor.py"
    floor.write_text(FLOOR)
    sock_path = str(work / ".procler" / "state" / "supervisor.sock")
    config = str(work / ".procler" / "config.yaml")
    try:
        medians = compare(
            {
                "python3 -c pass": [sys.executable, "-c", "pass"],
                "raw socket script (floor)": [sys.executable, str(floor), sock_path, config],
                "procler status": [procler, "status"],
                "supervisorctl status": [str(sup_bin / "supervisorctl"), "-c", str(conf), "status"],
                "procler status, no supervisor": [procler, "--config", str(idle), "status"],
            },
            RUNS,
            cwd=work,
        )
        print_table(medians, "python3 -c pass")
        ratio = medians["procler status"] / medians["python3 -c pass"]
        print(f"ratio procler status / python3 -c pass = {ratio:.2f} (target <= 1.3)")
        results.ours("procler status", medians["procler status"] * 1000, "ms")
        offline = medians["procler status, no supervisor"]
        results.ours("procler status, no supervisor", offline * 1000, "ms")
        for label in ("python3 -c pass", "raw socket script (floor)", "supervisorctl status"):
            results.peer(label, medians[label] * 1000, "ms")
        results.ratio("procler status / python3 -c pass", ratio, goal="<= 1.3")
        results.ratio(
            "procler status, no supervisor / python3 -c pass", offline / medians["python3 -c pass"]
        )
        results.ratio(
            "supervisorctl status / procler status",
            medians["supervisorctl status"] / medians["procler status"],
            better="higher",
        )
        results.write()
    finally:
        subprocess.run([procler, "daemon", "stop"], cwd=work, capture_output=True)
        subprocess.run(
            [str(sup_bin / "supervisorctl"), "-c", str(conf), "shutdown"], capture_output=True
        )
        os.environ.get("KEEP") or subprocess.run(["rm", "-rf", str(work)])


if __name__ == "__main__":
    main()
