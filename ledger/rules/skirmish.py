"""The gunpowder skirmish campaign rules (seed 003): what persists between
battles — luck, level and what it caps, skills, permanent wounds and their
healing, renown and clothing."""

from __future__ import annotations

from typing import Optional

from ledger.settings import at_level, in_force


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


# l.421-435: clothing, what it does to renown "in real terms" (Rn), to movement (M) and to the
# deadliness of every weapon used against the wearer, and what else it does.
CLOTHING = {
    "Rags": {"renown": -1, "movement": 0, "deadliness": 0, "effect": "-1 to interpersonal tests"},
    "Common Clothes": {"renown": 0, "movement": 0, "deadliness": 0, "effect": "no obvious bonuses"},
    "Woodsman's Clothes": {"renown": 0, "movement": 0, "deadliness": 0,
                           "effect": "negates M penalties in forests/hills"},
    "Good Clothes": {"renown": 0, "movement": 0, "deadliness": 0, "effect": "no obvious bonuses"},
    "Noble's Clothes": {"renown": 1, "movement": 0, "deadliness": 0, "effect": "none besides renown"},
    "Army Uniform": {"renown": 0, "movement": 0, "deadliness": 0, "effect": "no obvious bonuses"},
    "Officer's Uniform": {"renown": 1, "movement": 0, "deadliness": 0, "effect": "allows command of troops"},
    "Armour": {"renown": 0, "movement": -1, "deadliness": -1,
               "effect": "-1 M, -1 to deadliness of all weapons against the wearer"},
}
CLOTHING_RENOWN = {name: c["renown"] for name, c in CLOTHING.items()}


def clothing(name: str) -> str | None:
    return next((c for c in CLOTHING if c.lower() == name.strip().lower()), None)


# Hero stats (l.13, 27, 52, 309, 344, 354) and their short names. Movement is counted in metres a
# walk is a fifth of (l.52: "M8 ... 40m"), on another scale from the rest: stat_caps leaves it out.
HERO_STATS = {"Movement": "M", "Shooting": "Sh", "Striking": "St", "Power": "Pw", "Nerve": "Nv",
              "Intelligence": "In", "Will": "Wi", "Leadership": "Ld"}
UNCAPPED = frozenset({"Movement"})
# l.13, l.27, l.36: the tests outside combat, each rolled on 2d6 under a score from the hero stats.
TESTS = {"Interpersonal": ("Nerve", "Intelligence"), "Perception": ("Shooting", "Intelligence"),
         "Drinking": ("Power",)}
TEST_DICE = "2d6"
EPIC_MARGIN = 3  # l.23: "getting 3 less than they need is an "epic success", 3 more an "epic failure""
HEALING = "Healing"  # l.132: "A character with healing skill will be able to make a roll on the healing table"
SKILL_LEVELS = range(1, 7)  # l.348 gives bonuses for skill levels 1 to 6

# l.348: "Generally Level 1 skills provide a +1 to rolls, 2-3 a +2, 4-5 a +4 and 6 a +4" (setting
# skill_bonus: as printed, or the +3 for 4-5 the ladder suggests).
SKILL_BONUS = {"printed": {1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4}, "stepped": {1: 1, 2: 2, 3: 2, 4: 3, 5: 3, 6: 4}}


def hero_stat(name: str) -> str | None:
    wanted = name.strip().lower()
    return next((s for s, short in HERO_STATS.items() if wanted in (s.lower(), short.lower())), None)


def stat_cap(settings: dict, level: int) -> Optional[int]:
    """l.322: the most a hero stat may be at a level (setting stat_caps), or None."""
    return at_level(in_force(settings, "stat_caps"), level)


def skill_allowance(settings: dict, level: int) -> Optional[int]:
    """l.322: how many different skills a character may hold at a level (setting skill_allowance), or None."""
    return at_level(in_force(settings, "skill_allowance"), level)


def beyond_level(stats: dict[str, int], skills: dict[str, int], level: int, settings: dict, *,
                 from_level: Optional[int] = None) -> Optional[str]:
    """What a character's stats and skills hold beyond a level's caps, in a few
    words, or None. ``from_level``: only what was within that level's caps (a
    level change is not blamed for a stat set before the caps were)."""
    over = _over(stats, skills, level, settings)
    if from_level is not None:
        before = _over(stats, skills, from_level, settings)
        over = {k: v for k, v in over.items() if k not in before}
    stats_over = [v for k, v in over.items() if k != "skills"]
    parts = []
    if stats_over:
        parts.append(f"{', '.join(stats_over)}, above level {level}'s cap of {stat_cap(settings, level)} "
                     "(setting stat_caps, 003 l.322)")
    if "skills" in over:
        parts.append(over["skills"])
    return "; and ".join(parts) or None


def _over(stats: dict[str, int], skills: dict[str, int], level: int, settings: dict) -> dict[str, str]:
    cap, allowed = stat_cap(settings, level), skill_allowance(settings, level)
    over = {s: f"{s} {v}" for s, v in stats.items() if s not in UNCAPPED and cap is not None and v > cap}
    if allowed is not None and len(skills) > allowed:
        over["skills"] = (f"{len(skills)} different skills, more than level {level} allows ({allowed}; setting "
                          "skill_allowance, 003 l.322)")
    return over


def score_for(test: str, stats: dict[str, int]) -> int:
    """l.13: (Nerve + Intelligence) / 2 rounded down; l.27: (Shooting + Intelligence) / 2;
    l.36: Drinking is "a test against the drinker's power"."""
    wanted = [stats[s] for s in TESTS[test]]
    return wanted[0] if len(wanted) == 1 else sum(wanted) // 2
