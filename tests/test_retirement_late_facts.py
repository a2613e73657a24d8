"""A retirement's faction roll held along the timeline (issue 28: "Cass
retires with 1d6+2 = 3 against Reputation 1 (+1); a late +3 on an earlier
day then gives **+5**, though by 004 l.518 ("if the result is greater than
your Reputation") it should be +4, or the late fact refused.")"""


def _cass_retires(tally):
    tally.ok("campaign", "new", "C", "--rules", "coeac", "--start", "1024-03-01")
    tally.ok("player", "add", "Ann")
    tally.ok("char", "new", "Cass", "--player", "Ann", "--max-hp", "5", "--boons", "10")
    tally.ok("rep", "Guild", "+1", "--why", "an old favour", "--new")
    tally.ok("calendar", "advance", "2w")
    tally.ok("retire", "Cass", "--rep-faction", "Guild", "--dice", "1")  # 1 + 10//5 = 3 > 1: +1
    assert tally.ok("rep", "show", "--json").json == {"Guild": 2}


def test_a_late_change_that_turns_the_faction_roll_is_refused(tally):
    _cass_retires(tally)
    (retired,) = tally.ok("log", "--type", "character.retired", "--json").json
    message = tally.refused("rep", "Guild", "+3", "--why", "late", "--game-date", "1024-03-05").stderr
    assert f"event {retired['position']} (character.retired, 1024-03-15)" in message
    assert "faction roll of 3 would meet Reputation +4 with Guild, not +1" in message and "004 l.518" in message
    assert tally.ok("rep", "show", "--json").json == {"Guild": 2}


def test_a_late_change_the_roll_still_beats_is_accepted(tally):
    _cass_retires(tally)
    tally.ok("rep", "Guild", "+1", "--why", "late", "--game-date", "1024-03-05")  # 3 > 2: still +1
    assert tally.ok("rep", "show", "--json").json == {"Guild": 3}


def test_a_ruling_accepts_the_turned_roll_and_says_so(tally):
    _cass_retires(tally)
    tally.ok("rep", "Guild", "+3", "--why", "late", "--game-date", "1024-03-05", "--ruling", "the +1 stands")
    (ruling,) = tally.ok("log", "--type", "ledger.ruling", "--json").json
    assert "faction roll of 3" in ruling["payload"]["breaks"]
