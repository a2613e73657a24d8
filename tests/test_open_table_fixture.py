"""fixtures/open-table.tally: the scripted open-table campaign the demo replays."""

from pathlib import Path

FIXTURE = Path(__file__).parent.parent / "fixtures" / "open-table.tally"


def test_the_open_table_campaign_replays_and_holds_up(tally):
    t = tally  # both backends: SQLite and the throwaway PostgreSQL
    t.ok("script", str(FIXTURE), "--quiet")
    characters = {c["name"]: c for c in t.ok("char", "list", "--json").json}
    assert len({c["player"] for c in characters.values()}) >= 4
    assert [t.ok("session", "show", str(n), "--json").json["open"] for n in range(1, 11)] == [False] * 10
    assert characters["Bo"]["status"] == "dead"
    assert characters["Cass"]["status"] == "retired"
    # Cass retired with 12 Boons and Wealth 6: her heir took +1 in two Skills and 2 Wealth ranks.
    assert characters["Ilse"]["skills"] == {"Book Learning": 1, "Arcane Lore": 1, "Medicine": 1}
    assert characters["Ilse"]["wealth"] == 2
    # Bo fell in session 3: Dagny's medical aid passed, the table killed him (004 l.100); Bo the
    # Younger, rolled up at once, joined the expedition (l.15), shared the horde and took Ben's Boon.
    aid = t.ok("log", "--type", "medical_aid.rolled", "--json").json
    assert [(a["payload"]["by"], a["payload"]["succeeded"]) for a in aid] == [("Dagny", True)]
    (joined,) = t.ok("log", "--type", "session.joined", "--json").json
    assert (joined["payload"]["character"], joined["payload"]["replaces"]) == ("Bo the Younger", "Bo")
    boons = {e["payload"]["character"] for e in t.ok("log", "--type", "boon.gained", "--session", "3", "--json").json}
    assert boons == {"Bo the Younger", "Cass", "Dagny"}
    # Inventory: the warhorse carries six Slots; the Torches went to Dagny on their last use; the Silks
    # became 3 Cash once home (l.766).
    nureddine, dagny = (t.ok("char", "show", name, "--json").json for name in ("Nureddine", "Dagny"))
    assert [i["name"] for i in nureddine["inventory"]] == ["Light Armor", "warhorse"]
    assert nureddine["slots"] == {"used": 1, "capacity": 18}
    assert [(i["name"], i["last_use"]) for i in dagny["inventory"]] == [("Torches", True)]
    assert nureddine["resources"] == {"Steel": {"current": 2, "max": 2}}  # spent, then a long rest
    # The Company's treasury: Greyhold's Income, less what it paid Dagny.
    incomes = sum(e["payload"]["successes"] for e in t.ok("log", "--type", "company.income_rolled", "--json").json)
    assert t.ok("company", "--json").json["cash"] == incomes - 1 >= 0
    company = t.ok("company", "--json").json
    assert company["strongholds"][0]["rating"] == 2 and company["strongholds"][0]["owner"] == "company"
    assert company["reputation"] == {"River Guild": 4, "Bandit Kings": -5}
    assert t.ok("audit", "--json").json["ok"]
    assert t.ok("verify", "--json").json["ok"]


def test_a_refused_line_stops_the_script_and_names_it(tally_sqlite, tmp_path):
    script = tmp_path / "s.tally"
    script.write_text('campaign new T --start 1024-03-01\nroll 2d6\nroll 2d6 --dice 9,9\nroll 1d6\n')
    outcome = tally_sqlite("script", str(script))
    assert outcome.exit_code == 1
    assert "s.tally line 3 (roll 2d6 --dice 9,9) was refused" in outcome.stderr
    assert tally_sqlite.event_count() == 0  # one transaction: lines 1 and 2 are not kept either
    outcome = tally_sqlite("script", str(script), "--each")
    assert "lines 1-2 are recorded; line 3 (roll 2d6 --dice 9,9) was refused" in outcome.stderr
    assert tally_sqlite.event_count() == 3  # --each: lines 1 and 2 were recorded, line 4 never ran


FIXTURES = Path(__file__).parent.parent / "fixtures"


def test_the_wolves_band_starts_as_the_book_says(tally_sqlite):
    # 000 l.49-56: 3d6x10 hacksilver of equipment, the rest lost; a Karvi with twelve rowers and
    # food and water for four days.
    t = tally_sqlite
    t.ok("--campaign", "Wolves", "script", str(FIXTURES / "wolves-start.tally"), "--quiet")
    outfits = [e["payload"] for e in t.ok("log", "--type", "wolves.outfitted", "--json").json]
    assert len(outfits) == 3 and all(o["lost"] == o["hacksilver"] - sum(o["spent"].values()) for o in outfits)
    (ship,) = [e["payload"] for e in t.ok("log", "--type", "ship.acquired", "--json").json]
    assert (ship["kind"], ship["rowers"], ship["food_days"]) == ("Karvi", 12, 4)
    ulfhild = t.ok("char", "show", "Ulfhild", "--json").json
    assert (ulfhild["attack_bonus"], ulfhild["companions"], ulfhild["silver"]) == (3, ["Thorkel the Tall"], 1958)
    assert "boons" not in ulfhild  # coeac's figures are not a Wolves character's
    assert t.ok("audit", "--json").json["ok"]


def test_the_bifrost_campaign_spans_two_years_of_gods(tally):
    t = tally
    t.ok("--campaign", "Bifrost", "script", str(FIXTURES / "bifrost-gods.tally"), "--quiet")
    assert t.ok("campaign", "show", "--json").json["today"] == "day 7 of week 52, 1025"
    checks = [e["payload"] for e in t.ok("log", "--type", "god.punishment_checked", "--json").json]
    assert [(c["black"], c["punished"]) for c in checks] == [(10, True), (11, False)]
    aud = t.ok("god", "odds", "Aud", "--json").json
    assert (aud["black_marks"], aud["repent_power"]) == (9, 8)
    hallr = t.ok("god", "odds", "Hallr", "--json").json
    assert (hallr["black_marks"], hallr["grey_marks"]) == (1, 0)  # the life-or-death grey marks were redeemed
    assert t.ok("audit", "--json").json["ok"] and t.ok("verify", "--json").json["ok"]
