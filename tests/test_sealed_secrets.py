"""Sealed secrets (issue 27, item 1; docs/secrets.md): a text committed to with
a published commitment, kept where no reader of the ledger can read it until
its reveal, then checkable by anyone; rolls on a sealed table recorded against
the commitment and shown with the line they picked once it is revealed."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
import rfc8785
import sqlalchemy as sa

from ledger import sealed
from ledger.store import Store
from tests.conftest import Tally, reader_role
from tests.test_decoder import plant

DOCS = Path(__file__).resolve().parent.parent / "docs" / "secrets.md"
TABLE = "Wandering monsters, 1d6\n1-2 an ogre\n3 goblins\n4\u20135 wolves\n6 nothing"
LABEL = "Wandering monsters"


def rfc8785_commitment(label: str, salt: str, text: str) -> str:
    """The commitment as docs/secrets.md states it, from the rfc8785 package and hashlib alone."""
    return hashlib.sha256(rfc8785.dumps({"label": label, "salt": salt, "text": text})).hexdigest()


def kept(url: str, commitment: str) -> str:
    """What the secrets store keeps for a secret, read as the referee's own tally would."""
    store = Store(url, create=False)
    with store.reading() as tx:
        value = tx.secret(sealed.KIND, tx.campaigns()[0], commitment)
    store.dispose()
    assert value is not None
    return value


def rewrite_kept(url: str, commitment: str, value: str) -> None:
    """Change a kept secret by hand, as someone with the secrets' file or table could."""
    store = Store(url, create=False)
    if store.engine.dialect.name == "sqlite":
        conn = sqlite3.connect(store.secrets.path)
        conn.execute("DROP TRIGGER IF EXISTS ledger_secrets_no_update")
        conn.execute("UPDATE ledger_secrets SET value = ? WHERE kind = ? AND name = ?",
                     (value, sealed.KIND, commitment))
        conn.commit()
        conn.close()
    else:
        with store.engine.begin() as conn:
            conn.execute(sa.text("DROP TRIGGER IF EXISTS ledger_secrets_no_change ON ledger_secrets"))
            conn.execute(sa.text("UPDATE ledger_secrets SET value = :v WHERE kind = :k AND name = :n"),
                         {"v": value, "k": sealed.KIND, "n": commitment})
    store.dispose()


def kept_rows(url: str) -> int:
    store = Store(url, create=False)
    try:
        if store.engine.dialect.name == "sqlite":
            if not store.secrets.path.exists():
                return 0
            conn = sqlite3.connect(store.secrets.path)
            try:
                return conn.execute("SELECT count(*) FROM ledger_secrets").fetchone()[0]
            except sqlite3.OperationalError:
                return 0
            finally:
                conn.close()
        with store.engine.connect() as conn:
            return conn.execute(sa.text("SELECT count(*) FROM ledger_secrets")).scalar()
    finally:
        store.dispose()


@pytest.fixture
def table_file(tmp_path) -> Path:
    path = tmp_path / "monsters.txt"
    path.write_text(TABLE + "\n", encoding="utf-8")
    return path


# -- the formula, as docs/secrets.md states it ----------------------------------------

def test_the_worked_example_in_the_docs_holds_with_rfc8785_and_with_the_ledger():
    doc = DOCS.read_text(encoding="utf-8")
    example = doc.split("### A worked example", 1)[1]
    inputs = json.loads(re.search(r"```json\n(.*?)```", example, re.S).group(1))
    canonical, commitment = re.findall(r"```text\n(.*?)\n```", example, re.S)[:2]
    assert set(inputs) == {"label", "salt", "text"} and "\u2013" in inputs["text"]
    assert rfc8785.dumps(inputs) == canonical.encode("utf-8")
    assert hashlib.sha256(canonical.encode("utf-8")).hexdigest() == commitment
    assert sealed.preimage(**inputs) == canonical and sealed.commitment(**inputs) == commitment
    # the table in the example picks as the doc says: a 5 is line 4, "4–5 wolves"
    assert sealed.picked(inputs["text"], 5) == sealed.Entry(4, 5, 4, "4\u20135 wolves")
    assert "a 5 picks line 4, `4–5 wolves`" in " ".join(doc.split())
    assert "printf '%s'" in doc and "sha256sum" in doc


