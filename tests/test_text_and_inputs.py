"""Issue 13, findings 5 and 6: free text is checked one way, names are compared
after normalisation and case folding (never stripped of accents), and what
--db points at, or a day far off, is refused on one line with nothing written."""

from __future__ import annotations

import re
import sqlite3
import unicodedata

import pytest
import sqlalchemy as sa
from hypothesis import given, settings
from hypothesis import strategies as st

from cli.context import Options
from ledger.calendar import MAX_DAY
from ledger.errors import BadInput
from ledger.text import ACTOR_LIMIT, NAME_LIMIT, check_name, check_text
from ledger.names import key
from tests.conftest import Tally


def log_actors(t: Tally) -> list[str]:
    return [e["actor"] for e in t.ok("log", "--json").json]


# -- the validator ----------------------------------------------------------
@pytest.mark.parametrize("text, said", [
    ("red\x1b[31m", "a control character (U+001B"),
    ("two\nlines", "a newline (U+000A"),
    ("tab\there", "a tab (U+0009"),
    ("evil\u202eolleh", "an invisible format character (U+202E"),
    ("zero\u200bwidth", "an invisible format character (U+200B"),
    ("lone\ud800", "a lone surrogate (U+D800"),
    ("private\ue000", "a private-use character (U+E000"),
    ("unassigned\U000e0fff", "an unassigned code point"),
    ("no\u00a0break", "a space other than the plain space (U+00A0"),
    ("para\u2029graph", "a paragraph separator"),
    ("   ", "cannot be empty"),
])
def test_text_that_cannot_be_printed_on_one_line_is_refused(text, said):
    with pytest.raises(BadInput, match=re.escape(said)):
        check_text(text, "--why")


@pytest.mark.parametrize("text", ["Nguyễn", "Ægir's hall", "李白", "हिन्दी", "Ōtautahi", "O'Brien-Smith", "💀 skull"])
def test_printable_text_of_every_script_is_kept(text):
    assert check_text(f"  {text} ", "--why") == text


def test_text_is_nfc_normalised_and_limited_after_normalising():
    assert check_text("A\u030aSA", "--why") == "\u00c5SA"  # Å written as A + ring becomes one character
    assert check_name("e\u0301" * NAME_LIMIT, "a name") == "\u00e9" * NAME_LIMIT  # 120 code points in, 60 kept
    with pytest.raises(BadInput, match=f"the limit is {NAME_LIMIT}"):
        check_name("x" * (NAME_LIMIT + 1), "a name")
    with pytest.raises(BadInput, match="needs a letter or digit"):
        check_name("-- ! --", "a name")


def test_a_stream_named_from_any_name_fits_its_column():
    # events.stream is String(200); the longest prefix a name is put behind is "stronghold:".
    # Case folding can lengthen a character (ﬃ -> ffi), never by more than three.
    growth = max(len(unicodedata.normalize("NFC", chr(c).casefold())) for c in range(0x110000)
                 if not 0xD800 <= c <= 0xDFFF)
    assert growth == 3
    assert len("stronghold:") + growth * NAME_LIMIT <= 200


# -- names ------------------------------------------------------------------
def test_keys_keep_letters_of_every_script_and_fold_case():
    assert key("Björn") != key("Bjørn") != key("Bjorn")
    assert key("ÅSA") == key("åsa") == key("A\u030asa")
    assert key("Straße") == key("STRASSE")
    assert key("River Guild") == "river-guild" and key("  O'Brien__Smith ") == "o-brien-smith"
    assert key("हिन्दी नाम") == "हिन्दी-नाम"  # combining vowel signs are part of the word


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=127)))
def test_ascii_names_keep_the_keys_they_had(name):
    # Existing streams (character:river-guild) and fixtures depend on these.
    assert key(name) == re.sub(r"[^0-9a-z]+", "-", name.strip().lower()).strip("-")


def test_bjorn_and_bjorn_are_two_characters_asa_one(campaign):
    campaign.ok("player", "add", "Ann")
    campaign.ok("char", "new", "Björn", "--player", "Ann", "--max-hp", "5")
    campaign.ok("char", "new", "Bjørn", "--player", "Ann", "--max-hp", "5")
    campaign.ok("char", "new", "ÅSA", "--player", "Ann", "--max-hp", "5")
    assert "already exists" in campaign.refused("char", "new", "åsa", "--player", "Ann", "--max-hp", "5").stderr
    assert "already exists" in campaign.refused("char", "new", "A\u030asa", "--player", "Ann", "--max-hp", "5").stderr
    names = sorted(s["name"] for s in campaign.ok("char", "list", "--json").json)
    assert names == sorted(["Björn", "Bjørn", "ÅSA"])
    campaign.ok("cash", "björn", "+2", "--why", "a find")  # any case finds the character
    assert campaign.ok("char", "show", "BJÖRN", "--json").json["cash"] == 2
    assert campaign.ok("char", "show", "Bjørn", "--json").json["cash"] == 0


