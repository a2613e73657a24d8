"""`tally note add|list`: the referee's dated notes on the campaign's
timeline, the same note.recorded events a calendar import brings (issue 19,
item 3: "a referee's session history lands on the timeline"). Run on SQLite
and PostgreSQL, through the command line."""

from pathlib import Path

IMPORTS = Path(__file__).parent.parent / "fixtures" / "imports"


def titles(t, *args):
    return [n["title"] for n in t.ok("note", "list", "--json", *args).json["notes"]]


def test_a_note_lands_on_today_or_a_day_given_and_lists_in_day_order(campaign):
    campaign.ok("calendar", "advance", "3d")
    added = campaign.ok("note", "add", "The bridge at Kell burned", "--text", "Bo lit it", "--json").json
    assert added[0]["type"] == "note.recorded" and added[0]["payload"]["source"] is None
    campaign.ok("--game-date", "1024-03-02", "note", "add", "Rain all day")
    listed = campaign.ok("note", "list", "--json").json["notes"]
    assert [(n["date"], n["title"], n["text"]) for n in listed] == [
        ("1024-03-02", "Rain all day", ""), ("1024-03-04", "The bridge at Kell burned", "Bo lit it")]
    assert "The bridge at Kell burned — Bo lit it" in campaign.ok("note", "list").stdout


def test_the_list_answers_for_a_point_in_time_and_a_search(campaign):
    campaign.ok("calendar", "advance", "3d")
    first = campaign.ok("note", "add", "Kell burned", "--json").json[0]["position"]
    campaign.ok("--game-date", "1024-03-02", "note", "add", "Rain")
    assert titles(campaign, "--as-of", "1024-03-02") == ["Rain"]  # the in-game day
    assert titles(campaign, "--at-event", str(first)) == ["Kell burned"]  # what the ledger held then
    assert titles(campaign, "--search", "KELL") == ["Kell burned"]


def test_a_voided_note_is_gone_from_the_list_but_not_from_the_past(campaign):
    position = campaign.ok("note", "add", "Wrong day", "--json").json[0]["position"]
    campaign.ok("void", str(position), "--why", "typed on the wrong campaign")
    assert titles(campaign) == []
    assert titles(campaign, "--at-event", str(position)) == ["Wrong day"]


def test_refusals_write_nothing(campaign):
    campaign.refused("note", "add", "")
    campaign.refused("note", "add", "x" * 201)
    campaign.refused("note", "add", "ok", "--text", "y" * 501)
    campaign.refused("note", "add", "line one\nline two")
    campaign.refused("--game-date", "1023-12-31", "note", "add", "before the campaign began")


def test_imported_notes_and_typed_ones_share_the_list(tally_sqlite, tmp_path):
    harptos, out = IMPORTS / "fantasy-calendar-harptos-custom-export.json", tmp_path / "harptos.toml"
    tally_sqlite.ok("calendar", "import", str(harptos), "--out", str(out))
    tally_sqlite.ok("campaign", "new", "Realms", "--calendar", str(out), "--start", "1 Hammer (Deepwinter) 1498")
    imported = tally_sqlite.ok("calendar", "import", str(harptos), "--notes")
    tally_sqlite.ok("note", "add", "Session one")
    notes = tally_sqlite.ok("note", "list", "--json").json["notes"]
    typed = [n for n in notes if n["source"] is None]
    assert [n["title"] for n in typed] == ["Session one"] and len(notes) == 61, imported.stdout
    assert [n["day"] for n in notes] == sorted(n["day"] for n in notes)
