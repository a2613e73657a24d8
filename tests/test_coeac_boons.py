"""Boons spent, Specialty Classes and Class Resources (issue 14 items 9, 10)."""

import pytest

from tests.conftest import sheet


@pytest.fixture
def veteran(tally):
    """Nureddine, a Warrior with 6 opening Boons and Stealth 1, back from session 1 with its Boon."""
    t = tally
    t.ok("campaign", "new", "COEAC", "--rules", "coeac", "--start", "1024-03-01")
    t.ok("player", "add", "Ann")
    t.ok("char", "new", "Nureddine", "--player", "Ann", "--class", "Warrior", "--max-hp", "6", "--boons", "6",
         "--skills", "Stealth=1")
    t.ok("session", "open", "--activate", "Nureddine", "--no-income")
    t.ok("session", "close", "--days", "2", "--haven", "Nureddine")
    return t


def test_a_boon_gained_is_chosen_and_raises_a_skill(veteran):
    # 004 l.503: "Whenever you return from a successful expedition, your current character gains one Boon.
    # Boons may always be chosen from the generic Adventurer list"; l.507: "To increase your dice pools,
    # earn Boons". The six opening Boons were chosen before the ledger began.
    s = sheet(veteran, "Nureddine")
    assert (s["boons"], s["boons_unchosen"]) == (7, 1)
    veteran.ok("boon", "choose", "Nureddine", "--skill", "stealth")
    s = sheet(veteran, "Nureddine")
    assert (s["skills"], s["boons"], s["boons_unchosen"]) == ({"Stealth": 2}, 7, 0)
    assert s["boon_choices"] == [{"list": "Adventurer", "kind": "skill", "target": "Stealth"}]
    assert "has no Boon to choose" in veteran.refused("boon", "choose", "Nureddine", "--save", "Vigor").stderr
    story = veteran.ok("why", "Nureddine", "skills.Stealth", "--json").json
    assert story["value"] == 2
    assert [(r["type"], r["before"], r["after"]) for r in story["changes"]] == [
        ("character.created", None, 1), ("boon.spent", 1, 2)]


def test_boons_come_from_the_core_class_and_unlocked_specialty_lists(veteran):
    # 004 l.503: "from your Core Class list (Explorer, Warrior, or Sorcerer), and from any Advanced Class
    # list(s) that you have unlocked"; l.533: "Once you've qualified for a Specialty Class, you may take
    # Boons from that class's boon list whenever you gain a Boon."
    refused = veteran.refused("boon", "choose", "Nureddine", "--list", "Sorcerer", "--feat", "Fell Blast").stderr
    assert "may take Boons from Adventurer, Warrior (004 l.503, l.533)" in refused
    veteran.ok("specialty", "unlock", "Nureddine", "Commander", "--why", "took command at the ford")
    veteran.ok("boon", "choose", "Nureddine", "--list", "commander", "--feat", "Rally the Line")
    s = sheet(veteran, "Nureddine")
    assert s["boon_choices"] == [{"list": "Commander", "kind": "feat", "target": "Rally the Line"}]
    assert s["specialties"] == ["Commander"]


@pytest.mark.parametrize("args, message", [
    (("boon", "choose", "Nureddine"), "give exactly one of --skill, --save or --feat"),
    (("boon", "choose", "Nureddine", "--skill", "Juggling"), "unknown skill 'Juggling'"),
    (("boon", "choose", "Nureddine", "--skill", "Stealth", "--save", "Vigor"), "exactly one"),
    (("specialty", "unlock", "Nureddine", "Demon-Touched", "--why", "x"),
     "not yet unlocked in the rules themselves (004 l.546)"),
    (("specialty", "unlock", "Nureddine", "Pirate", "--why", "x"), "unknown Specialty Class 'Pirate'"),
    (("resource", "spend", "Nureddine", "--why", "x"), "has 0 Steel and cannot spend 1"),
    (("resource", "max", "Nureddine", "Luck", "3", "--why", "x"), "has no Class Resource 'Luck': theirs: Steel"),
    (("resource", "max", "Nureddine", "Steel", "21", "--why", "x"), "0 to 20 points"),
])
def test_boon_and_resource_refusals(veteran, args, message):
    assert message in veteran.refused(*args).stderr


