"""The xp read model (002, the xp module): XP, attained level, the pending
level waiting for safe time, hit dice, areas of expertise, the open vow,
and treasure whose XP waits until it is spent (treasure_xp spent)."""

from __future__ import annotations

from typing import Optional

from msgspec import Struct, field
from msgspec.structs import replace

from ledger.dice.check import SYMBOL
from ledger.envelope import Envelope
from ledger.rules.xp import expertise_claims, level_for
from ledger.names import key
from projections.handlers import Table, with_period


class Progress(Struct, frozen=True):
    xp: int = 0
    level: int = 1
    highest: int = 1  # the highest level ever attained: a level regained brings no new claim
    vow: Optional[str] = None
    vows_counted: tuple[str, ...] = ()  # where a fulfilled vow used up the limit (sorted)
    hd_spent: int = 0
    expertise: tuple[tuple[str, str], ...] = ()  # (area, attribute)
    twelves: int = 0  # skill rolls of 12: each grants new expertise (002 l.179)
    expertise_periods: tuple[str, ...] = ()  # where expertise was applied, once per session (sorted)
    treasure: int = 0  # units of treasure divided to the character whose XP is not yet given
    attributes: dict[str, int] = field(default_factory=dict)  # STR, INT… scores (002 l.21-24)

    @property
    def pending_level(self) -> Optional[int]:
        earned = level_for(self.xp)
        return earned if earned > self.level else None

    @property
    def hit_dice_left(self) -> int:
        """One hit die per level (002 l.103), less those spent; a lost level takes its die with it."""
        return max(0, self.level - self.hd_spent)

    @property
    def expertise_claims(self) -> int:
        return expertise_claims(self.highest, self.twelves)

    def area(self, name: str) -> Optional[tuple[str, str]]:
        return next((a for a in self.expertise if key(a[0]) == key(name)), None)

    def view(self) -> dict:
        return {"attributes": dict(self.attributes), "xp": self.xp, "level": self.level, "pending_level": self.pending_level, "vow": self.vow,
                "level_hit_dice": self.level, "hit_dice_left": self.hit_dice_left,
                "expertise": {area: attribute for area, attribute in self.expertise},
                "expertise_unclaimed": max(0, self.expertise_claims - len(self.expertise)),
                "treasure_unspent": self.treasure}


def hit_dice(world, name: str) -> tuple[int, int]:
    """(Hit Dice held, left to spend). Under the xp rules alone, one per level (002 l.103); with the Wolves
    rules too, the one count on the Wolves sheet: the starting die, each level's die since, and a boast's
    dice (000 l.49, l.270)."""
    progress = world.xp.of(name)
    if world.campaign.runs("wolves") and key(name) in world.wolves.raiders:
        held = world.wolves.of(name).view(world.campaign.today)["hit_dice"]
        return held, max(0, held - progress.hd_spent)
    return progress.level, progress.hit_dice_left


class Advancement(Struct, frozen=True):
    progress: dict[str, Progress] = field(default_factory=dict)

    def of(self, character: str) -> Progress:
        return self.progress.get(key(character), Progress())


def _update(state: Advancement, name: str, **changes) -> Advancement:
    return Advancement({**state.progress, key(name): replace(state.of(name), **changes)})


TABLE = Table("xp")


def _treasure_spent(world, p: dict, day: int) -> Optional[str]:
    if p.get("treasure_rule") != "spent":
        return None
    held = world.xp.of(p["character"]).treasure
    if held < p["treasure"]:
        return f"{p['character']} would hold {held} unit(s) of unspent treasure, not the {p['treasure']} spent"
    return None


@TABLE.on("xp.awarded", line=lambda p: f"{p['character']} {p['amount']:+d} XP ({p['source']}): {p['why']}",
          premise=_treasure_spent)
def _awarded(state: Advancement, p: dict, e: Envelope) -> Advancement:
    current = state.of(p["character"])
    # Treasure's XP given (when seized or when spent) leaves that much treasure with none to come.
    held = current.treasure - (p["treasure"] or 0) if p["source"] == "treasure" else current.treasure
    return _update(state, p["character"], xp=current.xp + p["amount"], treasure=held)


# The stable's table describes a division; here its units are treasure whose XP may wait to be spent.
@TABLE.on("treasure.divided")
def _divided(state: Advancement, p: dict, e: Envelope) -> Advancement:
    for name, units in p["shares"].items():
        state = _update(state, name, treasure=state.of(name).treasure + units)
    return state


