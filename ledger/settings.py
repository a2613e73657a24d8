"""Campaign settings: the choices RULES.md names where a seed is silent,
ambiguous or contradicts itself. Each has a default; changing one records
``campaign.setting_changed``, and every rule event records the value it used.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ledger.errors import BadInput, RuleRefused

MODULES = ("coeac", "gods", "xp", "wolves", "skirmish")
CORE = "core"  # settings of every campaign, whatever rules it runs


@dataclass(frozen=True)
class Setting:
    key: str
    module: str
    default: str
    choices: Optional[tuple[str, ...]]  # None: a whole number 0-99
    doc: str
    per_level: bool = False  # `none`, or whole numbers 0-99 one per level from 1 (the last holds after)


SETTINGS: dict[str, Setting] = {s.key: s for s in (
    Setting("player_seed", CORE, "optional", ("optional", "required"),
            "a derived roll in an epoch with no player (client) seed is made and marked as such (optional), "
            "or refused until a player sets one (required): without one the referee's side chose every "
            "input of the roll (002 l.7 \"Rolls happen in the open\", 004 l.14 \"no fudging\")"),
    Setting("purchase_rule", "coeac", "discount", ("discount", "pool"),
            "buying: Ob = Cost − Wealth with wagered Cash only (004 l.600-604), "
            "or Ob = Cost with [Wealth] dice plus wagered Cash (l.149-153)"),
    Setting("attempt_limit", "coeac", "session", ("session", "epoch"),
            "one Wealth (and one stronghold) improvement attempt from one session's opening to the next's "
            "(004 l.171, l.185), or one in each session and one in each downtime between sessions (epoch)"),
    Setting("stronghold_pool", "coeac", "wealth", ("wealth", "cash"),
            "improving a stronghold rolls the payer's [Wealth] dice plus wagered Cash (004 l.151, l.157), "
            "or wagered Cash only, as for Wealth (cash)"),
    Setting("trauma_pick", "coeac", "rated", ("rated", "any"),
            "Trauma and Impairment pick the random Save or Skills among those rated 1 or more (rated), "
            "or among all, a 0 staying 0 (any) (004 l.105, l.109: the seed is silent)"),
    Setting("project_ticks", "coeac", "session", ("session", "action"),
            "a character fills at most one tick of a project each session (004 l.648), "
            "or one tick per downtime action given it (action)"),
    Setting("long_rest_resources", "coeac", "full", ("full", "none"),
            "a long rest restores every Class Resource, as a per-day power (full), or none: they come back "
            "only a point at a short rest or when the referee grants them (004 l.115-116: the seed is silent)"),
    Setting("rest_rations", "coeac", "required", ("required", "optional"),
            "a rest is taken spending Rations (004 l.115-116: the Rations are the rest's cost): without "
            "`--rations ITEM` the party spends the item called Rations, and a rest without them is refused "
            "(required), or a rest without --rations spends nothing (optional)"),
    Setting("specialty_resources", "coeac", "named", ("named", "none"),
            "a Specialty Class brings the Class Resource its line capitalises, as the core classes' lines do "
            "(Authority, Faith, Ferocity…; 004 l.536-549), or none of its own (the seed does not say)"),
    Setting("vow_xp", "xp", "threshold", ("threshold", "stated"),
            "a fulfilled vow pays the XP at which the current level began, "
            "or the referee states the award (002 §2)"),
    Setting("vow_rounding", "xp", "down", ("down", "up"),
            "halved treasure XP under an open vow rounds down or up (002 §2)"),
    Setting("vow_limit", "xp", "session", ("session", "level"),
            "one vow fulfilled per session or per level (002 §2)"),
    Setting("prayer_modifiers", "gods", "additive", ("additive",),
            "prayer modifiers are added as percentage points (001 l.741-978)"),
    Setting("manifestation_clock", "gods", "weighted", ("weighted", "either"),
            "manifestation: active time + dormant time / 10 reaches a year (weighted), or one of "
            "a year active / ten years dormant alone (either) (001 l.976)"),
    Setting("excessive_rounding", "gods", "down", ("down", "up"),
            "an excessive plea's chance \"reduced to a half\" rounds down or up (001 l.841-843)"),
    Setting("crawl_bonus", "gods", "next_plea", ("next_plea", "until_black_mark"),
            "a crawling prayer's banked 1-10% is spent by the next plea, or helps every plea until "
            "the next black mark (001 l.873)"),
    Setting("crawl_stacking", "gods", "add", ("add", "replace"),
            "a second crawling prayer's 1-10% adds to the bonus banked before, past 10% (add), or replaces "
            "it (replace) (001 l.873: \"increases the chance of a prayer being answered by 1-10%\")"),
    Setting("relapse_power", "gods", "plus3", ("plus3", "illustration"),
            "after a relapse, repentance reads the table at PR + 3 up to 10 (7 -> 10), or as l.905's "
            "illustration \"1-4, 4-7, 7-9\" (PR + 3 up to 9; a PR 10 god stays 10) (001 l.903-905)"),
    Setting("repentance_marks", "gods", "black", ("black", "black_and_grey"),
            "the repentance table's rows count black marks (its heading, l.883), or black and grey "
            "(grey marks \"act as black marks\", l.875)"),
    Setting("repentance_beyond_table", "gods", "never", ("never", "last_row"),
            "past 12 black marks repentance is impossible (X), or reads the printed 12th row (001 l.883-897)"),
    Setting("interference_lifts_x", "gods", "no", ("no", "yes"),
            "whether another god's interference (+50%) lets a god whose cell is X answer at 50% (001 l.964)"),
    Setting("god_adoption", "gods", "before_play", ("before_play", "safe_time"),
            "a god is adopted before the character's first expedition, or at any time it is not on "
            "one (001 l.745: \"before the game begins\")"),
    Setting("conversion_marks", "gods", "clear", ("clear", "keep"),
            "a convert starts with the new god with no marks, or keeps its black and grey marks (001 l.960-962)"),
    Setting("relapse_punishment", "gods", "50", None,
            "the percentage chance of punishment at the first black mark after a repentance "
            "(001 l.905: \"likely to be punished\"); 0 never"),
    Setting("treasure_xp", "xp", "seized", ("seized", "spent"),
            "treasure gives its XP when seized (divided), or when spent (002 l.107: \"expenditure seizure\")"),
    Setting("roll_under", "wolves", "below", ("below", "at_most"),
            "`tally roll --under N` passes below N, or at N too: 000 l.161 \"roll under the Characteristic\" "
            "and l.395 \"roll under their AC\" do not say which"),
    Setting("medium_dodge", "wolves", "none", ("none", "light", "heavy"),
            "a save's Dodge roll in Maille (Medium) is read as in no named weight (no change), as Light "
            "Armour (+2) or as Heavy (-2): 000 l.42-44 name only none (+4), Light and Heavy"),
    Setting("drinking_test", "skirmish", "below", ("below", "at_most"),
            "`tally test C Drinking` passes with 2d6 below the drinker's Power, as the other tests (003 l.13), "
            "or at most Power: l.36 \"a test against the drinker's power\" gives no method"),
    Setting("luck_start", "skirmish", "1", None, "luck points a new character starts with (003 l.311: not given)"),
    Setting("luck_cap", "skirmish", "3", None, "the most luck points a character may hold (003: not given)"),
    Setting("luck_refresh", "skirmish", "none", ("none", "session"),
            "luck regained to the start value at each session close, or only when the referee grants it"),
    Setting("luck_rerolls", "skirmish", "once", ("once", "chain"),
            "whether a roll luck re-rolled may itself be re-rolled with another luck point (003 l.313: not said)"),
    Setting("stat_caps", "skirmish", "none", None,
            "the most a hero stat (all but Movement) may be at each level, e.g. 6,7,8 (003 l.322: no table)",
            per_level=True),
    Setting("skill_allowance", "skirmish", "none", None,
            "how many different skills a character may hold at each level, e.g. 2,3,4 (003 l.322: no table)",
            per_level=True),
    Setting("skill_bonus", "skirmish", "printed", ("printed", "stepped"),
            "a skill's bonus by its level: +1, +2 (2-3), +4 (4-5), +4 (6) as printed, or +3 for 4-5 (003 l.348)"),
    Setting("languages_rounding", "wolves", "up", ("up", "down", "halves"),
            "1d6/2 languages: round up (1-3), down (0-3), or keep an odd half as a 'half known' "
            "language (000 l.51-52)"),
    Setting("companion_upkeep", "wolves", "leave", ("leave", "ruling"),
            "when silver falls below 1000 sp a companion, the last to join leave at once, or stay "
            "until the referee rules (000 l.248)"),
    Setting("hire_cover_days", "wolves", "1", None,
            "a hireling is hired only if the silver covers the wages owed and this many days of every "
            "wage in service, the new one's too (000 l.250 'As many as can be paid')"),
)}


def in_force(settings: dict[str, str], key: str) -> str:
    """A setting's value, or its default for a campaign folded before the setting existed."""
    return settings.get(key, SETTINGS[key].default)


