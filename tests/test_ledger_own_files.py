"""No file-writing option destroys the ledger (issue 25, item 4): every --out,
the export, a generated campaign, a witness key, a signing key and the
shell's history refuse the ledger's own files — the database, SQLite's
journals of it, the secrets file and its journals, the signing key — even
with --force, however the path is spelled (a link to the folder, ``..``, a
hard link), and any file holding a SQLite database or a private key. Every
refusal is one line naming the file, exit 1, and the file is untouched."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ledger.errors import BadInput
from ledger.files import ledger_files, refuse_ledger_file, writing
from tests.conftest import Tally

CALENDAR = Path(__file__).parent.parent / "fixtures" / "imports" / "calendaria-harptos.json"
SQLITE_OWN = ["tally.db", "tally.db-wal", "tally.db-shm", "tally.db-journal", "tally.db.secrets",
              "tally.db.secrets-wal", "tally.db.secrets-shm", "tally.db.key"]


class Ledger(Tally):
    """A tally whose signing key is kept beside a SQLite ledger, or named by
    TALLY_KEY_FILE for a PostgreSQL one."""

    def __init__(self, url: str, folder: Path) -> None:
        super().__init__(url)
        self.folder = folder
        self.key_file = None if url.startswith("sqlite") else folder / "referee.key"

    def __call__(self, *args, env=None):
        extra = {"TALLY_KEY_FILE": str(self.key_file)} if self.key_file else {}
        return super().__call__(*args, env={**extra, **(env or {})})


@pytest.fixture
def ledger(db_url, tmp_path) -> Ledger:
    """A campaign with a roll (so the secrets exist), a signing key, a signed
    checkpoint, and a witness whose key and kept checkpoint are files."""
    t = Ledger(db_url, tmp_path)
    t.ok("campaign", "new", "Greyhawk", "--start", "1024-03-01")
    t.ok("roll", "2d6", "--why", "a seed is kept")
    t.ok("keys", "new")
    t.ok("checkpoint")
    witness = t.ok("keys", "witness", "ann.example/witness", "--out", str(tmp_path / "ann.key"), "--json").json
    t.ok("keys", "add-witness", witness["vkey"])
    t.ok("checkpoint", "show", "--out", str(tmp_path / "kept.txt"))
    return t


def writers(t: Ledger, target: str) -> dict[str, list[str]]:
    """Every command that writes a file the user names, writing ``target``."""
    folder = t.folder
    return {
        "export": ["export", target, "--force"],
        "calendar import": ["calendar", "import", str(CALENDAR), "--out", target, "--force"],
        "checkpoint show": ["checkpoint", "show", "--out", target, "--force"],
        "proof": ["proof", "1", "--out", target, "--force"],
        "checkpoint cosign": ["checkpoint", "cosign", str(folder / "kept.txt"), "--key", str(folder / "ann.key"),
                              "--out", target, "--force"],
        "checkpoint": ["checkpoint", "--out", target],
        "keys witness": ["keys", "witness", "bo.example/witness", "--out", target],
        "bench generate": ["bench", "generate", "--events", "100", "--out", target, "--force"],
    }


def fingerprint(path: Path):
    """What must not change: the file's inode and bytes, or its absence."""
    if not os.path.lexists(path):
        return None
    return os.lstat(path).st_ino, hashlib.sha256(path.read_bytes()).hexdigest()


def own_files(t: Ledger) -> list[Path]:
    if t.key_file is not None:
        return [t.key_file]
    return [t.folder / name for name in SQLITE_OWN]


def refused_untouched(t: Ledger, args: list[str], protected: Path, named: str, why: str = "even with --force") -> None:
    before = {p: fingerprint(p) for p in own_files(t) + [protected]}
    said = t.refused(*args).stderr
    assert named in said and why in said, said
    assert {p: fingerprint(p) for p in before} == before
    assert not [p.name for p in t.folder.iterdir() if p.name.endswith(".partial")]


