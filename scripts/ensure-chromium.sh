#!/usr/bin/env bash
# The chronicle's browser tests drive Debian's Chromium through Playwright
# (executable_path=/usr/bin/chromium): Playwright's own browser download is
# never used. Install Debian's chromium package when it is missing and we are
# allowed to; otherwise say what to do.
set -euo pipefail
BROWSER=${TALLY_CHROMIUM:-/usr/bin/chromium}
[ -x "$BROWSER" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "Chromium missing: installing Debian's chromium package" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  [ -x "$BROWSER" ] && exit 0
fi
echo "Chromium ($BROWSER) is missing: install it (apt-get install chromium) or set TALLY_CHROMIUM" >&2
exit 1
