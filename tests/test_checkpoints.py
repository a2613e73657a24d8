"""Signed checkpoints players keep: the referee's key, checkpoints on demand
and at every session close, inclusion proofs a player checks with their own
code, kept checkpoints that catch a rewritten history, and witnesses.
Every case on a SQLite file and on PostgreSQL."""

import base64
import json
import os
import stat

import pytest
import sqlalchemy as sa

from ledger import merkle, notes, tlog
from tests import independent_proof_checker
from tests.conftest import Tally, unguarded


class Keyed(Tally):
    """A tally whose referee keeps the signing key in a file of their own
    (TALLY_KEY_FILE), as a PostgreSQL ledger needs."""

    def __init__(self, url: str, key_file) -> None:
        super().__init__(url)
        self.key_file = str(key_file)

    def __call__(self, *args, env=None):
        return super().__call__(*args, env={"TALLY_KEY_FILE": self.key_file, **(env or {})})


@pytest.fixture
def keyed(db_url, tmp_path) -> Keyed:
    """A coeac campaign with a player, a character and the referee's checkpoint key."""
    t = Keyed(db_url, tmp_path / "referee.key")
    t.ok("campaign", "new", "Greyhawk", "--rules", "coeac", "--start", "1024-03-01")
    t.ok("player", "add", "Ann")
    t.ok("char", "new", "Bo", "--player", "Ann", "--max-hp", "5", "--cash", "3")
    t.ok("keys", "new")
    return t


def vkey(t: Tally) -> str:
    return next(k["vkey"] for k in t.ok("keys", "show", "--json").json if k["role"] == "log")


def head(t: Tally) -> int:
    return t.event_count()


def session(t: Tally, *, close: bool = True) -> list[dict]:
    opened = t.ok("session", "open", "--activate", "Bo", "--json").json
    t.ok("cash", "Bo", "+1", "--why", "a finder's fee")
    return opened + (t.ok("session", "close", "--days", "1", "--haven", "Bo", "--json").json if close else [])


# -- keys ---------------------------------------------------------------------------------------

def test_the_referee_s_key_lives_beside_a_sqlite_ledger_0600_and_never_in_it(tally_sqlite):
    t = tally_sqlite
    t.ok("campaign", "new", "Greyhawk", "--start", "1024-03-01")
    made = t.ok("keys", "new", "--json").json
    path = t.url[len("sqlite:///"):] + ".key"
    assert made["key_file"] == path and made["new_file"] and stat.S_IMODE(os.stat(path).st_mode) == 0o600
    secret = open(path).read().strip()
    assert secret.startswith("PRIVATE+KEY+tallystick/greyhawk/") and made["vkey"] == vkey(t)
    with open(t.url[len("sqlite:///"):], "rb") as ledger:
        assert secret.split("+", 4)[4].encode() not in ledger.read()  # base64 of the private key
    assert "already campaign Greyhawk's checkpoint key" in t.refused("keys", "new").stderr


def test_a_key_file_name_no_file_can_have_is_refused_on_one_line(tally_sqlite, tmp_path):
    # Found by the CLI fuzz: a 5,000-character --key-file made Path.exists() raise
    # "File name too long", reported as an internal error.
    tally_sqlite.ok("campaign", "new", "Greyhawk", "--start", "1024-03-01")
    said = tally_sqlite.refused("keys", "new", "--key-file", str(tmp_path / ("x" * 5000))).stderr
    assert "as a key file: File name too long" in said and "internal error" not in said
    said = tally_sqlite.refused("keys", "new", "--key-file", str(tmp_path / "k\x00")).stderr
    assert "not a file name" in said and "internal error" not in said


