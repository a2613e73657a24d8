"""tally log | verify | void | export | import, and their refusals."""

import pytest

from tests.conftest import Tally, tamper


def roll_some(tally, n=3):
    return [tally.ok("roll", "2d6", "--json").json["position"] for _ in range(n)]


def test_log_filters_and_json_envelopes(campaign):
    first, second, _ = roll_some(campaign)
    campaign.ok("campaign", "set", "purchase_rule", "pool")
    everything = campaign.ok("log", "--json").json
    assert [e["position"] for e in everything] == list(range(1, 7))
    assert set(everything[0]) == {"position", "campaign", "stream", "version", "type", "schema",
                                  "game_time", "recorded_at", "session", "actor", "cause", "payload",
                                  "prev_hash", "hash"}
    rolls = campaign.ok("log", "--type", "dice.rolled", "--json").json
    assert [e["position"] for e in rolls] == [3, 4, 5]
    assert [e["position"] for e in campaign.ok("log", "--since-event", "4", "--json").json] == [5, 6]
    assert [e["type"] for e in campaign.ok("log", "--stream", "campaign", "--json").json] == [
        "campaign.created", "campaign.setting_changed"]
    assert campaign.ok("log", "--session", "1", "--json").json == []
    assert "unknown event type" in campaign.refused("log", "--type", "wealth.stolen").stderr
    assert "2d6" in campaign.ok("log").stdout


def test_verify_reports_the_head(campaign):
    roll_some(campaign, 2)
    verified = campaign.ok("verify", "--json").json
    assert verified["ok"] and verified["events"] == 4
    assert verified["head"] == campaign.ok("log", "--json").json[-1]["hash"]


def test_an_altered_payload_byte_breaks_verify_at_that_position(campaign):
    positions = roll_some(campaign, 3)
    tamper(campaign.url, "UPDATE events SET payload = replace(payload, '\"total\":', '\"total\": ') "
                         f"WHERE position = {positions[1]}")
    outcome = campaign("verify")
    assert outcome.exit_code == 1
    assert f"chain broken at position {positions[1]}" in outcome.stderr


def test_void_withdraws_an_event_and_its_refusals(campaign):
    roll_position, _, _ = roll_some(campaign)
    campaign.ok("campaign", "set", "purchase_rule", "pool")
    (setting_event,) = campaign.ok("log", "--type", "campaign.setting_changed", "--json").json
    voided = campaign.ok("void", str(setting_event["position"]), "--why", "misheard", "--json").json
    assert voided["payload"] == {"target": setting_event["position"], "target_type": "campaign.setting_changed",
                                 "reason": "misheard", "ruled_by": "referee"}
    assert voided["cause"] == setting_event["position"]
    assert campaign.ok("campaign", "show", "--json").json["settings"]["purchase_rule"] == "discount"
    assert "already voided" in campaign.refused("void", str(setting_event["position"]), "--why", "x").stderr
    assert "itself a void" in campaign.refused("void", str(voided["position"]), "--why", "x").stderr
    assert "no event at position 99" in campaign.refused("void", "99", "--why", "x").stderr
    assert "cannot be voided" in campaign.refused("void", "1", "--why", "x").stderr
    assert "cannot be voided" in campaign.refused("void", "2", "--why", "x").stderr
    assert "--why cannot be empty" in campaign.refused("void", str(roll_position), "--why", " ").stderr
    campaign.ok("void", str(roll_position), "--why", "rolled for the wrong test")
    assert "voided by" in campaign.ok("log").stdout


def test_export_then_import_into_a_new_database_is_the_identity(campaign, tmp_path):
    roll_some(campaign)
    campaign.ok("dice", "reveal")
    path = tmp_path / "log.jsonl"
    campaign.ok("export", str(path))
    copy = Tally(f"sqlite:///{tmp_path / 'copy.db'}")
    assert "imported 7 event(s)" in copy.ok("import", str(path)).stdout
    assert copy.ok("log", "--json").json == campaign.ok("log", "--json").json
    log_verdict = ("ok", "events", "head")  # the import also snapshots the copy: the counts of snapshots differ
    assert [copy.ok("verify", "--json").json[k] for k in log_verdict] == \
        [campaign.ok("verify", "--json").json[k] for k in log_verdict]
    again = copy.ok("import", str(path), "--json").json
    assert again["added"] == 0 and again["already"] == 7 and copy.event_count() == 7
    assert copy.ok("audit", "--json").json["ok"]