def test_names_of_every_kind_go_through_the_validator(campaign):
    campaign.ok("player", "add", "Ann")
    campaign.ok("char", "new", "Nureddine", "--player", "Ann", "--max-hp", "5", "--cash", "9")
    for words in (("player", "add", "Ben\x1b[2J"), ("char", "new", "Cy\nline", "--player", "Ann", "--max-hp", "5"),
                  ("rep", "River\u202eGuild", "+1", "--why", "x"),
                  ("stronghold", "found", "Grey\thold", "--owner", "Nureddine"),
                  ("god", "adopt", "Nureddine", "T\x00yr", "--power", "3", "--alignment", "L"),
                  ("project", "start", "W" * (NAME_LIMIT + 1), "--ticks", "3", "--owner", "Nureddine"),
                  ("cash", "Nureddine", "+1", "--why", "r" * 501),
                  ("buy", "Nureddine", "a\x1b]0;owned\x07", "--cost", "1"),
                  ("calendar", "advance", "1d", "--why", "a\rb")):
        stderr = campaign.refused(*words).stderr
        assert "\x1b" not in stderr and "\t" not in stderr and "\x00" not in stderr and "\u202e" not in stderr


def test_a_name_of_sixty_ligatures_fits_on_every_backend(campaign):
    # "ﬃ" folds to "ffi": the stream stronghold:ffiffi… is 191 characters, inside String(200).
    campaign.ok("player", "add", "Ann")
    campaign.ok("char", "new", "Nureddine", "--player", "Ann", "--max-hp", "5")
    campaign.ok("stronghold", "found", "ﬃ" * NAME_LIMIT, "--owner", "Nureddine")
    streams = [e["stream"] for e in campaign.ok("log", "--json").json if e["type"] == "stronghold.founded"]
    assert streams == ["stronghold:" + "ffi" * NAME_LIMIT]


# -- the actor ----------------------------------------------------------------
@pytest.mark.parametrize("actor, said", [
    ("ref\x1b[31meree", "control character"),
    ("ref\neree", "newline"),
    ("r" * 100_000, "100000 characters long"),
    ("", "cannot be empty"),
])
def test_an_actor_with_escapes_newlines_or_100kb_is_refused_and_nothing_written(campaign, actor, said):
    before = log_actors(campaign)
    assert said in campaign.refused("--actor", actor, "player", "add", "Ann").stderr
    assert said in campaign.refused("--actor", actor, "calendar", "advance", "1d").stderr
    assert log_actors(campaign) == before


def test_an_80_character_actor_is_kept_and_81_refused_alike_on_both_backends(campaign):
    campaign.ok("--actor", "é" * ACTOR_LIMIT, "player", "add", "Ann")
    assert log_actors(campaign)[-1] == "é" * ACTOR_LIMIT
    # 81 precomposed characters, or 80 written with combining accents (160 code points): NFC decides.
    assert "the limit is 80" in campaign.refused("--actor", "é" * 81, "player", "add", "Ben").stderr
    campaign.ok("--actor", "e\u0301" * ACTOR_LIMIT, "player", "add", "Ben")
    assert log_actors(campaign)[-1] == "é" * ACTOR_LIMIT


