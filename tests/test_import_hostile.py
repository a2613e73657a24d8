"""Hostile and careless import files (issue 25, item 7): every one is refused
on one line, exit 1, nothing written — or imported whole with every roll
kept — never an internal error, never a hang, never a roll silently dropped
as "already in the ledger". Roll logs on both backends."""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path

import pytest

from commands.imports.json_input import MAX_BYTES, MAX_DEPTH, MAX_VALUES
from tests.conftest import Tally

FIXTURES = Path(__file__).parent.parent / "fixtures"
IMPORTS = FIXTURES / "imports"


def foundry_roll(face: object = 3, total: object = None) -> str:
    """A Foundry roll of 1d6, as a message keeps it (JSON in a string)."""
    return json.dumps({"class": "Roll", "formula": "1d6", "dice": [], "total": face if total is None else total,
                       "terms": [{"class": "Die", "faces": 6, "results": [{"result": face, "active": True}]}]})


def foundry_message(**fields) -> dict:
    return {"speaker": {"alias": "Bo"}, "rolls": [foundry_roll()], "timestamp": 1685318947460, **fields}


def roll20_message(face: int, **fields) -> dict:
    return {"type": "rollresult", "who": "Bo", "origRoll": "1d6",
            "content": json.dumps({"rolls": [{"type": "R", "results": [{"v": face}]}], "total": face}), **fields}


def ddb_event(face: int, **fields) -> dict:
    return {"eventType": "dice/roll/fulfilled", "dateTime": "1685318947460",
            "data": {"context": {"name": "Bo"}, "rolls": [{"diceNotationStr": "1d6", "rollKind": "",
                                                           "result": {"values": [face], "total": face}}]}, **fields}


def replaced(text: str, old: str, new: str) -> str:
    """``text`` with its first ``old`` made ``new`` (a number JSON from Python cannot write)."""
    assert old in text
    return text.replace(old, new, 1)


def write(tmp_path: Path, name: str, content) -> str:
    path = tmp_path / name
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    return str(path)


def imported(t: Tally, source: str, path: str) -> dict:
    return t.ok("import-rolls", source, path, "--json").json


def rolled(t: Tally) -> list[dict]:
    return [e["payload"] for e in t.ok("log", "--type", "dice.rolled", "--json").json]


# -- ids: nothing is dropped as "already in the ledger" ----------------------------------------

def test_five_foundry_messages_without_an_id_are_five_rolls_and_once(campaign, tmp_path):
    messages = write(tmp_path, "five.json", [foundry_message() for _ in range(5)])
    assert (imported(campaign, "foundry", messages)["rolls"]) == 5
    again = imported(campaign, "foundry", messages)
    assert (again["rolls"], again["already_imported"]) == (0, 5)
    ids = [p["source_id"] for p in rolled(campaign)]
    assert len(ids) == len(set(ids)) == 5 and all(i.startswith("derived:") for i in ids)
    # The same five as lines of a messages.db: each line its own message, and once.
    lines = write(tmp_path, "messages.db", "\n".join(json.dumps(foundry_message()) for _ in range(5)) + "\n")
    assert imported(campaign, "foundry", lines)["rolls"] == 5
    assert imported(campaign, "foundry", lines)["already_imported"] == 5


def test_two_foundry_messages_with_one_id_are_refused_by_place(campaign, tmp_path):
    two = write(tmp_path, "two.json", [foundry_message(_id="abc"), foundry_message(_id="abc", timestamp=1685318947999)])
    said = campaign.refused("import-rolls", "foundry", two).stderr
    assert "message 2: the same id 'abc' as message 1" in said
    report = campaign.ok("import-rolls", "foundry", two, "--skip-bad", "--json").json
    assert report["rolls"] == 1 and report["skipped"][0]["message"] == 2
    # In a messages.db a later line for an id replaces the earlier: that is NeDB, not a duplicate.
    nedb = write(tmp_path, "messages.db", "\n".join(json.dumps(foundry_message(_id="n1", rolls=[foundry_roll(f)]))
                                                    for f in (2, 5)) + "\n")
    assert imported(campaign, "foundry", nedb)["rolls"] == 1
    assert next(p for p in rolled(campaign) if p["source_id"] == "n1:0")["dice"] == [5]