@pytest.mark.parametrize("text", [TABLE, "x", 'quotes " and \\ backslash\ttab', "é – 漢 \U0001F409 emoji",
                                  "  indented\n\nblank line between"])
def test_the_commitment_is_rfc_8785_canonical_json_hashed(text):
    salt = sealed.new_salt()
    assert re.fullmatch(r"[0-9a-f]{64}", salt)
    assert sealed.commitment(LABEL, salt, text) == rfc8785_commitment(LABEL, salt, text)
    assert sealed.holds(LABEL, salt, text, rfc8785_commitment(LABEL, salt, text))
    assert not sealed.holds(LABEL, salt, text + ".", rfc8785_commitment(LABEL, salt, text))
    assert not sealed.holds(LABEL, salt.upper(), text, rfc8785_commitment(LABEL, salt.upper(), text))


# -- seal, list, reveal, verify --------------------------------------------------------

def test_seal_list_reveal_and_verify(campaign):
    commitment = campaign.ok("secret", "seal", LABEL, TABLE, "--json").json["commitment"]
    assert re.fullmatch(r"[0-9a-f]{64}", commitment)
    label, salt, text = sealed.kept(kept(campaign.url, commitment))
    assert (label, text) == (LABEL, TABLE) and rfc8785_commitment(label, salt, text) == commitment
    listed = campaign.ok("secret", "list", "--json").json
    assert listed == [{"label": LABEL, "commitment": commitment, "sealed_event": 3, "sealed_on": "1024-03-01",
                       "sealed_recorded_at": listed[0]["sealed_recorded_at"], "revealed": False,
                       "revealed_event": None, "revealed_on": None, "revealed_recorded_at": None}]
    shown = campaign.ok("secret", "list").stdout
    assert LABEL in shown and "not yet" in shown and "ogre" not in shown
    assert campaign.ok("secret", "verify", LABEL, "--json").json["ok"] is True
    # nothing of the text or the salt is in the log before the reveal
    assert TABLE not in campaign.ok("log", "--json").stdout and salt not in campaign.ok("log", "--json").stdout
    campaign.ok("calendar", "advance", "3d")
    revealed = campaign.ok("secret", "reveal", "wandering MONSTERS", "--json").json  # named as names are
    assert revealed == {"position": 5, "label": LABEL, "commitment": commitment, "salt": salt, "text": TABLE}
    assert rfc8785_commitment(revealed["label"], revealed["salt"], revealed["text"]) == commitment
    listed = campaign.ok("secret", "list", "--json").json[0]
    assert listed["revealed"] and (listed["revealed_on"], listed["revealed_event"]) == ("1024-03-04", 5)
    assert (listed["text"], listed["salt"]) == (TABLE, salt)
    checked = campaign.ok("secret", "verify", LABEL, "--json").json
    assert checked["ok"] and checked["recomputed"] == commitment and checked["text"] == TABLE
    assert "its revealed text and salt hash to its commitment" in campaign.ok("secret", "verify", LABEL).stdout
    assert "1 revealed secret(s) hash to their commitments" in campaign.ok("verify").stdout
    assert campaign.ok("verify", "--json").json["revealed_secrets"] == 1
    # before the reveal, the list as it stood then
    assert campaign.ok("secret", "list", "--at-event", "4", "--json").json[0]["revealed"] is False


def test_a_file_is_sealed_as_the_text_rules_say(campaign, tmp_path):
    path = tmp_path / "room.txt"
    path.write_bytes("\ufeff\r\nRoom 7  \r\n\tAn ogre, 300 gp\t\r\n\r\n".encode("utf-8"))
    commitment = campaign.ok("secret", "seal", "Room 7", "--file", str(path), "--json").json["commitment"]
    revealed = campaign.ok("secret", "reveal", "Room 7", "--json").json
    assert revealed["text"] == "Room 7\n\tAn ogre, 300 gp"
    assert rfc8785_commitment("Room 7", revealed["salt"], revealed["text"]) == commitment


# -- refusals: one line, exit 1, nothing written -----------------------------------------

def refused_and_nothing_kept(t: Tally, *args: str) -> str:
    before = kept_rows(t.url)
    message = t.refused(*args).stderr
    assert kept_rows(t.url) == before, "a refused command kept a secret"
    return message