def test_tally_actor_is_checked_like_the_option(campaign):
    outcome = campaign("player", "add", "Ann")  # --actor referee is given: TALLY_ACTOR is not read
    assert outcome.exit_code == 0
    options = Options(actor=None)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TALLY_ACTOR", "bad\x1b[0m")
        with pytest.raises(BadInput, match="TALLY_ACTOR contains a control character"):
            options.who()
        patch.setenv("TALLY_ACTOR", " Ann ")
        assert options.who() == "Ann"


def test_a_strange_os_user_name_falls_back_rather_than_blocking_the_referee(monkeypatch):
    import getpass

    monkeypatch.delenv("TALLY_ACTOR", raising=False)
    monkeypatch.setattr(getpass, "getuser", lambda: "ro\x1bot" + "x" * 200)
    assert Options().who() == ("root" + "x" * 200)[:ACTOR_LIMIT]
    monkeypatch.setattr(getpass, "getuser", lambda: "\x07\n")
    assert Options().who() == "referee"

    def no_user():
        raise KeyError("getpwuid(): uid not found: 4242")

    monkeypatch.setattr(getpass, "getuser", no_user)
    assert Options().who() == "referee"


# -- --db -----------------------------------------------------------------
def _utf16_text(path):
    path.write_text("campaign notes, not a ledger", encoding="utf-16")


def _sqlite_header_then_garbage(path):
    path.write_bytes(b"SQLite format 3\x00" + b"\x10\x00\x01\x01" + b"\xff" * 8000)


def _real_header_then_garbage(path, tmp_path):
    good = Tally(f"sqlite:///{tmp_path / 'good.db'}")
    good.ok("campaign", "new", "G", "--start", "1024-03-01")
    path.write_bytes((tmp_path / "good.db").read_bytes()[:100] + b"\xff" * 8000)


NOT_DATABASES = {
    "text": (lambda p, _: p.write_text("these are not the droids\n"), "is not a SQLite database"),
    "random bytes": (lambda p, _: p.write_bytes(bytes(range(256)) * 40), "is not a SQLite database"),
    "utf-16 text": (lambda p, _: _utf16_text(p), "is not a SQLite database"),
    "sqlite header then garbage": (lambda p, _: _sqlite_header_then_garbage(p), "is not a SQLite database"),
    "a ledger's first page then garbage": (_real_header_then_garbage, "is not a SQLite database"),
    "an empty folder": (lambda p, _: p.mkdir(), "is a folder, not a ledger file"),
}


@pytest.mark.parametrize("case", NOT_DATABASES)
@pytest.mark.parametrize("command", [("log",), ("campaign", "list"), ("db", "status"), ("db", "upgrade"),
                                     ("campaign", "new", "X", "--start", "1024-03-01")])
def test_db_that_is_not_a_database_is_refused_on_one_line(tmp_path, case, command):
    make, said = NOT_DATABASES[case]
    target = tmp_path / "target.db"
    make(target, tmp_path)
    before = sorted(p.name for p in tmp_path.iterdir())
    content = target.read_bytes() if target.is_file() else None
    outcome = Tally(f"sqlite:///{target}").refused(*command)
    assert said in outcome.stderr and str(target) in outcome.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # no -wal, no -shm, nothing new
    assert (target.read_bytes() if target.is_file() else None) == content


@pytest.mark.parametrize("target", ["/dev/null"])
def test_db_that_is_a_device_is_refused(target):
    assert "is not a regular file" in Tally(target).refused("campaign", "new", "X", "--start", "1024-03-01").stderr


def _foreign(url: str) -> None:
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        conn.execute(sa.text("CREATE TABLE recipes (name TEXT)"))
        conn.execute(sa.text("CREATE TABLE ingredients (name TEXT)"))
        conn.execute(sa.text("INSERT INTO recipes VALUES ('soup')"))
    engine.dispose()


def _tables(url: str) -> list[str]:
    engine = sa.create_engine(url)
    with engine.connect() as conn:
        tables = sorted(sa.inspect(conn).get_table_names())
    engine.dispose()
    return tables


@pytest.mark.parametrize("command", [("campaign", "new", "X", "--start", "1024-03-01"), ("db", "upgrade"),
                                     ("log",), ("import", "missing.jsonl")])
def test_another_applications_database_is_never_made_a_ledger(db_url, command):
    _foreign(db_url)
    outcome = Tally(db_url).refused(*command)
    assert "database that is not a tally ledger (it has tables ingredients, recipes): give tally its own" \
        in outcome.stderr
    assert _tables(db_url) == ["ingredients", "recipes"]


def test_another_sqlite_database_keeps_its_journal_mode(tmp_path):
    path = tmp_path / "kitchen.db"
    _foreign(f"sqlite:///{path}")
    Tally(str(path)).refused("campaign", "new", "X", "--start", "1024-03-01")
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"  # not switched to WAL
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kitchen.db"]


@pytest.mark.parametrize("make", [lambda p: p.write_bytes(b""), lambda p: None], ids=["empty file", "no file"])
def test_an_empty_or_missing_file_still_becomes_a_ledger(tmp_path, make):
    path = tmp_path / "new.db"
    make(path)
    t = Tally(f"sqlite:///{path}")
    t.ok("campaign", "new", "X", "--start", "1024-03-01")
    assert t.event_count() == 2


# -- days far off ---------------------------------------------------------------
RANGE = f"day:1 to day:{MAX_DAY} (0001-01-01 to 9999-12-31)"


@pytest.mark.parametrize("words", [
    ("calendar", "advance", "99999y"),
    ("calendar", "advance", f"{MAX_DAY}d"),
    ("calendar", "advance", "99999999999999999999999999999999w"),
    ("campaign", "show", "--as-of", "day:99999999999999"),
    ("campaign", "show", "--as-of", "day:" + "9" * 5000),
    ("char", "list", "--as-of", "day:0"),
    ("--game-date", "day:999999999999", "player", "add", "Cy"),
    ("--game-date", "day:2147483648", "cash", "Nureddine", "+1", "--why", "x"),
    ("downtime", "due", "--since", "day:3652060"),
    ("diff", "--from", "date:1024-03-01", "--to", "date:day:4000000"),
    ("session", "open", "--activate", "Nureddine", "--game-date", "day:3652060"),
])
def test_days_beyond_the_ledgers_range_are_refused_stating_it(campaign, words):
    campaign.ok("player", "add", "Ann")
    campaign.ok("char", "new", "Nureddine", "--player", "Ann", "--max-hp", "5")
    assert RANGE in campaign.refused(*words).stderr


def test_a_session_cannot_close_past_the_last_day(campaign):
    campaign.ok("player", "add", "Ann")
    campaign.ok("char", "new", "Nureddine", "--player", "Ann", "--max-hp", "5")
    campaign.ok("session", "open", "--activate", "Nureddine", "--no-income")
    assert RANGE in campaign.refused("session", "close", "--days", "99999999").stderr
    assert RANGE in campaign.refused("session", "close", "--days", "9" * 30).stderr


def test_a_new_campaign_cannot_start_outside_the_range(tally):
    assert RANGE in tally.refused("campaign", "new", "X", "--start", "day:0").stderr
    bifrost = tally.refused("campaign", "new", "X", "--calendar", "bifrost", "--start", "day 1 of week 1, 99999")
    assert f"day:1 to day:{MAX_DAY}" in bifrost.stderr


def test_the_last_day_itself_is_kept_on_both_backends(campaign):
    # game_time is a 32-bit column on PostgreSQL: the last day fits with room to spare.
    today = campaign.ok("calendar", "show", "--json").json["day"]
    campaign.ok("calendar", "advance", f"{MAX_DAY - today}d")
    assert campaign.ok("calendar", "show", "--json").json["today"] == "9999-12-31"
    assert RANGE in campaign.refused("calendar", "advance", "1d").stderr
    campaign.ok("--game-date", "9999-12-31", "player", "add", "Ann")
    days = [e["game_time"] for e in campaign.ok("log", "--json").json if e["type"] == "player.added"]
    assert days == [MAX_DAY]


def test_calendar_file_names_are_checked_like_any_name(tally, tmp_path):
    calendar = tmp_path / "bad.toml"
    calendar.write_text('name = "Reckoning"\n[[months]]\nname = "Thaw\\u001b[31m"\ndays = 30\n', encoding="utf-8")
    said = tally.refused("campaign", "new", "X", "--calendar", str(calendar), "--start", "3 Thaw 1").stderr
    assert "a month contains a control character" in said
    calendar.write_bytes("name = 'R'\n".encode("utf-16"))
    assert "is not UTF-8 text" in tally.refused("campaign", "new", "X", "--calendar", str(calendar),
                                                "--start", "day:1").stderr


# -- found by the fuzz test ---------------------------------------------------------
def test_a_void_that_later_facts_rest_on_is_refused(campaign):
    # Voiding Ann's player.added while her character stands left a log no command could fold.
    campaign.ok("player", "add", "Ann")
    campaign.ok("char", "new", "Nureddine", "--player", "Ann", "--max-hp", "5")
    added = next(e["position"] for e in campaign.ok("log", "--json").json if e["type"] == "player.added")
    created = next(e["position"] for e in campaign.ok("log", "--json").json if e["type"] == "character.created")
    said = campaign.refused("void", str(added), "--why", "wrong player").stderr
    assert f"break event {created} (character.created" in said and "would no longer exist" in said
    assert "nothing was written" in campaign.refused("void", str(added), "--why", "wrong player", "--ruling", "so be it").stderr
    campaign.ok("void", str(created), "--why", "wrong character")
    campaign.ok("void", str(added), "--why", "wrong player")
    assert campaign.ok("char", "list", "--json").json == []


@pytest.mark.parametrize("words", [("diff", "--from", "event:1", "--to", "¹"), ("audit", "²"),
                                   ("import", "a\x00b.jsonl"), ("import", "two\nlines.jsonl"),
                                   ("char", "show", "x" * 100_000)])
def test_odd_digits_paths_and_huge_names_are_refused_on_one_line(campaign, words):
    said = campaign.refused(*words).stderr  # one line, exit 1, nothing written
    assert "internal error" not in said and len(said) < 1200


def test_a_setting_takes_ascii_digits_only():
    from ledger.settings import check

    with pytest.raises(BadInput, match="whole number from 0 to 99"):
        check("luck_start", "³", ["skirmish"])
    assert check("luck_start", "03", ["skirmish"]) == "3"