def test_a_second_roll20_evening_without_ids_does_not_collide_with_the_first(campaign, tmp_path):
    first = write(tmp_path, "evening-1.json", [roll20_message(4)])
    second = write(tmp_path, "evening-2.json", [roll20_message(5)])
    same_first_roll = write(tmp_path, "evening-3.json", [roll20_message(4), roll20_message(6)])
    assert imported(campaign, "roll20", first)["rolls"] == 1
    assert imported(campaign, "roll20", second)["rolls"] == 1  # was "1 already in the ledger"
    assert imported(campaign, "roll20", same_first_roll)["rolls"] == 2  # another file: another evening
    for path in (first, second, same_first_roll):  # each file again: nothing new
        assert imported(campaign, "roll20", path)["rolls"] == 0
    assert sorted(p["dice"][0] for p in rolled(campaign)) == [4, 4, 5, 6]
    two = write(tmp_path, "two.json", [roll20_message(4, id="-N1"), roll20_message(5, id="-N1")])
    assert "message 2: the same id '-N1' as message 1" in campaign.refused("import-rolls", "roll20", two).stderr


def test_ddb_events_without_ids_are_kept_and_one_id_twice_is_refused(campaign, tmp_path):
    lines = write(tmp_path, "log.jsonl", "\n".join(json.dumps(ddb_event(3)) for _ in range(3)) + "\n")
    assert imported(campaign, "ddb", lines)["rolls"] == 3
    assert imported(campaign, "ddb", lines)["already_imported"] == 3
    twice = write(tmp_path, "twice.jsonl", "\n".join(json.dumps(ddb_event(f, id="e1")) for f in (3, 4)) + "\n")
    assert "line 2: the same id 'e1' as line 1" in campaign.refused("import-rolls", "ddb", twice).stderr


def test_an_id_that_is_no_id_is_refused(campaign, tmp_path):
    for given in ({"a": 1}, ["x"], "x" * 101, "line\nbreak", True):
        path = write(tmp_path, "bad-id.json", [foundry_message(_id=given)])
        assert "is not an id" in campaign.refused("import-rolls", "foundry", path).stderr


# -- numbers outside the ledger's range ---------------------------------------------------------

HOSTILE_FOUNDRY = {
    "a time of 10**20": json.dumps([foundry_message(timestamp=10**20)]),
    "a time of 1e400": replaced(json.dumps([foundry_message()]), "1685318947460", "1e400"),
    "a time before 1970": json.dumps([foundry_message(timestamp=-5)]),
    "a face of 1e999999999": replaced(json.dumps([foundry_message(rolls=[foundry_roll(3)])]),
                                      '\\"result\\": 3', '\\"result\\": 1e999999999'),
    "a face of 10**20": json.dumps([foundry_message(rolls=[foundry_roll(10**20)])]),
    "a face as text of 1e999999999": json.dumps([foundry_message(rolls=[foundry_roll("1e999999999", 3)])]),
    "a total of 1e25": json.dumps([foundry_message(rolls=[foundry_roll(3, 10**25)])]),
    "a speaker that is a list": json.dumps([foundry_message(speaker=["Bo"])]),
    "an alias that is a list": json.dumps([foundry_message(speaker={"alias": ["Bo"]})]),
    "rolls that are an object": json.dumps([foundry_message(rolls={"a": 1})]),
    "a formula that is an object": json.dumps([foundry_message(rolls=[
        json.dumps({"formula": {"x": 1}, "total": 3, "dice": []})])]),
    "a thousand and one dice": json.dumps([foundry_message(rolls=[json.dumps({
        "formula": "1001d6", "total": 1001, "terms": [{"class": "Die", "results": [{"result": 1}] * 1001}]})])]),
    "NaN": replaced(json.dumps([foundry_message()]), "1685318947460", "NaN"),
    "a key twice": '[{"_id": "a", "_id": "b", "rolls": []}]',
    "nested deeper than the bound": "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1),
    "nested far deeper": "[" * 100_000 + "]" * 100_000,
    "a roll nested deeper inside its string": json.dumps([foundry_message(rolls=["[" * 70 + "]" * 70])]),
}


@pytest.mark.parametrize("case", HOSTILE_FOUNDRY)
def test_hostile_foundry_files_are_refused_on_one_line(campaign, tmp_path, case):
    path = write(tmp_path, "hostile.json", HOSTILE_FOUNDRY[case])
    said = campaign.refused("import-rolls", "foundry", path).stderr
    assert "internal error" not in said and "Nothing was written" in said


