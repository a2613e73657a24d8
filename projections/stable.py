"""The stable read model: players, their characters, and each character's
sheet (status, boons, Cash, Wealth, HP and Bonus HP, Skills, Saves)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from ledger.envelope import Envelope
from ledger.rules.coeac import CLASS_RESOURCES, lifestyle
from ledger.names import key
from projections.frozen import replace


@dataclass(frozen=True)
class Character:
    name: str
    player: str
    status: str = "active"  # active | retired | dead
    char_class: Optional[str] = None
    skills: dict[str, int] = field(default_factory=dict)
    saves: dict[str, int] = field(default_factory=dict)
    max_hp: Optional[int] = None
    hp: Optional[int] = None  # current HP (l.84); 0 is down and out (l.100)
    bonus_hp: int = 0  # the temporary pool that takes damage first (l.88)
    boons: int = 0
    boons_unchosen: int = 0  # gained in play and not yet chosen from a list (l.503)
    boon_choices: tuple[dict, ...] = ()  # {"list", "kind", "target"}, in order
    specialties: tuple[str, ...] = ()  # Specialty Classes unlocked (l.532)
    resources: dict[str, int] = field(default_factory=dict)  # Class Resource -> points now (l.500)
    resource_max: dict[str, int] = field(default_factory=dict)
    cash: int = 0
    wealth: int = 0
    created_at: int = 0
    created_day: int = 0
    wealth_periods: frozenset[str] = frozenset()
    followers: tuple[tuple[str, bool], ...] = ()  # (name, granted by a Feat)
    vacancies: tuple[dict, ...] = ()  # Feat positions lost: {"lost", "ready_day", "lost_at"}

    @property
    def lifestyle(self) -> str:
        return lifestyle(self.wealth)

    def sheet(self) -> dict:
        return {"name": self.name, "player": self.player, "status": self.status,
                "class": self.char_class, "specialties": list(self.specialties),
                "resources": {r: {"current": n, "max": self.resource_max[r]} for r, n in self.resources.items()},
                "boons": self.boons, "boons_unchosen": self.boons_unchosen,
                "boon_choices": [dict(b) for b in self.boon_choices], "cash": self.cash, "wealth": self.wealth,
                "lifestyle": self.lifestyle, "max_hp": self.max_hp, "hp": self.hp, "bonus_hp": self.bonus_hp,
                "down_and_out": self.hp == 0, "skills": dict(self.skills),
                "saves": dict(self.saves), "followers": [n for n, _ in self.followers],
                "follower_vacancies": [dict(v) for v in self.vacancies]}


@dataclass(frozen=True)
class Player:
    name: str
    characters: tuple[str, ...] = ()
    legacies: tuple[dict, ...] = ()  # retirements waiting for the next new character
    owed_boons: int = 0
    set_aside: int = 0


@dataclass(frozen=True)
class Stable:
    players: dict[str, Player] = field(default_factory=dict)
    characters: dict[str, Character] = field(default_factory=dict)

    def character(self, name: str) -> Optional[Character]:
        return self.characters.get(key(name))

    def player(self, name: str) -> Optional[Player]:
        return self.players.get(key(name))


def _char(state: Stable, name: str, **changes) -> Stable:
    k = key(name)
    return replace(state, characters={**state.characters, k: replace(state.characters[k], **changes)})


def _player(state: Stable, name: str, **changes) -> Stable:
    k = key(name)
    return replace(state, players={**state.players, k: replace(state.players[k], **changes)})


def _add(state: Stable, name: str, **deltas) -> Stable:
    c = state.characters[key(name)]
    return _char(state, name, **{f: getattr(c, f) + d for f, d in deltas.items()})


def _retired(state: Stable, p: dict) -> Stable:
    state = _char(state, p["name"], status="retired")
    legacy = {"from": p["name"], "skill_points": p["skill_points"], "wealth_ranks": p["wealth_ranks"]}
    return _player(state, p["player"], legacies=state.players[key(p["player"])].legacies + (legacy,))


def _wealth_attempted(state: Stable, p: dict) -> Stable:
    c = state.characters[key(p["character"])]
    return _char(state, p["character"], cash=c.cash - p["wager"],
                 wealth=c.wealth + 1 if p["succeeded"] else c.wealth,
                 wealth_periods=c.wealth_periods | {p["period"]})


def _divided(state: Stable, p: dict) -> Stable:
    if p.get("currency", "cash") == "cash":  # silver pennies are the band's (projections/wolves.py)
        for name, cash in p["shares"].items():
            state = _add(state, name, cash=cash)
    for name, cash in p["set_aside"].items():
        state = _player(state, name, set_aside=state.players[key(name)].set_aside + cash)
    return state


def _set_aside_paid(state: Stable, p: dict) -> Stable:
    state = _player(state, p["player"], set_aside=state.players[key(p["player"])].set_aside - p["cash"])
    return _add(state, p["character"], cash=p["cash"]) if p.get("currency", "cash") == "cash" else state


def _rated(field_name: str, rating: str):
    """One point off a Save or Skill, never below 0, from the rating the fold holds."""
    def handler(state: Stable, p: dict) -> Stable:
        if p[rating] is None:  # nothing rated to lose (trauma_pick rated)
            return state
        ratings = getattr(state.characters[key(p["character"])], field_name)
        lowered = max(0, ratings.get(p[rating], 0) - 1)
        return _char(state, p["character"], **{field_name: {**ratings, p[rating]: lowered}})
    return handler


def _max_hp_changed(state: Stable, p: dict) -> Stable:
    c = state.characters[key(p["character"])]
    top = c.max_hp + p["delta"]
    # A lower maximum takes current HP down with it; a higher one heals nothing.
    return _char(state, p["character"], max_hp=top, hp=None if c.hp is None else min(c.hp, top))


def _rested(state: Stable, p: dict) -> Stable:
    c = state.characters[key(p["character"])]
    if p["kind"] == "long":  # l.116: "all of your lost Hit Points"
        resources = dict(c.resource_max) if p.get("resources_rule") == "full" else c.resources
        return _char(state, p["character"], hp=c.max_hp, resources=resources)
    resources = c.resources
    if p.get("resource"):  # l.115: "a point of the Class Resource of their choice"
        resources = {**resources, p["resource"]: resources[p["resource"]] + p["resource_gained"]}
    return _char(state, p["character"], hp=c.hp + p["healed"], resources=resources)


def _boon_spent(state: Stable, p: dict) -> Stable:
    c = state.characters[key(p["character"])]
    changes = {"boons_unchosen": c.boons_unchosen - 1,
               "boon_choices": c.boon_choices + ({"list": p["boon_list"], "kind": p["kind"], "target": p["target"]},)}
    if p["kind"] in ("skill", "save"):
        field_name = p["kind"] + "s"
        ratings = getattr(c, field_name)
        changes[field_name] = {**ratings, p["target"]: ratings.get(p["target"], 0) + 1}
    return _char(state, p["character"], **changes)


def _unlocked(state: Stable, p: dict) -> Stable:
    c = state.characters[key(p["character"])]
    state = _char(state, p["character"], specialties=c.specialties + (p["specialty"],))
    return _pool(state, p["character"], p["resource"]) if p["resource"] else state


def _pool(state: Stable, name: str, resource: str) -> Stable:
    """A Class Resource the character now has, empty until its size is set."""
    c = state.characters[key(name)]
    if resource in c.resource_max:
        return state
    return _char(state, name, resources={**c.resources, resource: 0}, resource_max={**c.resource_max, resource: 0})


def _resource_max(state: Stable, p: dict) -> Stable:
    c = state.characters[key(p["character"])]
    r, top = p["resource"], p["maximum"]
    now = c.resources.get(r, 0) + top - c.resource_max.get(r, 0)  # a bigger pool comes with its new points
    return _char(state, p["character"], resource_max={**c.resource_max, r: top},
                 resources={**c.resources, r: max(0, min(top, now))})


def _resource(state: Stable, p: dict) -> Stable:
    c = state.characters[key(p["character"])]
    r = p["resource"]
    return _char(state, p["character"], resources={**c.resources, r: c.resources[r] + p["delta"]})


def _follower_gained(state: Stable, p: dict) -> Stable:
    c = state.characters[key(p["character"])]
    vacancies = tuple(v for v in c.vacancies if v["lost"] != p.get("refills"))
    return _char(state, p["character"], followers=c.followers + ((p["name"], p["feat"]),), vacancies=vacancies)


def _follower_lost(state: Stable, p: dict) -> Stable:
    c = state.characters[key(p["character"])]
    followers = tuple(f for f in c.followers if key(f[0]) != key(p["name"]))
    vacancies = c.vacancies + (({"lost": p["name"], "ready_day": p["ready_day"]},) if p["feat"] else ())
    return _char(state, p["character"], followers=followers, vacancies=vacancies)


_HANDLERS = {
    "follower.gained": _follower_gained,
    "follower.lost": _follower_lost,
    "player.added": lambda s, p: replace(s, players={**s.players, key(p["name"]): Player(p["name"])}),
    "character.died": lambda s, p: _char(s, p["character"], status="dead"),
    "character.retired": _retired,
    "cash.changed": lambda s, p: _add(s, p["character"], cash=p["delta"]),
    "income.rolled": lambda s, p: _add(s, p["character"], cash=p["successes"]),
    "wealth.attempted": _wealth_attempted,
    "item.bought": lambda s, p: _add(s, p["character"], cash=-p["cash_spent"]),
    "item.sold": lambda s, p: _add(s, p["character"], cash=p["cash_gained"]),
    "stronghold.attempted": lambda s, p: s if p["by"] == "company" else _add(s, p["by"], cash=-p["wager"]),
    "treasury.paid": lambda s, p: _add(s, p["character"], cash=p["amount"]),
    "cash.given": lambda s, p: _add(_add(s, p["character"], cash=-p["amount"]), p["to"], cash=p["amount"]),
    "commodity.converted": lambda s, p: _add(s, p["character"], cash=p["cash"]),
    "treasury.funded": lambda s, p: _add(s, p["character"], cash=-p["amount"]),
    "treasure.divided": _divided,
    "treasure.set_aside_paid": _set_aside_paid,
    "boon.gained": lambda s, p: _add(s, p["character"], boons=1, boons_unchosen=1),
    "boon.spent": _boon_spent,
    "specialty.unlocked": _unlocked,
    "resource.max_set": _resource_max,
    "resource.changed": _resource,
    "boon.owed": lambda s, p: _player(s, p["player"], owed_boons=s.players[key(p["player"])].owed_boons + 1),
    "hp.max_changed": _max_hp_changed,
    "hp.damaged": lambda s, p: _add(s, p["character"], bonus_hp=-p["from_bonus"], hp=-p["from_hp"]),
    "hp.healed": lambda s, p: _add(s, p["character"], hp=p["healed"]),
    "hp.bonus_gained": lambda s, p: _add(s, p["character"], bonus_hp=p["amount"]),
    "hp.bonus_expired": lambda s, p: _char(s, p["character"], bonus_hp=0),
    "rest.taken": _rested,
    "save.lost": _rated("saves", "save"),
    "skill.reduced": _rated("skills", "skill"),
}


def reacts_to(event_type: str) -> bool:
    """Whether apply can change the stable for this event type (the world folds only those)."""
    return event_type == "character.created" or event_type in _HANDLERS


def apply(state: Stable, e: Envelope) -> Stable:
    if e.type == "character.created":
        state = _created(state, e.payload, e.position)
        return _char(state, e.payload["name"], created_day=e.game_time)
    handler = _HANDLERS.get(e.type)
    return handler(state, e.payload) if handler else state


def _created(state: Stable, p: dict, position: int) -> Stable:
    opening = p.get("opening", {})
    skills = dict(p.get("skills", {}))
    for skill in p.get("inherited_skills", []):
        skills[skill] = skills.get(skill, 0) + 1
    character = Character(
        name=p["name"], player=p["player"], char_class=p.get("char_class"), skills=skills,
        saves=dict(p.get("saves", {})), max_hp=p.get("max_hp"), hp=p.get("max_hp"),
        boons=opening.get("boons", 0) + p.get("owed_boons", 0), boons_unchosen=p.get("owed_boons", 0),
        cash=opening.get("cash", 0), wealth=opening.get("wealth", 0) + p.get("inherited_wealth", 0),
        created_at=position,
    )
    state = replace(state, characters={**state.characters, key(p["name"]): character})
    core = CLASS_RESOURCES.get(p.get("char_class") or "")
    if core:  # l.524-530: each core class has its Class Resource
        state = _pool(state, p["name"], core)
    player = state.players[key(p["player"])]
    legacies = player.legacies[1:] if p.get("inherited_from") else player.legacies
    return _player(state, p["player"], characters=player.characters + (p["name"],), legacies=legacies,
                   owed_boons=player.owed_boons - p.get("owed_boons", 0))
