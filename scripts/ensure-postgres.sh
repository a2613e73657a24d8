#!/usr/bin/env bash
# The test suite starts its own PostgreSQL server from the server binaries
# (initdb, pg_ctl). Install them from Debian's packages when they are missing
# and we are allowed to; otherwise say what to do.
set -euo pipefail
have_server() {
  local dir
  dir=$(pg_config --bindir 2>/dev/null || true)
  [ -n "$dir" ] && [ -x "$dir/initdb" ] && return 0
  compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null
}
have_server && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "PostgreSQL server binaries missing: installing Debian's postgresql package" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  have_server && exit 0
fi
echo "PostgreSQL server binaries (initdb, pg_ctl) are missing: install PostgreSQL 15 (apt-get install postgresql)" >&2
exit 1