def test_roll20_and_ddb_numbers_outside_the_ledger_are_refused(campaign, tmp_path):
    priority = write(tmp_path, "r20.json", [roll20_message(4, **{".priority": 10**20})])
    assert "is no time from 1970 to 9999" in campaign.refused("import-rolls", "roll20", priority).stderr
    face = write(tmp_path, "r20-face.json", replaced(json.dumps([roll20_message(4)]), '\\"v\\": 4', '\\"v\\": 1e400'))
    assert "beyond what tally reads" in campaign.refused("import-rolls", "roll20", face).stderr
    when = write(tmp_path, "ddb.jsonl", json.dumps(ddb_event(3, dateTime="1e999999999")) + "\n")
    assert "is no time from 1970 to 9999" in campaign.refused("import-rolls", "ddb", when).stderr
    speaker = write(tmp_path, "ddb-speaker.jsonl", json.dumps(ddb_event(3, data={"context": ["Bo"], "rolls": []})))
    assert "its context is a list" in campaign.refused("import-rolls", "ddb", speaker).stderr


def test_more_values_than_the_bound_refuse_the_whole_file(campaign, tmp_path):
    path = write(tmp_path, "many.json", "[" + "0," * MAX_VALUES + "0]")
    said = campaign.refused("import-rolls", "foundry", path).stderr
    assert f"more than {MAX_VALUES:,} JSON values" in said


def test_a_file_larger_than_the_bound_is_refused_unread(campaign, tmp_path):
    path = tmp_path / "huge.json"
    with open(path, "wb") as handle:  # sparse: no disk to speak of
        handle.truncate(MAX_BYTES + 1)
    assert "is larger than 64 MiB" in campaign.refused("import-rolls", "foundry", str(path)).stderr


# -- files of the wrong kind -------------------------------------------------------------------

@pytest.mark.parametrize("source, content, said", [
    ("foundry", (IMPORTS / "calendaria-gregorian.json").read_text(), "cannot be read as a foundry roll log"),
    ("roll20", (IMPORTS / "ddb-roll-events.jsonl").read_text(), "cannot be read as a roll20 roll log"),
    ("ddb", (IMPORTS / "foundry-hyrule-messages.db").read_text(), "cannot be read as a ddb roll log"),
    ("roll20", (IMPORTS / "foundry-hyrule-messages.db").read_text(), "cannot be read as a roll20 roll log"),
    ("foundry", "[]", "holds no Foundry VTT chat messages"),
    ("foundry", "", "holds no Foundry VTT chat messages"),
    ("roll20", "{}", "holds no Roll20 chat messages"),
    ("ddb", '{"a": 1}\n', "cannot be read as a ddb roll log"),
    ("foundry", "hello\n", "cannot be read as a foundry roll log"),
])
def test_a_file_with_nothing_of_its_tool_is_refused_never_0_rolls(campaign, tmp_path, source, content, said):
    path = write(tmp_path, "wrong", content)
    assert said in campaign.refused("import-rolls", source, path).stderr


def test_a_log_of_messages_without_rolls_is_still_its_tools_log(campaign, tmp_path):
    chat = write(tmp_path, "chat.json", [{"_id": "c1", "content": "hello", "speaker": {"alias": "Bo"}}])
    assert imported(campaign, "foundry", chat)["rolls"] == 0


# -- what is not a regular file ----------------------------------------------------------------

class Unblocker:
    """Opens the FIFO's writing end if anyone ever waits on its reading end (so a
    regression fails this test instead of hanging it), and says whether it had to."""

    def __init__(self, fifo: Path) -> None:
        self.fifo, self.opened, self.stop = fifo, False, threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stop.wait(0.05):
            try:
                descriptor = os.open(self.fifo, os.O_WRONLY | os.O_NONBLOCK)
            except OSError:  # no reader: nobody waits on it
                continue
            self.opened = True
            os.close(descriptor)  # the reader sees the end of the file

    def close(self) -> bool:
        self.stop.set()
        self.thread.join()
        return self.opened


