"""The wolves read model (000, the band): characteristics, silver pennies,
companions, hirelings and their wages, boasts, and the band's ships."""

from __future__ import annotations

from typing import Optional

from msgspec import Struct, field
from msgspec.structs import replace

from ledger.envelope import Envelope
from ledger.rules.wolves import SHIPS, companions_allowed
from ledger.names import key
from projections.handlers import Table, entry


SHARED_LANGUAGE = "the speech of their erstwhile captors, half known (000 l.53)"
SHARED_LANGUAGES = 1


class Raider(Struct, frozen=True):
    characteristics: dict[str, int] = field(default_factory=dict)
    hit_dice: int = 0
    hp: int = 0
    attack_bonus: int = 0
    languages: int = 0
    half_known: int = 0  # languages 'half known' (l.52)
    gear: tuple[str, ...] = ()  # what was bought, at the start and since
    silver: int = 0
    companions: tuple[str, ...] = ()
    hirelings: dict[str, dict] = field(default_factory=dict)  # name -> kind, wage, hired, dismissed
    wages_paid: int = 0
    boast: Optional[dict] = None
    barred: bool = False  # shirked a boast: may never boast again (l.265)
    level_dice: tuple[tuple[int, int], ...] = ()  # (level, HP rolled) of each xp level's Hit Die (002 l.103)

    def wages_earned(self, today: int) -> int:
        return sum(h["wage"] * ((h["dismissed"] if h["dismissed"] is not None else today) - h["hired"])
                   for h in self.hirelings.values())

    def wages_owed(self, today: int) -> int:
        return self.wages_earned(today) - self.wages_paid

    def daily_wages(self) -> int:
        """What the hirelings in service earn in a day."""
        return sum(h["wage"] for h in self.hirelings.values() if h["dismissed"] is None)

    def view(self, today: int) -> dict:
        bonus = self.boast or {}
        owed = self.wages_owed(today)
        supported = companions_allowed(self.silver)
        return {
            **{k.lower(): v for k, v in self.characteristics.items()},
            "hit_dice": self.hit_dice + (bonus.get("bonus", 0) if bonus.get("reward") == "hit_dice" else 0),
            "attack_bonus": self.attack_bonus + (bonus.get("bonus", 0) if bonus.get("reward") == "attack_bonus" else 0),
            "hp": self.hp + bonus.get("hp", 0), "languages": self.languages,
            # l.53: "All characters should share at least one 'half known language' - the speech of their
            # erstwhile captors": the band's, besides the 1d6/2 rolled (and any half left by languages_rounding)
            "half_known_languages": self.half_known + SHARED_LANGUAGES, "shared_language": SHARED_LANGUAGE,
            "gear": list(self.gear), "silver": self.silver, "companions": list(self.companions),
            "companions_supported": supported, "companions_unsupported": max(0, len(self.companions) - supported),
            "hirelings": [{"name": n, "kind": h["kind"], "wage": h["wage"],
                           "days": (h["dismissed"] if h["dismissed"] is not None else today) - h["hired"],
                           "active": h["dismissed"] is None} for n, h in self.hirelings.items()],
            "wages_owed": owed, "wages_paid": self.wages_paid, "wages_shortfall": max(0, owed - self.silver),
            "boast": dict(self.boast) if self.boast else None, "may_boast": not self.barred,
        }


class Band(Struct, frozen=True):
    raiders: dict[str, Raider] = field(default_factory=dict)
    ships: tuple[dict, ...] = ()
    kept_boasts: dict[str, dict] = field(default_factory=dict)  # bonuses that stay (kept boasts)

    def of(self, character: str) -> Raider:
        return self.raiders.get(key(character), Raider())

    def ship(self, name: str) -> Optional[dict]:
        return next((s for s in self.ships if key(s["name"]) == key(name)), None)

    def ship_list(self, today: int) -> list[dict]:
        """The band's ships, with the seed's figures for their kind (l.284-298) and the
        day the food they came with runs out at the rate of the hands aboard then."""
        return [{**s, **{f: SHIPS[s["kind"]][f] for f in ("hd", "speed", "river", "crew", "beached")},
                 "food_until": s["day"] + s["food_days"], "food_left": max(0, s["day"] + s["food_days"] - today)}
                for s in self.ships]


def _update(state: Band, name: str, **changes) -> Band:
    return replace(state, raiders={**state.raiders, key(name): replace(state.of(name), **changes)})


TABLE = Table("wolves")


