"""A replacement joins the running session (issue 14 item 5): 004 l.15, "If a
character dies, the player may immediately roll up a new character, which will
then be incorporated into play as soon as possible"."""

import pytest

from tests.conftest import sheet


@pytest.fixture
def expedition(tally):
    """Session 2 under way with Bo (Ben) and Nureddine (Ann); Cy has a share set aside from session 1."""
    t = tally
    t.ok("campaign", "new", "COEAC", "--rules", "coeac", "--start", "1024-03-01")
    for player in ("Ann", "Ben", "Cy"):
        t.ok("player", "add", player)
    t.ok("char", "new", "Nureddine", "--player", "Ann", "--max-hp", "6")
    t.ok("char", "new", "Bo", "--player", "Ben", "--max-hp", "4")
    t.ok("char", "new", "Cass", "--player", "Cy", "--max-hp", "5")
    t.ok("session", "open", "--activate", "Nureddine", "--no-income")
    t.ok("treasure", "add", "4", "--from", "a purse")
    t.ok("treasure", "split", "Nureddine=2", "--set-aside", "Cy=2")
    t.ok("session", "close", "--days", "2", "--haven", "Nureddine")
    t.ok("session", "open", "--game-date", "1024-03-08", "--activate", "Bo", "--activate", "Nureddine",
         "--no-income")
    return t


def test_a_replacement_joins_shares_the_treasure_and_takes_the_boon(expedition):
    t = expedition
    t.ok("down-and-out", "Bo", "--dice", "2,3")  # 5: death in the dungeon
    t.ok("char", "new", "Bo II", "--player", "Ben", "--max-hp", "5")
    joined = t.ok("session", "join", "Bo II", "--json").json
    assert joined[0]["payload"] == {"number": 2, "character": "Bo II", "player": "Ben", "replaces": "Bo"}
    assert "Bo II joins session 2, replacing Bo" in t.ok("log", "--type", "session.joined").stdout
    assert t.ok("session", "show", "--json").json["activated"] == {"Ben": "Bo II", "Ann": "Nureddine"}
    t.ok("treasure", "add", "10", "--from", "Kobold Clan (minor horde)")
    t.ok("treasure", "split", "Bo II=5", "Nureddine=5")  # present like anyone activated (l.630)
    t.ok("session", "close", "--days", "3", "--haven", "Bo II", "--haven", "Nureddine")
    # l.503: one Boon a session for the player's activated character; Bo died, Bo II plays on.
    boons = [(e["payload"]["character"], e["payload"]["reason"])
             for e in t.ok("log", "--type", "boon.gained", "--session", "2", "--json").json]
    assert sorted(boons) == [("Bo II", "session"), ("Nureddine", "session")]
    assert t.ok("log", "--type", "boon.owed", "--json").json == []
    assert (sheet(t, "Bo II")["boons"], sheet(t, "Bo II")["cash"]) == (1, 5)


def test_a_latecomer_joins_with_no_one_to_replace(expedition):
    t = expedition
    t.ok("session", "join", "Cass")
    (joined,) = t.ok("log", "--type", "session.joined", "--json").json
    assert joined["payload"]["replaces"] is None
    assert sheet(t, "Cass")["cash"] == 2  # the share set aside for Cy (l.630) comes with her character
    t.ok("session", "close", "--haven", "Cass", "--haven", "Bo", "--haven", "Nureddine")
    assert sheet(t, "Cass")["boons"] == 1


@pytest.mark.parametrize("args, message", [
    (("Bo",), "already activated in session 2"),
    (("Ghost",), "no character named 'Ghost'"),
])
def test_join_refusals(expedition, args, message):
    assert message in expedition.refused("session", "join", *args).stderr


def test_one_character_per_player_until_the_first_has_died(expedition):
    expedition.ok("char", "new", "Bo II", "--player", "Ben", "--max-hp", "5")
    refused = expedition.refused("session", "join", "Bo II").stderr
    assert "Ben plays Bo in session 2: one character per player per session (004 l.15)" in refused


def test_no_session_no_join(tally):
    tally.ok("campaign", "new", "COEAC", "--rules", "coeac", "--start", "1024-03-01")
    tally.ok("player", "add", "Ann")
    tally.ok("char", "new", "Nureddine", "--player", "Ann", "--max-hp", "6")
    assert "no session is open" in tally.refused("session", "join", "Nureddine").stderr
