"""One decoder on every read path: a stored row becomes an envelope in one
place (ledger/stored_rows.py envelope_from_row), its payload lifted to the type's
current schema there, before any fold, line, log, why or snapshot sees it.

The proof is a real schema bump: character.died schema 1 named the
character `name`, schema 2 names it `character`. A schema-1 death is planted
in the log as an older tally recorded it; every reader must see schema 2,
while the stored row, its export line and its hash stay as recorded."""

import json
import subprocess
import sys

import pytest

from ledger.chain import canonical_json, stored_hash
from ledger.events.registry import known_types, model_for
from ledger.events.upcasters import current_schema, upcast
from ledger.store import Store
from tests.conftest import Tally

V1_DEATH = {"name": "Bo", "cause": "fell in the well (recorded by an older tally)"}


def plant(url: str, type_: str, schema: int, payload: dict, *, stream: str, session=None) -> int:
    """Append one event as an older tally wrote it: the payload as given, under
    the schema given, chained and hashed like any other row."""
    store = Store(url, create=False)
    try:
        with store.transaction() as tx:
            position, prev_hash, _ = tx.head()
            last = tx.get(position)
            fields = {"position": position + 1, "campaign": last.campaign, "stream": stream,
                      "version": tx.stream_version(last.campaign, stream) + 1, "type": type_,
                      "schema": schema, "game_time": last.game_time, "recorded_at": last.recorded_at,
                      "session": session, "actor": "referee", "cause": None,
                      "payload": canonical_json(payload), "prev_hash": prev_hash}
            fields["hash"] = stored_hash(fields)
            tx.insert_rows([fields])
            return position + 1
    finally:
        store.dispose()


def stored_row(url: str, position: int) -> tuple:
    store = Store(url, create=False)
    try:
        with store.reading() as tx:
            return next(tx.raw_rows(position - 1, position))
    finally:
        store.dispose()


@pytest.fixture
def ledger(tally) -> Tally:
    """A coeac campaign with Bo (4 max HP) and Cass, and Bo's death recorded under schema 1."""
    tally.ok("campaign", "new", "COEAC", "--rules", "coeac", "--start", "1024-03-01")
    tally.ok("player", "add", "Ben")
    tally.ok("player", "add", "Cy")
    tally.ok("char", "new", "Bo", "--player", "Ben", "--max-hp", "4")
    tally.ok("char", "new", "Cass", "--player", "Cy", "--max-hp", "6")
    tally.death = plant(tally.url, "character.died", 1, V1_DEATH, stream="character:bo")
    return tally


def test_every_model_declares_the_schema_its_upcasters_reach():
    for name in known_types():
        assert model_for(name).schema_version == current_schema(name), name
    assert current_schema("character.died") == 2


def test_the_read_path_knows_every_upcaster_without_loading_a_model():
    # A fold reads rows with no event model imported: an upcaster defined beside
    # its model (not in ledger/events/upcasters.py) would be missed there.
    script = ("import json, sys, ledger.store, ledger.events.upcasters as u; before = dict(u.CURRENT); "
              "models = 'ledger.events.stable' in sys.modules; "
              "from ledger.events.registry import known_types; known_types(); "
              "print(json.dumps([before, u.CURRENT, models]))")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    before, after, models_loaded = json.loads(out.stdout)
    assert not models_loaded and before == after and before["character.died"] == 2


def test_the_death_upcaster_renames_name_to_character_and_leaves_the_stored_dict_alone():
    stored = dict(V1_DEATH)
    assert upcast("character.died", 1, stored) == {"character": "Bo", "cause": V1_DEATH["cause"]}
    assert stored == V1_DEATH
    assert upcast("character.died", 2, {"character": "Bo", "cause": "x"}) == {"character": "Bo", "cause": "x"}


def test_a_schema_1_event_reads_as_schema_2_in_log_and_the_sheet(ledger):
    (death,) = ledger.ok("log", "--type", "character.died", "--json").json
    assert death["position"] == ledger.death
    assert death["schema"] == 2 and death["upcast_from"] == 1
    assert death["payload"] == {"character": "Bo", "cause": V1_DEATH["cause"]}
    assert "Bo dies: fell in the well" in ledger.ok("log").stdout
    # the fold read the upcast payload: the stable knows Bo is dead
    assert ledger.ok("char", "show", "Bo", "--json").json["status"] == "dead"
    assert "Bo is dead" in ledger.refused("session", "open", "--activate", "Bo").stderr
    # the row itself is as recorded
    row = stored_row(ledger.url, ledger.death)
    assert row[5] == 1 and json.loads(row[11]) == V1_DEATH