def test_a_postgresql_ledger_needs_a_key_file_named(pg_server, tmp_path):
    t = Tally(pg_server.new_database())
    t.ok("campaign", "new", "Greyhawk", "--start", "1024-03-01")
    assert "--key-file PATH or TALLY_KEY_FILE" in t.refused("keys", "new").stderr
    t.ok("keys", "new", "--key-file", str(tmp_path / "k"), "--origin", "example.org/greyhawk")
    assert stat.S_IMODE(os.stat(tmp_path / "k").st_mode) == 0o600
    assert vkey(t).startswith("example.org/greyhawk+")


def test_a_key_file_already_there_is_recorded_as_it_is(keyed, tmp_path):
    # A second campaign in the same ledger, signing with the referee's one key.
    keyed.ok("campaign", "new", "Blackmoor", "--start", "1024-03-01")
    recorded = keyed.ok("--campaign", "Blackmoor", "keys", "new", "--json").json
    assert not recorded["new_file"] and recorded["origin"].startswith("tallystick/greyhawk/")
    refused = keyed.refused("--campaign", "Blackmoor", "keys", "new", "--origin", "example.org/other")
    assert "already campaign Blackmoor's" in refused.stderr


@pytest.mark.parametrize("damage, said", [
    (lambda path: os.chmod(path, 0o644), "can be read or written by others"),
    (lambda path: open(path, "w").write("PRIVATE+KEY+nonsense\n"), "holds no signing key"),
    (os.unlink, "referee.key does not exist"),
])
def test_checkpoint_refuses_a_key_file_it_cannot_trust(keyed, damage, said):
    damage(keyed.key_file)
    assert said in keyed.refused("checkpoint").stderr


def test_checkpoint_refuses_a_key_that_is_not_the_campaign_s(keyed, tmp_path):
    other = Keyed(keyed.url, tmp_path / "witness.key")
    other.ok("keys", "witness", "ann.example/w", "--out", other.key_file)
    assert "holds a witness key" in other.refused("keys", "new").stderr
    stranger = tmp_path / "stranger.key"
    Tally(f"sqlite:///{tmp_path / 'other.db'}").ok("campaign", "new", "X", "--start", "1024-03-01")
    Tally(f"sqlite:///{tmp_path / 'other.db'}").ok("keys", "new", "--key-file", str(stranger))
    assert "is not one of campaign Greyhawk's" in keyed.refused("checkpoint", "--key-file", str(stranger)).stderr
    no_key = Tally(keyed.url)
    no_key.ok("campaign", "new", "Keyless", "--start", "1024-03-01")
    assert "has no checkpoint key" in no_key.refused("--campaign", "Keyless", "checkpoint").stderr


# -- checkpoints --------------------------------------------------------------------------------

def test_a_checkpoint_signs_the_tree_of_every_event_before_it(keyed):
    before = head(keyed)
    signed = keyed.ok("checkpoint", "--json").json
    assert signed["position"] == before + 1 and signed["size"] == before and signed["occasion"] == "on demand"
    checkpoint = tlog.parse_checkpoint(signed["checkpoint"])
    events = keyed.ok("log", "--json").json
    assert checkpoint.root == merkle.root_of([merkle.leaf_hash(bytes.fromhex(e["hash"])) for e in events[:before]])
    tlog.signed_by(checkpoint, [notes.parse_vkey(vkey(keyed))], "it", "test")
    assert keyed.ok("checkpoint", "show").stdout == signed["checkpoint"]
    assert "checkpoint of" in keyed.ok("log").stdout
    assert "cannot be voided" in keyed.refused("void", str(signed["position"]), "--why", "x").stderr
    # nothing signed; the key file is the ledger's own (tests/test_ledger_own_files.py)
    assert "this ledger's signing key" in keyed.refused("checkpoint", "--out", keyed.key_file).stderr


def test_every_session_close_ends_with_a_checkpoint_over_it(keyed):
    recorded = session(keyed)
    last = recorded[-1]
    assert last["type"] == "checkpoint.signed" and recorded[-2]["type"] == "session.closed"
    assert last["payload"]["size"] == last["position"] - 1 and last["payload"]["occasion"] == "session close"
    assert last["session"] == recorded[-2]["session"] == 1
    assert [c["size"] for c in keyed.ok("checkpoint", "list", "--json").json] == [last["position"] - 1]


