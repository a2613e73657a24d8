"""The skirmish read model: luck, character level, wounds, renown, clothing."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from ledger.envelope import Envelope
from ledger.rules.skirmish import WOUND_EFFECTS
from projections.names import key
from projections.frozen import replace


@dataclass(frozen=True)
class Skirmisher:
    luck: int = 0
    level: int = 1
    wounds: tuple[dict, ...] = ()  # {"number", "result", "state": unhealed|healed|healed_clean}
    renown: int = 0
    clothing: Optional[str] = None
    renown_modifier: int = 0

    def view(self) -> dict:
        return {"luck": self.luck, "skirmish_level": self.level, "renown": self.renown,
                "effective_renown": self.renown + self.renown_modifier, "clothing": self.clothing,
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
TYPES = frozenset({"luck.changed", "skirmish.level_set", "wound.rolled", "wound.healing", "renown.changed",
                   "clothing.worn"})


def apply(state: Skirmishers, e: Envelope) -> Skirmishers:
    p, t = e.payload, e.type
    if t == "luck.changed":
        return _update(state, p["character"], luck=min(p["cap"], state.of(p["character"]).luck + p["delta"]))
    if t == "skirmish.level_set":
        return _update(state, p["character"], level=p["level"])
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
