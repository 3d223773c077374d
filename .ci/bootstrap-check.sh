#!/usr/bin/env bash
# Prove `make`'s uv bootstrap on the system's own Python (Debian's: PEP 668, no pip allowed
# outside a venv) with no uv on PATH, in a scratch tools folder; the real run is untouched.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! /usr/bin/python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3 python3-venv >/dev/null
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
system_path=/usr/sbin:/usr/bin:/sbin:/bin  # no pyenv shims, no uv
if PATH=$system_path command -v uv >/dev/null 2>&1; then
  echo "bootstrap check: uv is on the system PATH; the bootstrap would not run" >&2
  exit 1
fi
PATH=$system_path make -s bootstrap PYTHON=/usr/bin/python3 TOOLS="$scratch/tools"
echo "bootstrap check: $("$scratch/tools/bin/uv" --version) from $(/usr/bin/python3 --version)"