@pytest.mark.parametrize("args, says", [
    (("secret", "seal", LABEL, ""), "is empty: there is nothing to seal"),
    (("secret", "seal", LABEL, " \n\t\n "), "is empty: there is nothing to seal"),
    (("secret", "seal", LABEL), "give the secret's text or --file FILE"),
    (("secret", "seal", "", "x"), "a secret's label cannot be empty"),
    (("secret", "seal", "\x1b[31mred", "x"), "a secret's label contains a control character"),
    (("secret", "seal", "a" * 201, "x"), "the limit is 200"),
    (("secret", "seal", "!?!", "x"), "needs a letter or digit"),
    (("secret", "seal", LABEL, "an ogre\n\x1b]0;owned\x07"), "line 2 of the secret contains a control character"),
    (("secret", "seal", LABEL, "a\u202eb"), "an invisible format character"),
    (("secret", "seal", LABEL, "x" * 65_537), "the limit is 65,536"),
    (("secret", "reveal", "Room 9"), "no sealed secret named 'Room 9'"),
    (("secret", "verify", "Room 9"), "no sealed secret named 'Room 9'"),
    (("roll", "1d6", "--on", "Room 9"), "no sealed secret named 'Room 9'"),
    (("roll", "1d6", "--on", "\x07"), "--on contains a control character"),
])
def test_bad_seals_and_unknown_labels_are_refused(campaign, args, says):
    assert says in refused_and_nothing_kept(campaign, *args)


