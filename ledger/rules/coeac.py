"""The Central Oregon Expeditionary Adventuring Company (seed 004): the
numbers the open-table economy runs on. Line numbers point into the seed."""

from __future__ import annotations

# l.117-137: ten exploration, three combat, four sorcery Skills.
SKILLS = ("Athletics", "Stealth", "Bushcraft", "Book Learning", "Arcane Lore", "Medicine",
          "Crafting", "Diplomacy", "Subterfuge", "Streetwise",
          "Brawling", "Hand Weapons", "Marksmanship",
          "Produce", "Transform", "Ruin", "Reveal")
SAVES = ("Vigor", "Agility", "Discipline")  # l.138-141
CLASSES = ("Explorer", "Warrior", "Sorcerer")  # l.521-530
CLASS_RESOURCES = {"Explorer": "Luck", "Warrior": "Steel", "Sorcerer": "Control"}  # l.524, l.527, l.530
ADVENTURER = "Adventurer"  # l.503: "the generic Adventurer list", open to every character
# l.535-549: the Specialty Classes. Each line capitalises one word as the core
# classes name their Class Resource (the reading setting specialty_resources
# names); Mutant, Mystic and Wild capitalise none.
SPECIALTIES = {"Commander": "Authority", "Devout": "Faith", "Mutant": None, "Mystic": None, "Outlander": "Ferocity",
               "Scholarly": "Erudition", "Scoundrel": "Guile", "Wild": None, "Death-Touched": "Shroud",
               "Demon-Touched": None, "Fey-Touched": "Wyld", "Shadow-Touched": "Veil", "Spirit-Touched": "Essence"}
LOCKED = ("Demon-Touched",)  # l.546: "??? [NOT YET UNLOCKED]"

COMPANY = "company"  # l.176: "the company as a whole" may own (and pay for) strongholds
MAX_WEALTH = 12  # l.157 "Wealth is rated 0-12"
MAX_STRONGHOLD = 12  # l.177 "rated from 1-12"
REPUTATION_LIMIT = 6  # l.201 "to a limit of ±6"
POOL = "d6s4"  # l.17-21: each die showing 4-6 is a Success
BASE_DICE = 2  # l.18: "two regular, six-sided dice plus a number of additional dice equal to a relevant Skill or Save"
DEFAULT_OB = 3  # l.33: "3 | Moderate/Risky (Default)"
HELP_DICE = 1  # l.40: allies "hand you an additional Helping bonus die to roll"

# l.162-169
LIFESTYLES = ((1, "Destitute"), (3, "Meager"), (5, "Modest"), (8, "Bountiful"), (11, "Opulent"), (12, "Royal"))

# l.99-114: the Down and Out table, 2d6.
DOWN_AND_OUT = {
    2: "boon", 3: "max_hp_up", 4: "save_lost", 5: "death", 6: "gear_broken", 7: "max_hp_down",
    8: "skills_lost", 9: "death", 10: "save_lost", 11: "max_hp_up", 12: "boon",
}
DOWN_AND_OUT_WORDS = {
    "boon": "Learning Opportunity: gain 1 Boon", "max_hp_up": "Resilience: +1 max HP",
    "save_lost": "Trauma: lose one point from a random Save", "death": "DEATH, painful and grisly",
    "gear_broken": "Broken Gear: three random items break (artifacts save on 50%)",
    "max_hp_down": "Lingering Injury: lose 1 max HP",
    "skills_lost": "Impairment: two random Skills decrease by one point each",
}

# l.177-187: tag kinds that carry a mechanical effect.
TAG_KINDS = ("Garrison", "Staff", "Fortifications", "Facilities", "Economy")


def lifestyle(wealth: int) -> str:
    for top, name in LIFESTYLES:
        if wealth <= top:
            return name
    return LIFESTYLES[-1][1]


def wealth_ob(rank: int) -> int:
    """l.170-174: improving Wealth to rank r needs Ob 2r."""
    return 2 * rank


def stronghold_ob(rank: int) -> int:
    """l.185-188: improving a Stronghold to rank r needs Ob 8 + 2r."""
    return 8 + 2 * rank


def garrison_population(tags: int) -> int:
    """l.180: working population = Garrison/Staff tags squared, times five."""
    return 5 * tags * tags


def tag_kind(tag: str) -> str:
    head = tag.split(":", 1)[0].strip().lower()
    for kind in TAG_KINDS:
        if head == kind.lower():
            return "Garrison" if kind == "Staff" else kind
    return ""


def retirement_legacy(boons: int, wealth: int) -> tuple[int, int]:
    """l.516-517: +1 to a different Skill per full five Boons (all 17 at 85),
    and one Wealth rank per three full ranks of the retiree's Wealth."""
    return min(len(SKILLS), boons // 5), wealth // 3


def specialty_resource(specialty: str, rule: str) -> str | None:
    """The Class Resource a Specialty Class brings under specialty_resources."""
    return SPECIALTIES.get(specialty) if rule == "named" else None


def canonical_specialty(name: str) -> str | None:
    return next((s for s in SPECIALTIES if s.lower() == name.strip().lower()), None)


def canonical_skill(name: str) -> str | None:
    return next((s for s in SKILLS if s.lower() == name.strip().lower()), None)


def canonical_save(name: str) -> str | None:
    return next((s for s in SAVES if s.lower() == name.strip().lower()), None)
