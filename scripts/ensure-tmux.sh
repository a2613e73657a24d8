#!/usr/bin/env bash
# tests/test_shell.py drives `tally shell` in a real terminal: tmux's. Install
# Debian's tmux when it is missing and we are allowed to; otherwise say what to do.
set -euo pipefail
command -v tmux >/dev/null && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "tmux missing: installing Debian's tmux package" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tmux >/dev/null
  command -v tmux >/dev/null && exit 0
fi
echo "tmux is missing (the shell's tests drive it): install it (apt-get install tmux)" >&2
exit 1