@TABLE.on("wolves.outfitted", line=lambda p: f"{p['character']}: STR {p['strength']} AGI {p['agility']} "
          f"CON {p['constitution']}, {p['hp']} HP, {p['languages']} language(s)"
          + (f" and {p['half_known']} half known" if p["half_known"] else "")
          + f", {p['hacksilver']} hacksilver: {'; '.join(p['spent']) or 'nothing bought'}; {p['lost']} lost")
def _outfitted(state: Band, p: dict, e: Envelope) -> Band:
    return _update(state, p["character"], characteristics={
        "Strength": p["strength"], "Agility": p["agility"], "Constitution": p["constitution"]},
        hit_dice=p["hit_dice"], hp=p["hp"], attack_bonus=p["attack_bonus"], languages=p["languages"],
        half_known=p["half_known"], gear=state.of(p["character"]).gear + tuple(p["spent"]))


@TABLE.on("equipment.bought", line=lambda p: f"{p['character']} buys {'; '.join(p['spent'])} for {p['total']} sp")
def _bought(state: Band, p: dict, e: Envelope) -> Band:
    r = state.of(p["character"])
    return _update(state, p["character"], silver=r.silver - p["total"], gear=r.gear + tuple(p["spent"]))


# The stable's table describes these two; silver pennies (currency sp) are the band's.
@TABLE.on("treasure.divided")
def _divided(state: Band, p: dict, e: Envelope) -> Band:
    if p.get("currency") != "sp":
        return state
    for name, amount in p["shares"].items():
        state = _update(state, name, silver=state.of(name).silver + amount)
    return state


@TABLE.on("treasure.set_aside_paid")
def _set_aside_paid(state: Band, p: dict, e: Envelope) -> Band:
    if p.get("currency") != "sp":
        return state
    return _update(state, p["character"], silver=state.of(p["character"]).silver + p["cash"])


@TABLE.on("silver.changed", line=lambda p: f"{p['character']} {p['delta']:+d} sp: {p['why']}")
def _silver(state: Band, p: dict, e: Envelope) -> Band:
    return _update(state, p["character"], silver=state.of(p["character"]).silver + p["delta"])


def _companion_supported(world, p: dict, day: int) -> Optional[str]:
    raider = world.wolves.of(p["character"])
    supported = companions_allowed(raider.silver)
    if len(raider.companions) >= supported:
        return (f"{p['character']} would own {raider.silver} sp, which supports {supported} companion(s) "
                f"(000 l.248), and {len(raider.companions)} already follow: {p['name']} could not join")
    return None


@TABLE.on("companion.joined", line=lambda p: f"{p['name']} joins {p['character']} as a companion",
          premise=_companion_supported)
def _companion_joined(state: Band, p: dict, e: Envelope) -> Band:
    return _update(state, p["character"], companions=state.of(p["character"]).companions + (p["name"],))


@TABLE.on("companion.left", line=lambda p: f"{p['name']} leaves {p['character']}: {p['why']}")
def _companion_left(state: Band, p: dict, e: Envelope) -> Band:
    kept = tuple(c for c in state.of(p["character"]).companions if key(c) != key(p["name"]))
    return _update(state, p["character"], companions=kept)


def _wages_covered(world, p: dict, day: int) -> Optional[str]:
    if p["cover_days"] is None:  # schema 1: hired without the check
        return None
    raider = world.wolves.of(p["character"])
    needed = raider.wages_owed(day) + p["cover_days"] * (raider.daily_wages() + p["wage"])
    if raider.silver < needed:
        return (f"{p['character']} would have {raider.silver} sp, short of the {needed} that hiring {p['name']} "
                f"needed (wages owed and {p['cover_days']} day(s) of every wage, 000 l.250)")
    return None


@TABLE.on("hireling.hired", line=lambda p: f"{p['character']} hires {p['name']} ({p['kind']}, {p['wage']} sp a day)",
          premise=_wages_covered)
def _hired(state: Band, p: dict, e: Envelope) -> Band:
    r = state.of(p["character"])
    hired = {"kind": p["kind"], "wage": p["wage"], "hired": e.game_time, "dismissed": None}
    return _update(state, p["character"], hirelings={**r.hirelings, p["name"]: hired})


@TABLE.on("hireling.dismissed", line=lambda p: f"{p['character']} dismisses {p['name']} after {p['days']} days "
          f"({p['wages_due']} sp earned)")
def _dismissed(state: Band, p: dict, e: Envelope) -> Band:
    r = state.of(p["character"])
    gone = {**entry(r.hirelings, p["name"], f"hireling {p['name']}"), "dismissed": e.game_time}
    return _update(state, p["character"], hirelings={**r.hirelings, p["name"]: gone})


