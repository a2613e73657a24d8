"""The gods read model (001, divine standing): each character's alignment, each
worshipper's god, marks, banked crawling bonus, prayers, repentances,
punishments due, battles lost and what they cost."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Optional

from ledger.envelope import Envelope
from ledger.rules import gods
from ledger.settings import in_force
from ledger.names import key
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
    repented: bool = False  # a later repentance reads the table at a higher PR (relapse_power)
    probation: bool = False  # repented, and no black mark since: the next one is a relapse (l.905)
    bonus: int = 0  # banked by accepted crawling prayers (crawl_bonus says how long it lasts)
    prayer_days: tuple[int, ...] = ()
    clean_since: int = 0  # the day of the last black mark (or of adoption)
    support: Optional[int] = None  # an answered plea (its position) no battle has yet been fought over
    support_day: int = 0
    lost_to: Optional[dict] = None  # the battle just lost and the victor's god, open to conversion
    penalty: int = 0  # A.T. and D.T. lost in battles of gods, not yet regained (l.956)
    punishments_due: tuple[tuple[int, int], ...] = ()  # (check position, black marks) a check called for

    @property
    def marks(self) -> int:
        """Marks for the prayer tables: black and grey alike (l.875)."""
        return self.black + self.grey

    def repentance_power(self, rule: str) -> int:
        return gods.relapse_power(self.power, rule) if self.repented else self.power

    def repentance_marks(self, rule: str) -> int:
        """Table 2.7's row: black marks (its heading, l.883), or black and grey (l.875)."""
        return self.marks if rule == "black_and_grey" else self.black

    def prayers_within(self, day: int) -> int:
        return sum(1 for d in self.prayer_days if day - gods.CRAWL_WINDOW_DAYS < d <= day)

    def supported_on(self, day: int) -> Optional[int]:
        """The answered plea a battle of gods that day would be fought over (l.935), or None."""
        return self.support if self.support is not None and self.support_day == day else None


@dataclass(frozen=True)
class Divine:
    standings: dict[str, Standing] = field(default_factory=dict)
    alignments: dict[str, str] = field(default_factory=dict)  # character key -> its own alignment

    def of(self, character: str) -> Optional[Standing]:
        return self.standings.get(key(character))

    def alignment_of(self, character: str) -> Optional[str]:
        return self.alignments.get(key(character))


def _update(state: Divine, name: str, **changes) -> Divine:
    k = key(name)
    return replace(state, standings={**state.standings, k: replace(state.standings[k], **changes)})


def reacts_to(event_type: str) -> bool:
    return event_type.startswith("god.") or event_type == "alignment.chosen"


def _prayed(s: Standing, p: dict, e: Envelope) -> dict:
    spent = p["modifiers"].get("crawling_bonus", 0) if p["crawl_bonus"] == "next_plea" else 0
    supported = p["outcome"] in ("answered", "joined")
    return {"prayer_days": s.prayer_days + (e.game_time,), "bonus": s.bonus - spent, "lost_to": None,
            "support": e.position if supported else None, "support_day": e.game_time}


def _battled(state: Divine, p: dict, e: Envelope) -> Divine:
    winner, loser = state.of(p["winner"]), state.of(p["loser"])
    if winner is None or loser is None:
        return state
    for side in (winner, loser):  # the pleas are fought over, and any earlier defeat is past converting
        state = _update(state, side.character, support=None, lost_to=None)
    victor = {"battle": e.position, "god": winner.god, "power": winner.power, "alignment": winner.alignment,
              "flatterable": winner.flatterable, "sacrifice": winner.sacrifice}
    return _update(state, loser.character, lost_to=victor, penalty=loser.penalty + p["penalty"])


def _converted(s: Standing, p: dict, e: Envelope) -> dict:
    changes = {"god": p["god"], "power": p["power"], "alignment": p["alignment"], "flatterable": p["flatterable"],
               "sacrifice": p["sacrifice"], "adopted_day": e.game_time, "repented": False, "probation": False,
               "bonus": 0, "support": None, "lost_to": None, "punishments_due": ()}
    if p["marks"] == "clear":  # the new god has seen none of it: a clean start, as at adoption
        changes.update(black=0, grey=0, clean_since=e.game_time)
    return changes


