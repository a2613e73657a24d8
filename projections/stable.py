"""The stable read model: players, their characters, and each character's
sheet (status, boons, Cash, Wealth, HP and Bonus HP, Skills, Saves)."""

from __future__ import annotations

from typing import Optional

from msgspec import Struct, field
from msgspec.structs import replace

from ledger.envelope import Envelope
from ledger.rules.coeac import CLASS_RESOURCES, lifestyle
from ledger.names import key
from projections.handlers import Table, entry, with_period


class Character(Struct, frozen=True):
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
    wealth_periods: tuple[str, ...] = ()  # sorted (handlers.with_period)
    followers: tuple[tuple[str, bool], ...] = ()  # (name, granted by a Feat)
    vacancies: tuple[dict, ...] = ()  # Feat positions lost: {"lost", "ready_day", "lost_at"}
    # Who failed to give medical aid since the character last went down (004 l.25, Let It Ride):
    # any change to their HP or a roll on the table is a new situation, and clears it.
    aid_failed_by: tuple[str, ...] = ()

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


class Player(Struct, frozen=True):
    name: str
    characters: tuple[str, ...] = ()
    legacies: tuple[dict, ...] = ()  # retirements waiting for the next new character
    owed_boons: int = 0
    set_aside: int = 0


class Stable(Struct, frozen=True):
    players: dict[str, Player] = field(default_factory=dict)
    characters: dict[str, Character] = field(default_factory=dict)

    def character(self, name: str) -> Optional[Character]:
        return self.characters.get(key(name))

    def player(self, name: str) -> Optional[Player]:
        return self.players.get(key(name))


def _char(state: Stable, name: str, **changes) -> Stable:
    k = key(name)
    return replace(state, characters={**state.characters, k: replace(entry(state.characters, k, f"character {name}"), **changes)})


def _player(state: Stable, name: str, **changes) -> Stable:
    k = key(name)
    return replace(state, players={**state.players, k: replace(entry(state.players, k, f"player {name}"), **changes)})


def _add(state: Stable, name: str, **deltas) -> Stable:
    c = entry(state.characters, key(name), f"character {name}")
    return _char(state, name, **{f: getattr(c, f) + d for f, d in deltas.items()})


TABLE = Table("stable")


# -- players and characters ---------------------------------------------------

@TABLE.on("player.added", line=lambda p: f"player {p['name']} joins the table")
def _player_added(state: Stable, p: dict, e: Envelope) -> Stable:
    return replace(state, players={**state.players, key(p["name"]): Player(p["name"])})


@TABLE.on("character.created", line=lambda p: f"{p['name']} joins {p['player']}'s stable" + (
    f" (opening {', '.join(f'{k} {v}' for k, v in p['opening'].items())})" if p.get("opening") else "") + (
    f" inheriting from {p['inherited_from']}" if p.get("inherited_from") else ""))
def _created(state: Stable, p: dict, e: Envelope) -> Stable:
    opening = p.get("opening", {})
    skills = dict(p.get("skills", {}))
    for skill in p.get("inherited_skills", []):
        skills[skill] = skills.get(skill, 0) + 1
    character = Character(
        name=p["name"], player=p["player"], char_class=p.get("char_class"), skills=skills,
        saves=dict(p.get("saves", {})), max_hp=p.get("max_hp"), hp=p.get("max_hp"),
        boons=opening.get("boons", 0) + p.get("owed_boons", 0), boons_unchosen=p.get("owed_boons", 0),
        cash=opening.get("cash", 0), wealth=opening.get("wealth", 0) + p.get("inherited_wealth", 0),
        created_at=e.position,
    )
    state = replace(state, characters={**state.characters, key(p["name"]): character})
    core = CLASS_RESOURCES.get(p.get("char_class") or "")
    if core:  # l.524-530: each core class has its Class Resource
        state = _pool(state, p["name"], core)
    player = entry(state.players, key(p["player"]), f"player {p['player']}")
    legacies = player.legacies[1:] if p.get("inherited_from") else player.legacies
    state = _player(state, p["player"], characters=player.characters + (p["name"],), legacies=legacies,
                    owed_boons=player.owed_boons - p.get("owed_boons", 0))
    return _char(state, p["name"], created_day=e.game_time)


