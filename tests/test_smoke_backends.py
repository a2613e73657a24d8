def test_campaign_is_created_on_each_backend(campaign):
    shown = campaign.ok("campaign", "show", "--json").json
    assert shown["name"] == "Greyhawk"
    assert shown["today"] == "1024-03-01"
    assert campaign.event_count() == 2
