"""`tally recap` (issue 27, item 3): a session or a stretch of days in
game-date order — who went, treasure and its split, Income, XP, Boons, deaths
and replacements, Wealth and stronghold attempts, Reputation, gods' marks,
downtime and projects, notes, days passed — as Markdown that pastes into
Discord and Obsidian (read back here by a CommonMark parser: no HTML, and
every typed name reads as typed), as text and as JSON. Every roll is a hand
roll, so the campaign is the same each run. On SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from markdown_it import MarkdownIt

from tests.conftest import BACKENDS, Tally

# Names and reasons that are markup somewhere: emphasis, an Obsidian link, a heading or tag, a Discord
# mention, HTML.
BO = "*Bo*"
CHEST = "the ogre's [[chest]]"
IDOL = "returned the @everyone idol"
DOOR = "The door #3"
INSIDE = "<b>always</b> behind it & _under_ it"


def build(tally):
    """Session 1 (1024-03-08 to 03-10): Nureddine (Ann) and *Bo* (Ben); Income by hand; treasure found and
    split; XP; Reputation; a grey mark; a note; *Bo* dies and Cy replaces him. Then on 03-10 a Wealth
    attempt (gained) and a stronghold attempt (failed), a project; a week passes and a downtime action ticks
    it. Session 2 (03-20 to 03-21): Nureddine and Cy, XP for Cy."""
    tally.ok("campaign", "new", "Greyhawk", "--rules", "coeac,gods,xp", "--start", "1024-03-01")
    for player in ("Ann", "Ben"):
        tally.ok("player", "add", player)
    tally.ok("char", "new", "Nureddine", "--player", "Ann", "--max-hp", "6", "--wealth", "1", "--cash", "20")
    tally.ok("char", "new", BO, "--player", "Ben", "--max-hp", "6")
    tally.ok("god", "align", "Nureddine", "2E")
    tally.ok("god", "adopt", "Nureddine", "Pelor", "--power", "3", "--alignment", "2E")
    tally.ok("session", "open", "--game-date", "1024-03-08", "--activate", "Nureddine", "--activate", BO,
             "--dice", "6", "--client-seed", "ours")
    tally.ok("treasure", "add", "30", "--from", CHEST)
    tally.ok("treasure", "split", "Nureddine=10", f"{BO}=20")
    tally.ok("xp", "Nureddine", "100", "--why", "slew the ogre")
    tally.ok("rep", "The Guild", "+2", "--why", IDOL, "--new")
    tally.ok("god", "mark", "Nureddine", "--why", "lied to a priest", "--grey", "1")
    tally.ok("note", "add", DOOR, "--text", INSIDE)
    tally.ok("char", "die", BO, "--why", "fell in the pit")
    tally.ok("char", "new", "Cy", "--player", "Ben", "--max-hp", "6")
    tally.ok("session", "join", "Cy")
    tally.ok("session", "close", "--days", "2", "--haven", "Nureddine", "--haven", "Cy")
    tally.ok("wealth", "improve", "Nureddine", "--wager", "4", "--dice", "4,5,6,6")
    tally.ok("stronghold", "found", "Keep", "--owner", "Nureddine")
    tally.ok("stronghold", "improve", "Keep", "--wager", "8", "--by", "Nureddine", "--tags", "Economy,Garrison",
             "--dice", ",".join(["1"] * 10))
    tally.ok("project", "start", "Tower", "--ticks", "4", "--owner", "Nureddine")
    tally.ok("calendar", "advance", "1w", "--why", "a quiet week")
    tally.ok("downtime", "act", "Nureddine", "builds the tower", "--project", "Tower")
    tally.ok("session", "open", "--game-date", "1024-03-20", "--activate", "Nureddine", "--activate", "Cy",
             "--no-income", "--client-seed", "ours again")
    tally.ok("xp", "Cy", "50", "--why", "found the map")
    tally.ok("session", "close", "--days", "1", "--haven", "Nureddine", "--haven", "Cy")
    return tally


@pytest.fixture(scope="module", params=BACKENDS)
def table(request, tmp_path_factory):
    """The campaign of ``build``, once for the module on each backend (the tests that only read it)."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path_factory.mktemp('recap') / 'tally.db'}"
    else:
        url = request.getfixturevalue("pg_server").new_database()
    return build(Tally(url))


