"""The divine-standing read model: each worshipper's god, marks, banked
crawling bonus, prayers and repentances."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from ledger.envelope import Envelope
from ledger.rules import gods
from projections.names import key
from projections.frozen import replace


@dataclass(frozen=True)
class Standing:
    character: str
    god: str
    power: int
    alignment: str
    flatterable: bool
    sacrifice: str
    adopted_day: int
    black: int = 0
    grey: int = 0
    repented: bool = False  # a later repentance reads the table at PR + 3
    bonus: int = 0  # banked by an accepted crawling prayer, for the next plea
    prayer_days: tuple[int, ...] = ()
    clean_since: int = 0  # the day of the last black mark (or of adoption)

    @property
    def marks(self) -> int:
        """Marks for the prayer tables: black and grey alike (l.875)."""
        return self.black + self.grey

    @property
    def repentance_power(self) -> int:
        return gods.relapse_power(self.power) if self.repented else self.power

    def prayers_within(self, day: int) -> int:
        return sum(1 for d in self.prayer_days if day - gods.CRAWL_WINDOW_DAYS < d <= day)


@dataclass(frozen=True)
class Divine:
    standings: dict[str, Standing] = field(default_factory=dict)

    def of(self, character: str) -> Optional[Standing]:
        return self.standings.get(key(character))


def _update(state: Divine, name: str, **changes) -> Divine:
    k = key(name)
    return Divine({**state.standings, k: replace(state.standings[k], **changes)})


def reacts_to(event_type: str) -> bool:
    return event_type.startswith("god.")


def apply(state: Divine, e: Envelope) -> Divine:
    p, t = e.payload, e.type
    if t == "god.adopted":
        standing = Standing(p["character"], p["god"], p["power"], p["alignment"], p["flatterable"],
                            p["sacrifice"], adopted_day=e.game_time, clean_since=e.game_time)
        return Divine({**state.standings, key(p["character"]): standing})
    if not t.startswith("god.") or key(p["character"]) not in state.standings:
        return state
    s = state.standings[key(p["character"])]
    if t == "god.black_mark":
        return _update(state, s.character, black=s.black + 1, clean_since=e.game_time)
    if t == "god.grey_marks":
        return _update(state, s.character, grey=s.grey + p["count"])
    if t == "god.prayed":
        used = p["modifiers"].get("crawling_bonus", 0)
        return _update(state, s.character, prayer_days=s.prayer_days + (e.game_time,), bonus=s.bonus - used)
    if t == "god.crawled":
        changes = {"prayer_days": s.prayer_days + (e.game_time,)}
        if p["effect"] == "removed_black_mark":
            changes["black"] = s.black - 1
        elif p["effect"] == "banked_bonus":
            changes["bonus"] = s.bonus + p["bonus"]
        return _update(state, s.character, **changes)
    if t == "god.repented" and p["accepted"]:
        return _update(state, s.character, black=0, repented=True)
    if t == "god.sacrificed":
        return _update(state, s.character, black=s.black - p["black"], grey=s.grey - p["grey"])
    return state


def active_days(sessions, character: str, since: int, until: int) -> int:
    """In-game days the character spent on expeditions (sessions it was
    activated in) between two days, both counted."""
    total = 0
    for start, end in sessions.expeditions(character, until):
        low, high = max(start, since), min(end, until)
        if high >= low:
            total += high - low + 1
    return total


def odds(world, name: str) -> dict:
    """What `tally god odds` shows for a worshipper, as of the world's today."""
    s = world.divine.of(name)
    campaign = world.campaign
    today = campaign.today
    active = active_days(world.sessions, s.character, s.clean_since, today)
    dormant = max(0, today - s.clean_since + 1 - active)
    clock = campaign.settings.get("manifestation_clock", "weighted")
    prayers = s.prayers_within(today)
    return {
        "character": s.character, "god": s.god, "power": s.power, "black_marks": s.black, "grey_marks": s.grey,
        "prayer_chance": gods.prayer_chance(s.marks, s.power), "crawling_bonus": s.bonus,
        "answer_grade_table_row": gods.answer_grade_row(s.marks),
        "crawl_chance": gods.crawling_chance(prayers, s.power) if s.flatterable else None,
        "prayers_last_week": prayers,
        "repent_needs": gods.repentance_needs(s.black, s.repentance_power) if s.black else None,
        "repent_power": s.repentance_power,
        "punishment_threshold": gods.punishment_threshold(s.power),
        "manifestation_eligible": gods.manifestation_eligible(active, dormant, campaign.calendar.year_days, clock),
        "clean_active_days": active, "clean_dormant_days": dormant, "manifestation_clock": clock,
    }