def test_each_core_class_has_its_class_resource(veteran):
    # 004 l.500: "Each Class has access to a special Class Resource (CR)"; l.527: Warrior, "Class
    # Resource: Steel". The pool's size is on the class's own page, not in the seed: the referee sets it.
    assert sheet(veteran, "Nureddine")["resources"] == {"Steel": {"current": 0, "max": 0}}
    veteran.ok("resource", "max", "Nureddine", "Steel", "3", "--why", "Warrior, level of play")
    veteran.ok("resource", "spend", "Nureddine", "--why", "Cleave")
    veteran.ok("resource", "spend", "Nureddine", "--count", "2", "--why", "Cleave, spending an additional Steel")
    assert "has 0 Steel and cannot spend 1" in veteran.refused("resource", "spend", "Nureddine", "--why", "x").stderr
    veteran.ok("resource", "regain", "Nureddine", "--why", "a rousing speech")
    assert "would pass the pool's size" in veteran.refused(
        "resource", "regain", "Nureddine", "--count", "3", "--why", "x").stderr
    assert sheet(veteran, "Nureddine")["resources"] == {"Steel": {"current": 1, "max": 3}}


def test_a_specialty_brings_the_resource_its_line_names(veteran):
    # 004 l.536: "Commander: Those who embody the Authority to lead zealous followers into danger."
    veteran.ok("specialty", "unlock", "Nureddine", "Commander", "--why", "the ford")
    (unlocked,) = veteran.ok("log", "--type", "specialty.unlocked", "--json").json
    assert (unlocked["payload"]["resource"], unlocked["payload"]["rule"]) == ("Authority", "named")
    veteran.ok("resource", "max", "Nureddine", "Authority", "2", "--why", "Commander")
    assert sheet(veteran, "Nureddine")["resources"]["Authority"] == {"current": 2, "max": 2}
    assert "already unlocked Commander" in veteran.refused(
        "specialty", "unlock", "Nureddine", "commander", "--why", "x").stderr


def test_a_specialty_brings_no_resource_under_the_other_reading(veteran):
    veteran.ok("campaign", "set", "specialty_resources", "none")
    veteran.ok("specialty", "unlock", "Nureddine", "Scoundrel", "--why", "a life of crime")
    assert list(sheet(veteran, "Nureddine")["resources"]) == ["Steel"]


def test_rests_bring_class_resources_back(veteran):
    # 004 l.115: a short rest, "a point of the Class Resource of their choice"; l.116: a long rest regains
    # "any other per-day powers" (setting long_rest_resources: full).
    veteran.ok("campaign", "set", "rest_rations", "optional")  # the Rations' own test is in test_coeac_hit_points
    veteran.ok("specialty", "unlock", "Nureddine", "Commander", "--why", "the ford")
    veteran.ok("resource", "max", "Nureddine", "Steel", "3", "--why", "Warrior")
    veteran.ok("resource", "max", "Nureddine", "Authority", "2", "--why", "Commander")
    veteran.ok("resource", "spend", "Nureddine", "--count", "3", "--why", "x")
    veteran.ok("resource", "spend", "Nureddine", "--resource", "authority", "--count", "2", "--why", "x")
    veteran.ok("rest", "short", "Nureddine")  # the core class's by default
    veteran.ok("rest", "short", "Nureddine", "--resource", "Nureddine=Authority")
    assert sheet(veteran, "Nureddine")["resources"] == {"Steel": {"current": 1, "max": 3},
                                                         "Authority": {"current": 1, "max": 2}}
    veteran.ok("rest", "long", "Nureddine")
    rests = [e["payload"] for e in veteran.ok("log", "--type", "rest.taken", "--json").json]
    (long,) = [r for r in rests if r["kind"] == "long"]
    assert long["resources_rule"] == "full"
    assert sheet(veteran, "Nureddine")["resources"]["Steel"] == {"current": 3, "max": 3}
    veteran.ok("campaign", "set", "long_rest_resources", "none")
    veteran.ok("resource", "spend", "Nureddine", "--why", "x")
    veteran.ok("rest", "long", "Nureddine")
    assert sheet(veteran, "Nureddine")["resources"]["Steel"] == {"current": 2, "max": 3}


def test_a_late_spend_that_a_later_spend_cannot_survive_is_refused(veteran):
    veteran.ok("calendar", "advance", "2w")  # first: a late fact goes on today or before (issue 28)
    veteran.ok("resource", "max", "Nureddine", "Steel", "1", "--why", "Warrior", "--game-date", "1024-03-04")
    veteran.ok("resource", "spend", "Nureddine", "--why", "Cleave")
    (later,) = veteran.ok("log", "--type", "resource.changed", "--json").json
    refused = veteran.refused("resource", "spend", "Nureddine", "--why", "Parry", "--game-date", "1024-03-05").stderr
    assert f"event {later['position']} (resource.changed" in refused and "Steel would be -1, outside 0-1" in refused