def test_export_refuses_to_overwrite_without_force(campaign, tmp_path):
    path = tmp_path / "log.jsonl"
    path.write_text("keep me")
    assert "pass --force" in campaign.refused("export", str(path)).stderr
    assert path.read_text() == "keep me"
    campaign.ok("export", str(path), "--force")
    assert len(path.read_text().splitlines()) == 2


def test_import_extends_a_database_that_holds_a_prefix(campaign, tmp_path):
    early = tmp_path / "early.jsonl"
    campaign.ok("export", str(early))
    copy = Tally(f"sqlite:///{tmp_path / 'copy.db'}")
    copy.ok("import", str(early))
    roll_some(campaign, 2)
    late = tmp_path / "late.jsonl"
    campaign.ok("export", str(late))
    assert "imported 2 event(s)" in copy.ok("import", str(late)).stdout
    assert copy.ok("verify", "--json").json["head"] == campaign.ok("verify", "--json").json["head"]


def edit_line(path, number, edit):
    lines = path.read_text().splitlines()
    lines[number - 1] = edit(lines[number - 1])
    path.write_text("\n".join(lines) + "\n")


@pytest.mark.parametrize("edit, message", [
    (lambda lines: edit_line(lines, 4, lambda l: l.replace('"total":', '"total":1')), "line 4: the hash does not match"),
    (lambda lines: edit_line(lines, 3, lambda l: "{oops"), "line 3: not valid JSON"),
    (lambda lines: edit_line(lines, 2, lambda l: l.replace('"actor"', '"author"')), "line 2: missing field actor"),
    (lambda lines: edit_line(lines, 2, lambda l: l.replace('"dice.committed"', '"dice.stolen"')), "line 2: unknown event type"),
    (lambda path: path.write_text("\n".join(path.read_text().splitlines()[::-1]) + "\n"), "line 1: holds position 5"),
    (lambda path: path.write_text("\n".join(path.read_text().splitlines()[1:]) + "\n"), "line 1: holds position 2"),
])
def test_a_tampered_or_reordered_file_is_refused_with_its_line_and_nothing_is_written(campaign, tmp_path, edit, message):
    roll_some(campaign)
    path = tmp_path / "log.jsonl"
    campaign.ok("export", str(path))
    edit(path)
    copy = Tally(f"sqlite:///{tmp_path / 'copy.db'}")
    copy.ok("db", "upgrade")
    assert message in copy.refused("import", str(path)).stderr


def test_import_into_another_ledger_is_refused(campaign, tmp_path):
    path = tmp_path / "log.jsonl"
    campaign.ok("export", str(path))
    other = Tally(f"sqlite:///{tmp_path / 'other.db'}")
    other.ok("campaign", "new", "Other", "--start", "1024-03-01")
    assert "comes from another ledger" in other.refused("import", str(path)).stderr
    assert "cannot read" in other.refused("import", str(tmp_path / "missing.jsonl")).stderr


def test_an_unusable_database_is_one_line_not_a_traceback(tmp_path):
    for url, message in [("postgresql+psycopg://tally@127.0.0.1:1/x", "cannot use the database"),
                         ("mysql://x@y/z", "cannot use database URL"),
                         (str(tmp_path / "nope" / "t.db"), "does not exist")]:
        outcome = Tally(url)("campaign", "new", "X", "--start", "1024-03-01")
        assert outcome.exit_code == 1 and message in outcome.stderr, outcome
        assert "Traceback" not in outcome.stderr
    missing = Tally(str(tmp_path / "missing.db"))("log")
    assert missing.exit_code == 1 and "no ledger at" in missing.stderr
    assert not (tmp_path / "missing.db").exists()