def test_a_campaign_without_a_key_closes_its_sessions_as_before(tally):
    tally.ok("campaign", "new", "Greyhawk", "--rules", "coeac", "--start", "1024-03-01")
    tally.ok("player", "add", "Ann")
    tally.ok("char", "new", "Bo", "--player", "Ann", "--max-hp", "5")
    tally.ok("session", "open", "--activate", "Bo")
    closed = tally.ok("session", "close", "--days", "1", "--haven", "Bo", "--json")
    assert closed.json[-1]["type"] == "session.closed" and "checkpoint" not in closed.stderr


def test_a_session_closes_without_its_key_file_and_says_no_checkpoint_was_signed(keyed):
    session(keyed, close=False)
    os.unlink(keyed.key_file)
    closed = keyed.ok("session", "close", "--days", "1", "--haven", "Bo", "--json")
    assert closed.json[-1]["type"] == "session.closed"
    assert "tally: note: no checkpoint was signed at this session's close: the signing key file" in closed.stderr
    assert "referee.key does not exist" in closed.stderr


# -- proofs -------------------------------------------------------------------------------------

def test_a_disputed_roll_is_proven_to_a_player_s_own_code(keyed, tmp_path):
    keyed.ok("session", "open", "--activate", "Bo")
    roll = keyed.ok("roll", "2d6", "--for", "Bo", "--json").json["position"]
    keyed.ok("session", "close", "--days", "1", "--haven", "Bo")
    keyed.ok("proof", str(roll), "--out", str(tmp_path / "roll.tlog-proof"))
    text = (tmp_path / "roll.tlog-proof").read_text()
    event = independent_proof_checker.check(text, vkey(keyed))
    assert event["position"] == roll and event["type"] == "dice.rolled"
    as_json = keyed.ok("proof", str(roll), "--json").json
    assert as_json["tlog_proof"] == text and len(as_json["proof"]) == len(text.split("\n\n")[0].split("\n")) - 3
    # A proof with the roll's faces changed, or against another key, proves nothing.
    line = text.split("\n")[1][len("extra "):]
    forged = json.loads(base64.b64decode(line))
    forged["payload"]["total"] += 1  # the roll, as a referee might wish it had come out
    with pytest.raises(AssertionError, match="does not hash"):
        independent_proof_checker.check(text.replace(line, base64.b64encode(json.dumps(forged).encode()).decode()),
                                        vkey(keyed))
    stranger = notes.generate(vkey(keyed).split("+")[0], notes.ED25519).verifier.vkey
    with pytest.raises(AssertionError, match="not signed by that key"):
        independent_proof_checker.check(text, stranger)


def test_a_proof_against_a_kept_checkpoint_and_its_refusals(keyed, tmp_path):
    keyed.ok("checkpoint", "--out", str(tmp_path / "kept.txt"))
    size = tlog.parse_checkpoint((tmp_path / "kept.txt").read_text()).size
    session(keyed)
    proof = keyed.ok("proof", "2", "--checkpoint", str(tmp_path / "kept.txt")).stdout
    assert independent_proof_checker.check(proof, vkey(keyed))["position"] == 2
    assert f"covers events 1 to {size}" in keyed.refused(
        "proof", str(size + 2), "--checkpoint", str(tmp_path / "kept.txt")).stderr
    assert "no event 0" in keyed.refused("proof", "0").stderr
    assert "no signed checkpoint of campaign Greyhawk covers event" in keyed.refused("proof", str(head(keyed))).stderr
    assert "is not a signed note" in keyed.refused("proof", "2", "--checkpoint", keyed.key_file).stderr
    assert "cannot read the checkpoint" in keyed.refused("proof", "2", "--checkpoint", str(tmp_path)).stderr


