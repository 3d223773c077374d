#!/usr/bin/env bash
# `make demo`: Procler brings up examples/quickstart in dependency order, shows it, stops it.
set -euo pipefail
cd "$(dirname "$0")/quickstart"
trap 'procler daemon stop >/dev/null 2>&1 || true' EXIT

# One line per process from an answer that holds data.processes.
table() {
  python3 -c '
import json, sys
env = json.load(sys.stdin)
if not env["success"]:
    print(json.dumps(env, indent=2)); sys.exit(1)
for p in env["data"]["processes"]:
    health = (p.get("health") or {}).get("status", "-")
    print("  {:8} {:8} pid={!s:7} health={:9} run={} restarts={}".format(
        p["name"], p["status"], p["pid"], health, p["run"], p["restarts"]))'
}
step() { echo; echo "\$ procler $*"; }

step config validate; procler config validate | python3 -c 'import json,sys; print("  " + json.load(sys.stdin)["data"]["summary"])'
step config explain; procler config explain | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["paragraph"])'
step up; procler up | table
step wait --group backend --for healthy --timeout 30s; procler wait --group backend --for healthy --timeout 30s | table
step status; procler status | table
sleep 1.5
step logs worker --tail 3; procler logs worker --tail 3 | python3 -c '
import json, sys
for line in json.load(sys.stdin)["data"]["lines"]:
    print("  {} {} run={} {}".format(line["ts"], line["stream"], line["run"], line["text"]))'
step down; procler down | table
step daemon stop; procler daemon stop | python3 -c 'import json,sys; d=json.load(sys.stdin)["data"]; print("  supervisor stopped:", not d["running"])'
