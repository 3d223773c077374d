#!/usr/bin/env bash
# `make demo`: what Procler can do, shown on the bundled example.
set -euo pipefail
procler capabilities | python -m json.tool | head -40
