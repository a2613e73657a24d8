"""What the chronicle's tests share: a small campaign with known figures, the
real server started on a free loopback port, and Debian's Chromium."""

from __future__ import annotations

import json
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
    tally.ok("rep", "River Guild", "+1", "--why", "cleared the ford", "--new")
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


def follow(page, selector: str) -> None:
    """Click a link or a form's button and wait for the page it leads to: Playwright's click no longer
    waits for the navigation it starts, and the old page would answer the next read."""
    with page.expect_navigation():
        page.click(selector)


# Hostile text a player or a careless referee can type: all printable, so the CLI accepts it.
# `<!--<script>` in a <script> block puts the HTML tokenizer in its double-escaped state;
# the rest would run as markup or script if it were ever written unescaped.
HOSTILE = '<!--<script></script>"><svg onload=alert(1)>'
HOSTILE_WHY = ("<!--<script></script><script>window.__pwned=1</script>\"><svg onload=alert(2)>"
               "'><img src=x onerror=alert(3)>")


class ActingTally:
    """`tally --actor ACTOR …`: the tests' Tally with another (hostile) actor."""

    def __init__(self, tally, actor: str) -> None:
        self.tally, self.actor = tally, actor

    def ok(self, *args: str):
        from cli.main import app

        result = self.tally.runner.invoke(app, ["--db", self.tally.url, "--actor", self.actor, *map(str, args)],
                                          env={"COLUMNS": "250"}, catch_exceptions=False)
        assert result.exit_code == 0, (args, result.stdout, result.stderr)
        return result


def hostile_calendar(folder: Path) -> Path:
    """A calendar whose name, second month, a week day, a season, a moon and its phase and an era
    are hostile (TOML literal strings)."""
    path = folder / "hostile-calendar.toml"
    path.write_text(f"""name = 'Reckoning {HOSTILE}'
first_year = 1000
week = ['Moonday', 'Sun{HOSTILE}']
[[months]]
name = "Thaw"
days = 3
[[months]]
name = 'Mo{HOSTILE}'
days = 30
[[seasons]]
name = 'Se{HOSTILE}'
from = "Thaw"
[[moons]]
name = 'Lu{HOSTILE}'
cycle = 8
phases = ['Ph{HOSTILE}', 'Full']
[[eras]]
name = 'Er{HOSTILE}'
abbreviation = '{HOSTILE}'
from_year = 1000
""", encoding="utf-8")
    return path


def build_hostile_campaign(tally, folder: Path) -> dict:
    """A campaign with hostile text in every free-text field its pages show: the calendar's names
    (the session ends in the hostile month), the actor, a player, a character, a client seed, a roll's
    and every other --why, a faction, an item, a note, a stronghold and its tags, a follower, a
    project, a vow, a god and its sacrifice, where a treasure came from, and an imported roll's
    speaker and action. Its names, by what they are."""
    names = {kind: f"{kind[:2].capitalize()}{HOSTILE}" for kind in
             ("player", "character", "faction", "item", "stronghold", "follower", "project", "god", "speaker")}
    me, why = names["character"], HOSTILE_WHY
    t = ActingTally(tally, f"Actor{HOSTILE}")
    t.ok("campaign", "new", "Hostile", "--rules", "coeac,gods,xp", "--calendar", str(hostile_calendar(folder)),
         "--start", "1 Thaw 1024")
    t.ok("player", "add", names["player"])
    t.ok("char", "new", me, "--player", names["player"], "--class", "Warrior", "--max-hp", "6", "--wealth", "5",
         "--cash", "40")
    t.ok("god", "align", me, "2B")
    t.ok("god", "adopt", me, names["god"], "--power", "5", "--alignment", "2B", "--sacrifice", why[:200])
    t.ok("dice", "client-seed", why[:200])
    t.ok("session", "open", "--activate", me)
    t.ok("roll", "2d6", "--for", me, "--why", why)
    t.ok("rep", names["faction"], "+1", "--why", why, "--new")
    t.ok("cash", me, "+3", "--why", why)
    t.ok("item", "add", me, names["item"])
    t.ok("note", "add", why[:200])
    t.ok("stronghold", "found", names["stronghold"], "--owner", me)
    t.ok("follower", "add", me, names["follower"])
    t.ok("project", "start", names["project"], "--ticks", "4", "--owner", me)
    t.ok("vow", "swear", me, why)
    t.ok("god", "mark", me, "--why", why)
    t.ok("treasure", "add", "2", "--from", why)
    t.ok("treasure", "split", f"{me}=2")
    t.ok("session", "close", "--days", "3", "--haven", me)
    t.ok("calendar", "advance", "1w", "--why", why)
    t.ok("stronghold", "improve", names["stronghold"], "--wager", "10", "--by", me, "--tags",
         f"Ta{HOSTILE},Tb{HOSTILE}", "--dice", ",".join(["6"] * 15))
    rolls = folder / "hostile-ddb.jsonl"
    rolls.write_text(json.dumps({"id": "e1", "dateTime": "1685318947460", "eventType": "dice/roll/fulfilled", "data": {
        "action": why, "rollId": "r-1", "context": {"name": names["speaker"]},
        "rolls": [{"diceNotationStr": "1d20+5", "rollType": "to hit", "rollKind": "",
                   "result": {"constant": 5, "values": [17], "total": 22, "text": "17+5"}}]}}) + "\n")
    t.ok("import-rolls", "ddb", str(rolls))
    spent = next(e for e in tally.ok("log", "--type", "cash.changed", "--json").json)  # a void, with its ruling
    t.ok("void", str(spent["position"]), "--why", why)
    return names
