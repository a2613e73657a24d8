"""Wolves Upon the Coast (seed 000): a band of ex-thralls on a raiding ship."""

from __future__ import annotations

CHARACTERISTICS = ("Strength", "Agility", "Constitution")  # l.26-32, rolled 3d6 (l.34)
CHARACTERISTIC_ROLL = "3d6"
HIT_DIE = "1d6"  # l.50: one Hit Die, "All Hit Dice are d6s"
ATTACK_BONUS = 2  # l.51
LANGUAGES = "1d6/2"  # l.52
HACKSILVER = "3d6*10"  # l.49: "Anything not spent is lost."
COMPANION_SILVER = 1000  # l.248: one Companion per 1000sp of wealth owned

# l.250-260: Hirelings' wages, silver pennies a day.
WAGES = {"Non-combat": 2, "Skirmisher": 5, "Footman": 10, "Marine": 12, "Armoured Footman": 20, "Horsemen": 40}

# l.284-296: a ship's value (the ransom; a new one costs three times as much, l.300).
SHIP_VALUES = {"Raft": 10, "Boat": 50, "Karvi": 1000, "Knarr": 2000, "Snekkja": 3000,
               "Galley, Small": 5000, "Galley, Large": 8000, "Skeid": 10000}
NEW_SHIP_FACTOR = 3

BOAST_REWARDS = {"hd": "hit_dice", "ab": "attack_bonus"}  # l.264: "gains 1HD or +1 Attack Bonus"


def companions_allowed(silver: int) -> int:
    return silver // COMPANION_SILVER


def hireling_type(name: str) -> str | None:
    return next((t for t in WAGES if t.lower() == name.strip().lower()), None)


def ship_kind(name: str) -> str | None:
    return next((k for k in SHIP_VALUES if k.lower() == name.strip().lower()), None)
