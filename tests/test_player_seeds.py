"""Player seeds (issue 25): a derived roll in an epoch the players gave no
seed of their own says so wherever it is shown — the referee's side chose
every input of it, and could have known it in advance; `session open` shows
the new epoch's commitment and asks for one; the setting player_seed =
required refuses such a roll. Every case on both backends."""

from __future__ import annotations

import pytest

from ledger.store import Store
from tests.chronicle_support import get, serving

UNSEEDED = "has no player seed: the referee's side chose every input of this roll, so it could have been known"


@pytest.fixture
def table(campaign):
    campaign.ok("player", "add", "Ann")
    campaign.ok("char", "new", "Bo", "--player", "Ann", "--max-hp", "5", "--wealth", "2")
    return campaign


def test_a_derived_roll_without_a_player_seed_says_so_in_its_output_and_json(table):
    said = table.ok("roll", "2d6", "--for", "Bo").stdout.splitlines()
    assert said[0].startswith("2d6 for Bo: [") and "roll n=0 of epoch 1" in said[0]
    assert said[1] == f"  note: epoch 1 {UNSEEDED} in advance"
    rolled = table.ok("roll", "1d6", "--json").json
    assert rolled["player_seed"] is False and rolled["note"] == f"epoch 1 {UNSEEDED} in advance"
    # A hand roll has no seed to speak of: recorded, not verifiable, and no note.
    by_hand = table.ok("roll", "1d6", "--dice", "4", "--json").json
    assert by_hand["player_seed"] is None and by_hand["note"] is None
    assert "note" not in table.ok("roll", "1d6", "--dice", "4").stdout


def test_a_roll_after_the_players_seed_says_nothing_more(table):
    table.ok("dice", "client-seed", "Ann: owls")
    said = table.ok("roll", "2d6").stdout
    assert said.count("\n") == 1 and "note" not in said
    rolled = table.ok("roll", "2d6", "--json").json
    assert rolled["player_seed"] is True and rolled["note"] is None


def test_audit_and_epochs_name_the_epochs_without_a_player_seed(table):
    table.ok("roll", "2d6")
    table.ok("roll", "2d6", "--dice", "1,1")
    table.ok("dice", "reveal")  # epoch 1: two rolls, one derived, no seed
    table.ok("dice", "client-seed", "Ann: owls")
    table.ok("roll", "1d6")
    table.ok("dice", "reveal")  # epoch 2: seeded; epoch 3: open, no rolls
    audit = table.ok("audit", "--json").json
    assert audit["ok"] and audit["unseeded"] == [1]
    assert [(e["epoch"], e["player_seed"], e["derived_rolls"]) for e in audit["epochs"]] == [
        (1, False, 1), (2, True, 1), (3, False, 0)]
    assert audit["note"] == ("epoch 1 had no player seed: the referee's side chose every input of its 1 derived "
                             "roll, which could have been known in advance")
    shown = table.ok("audit").stdout
    assert "player seed" in shown and "│ NO " in shown and "audit: every revealed roll matches" in shown
    assert f"note: {audit['note']}" in shown
    epochs = table.ok("dice", "epochs", "--json").json
    assert [(e["epoch"], e["player_seed"]) for e in epochs] == [(1, False), (2, True), (3, False)]
    assert "note: epoch 1 had no player seed" in table.ok("dice", "epochs").stdout
    # Every epoch seeded (or without derived rolls): nothing to say.
    assert table.ok("audit", "2", "--json").json["note"] is None
    assert "note" not in table.ok("audit", "2").stdout


def test_session_open_shows_the_commitment_and_asks_the_players_for_their_seed(table):
    said = table.ok("session", "open", "--activate", "Bo", "--no-income").stdout
    (epoch,) = [e for e in table.ok("dice", "epochs", "--json").json if not e["revealed"]]
    assert f"epoch {epoch['epoch']} commitment: {epoch['commitment']}\n" in said
    assert said.rstrip().endswith(f"players: now that you have seen epoch {epoch['epoch']}'s commitment, give your "
                                  "seed before its first roll: tally dice client-seed \"TEXT\"")
    table.ok("dice", "client-seed", "Ann: the kobold's grin")
    assert table.ok("roll", "2d6", "--json").json["player_seed"] is True
    # Closing opens the downtime's epoch, where the next Income is rolled: it asks again.
    closed = table("session", "close", "--days", "1", "--haven", "Bo", "--json")
    assert closed.exit_code == 0 and [e["type"] for e in closed.json][-1] == "session.closed"  # stdout: JSON only
    assert closed.stderr.startswith("tally: note: players: now that you have seen epoch")


def test_session_open_and_close_say_when_the_epoch_they_reveal_had_no_player_seed(table):
    # Income (Wealth 2) is rolled in the downtime's epoch 1, revealed by the opening.
    said = table.ok("session", "open", "--activate", "Bo").stdout
    assert ("note: epoch 1 had no player seed: the referee's side chose every input of its 1 derived roll, "
            "which could have been known in advance\n") in said
    table.ok("dice", "client-seed", "Ann: owls")
    table.ok("roll", "2d6")
    closed = table.ok("session", "close", "--days", "1", "--haven", "Bo").stdout
    assert "had no player seed" not in closed  # epoch 2 had one
    table.ok("roll", "1d6")
    table.ok("roll", "1d6")
    revealed = table.ok("dice", "reveal").stdout
    assert "note: epoch 3 had no player seed: the referee's side chose every input of their 2 derived rolls" \
        not in revealed  # one epoch: "its"
    assert "note: epoch 3 had no player seed: the referee's side chose every input of its 2 derived rolls" \
        in revealed
    opened = table("session", "open", "--activate", "Bo", "--json")  # epoch 4: unseeded Income, under --json
    assert opened.exit_code == 0 and opened.json[0]["type"] == "session.opened"
    assert "tally: note: epoch 4 had no player seed" in opened.stderr


