#!/usr/bin/env bash
# Install and start a real Docker engine for the Docker tests (no registry: images are built locally).
set -euo pipefail
if ! command -v dockerd >/dev/null 2>&1 || ! command -v busybox >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io busybox-static >/dev/null
  fi
fi
if command -v dockerd >/dev/null 2>&1 && ! docker info >/dev/null 2>&1; then
  nohup dockerd --bridge=none --iptables=false --ip6tables=false >/tmp/dockerd.log 2>&1 &
  for _ in $(seq 1 60); do docker info >/dev/null 2>&1 && break; sleep 0.5; done
fi
if docker info >/dev/null 2>&1; then
  echo "docker engine: $(docker version --format '{{.Server.Version}}')"
else
  echo "docker engine: unavailable" >&2
fi
