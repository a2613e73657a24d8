"""Inventory (issue 14 item 8): Slots, items found and bought, Depletion, Broken
Gear naming what breaks, commodities turned to Cash, and handing things over."""

import pytest

from tests.conftest import sheet


@pytest.fixture
def kit(tally):
    """Bo (Wealth 5, 10 Cash) and Cass (6 Cash); no session open."""
    t = tally
    t.ok("campaign", "new", "COEAC", "--rules", "coeac", "--start", "1024-03-01")
    t.ok("player", "add", "Ben")
    t.ok("player", "add", "Cy")
    t.ok("char", "new", "Bo", "--player", "Ben", "--max-hp", "4", "--wealth", "5", "--cash", "10")
    t.ok("char", "new", "Cass", "--player", "Cy", "--max-hp", "5", "--cash", "6")
    return t


def carried(t, name):
    s = sheet(t, name)
    return [i["name"] for i in s["inventory"]], (s["slots"]["used"], s["slots"]["capacity"])


def test_twelve_slots_and_cumbersome_items(kit):
    # 004 l.553: "Each character has twelve Inventory Slots ... Each item of narrative importance
    # occupies a single Slot"; l.555: cumbersome items "may occupy multiple Inventory Slots".
    kit.ok("item", "add", "Bo", "Rope")
    kit.ok("item", "add", "Bo", "Heavy Armor", "--slots", "2")  # l.96: "it occupies two Slots"
    assert carried(kit, "Bo") == (["Rope", "Heavy Armor"], (3, 12))
    kit.ok("item", "add", "Bo", "Anvil", "--slots", "9")
    refused = kit.refused("item", "add", "Bo", "Lantern").stderr
    assert "Bo would carry 13 Slots of 12" in refused


def test_two_items_of_one_name_are_two_items(kit):
    # 004 l.553: "Each item of narrative importance occupies a single Slot"; l.560: "Pack animals may
    # carry six Slots" -- a second horse is a second item, and the commands that name one act on the first.
    kit.ok("item", "add", "Bo", "Horse", "--slots", "0", "--carries", "6")
    kit.ok("item", "add", "Bo", "horse", "--slots", "0", "--carries", "6")
    assert carried(kit, "Bo") == (["Horse", "horse"], (0, 24))
    kit.ok("give", "Bo", "Cass", "--item", "horse", "--why", "a spare mount")
    assert carried(kit, "Bo") == (["horse"], (0, 18)) and carried(kit, "Cass")[0] == ["Horse"]
    kit.ok("give", "Bo", "Cass", "--item", "Horse", "--why", "and the other")
    assert carried(kit, "Cass") == (["Horse", "horse"], (0, 24)) and carried(kit, "Bo")[0] == []
    kit.ok("item", "drop", "Cass", "HORSE", "--why", "lame")
    assert carried(kit, "Cass")[0] == ["horse"]


def test_followers_and_pack_animals_carry_slots(kit):
    # 004 l.559: "Porters and other human hirelings/Followers may each carry three Slots of gear";
    # l.560: "Pack animals may carry six Slots".
    kit.ok("follower", "add", "Bo", "Hasan")
    kit.ok("item", "add", "Bo", "Mule", "--slots", "0", "--carries", "6")
    assert carried(kit, "Bo")[1] == (0, 21)
    kit.ok("item", "add", "Bo", "Trade goods", "--slots", "20")
    assert "would carry 20 Slots of 15" in kit.refused("item", "drop", "Bo", "Mule", "--why", "sold").stderr
    assert "would carry 20 Slots of 18" in kit.refused("follower", "lose", "Bo", "Hasan", "--why", "left").stderr


def test_goods_bought_go_into_the_inventory_and_services_do_not(kit):
    # 004 l.603: Cost 0 after Wealth, one Cash die flat; what is bought is carried (l.553).
    kit.ok("buy", "Bo", "Torches", "--cost", "3", "--depletion", "15")
    kit.ok("buy", "Bo", "a room at the inn", "--cost", "2", "--service")
    assert carried(kit, "Bo")[0] == ["Torches"]
    (gained,) = kit.ok("log", "--type", "item.gained", "--json").json
    assert (gained["payload"]["source"], gained["payload"]["depletion"]) == ("bought", 15)
    kit.ok("item", "add", "Bo", "Boulder", "--slots", "11")
    before = kit.event_count()
    assert "would carry 14 Slots of 12" in kit.refused("buy", "Bo", "Tent", "--cost", "9", "--wager", "4",
                                                       "--slots", "2").stderr
    assert kit.event_count() == before  # refused before any Cash was wagered