def recap(t, *args, format_="md") -> str:
    return t.ok("recap", *args, "--format", format_).stdout


SESSION_1 = [  # the lines of session 1's recap as text, in order
    "Greyhawk: session 1",
    "In game: 1024-03-08 to 1024-03-10 (2 day(s) passed)",
    "Who went",
    f"Session 1 (1024-03-08 to 1024-03-10): Nureddine (Ann), {BO} (Ben), Cy (Ben, joined, replacing {BO})",
    "1024-03-08",
    f"Session: session 1 opens: Nureddine, {BO}",
    "Income: Nureddine: 1 Cash from 1 dice",
    f"Treasure: 30 Cash found: {CHEST}",
    f"Treasure split: {BO} 20, Nureddine 10 (30 Cash)",
    "XP: Nureddine +10 XP (treasure): 10 units of treasure",
    f"XP: {BO} +20 XP (treasure): 20 units of treasure",
    "XP: Nureddine +100 XP (referee): slew the ogre",
    f"Reputation: The Guild +2 (+0 → +2): {IDOL}",
    "Gods: Nureddine: 1 grey mark(s): lied to a priest",
    f"Note: {DOOR} — {INSIDE}",
    f"Death: {BO} dies: fell in the pit",
    "New character: Cy joins Ben's stable",
    f"Joined: Cy (Ben) joins the session, replacing {BO}",
    "1024-03-10",
    "Boon: Nureddine gains a Boon (session)",
    "Boon: Cy gains a Boon (session)",
    "Session: session 1 closes",
    "Totals",
    "Treasure found: 30 Cash",
    f"Shares: {BO} 20, Nureddine 10",
    f"XP: Nureddine 110, {BO} 20",
    "Boons gained: Nureddine 1, Cy 1",
    f"Deaths: {BO}",
    f"Replacements: Cy for {BO}",
    "Days passed: 2",
]


def as_read(markdown: str) -> list[str]:
    """What a CommonMark reader shows of the Markdown, block by block; HTML in it fails the test."""
    tokens = MarkdownIt("commonmark").parse(markdown)
    shown = []
    for token in tokens:
        assert "html" not in token.type, token
        if token.type == "inline":
            assert not [c for c in token.children if "html" in c.type or c.type in ("link_open", "image")], token
            shown.append("".join(c.content for c in token.children if c.type in ("text", "text_special")))
    return shown


def test_the_text_of_a_session_tells_it_all_in_game_date_order(table):
    text = recap(table, "--session", "1", format_="text")
    assert [line.strip() for line in text.splitlines() if line.strip()] == SESSION_1
    assert "\\" not in text  # nothing escaped in text


def test_the_markdown_reads_as_the_text_and_holds_no_html(table):
    markdown = recap(table, "--session", "1")
    assert as_read(markdown) == SESSION_1
    lines = markdown.splitlines()
    assert lines[0] == "# Greyhawk: session 1" and "## Who went" in lines and "## Totals" in lines
    assert "## 1024-03-08" in lines and lines.index("## 1024-03-08") < lines.index("## 1024-03-10")
    # Each typed name is escaped where it was typed, and only there: the ledger's own words are markup.
    assert "- **Treasure:** 30 Cash found: the ogre's \\[\\[chest\\]\\]" in lines
    assert "- **Reputation:** The Guild +2 (+0 → +2): returned the \\@everyone idol" in lines
    assert "- **Note:** The door \\#3 — \\<b>always\\</b> behind it \\& \\_under\\_ it" in lines
    assert "- **Death:** \\*Bo\\* dies: fell in the pit" in lines
    assert not [line for line in lines if line.startswith("|") or "<" in line.replace("\\<", "")]


