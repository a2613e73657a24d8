"""Every cell of the coeac tables the ledger uses, against the transcription
in fixtures/tables/coeac.json (a wrong cell is a one-line fix there or here)."""

import json
from pathlib import Path

from ledger.rules import coeac

TABLES = json.loads((Path(__file__).parent.parent / "fixtures" / "tables" / "coeac.json").read_text())

# The seed's words for each consequence, matched to the ledger's result codes.
WORDS = {"Gain 1 Boon": "boon", "Gain +1 max HP": "max_hp_up", "random Save": "save_lost",
         "DEATH": "death", "Three random items break": "gear_broken", "Lose 1 max HP": "max_hp_down",
         "Two random Skills": "skills_lost"}


def test_down_and_out_table_cell_by_cell():
    # 004 l.99-114: "sum 2d6 and consult the Down and Out table below"
    for total, words in TABLES["down_and_out"]["rows"].items():
        expected = next(code for phrase, code in WORDS.items() if phrase in words)
        assert coeac.DOWN_AND_OUT[int(total)] == expected, total
    assert sorted(coeac.DOWN_AND_OUT) == list(range(2, 13))


def test_wealth_objectives():
    # 004 l.170-174: "Wealth | Ob 2 | 4 | 6 | ... | 24"
    t = TABLES["wealth_ob"]
    assert [coeac.wealth_ob(r) for r in t["rank"]] == t["ob"]


def test_stronghold_objectives():
    # 004 l.185-188: "Stronghold | Ob 10 | 12 | ... | 32"
    t = TABLES["stronghold_ob"]
    assert [coeac.stronghold_ob(r) for r in t["rank"]] == t["ob"]


def test_lifestyle_grades():
    # 004 l.162-169: "Destitute: 0-1 Wealth" … "Royal: 12 Wealth"
    for grade, (low, high) in TABLES["lifestyle"]["rows"].items():
        assert {coeac.lifestyle(w) for w in range(low, high + 1)} == {grade}


def test_garrison_population():
    # 004 l.180: "the number of Garrison/Staff tags squared, times five (viz. 5, 20, 45, 80, 125, 180"
    t = TABLES["garrison_population"]
    assert [coeac.garrison_population(n) for n in t["tags"]] == t["population"]


def test_skills_and_saves():
    assert list(coeac.SKILLS) == TABLES["skills"]["names"]
    assert list(coeac.SAVES) == TABLES["saves"]["names"]


def test_retirement_legacy():
    # 004 l.516: "+1 to a different Skill ... for each complete set of five Boons ... up to
    # a maximum of +1 to all Skills at 85 Boons"; l.517: "one rank in Wealth for every
    # three full ranks of the retiree's Wealth score"
    assert coeac.retirement_legacy(4, 2) == (0, 0)
    assert coeac.retirement_legacy(12, 7) == (2, 2)
    assert coeac.retirement_legacy(85, 12) == (17, 4)
    assert coeac.retirement_legacy(200, 12) == (17, 4)


def test_class_resources():
    # 004 l.524, l.527, l.530: "Class Resource: Luck" / "Steel" / "Control"
    for klass, words in TABLES["class_resources"]["rows"].items():
        assert words == f"Class Resource: {coeac.CLASS_RESOURCES[klass]}"
    assert set(coeac.CLASS_RESOURCES) == set(coeac.CLASSES)


def test_specialty_classes_and_the_words_their_lines_capitalise():
    # 004 l.535-549. Under specialty_resources named, a Specialty Class's Class Resource is the one
    # word its line capitalises first (Fairie, Shadow, Otherworld come after); Mutant, Mystic and Wild none.
    import re

    rows = TABLES["specialty_classes"]["rows"]
    assert list(rows) == list(coeac.SPECIALTIES)
    for specialty, line in rows.items():
        if specialty in coeac.LOCKED:
            assert "NOT YET UNLOCKED" in line
            continue
        capitalised = re.findall(r"\b[A-Z][a-z]+\b", line)[1:]  # the first word is "Those"
        assert coeac.specialty_resource(specialty, "named") == (capitalised[0] if capitalised else None), specialty
        assert coeac.specialty_resource(specialty, "none") is None


def test_inventory_rest_aid_and_broken_gear_figures():
    # 004 l.553 (twelve Slots), l.559 (three a Follower), l.560 (six a pack animal), l.563 (Depletion 1-20),
    # l.115 (up to three HP), l.100 (Medicine Ob 3), l.107 (three items break)
    from commands import hazards, hit_points, inventory as inventory_commands
    from projections import inventory

    t = TABLES["inventory"]
    assert (inventory.BASE_SLOTS, inventory.FOLLOWER_SLOTS) == (t["slots"], t["follower_slots"])
    assert inventory.capacity((inventory.Item("Mule", 0, carries=t["pack_animal_slots"]),), 0) == 18
    assert (min(inventory_commands.DEPLETION), max(inventory_commands.DEPLETION)) == tuple(t["depletion_scores"])
    assert hit_points.SHORT_REST_HP == TABLES["rests"]["short_rest_hp"]
    assert hazards.AID_OB == TABLES["medical_aid"]["ob"]
    assert hazards.BROKEN_GEAR == TABLES["broken_gear"]["items"]
