"""The downtime manager (004 l.634-648, l.615; 000 l.250-252; 001 l.853)."""


def due(t, name):
    return next(r for r in t.ok("downtime", "due", "--json").json if r["character"] == name)


def test_one_downtime_action_per_week_in_a_haven_and_over_spending_is_refused(table):
    # l.640: "take one other substantial Downtime Action per week"
    table.ok("session", "open", "--game-date", "1024-03-01", "--activate", "Bo", "--no-income")
    table.ok("session", "close", "--game-date", "1024-03-04", "--haven", "Bo")
    assert due(table, "Bo")["actions_available"] == 0  # back on the 4th: no week has passed
    assert "no downtime action left" in table.refused("downtime", "act", "Bo", "research the tomb").stderr
    table.ok("calendar", "advance", "2w", "--why", "winter in town")  # the 4th to the 18th
    row = due(table, "Bo")
    assert (row["weeks"], row["actions_available"], row["from"], row["to"]) == (2, 2, "1024-03-04", "1024-03-18")
    table.ok("downtime", "act", "Bo", "carousing with the guild")
    table.ok("downtime", "act", "Bo", "Circles: find a fence")
    assert due(table, "Bo")["actions_available"] == 0
    assert "2 week(s) since 1024-03-04 and 2 spent" in table.refused("downtime", "act", "Bo", "more").stderr


def test_project_clocks_fill_one_tick_each_session(table):
    # l.644-648: "The Referee will tell players how many 'ticks' each project requires ... Each
    # session that a character dedicates a Downtime Action to a project, she may fill in one tick"
    table.ok("project", "start", "Map the Underdark", "--ticks", "2", "--owner", "Cass")
    table.ok("calendar", "advance", "4w")
    table.ok("downtime", "act", "Cass", "surveying", "--project", "Map the Underdark")
    assert due(table, "Cass")["projects"] == [{"name": "Map the Underdark", "owner": "Cass", "ticks": 2, "filled": 1}]
    # l.648: "Each session that a character dedicates a Downtime Action to a project, she may fill in one
    # tick": a second action given it before the next session is spent, and fills no tick.
    second = table.ok("downtime", "act", "Cass", "surveying", "--project", "map the underdark").stdout
    assert "no tick: Cass already filled this session's tick of Map the Underdark (one a session" in second
    assert len(table.ok("log", "--type", "project.ticked", "--json").json) == 1
    assert [a["payload"]["project"] for a in table.ok("log", "--type", "downtime.acted", "--json").json] == [
        "Map the Underdark", "Map the Underdark"]
    assert due(table, "Cass")["projects"][0]["filled"] == 1
    table.ok("session", "open", "--activate", "Bo", "--no-income")  # session 1: a new session, a new tick
    table.ok("downtime", "act", "Cass", "surveying", "--project", "map the underdark")
    (shown,) = table.ok("project", "show", "--json").json
    assert shown == {"name": "Map the Underdark", "owner": "Cass", "ticks": 2, "filled": 2}
    ticks = [e["payload"] for e in table.ok("log", "--type", "project.ticked", "--json").json]
    assert [(t["period"], t["rule"]) for t in ticks] == [("before session 1", "session"), ("session 1", "session")]
    assert "is complete" in table.refused("downtime", "act", "Cass", "more", "--project", "Map the Underdark").stderr
    assert "1 to 20 ticks" in table.refused("project", "start", "Big", "--ticks", "0", "--owner", "Cass").stderr


def test_one_tick_per_action_is_the_project_ticks_setting(table):
    table.ok("campaign", "set", "project_ticks", "action")
    table.ok("project", "start", "Tower", "--ticks", "4", "--owner", "Cass")
    table.ok("calendar", "advance", "3w")
    for _ in range(3):
        table.ok("downtime", "act", "Cass", "building", "--project", "Tower")
    assert table.ok("project", "show", "--json").json[0]["filled"] == 3


def test_a_late_tick_in_a_session_that_already_had_one_is_refused(table):
    table.ok("project", "start", "Tower", "--ticks", "4", "--owner", "Cass")
    table.ok("calendar", "advance", "3w")
    table.ok("downtime", "act", "Cass", "building", "--project", "Tower")
    (later,) = table.ok("log", "--type", "project.ticked", "--json").json
    refused = table.refused("downtime", "act", "Cass", "building", "--project", "Tower", "--game-date", "1024-03-10")
    assert f"event {later['position']} (project.ticked" in refused.stderr
    assert "two ticks of Tower before session 1 (one a session" in refused.stderr


def test_downtime_due_shows_followers_ready(table):
    table.ok("follower", "add", "Nureddine", "Hasan", "--feat")
    table.ok("follower", "lose", "Nureddine", "Hasan", "--why", "drowned")
    assert due(table, "Nureddine")["followers_ready"] == []
    table.ok("calendar", "advance", "1w")
    assert due(table, "Nureddine")["followers_ready"] == ["Hasan"]


def test_characters_out_on_an_expedition_have_no_downtime(table):
    table.ok("calendar", "advance", "2w")
    table.ok("session", "open", "--activate", "Bo", "--no-income")
    assert "Bo" not in {r["character"] for r in table.ok("downtime", "due", "--json").json}
    assert "not in a haven" in table.refused("downtime", "act", "Bo", "rest").stderr
