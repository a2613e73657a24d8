"""Epochs, the client seed, reveal and audit, through the command line."""

import random
import subprocess
import sys

import pytest

from commands.dice import roll
from ledger.store import Store
from tests import independent_verifier
from tests.conftest import kept_seed, tamper

MIXED = ["2d6", "3d6", "d20", "d%", "dA", "2d6kl1", "2d6kh1", "3d6kh2", "6d6s4", "12d6s4",
         "3d6*10", "1d6/2", "1d12+3", "4d8+2d10-1", "d997", "2dA+1", "4d6dl1", "1d6!", "2d6kh1!",
         "4d6rr1", "1d10xo10", "3d6ro<=2", "8d6mi2ma5", "6d6!s4", "4d6rr1dl1!", "2d6e>=5", "dA!", "d%x"]


def test_a_few_hundred_mixed_rolls_verify_independently(campaign, tmp_path):
    campaign.ok("dice", "client-seed", "Åsa's lucky charm")
    rng = random.Random(7)
    store = Store(campaign.url)
    for i in range(300):
        hand = [3] if i % 50 == 0 else None  # a few hand rolls among them
        roll(store, None, "1d6" if hand else rng.choice(MIXED), actor="referee", hand=hand)
    store.dispose()
    _astrid(campaign)
    campaign.ok("roll", "3d6kh2", "--for", "Astrid", "--why", "expertise")
    revealed = campaign.ok("dice", "reveal", "--json").json
    assert revealed["rolls"] == 295 and revealed["client_seed"] == "Åsa's lucky charm"
    log = tmp_path / "log.json"
    log.write_text(campaign.ok("log", "--json").stdout)
    result = subprocess.run([sys.executable, independent_verifier.__file__, str(log)],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout
    assert result.stdout.startswith("295 rolls checked, 0 problems")
    audit = campaign.ok("audit", "--json").json
    assert audit["ok"] and audit["epochs"][0]["rolls_checked"] == 295 and audit["epochs"][0]["hand_rolls"] == 6
    assert audit["unrevealed"] == [2]


def _astrid(campaign) -> None:
    """A roll is for a character of the campaign (issue 28)."""
    campaign.ok("player", "add", "Åsa")
    campaign.ok("char", "new", "Astrid", "--player", "Åsa", "--max-hp", "6")


def test_roll_json_has_what_a_player_needs(campaign):
    _astrid(campaign)
    rolled = campaign.ok("roll", "2d6", "--for", "Astrid", "--why", "Down and Out", "--json").json
    assert {"position", "expression", "dice", "total", "epoch", "nonce", "verifiable"} <= set(rolled)
    assert rolled["epoch"] == 1 and rolled["nonce"] == 0 and rolled["verifiable"] is True
    assert sum(rolled["dice"]) == rolled["total"] and rolled["character"] == "Astrid"
    second = campaign.ok("roll", "d20", "--json").json
    assert second["nonce"] == 1


def test_hand_rolls_are_recorded_not_verifiable_and_use_no_nonce(campaign):
    by_hand = campaign.ok("roll", "2d6", "--dice", "6,6", "--json").json
    assert by_hand["dice"] == [6, 6] and by_hand["total"] == 12
    assert by_hand["verifiable"] is False and by_hand["nonce"] is None
    assert campaign.ok("roll", "2d6", "--json").json["nonce"] == 0


@pytest.mark.parametrize("args, message", [
    (("2d6", "--dice", "6"), "needs exactly 2 dice"),
    (("2d6", "--dice", "6,7"), "7 is not a face of a d6"),
    (("2d6", "--dice", "six,one"), "separated by commas"),
    (("2d6", "--dice", ""), "at least one face"),
    (("1001d6",), "at most 1000"),
    (("2d6+",), "cannot read dice expression"),
    (("2d6", "--why", "two\nlines"), "one line"),
])
def test_roll_refusals(campaign, args, message):
    assert message in campaign.refused("roll", *args).stderr


def test_the_client_seed_is_set_once_before_the_first_roll(campaign):
    campaign.ok("dice", "client-seed", "ours")
    assert "cannot be changed" in campaign.refused("dice", "client-seed", "theirs").stderr
    campaign.ok("roll", "1d6")
    campaign.ok("dice", "reveal")
    campaign.ok("roll", "1d6")
    assert "before the first roll" in campaign.refused("dice", "client-seed", "late").stderr
    epochs = campaign.ok("dice", "epochs", "--json").json
    assert [(e["epoch"], e["client_seed"], e["rolls"]) for e in epochs] == [(1, "ours", 1), (2, "", 1)]


def test_the_secret_seed_never_shows_before_its_reveal(campaign, tmp_path):
    campaign.ok("roll", "2d6")
    secret = kept_seed(campaign.url, 1)
    assert secret is not None
    path = tmp_path / "log.jsonl"
    campaign.ok("export", str(path))
    outputs = [campaign.ok(*args).stdout for args in (
        ("log", "--json"), ("log",), ("campaign", "show", "--json"), ("campaign", "show"),
        ("dice", "epochs", "--json"), ("audit", "--json"))] + [path.read_text()]
    assert not any(secret in out for out in outputs)
    revealed = campaign.ok("dice", "reveal", "--json").json
    assert revealed["seed"] == secret
    assert secret in campaign.ok("log", "--json").stdout


CRASH = r"""
import os, sys
from projections.reading import load
from commands.dice import roll_event
from ledger.store import Store
store = Store(sys.argv[1])
with store.transaction() as tx:
    ctx = load(tx, None, "referee")
    tx.append(ctx.name, [roll_event(ctx, "2d6")], actor="referee")
    os._exit(9)  # the machine dies before the commit
"""


def test_a_crash_loses_nothing_acknowledged_and_leaves_the_epoch_verifiable(tally_sqlite):
    tally = tally_sqlite
    tally.ok("campaign", "new", "G", "--start", "1024-03-01")
    first = tally.ok("roll", "2d6", "--json").json  # acknowledged
    crashed = subprocess.run([sys.executable, "-c", CRASH, tally.url])
    assert crashed.returncode == 9
    assert [e["position"] for e in tally.ok("log", "--type", "dice.rolled", "--json").json] == [first["position"]]
    assert tally.ok("roll", "2d6", "--json").json["nonce"] == 1
    tally.ok("dice", "reveal")
    assert tally.ok("audit", "--json").json["epochs"][0]["rolls_checked"] == 2


def test_audit_catches_a_fudged_roll_and_names_its_position(campaign):
    positions = [campaign.ok("roll", "2d6", "--json").json["position"] for _ in range(3)]
    campaign.ok("dice", "reveal")
    fudged = positions[1]
    tamper(campaign.url, f"UPDATE events SET payload = replace(payload, '\"dice\":[', '\"dice\":[6,6,') "
                         f"WHERE position = {fudged}")
    outcome = campaign("audit", "--json")
    assert outcome.exit_code == 1
    report = outcome.json
    assert not report["ok"] and report["epochs"][0]["mismatches"][0]["position"] == fudged
    assert "MISMATCH" in campaign("audit").stdout
    assert campaign("verify").exit_code == 1  # the chain catches it too


def test_audit_catches_a_seed_that_does_not_match_its_commitment(campaign):
    campaign.ok("roll", "2d6")
    revealed = campaign.ok("dice", "reveal", "--json").json
    tamper(campaign.url, f"UPDATE events SET payload = replace(payload, '{revealed['seed']}', '{'0' * 64}') "
                         f"WHERE position = {revealed['position']}")
    report = campaign("audit", "--json")
    assert report.exit_code == 1
    assert report.json["epochs"][0]["commitment_ok"] is False


def test_voided_rolls_are_still_audited(campaign):
    position = campaign.ok("roll", "2d6", "--json").json["position"]
    campaign.ok("void", str(position), "--why", "wrong test")
    campaign.ok("roll", "2d6")
    campaign.ok("dice", "reveal")
    assert campaign.ok("audit", "1", "--json").json["epochs"][0]["rolls_checked"] == 2
    assert "no epoch 7" in campaign.refused("audit", "7").stderr
    assert "epoch number or all" in campaign.refused("audit", "latest").stderr


def test_odds_are_exact(campaign):
    # 004 l.160: Nureddine's warhorse, Cost 6, Wealth 5 + 7 Cash = 12 dice.
    warhorse = campaign.ok("odds", "12d6s4", "--ob", "6", "--json").json
    assert warhorse["exact"] == "1255/2048"
    # 004 l.161: Wealth 5 -> 6 at Ob 12 with 28 Cash: "a bit better than even odds".
    wealth = campaign.ok("odds", "28d6s4", "--ob", "12", "--json").json
    assert 0.5 < wealth["chance"] < 0.85
    assert "P(2d6 >= 7) = 58.33%" in campaign.ok("odds", "2d6", "--ob", "7").stdout
    table = campaign.ok("odds", "3d6kh2", "--json").json
    assert table["min"] == 2 and table["max"] == 12 and abs(table["mean"] - 8.4583) < 1e-3
    assert "tally counts up to 2,000,000 digits" in campaign.refused("odds", "1000d1000").stderr
