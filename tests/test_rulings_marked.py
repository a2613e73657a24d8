"""Figures that stand by a ruling say so (issue 28: "`--ruling` accepts a fact
that leaves Cash at −1 and nothing on the sheet or in `why` marks the figure
as standing by a ruling; the ruling names only the first event it breaks.")"""


def _a(tally):
    tally.ok("campaign", "new", "C", "--rules", "coeac", "--start", "1024-03-01")
    tally.ok("player", "add", "Ann")
    tally.ok("char", "new", "A", "--player", "Ann", "--max-hp", "5", "--cash", "30")
    tally.ok("calendar", "advance", "2w")
    return tally


def _positions(tally, why: str) -> int:
    return next(e["position"] for e in tally.ok("log", "--type", "cash.changed", "--json").json
                if e["payload"]["why"] == why)


def test_cash_left_at_minus_one_by_a_ruling_is_marked_on_the_sheet_and_in_why(tally):
    _a(tally)
    tally.ok("cash", "A", "-15", "--why", "a horse")
    tally.ok("cash", "A", "-16", "--why", "a bribe", "--game-date", "1024-03-05", "--ruling", "on credit")
    (ruling,) = tally.ok("log", "--type", "ledger.ruling", "--json").json
    sheet = tally.ok("char", "show", "A", "--json").json
    assert sheet["cash"] == -1
    assert sheet["by_ruling"] == {"cash": {"position": ruling["position"], "ruling": "on credit",
                                           "ruled_by": "referee"}}
    shown = tally.ok("char", "show", "A").stdout
    assert f"-1 — BY RULING #{ruling['position']} (referee: on credit)" in shown
    told = tally.ok("why", "A", "cash", "--json").json
    assert told["by_ruling"]["position"] == ruling["position"]
    ruled = {row["position"]: row["ruling"] for row in told["changes"]}
    assert ruled[_positions(tally, "a horse")]["ruling"] == "on credit"  # the event it broke
    assert ruled[_positions(tally, "a bribe")]["ruling"] == "on credit"  # the fact it accepted
    text = tally.ok("why", "A", "cash").stdout
    assert "BY RULING" in text.splitlines()[0]
    # Nothing else is marked: Wealth and HP are where any command could leave them.
    assert "BY RULING" not in "".join(l for l in shown.splitlines() if not l.startswith("cash"))


def test_a_figure_back_in_bounds_is_no_longer_marked(tally):
    _a(tally)
    tally.ok("cash", "A", "-15", "--why", "a horse")
    tally.ok("cash", "A", "-16", "--why", "a bribe", "--game-date", "1024-03-05", "--ruling", "on credit")
    tally.ok("cash", "A", "+3", "--why", "a purse")
    assert "by_ruling" not in tally.ok("char", "show", "A", "--json").json
    assert "by_ruling" not in tally.ok("why", "A", "cash", "--json").json


def test_the_ruling_records_every_event_it_breaks(tally):
    _a(tally)
    tally.ok("cash", "A", "-25", "--why", "first")  # 03-15: 5
    tally.ok("calendar", "advance", "1d")
    tally.ok("cash", "A", "+10", "--why", "second")  # 03-16: 15
    tally.ok("calendar", "advance", "1d")
    tally.ok("cash", "A", "-12", "--why", "third")  # 03-17: 3
    # A late -8 on the 5th leaves -3 on the 15th and -5 on the 17th: two events broken.
    refused = tally.refused("cash", "A", "-8", "--why", "late", "--game-date", "1024-03-05").stderr
    assert f"event {_positions(tally, 'first')} " in refused
    tally.ok("cash", "A", "-8", "--why", "late", "--game-date", "1024-03-05", "--ruling", "a debt")
    (ruling,) = tally.ok("log", "--type", "ledger.ruling", "--json").json
    first, third = _positions(tally, "first"), _positions(tally, "third")
    assert ruling["payload"]["broken"] == [first, third]
    breaks = ruling["payload"]["breaks"]
    assert f"event {first} (cash.changed, 1024-03-15): A's Cash would be -3" in breaks
    assert f"event {third} (cash.changed, 1024-03-17): A's Cash would be -5" in breaks
    assert tally.ok("char", "show", "A", "--json").json["by_ruling"]["cash"]["ruling"] == "a debt"


def test_a_schema_1_ruling_reads_its_one_broken_event_off_its_words():
    from ledger.events.registry import decode

    old = {"ruling": "on credit", "breaks": "event 12 (cash.changed, 1024-03-05): A's Cash would be -1, below zero",
           "ruled_by": "referee"}
    assert decode("ledger.ruling", 1, dict(old)).broken == [12]
    itself = {**old, "breaks": "this fact itself: A's Cash would be -1, below zero"}
    assert decode("ledger.ruling", 1, itself).broken == []


def test_a_purse_below_zero_by_a_ruling_may_still_gain_and_may_not_lose_more(tally):
    # The ruling let Cash stand at -5; a gain is no taking away (it was refused: "A has -5 Cash;
    # cannot take away -1"), and a loss beyond what is there still needs a ruling of its own.
    _a(tally)
    tally.ok("cash", "A", "-15", "--why", "a horse")
    tally.ok("cash", "A", "-20", "--why", "a bribe", "--game-date", "1024-03-05", "--ruling", "on credit")
    tally.ok("cash", "A", "+1", "--why", "found a coin")
    sheet = tally.ok("char", "show", "A", "--json").json
    assert sheet["cash"] == -4 and "cash" in sheet["by_ruling"]
    before = tally.event_count()
    assert "A has -4 Cash; cannot take away 1" in tally.refused("cash", "A", "-1", "--why", "a toll").stderr
    assert tally.event_count() == before


def test_a_figure_out_of_bounds_that_no_ruling_names_is_not_said_to_stand_by_one(tally_sqlite, tmp_path):
    # An imported log whose hashes were made again around an impossible figure (Cash -10): no ruling
    # is recorded, so "BY RULING" (shown before) claimed one that does not exist.
    import json as _json

    from tests.conftest import Tally
    from tests.test_import_linking import chained

    _a(tally_sqlite)
    tally_sqlite.ok("cash", "A", "-15", "--why", "a horse")
    exported = tmp_path / "forged.jsonl"
    tally_sqlite.ok("export", str(exported))
    events = [_json.loads(line) for line in exported.read_text().splitlines()]
    (horse,) = [e for e in events if e["type"] == "cash.changed" and e["payload"]["why"] == "a horse"]
    horse["payload"]["delta"] = -40
    exported.write_text(chained(events))
    other = Tally(f"sqlite:///{tmp_path / 'other.db'}")
    other.ok("import", str(exported))
    sheet = other.ok("char", "show", "A", "--json").json
    assert sheet["cash"] == -10 and sheet["by_ruling"] == {"cash": None}
    shown = next(l for l in other.ok("char", "show", "A").stdout.splitlines() if l.startswith("cash"))
    assert "-10 — OUTSIDE THE RULES (no recorded ruling names it)" in shown and "BY RULING" not in shown
    assert "OUTSIDE THE RULES" in other.ok("why", "A", "cash").stdout.splitlines()[0]