def test_the_json_has_each_day_its_entries_and_the_totals(table):
    found = table.ok("recap", "--session", "1", "--format", "json").json
    assert found["range"] == {"kind": "session", "session": 1, "from": "1024-03-08", "to": "1024-03-10",
                              "from_day": found["range"]["from_day"], "to_day": found["range"]["from_day"] + 2}
    assert found["days_passed"] == 2 and found["open"] is False
    assert [c["character"] for c in found["who"][0]["characters"]] == ["Nureddine", BO, "Cy"]
    assert found["who"][0]["characters"][2] == {"character": "Cy", "player": "Ben", "joined": True, "replaces": BO}
    assert [d["date"] for d in found["days"]] == ["1024-03-08", "1024-03-10"]
    entries = [e for d in found["days"] for e in d["entries"]]
    assert [e["type"] for e in entries] == [
        "session.opened", "income.rolled", "treasure.found", "treasure.divided", "xp.awarded", "xp.awarded",
        "xp.awarded", "reputation.changed", "god.grey_marks", "note.recorded", "character.died",
        "character.created", "session.joined", "boon.gained", "boon.gained", "session.closed"]
    positions = [e["position"] for e in entries]
    assert positions == sorted(positions)  # one session, one day after another: the order recorded
    assert entries[3]["text"] == f"{BO} 20, Nureddine 10 (30 Cash)" and "parts" not in entries[3]
    assert found["totals"] == {"treasure_found": {"Cash": 30}, "shares": {BO: 20, "Nureddine": 10},
                               "set_aside": {}, "xp": {"Nureddine": 110, BO: 20},
                               "boons": {"Nureddine": 1, "Cy": 1}, "deaths": [BO],
                               "replacements": [{"character": "Cy", "replaces": BO}]}


def test_a_stretch_of_days_tells_wealth_strongholds_downtime_and_time_passing(table):
    text = recap(table, "--from", "1024-03-10", "--to", "1024-03-17", format_="text")
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    assert lines[:2] == ["Greyhawk: 1024-03-10 to 1024-03-17", "In game: 1024-03-10 to 1024-03-17 (7 day(s) passed)"]
    day10, day17 = lines.index("1024-03-10"), lines.index("1024-03-17")
    assert lines[day10 + 1:day17] == [
        "Boon: Nureddine gains a Boon (session)", "Boon: Cy gains a Boon (session)", "Session: session 1 closes",
        "Wealth: Nureddine: Wealth 1 → 2, Ob 4, 4 Cash wagered: 4 successes, gained",
        "Stronghold: Keep founded, owned by Nureddine",
        "Stronghold: Keep (paid by Nureddine) 0 → 1, Ob 10, 8 Cash wagered: 0 successes, failed",
        "Project: Tower begins for Nureddine: 4 ticks"]
    assert lines[day17 + 1:lines.index("Totals")] == [
        "Time: 7 day(s) pass: a quiet week", "Downtime: Nureddine: builds the tower (project Tower)",
        "Project: Tower: a tick (of 4) by Nureddine"]
    assert lines[-1] == "Days passed: 7" and "Treasure found: none" in lines and "Deaths: none" in lines
    # Session 1 ended within it, so it is who went; session 2 began after.
    assert lines[lines.index("Who went") + 1].startswith("Session 1 (1024-03-08 to 1024-03-10)")
    assert not [line for line in lines if line.startswith("Session 2")]


def test_one_session_leaves_out_the_others(table):
    lines = as_read(recap(table, "--session", "2"))
    assert lines[:4] == ["Greyhawk: session 2", "In game: 1024-03-20 to 1024-03-21 (1 day(s) passed)",
                         "Who went", "Session 2 (1024-03-20 to 1024-03-21): Nureddine (Ann), Cy (Ben)"]
    assert "XP: Cy +50 XP (referee): found the map" in lines and "XP: Cy 50" in lines
    assert not [line for line in lines if "ogre" in line or "Tower" in line or BO in line]


