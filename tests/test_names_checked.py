"""Names that must mean something already in the ledger (issue 28: "`roll
--for` records a roll for a name that is no character (misspelt, dead, never
created); a misspelt faction silently starts a new one (`rep "Rivr Guild"
+1`) — suggest the near name and require `--new` for a first mention.")"""


def _table(tally):
    tally.ok("campaign", "new", "C", "--rules", "coeac", "--start", "1024-03-01")
    tally.ok("player", "add", "Ann")
    tally.ok("player", "add", "Ben")
    tally.ok("char", "new", "Nureddine", "--player", "Ann", "--max-hp", "6")
    tally.ok("char", "new", "Bo", "--player", "Ben", "--max-hp", "4")
    tally.ok("rep", "River Guild", "+1", "--why", "cleared the ford", "--new")
    return tally


def test_a_roll_for_a_misspelt_name_is_refused_with_the_near_name(tally):
    _table(tally)
    message = tally.refused("roll", "2d6", "--for", "Nureddin", "--dice", "3,4").stderr
    assert "no character named 'Nureddin'" in message and "did you mean Nureddine?" in message


def test_a_roll_for_a_name_never_created_or_dead_is_refused(tally):
    _table(tally)
    assert "did you mean" not in tally.refused("roll", "2d6", "--for", "Zed", "--dice", "3,4").stderr
    tally.ok("char", "die", "Bo", "--why", "a fall")
    assert "Bo is dead" in tally.refused("roll", "2d6", "--for", "Bo", "--dice", "3,4").stderr


def test_a_roll_for_a_character_is_kept_under_the_sheets_spelling(tally):
    _table(tally)
    rolled = tally.ok("roll", "2d6", "--for", "nureddine", "--dice", "3,4", "--json").json
    assert rolled["character"] == "Nureddine"


def test_a_misspelt_faction_is_refused_with_the_near_name(tally):
    _table(tally)
    message = tally.refused("rep", "Rivr Guild", "+1", "--why", "a favour").stderr
    assert "no Faction named 'Rivr Guild' yet: did you mean River Guild?" in message and "--new" in message
    assert tally.ok("rep", "show", "--json").json == {"River Guild": 1}


def test_a_first_mention_takes_new_and_a_known_one_refuses_it(tally):
    _table(tally)
    assert "first mention takes --new" in tally.refused("rep", "Bandit Kings", "-2", "--why", "x").stderr
    tally.ok("rep", "Bandit Kings", "-2", "--why", "burned their camp", "--new")
    assert "already a Faction of this campaign: drop --new" in tally.refused(
        "rep", "river guild", "+1", "--why", "x", "--new").stderr
    tally.ok("rep", "river guild", "+1", "--why", "another favour")  # any case: the same Faction
    assert tally.ok("rep", "show", "--json").json == {"River Guild": 2, "Bandit Kings": -2}


def test_a_late_fact_before_a_factions_first_change_is_no_first_mention(tally):
    _table(tally)
    tally.ok("calendar", "advance", "1w")
    tally.ok("rep", "Crown", "+1", "--why", "a pardon", "--new")
    tally.ok("rep", "Crown", "+1", "--why", "an earlier favour", "--game-date", "1024-03-02")
    assert tally.ok("rep", "show", "--json").json["Crown"] == 2


def test_a_retirements_faction_is_checked_the_same_way(tally):
    _table(tally)
    message = tally.refused("retire", "Bo", "--rep-faction", "Rivr Guild", "--dice", "6").stderr
    assert "did you mean River Guild?" in message and "--new-faction" in message
    tally.ok("retire", "Bo", "--rep-faction", "Crown", "--new-faction", "--dice", "6")
    assert tally.ok("rep", "show", "--json").json == {"River Guild": 1, "Crown": 1}
