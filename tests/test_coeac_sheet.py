"""char show: a sheet a referee could play from (issue 14)."""

from tests.conftest import sheet


def test_the_sheet_holds_what_the_table_needs(tally):
    t = tally
    t.ok("campaign", "new", "COEAC", "--rules", "coeac", "--start", "1024-03-01")
    t.ok("player", "add", "Ann")
    t.ok("char", "new", "Nureddine", "--player", "Ann", "--class", "Warrior", "--max-hp", "7", "--wealth", "6",
         "--cash", "20", "--skills", "Hand Weapons=2,Stealth=0", "--saves", "Vigor=2")
    t.ok("item", "add", "Nureddine", "Torches", "--depletion", "15")
    t.ok("item", "add", "Nureddine", "Heavy Armor", "--slots", "2")
    t.ok("follower", "add", "Nureddine", "Hasan")
    t.ok("project", "start", "Tower", "--ticks", "4", "--owner", "Nureddine")
    t.ok("hp", "bonus", "Nureddine", "1", "--why", "shrine")
    t.ok("hp", "damage", "Nureddine", "3")
    t.ok("resource", "max", "Nureddine", "Steel", "2", "--why", "Warrior")
    s = sheet(t, "Nureddine")
    assert (s["hp"], s["max_hp"], s["bonus_hp"], s["down_and_out"]) == (5, 7, 0, False)
    assert s["slots"] == {"used": 3, "capacity": 15}  # 12, and 3 for Hasan (004 l.553, l.559)
    assert [i["name"] for i in s["inventory"]] == ["Torches", "Heavy Armor"]
    assert s["projects"] == [{"name": "Tower", "owner": "Nureddine", "ticks": 4, "filled": 0}]
    text = t.ok("char", "show", "Nureddine").stdout
    # 004 l.18: a test rolls two dice plus the rating.
    for line in ("HP         5 of 7", "resources  Steel 2/2", "skills     Hand Weapons 2 (4d); any other 2d",
                 "saves      Vigor 2 (4d)", "wealth     6 (Bountiful)", "cash       20", "slots      3 of 15",
                 "inventory  Torches (1 Slot, Depletion 15+); Heavy Armor (2 Slots)", "followers  Hasan",
                 "projects   Tower 0/4"):
        assert line in text, line
    assert "│ 5/7 │" in t.ok("char", "list").stdout