# -- kept checkpoints against the log -----------------------------------------------------------

def test_verify_holds_the_log_against_kept_checkpoints(keyed, tmp_path):
    keyed.ok("checkpoint", "--out", str(tmp_path / "first.txt"))
    session(keyed)
    keyed.ok("checkpoint", "show", "--out", str(tmp_path / "second.txt"))
    session(keyed)
    report = keyed.ok("verify", "--against", str(tmp_path / "first.txt"), "--against", str(tmp_path / "second.txt"),
                      "--key", vkey(keyed), "--json").json
    assert report["ok"] and report["checkpoints"] == 3 and [k["consistent"] for k in report["against"]] == [True] * 2
    first = report["against"][0]
    proof = [base64.b64decode(h) for h in first["consistency_proof"]]
    assert merkle.verify_consistency(first["size"], first["head"], base64.b64decode(first["root"]),
                                     base64.b64decode(first["head_root"]), proof)
    assert base64.b64decode(first["head_root"]) == base64.b64decode(report["root"])
    assert "are the log's first" in keyed.ok("verify", "--against", str(tmp_path / "first.txt")).stdout


def test_verify_refuses_a_kept_checkpoint_it_cannot_trust(keyed, tmp_path):
    note = keyed.ok("checkpoint").stdout
    (tmp_path / "altered.txt").write_text(note.replace(f"\n{head(keyed) - 1}\n", f"\n{head(keyed) - 2}\n"))
    assert "does not verify" in keyed.refused("verify", "--against", str(tmp_path / "altered.txt")).stderr
    (tmp_path / "kept.txt").write_text(note)
    other = notes.generate("example.org/other", notes.ED25519).verifier.vkey
    refused = keyed.refused("verify", "--against", str(tmp_path / "kept.txt"), "--key", other).stderr
    assert "signed by no log key --key knows" in refused
    assert "not a verifier key" in keyed.refused("verify", "--against", str(tmp_path / "kept.txt"),
                                                 "--key", "nonsense").stderr
    assert "cannot read the checkpoint" in keyed.refused("verify", "--against", str(tmp_path / "none")).stderr


def _forge(url: str, target: int, key_file: str, *, sign_again: bool = True, swap_key: bool = False) -> None:
    """What a referee who holds the key could do to a copy of the ledger:
    rewrite an old event, recompute every hash after it, sign the recorded
    checkpoints again over the new history, and rebuild the derived data.
    ``swap_key``: what someone without the key does instead: record a key of
    their own (same log name) in place of the referee's, and sign with it."""
    from ledger import keys, tree
    from ledger.chain import COLUMNS, GENESIS, canonical_json, stored_hash
    from pathlib import Path

    signer = keys.read_key(Path(key_file))
    if swap_key:
        signer = notes.generate(signer.name, notes.ED25519)
    with unguarded(url) as conn:
        rows = [dict(zip(COLUMNS, row)) for row in conn.execute(
            sa.text(f"SELECT {', '.join(COLUMNS)} FROM events ORDER BY position"))]
        prev, leaves = GENESIS, []
        for row in rows:
            payload = json.loads(row["payload"])
            if row["position"] == target:
                payload["delta"] = 9
            if row["type"] == "checkpoint.key_recorded" and swap_key:
                payload.update(key_id=signer.verifier.key_id.hex(), vkey=signer.verifier.vkey)
            if row["type"] == "checkpoint.signed" and (row["position"] > target or swap_key) and sign_again:
                root = merkle.root_of(leaves[:payload["size"]])
                payload["root"] = base64.b64encode(root).decode()
                payload["key_id"] = signer.verifier.key_id.hex()
                payload["signature"] = signer.sign(tlog.body(payload["origin"], payload["size"], root))
            new = {**row, "payload": canonical_json(payload), "prev_hash": prev}
            new["hash"] = stored_hash(new)
            if new != row:
                conn.execute(sa.text("UPDATE events SET payload = :payload, prev_hash = :prev_hash, hash = :hash "
                                     "WHERE position = :position"), new)
            prev = new["hash"]
            leaves.append(merkle.leaf_hash(bytes.fromhex(prev)))
        tree.build(conn)
        conn.execute(sa.text("DELETE FROM snapshots"))
        conn.execute(sa.text("DELETE FROM snapshot_blobs"))