def test_pipes_devices_and_folders_are_refused_before_they_are_opened(campaign, tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    mapping = tmp_path / "map.toml"
    mapping.write_text("")
    commands = [["import-rolls", "foundry", "{}"], ["import-rolls", "roll20", "{}"], ["import-rolls", "ddb", "{}"],
                ["calendar", "import", "{}"], ["import", "{}"], ["verify", "--against", "{}"],
                ["import-rolls", "foundry", str(IMPORTS / "foundry-hyrule-messages.db"), "--map", "{}"]]
    unblocker = Unblocker(fifo)
    try:
        for target in (str(fifo), os.devnull, str(tmp_path)):
            for command in commands:
                said = campaign.refused(*[target if word == "{}" else word for word in command]).stderr
                assert "not a regular file" in said or "is a folder" in said, said
    finally:
        assert not unblocker.close(), "a command opened the pipe and waited on it"


# -- calendars ---------------------------------------------------------------------------------

def _calendar(name: str) -> dict:
    return json.loads((IMPORTS / name).read_text())


def _fantasy_zero() -> dict:
    data = _calendar("fantasy-calendar-gregorian-export.json")
    for span in data["static_data"]["year_data"]["timespans"]:
        span["length"] = 0
    return data


def _simple_zero() -> dict:
    data = _calendar("simple-calendar-gregorian.json")
    for month in data["calendar"]["months"]:
        month["numberOfDays"] = month["numberOfLeapYearDays"] = 0
    return data


def _calendaria_zero() -> dict:
    data = _calendar("calendaria-gregorian.json")
    for month in data["months"]["values"].values():
        month["days"] = 0
    return data


def _fantasy_with(change) -> str:
    data = _calendar("fantasy-calendar-gregorian-export.json")
    change(data)
    return json.dumps(data)


HOSTILE_CALENDARS = {
    "every Fantasy-Calendar month 0 days long": json.dumps(_fantasy_zero()),
    "every Simple Calendar month 0 days long": json.dumps(_simple_zero()),
    "every Calendaria month 0 days long": json.dumps(_calendaria_zero()),
    "a month of 1e999999999 days": replaced((IMPORTS / "fantasy-calendar-gregorian-export.json").read_text(),
                                            '"length":31', '"length":1e999999999'),
    "a month of 10**20 days": _fantasy_with(lambda d: d["static_data"]["year_data"]["timespans"][0].update(
        length=10**20)),
    "a today in the year 10**20": _fantasy_with(lambda d: d["dynamic_data"].update(year=10**20)),
    "a moon's cycle of 1e-999999 days": _fantasy_with(lambda d: d["static_data"]["moons"][0].update(
        cycle="1e-999999")),
    "two thousand months": _fantasy_with(lambda d: d["static_data"]["year_data"].update(timespans=[
        {"name": f"M{i}", "type": "month", "interval": 1, "offset": 0, "length": 1} for i in range(2000)])),
    "a note in the year 10**20": _fantasy_with(lambda d: d["events"].append(
        {"name": "far", "data": {"date": [10**20, 0, 1]}})),
    "nested deeper than the bound": '{"a":' * 70 + "1" + "}" * 70,
    "a key twice": '{"static_data": {}, "static_data": {}}',
    "Calendaria months that are a list": json.dumps({"months": [], "years": {}}),
}


@pytest.mark.parametrize("case", HOSTILE_CALENDARS)
def test_hostile_calendars_are_refused_on_one_line(tally_sqlite, tmp_path, case):
    path = write(tmp_path, "calendar.json", HOSTILE_CALENDARS[case])
    out = tmp_path / "out.toml"
    said = tally_sqlite.refused("calendar", "import", path, "--out", str(out)).stderr
    assert "internal error" not in said and path in said, said
    assert not out.exists()


# -- tally import of an export -----------------------------------------------------------------

def test_an_export_with_hostile_lines_is_refused_on_one_line(tally, tmp_path):
    from ledger.chain import GENESIS, canonical_json, stored_hash

    source = Tally(f"sqlite:///{tmp_path / 'source.db'}")
    source.ok("campaign", "new", "Greyhawk", "--start", "1024-03-01")
    source.ok("export", str(tmp_path / "log.jsonl"))
    rows = [json.loads(line) for line in (tmp_path / "log.jsonl").read_text().splitlines()]

    def forged(**changes) -> str:
        """The export with its last event changed and every hash recomputed, as anyone can."""
        prev, lines = GENESIS, []
        for n, row in enumerate(rows):
            row = {**row, **(changes if n == len(rows) - 1 else {}), "prev_hash": prev}
            row["hash"] = prev = stored_hash({**row, "payload": canonical_json(row["payload"])})
            lines.append(canonical_json(row))
        path = tmp_path / "forged.jsonl"
        path.write_text("\n".join(lines) + "\n")
        return str(path)

    for field, value in (("game_time", 10**15), ("game_time", 2**31), ("game_time", 0), ("session", 2**40), ("version", 2**40)):
        assert f"{field} {value} is outside what a ledger holds" in tally.refused("import", forged(**{field: value})).stderr
    deep = tmp_path / "deep.jsonl"
    deep.write_text("[" * 100_000 + "]" * 100_000 + "\n")
    assert f"line 1: nested more than {MAX_DEPTH} deep" in tally.refused("import", str(deep)).stderr
    long = tmp_path / "long.jsonl"
    with open(long, "w") as handle:
        handle.write(open(forged()).readline())
        handle.write('{"a": "' + "x" * (16 * 2**20) + '"}\n')
    assert "line 2: longer than 16 MiB" in tally.refused("import", str(long)).stderr