def test_session_open_client_seed_records_the_seed_with_the_commitment(table):
    opened = table.ok("session", "open", "--activate", "Bo", "--client-seed", " Ann: bears ", "--json").json
    committed, seeded = opened[-2:]
    assert (committed["type"], seeded["type"]) == ("dice.committed", "dice.client_seed_set")
    assert seeded["payload"] == {"epoch": committed["payload"]["epoch"], "client_seed": "Ann: bears"}
    assert seeded["session"] == committed["session"] == 1
    assert "players:" not in table.ok("log").stdout
    rolled = table.ok("roll", "2d6", "--json").json
    assert rolled["epoch"] == committed["payload"]["epoch"] and rolled["player_seed"] is True
    table.ok("session", "close", "--days", "1", "--haven", "Bo")
    assert table.ok("audit", "--json").json["ok"]  # the roll re-derives with K = "Ann: bears"


@pytest.mark.parametrize("seed, message", [
    ("", "--client-seed cannot be empty"),
    ("x" * 201, "--client-seed is 201 characters long; the limit is 200"),
    ("a\nb", "--client-seed"),
])
def test_session_open_refuses_a_client_seed_it_cannot_record(table, seed, message):
    assert message in table.refused("session", "open", "--activate", "Bo", "--client-seed", seed).stderr


def test_required_refuses_a_derived_roll_until_the_players_give_a_seed(table):
    table.ok("campaign", "set", "player_seed", "required")
    refused = table.refused("roll", "2d6").stderr
    assert refused == ("tally: epoch 1 has no player seed and this campaign requires one (setting player_seed): a "
                       "player sets one with `tally dice client-seed TEXT` before its first roll; hand-rolled "
                       "--dice faces are still taken\n")
    # Every command that derives a roll: Income at a session's opening is rolled in the downtime's epoch.
    assert "epoch 1 has no player seed" in table.refused("session", "open", "--activate", "Bo").stderr
    table.ok("roll", "2d6", "--dice", "3,4")  # by hand: recorded, not verifiable
    table.ok("session", "open", "--activate", "Bo", "--dice", "5,2")  # Income by hand
    assert "epoch 2 has no player seed" in table.refused("roll", "1d6").stderr
    table.ok("dice", "client-seed", "Ann: owls")
    assert table.ok("roll", "1d6", "--json").json["player_seed"] is True


def test_required_set_mid_epoch_says_the_seed_can_only_come_with_the_next_epoch(table):
    table.ok("session", "open", "--activate", "Bo", "--no-income")
    table.ok("roll", "1d6")
    table.ok("campaign", "set", "player_seed", "required")
    refused = table.refused("roll", "1d6").stderr
    assert "it has rolls, so its seed can no longer be set: reveal it with `tally session close`" in refused
    assert "set it for the next epoch after `tally session close`" in \
        table.refused("dice", "client-seed", "too late").stderr  # in a session, not `dice reveal`
    table.ok("campaign", "set", "player_seed", "optional")
    assert "player_seed: required -> optional" in table.ok("log").stdout
    assert table.ok("roll", "1d6", "--json").json["player_seed"] is False


def test_the_setting_belongs_to_every_campaign_and_takes_only_its_choices(tally):
    tally.ok("campaign", "new", "Bare", "--start", "1024-03-01")  # no rules modules at all
    changed = tally.ok("campaign", "set", "player_seed", "required", "--json").json
    assert changed["payload"] == {"key": "player_seed", "value": "required", "previous": "optional"}
    assert "player_seed is already required" in tally.refused("campaign", "set", "player_seed", "required").stderr
    assert "player_seed must be one of optional, required, not 'always'" in \
        tally.refused("campaign", "set", "player_seed", "always").stderr
    # unset, it is optional: setting it so says it already is
    tally.ok("campaign", "new", "Other", "--start", "1024-03-01")
    assert "player_seed is already optional" in \
        tally.refused("--campaign", "Other", "campaign", "set", "player_seed", "optional").stderr


def test_the_dice_pages_say_an_epoch_had_no_player_seed(table):
    table.ok("roll", "2d6")
    table.ok("dice", "reveal")
    table.ok("dice", "client-seed", "Ann: owls")
    table.ok("roll", "2d6")
    store = Store(table.url, create=False)
    try:
        with serving(store) as base:
            unseeded, seeded, index = (get(base + address)[1] for address in ("dice?epoch=1", "dice?epoch=2", "dice"))
    finally:
        store.dispose()
    note = "no player seed, so the referee's side chose every input of this epoch's derived rolls"
    assert note in unseeded and note not in seeded and "Ann: owls" in seeded
    assert index.count("none: the referee could have known these rolls in advance") == 1  # epoch 1, not 2
