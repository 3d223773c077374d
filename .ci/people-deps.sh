#!/usr/bin/env bash
# What the tests for people's surfaces need: tmux (the TUI in a real terminal) and Chromium
# (the web dashboard in a real browser, driven by Playwright).
set -euo pipefail
need=()
command -v tmux >/dev/null 2>&1 || need+=(tmux)
command -v chromium >/dev/null 2>&1 || need+=(chromium)
if [ "${#need[@]}" -gt 0 ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
echo "tmux: $(tmux -V 2>/dev/null || echo unavailable)"
echo "chromium: $(chromium --version 2>/dev/null || echo unavailable)"
