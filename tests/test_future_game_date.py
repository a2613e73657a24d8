"""A --game-date after today (issue 28: "A `--game-date` in the future is
taken as a late fact: a year typo moves "today" a year on and gives every
character 53 downtime actions. A date after today is a refusal (or needs an
explicit flag).")"""


def _coeac(tally):
    tally.ok("campaign", "new", "C", "--rules", "coeac", "--start", "1024-03-01")
    tally.ok("player", "add", "Ann")
    tally.ok("char", "new", "A", "--player", "Ann", "--max-hp", "5", "--cash", "3")
    tally.ok("calendar", "advance", "2w")
    return tally


def test_a_year_typo_is_refused_and_says_how_to_move_the_calendar_on(tally):
    _coeac(tally)
    message = tally.refused("cash", "A", "+1", "--why", "a purse", "--game-date", "1025-03-10").stderr
    assert "--game-date 1025-03-10 is after today (1024-03-15)" in message
    assert "`tally calendar advance 360d`" in message
    assert tally.ok("calendar", "show", "--json").json["today"] == "1024-03-15"
    # The global option is the same door.
    tally.refused("--game-date", "1024-03-16", "cash", "A", "+1", "--why", "a purse")


def test_today_and_earlier_days_are_still_late_facts_and_the_calendar_moves_on_on_purpose(tally):
    _coeac(tally)
    tally.ok("cash", "A", "+1", "--why", "today", "--game-date", "1024-03-15")
    tally.ok("cash", "A", "+1", "--why", "late", "--game-date", "1024-03-02")
    tally.ok("calendar", "advance", "5d")
    tally.ok("cash", "A", "+1", "--why", "now it is today", "--game-date", "1024-03-20")
    assert tally.ok("char", "show", "A", "--json").json["cash"] == 6


def test_during_a_session_the_message_points_at_its_close(tally):
    _coeac(tally)
    tally.ok("session", "open", "--activate", "A")
    message = tally.refused("cash", "A", "+1", "--why", "x", "--game-date", "1024-04-01").stderr
    assert "`tally session close --game-date DATE`" in message
