"""What the chronicle's tests share: a small campaign with known figures, the
real server started on a free loopback port, and Debian's Chromium."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path

CHROMIUM = os.environ.get("TALLY_CHROMIUM", "/usr/bin/chromium")
# 24 hand-rolled dice, 12 of them 4 or more: Wealth 5 -> 6 needs Ob 12 (004 l.153).
WEALTH_FACES = "4,5,6,4,5,6,4,5,6,4,5,6,1,1,1,1,2,2,2,2,3,3,3,3"


def build_campaign(tally) -> None:
    """Greyhawk: Nureddine (Wealth 5) plays session 1 (1024-03-01 to 03-04: Income and an
    Athletics roll, both derived, epochs revealed at its close), then on 1024-03-11 her
    Wealth rises to 6 on hand-rolled dice."""
    tally.ok("campaign", "new", "Greyhawk", "--rules", "coeac", "--start", "1024-03-01")
    tally.ok("player", "add", "Ann")
    tally.ok("char", "new", "Nureddine", "--player", "Ann", "--class", "Warrior", "--max-hp", "6",
             "--wealth", "5", "--cash", "40")
    tally.ok("dice", "client-seed", "Ann's pick")
    tally.ok("session", "open", "--activate", "Nureddine")
    tally.ok("roll", "2d6", "--for", "Nureddine", "--why", "Athletics at the ford")
    tally.ok("rep", "River Guild", "+1", "--why", "cleared the ford")
    tally.ok("session", "close", "--days", "3", "--haven", "Nureddine")
    tally.ok("calendar", "advance", "1w")
    tally.ok("wealth", "improve", "Nureddine", "--wager", "24", "--dice", WEALTH_FACES)


def day_of(tally, date: str) -> int:
    return tally.ok("campaign", "show", "--as-of", date, "--json").json["today_day"]


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def serving(store, campaign=None):
    """The chronicle served in a thread of the test process: its address."""
    from chronicle.app import serving_in_thread

    return serving_in_thread(store, campaign)


@contextmanager
def tally_serve(url: str, *extra: str):
    """`tally --db URL serve --port 0` as its own process: the address it printed."""
    tally = Path(sys.executable).with_name("tally")
    process = subprocess.Popen([str(tally), "--db", url, "serve", "--port", "0", *extra],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = process.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:\d+/", first)
        assert found, (first, process.stderr.read() if process.poll() is not None else "")
        yield found.group(0), process
    finally:
        if process.poll() is None:
            process.send_signal(2)  # Ctrl-C
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


@contextmanager
def browser():
    """Debian's Chromium under Playwright: a missing browser fails the test, never skips it."""
    from playwright.sync_api import sync_playwright

    assert os.access(CHROMIUM, os.X_OK), (f"Chromium is missing at {CHROMIUM}: run `make chromium` "
                                           "(scripts/ensure-chromium.sh) or set TALLY_CHROMIUM")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield launched
        finally:
            launched.close()