@TABLE.on("character.died", line=lambda p: f"{p['character']} dies: {p['cause']}")
def _died(state: Stable, p: dict, e: Envelope) -> Stable:
    return _char(state, p["character"], status="dead")


def _faction_roll_held(world, p: dict, day: int) -> Optional[str]:
    """004 l.518: "if the result is greater than your Reputation", +1. A late
    Reputation change before the retirement that turns the comparison breaks
    it; one that leaves it standing changes nothing the roll decided."""
    if p.get("faction_roll") is None:
        return None
    total, then, now = p["faction_roll"], p["rep_before"], world.company.rep(p["rep_faction"])
    if (total > now) == (total > then):
        return None
    gives = "+1 it did not give" if total > now else "no +1, though it gave one"
    return (f"{p['name']}'s faction roll of {total} would meet Reputation {now:+d} with {p['rep_faction']}, "
            f"not {then:+d}: {gives} (004 l.518)")


@TABLE.on("character.retired", line=lambda p: f"{p['name']} retires ({p['boons']} Boons, Wealth {p['wealth']})",
          premise=_faction_roll_held)
def _retired(state: Stable, p: dict, e: Envelope) -> Stable:
    state = _char(state, p["name"], status="retired")
    legacy = {"from": p["name"], "skill_points": p["skill_points"], "wealth_ranks": p["wealth_ranks"]}
    return _player(state, p["player"], legacies=entry(state.players, key(p["player"]), f"player {p['player']}").legacies + (legacy,))


# -- Cash and Wealth ----------------------------------------------------------------

def _wealth_figure(field: str):
    """The premise of a roll decided on the character's Wealth, recorded under ``field``."""
    def premise(world, p: dict, day: int) -> Optional[str]:
        c = world.stable.character(p["character"])
        if c is not None and c.wealth != p[field]:
            return f"{c.name}'s Wealth would be {c.wealth}, not {p[field]} as the roll was decided on"
        return None
    return premise


@TABLE.on("cash.changed", line=lambda p: f"{p['character']} Cash {p['delta']:+d}: {p['why']}")
def _cash_changed(state: Stable, p: dict, e: Envelope) -> Stable:
    return _add(state, p["character"], cash=p["delta"])


@TABLE.on("income.rolled", line=lambda p: f"{p['character']} Income: {p['successes']} Cash" + (
    f" from {p['wealth_dice'] + p['economy_dice']} dice" if p["wealth_dice"] + p["economy_dice"]
    else " (no dice: Wealth 0 and no Economy tags)"), premise=_wealth_figure("wealth_dice"))
def _income(state: Stable, p: dict, e: Envelope) -> Stable:
    return _add(state, p["character"], cash=p["successes"])


def _wealth_attempt(world, p: dict, day: int) -> Optional[str]:
    c = world.stable.character(p["character"])
    if c is None:
        return None
    if c.wealth != p["rank_from"]:
        return f"{c.name}'s Wealth would be {c.wealth}, not {p['rank_from']} as the attempt was decided on"
    if p["period"] in c.wealth_periods:
        return f"{c.name} would have two Wealth attempts in {p['period']} (one per session, 004 l.171)"
    return None


@TABLE.on("wealth.attempted", line=lambda p: f"{p['character']} Wealth {p['rank_from']} -> {p['rank_from'] + 1}, "
          f"Ob {p['ob']}, {p['successes']} successes: {'gained' if p['succeeded'] else 'failed'} "
          f"({p['wager']} Cash wagered)", premise=_wealth_attempt)
def _wealth_attempted(state: Stable, p: dict, e: Envelope) -> Stable:
    c = entry(state.characters, key(p["character"]), f"character {p['character']}")
    return _char(state, p["character"], cash=c.cash - p["wager"],
                 wealth=c.wealth + 1 if p["succeeded"] else c.wealth,
                 wealth_periods=with_period(c.wealth_periods, p["period"]))


@TABLE.on("item.bought", line=lambda p: f"{p['character']} {'buys' if p['succeeded'] else 'fails to buy'} "
          f"{p['item']} (Ob {p['ob']}, {p['rule']}, {p['cash_spent']} Cash spent)", premise=_wealth_figure("wealth"))
def _bought(state: Stable, p: dict, e: Envelope) -> Stable:
    return _add(state, p["character"], cash=-p["cash_spent"])


@TABLE.on("item.sold", line=lambda p: f"{p['character']} sells {p['item']} for {p['cash_gained']} Cash",
          premise=_wealth_figure("wealth"))
