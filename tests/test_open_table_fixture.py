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
    # 000 l.48-56: 3d6x10 hacksilver of equipment at the list's prices, the rest lost; a Karvi with twelve
    # rowers and food and water for four days. l.248: a band whose silver falls loses its companion.
    # l.270: a raised boast refused passes to the challenger.
    t = tally_sqlite
    t.ok("--campaign", "Wolves", "script", str(FIXTURES / "wolves-start.tally"), "--quiet")
    outfits = [e["payload"] for e in t.ok("log", "--type", "wolves.outfitted", "--json").json]
    assert len(outfits) == 3 and all(o["lost"] == o["hacksilver"] - sum(o["spent"].values()) for o in outfits)
    assert outfits[0]["spent"] == {"Spear": 4, "Shield": 15, "Leather (Light)": 15}  # l.81, l.101, l.97
    assert outfits[1]["stated"] == ["fishing line"]  # not on the list: bought at the price stated
    karvi, raven = [e["payload"] for e in t.ok("log", "--type", "ship.acquired", "--json").json]
    assert (karvi["kind"], karvi["rowers"], karvi["food_days"]) == ("Karvi", 12, 4)
    assert (raven["kind"], raven["price"]) == ("Boat", 0)
    ulfhild = t.ok("char", "show", "Ulfhild", "--json").json
    assert (ulfhild["attack_bonus"], ulfhild["companions"], ulfhild["silver"]) == (3, [], 958)
    (left,) = [e["payload"] for e in t.ok("log", "--type", "companion.left", "--json").json]
    assert (left["name"], left["supported"]) == ("Thorkel the Tall", 0)
    kol = t.ok("char", "show", "Kol", "--json").json
    assert kol["boast"]["boast"] == "I will wrestle the bear of Hestvik" and kol["attack_bonus"] == 4
    assert "boons" not in ulfhild  # coeac's figures are not a Wolves character's
    assert t.ok("audit", "--json").json["ok"]


def test_the_skirmish_company_rerolls_with_luck_through_the_dice_epoch(tally):
    # 003 l.313: "a luck point may be expended to reroll, or force your opponent to reroll"; l.132 the
    # healer's skill; l.322 the campaign's level table; l.435 armour worn as clothing.
    t = tally
    t.ok("--campaign", "Rifles", "script", str(FIXTURES / "skirmish-battle.tally"), "--quiet")
    rolls = {e["position"]: e for e in t.ok("log", "--type", "dice.rolled", "--json").json}
    spends = [e for e in t.ok("log", "--type", "luck.changed", "--json").json if e["payload"]["reason"] == "spent"]
    assert [(e["payload"]["character"], e["payload"]["mode"]) for e in spends] == [
        ("Sharpe", "reroll"), ("Harper", "reroll"), ("Sharpe", "force_reroll")]
    for spent in spends:  # each spend's cause is its re-roll, of the same expression as the roll it replaced
        reroll, target = rolls[spent["cause"]], rolls[spent["payload"]["roll"]]
        assert reroll["payload"]["expression"] == target["payload"]["expression"] == "2d6"
    assert rolls[spends[0]["cause"]]["payload"]["verifiable"]  # derived from the epoch's seed
    assert [rolls[e["cause"]]["payload"]["dice"] for e in spends[1:]] == [[5, 4], [2, 1]]
    sharpe = t.ok("char", "show", "Sharpe", "--json").json
    assert (sharpe["luck"], sharpe["skirmish_level"], sharpe["clothing"]) == (0, 2, "Armour")
    assert sharpe["skills"] == {"Shooting": 2, "Leadership": 1}
    (healing,) = [e["payload"] for e in t.ok("log", "--type", "wound.healing", "--json").json]
    assert (healing["healer"], healing["skill"], healing["bonus"], healing["result"]) == ("Harper", 2, 2, "healed")
    assert t.ok("audit", "--json").json["ok"] and t.ok("verify", "--json").json["ok"]


def test_the_bifrost_campaign_spans_two_years_of_gods(tally):
    t = tally
    t.ok("--campaign", "Bifrost", "script", str(FIXTURES / "bifrost-gods.tally"), "--quiet")
    assert t.ok("campaign", "show", "--json").json["today"] == "day 7 of week 52, 1025"
    checks = [e["payload"] for e in t.ok("log", "--type", "god.punishment_checked", "--json").json]
    assert [(c["black"], c["reason"], c["punished"]) for c in checks] == [
        (1, "relapse", False), (10, "threshold", True), (11, "threshold", False)]
    (punished,) = t.ok("log", "--type", "god.punished", "--json").json
    assert punished["payload"]["severity"] == 10
    aud = t.ok("god", "odds", "Aud", "--json").json
    assert (aud["black_marks"], aud["repent_power"], aud["punishments_due"]) == (9, 8, [])
    # Hallr lost the battle of gods and was converted to Tyr: Njord's mark went with Njord.
    (converted,) = t.ok("log", "--type", "god.converted", "--json").json
    assert (converted["payload"]["from_god"], converted["payload"]["black"]) == ("Njord", 1)
    hallr = t.ok("god", "odds", "Hallr", "--json").json
    assert (hallr["god"], hallr["black_marks"], hallr["grey_marks"], hallr["battle_penalty"]) == ("Tyr", 0, 0, 0)
    assert t.ok("audit", "--json").json["ok"] and t.ok("verify", "--json").json["ok"]