def _expertise_applied(world, p: dict, day: int) -> Optional[str]:
    progress = world.xp.of(p["character"])
    if p["expertise"] is None:
        return None
    if progress.area(p["expertise"]) is None:
        return f"{p['character']} would have no expertise in {p['expertise']}"
    if p["period"] in progress.expertise_periods:
        return f"{p['character']} would call on expertise twice in {p['period']} (once per session, 002 l.94)"
    return None


@TABLE.on("skill.rolled", line=lambda p: f"{p['character']} {p['attribute']} skill roll {p['natural']}"
          f"{p['modifier'] + p['hit_die']:+d} = {p['total']}: {p['result']}"
          + (f" (expertise: {p['expertise']})" if p["expertise"] else "") + f" — {p['why']}",
          premise=_expertise_applied)
def _skill(state: Advancement, p: dict, e: Envelope) -> Advancement:
    current = state.of(p["character"])
    changes = {}
    if p["expertise"] is not None:
        changes["expertise_periods"] = with_period(current.expertise_periods, p["period"])
    if p["result"] == "extraordinary":
        changes["twelves"] = current.twelves + 1
    return _update(state, p["character"], **changes) if changes else state


def _tested_line(p: dict) -> str:
    c = p["check"]
    base = p["unit"] == "dice" or p["rules"] == "skirmish"  # the first part is the pool or the score itself
    made = ", ".join(f"{part['what']} {part['value']}" if base and not i else f"{part['what']} {part['value']:+d}"
                     for i, part in enumerate(p["parts"])) or "no modifiers"
    reading = f"{p['natural']}" + (f" → {p['total']}" if p["total"] != p["natural"] else "")
    outcome = (f"{'passed' if c['passed'] else 'failed'} by {abs(c['margin'])}" if c["margin"]
               else ("passed" if c["passed"] else "failed") + " at the mark")
    extra = "".join(f", {x}" for x in (p.get("result"), c.get("band")) if x)
    target = f"Ob {c['target']}" if c["against"] == "ob" else f"{SYMBOL[c['against']]} {c['target']}"
    return (f"{p['character']} tests {p['trait']} ({p['seed']}): {made}; {p['expression']} {reading} "
            f"against {target}: {outcome}{extra}" + (f" — {p['why']}" if p.get("why") else ""))


def _sheet_read(world, p: dict, day: int) -> Optional[str]:
    """The sheet's figures a test was formed from must still stand when a fact is logged before it."""
    name = p["character"]
    for figure, value in p.get("sheet", {}).items():
        if p["rules"] == "coeac":
            c = world.stable.character(name)
            now = None if c is None else (c.skills if p["kind"] == "skill" else c.saves).get(figure, 0)
        elif p["rules"] == "xp":
            now = world.xp.of(name).attributes.get(figure)
        elif p["rules"] == "skirmish":
            now = world.skirmish.of(name).stats.get(figure)
        else:
            now = world.wolves.of(name).characteristics.get(figure)
        if now != value:
            return f"{name}'s {figure} would be {now}, not {value} as the test of {p['trait']} was formed on"
    return None


# Every ruleset's test is described here; only 002's changes a figure: a skill roll of 12 grants new expertise.
@TABLE.on("trait.tested", line=_tested_line, premise=_sheet_read)
def _tested(state: Advancement, p: dict, e: Envelope) -> Advancement:
    if p["rules"] != "xp" or p.get("result") != "extraordinary":
        return state
    return _update(state, p["character"], twelves=state.of(p["character"]).twelves + 1)


@TABLE.on("attributes.set", line=lambda p: f"{p['character']}'s attributes: "
          + ", ".join(f"{a} {v}" + (f" (was {p['before'][a]})" if a in p.get("before", {}) else "")
                      for a, v in p["scores"].items()) + (f" — {p['why']}" if p.get("why") else ""))
def _attributes(state: Advancement, p: dict, e: Envelope) -> Advancement:
    return _update(state, p["character"], attributes={**state.of(p["character"]).attributes, **p["scores"]})


def _level_attained(world, p: dict, day: int) -> Optional[str]:
    progress = world.xp.of(p["character"])
    level = progress.level
    if p["level"] != level + 1:
        return f"{p['character']} would be level {level}, so this is not level {p['level']} attained next"
    if level_for(progress.xp) < p["level"]:
        return f"{p['character']} would have {progress.xp} XP, too few for level {p['level']}"
    current = world.sessions.current
    if current is not None and current.is_activated(p["character"]):
        return f"{p['character']} would be out on session {current.number}'s expedition: levels only in safe time"
    return None


