"""tally campaign new|list|show|set, and choosing a campaign."""

import pytest

from tests.conftest import Tally


def test_a_new_campaign_records_its_rules_calendar_start_and_first_epoch(tally):
    created = tally.ok("campaign", "new", "Bifrost Saga", "--rules", "gods,xp", "--calendar", "bifrost",
                       "--start", "day 1 of week 1, 1024", "--json").json
    assert created["rules"] == ["gods", "xp"]
    assert created["calendar"]["seasons"] == [["Spring", 14], ["Summer", 12], ["Autumn", 14], ["Winter", 12]]
    assert created["start"] == "day 1 of week 1, 1024"
    assert created["epoch"] == 1 and len(created["commitment"]) == 64
    log = tally.ok("log", "--json").json
    assert [e["type"] for e in log] == ["campaign.created", "dice.committed"]
    assert log[0]["game_time"] == created["start_day"] and log[0]["actor"] == "referee"


def test_settings_have_defaults_and_changes_are_events(campaign):
    assert campaign.ok("campaign", "show", "--json").json["settings"]["purchase_rule"] == "discount"
    campaign.ok("campaign", "set", "purchase_rule", "pool")
    assert campaign.ok("campaign", "show", "--json").json["settings"]["purchase_rule"] == "pool"
    (changed,) = campaign.ok("log", "--type", "campaign.setting_changed", "--json").json
    assert changed["payload"] == {"key": "purchase_rule", "value": "pool", "previous": "discount"}


@pytest.mark.parametrize("args, message", [
    (("purchase_rule", "cheap"), "purchase_rule must be one of discount, pool"),
    (("tax_rate", "3"), "unknown setting 'tax_rate'"),
    (("manifestation_clock", "either"), None),
    (("purchase_rule", "discount"), "already discount"),
])
def test_setting_refusals(campaign, args, message):
    if message is None:
        campaign.ok("campaign", "set", *args)
        return
    assert message in campaign.refused("campaign", "set", *args).stderr


def test_a_setting_of_a_module_the_campaign_does_not_run_is_refused(tally):
    tally.ok("campaign", "new", "Wolves", "--rules", "wolves", "--start", "0793-06-08")
    assert "belongs to the coeac rules" in tally.refused("campaign", "set", "purchase_rule", "pool").stderr


@pytest.mark.parametrize("args, message", [
    (("Greyhawk", "--start", "1024-03-01"), "already exists"),
    (("Other", "--start", "1024-13-01"), "cannot read '1024-13-01' as a gregorian date"),
    (("Other", "--start", "1024-03-01", "--rules", "coeac,dnd"), "unknown rules module 'dnd'"),
    (("Other", "--start", "1024-03-01", "--calendar", "mayan"), "unknown calendar"),
    (("!bad", "--start", "1024-03-01"), "a campaign name is"),
])
def test_campaign_new_refusals(campaign, args, message):
    assert message in campaign.refused("campaign", "new", *args).stderr


@pytest.mark.parametrize("args", [
    ("Other", "--start", "1024-13-01"),
    ("Other", "--start", "1024-03-01", "--rules", "coeac,dnd"),
    ("Other", "--start", "1024-03-01", "--calendar", "no-such-calendar.toml"),
    ("!bad", "--start", "1024-03-01"),
])
def test_a_refused_first_campaign_leaves_no_ledger_file(tmp_path, args):
    # A referee's first typo must not leave an empty ledger behind, which the
    # next command would then read as "no campaign yet".
    path = tmp_path / "new.db"
    t = Tally(f"sqlite:///{path}")
    t.refused("campaign", "new", *args)
    assert sorted(p.name for p in tmp_path.iterdir()) == []
    t.ok("campaign", "new", "Other", "--start", "1024-03-01")
    assert path.exists()


def test_two_campaigns_need_a_choice(campaign):
    campaign.ok("campaign", "new", "Blackmoor", "--start", "1024-03-01")
    assert "choose one with --campaign" in campaign.refused("roll", "1d6").stderr
    assert "no campaign named 'Nowhere'" in campaign.refused("--campaign", "Nowhere", "roll", "1d6").stderr
    campaign.ok("--campaign", "Blackmoor", "roll", "1d6")
    names = [c["name"] for c in campaign.ok("campaign", "list", "--json").json]
    assert names == ["Greyhawk", "Blackmoor"]


def test_reading_an_empty_ledger_says_how_to_start(tally):
    tally.ok("db", "upgrade")
    assert "create one with `tally campaign new" in tally.refused("campaign", "show").stderr
