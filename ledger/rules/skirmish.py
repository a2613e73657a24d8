"""The gunpowder skirmish campaign rules (seed 003): what persists between
battles — luck, level, permanent wounds and their healing, renown."""

from __future__ import annotations


def wound_result(total: int) -> str:
    """l.122-128: 2-4 open wound, 5-6 leg, 7-8 left arm, 9-10 right arm, 11+ miraculous recovery."""
    if total <= 4:
        return "open"
    if total <= 6:
        return "leg"
    if total <= 8:
        return "left_arm"
    if total <= 10:
        return "right_arm"
    return "recovered"


WOUND_EFFECTS = {  # (until healed, after healing)
    "open": ("roll a d6 and die on a 1", "fine"),
    "leg": ("-3 M", "-1 M permanently"),
    "left_arm": ("no two-handed or left-hand weapons", "-1 Pw, -1 St with left-hand/two-hand weapons"),
    "right_arm": ("cannot use the arms at all", "-1 Pw, -1 St with left-hand/two-hand weapons"),
    "recovered": ("none", "none"),
}


def healing_result(natural: int, total: int) -> str:
    """l.130-138: a natural 2 is always a mistake (a new wound roll); 3-5 nothing;
    6-9 healed with the after-effects; 10+ healed with none."""
    if natural == 2:
        return "mistake"
    if total <= 5:
        return "no_effect"
    if total <= 9:
        return "healed"
    return "healed_clean"


# l.421-433: clothing changes renown "in real terms".
CLOTHING_RENOWN = {"Rags": -1, "Common Clothes": 0, "Woodsman's Clothes": 0, "Good Clothes": 0,
                   "Noble's Clothes": 1, "Army Uniform": 0, "Officer's Uniform": 1}


def clothing(name: str) -> str | None:
    return next((c for c in CLOTHING_RENOWN if c.lower() == name.strip().lower()), None)