def _sold(state: Stable, p: dict, e: Envelope) -> Stable:
    return _add(state, p["character"], cash=p["cash_gained"])


@TABLE.on("cash.given", line=lambda p: f"{p['character']} gives {p['amount']} Cash to {p['to']}: {p['why']}")
def _cash_given(state: Stable, p: dict, e: Envelope) -> Stable:
    return _add(_add(state, p["character"], cash=-p["amount"]), p["to"], cash=p["amount"])


# Folded here for the spender's Cash; the Company's table describes them and holds their premises.
@TABLE.on("stronghold.attempted")
def _stronghold_wager(state: Stable, p: dict, e: Envelope) -> Stable:
    return state if p["by"] == "company" else _add(state, p["by"], cash=-p["wager"])


@TABLE.on("treasury.paid")
def _paid_from_treasury(state: Stable, p: dict, e: Envelope) -> Stable:
    return _add(state, p["character"], cash=p["amount"])


@TABLE.on("treasury.funded")
def _funded_treasury(state: Stable, p: dict, e: Envelope) -> Stable:
    return _add(state, p["character"], cash=-p["amount"])


# The inventory's table describes it: the item leaves the pack and its Cash comes here.
@TABLE.on("commodity.converted")
def _converted(state: Stable, p: dict, e: Envelope) -> Stable:
    return _add(state, p["character"], cash=p["cash"])


@TABLE.on("treasure.divided", line=lambda p: "treasure divided: " + ", ".join(
    f"{k} {v}" for k, v in {**p["shares"], **p["set_aside"], **p.get("companions", {})}.items()))
def _divided(state: Stable, p: dict, e: Envelope) -> Stable:
    if p.get("currency", "cash") == "cash":  # silver pennies are the band's (projections/wolves.py)
        for name, cash in p["shares"].items():
            state = _add(state, name, cash=cash)
    for name, cash in p["set_aside"].items():
        state = _player(state, name, set_aside=entry(state.players, key(name), f"player {name}").set_aside + cash)
    return state


@TABLE.on("treasure.set_aside_paid",
          line=lambda p: f"{p['character']} receives {p['cash']} Cash set aside for {p['player']}")
def _set_aside_paid(state: Stable, p: dict, e: Envelope) -> Stable:
    state = _player(state, p["player"], set_aside=entry(state.players, key(p["player"]), f"player {p['player']}").set_aside - p["cash"])
    return _add(state, p["character"], cash=p["cash"]) if p.get("currency", "cash") == "cash" else state


# -- Boons, Specialty Classes and Class Resources -------------------------------------

@TABLE.on("boon.gained", line=lambda p: f"{p['character']} gains a Boon ({p['reason']})")
def _boon_gained(state: Stable, p: dict, e: Envelope) -> Stable:
    return _add(state, p["character"], boons=1, boons_unchosen=1)


@TABLE.on("boon.owed", line=lambda p: f"{p['died']}'s Boon waits for {p['player']}'s next new character")
def _boon_owed(state: Stable, p: dict, e: Envelope) -> Stable:
    return _player(state, p["player"], owed_boons=entry(state.players, key(p["player"]), f"player {p['player']}").owed_boons + 1)


@TABLE.on("boon.spent", line=lambda p: f"{p['character']} chooses a Boon from the {p['boon_list']} list: "
          + (f"{p['target']} {p['before']} -> {p['before'] + 1}" if p["kind"] != "feat" else p["target"]))
def _boon_spent(state: Stable, p: dict, e: Envelope) -> Stable:
    c = entry(state.characters, key(p["character"]), f"character {p['character']}")
    changes = {"boons_unchosen": c.boons_unchosen - 1,
               "boon_choices": c.boon_choices + ({"list": p["boon_list"], "kind": p["kind"], "target": p["target"]},)}
    if p["kind"] in ("skill", "save"):
        field_name = p["kind"] + "s"
        ratings = getattr(c, field_name)
        changes[field_name] = {**ratings, p["target"]: ratings.get(p["target"], 0) + 1}
    return _char(state, p["character"], **changes)


@TABLE.on("specialty.unlocked", line=lambda p: f"{p['character']} unlocks the {p['specialty']} Specialty Class"
          + (f" (Class Resource {p['resource']})" if p["resource"] else "") + f": {p['why']}")