def test_why_lists_the_schema_1_death(ledger):
    found = ledger.ok("why", "Bo", "status", "--json").json
    assert found["value"] == "dead"
    death = found["changes"][-1]
    assert death["position"] == ledger.death and death["before"] == "active" and death["after"] == "dead"
    assert death["what"].startswith("Bo dies: fell in the well")


def test_new_deaths_are_written_under_schema_2(ledger):
    ledger.ok("down-and-out", "Cass", "--dice", "2,3")  # 5: DEATH (004 l.99-114)
    (_, death) = ledger.ok("log", "--type", "character.died", "--json").json
    assert death["schema"] == 2 and "upcast_from" not in death
    row = stored_row(ledger.url, death["position"])
    assert row[5] == 2 and json.loads(row[11]) == {"character": "Cass", "cause": "Down and Out: rolled 5"}
    assert ledger.ok("char", "show", "Cass", "--json").json["status"] == "dead"


def test_a_death_in_an_open_session_is_counted_by_the_session(ledger):
    ledger.ok("session", "open", "--activate", "Cass")
    plant(ledger.url, "character.died", 1, {"name": "Cass", "cause": "a trap"}, stream="character:cass",
          session=1)
    assert ledger.ok("session", "show", "1", "--json").json["deaths"] == ["Cass"]


def test_export_keeps_the_stored_text_and_import_reads_it_as_schema_2(ledger, tmp_path):
    ledger.ok("down-and-out", "Cass", "--dice", "2,3")
    exported = tmp_path / "log.jsonl"
    ledger.ok("export", exported)
    lines = exported.read_text(encoding="utf-8").splitlines()
    line = json.loads(lines[ledger.death - 1])
    row = stored_row(ledger.url, ledger.death)
    assert line["schema"] == 1 and line["payload"] == V1_DEATH and line["hash"] == row[13]
    assert f'"payload":{row[11]},' in lines[ledger.death - 1]  # the stored bytes, as recorded
    # every line is the canonical JSON of its stored row, as the hash rule reads it
    for text in lines:
        assert canonical_json(json.loads(text)) == text

    other = Tally(f"sqlite:///{tmp_path / 'other.db'}")
    assert other.ok("import", exported, "--json").json["added"] == len(lines)
    other.ok("verify")
    assert stored_row(other.url, ledger.death) == row
    (death, _) = other.ok("log", "--type", "character.died", "--json").json
    assert death["schema"] == 2 and death["upcast_from"] == 1 and death["payload"]["character"] == "Bo"
    assert other.ok("char", "show", "Bo", "--json").json["status"] == "dead"
    assert other.ok("why", "Bo", "status", "--json").json["value"] == "dead"
    # and exporting the imported log gives back the same file, byte for byte
    again = tmp_path / "again.jsonl"
    other.ok("export", again)
    assert again.read_bytes() == exported.read_bytes()


def test_snapshots_rebuilt_over_a_schema_1_event_agree(ledger):
    ledger.ok("db", "snapshot")
    ledger.ok("db", "snapshot", "--drop")
    assert ledger.ok("char", "show", "Bo", "--json").json["status"] == "dead"  # folded from nothing
    ledger.ok("db", "snapshot")
    ledger.ok("roll", "2d6")
    assert ledger.ok("char", "show", "Bo", "--json").json["status"] == "dead"  # from the snapshot
    assert ledger.ok("char", "show", "Bo", "--at-event", ledger.death - 1, "--json").json["status"] == "active"


def test_a_schema_newer_than_this_tally_is_refused_on_one_line(ledger):
    plant(ledger.url, "character.died", 3, {"character": "Cass", "how": "?"}, stream="character:cass")
    for command in (("log",), ("char", "show", "Cass"), ("why", "Cass", "status")):
        assert ledger.refused(*command).stderr.strip() == ("tally: event type character.died has schema 3, newer than this "
                                          "tally knows (2): upgrade tally")
