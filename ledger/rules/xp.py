"""Levels, treasure XP and vows (seed 002 §1.4, l.97-114)."""

from __future__ import annotations

FIRST_STEP = 1000  # l.100: "a second-level adventurer has 1000 or more"


def threshold(level: int) -> int:
    """The XP at which a level begins: 0, 1000, 2000, 4000, 8000… (l.99-102)."""
    return 0 if level <= 1 else FIRST_STEP * 2 ** (level - 2)


def level_for(xp: int) -> int:
    level = 1
    while xp >= threshold(level + 1):
        level += 1
    return level


def treasure_xp(units: int, vow_open: bool, rounding: str) -> int:
    """l.107-108: 1 XP per unit of currency; l.113-114: only half while a vow is open."""
    if not vow_open:
        return units
    return units // 2 if rounding == "down" else -(-units // 2)


def level_benefit(level: int) -> str:
    """l.105: even levels swap a characteristic point; odd levels bring expertise or a weapon trait."""
    if level % 2 == 0:
        return "swap one characteristic point for another"
    return "a new area of expertise or a new weapon trait"


# l.22-23: "six attributes – for example STR, INT, WIS, DEX, CON and CHA"
ATTRIBUTES = ("STR", "INT", "WIS", "DEX", "CON", "CHA")
ATTRIBUTE_NAMES = {"STRENGTH": "STR", "INTELLIGENCE": "INT", "WISDOM": "WIS", "DEXTERITY": "DEX",
                   "CONSTITUTION": "CON", "CHARISMA": "CHA"}
SCORES = range(3, 19)  # l.23-24: "The spread should be between 3 and 18."
# l.25-61: the attribute modifier, from the least score that has it.
MODIFIERS = ((18, 3), (16, 2), (13, 1), (9, 0), (6, -1), (4, -2), (3, -3))
SKILL_SUCCESS = 9  # l.172: "9 – 11 | Success": the least total that passes
EXPERTISE_DICE = "3d6kh2"  # l.94: "roll 3D6 and pick the best two dice"
SKILL_DICE = "2d6"  # l.162
# l.168-173: the skill roll's results, from the least total that reaches each.
SKILL_RESULTS = ((12, "extraordinary"), (9, "success"), (6, "delay"), (3, "failure"), (-99, "catastrophe"))


def skill_total(natural: int, modifier: int) -> int:
    """l.177-178: "snake eyes are always a result of two regardless of modifiers.
    Likewise, natural box-cars are always a 12." """
    return natural if natural in (2, 12) else natural + modifier


def skill_result(total: int) -> str:
    return next(name for least, name in SKILL_RESULTS if total >= least)


def succeeded(result: str) -> bool:
    return result in ("success", "extraordinary")


def expertise_claims(highest_level: int, twelves: int) -> int:
    """Areas of expertise a character may hold: the first (l.94), one for each
    odd level reached from 3 (l.105, "or a new weapon trait" instead), and one
    for each skill roll of 12 (l.179)."""
    return 1 + (highest_level - 1) // 2 + twelves


def attribute_modifier(score: int) -> int:
    """l.25-61: 3 → -3, 4-5 → -2, 6-8 → -1, 9-12 → 0, 13-15 → +1, 16-17 → +2, 18 → +3."""
    return next(modifier for least, modifier in MODIFIERS if score >= least)
