"""The gods read model (001, divine standing): each character's alignment, each
worshipper's god, marks, banked crawling bonus, prayers, repentances,
punishments due, battles lost and what they cost."""

from __future__ import annotations

from typing import Callable, Iterable, Optional

from msgspec import Struct, field
from msgspec.structs import replace

from ledger.envelope import Envelope
from ledger.rules import gods
from ledger.settings import in_force
from ledger.names import key
from projections.handlers import Table, entry


class Standing(Struct, frozen=True):
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


class Divine(Struct, frozen=True):
    standings: dict[str, Standing] = field(default_factory=dict)
    alignments: dict[str, str] = field(default_factory=dict)  # character key -> its own alignment

    def of(self, character: str) -> Optional[Standing]:
        return self.standings.get(key(character))

    def alignment_of(self, character: str) -> Optional[str]:
        return self.alignments.get(key(character))


def _update(state: Divine, name: str, **changes) -> Divine:
    k = key(name)
    return replace(state, standings={**state.standings, k: replace(entry(state.standings, k, f"{name}'s god"), **changes)})


TABLE = Table("gods")


def _aligned(world, p: dict, day: int) -> Optional[str]:
    s = world.gods.of(p["character"])
    if s is not None and s.alignment != p["alignment"]:
        return f"{p['character']} would worship {s.god} ({s.alignment}): a worshipper keeps its god's alignment"
    return None


@TABLE.on("alignment.chosen", line=lambda p: f"{p['character']}'s alignment is {p['alignment']}", premise=_aligned)
def _chosen(state: Divine, p: dict, e: Envelope) -> Divine:
    return replace(state, alignments={**state.alignments, key(p["character"]): p["alignment"]})


def _adoption(world, p: dict, day: int) -> Optional[str]:
    held = world.gods.of(p["character"])
    if held is not None:
        return f"{p['character']} would already worship {held.god}"
    own = world.gods.alignment_of(p["character"])
    if p.get("character_alignment") is not None and own != p["character_alignment"]:
        return f"{p['character']}'s alignment would be {own}, not the {p['character_alignment']} {p['god']} matched"
    return gods.adoption_refused(world, p["character"], p["adoption"], day) if p.get("adoption") else None


@TABLE.on("god.adopted", line=lambda p: f"{p['character']} adopts {p['god']} (PR {p['power']}, {p['alignment']})",
          premise=_adoption)
def _adopted(state: Divine, p: dict, e: Envelope) -> Divine:
    standing = Standing(p["character"], p["god"], p["power"], p["alignment"], p["flatterable"],
                        p["sacrifice"], adopted_day=e.game_time, clean_since=e.game_time)
    return replace(state, standings={**state.standings, key(p["character"]): standing})


def _pleas(world, p: dict, day: int) -> Optional[str]:
    for who, plea in ((p["character"], p["plea"]), (p["opponent"], p["opponent_plea"])):
        s = world.gods.of(who)
        if plea is not None and s is not None and s.supported_on(day) != plea:
            return f"{who} would have no answered plea (event {plea}) left that day for the battle"
    return None


@TABLE.on("god.battle", line=lambda p: f"{p['god']} ({p['character']}) battles {p['opponent_god']} "
          f"({p['opponent']}) for {len(p['rounds'])} round(s): {p['winner']}'s god wins; {p['loser']} "
          f"A.T. and D.T. -{p['penalty']}", premise=_pleas)
def _battled(state: Divine, p: dict, e: Envelope) -> Divine:
    winner, loser = state.of(p["winner"]), state.of(p["loser"])
    if winner is None or loser is None:
        return state
    for side in (winner, loser):  # the pleas are fought over, and any earlier defeat is past converting
        state = _update(state, side.character, support=None, lost_to=None)
    victor = {"battle": e.position, "god": winner.god, "power": winner.power, "alignment": winner.alignment,
              "flatterable": winner.flatterable, "sacrifice": winner.sacrifice}
    return _update(state, loser.character, lost_to=victor, penalty=loser.penalty + p["penalty"])