def defaults(rules: list[str]) -> dict[str, str]:
    # Core settings stay out: a campaign folded before one existed must fold the same
    # (its snapshots are compared with the fold), and in_force gives their default.
    return {s.key: s.default for s in SETTINGS.values() if s.module in rules}


def check(key: str, value: str, rules: list[str]) -> str:
    """The value to record, or a refusal saying what would be accepted."""
    setting = SETTINGS.get(key)
    if setting is None:
        raise BadInput(f"unknown setting {key!r}: known settings are {', '.join(sorted(SETTINGS))}")
    if setting.module != CORE and setting.module not in rules:
        raise RuleRefused(
            f"setting {key} belongs to the {setting.module} rules, which this campaign "
            f"does not run (it runs {', '.join(rules) or 'no modules'})"
        )
    value = value.strip()
    if setting.choices and value not in setting.choices:
        raise BadInput(f"{key} must be one of {', '.join(setting.choices)}, not {value!r}")
    if setting.per_level:
        return _per_level(key, value)
    if setting.choices is None and not (value.isascii() and value.isdigit() and int(value) < 100):
        raise BadInput(f"{key} takes a whole number from 0 to 99, not {value!r}")
    return str(int(value)) if value.isascii() and value.isdigit() else value


def _per_level(key: str, value: str) -> str:
    if value == "none":
        return value
    parts = [p.strip() for p in value.split(",")]
    if not 1 <= len(parts) <= 50 or not all(p.isascii() and p.isdigit() and int(p) < 100 for p in parts):
        raise BadInput(f"{key} takes none, or whole numbers 0-99 one per level from level 1, like 6,7,8 "
                       f"(not {value!r})")
    return ",".join(str(int(p)) for p in parts)


def at_level(value: str, level: int) -> Optional[int]:
    """A per-level setting's figure at a level (the last one given holds above it), or None for none."""
    if value == "none":
        return None
    figures = [int(p) for p in value.split(",")]
    return figures[min(max(level, 1), len(figures)) - 1]


def parse_rules(text: str) -> list[str]:
    rules = [r.strip().lower() for r in text.split(",") if r.strip()]
    unknown = [r for r in rules if r not in MODULES]
    if unknown:
        raise BadInput(f"unknown rules module {unknown[0]!r}: choose from {', '.join(MODULES)}")
    if len(set(rules)) != len(rules):
        raise BadInput("a rules module is named twice in --rules")
    return [m for m in MODULES if m in rules]