@TABLE.on("level.attained", line=lambda p: f"{p['character']} attains level {p['level']}: {p['benefit']}",
          premise=_level_attained)
def _attained(state: Advancement, p: dict, e: Envelope) -> Advancement:
    current = state.of(p["character"])
    return _update(state, p["character"], level=p["level"], highest=max(current.highest, p["level"]))


def _level_lost(world, p: dict, day: int) -> Optional[str]:
    level = world.xp.of(p["character"]).level
    if level != p["from_level"]:
        return f"{p['character']} would be level {level}, not the level {p['from_level']} it was decided to lose"
    return None


@TABLE.on("level.lost", line=lambda p: f"{p['character']} falls to level {p['level']} (from {p['from_level']}) "
          f"at {p['xp']} XP", premise=_level_lost)
def _lost(state: Advancement, p: dict, e: Envelope) -> Advancement:
    current = state.of(p["character"])  # the lost levels take unspent dice first: those spent stay spent
    return _update(state, p["character"], level=p["level"], hd_spent=min(current.hd_spent, p["level"]))


def _hit_dice_left(world, p: dict, day: int) -> Optional[str]:
    left = hit_dice(world, p["character"])[1]
    if left < p["count"]:
        return f"{p['character']} would have {left} hit dice left, too few to spend {p['count']}"
    return None


@TABLE.on("hit_dice.spent", line=lambda p: f"{p['character']} spends {p['count']} hit dice on a {p['on']} "
          f"({p['left']} left before): {p['why']}", premise=_hit_dice_left)
def _spent(state: Advancement, p: dict, e: Envelope) -> Advancement:
    return _update(state, p["character"], hd_spent=state.of(p["character"]).hd_spent + p["count"])


@TABLE.on("hit_dice.restored",
          line=lambda p: f"{p['character']} regains {p['count']} hit dice ({p['how'].replace('_', ' ')})")
def _restored(state: Advancement, p: dict, e: Envelope) -> Advancement:
    return _update(state, p["character"], hd_spent=max(0, state.of(p["character"]).hd_spent - p["count"]))


def _expertise_gained(world, p: dict, day: int) -> Optional[str]:
    progress = world.xp.of(p["character"])
    if len(progress.expertise) >= progress.expertise_claims:
        return (f"{p['character']} would already hold all {progress.expertise_claims} area(s) of expertise "
                "its level and skill rolls allow")
    if progress.area(p["area"]) is not None:
        return f"{p['character']} would already have expertise in {p['area']}"
    return None


@TABLE.on("expertise.gained", line=lambda p: f"{p['character']} gains expertise: {p['area']} ({p['attribute']}), "
          f"{p['held'] + 1} of {p['claims']}", premise=_expertise_gained)
def _expertise(state: Advancement, p: dict, e: Envelope) -> Advancement:
    current = state.of(p["character"])
    return _update(state, p["character"], expertise=current.expertise + ((p["area"], p["attribute"]),))


def _one_vow(world, p: dict, day: int) -> Optional[str]:
    open_vow = world.xp.of(p["character"]).vow
    if open_vow is not None:
        return f"{p['character']} would already hold an open vow ({open_vow}): one at a time"
    return None


@TABLE.on("vow.sworn", line=lambda p: f"{p['character']} swears: {p['vow']}", premise=_one_vow)
def _sworn(state: Advancement, p: dict, e: Envelope) -> Advancement:
    return _update(state, p["character"], vow=p["vow"])


@TABLE.on("vow.abandoned", line=lambda p: f"{p['character']} abandons the vow: {p['vow']}")
def _abandoned(state: Advancement, p: dict, e: Envelope) -> Advancement:
    return _update(state, p["character"], vow=None)


@TABLE.on("vow.fulfilled", line=lambda p: f"{p['character']} fulfils the vow ({p['xp']} XP): {p['vow']}")
def _fulfilled(state: Advancement, p: dict, e: Envelope) -> Advancement:
    current = state.of(p["character"])
    return _update(state, p["character"], vow=None, vows_counted=with_period(current.vows_counted, p["counted_in"]))


apply = TABLE.apply
