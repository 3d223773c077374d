#!/usr/bin/env bash
# `make demo`: Procler brings up examples/quickstart in dependency order, shows it, stops it.
set -euo pipefail
cd "$(dirname "$0")/quickstart"
trap 'procler daemon stop >/dev/null 2>&1 || true' EXIT

# A command whose answer is shown only when it failed (then the demo stops).
quiet() { local out; out=$("$@") || { echo "$out"; return 1; }; }
# What a person reads: the table view of a list-shaped command, indented.
shown() { procler "$@" -f table | sed 's/^/  /'; }
step() { echo; echo "\$ procler $*"; }

step config validate; procler config validate | python3 -c 'import json,sys; print("  " + json.load(sys.stdin)["data"]["summary"])'
step config explain; procler config explain | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["paragraph"])'
step up; quiet procler up; shown status
step wait --group backend --for healthy --timeout 30s; quiet procler wait --group backend --for healthy --timeout 30s; shown group status backend
step status -f table; shown status
sleep 1.5
step logs worker --tail 3; procler logs worker --tail 3 | python3 -c '
import json, sys
for line in json.load(sys.stdin)["data"]["lines"]:
    print("  {} {} run={} {}".format(line["ts"], line["stream"], line["run"], line["text"]))'
step down; quiet procler down; shown status
step daemon stop; procler daemon stop | python3 -c 'import json,sys; d=json.load(sys.stdin)["data"]; print("  supervisor stopped:", not d["running"])'