def test_an_open_session_and_a_voided_event(tally):
    tally.ok("campaign", "new", "Greyhawk", "--rules", "coeac,xp", "--start", "1024-03-01")
    tally.ok("player", "add", "Ann")
    tally.ok("char", "new", "Nureddine", "--player", "Ann", "--max-hp", "6")
    tally.ok("session", "open", "--game-date", "1024-03-08", "--activate", "Nureddine", "--no-income",
             "--client-seed", "ours")
    tally.ok("xp", "Nureddine", "40", "--why", "a wrong award")
    tally.ok("xp", "Nureddine", "15", "--why", "the bridge held")
    found = tally.ok("recap", "--session", "1", "--format", "json").json
    wrong = next(e["position"] for d in found["days"] for e in d["entries"] if "a wrong award" in e["text"])
    tally.ok("void", str(wrong), "--why", "awarded twice")
    lines = as_read(recap(tally, "--session", "1"))
    assert lines[1] == "In game: 1024-03-08, still open (0 day(s) passed)"
    assert "Session 1 (1024-03-08, still open): Nureddine (Ann)" in lines
    assert "XP: Nureddine +15 XP (referee): the bridge held" in lines and "XP: Nureddine 15" in lines
    assert not [line for line in lines if "wrong award" in line]


def test_a_secret_sealed_before_and_revealed_in_the_session(tally):
    # Issue 27, item 3: "sealed secrets revealed" are part of what happened. The ogre's table was sealed
    # before the session; its reveal in the session is told with its first line and its commitment, so a
    # player reading the recap on a phone knows what to check with `tally secret verify`.
    tally.ok("campaign", "new", "Greyhawk", "--rules", "coeac", "--start", "1024-03-01")
    tally.ok("player", "add", "Ann")
    tally.ok("char", "new", "Nureddine", "--player", "Ann", "--max-hp", "6")
    sealed = tally.ok("secret", "seal", "ogre [[den]]", "1-3 *an ogre*\n4-6 nothing", "--json").json
    tally.ok("session", "open", "--game-date", "1024-03-08", "--activate", "Nureddine", "--no-income",
             "--client-seed", "ours")
    tally.ok("secret", "reveal", "ogre [[den]]")
    tally.ok("session", "close", "--days", "1", "--haven", "Nureddine")
    short = sealed["commitment"][:16]
    lines = as_read(recap(tally, "--session", "1"))
    assert (f"Secret: the sealed secret ogre [[den]] is revealed: 1-3 *an ogre* (+1 more line(s)); "
            f"it makes its commitment {short}… (check: tally secret verify)") in lines
    markdown = recap(tally, "--session", "1")
    assert "ogre \\[\\[den\\]\\] is revealed: 1-3 \\*an ogre\\*" in markdown  # typed text escaped
    whole = as_read(recap(tally, "--from", "1024-03-01", "--to", "1024-03-09"))
    assert f"Secret: a secret is sealed: ogre [[den]] (commitment {short}…)" in whole


@pytest.mark.parametrize("args, says", [
    (("--session", "9"), "there is no session 9 in campaign Greyhawk (sessions run from 1 to 2)"),
    (("--session", "0"), "there is no session 0"),
    ((), "a recap needs a stretch: --session N, or --from DATE --to DATE"),
    (("--from", "1024-03-10", "--to", "1024-03-02"), "--from 1024-03-10 is after --to 1024-03-02"),
    (("--from", "1024-02-01"), "--from 1024-02-01 is outside the campaign: it runs from 1024-03-01 to 1024-03-21"),
    (("--to", "1025-01-01"), "--to 1025-01-01 is outside the campaign"),
    (("--from", "1024-02-30"), "1024-02-30"),
    (("--from", "yesterday"), "yesterday"),
    (("--session", "1", "--to", "1024-03-10"), "give --session, or --from/--to, not both"),
    (("--session", "1", "--format", "html"), "--format takes md, text or json, not 'html'"),
])
def test_bad_input_is_refused_on_one_line(table, args, says):
    assert says in table.refused("recap", *args).stderr