def test_a_rewritten_history_passes_verify_but_not_the_checkpoints_players_kept(keyed, db_url, tmp_path, request):
    session(keyed)
    keyed.ok("checkpoint", "show", "--out", str(tmp_path / "after-1.txt"))
    after_1 = tlog.parse_checkpoint((tmp_path / "after-1.txt").read_text()).size
    recorded = session(keyed)
    fee = next(e["position"] for e in keyed.ok("log", "--json").json
               if e["type"] == "cash.changed" and e["position"] > after_1)
    keyed.ok("checkpoint", "show", "--out", str(tmp_path / "after-2.txt"))
    after_2 = recorded[-1]["payload"]["size"]
    session(keyed)

    # The copy: the export imported into a new database, then rewritten there.
    keyed.ok("export", str(tmp_path / "log.jsonl"))
    copy_url = (f"sqlite:///{tmp_path / 'copy.db'}" if db_url.startswith("sqlite")
                else request.getfixturevalue("pg_server").new_database())
    copy = Keyed(copy_url, keyed.key_file)
    copy.ok("import", str(tmp_path / "log.jsonl"))
    _forge(copy_url, fee, keyed.key_file)
    assert copy.ok("char", "show", "Bo", "--json").json["cash"] != keyed.ok("char", "show", "Bo", "--json").json["cash"]

    assert "chain intact" in copy.ok("verify").stdout  # the chain, the tree, the recorded checkpoints all hold
    assert "are the log's first" in copy.ok("verify", "--against", str(tmp_path / "after-1.txt")).stdout
    refused = copy("verify", "--against", str(tmp_path / "after-2.txt"))
    assert refused.exit_code == 1 and refused.stderr.count("\n") == 1
    assert f"the log is not an extension of {tmp_path / 'after-2.txt'}" in refused.stderr
    assert f"the histories part at or before event {after_2}" in refused.stderr
    # the copy records a checkpoint of that size, re-signed by the key that signed the kept one
    assert f"signed by the same key ({'+'.join(vkey(keyed).split('+')[:2])}): that key signed two histories" \
        in refused.stderr
    both = copy("verify", "--against", str(tmp_path / "after-1.txt"), "--against", str(tmp_path / "after-2.txt"),
                "--json")
    assert both.exit_code == 1 and both.json["parting"] == {"after": after_1, "by": after_2}
    assert f"after event {after_1} (where a kept checkpoint still agrees) and at or before event {after_2}" \
        in both.stderr
    assert after_1 < fee <= after_2  # where the histories truly part
    # The ledger itself still bears out both.
    keyed.ok("verify", "--against", str(tmp_path / "after-1.txt"), "--against", str(tmp_path / "after-2.txt"))