def _worshipper(fold: Callable[[Divine, Standing, dict, Envelope], Divine]):
    """A fold about a worshipper's standing; nothing to fold onto if it worships no god."""
    def folded(state: Divine, p: dict, e: Envelope) -> Divine:
        s = state.standings.get(key(p["character"]))
        return state if s is None else fold(state, s, p, e)
    return folded


def _standing_premise(check: Callable[[Standing, dict], Optional[str]]):
    """A premise about a worshipper's standing; none if it worships no god there (nothing to fold onto)."""
    def premise(world, p: dict, day: int) -> Optional[str]:
        s = world.gods.of(p["character"])
        return check(s, p) if s is not None else None
    return premise


@TABLE.on("god.black_mark", line=lambda p: f"{p['character']}: black mark: {p['why']}")
@_worshipper
def _black_mark(state: Divine, s: Standing, p: dict, e: Envelope) -> Divine:
    return _update(state, s.character, black=s.black + 1, clean_since=e.game_time, probation=False,
                   bonus=s.bonus - p["bonus_lost"])


@TABLE.on("god.grey_marks", line=lambda p: f"{p['character']}: {p['count']} grey mark(s): {p['why']}")
@_worshipper
def _grey_marks(state: Divine, s: Standing, p: dict, e: Envelope) -> Divine:
    return _update(state, s.character, grey=s.grey + p["count"])


def _marks_read(world, p: dict, day: int) -> Optional[str]:
    s = world.gods.of(p["character"])
    if s is not None and (s.black, s.grey) != (p["black"], p["grey"]):
        return (f"{p['character']} would hold {s.black} black and {s.grey} grey marks, not the "
                f"{p['black']} and {p['grey']} the prayer's chance was read from")
    return None


@TABLE.on("god.prayed", line=lambda p: f"{p['character']} prays to {p['god']} at {p['chance']}%: {p['outcome']}"
          + (f", grade {p['grade']} ({p['percent']}%)" if p.get("grade") else ""), premise=_marks_read)
@_worshipper
def _prayed(state: Divine, s: Standing, p: dict, e: Envelope) -> Divine:
    spent = p["modifiers"].get("crawling_bonus", 0) if p["crawl_bonus"] == "next_plea" else 0
    supported = p["outcome"] in ("answered", "joined")
    return _update(state, s.character, prayer_days=s.prayer_days + (e.game_time,), bonus=s.bonus - spent,
                   lost_to=None, support=e.position if supported else None, support_day=e.game_time)


def _crawl_read(world, p: dict, day: int) -> Optional[str]:
    s = world.gods.of(p["character"])
    if s is None:
        return None
    if s.prayers_within(day) != p["prayers_last_week"]:
        return (f"{p['character']} would have made {s.prayers_within(day)} prayers in the week before, "
                f"not the {p['prayers_last_week']} the crawling prayer was read at")
    if (p["effect"] == "removed_black_mark") != (p["accepted"] and s.black > 0):
        return f"{p['character']} would hold {s.black} black marks, which changes what the crawling prayer did"
    return None


@TABLE.on("god.crawled", line=lambda p: f"{p['character']} crawls at {p['chance']}%: "
          + (p["effect"].replace("_", " ") if p["accepted"] else "not accepted"), premise=_crawl_read)
@_worshipper
def _crawled(state: Divine, s: Standing, p: dict, e: Envelope) -> Divine:
    changes = {"prayer_days": s.prayer_days + (e.game_time,)}
    if p["effect"] == "removed_black_mark":
        changes["black"] = s.black - 1
    elif p["effect"] == "banked_bonus":  # crawl_stacking: added to what was banked, or in its place
        changes["bonus"] = s.bonus + p["bonus"] if p.get("stacking", "add") == "add" else p["bonus"]
    return _update(state, s.character, **changes)


def _repentance_read(s: Standing, p: dict) -> Optional[str]:
    if (s.black, s.repentance_power(p["relapse"]), s.repentance_marks(p["marks_rule"])) != (
            p["black"], p["effective_power"], p["marks"]):
        return (f"{p['character']} would repent with {s.black} black marks at PR "
                f"{s.repentance_power(p['relapse'])}, not the {p['black']} at PR {p['effective_power']} it was read at")
    return None