def test_bad_files_are_refused(campaign, tmp_path):
    (tmp_path / "big.txt").write_bytes(b"1 x\n" * (sealed.FILE_LIMIT // 4 + 1))
    (tmp_path / "latin1.txt").write_bytes("caf\xe9".encode("latin-1"))
    (tmp_path / "text.txt").write_text("x")
    for args, says in [
        (("--file", str(tmp_path / "missing.txt")), "No such file"),
        (("--file", str(tmp_path)), "it is a folder, not a file"),
        (("--file", "/dev/null"), "not a regular file"),
        (("--file", str(tmp_path / "big.txt")), "is larger than 256 KiB"),
        (("--file", str(tmp_path / "latin1.txt")), "is not UTF-8 text"),
        (("text", "--file", str(tmp_path / "text.txt")), "give the secret's text or --file FILE"),
    ]:
        assert says in refused_and_nothing_kept(campaign, "secret", "seal", LABEL, *args), args


def test_a_label_is_sealed_once_and_revealed_once(campaign):
    campaign.ok("secret", "seal", LABEL, TABLE)
    assert "already sealed (event 3, 1024-03-01): choose another label" in refused_and_nothing_kept(
        campaign, "secret", "seal", "WANDERING  monsters", "another table")
    campaign.ok("secret", "reveal", LABEL)
    assert "was already revealed (event 4, 1024-03-01)" in campaign.refused("secret", "reveal", LABEL).stderr
    assert "already sealed" in campaign.refused("secret", "seal", LABEL, "again").stderr


def test_a_tampered_secret_is_neither_revealed_nor_rolled_on_and_verify_names_it(campaign):
    commitment = campaign.ok("secret", "seal", LABEL, TABLE, "--json").json["commitment"]
    true = kept(campaign.url, commitment)
    label, salt, text = sealed.kept(true)
    for forged in (sealed.preimage(label, salt, text.replace("an ogre", "a dragon")),  # the text changed
                   sealed.preimage(label, sealed.new_salt(), text),  # the salt changed
                   "not a secret at all"):
        rewrite_kept(campaign.url, commitment, forged)
        for args in (("secret", "reveal", LABEL), ("roll", "1d6", "--on", LABEL, "--dice", "3")):
            assert "no longer make its commitment" in campaign.refused(*args).stderr
        failed = campaign("secret", "verify", LABEL)
        assert failed.exit_code == 1 and failed.stderr.count("\n") == 1
        assert "no longer make its commitment" in failed.stderr
    assert campaign.ok("secret", "list", "--json").json[0]["revealed"] is False  # nothing was revealed
    rewrite_kept(campaign.url, commitment, true)
    assert campaign.ok("secret", "reveal", LABEL, "--json").json["text"] == TABLE


def test_verify_names_a_revealed_secret_whose_text_does_not_hash_to_its_commitment(campaign):
    commitment = campaign.ok("secret", "seal", LABEL, TABLE, "--json").json["commitment"]
    salt = sealed.kept(kept(campaign.url, commitment))[1]
    # a reveal written into the log by hand (chain and all), its text not the one sealed
    position = plant(campaign.url, "secret.revealed", 1, {"label": LABEL, "commitment": commitment, "salt": salt,
                                                          "text": TABLE.replace("an ogre", "a dragon")},
                     stream="secrets")
    campaign.ok("db", "tree", "--rebuild")
    failed = campaign("verify")
    assert failed.exit_code == 1 and failed.stderr.count("\n") == 1
    assert (f"event {position} (secret.revealed, campaign Greyhawk): the revealed text and salt of "
            f"'{LABEL}' do not hash to its commitment {commitment[:16]}…") in failed.stderr
    failed = campaign("secret", "verify", LABEL)
    assert failed.exit_code == 1 and "do not hash to its commitment" in failed.stderr


def test_verify_names_a_reveal_of_a_commitment_never_sealed(campaign):
    salt = sealed.new_salt()
    position = plant(campaign.url, "secret.revealed", 1, {"label": LABEL, "commitment": sealed.commitment(
        LABEL, salt, TABLE), "salt": salt, "text": TABLE}, stream="secrets")
    campaign.ok("db", "tree", "--rebuild")
    failed = campaign("verify")
    assert failed.exit_code == 1 and f"event {position}" in failed.stderr and "was never sealed" in failed.stderr


# -- the timeline: a reveal comes after its seal ------------------------------------------

def test_a_reveal_before_its_seal_is_refused_as_a_late_fact(campaign):
    campaign.ok("calendar", "advance", "1w")
    campaign.ok("secret", "seal", LABEL, TABLE, "--game-date", "1024-03-05")
    assert ("'Wandering monsters' was sealed on 1024-03-05, after 1024-03-03: a secret is revealed on or after "
            "the day it was sealed") in campaign.refused("secret", "reveal", LABEL, "--game-date", "1024-03-03").stderr
    # a second seal of the label on an earlier day breaks the later one's premise
    assert ("this would break event 4 (secret.sealed, 1024-03-05): the label 'Wandering monsters' is already "
            "sealed") in refused_and_nothing_kept(campaign, "secret", "seal", LABEL, "older", "--game-date",
                                                  "1024-03-02")
    revealed = campaign.ok("secret", "reveal", LABEL, "--game-date", "1024-03-06", "--json").json
    # the seal cannot be voided from under its reveal (its fold would have nothing to reveal)
    refused = campaign.refused("void", "4", "--why", "sealed by mistake").stderr
    assert f"this would break event {revealed['position']} (secret.revealed, 1024-03-06)" in refused
    assert "Void event" in refused
    campaign.ok("void", str(revealed["position"]), "--why", "revealed too soon")
    campaign.ok("void", "4", "--why", "sealed by mistake")
    assert campaign.ok("secret", "list", "--json").json == []
    assert "no sealed secret named" in campaign.refused("secret", "reveal", LABEL).stderr


# -- rolling on a sealed table -------------------------------------------------------------

def test_a_roll_on_a_sealed_table_names_it_and_shows_its_line_once_revealed(campaign, table_file):
    commitment = campaign.ok("secret", "seal", LABEL, "--file", str(table_file), "--json").json["commitment"]
    hand = campaign.ok("roll", "1d6", "--on", LABEL, "--dice", "5", "--why", "night watch", "--json").json
    assert hand["on"] == {"label": LABEL, "commitment": commitment}
    assert hand["picked"] == {"label": LABEL, "commitment": commitment, "revealed": False, "line": None, "text": None}
    derived = campaign.ok("roll", "1d6", "--on", LABEL, "--json").json
    assert derived["verifiable"] and derived["on"]["commitment"] == commitment
    shown = campaign.ok("roll", "1d6", "--on", LABEL, "--dice", "1").stdout
    assert "on the sealed table 'Wandering monsters'" in shown and "shown once the table is revealed" in shown
    assert "ogre" not in shown
    log = campaign.ok("log").stdout
    assert "on sealed table 'Wandering monsters'" in log and "→" not in log and "wolves" not in log
    before = campaign.ok("secret", "verify", LABEL, "--json").json["rolls"]
    assert [(r["position"], r["total"], r["line"]) for r in before] == [(4, 5, None), (5, derived["total"], None),
                                                                          (6, 1, None)]
    campaign.ok("secret", "reveal", LABEL)
    log = campaign.ok("log").stdout
    assert "→ line 4 of 'Wandering monsters': 4–5 wolves" in log
    assert "→ line 2 of 'Wandering monsters': 1-2 an ogre" in log
    after = campaign.ok("secret", "verify", LABEL, "--json").json["rolls"]
    assert [(r["position"], r["line"], r["text"]) for r in after][0] == (4, 4, "4–5 wolves")
    expected = sealed.picked(TABLE, derived["total"])
    assert (after[1]["line"], after[1]["text"]) == (expected.line, expected.text)
    # rolled on after its reveal: the line is shown at once
    now = campaign.ok("roll", "1d6", "--on", LABEL, "--dice", "3", "--json").json
    assert now["picked"] == {"label": LABEL, "commitment": commitment, "revealed": True, "line": 3,
                             "text": "3 goblins"}
    assert "on 'Wandering monsters': line 3: 3 goblins" in campaign.ok("roll", "1d6", "--on", LABEL, "--dice",
                                                                        "3").stdout
    assert campaign.ok("audit", "--json").json["ok"] is True  # the derived roll is an ordinary roll


def test_a_roll_the_table_cannot_cover_is_refused_before_any_die_is_read(campaign):
    campaign.ok("secret", "seal", LABEL, TABLE)
    campaign.ok("secret", "seal", "Overlapping", "1-3 bats\n3-6 rats")
    campaign.ok("secret", "seal", "Tens", "\n".join(f"{n} loot {n}" for n in range(20, 121, 10)))
    assert ("the sealed table 'Wandering monsters' has no line for 7-8: 1d8 can roll 1-8, and its lines cover 1-6"
            in campaign.refused("roll", "1d8", "--on", LABEL).stderr)
    assert "has no line for 0" in campaign.refused("roll", "1d6-1", "--on", LABEL, "--dice", "4").stderr
    assert ("the sealed table 'Overlapping' has 2 lines for 3 (lines 1, 2)"
            in campaign.refused("roll", "1d6", "--on", "Overlapping").stderr)
    assert "has 2 lines for 3" in campaign.refused("roll", "1d4", "--on", "Overlapping", "--dice", "1").stderr
    # the refused rolls read no die: the next derived roll is still roll 0 of the epoch
    assert campaign.ok("roll", "1d2", "--on", "Overlapping", "--json").json["nonce"] == 0
    # only the totals a roll can show need a line: 2d6*10 shows 20, 30 … 120
    tens = campaign.ok("roll", "2d6*10", "--on", "Tens", "--dice", "3,4", "--json").json
    assert tens["total"] == 70 and tens["on"]["label"] == "Tens"
    assert "has no line for 21-29" in campaign.refused("roll", "2d6*10+1d10", "--on", "Tens").stderr


def test_which_line_a_total_picks():
    numbered = "Encounters (d%)\n01-50 nothing\n51–95 bandits\n96-00 a dragon\nroll again at dusk"
    assert [(e.low, e.high, e.line) for e in sealed.entries(numbered)] == [(1, 50, 2), (51, 95, 3), (96, 100, 4)]
    assert sealed.picked(numbered, 100).text == "96-00 a dragon" and sealed.picked(numbered, 51).line == 3
    assert sealed.picked(numbered, 0) is None
    plain = "a wolf\n\n  two wolves  \nthree wolves"
    assert [(e.low, e.line, e.text) for e in sealed.entries(plain)] == [(1, 1, "a wolf"), (2, 3, "two wolves"),
                                                                        (3, 4, "three wolves")]
    assert [e.low for e in sealed.entries("1. a\n2: b\n3) c\n4\td\n5")] == [1, 2, 3, 4, 5]
    # a number is digits then a space, a tab, . : ) or the line's end: "1d6" and "2nd" are words
    assert [e.text for e in sealed.entries("1d6 goblins\n2nd floor")] == ["1d6 goblins", "2nd floor"]
    assert sealed.entries("٣ Arabic-Indic digits")[0].low == 1  # only 0-9 are numbers (as in secrets.js)
    assert sealed.runs([1, 2, 3, 5, 7, 8]) == "1-3, 5, 7-8"


# -- nobody but the referee reads a sealed secret before its reveal -----------------------

def test_a_copy_of_the_ledger_file_alone_holds_nothing_of_a_sealed_secret(tally_sqlite, tmp_path, table_file):
    t = tally_sqlite
    t.ok("campaign", "new", "G", "--start", "1024-03-01")
    commitment = t.ok("secret", "seal", LABEL, "--file", str(table_file), "--json").json["commitment"]
    t.ok("roll", "1d6", "--on", LABEL, "--dice", "2")
    salt = sealed.kept(kept(t.url, commitment))[1]
    path = Path(t.url[len("sqlite:///"):])
    files = [p for p in (path, Path(f"{path}-wal"), Path(f"{path}-shm")) if p.exists()]
    for f in files:
        data = f.read_bytes()
        assert b"goblins" not in data and salt.encode() not in data and bytes.fromhex(salt) not in data, f
    assert b"goblins" in Path(f"{path}.secrets").read_bytes()  # where it is kept
    elsewhere = tmp_path / "copy"
    elsewhere.mkdir()
    shutil.copy(path, elsewhere / "tally.db")
    copy = Tally(f"sqlite:///{elsewhere / 'tally.db'}")
    assert copy.ok("secret", "list", "--json").json[0]["commitment"] == commitment
    assert "chain intact" in copy.ok("verify").stdout
    for args in (("secret", "verify", LABEL), ("secret", "reveal", LABEL), ("roll", "1d6", "--on", LABEL, "--dice", "2")):
        refused = copy.refused(*args).stderr
        assert "is not in the secrets file" in refused and "goblins" not in refused, args
    out = tmp_path / "log.jsonl"
    copy.ok("export", str(out))
    assert b"goblins" not in out.read_bytes()
    # once revealed where it was sealed, the copy made then has it in its log
    t.ok("secret", "reveal", LABEL)
    shutil.copy(path, elsewhere / "tally.db")
    assert copy.ok("secret", "verify", LABEL, "--json").json["ok"] is True


def test_a_reader_role_cannot_read_a_sealed_secret(pg_server, tmp_path, table_file):
    import psycopg

    url = pg_server.new_database()
    referee = Tally(url)
    referee.ok("campaign", "new", "G", "--start", "1024-03-01")
    commitment = referee.ok("secret", "seal", LABEL, "--file", str(table_file), "--json").json["commitment"]
    referee.ok("roll", "1d6", "--on", LABEL)
    salt = sealed.kept(kept(url, commitment))[1]
    database = url.rsplit("/", 1)[1]
    with reader_role(pg_server, url, referee, "sealed_reader") as (reader, role):
        assert reader.ok("secret", "list", "--json").json[0]["commitment"] == commitment
        refused = reader.refused("secret", "verify", LABEL).stderr
        assert "this database role may not read the table ledger_secrets" in refused and "goblins" not in refused
        assert "only reads the ledger" in reader.refused("secret", "reveal", LABEL).stderr
        out = tmp_path / "reader.jsonl"
        reader.ok("export", str(out))
        assert "goblins" not in out.read_text() and salt not in out.read_text()
        with psycopg.connect(f"host=127.0.0.1 port={pg_server.port} user={role} dbname={database}") as conn:
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute("SELECT value FROM ledger_secrets")
        with psycopg.connect(f"host=127.0.0.1 port={pg_server.port} user={role} dbname={database}") as conn:
            # every table the role may read, read whole: the text and salt are in none of them
            readable = [row[0] for row in conn.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public' "
                "AND has_table_privilege(format('%I.%I', schemaname, tablename), 'SELECT')")]
            assert "events" in readable and "ledger_secrets" not in readable
            for name in readable:
                for row in conn.execute(f'SELECT * FROM "{name}"'):
                    text = repr(row)
                    assert "goblins" not in text and salt not in text, name
        process = subprocess.run([str(Path(sys.executable).parent / "tally"), "--db", reader.url, "secret", "verify",
                                  LABEL], capture_output=True, text=True)
        assert process.returncode == 1 and process.stderr.count("\n") == 1 and "Traceback" not in process.stderr
        referee.ok("secret", "reveal", LABEL)
        assert reader.ok("secret", "verify", LABEL, "--json").json["ok"] is True  # revealed: anyone checks it