def test_a_rewrite_signed_with_a_swapped_key_names_both_keys_and_accuses_neither(keyed, db_url, tmp_path,
                                                                                 request):
    # Whoever rewrote this copy did not hold the referee's key: they recorded one of their own under
    # the log's name and signed with it. The player holds the referee's key (--key), as given to them.
    session(keyed)
    referee = vkey(keyed)
    kept = tmp_path / "after-1.txt"
    keyed.ok("checkpoint", "show", "--out", str(kept))
    size = tlog.parse_checkpoint(kept.read_text()).size
    fee = next(e["position"] for e in keyed.ok("log", "--json").json if e["type"] == "cash.changed")
    session(keyed)
    keyed.ok("export", str(tmp_path / "log.jsonl"))
    copy_url = (f"sqlite:///{tmp_path / 'copy.db'}" if db_url.startswith("sqlite")
                else request.getfixturevalue("pg_server").new_database())
    copy = Keyed(copy_url, keyed.key_file)
    copy.ok("import", str(tmp_path / "log.jsonl"))
    _forge(copy_url, fee, keyed.key_file, swap_key=True)
    forged = vkey(copy)
    assert forged != referee and forged.split("+")[0] == referee.split("+")[0]  # the same log name
    assert "chain intact" in copy.ok("verify").stdout  # self-consistent under its own key

    refused = copy("verify", "--against", str(kept), "--key", referee)
    assert refused.exit_code == 1 and refused.stderr.count("\n") == 1
    ledger_key, kept_key = ("+".join(k.split("+")[:2]) for k in (forged, referee))
    signed = next(c["position"] for c in copy.ok("checkpoint", "list", "--json").json if c["size"] == size)
    assert (f"the ledger records another checkpoint of {size} events at event {signed}, signed by key "
            f"{ledger_key}, not by {kept_key}, the key that signed {kept}: the keys differ") in refused.stderr
    assert "two histories" not in refused.stderr and "same key" not in refused.stderr
    report = copy("verify", "--against", str(kept), "--key", referee, "--json").json["against"][0]
    assert (report["double_signed_at_event"], report["double_signed_by"], report["double_signed_by_the_same_key"]) \
        == (signed, ledger_key, False)
    # Without the player's own key, the ledger's (the forger's) is all there is, and the kept file fails it.
    assert "signed by no log key this ledger knows" in copy.refused("verify", "--against", str(kept)).stderr


def test_a_rewrite_that_leaves_the_recorded_checkpoints_is_caught_by_verify_alone(keyed):
    session(keyed)
    fee = next(e["position"] for e in keyed.ok("log", "--json").json if e["type"] == "cash.changed")
    signed = keyed.ok("checkpoint", "list", "--json").json[0]["position"]
    _forge(keyed.url, fee, keyed.key_file, sign_again=False)
    refused = keyed.refused("verify").stderr
    assert f"the checkpoint recorded at event {signed} names the tree of {signed - 1} events" in refused
    assert "the log was rewritten after it" in refused


# -- witnesses ----------------------------------------------------------------------------------

def test_a_player_witnesses_checkpoints_and_verify_says_who_has_seen_what(keyed, tmp_path):
    ann = tmp_path / "ann.key"
    made = keyed.ok("keys", "witness", "ann.example/witness", "--out", str(ann), "--json").json
    assert stat.S_IMODE(os.stat(ann).st_mode) == 0o600
    keyed.ok("keys", "add-witness", made["vkey"])
    assert "already recorded" in keyed.refused("keys", "add-witness", made["vkey"]).stderr
    assert "not a witness key" in keyed.refused("keys", "add-witness", vkey(keyed)).stderr

    session(keyed)
    keyed.ok("checkpoint", "show", "--out", str(tmp_path / "cp.txt"))
    cosigned = keyed.ok("checkpoint", "cosign", str(tmp_path / "cp.txt"), "--key", str(ann),
                        "--log-key", vkey(keyed), "--out", str(tmp_path / "cosigned.txt"))
    text = (tmp_path / "cosigned.txt").read_text()
    assert cosigned.stdout == "" and text.startswith((tmp_path / "cp.txt").read_text())
    assert text.count("\u2014 ann.example/witness ") == 1
    added = keyed.ok("checkpoint", "add-cosignatures", str(tmp_path / "cosigned.txt"), "--json").json
    size = tlog.parse_checkpoint(text).size
    assert [(e["witness"], e["size"]) for e in added] == [("ann.example/witness", size)]
    assert "nothing new" in keyed.ok("checkpoint", "add-cosignatures", str(tmp_path / "cosigned.txt")).stdout
    assert keyed.ok("checkpoint", "list", "--json").json[-1]["cosigned_by"] == ["ann.example/witness"]
    assert keyed.ok("checkpoint", "show").stdout == text

    report = keyed.ok("verify", "--against", str(tmp_path / "cosigned.txt"), "--json").json
    assert [(w["witness"], w["size"]) for w in report["witnesses"]] == [("ann.example/witness", size)]
    assert report["against"][0]["witnesses"][0]["name"] == "ann.example/witness"
    assert f"witness ann.example/witness (Greyhawk) has seen {size} events" in keyed.ok("verify").stdout
    proof = keyed.ok("proof", "2").stdout
    assert proof.endswith(text) and independent_proof_checker.check(proof, vkey(keyed))

    # A witness cosigns only the largest tree it has seen, and only with its own kind of key.
    session(keyed)
    keyed.ok("checkpoint", "show", "--out", str(tmp_path / "later.txt"))
    later = keyed.ok("checkpoint", "cosign", str(tmp_path / "later.txt"), "--key", str(ann)).stdout
    (tmp_path / "later-cosigned.txt").write_text(later)
    keyed.ok("checkpoint", "add-cosignatures", str(tmp_path / "later-cosigned.txt"))
    assert "cosigns only the largest tree" in keyed.refused(
        "checkpoint", "cosign", str(tmp_path / "cp.txt"), "--key", str(ann)).stderr
    assert "holds a log key" in keyed.refused(
        "checkpoint", "cosign", str(tmp_path / "later.txt"), "--key", keyed.key_file).stderr