def test_depletion(kit):
    # 004 l.563: "roll a d20: if the result is equal to or higher than the Depletion score, that item has
    # exactly one use remaining ... the next Depletion Check is not rolled; rather, the item is completely
    # depleted at that point."
    kit.ok("item", "add", "Bo", "Torches", "--depletion", "15")
    kit.ok("item", "use", "Bo", "Torches", "--dice", "14")
    assert sheet(kit, "Bo")["inventory"][0]["last_use"] is False
    kit.ok("item", "use", "Bo", "torches", "--dice", "15")
    assert sheet(kit, "Bo")["inventory"][0]["last_use"] is True
    assert "more than the rolls needed" in kit.refused("item", "use", "Bo", "Torches", "--dice", "3").stderr
    out = kit.ok("item", "use", "Bo", "Torches")
    assert "expended" in out.stdout and carried(kit, "Bo")[0] == []
    results = [e["payload"] for e in kit.ok("log", "--type", "item.depletion_checked", "--json").json]
    assert [(r["roll"], r["result"]) for r in results] == [(14, "lasts"), (15, "last_use"), (None, "expended")]


def test_items_without_depletion_are_dropped_when_used_up(kit):
    # 004 l.564: "completely use up a bundle of items ... do not make a Depletion Roll ... simply erase the item"
    kit.ok("item", "add", "Bo", "Caltrops")
    assert "has no Depletion score" in kit.refused("item", "use", "Bo", "Caltrops").stderr
    kit.ok("item", "drop", "Bo", "Caltrops", "--why", "scattered on the stair")
    assert carried(kit, "Bo")[0] == []
    assert "carries no 'Caltrops'" in kit.refused("item", "drop", "Bo", "Caltrops", "--why", "x").stderr


def test_broken_gear_names_what_breaks_and_artifacts_may_save(kit):
    # 004 l.107: "Broken Gear: Three random items break (Artifacts have 50% chance to Save)".
    for item in ("Sword", "Shield", "Rope"):
        kit.ok("item", "add", "Bo", item)
    kit.ok("item", "add", "Bo", "Sunblade", "--artifact")
    # 2d6 = 6; then 1d4 (4: Sunblade), 1d3 (1: Sword), 1d2 (2: Rope); the Sunblade's 1d6 = 5 saves it.
    kit.ok("down-and-out", "Bo", "--dice", "3,3,4,1,2,5")
    (broken,) = kit.ok("log", "--type", "gear.broken", "--json").json
    assert (broken["payload"]["broken"], broken["payload"]["saved"]) == (["Sword", "Rope"], ["Sunblade"])
    assert carried(kit, "Bo")[0] == ["Shield", "Sunblade"]


def test_broken_gear_with_less_than_three_items_breaks_them_all(kit):
    kit.ok("item", "add", "Cass", "Lute")
    kit.ok("down-and-out", "Cass", "--dice", "2,4")
    (broken,) = kit.ok("log", "--type", "gear.broken", "--json").json
    assert broken["payload"]["broken"] == ["Lute"] and carried(kit, "Cass")[0] == []


def test_commodities_become_cash_once_home(kit):
    # 004 l.766: "Commodities are measured in Cash dice—like 'Silks (3 Cash)' ... must be returned to
    # civilization in Inventory Slots before they can be converted into (non-Inventoried) Cash dice."
    kit.ok("session", "open", "--activate", "Bo", "--no-income")
    kit.ok("item", "add", "Bo", "Silks", "--cash", "3", "--why", "the merchant's wagon")
    assert "once it is back in civilization" in kit.refused("item", "cash-in", "Bo", "Silks").stderr
    kit.ok("session", "close", "--haven", "Bo")
    kit.ok("item", "cash-in", "Bo", "silks")
    assert (sheet(kit, "Bo")["cash"], carried(kit, "Bo")[0]) == (13, [])
    kit.ok("item", "add", "Bo", "Map")
    assert "no worth in Cash" in kit.refused("item", "cash-in", "Bo", "Map").stderr