@TABLE.on("god.repented", line=lambda p: f"{p['character']} repents (needs {p['needs'] or 'X'}, "
          f"PR {p['effective_power']}): " + ("accepted" if p["accepted"] else "not believed"),
          premise=_standing_premise(_repentance_read))
@_worshipper
def _repented(state: Divine, s: Standing, p: dict, e: Envelope) -> Divine:
    return _update(state, s.character, black=0, repented=True, probation=True) if p["accepted"] else state


@TABLE.on("god.sacrificed",
          line=lambda p: f"{p['character']} sacrifices ({p['black']} black, {p['grey']} grey redeemed): {p['why']}")
@_worshipper
def _sacrificed(state: Divine, s: Standing, p: dict, e: Envelope) -> Divine:
    return _update(state, s.character, black=s.black - p["black"], grey=s.grey - p["grey"])


@TABLE.on("god.punishment_checked", line=lambda p: f"{p['character']} punishment check ({p['reason']}, "
          f"{p['chance']}%) at {p['black']} black marks: " + ("PUNISHED" if p["punished"] else "spared"))
@_worshipper
def _checked(state: Divine, s: Standing, p: dict, e: Envelope) -> Divine:
    if not p["punished"]:
        return state
    return _update(state, s.character, punishments_due=s.punishments_due + ((e.position, p["black"]),))


def _punishment_due(s: Standing, p: dict) -> Optional[str]:
    if p["check"] not in {c for c, _ in s.punishments_due}:
        return f"{p['character']} would have no punishment due from the check at event {p['check']}"
    return None


@TABLE.on("god.punished", line=lambda p: f"{p['character']} is punished ({p['severity']} black marks): {p['how']}",
          premise=_standing_premise(_punishment_due))
@_worshipper
def _punished(state: Divine, s: Standing, p: dict, e: Envelope) -> Divine:
    return _update(state, s.character, punishments_due=tuple(d for d in s.punishments_due if d[0] != p["check"]))


def _battle_lost(s: Standing, p: dict) -> Optional[str]:
    if s.lost_to is None or s.lost_to["battle"] != p["battle"]:
        return f"{p['character']}'s god would not have just lost the battle at event {p['battle']}"
    return None


@TABLE.on("god.converted", line=lambda p: f"{p['character']} converts from {p['from_god']} to {p['god']} "
          f"(PR {p['power']}, {p['alignment']}); marks {'kept' if p['marks'] == 'keep' else 'cleared'}",
          premise=_standing_premise(_battle_lost))
@_worshipper
def _converted(state: Divine, s: Standing, p: dict, e: Envelope) -> Divine:
    changes = {"god": p["god"], "power": p["power"], "alignment": p["alignment"], "flatterable": p["flatterable"],
               "sacrifice": p["sacrifice"], "adopted_day": e.game_time, "repented": False, "probation": False,
               "bonus": 0, "support": None, "lost_to": None, "punishments_due": ()}
    if p["marks"] == "clear":  # the new god has seen none of it: a clean start, as at adoption
        changes.update(black=0, grey=0, clean_since=e.game_time)
    return _update(state, s.character, **changes)


def _penalty_held(s: Standing, p: dict) -> Optional[str]:
    if s.penalty < p["penalty"]:
        return f"{p['character']} would have lost {s.penalty} A.T. and D.T. in battle, not {p['penalty']}"
    return None


@TABLE.on("god.recovered", line=lambda p: f"{p['character']} regains {p['penalty']} A.T. and D.T.: {p['why']}",
          premise=_standing_premise(_penalty_held))
@_worshipper
def _recovered(state: Divine, s: Standing, p: dict, e: Envelope) -> Divine:
    return _update(state, s.character, penalty=s.penalty - p["penalty"])


apply = TABLE.apply


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
        # the row's cell for this god's power: the grade before the d6 moves it (l.805-823)
        "answer_grade": gods.answer_grade_row(s.marks)[s.power - 1] if s.power else None,
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
