#!/usr/bin/env bash
# Prove README's set-up as a newcomer meets it: `make sync` on the system's own Python
# (Debian's: PEP 668, no pip allowed outside a venv) with no uv on PATH, a scratch HOME (so a
# cold uv cache and no user configuration) and only the machine's own certificate settings:
# the environment is emptied (no SSL_CERT_FILE, no proxy variables), so behind a
# TLS-inspecting proxy this works only if make runs uv with the system's certificate store.
# It syncs a copy of this tree (tracked and unignored files) in a scratch folder; the
# checkout itself is untouched. Needs the network to PyPI. tests/setup/test_bootstrap.py
# runs it (in CI, where AGENT_TOOLS_NETWORK_TESTS=1).
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
mkdir "$scratch/home" "$scratch/tree"
git ls-files -z --cached --others --exclude-standard |
  tar -c --null --files-from=- --ignore-failed-read 2>/dev/null | tar -x -C "$scratch/tree"
(
  cd "$scratch/tree"
  env -i HOME="$scratch/home" PATH="$system_path" LANG=C.UTF-8 \
    make -s sync PYTHON=/usr/bin/python3 >"$scratch/sync.log" 2>&1
) || { cat "$scratch/sync.log" >&2; echo "bootstrap check: make sync failed" >&2; exit 1; }
env -i HOME="$scratch/home" PATH="$system_path" "$scratch/tree/.venv/bin/python" \
  -c 'import agentcli, officecli, procler' ||
  { echo "bootstrap check: the packages do not import from .venv" >&2; exit 1; }
test -d "$scratch/home/.cache/uv" ||
  { echo "bootstrap check: uv's cache was not the scratch HOME's" >&2; exit 1; }
echo "bootstrap check: make sync on $(/usr/bin/python3 --version), no uv on PATH, a cold cache" \
  "in a scratch HOME, no certificate variables: $("$scratch/tree/.tools/bin/uv" --version)"
