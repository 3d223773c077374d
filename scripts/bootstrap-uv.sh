#!/usr/bin/env bash
# Put uv at TOOLS/bin/uv without touching the system Python, so `make` works on a PEP 668
# ("externally managed") Python such as Debian 12's or Ubuntu 24.04's:
#   1. a virtual environment in TOOLS (python3 -m venv) and pip install uv inside it;
#   2. only when venv is unavailable: pip install --user --break-system-packages uv,
#      linked into TOOLS/bin.
# pip trusts the system's certificates (Debian's pip, or truststore in pip >= 24.2), so this
# works behind a TLS-inspecting proxy; SSL_CERT_FILE, when set, is passed on as pip's --cert.
# Usage: scripts/bootstrap-uv.sh PYTHON TOOLS
set -euo pipefail
python=${1:-python3}
tools=${2:-.tools}
cert=()
if [ -n "${SSL_CERT_FILE:-}" ]; then
  cert=(--cert "$SSL_CERT_FILE")
fi

if [ -x "$tools/bin/uv" ]; then
  exit 0
fi
if "$python" -m venv "$tools" >/dev/null 2>&1; then
  "$tools/bin/python" -m pip install --quiet --disable-pip-version-check ${cert[@]+"${cert[@]}"} uv
else
  rm -rf "$tools"
  echo "bootstrap-uv: $python has no working venv; installing uv with pip --user" >&2
  "$python" -m pip install --quiet --user --break-system-packages ${cert[@]+"${cert[@]}"} uv
  user_bin=$("$python" -c 'import os, site; print(os.path.join(site.USER_BASE, "bin"))')
  mkdir -p "$tools/bin"
  ln -sf "$user_bin/uv" "$tools/bin/uv"
fi
"$tools/bin/uv" --version