@pytest.mark.parametrize("command", ["export", "calendar import", "checkpoint show", "proof", "checkpoint cosign",
                                     "checkpoint", "keys witness", "bench generate"])
def test_no_command_writes_over_the_ledgers_own_files_even_with_force(ledger, command):
    for own in own_files(ledger):
        # A witness key may go where a key goes, as `keys new --key-file` may; it is never written over one.
        why = "exists" if command == "keys witness" and own.name.endswith(".key") else "even with --force"
        refused_untouched(ledger, writers(ledger, str(own))[command], own, str(own), why)
    # The same command writes an ordinary file: the refusal is the ledger's files', not the command's.
    ordinary = ledger.folder / f"{command.replace(' ', '-')}.out"
    ledger.ok(*writers(ledger, str(ordinary))[command])
    assert ordinary.exists()


@pytest.mark.parametrize("command", ["export", "checkpoint show", "proof", "calendar import"])
def test_the_ledger_is_known_however_its_path_is_spelled(ledger, command, monkeypatch):
    folder = ledger.folder
    key = own_files(ledger)[-1]  # the signing key, on either backend
    (folder / "sub").mkdir()
    (folder / "through").symlink_to(folder)
    os.link(key, folder / "hard.key")
    spellings = [(folder / "sub" / ".." / key.name, key), (folder / "through" / key.name, key),
                 (folder / "hard.key", key)]
    if ledger.key_file is None:
        os.link(folder / "tally.db", folder / "hard.db")
        spellings += [(folder / "sub" / ".." / "tally.db", folder / "tally.db"),
                      (folder / "through" / "tally.db-wal", folder / "tally.db-wal"),
                      (folder / "hard.db", folder / "tally.db")]
    for spelled, protected in spellings:
        refused_untouched(ledger, writers(ledger, str(spelled))[command], protected, str(spelled))
    monkeypatch.chdir(folder / "sub")  # a relative path, from another folder
    refused_untouched(ledger, writers(ledger, os.path.join("..", key.name))[command], key, key.name)


def test_a_key_named_by_key_file_alone_is_known_by_what_it_holds(db_url, tmp_path):
    # No TALLY_KEY_FILE: the key file a PostgreSQL referee names with --key-file
    # at each signing is nowhere the ledger records; it begins PRIVATE+KEY+.
    t = Tally(db_url)
    t.ok("campaign", "new", "Greyhawk", "--start", "1024-03-01")
    key = tmp_path / "elsewhere.key"
    t.ok("keys", "new", "--key-file", str(key))
    t.ok("checkpoint", "--key-file", str(key))
    before = fingerprint(key)
    for args in (["checkpoint", "show", "--out", str(key), "--force"], ["proof", "1", "--out", str(key), "--force"],
                 ["export", str(key), "--force"]):
        assert "holds a private signing key" in t.refused(*args).stderr
    assert "this ledger's signing key" in t.refused("checkpoint", "--key-file", str(key), "--out", str(key)).stderr
    assert fingerprint(key) == before


def test_another_sqlite_database_is_never_replaced(tally, tmp_path):
    tally.ok("campaign", "new", "Greyhawk", "--start", "1024-03-01")
    other = Tally(f"sqlite:///{tmp_path / 'other.db'}")
    other.ok("campaign", "new", "Raiders", "--start", "1024-03-01")
    before = fingerprint(tmp_path / "other.db")
    said = tally.refused("export", str(tmp_path / "other.db"), "--force").stderr
    assert "holds a SQLite database" in said
    assert fingerprint(tmp_path / "other.db") == before