def test_selling_what_is_carried_takes_it_out(kit):
    kit.ok("item", "add", "Bo", "Silver chalice")
    kit.ok("sell", "Bo", "silver chalice", "--cost", "7", "--dice", "6,1")
    assert carried(kit, "Bo")[0] == [] and sheet(kit, "Bo")["cash"] == 11


def test_giving_cash_and_items(kit):
    kit.ok("item", "add", "Bo", "Rope")
    kit.ok("give", "Bo", "Cass", "--cash", "4", "--item", "Rope", "--why", "for the climb")
    assert (sheet(kit, "Bo")["cash"], sheet(kit, "Cass")["cash"]) == (6, 10)
    assert carried(kit, "Cass")[0] == ["Rope"]
    assert "has 6 Cash and cannot give 7" in kit.refused("give", "Bo", "Cass", "--cash", "7").stderr
    assert "give --cash N, --item NAME" in kit.refused("give", "Bo", "Cass").stderr
    kit.ok("item", "add", "Bo", "Boulder", "--slots", "12")
    assert "Cass would carry 13 Slots of 12" in kit.refused("give", "Bo", "Cass", "--item", "Boulder").stderr
    kit.ok("session", "open", "--activate", "Bo", "--no-income")
    assert "Bo is out on session 1's expedition and Cass is not" in kit.refused(
        "give", "Cass", "Bo", "--cash", "1").stderr


def test_rations_are_spent_on_a_rest_and_checked(kit):
    # 004 l.115: "When the majority of the party spends Rations (11+) over the course of an hour, everyone
    # in the party regains up to three Hit Points ... (The spent Rations must then be checked for Depletion.)"
    kit.ok("session", "open", "--activate", "Bo", "--activate", "Cass", "--no-income")
    kit.ok("item", "add", "Bo", "Rations", "--depletion", "11")
    assert "only 1 of the 2 resting carry Rations" in kit.refused("rest", "short", "--rations", "Rations").stderr
    kit.ok("item", "add", "Cass", "Rations", "--depletion", "11")
    kit.ok("hp", "damage", "Cass", "4")
    kit.ok("rest", "short", "--rations", "Rations", "--dice", "12,3")
    checks = [(e["payload"]["character"], e["payload"]["result"])
              for e in kit.ok("log", "--type", "item.depletion_checked", "--json").json]
    assert checks == [("Bo", "last_use"), ("Cass", "lasts")]
    assert sheet(kit, "Cass")["hp"] == 4
    kit.ok("give", "Cass", "Bo", "--cash", "1")
    kit.ok("item", "drop", "Cass", "Rations", "--why", "eaten")
    assert "Cass carries no Rations: a long rest" in kit.refused("rest", "long", "--rations", "Rations").stderr


def test_a_late_loss_that_leaves_a_later_load_too_heavy_is_refused(kit):
    kit.ok("follower", "add", "Bo", "Hasan", "--game-date", "1024-03-01")
    kit.ok("calendar", "advance", "2w")
    kit.ok("item", "add", "Bo", "Trade goods", "--slots", "14")
    (later,) = kit.ok("log", "--type", "item.gained", "--json").json
    refused = kit.refused("follower", "lose", "Bo", "Hasan", "--why", "ran off", "--game-date", "1024-03-05").stderr
    assert f"event {later['position']} (item.gained" in refused and "Bo would carry 14 Slots of 12" in refused


def test_a_v1_broken_gear_payload_names_no_items_and_breaks_none():
    # gear.broken schema 1 counted the items without naming them: upcast, nothing is known to be gone.
    from ledger.events.registry import decode
    from ledger.envelope import Envelope
    from projections import inventory

    v1 = {"character": "Bo", "items": 3, "note": "three random items break; artifacts save on 50%"}
    event = decode("gear.broken", 1, v1)
    assert event.payload() == {"character": "Bo", "count": 3, "broken": [], "saved": [], "note": v1["note"]}
    state = inventory.apply(inventory.Inventory(), Envelope(1, "C", "s", 1, "item.gained", 1, 1, "", None, "", None, {
        "character": "Bo", "item": "Rope", "slots": 1, "depletion": None, "cash": 0, "artifact": False,
        "carries": 0, "source": "found", "why": "x"}, "", ""))
    after = inventory.apply(state, Envelope(2, "C", "s", 2, "gear.broken", 2, 1, "", None, "", None,
                                            event.payload(), "", ""))
    assert [i.name for i in after.of("Bo")] == ["Rope"]