@TABLE.on("wages.paid", line=lambda p: f"{p['character']} pays {p['amount']} sp in wages")
def _wages_paid(state: Band, p: dict, e: Envelope) -> Band:
    r = state.of(p["character"])
    return _update(state, p["character"], wages_paid=r.wages_paid + p["amount"], silver=r.silver - p["amount"])


def _may_boast(world, p: dict, day: int) -> Optional[str]:
    raider = world.wolves.of(p["character"])
    if raider.barred:
        return f"{p['character']} would have shirked a boast before, and may never boast again (000 l.265)"
    if raider.boast is not None:
        return f"{p['character']} would already have a boast pending ({raider.boast.get('boast')}): one at a time"
    return None


@TABLE.on("boast.made", line=lambda p: f"{p['character']} boasts: {p['boast']} "
          f"(+{p['bonus']} {p['reward'].replace('_', ' ')}" + (f", {p['hp']} HP" if p["hp"] else "") + ")"
          + (f", taken up from {p['passed_from']}" if p["passed_from"] else ""), premise=_may_boast)
def _boasted(state: Band, p: dict, e: Envelope) -> Band:
    return _update(state, p["character"], boast={"boast": p["boast"], "reward": p["reward"], "bonus": p["bonus"],
                                                 "hp": p["hp"]})


def _boast_pending(world, p: dict, day: int) -> Optional[str]:
    pending = world.wolves.of(p["character"]).boast
    if pending is None or pending.get("boast") != p["boast"]:
        return f"{p['character']} would have no boast pending to resolve as {p['outcome']} ({p['boast']})"
    return None


@TABLE.on("boast.resolved", line=lambda p: f"{p['character']}'s boast {p['outcome']}: {p['boast']}",
          premise=_boast_pending)
def _resolved(state: Band, p: dict, e: Envelope) -> Band:
    r = state.of(p["character"])
    changes = {"boast": None, "barred": r.barred or p["outcome"] == "shirked"}
    if p["kept"]:  # a kept boast's bonus stays for good, and the HP its Hit Dice rolled
        field_name = p["reward"]
        changes[field_name] = getattr(r, field_name) + p["bonus"]
        changes["hp"] = r.hp + p["hp"]
    return _update(state, p["character"], **changes)


@TABLE.on("wolves.level_hit_die", line=lambda p: f"{p['character']}'s Hit Die for level {p['level']}: "
          f"d6 {p['hp']} HP (002 l.103, 000 l.49)")
def _level_die(state: Band, p: dict, e: Envelope) -> Band:
    r = state.of(p["character"])
    return _update(state, p["character"], hit_dice=r.hit_dice + 1, hp=r.hp + p["hp"],
                   level_dice=r.level_dice + ((p["level"], p["hp"]),))


@TABLE.on("level.lost")
def _level_lost(state: Band, p: dict, e: Envelope) -> Band:
    """A lost level takes its Hit Die, and the HP it rolled, with it (002 l.103: one per level)."""
    r = state.of(p["character"])
    gone = [hp for level, hp in r.level_dice if level > p["level"]]
    if not gone:
        return state
    return _update(state, p["character"], hit_dice=r.hit_dice - len(gone), hp=r.hp - sum(gone),
                   level_dice=tuple(d for d in r.level_dice if d[0] <= p["level"]))


@TABLE.on("ship.acquired", line=lambda p: f"{p['name']}, a {p['kind']} (value {p['value']} sp"
          + (f"; {p['by']} paid {p['price']} sp" if p["by"] else "")
          + f"), {p['rowers']} rowers, {p['food_days']} days of food: {p['how']}")
def _ship(state: Band, p: dict, e: Envelope) -> Band:
    state = replace(state, ships=state.ships + ({**p, "day": e.game_time},))
    if p["by"] is not None:
        state = _update(state, p["by"], silver=state.of(p["by"]).silver - p["price"])
    return state


def _ship_held(world, p: dict, day: int) -> Optional[str]:
    if world.wolves.ship(p["name"]) is None:
        when = world.campaign.calendar.format(day)
        return f"the band would not have {p['name']} on {when}: a ship is lost only while the band has it"
    return None


@TABLE.on("ship.lost", line=lambda p: f"{p['name']}, the band's {p['kind']}, is lost: {p['why']}",
          premise=_ship_held)
def _ship_lost(state: Band, p: dict, e: Envelope) -> Band:
    return replace(state, ships=tuple(s for s in state.ships if key(s["name"]) != key(p["name"])))


apply = TABLE.apply
