"""Levels, treasure XP and vows (seed 002 l.97-114, l.195)."""

import pytest

from ledger.rules.xp import level_for, threshold
from tests.conftest import Tally, sheet


@pytest.fixture
def band(tally_sqlite) -> Tally:
    t = tally_sqlite
    t.ok("campaign", "new", "Chainmail", "--rules", "xp", "--start", "1024-03-01")
    t.ok("player", "add", "Ann")
    t.ok("player", "add", "Ben")
    t.ok("char", "new", "Ada", "--player", "Ann")
    t.ok("char", "new", "Bert", "--player", "Ben")
    return t


def test_the_level_table():
    # l.99-102: "A first-level adventurer begins with 0 XP; a second-level adventurer has 1000 or
    # more; a third-level adventurer has 2000 or more, etc., with XP requirements doubling"
    assert [threshold(n) for n in range(1, 7)] == [0, 1000, 2000, 4000, 8000, 16000]
    assert [level_for(x) for x in (0, 999, 1000, 1999, 2000, 3999, 4000, 8000)] == [1, 1, 2, 2, 3, 3, 4, 5]


def test_xp_between_sessions_attains_levels_at_once_with_their_benefits(band):
    band.ok("xp", "Ada", "2500", "--why", "the siege of Greyhold")
    s = sheet(band, "Ada")
    assert (s["xp"], s["level"], s["pending_level"]) == (2500, 3, None)
    # l.105: "On every even-numbered level ... swap one characteristic point ... odd-numbered
    # levels ... a new area of expertise ... or a new weapon trait."
    benefits = [e["payload"]["benefit"] for e in band.ok("log", "--type", "level.attained", "--json").json]
    assert benefits == ["swap one characteristic point for another",
                        "a new area of expertise or a new weapon trait"]


def test_a_level_waits_for_safe_time(band):
    # l.195: "Safe time ... levels from acquired XP are attained."
    band.ok("session", "open", "--activate", "Ada", "--activate", "Bert")
    band.ok("treasure", "add", "1200", "--from", "the dragon's hoard")
    band.ok("treasure", "split", "Ada=1200", "Bert=0")
    s = sheet(band, "Ada")
    assert (s["xp"], s["level"], s["pending_level"]) == (1200, 1, 2)
    band.ok("session", "close", "--days", "2")
    s = sheet(band, "Ada")
    assert (s["level"], s["pending_level"]) == (2, None)


def test_a_vow_halves_treasure_xp_then_pays_out(band):
    # l.113-114: "once a vow is made, an adventurer only gains 1/2 XP from finding treasure until
    # her vow is achieved"; l.112: "Vows provide XP equal to the adventurer's last attained level"
    band.ok("xp", "Ada", "1000", "--why", "earlier deeds")
    band.ok("vow", "swear", "Ada", "Avenge my brother on the Jarl of Hedeby")
    assert "already has an open vow" in band.refused("vow", "swear", "Ada", "Another").stderr
    band.ok("session", "open", "--activate", "Ada", "--activate", "Bert")
    band.ok("treasure", "add", "301", "--from", "the Jarl's strongbox")
    band.ok("treasure", "split", "Ada=151", "Bert=150")
    awards = {e["payload"]["character"]: e["payload"] for e in band.ok("log", "--type", "xp.awarded", "--json").json}
    assert (awards["Ada"]["amount"], awards["Ada"]["vow_open"], awards["Ada"]["rounding"]) == (75, True, "down")
    assert awards["Bert"]["amount"] == 150
    band.ok("vow", "fulfil", "Ada")
    (done,) = [e["payload"] for e in band.ok("log", "--type", "vow.fulfilled", "--json").json]
    assert (done["xp"], done["rule"], done["limit"]) == (1000, "threshold", "session")
    assert sheet(band, "Ada")["xp"] == 2075 and sheet(band, "Ada")["vow"] is None


def test_vow_settings(band):
    band.ok("campaign", "set", "vow_rounding", "up")
    band.ok("vow", "swear", "Ada", "Reach Miklagard")
    band.ok("session", "open", "--activate", "Ada")
    band.ok("treasure", "add", "151", "--from", "a merchant's purse")
    band.ok("treasure", "split", "Ada=151")
    assert band.ok("log", "--type", "xp.awarded", "--json").json[-1]["payload"]["amount"] == 76
    # At level 1 the book's award is 0: the referee states it.
    assert "state the award with --xp" in band.refused("vow", "fulfil", "Ada").stderr
    band.ok("vow", "fulfil", "Ada", "--xp", "500")
    # vow_limit session: one vow fulfilled per session.
    band.ok("vow", "swear", "Ada", "Sail home")
    assert "one per session" in band.refused("vow", "fulfil", "Ada", "--xp", "100").stderr


def test_vow_limit_per_level(band):
    band.ok("campaign", "set", "vow_limit", "level")
    band.ok("xp", "Ada", "1000", "--why", "deeds")
    band.ok("vow", "swear", "Ada", "First vow")
    band.ok("vow", "fulfil", "Ada")  # threshold at level 2: 1000 XP -> level 3 at once (between sessions)
    band.ok("vow", "swear", "Ada", "Second vow")
    band.ok("campaign", "set", "vow_xp", "stated")
    band.ok("vow", "fulfil", "Ada", "--xp", "10")  # a new level, so a new vow may count: still level 3
    band.ok("vow", "swear", "Ada", "Third vow")
    assert "one per level" in band.refused("vow", "fulfil", "Ada", "--xp", "10").stderr
    assert (sheet(band, "Ada")["xp"], sheet(band, "Ada")["level"]) == (2010, 3)


def test_xp_refusals(band):
    assert "no open vow" in band.refused("vow", "fulfil", "Ada").stderr
    assert "no open vow" in band.refused("vow", "abandon", "Ada").stderr
    assert "changes nothing" in band.refused("xp", "Ada", "0", "--why", "x").stderr
    assert "cannot take away 5" in band.refused("xp", "Ada", "-5", "--why", "x").stderr
    band.ok("vow", "swear", "Ada", "Steal the crown")
    band.ok("vow", "abandon", "Ada")
    assert sheet(band, "Ada")["vow"] is None


def test_without_coeac_a_session_close_has_no_down_and_out_or_boons(band):
    band.ok("session", "open", "--activate", "Ada")
    band.ok("session", "close")
    types = {e["type"] for e in band.ok("log", "--json").json}
    assert not types & {"down_and_out.rolled", "boon.gained"}
