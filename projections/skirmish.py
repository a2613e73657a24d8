"""The skirmish read model: luck, character level, hero stats and skills,
wounds, renown, clothing."""

from __future__ import annotations

from typing import Optional

from msgspec import Struct, field
from msgspec.structs import replace

from ledger.envelope import Envelope
from ledger.rules import skirmish as skirmish_rules
from ledger.rules.skirmish import CLOTHING, WOUND_EFFECTS
from ledger.names import key
from projections.handlers import Table


class Skirmisher(Struct, frozen=True):
    luck: int = 0
    level: int = 1
    stats: dict[str, int] = field(default_factory=dict)  # hero stats, before wounds and clothing
    skills: dict[str, int] = field(default_factory=dict)  # skill -> its level, 1-6
    wounds: tuple[dict, ...] = ()  # {"number", "result", "state": unhealed|healed|healed_clean}
    renown: int = 0
    clothing: Optional[str] = None
    renown_modifier: int = 0

    def all_skills(self, at_creation: dict[str, int]) -> dict[str, int]:
        """The skills given at creation (`char new --skills`) and those set since."""
        return {**at_creation, **self.skills}

    def view(self, at_creation: Optional[dict[str, int]] = None) -> dict:
        return {"luck": self.luck, "skirmish_level": self.level, "stats": dict(self.stats),
                "skills": self.all_skills(at_creation or {}), "renown": self.renown,
                "effective_renown": self.renown + self.renown_modifier, "clothing": self.clothing,
                "clothing_effect": CLOTHING[self.clothing]["effect"] if self.clothing in CLOTHING else None,
                "wounds": [{**w, "effect": WOUND_EFFECTS[w["result"]][0 if w["state"] == "unhealed" else 1]
                            if w["state"] != "healed_clean" else "none"} for w in self.wounds]}


class Skirmishers(Struct, frozen=True):
    people: dict[str, Skirmisher] = field(default_factory=dict)

    def of(self, character: str) -> Skirmisher:
        return self.people.get(key(character), Skirmisher())


def _update(state: Skirmishers, name: str, **changes) -> Skirmishers:
    return Skirmishers({**state.people, key(name): replace(state.of(name), **changes)})


def _heal(s: Skirmisher, number: int, state: str) -> tuple[dict, ...]:
    return tuple({**w, "state": state} if w["number"] == number else w for w in s.wounds)


TABLE = Table("skirmish")


@TABLE.on("luck.changed", line=lambda p: f"{p['character']} luck {p['delta']:+d} ({p['reason']}, cap {p['cap']})"
          + (f": {p['mode'].replace('_', '-')} of roll {p['roll']}" if p.get("roll") else ""))
def _luck(state: Skirmishers, p: dict, e: Envelope) -> Skirmishers:
    return _update(state, p["character"], luck=min(p["cap"], state.of(p["character"]).luck + p["delta"]))


def _held(world, name: str) -> tuple[Skirmisher, dict[str, int]]:
    """A skirmisher and every skill it holds (those given at creation too)."""
    c = world.stable.character(name)
    s = world.skirmish.of(name)
    return s, s.all_skills(c.skills if c is not None else {})


def _level_allows_all(world, p: dict, day: int) -> Optional[str]:
    s, held = _held(world, p["character"])
    problem = skirmish_rules.beyond_level(s.stats, held, p["level"], world.campaign.settings, from_level=s.level)
    return f"at level {p['level']} {p['character']} would have {problem}" if problem else None


@TABLE.on("skirmish.level_set", line=lambda p: f"{p['character']} is level {p['level']}: {p['why']}",
          premise=_level_allows_all)
def _level(state: Skirmishers, p: dict, e: Envelope) -> Skirmishers:
    return _update(state, p["character"], level=p["level"])


def _level_allows_stat(world, p: dict, day: int) -> Optional[str]:
    s, _ = _held(world, p["character"])
    problem = skirmish_rules.beyond_level({p["stat"]: p["value"]}, {}, s.level, world.campaign.settings)
    return f"{p['character']} would be level {s.level}: {problem}" if problem else None


@TABLE.on("skirmish.stat_set", line=lambda p: f"{p['character']} {p['stat']} {p['value']}"
          + (f" (level {p['level']} cap {p['cap']})" if p["cap"] is not None else "")
          + (f": {p['why']}" if p["why"] else ""), premise=_level_allows_stat)
def _stat(state: Skirmishers, p: dict, e: Envelope) -> Skirmishers:
    return _update(state, p["character"], stats={**state.of(p["character"]).stats, p["stat"]: p["value"]})


def _level_allows_skill(world, p: dict, day: int) -> Optional[str]:
    s, held = _held(world, p["character"])
    if any(key(k) == key(p["skill"]) for k in held):
        return None
    problem = skirmish_rules.beyond_level({}, {**held, p["skill"]: p["rating"]}, s.level, world.campaign.settings)
    return f"{p['character']} would be level {s.level} with {problem}" if problem else None


@TABLE.on("skirmish.skill_set", line=lambda p: f"{p['character']} {p['skill']} {p['rating']}"
          + (f" (level {p['level']} allows {p['allowance']} skills)" if p["allowance"] is not None else "")
          + (f": {p['why']}" if p["why"] else ""), premise=_level_allows_skill)
def _skill(state: Skirmishers, p: dict, e: Envelope) -> Skirmishers:
    return _update(state, p["character"], skills={**state.of(p["character"]).skills, p["skill"]: p["rating"]})


@TABLE.on("wound.rolled",
          line=lambda p: f"{p['character']} wound {p['wound']}: {p['total']} = {p['result'].replace('_', ' ')}")
def _wounded(state: Skirmishers, p: dict, e: Envelope) -> Skirmishers:
    wound = {"number": p["wound"], "result": p["result"],
             "state": "healed_clean" if p["result"] == "recovered" else "unhealed"}
    return _update(state, p["character"], wounds=state.of(p["character"]).wounds + (wound,))


@TABLE.on("wound.healing", line=lambda p: f"{p['character']} healing wound {p['wound']}"
          + (f" by {p['healer']} (Healing {p['skill']}, +{p['bonus']})" if p["healer"] else "")
          + f": {p['total']} = {p['result'].replace('_', ' ')}")
def _healing(state: Skirmishers, p: dict, e: Envelope) -> Skirmishers:
    if p["result"] not in ("healed", "healed_clean"):
        return state
    return _update(state, p["character"], wounds=_heal(state.of(p["character"]), p["wound"], p["result"]))


@TABLE.on("renown.changed", line=lambda p: f"{p['character']} renown {p['delta']:+d}: {p['why']}")
def _renown(state: Skirmishers, p: dict, e: Envelope) -> Skirmishers:
    return _update(state, p["character"], renown=state.of(p["character"]).renown + p["delta"])


@TABLE.on("clothing.worn", line=lambda p: f"{p['character']} wears {p['clothing']} ({p['renown_modifier']:+d} Rn"
          + (f", {p['movement_modifier']:+d} M" if p["movement_modifier"] else "")
          + (f", {p['deadliness_modifier']:+d} deadliness against" if p["deadliness_modifier"] else "") + ")")
def _clothing(state: Skirmishers, p: dict, e: Envelope) -> Skirmishers:
    return _update(state, p["character"], clothing=p["clothing"], renown_modifier=p["renown_modifier"])


apply = TABLE.apply