def test_cosignatures_that_do_not_hold_are_refused(keyed, tmp_path):
    bea = tmp_path / "bea.key"
    keyed.ok("keys", "witness", "bea.example/w", "--out", str(bea))
    session(keyed)
    keyed.ok("checkpoint", "show", "--out", str(tmp_path / "cp.txt"))
    cosigned = keyed.ok("checkpoint", "cosign", str(tmp_path / "cp.txt"), "--key", str(bea)).stdout
    (tmp_path / "cosigned.txt").write_text(cosigned)
    # Bea's key is not recorded: her cosignature is ignored, and there is nothing to record.
    assert "no cosignature by a witness" in keyed.refused(
        "checkpoint", "add-cosignatures", str(tmp_path / "cosigned.txt")).stderr
    keyed.ok("keys", "add-witness", keyed.ok("keys", "witness", "bea.example/w2", "--out", str(tmp_path / "b2"),
                                             "--json").json["vkey"])
    other = keyed.ok("checkpoint", "cosign", str(tmp_path / "cp.txt"), "--key", str(tmp_path / "b2")).stdout
    line = other.strip().split("\n")[-1]
    broken = other.replace(line, line[:-6] + ("AAAA==" if not line.endswith("AAAA==") else "BBBB=="))
    (tmp_path / "broken.txt").write_text(broken)
    assert "does not verify" in keyed.refused("checkpoint", "add-cosignatures", str(tmp_path / "broken.txt")).stderr
    assert "cannot name a key" in keyed.refused("keys", "witness", "x y", "--out", str(tmp_path / "xy")).stderr
    assert "cannot name a key" in keyed.refused("keys", "witness", "w" * 201, "--out", str(tmp_path / "xy")).stderr
    # Found by the CLI fuzz: a lone surrogate (bytes that were never text) cannot go into a key file.
    assert "cannot name a key" in keyed.refused("keys", "witness", "w\ud800", "--out", str(tmp_path / "xy")).stderr
    # A file name holding a byte that is not UTF-8 is written, and said with an escape rather than failing after.
    odd = tmp_path / "cara\udcff.key"
    assert "cara\\udcff.key" in keyed.ok("keys", "witness", "cara.example/w", "--out", str(odd)).stdout
    assert odd.exists()
    assert not (tmp_path / "xy").exists()
    assert "exists" in keyed.refused("keys", "witness", "bea.example/w", "--out", str(bea)).stderr