def _unlocked(state: Stable, p: dict, e: Envelope) -> Stable:
    c = entry(state.characters, key(p["character"]), f"character {p['character']}")
    state = _char(state, p["character"], specialties=c.specialties + (p["specialty"],))
    return _pool(state, p["character"], p["resource"]) if p["resource"] else state


def _pool(state: Stable, name: str, resource: str) -> Stable:
    """A Class Resource the character now has, empty until its size is set."""
    c = entry(state.characters, key(name), f"character {name}")
    if resource in c.resource_max:
        return state
    return _char(state, name, resources={**c.resources, resource: 0}, resource_max={**c.resource_max, resource: 0})


@TABLE.on("resource.max_set", line=lambda p: f"{p['character']}'s {p['resource']} pool {p['before']} -> "
          f"{p['maximum']}: {p['why']}")
def _resource_max(state: Stable, p: dict, e: Envelope) -> Stable:
    c = entry(state.characters, key(p["character"]), f"character {p['character']}")
    r, top = p["resource"], p["maximum"]
    now = c.resources.get(r, 0) + top - c.resource_max.get(r, 0)  # a bigger pool comes with its new points
    return _char(state, p["character"], resource_max={**c.resource_max, r: top},
                 resources={**c.resources, r: max(0, min(top, now))})


@TABLE.on("resource.changed", line=lambda p: f"{p['character']} {'spends' if p['delta'] < 0 else 'regains'} "
          f"{abs(p['delta'])} {p['resource']}: {p['why']}")
def _resource(state: Stable, p: dict, e: Envelope) -> Stable:
    c = entry(state.characters, key(p["character"]), f"character {p['character']}")
    r = p["resource"]
    return _char(state, p["character"], resources={**c.resources, r: c.resources[r] + p["delta"]})


# -- Followers ------------------------------------------------------------------------

@TABLE.on("follower.gained", line=lambda p: f"{p['name']} follows {p['character']}" + (" (Feat)" if p["feat"] else "")
          + (f", replacing {p['refills']}" if p.get("refills") else ""))
def _follower_gained(state: Stable, p: dict, e: Envelope) -> Stable:
    c = entry(state.characters, key(p["character"]), f"character {p['character']}")
    vacancies = tuple(v for v in c.vacancies if v["lost"] != p.get("refills"))
    return _char(state, p["character"], followers=c.followers + ((p["name"], p["feat"]),), vacancies=vacancies)


@TABLE.on("follower.lost", line=lambda p: f"{p['character']} loses {p['name']}: {p['why']}")
def _follower_lost(state: Stable, p: dict, e: Envelope) -> Stable:
    c = entry(state.characters, key(p["character"]), f"character {p['character']}")
    followers = tuple(f for f in c.followers if key(f[0]) != key(p["name"]))
    vacancies = c.vacancies + (({"lost": p["name"], "ready_day": p["ready_day"]},) if p["feat"] else ())
    return _char(state, p["character"], followers=followers, vacancies=vacancies)


# -- Hit Points, rests and what harm takes away -----------------------------------

@TABLE.on("hp.max_changed", line=lambda p: f"{p['character']} max HP {p['delta']:+d}")
def _max_hp_changed(state: Stable, p: dict, e: Envelope) -> Stable:
    c = entry(state.characters, key(p["character"]), f"character {p['character']}")
    top = c.max_hp + p["delta"]
    # A lower maximum takes current HP down with it; a higher one heals nothing.
    return _char(state, p["character"], max_hp=top, hp=None if c.hp is None else min(c.hp, top))


def _damage_line(p: dict) -> str:
    took = f"{p['character']} takes {p['damage']} damage"
    parts = [f"{p['from_bonus']} from Bonus HP"] if p["from_bonus"] else []
    parts.append(f"HP {p['hp_before']} -> {p['hp_before'] - p['from_hp']}")
    if p["hp_before"] == 0:
        parts.append("struck while down and out: the table again (004 l.100)")
    elif p["hp_before"] - p["from_hp"] == 0:
        parts.append("down and out (004 l.100)")
    return f"{took} ({', '.join(parts)}): {p['why']}"


@TABLE.on("hp.damaged", line=_damage_line)
def _damaged(state: Stable, p: dict, e: Envelope) -> Stable:
    return _new_situation(_add(state, p["character"], bonus_hp=-p["from_bonus"], hp=-p["from_hp"]), p)