def apply(state: Divine, e: Envelope) -> Divine:
    p, t = e.payload, e.type
    if t == "alignment.chosen":
        return replace(state, alignments={**state.alignments, key(p["character"]): p["alignment"]})
    if t == "god.adopted":
        standing = Standing(p["character"], p["god"], p["power"], p["alignment"], p["flatterable"],
                            p["sacrifice"], adopted_day=e.game_time, clean_since=e.game_time)
        return replace(state, standings={**state.standings, key(p["character"]): standing})
    if t == "god.battle":
        return _battled(state, p, e)
    if not t.startswith("god.") or key(p["character"]) not in state.standings:
        return state
    s = state.standings[key(p["character"])]
    if t == "god.black_mark":
        return _update(state, s.character, black=s.black + 1, clean_since=e.game_time, probation=False,
                       bonus=s.bonus - p["bonus_lost"])
    if t == "god.grey_marks":
        return _update(state, s.character, grey=s.grey + p["count"])
    if t == "god.prayed":
        return _update(state, s.character, **_prayed(s, p, e))
    if t == "god.crawled":
        changes = {"prayer_days": s.prayer_days + (e.game_time,)}
        if p["effect"] == "removed_black_mark":
            changes["black"] = s.black - 1
        elif p["effect"] == "banked_bonus":
            changes["bonus"] = s.bonus + p["bonus"]
        return _update(state, s.character, **changes)
    if t == "god.repented" and p["accepted"]:
        return _update(state, s.character, black=0, repented=True, probation=True)
    if t == "god.sacrificed":
        return _update(state, s.character, black=s.black - p["black"], grey=s.grey - p["grey"])
    if t == "god.punishment_checked" and p["punished"]:
        return _update(state, s.character, punishments_due=s.punishments_due + ((e.position, p["black"]),))
    if t == "god.punished":
        return _update(state, s.character, punishments_due=tuple(d for d in s.punishments_due if d[0] != p["check"]))
    if t == "god.converted":
        return _update(state, s.character, **_converted(s, p, e))
    if t == "god.recovered":
        return _update(state, s.character, penalty=s.penalty - p["penalty"])
    return state


def distinct_days(spans: Iterable[tuple[int, int]], since: int, until: int) -> int:
    """Days covered by any of the spans (both ends counted) between two days:
    a session that starts on the day the last one ended adds that day once."""
    total, reached = 0, since - 1  # the last day already counted
    for start, end in sorted(spans):
        low, high = max(start, reached + 1), min(end, until)
        if high >= low:
            total += high - low + 1
            reached = high
    return total


def active_days(sessions, character: str, since: int, until: int) -> int:
    """In-game days the character spent on expeditions (sessions it was
    activated in) between two days, both counted, each day once (001 l.976)."""
    return distinct_days(sessions.expeditions(character, until), since, until)


def odds(world, name: str) -> dict:
    """What `tally god odds` shows for a worshipper, as of the world's today."""
    s = world.gods.of(name)
    campaign = world.campaign
    settings = campaign.settings
    today = campaign.today
    active = active_days(world.sessions, s.character, s.clean_since, today)
    dormant = max(0, today - s.clean_since + 1 - active)
    clock = in_force(settings, "manifestation_clock")
    prayers = s.prayers_within(today)
    relapse, marks_rule = in_force(settings, "relapse_power"), in_force(settings, "repentance_marks")
    repent_marks = s.repentance_marks(marks_rule)
    return {
        "character": s.character, "god": s.god, "power": s.power, "alignment": s.alignment,
        "character_alignment": world.gods.alignment_of(s.character),
        "black_marks": s.black, "grey_marks": s.grey,
        "prayer_chance": gods.prayer_chance(s.marks, s.power), "crawling_bonus": s.bonus,
        "crawl_bonus_rule": in_force(settings, "crawl_bonus"),
        "answer_grade_table_row": gods.answer_grade_row(s.marks),
        "crawl_chance": gods.crawling_chance(prayers, s.power) if s.flatterable else None,
        "prayers_last_week": prayers,
        "repent_needs": gods.repentance_needs(repent_marks, s.repentance_power(relapse),
                                              in_force(settings, "repentance_beyond_table")) if s.black else None,
        "repent_power": s.repentance_power(relapse), "repent_marks": repent_marks,
        "punishment_threshold": gods.punishment_threshold(s.power),
        "punishments_due": [{"check": c, "black_marks": b} for c, b in s.punishments_due],
        "relapse_check_armed": s.probation,
        "battle_penalty": s.penalty, "may_convert_to": s.lost_to["god"] if s.lost_to else None,
        "manifestation_eligible": gods.manifestation_eligible(active, dormant, campaign.calendar.year_days, clock),
        "clean_active_days": active, "clean_dormant_days": dormant, "manifestation_clock": clock,
    }
