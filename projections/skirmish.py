"""The skirmish read model: luck, character level, hero stats and skills,
wounds, renown, clothing."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from ledger.envelope import Envelope
from ledger.rules.skirmish import CLOTHING, WOUND_EFFECTS
from ledger.names import key
from projections.frozen import replace


@dataclass(frozen=True)
class Skirmisher:
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


@dataclass(frozen=True)
class Skirmishers:
    people: dict[str, Skirmisher] = field(default_factory=dict)

    def of(self, character: str) -> Skirmisher:
        return self.people.get(key(character), Skirmisher())


def _update(state: Skirmishers, name: str, **changes) -> Skirmishers:
    return Skirmishers({**state.people, key(name): replace(state.of(name), **changes)})


def _heal(s: Skirmisher, number: int, state: str) -> tuple[dict, ...]:
    return tuple({**w, "state": state} if w["number"] == number else w for w in s.wounds)


# The event types apply folds; the world hands it no others.
TYPES = frozenset({"luck.changed", "skirmish.level_set", "skirmish.stat_set", "skirmish.skill_set",
                   "wound.rolled", "wound.healing", "renown.changed", "clothing.worn"})


def apply(state: Skirmishers, e: Envelope) -> Skirmishers:
    p, t = e.payload, e.type
    if t == "luck.changed":
        return _update(state, p["character"], luck=min(p["cap"], state.of(p["character"]).luck + p["delta"]))
    if t == "skirmish.level_set":
        return _update(state, p["character"], level=p["level"])
    if t == "skirmish.stat_set":
        return _update(state, p["character"], stats={**state.of(p["character"]).stats, p["stat"]: p["value"]})
    if t == "skirmish.skill_set":
        return _update(state, p["character"], skills={**state.of(p["character"]).skills, p["skill"]: p["rating"]})
    if t == "wound.rolled":
        wound = {"number": p["wound"], "result": p["result"],
                 "state": "healed_clean" if p["result"] == "recovered" else "unhealed"}
        return _update(state, p["character"], wounds=state.of(p["character"]).wounds + (wound,))
    if t == "wound.healing" and p["result"] in ("healed", "healed_clean"):
        return _update(state, p["character"], wounds=_heal(state.of(p["character"]), p["wound"], p["result"]))
    if t == "renown.changed":
        return _update(state, p["character"], renown=state.of(p["character"]).renown + p["delta"])
    if t == "clothing.worn":
        return _update(state, p["character"], clothing=p["clothing"], renown_modifier=p["renown_modifier"])
    return state