@TABLE.on("hp.healed", line=lambda p: f"{p['character']} regains {p['healed']} HP: {p['why']}")
def _healed(state: Stable, p: dict, e: Envelope) -> Stable:
    return _new_situation(_add(state, p["character"], hp=p["healed"]), p)


def _new_situation(state: Stable, p: dict) -> Stable:
    c = entry(state.characters, key(p["character"]), f"character {p['character']}")
    return _char(state, p["character"], aid_failed_by=()) if c.aid_failed_by else state


@TABLE.on("medical_aid.rolled", line=lambda p: (
    f"{p['by']} gives {p['character']} medical aid: {p['successes']} of Ob {p['ob']} on {p['pool']} dice, "
    + ("the Down and Out table follows" if p["succeeded"] else "failed")))
def _aid_rolled(state: Stable, p: dict, e: Envelope) -> Stable:
    if p["succeeded"]:
        return state
    c = entry(state.characters, key(p["character"]), f"character {p['character']}")
    return _char(state, p["character"], aid_failed_by=c.aid_failed_by + (p["by"],))


@TABLE.on("down_and_out.rolled", line=lambda p: (
    f"{p['character']} Down and Out {p['total']}: {p['result'].replace('_', ' ')}"))
def _table_rolled(state: Stable, p: dict, e: Envelope) -> Stable:
    return _new_situation(state, p)


@TABLE.on("hp.bonus_gained", line=lambda p: f"{p['character']} gains {p['amount']} Bonus HP: {p['why']}")
def _bonus_gained(state: Stable, p: dict, e: Envelope) -> Stable:
    return _add(state, p["character"], bonus_hp=p["amount"])


@TABLE.on("hp.bonus_expired", line=lambda p: f"{p['character']}'s {p['lost']} Bonus HP expire: {p['why']}")
def _bonus_expired(state: Stable, p: dict, e: Envelope) -> Stable:
    return _char(state, p["character"], bonus_hp=0)


def _rest_line(p: dict) -> str:
    what = [f"+{p['healed']} HP"]
    if p.get("resource_gained"):
        what.append(f"+{p['resource_gained']} {p['resource']}")
    if p.get("resources_rule") == "full":
        what.append("Class Resources restored")
    if p.get("rations"):
        what.append(f"spends {p['rations']}")
    return f"{p['character']} takes a {p['kind']} rest: {', '.join(what)}"


@TABLE.on("rest.taken", line=_rest_line)
def _rested(state: Stable, p: dict, e: Envelope) -> Stable:
    state = _new_situation(state, p)
    c = entry(state.characters, key(p["character"]), f"character {p['character']}")
    if p["kind"] == "long":  # l.116: "all of your lost Hit Points"
        resources = dict(c.resource_max) if p.get("resources_rule") == "full" else c.resources
        return _char(state, p["character"], hp=c.max_hp, resources=resources)
    resources = c.resources
    if p.get("resource"):  # l.115: "a point of the Class Resource of their choice"
        resources = {**resources, p["resource"]: resources[p["resource"]] + p["resource_gained"]}
    return _char(state, p["character"], hp=c.hp + p["healed"], resources=resources)


def _rated(field_name: str, rating: str):
    """One point off a Save or Skill, never below 0, from the rating the fold holds."""
    def fold(state: Stable, p: dict, e: Envelope) -> Stable:
        if p[rating] is None:  # nothing rated to lose (trauma_pick rated)
            return state
        ratings = getattr(entry(state.characters, key(p["character"]), f"character {p['character']}"), field_name)
        lowered = max(0, ratings.get(p[rating], 0) - 1)
        return _char(state, p["character"], **{field_name: {**ratings, p[rating]: lowered}})
    return fold


TABLE.add("save.lost", _rated("saves", "save"),
          line=lambda p: f"{p['character']} {p['save']} -1 (was {p['before']})" if p["save"] else
          f"{p['character']}: no Save rated above 0, nothing lost (trauma_pick {p['pick']})")
TABLE.add("skill.reduced", _rated("skills", "skill"),
          line=lambda p: f"{p['character']} {p['skill']} -1 (was {p['before']})" if p["skill"] else
          f"{p['character']}: no other Skill rated above 0, nothing lost (trauma_pick {p['pick']})")

apply = TABLE.apply