def test_the_signing_key_is_written_only_to_its_own_file(tally_sqlite, tmp_path):
    t = tally_sqlite
    t.ok("campaign", "new", "Greyhawk", "--start", "1024-03-01")
    t.ok("roll", "1d6")
    for name in ("tally.db.secrets", "tally.db-wal", "tally.db.secrets-journal", "tally.db"):
        before = fingerprint(tmp_path / name)
        assert "tally never writes over the ledger's own files" in \
            t.refused("keys", "new", "--key-file", str(tmp_path / name)).stderr
        assert fingerprint(tmp_path / name) == before
    assert "tally never writes over" in t("keys", "new", env={"TALLY_KEY_FILE": str(tmp_path / "tally.db-shm")}).stderr
    assert not (tmp_path / "tally.db-shm").exists()
    t.ok("keys", "new")  # beside the ledger, where it belongs
    # The same file, named: not the ledger-file refusal, but the key's own check (already recorded).
    assert "is already campaign Greyhawk's checkpoint key" in \
        t.refused("keys", "new", "--key-file", str(tmp_path / "tally.db.key")).stderr


def test_the_shells_history_is_never_the_ledger(tally_sqlite, tmp_path):
    from cli.main import app

    tally_sqlite.ok("campaign", "new", "Greyhawk", "--start", "1024-03-01")
    before, events = fingerprint(tmp_path / "tally.db"), tally_sqlite.event_count()
    result = CliRunner().invoke(app, ["--db", tally_sqlite.url, "shell", "--history", str(tmp_path / "tally.db")],
                                input="roll 1d6\n")
    assert result.exit_code == 1 and "this ledger's database" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert fingerprint(tmp_path / "tally.db") == before and tally_sqlite.event_count() == events


def test_ledger_files_names_each_of_the_ledgers_files(tmp_path, monkeypatch):
    monkeypatch.delenv("TALLY_KEY_FILE", raising=False)
    found = ledger_files(f"sqlite:///{tmp_path / 'tally.db'}")
    assert set(found) == {tmp_path / name for name in SQLITE_OWN + ["tally.db.secrets-journal"]}
    assert tmp_path / "tally.db.key" not in ledger_files(f"sqlite:///{tmp_path / 'tally.db'}", keys=False)
    assert ledger_files("postgresql://u@localhost/db") == {}
    monkeypatch.setenv("TALLY_KEY_FILE", str(tmp_path / "k"))
    assert set(ledger_files("postgresql://u@localhost/db", key_file=str(tmp_path / "j"))) == \
        {tmp_path / "k", tmp_path / "j"}


def test_the_writer_itself_refuses_the_ledger_given_it(tmp_path):
    url = f"sqlite:///{tmp_path / 'tally.db'}"
    (tmp_path / "tally.db.secrets").write_text("seeds")
    with pytest.raises(BadInput, match="this ledger's secrets file"):
        with writing(str(tmp_path / "tally.db.secrets"), force=True, ledger=url) as out:
            out.write("gone")
    assert (tmp_path / "tally.db.secrets").read_text() == "seeds"
    refuse_ledger_file(str(tmp_path / "notes.txt"), url)  # anything else is the writer's to judge


# Writers that are given no ledger, each with its reason.
UNGUARDED = {
    ("ledger/keys.py", "write_key"): "a key file, never over an existing one; its commands check the path first "
                                     "(cli/checkpoints.py: keys new, keys witness)",
    ("bench/benchmark.py", "run"): "a file in a temporary folder of its own",
}


def test_every_file_writer_is_told_which_ledger_is_in_use():
    import ast

    root = Path(__file__).parent.parent
    found = set()
    for package in ("ledger", "cli", "chronicle", "projections", "commands", "bench"):
        for source in sorted((root / package).rglob("*.py")) if (root / package).is_dir() else []:
            tree = ast.parse(source.read_text(), str(source))
            for function in ast.walk(tree):
                if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    continue
                for call in ast.walk(function):
                    name = getattr(getattr(call, "func", None), "id", None) or \
                        getattr(getattr(call, "func", None), "attr", None)
                    if isinstance(call, ast.Call) and name in ("writing", "check_target") \
                            and str(source.relative_to(root)) != "ledger/files.py" \
                            and "ledger" not in {k.arg for k in call.keywords}:
                        found.add((str(source.relative_to(root)), function.name))
    assert found == set(UNGUARDED), "a file writer that is not told the ledger in use (ledger=URL)"
