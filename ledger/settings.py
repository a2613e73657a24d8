"""Campaign settings: the choices RULES.md names where a seed is silent,
ambiguous or contradicts itself. Each has a default; changing one records
``campaign.setting_changed``, and every rule event records the value it used.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ledger.errors import BadInput, RuleRefused

MODULES = ("coeac", "gods", "xp", "wolves", "skirmish")


@dataclass(frozen=True)
class Setting:
    key: str
    module: str
    default: str
    choices: Optional[tuple[str, ...]]  # None: a whole number 0-99
    doc: str


SETTINGS: dict[str, Setting] = {s.key: s for s in (
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
    Setting("luck_start", "skirmish", "1", None, "luck points a new character starts with (003 l.311: not given)"),
    Setting("luck_cap", "skirmish", "3", None, "the most luck points a character may hold (003: not given)"),
    Setting("luck_refresh", "skirmish", "none", ("none", "session"),
            "luck regained to the start value at each session close, or only when the referee grants it"),
)}


def value(settings: dict[str, str], key: str) -> str:
    """The setting in force: a campaign folded before the setting existed has its default."""
    return settings.get(key, SETTINGS[key].default)


def defaults(rules: list[str]) -> dict[str, str]:
    return {s.key: s.default for s in SETTINGS.values() if s.module in rules}


def check(key: str, value: str, rules: list[str]) -> str:
    """The value to record, or a refusal saying what would be accepted."""
    setting = SETTINGS.get(key)
    if setting is None:
        raise BadInput(f"unknown setting {key!r}: known settings are {', '.join(sorted(SETTINGS))}")
    if setting.module not in rules:
        raise RuleRefused(
            f"setting {key} belongs to the {setting.module} rules, which this campaign "
            f"does not run (it runs {', '.join(rules) or 'no modules'})"
        )
    value = value.strip()
    if setting.choices and value not in setting.choices:
        raise BadInput(f"{key} must be one of {', '.join(setting.choices)}, not {value!r}")
    if setting.choices is None and not (value.isascii() and value.isdigit() and int(value) < 100):
        raise BadInput(f"{key} takes a whole number from 0 to 99, not {value!r}")
    return str(int(value)) if value.isascii() and value.isdigit() else value


def parse_rules(text: str) -> list[str]:
    rules = [r.strip().lower() for r in text.split(",") if r.strip()]
    unknown = [r for r in rules if r not in MODULES]
    if unknown:
        raise BadInput(f"unknown rules module {unknown[0]!r}: choose from {', '.join(MODULES)}")
    if len(set(rules)) != len(rules):
        raise BadInput("a rules module is named twice in --rules")
    return [m for m in MODULES if m in rules]
