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
