"""A campaign kept in memory for the rule tests: events folded with the read
models' own folds (projections.world), no database, no transaction. A test
records a few facts, takes the State a decision reads, calls the rule with
hand-rolled faces, and records what it returned to go on."""

from __future__ import annotations

from typing import Iterable, Optional, Sequence, TypeVar

from msgspec.structs import replace

from commands.dice_sources import Faces
from commands.state import State
from ledger.calendar import calendar_from_spec, spec_for
from ledger.envelope import Envelope, NewEvent, Pending
from ledger.events.campaign import CampaignCreated, SettingChanged
from ledger.events.registry import EventModel
from ledger.events.stable import CharacterCreated, PlayerAdded, SessionClosed, SessionOpened
from ledger.settings import check, parse_rules
from projections import world as world_model

M = TypeVar("M", bound=EventModel)


def dice(*faces: int) -> Faces:
    """Faces rolled by hand, as --dice gives them."""
    return Faces(faces)


class Table:
    """One campaign: its world as the events recorded so far fold it."""

    def __init__(self, rules: str = "coeac", *, start: str = "1024-03-01", calendar: str = "gregorian",
                 name: str = "Test", **settings: str) -> None:
        self.name = name
        self.rules = parse_rules(rules)
        spec = spec_for(calendar)
        self.calendar = calendar_from_spec(spec)
        self.world = world_model.EMPTY
        self.position = 0
        self.epoch = 1  # the campaign opens epoch 1; each session's opening and closing reveal one, open the next
        self.today = self.calendar.parse_or_day(start)
        self.record(CampaignCreated(name=name, rules=self.rules, calendar=spec, start=self.today))
        for setting, value in settings.items():
            self.set(setting, value)

    # -- recording -------------------------------------------------------------

    def record(self, *facts: EventModel | NewEvent | Iterable[NewEvent]) -> list[Envelope]:
        """Fold events into the world: event models (recorded today, in the open
        session), or the NewEvents a decision returned, causes and all."""
        new: list[NewEvent] = []
        for fact in facts:
            if isinstance(fact, EventModel):
                new.append(NewEvent("test", fact, game_time=self.today))
            elif isinstance(fact, NewEvent):
                new.append(fact)
            else:
                new.extend(fact)
        first = self.position + 1
        envelopes = []
        for new_event in new:
            self.position += 1
            cause = new_event.cause
            if isinstance(cause, Pending):
                cause = first + cause.index
            session = new_event.session if new_event.session is not None else self.session_number
            e = new_event.event
            envelopes.append(Envelope(
                position=self.position, campaign=self.name, stream=new_event.stream, version=0,
                type=e.type_name(), schema=type(e).schema_version, game_time=new_event.game_time,
                recorded_at=f"2026-01-01T00:00:{self.position % 60:02d}.{self.position:06d}Z", session=session,
                actor="test", cause=cause, payload=e.payload(), prev_hash="", hash=""))
            self.world = world_model.apply(self.world, envelopes[-1])
        self.today = max(self.today, self.world.campaign.today)
        return envelopes

    def set(self, setting: str, value: str) -> None:
        checked = check(setting, value, list(self.rules))
        self.record(SettingChanged(key=setting, value=checked, previous=self.world.campaign.settings.get(setting, "")))

    def player(self, name: str) -> None:
        self.record(PlayerAdded(name=name))

    def character(self, name: str, *, player: Optional[str] = None, max_hp: Optional[int] = 6, wealth: int = 0,
                  cash: int = 0, skills: Optional[dict[str, int]] = None, saves: Optional[dict[str, int]] = None,
                  char_class: Optional[str] = None) -> None:
        """A character and, unless named, a player of its own."""
        if player is None:
            player = f"{name}'s player"
        if self.world.stable.player(player) is None:
            self.player(player)
        self.record(CharacterCreated(name=name, player=player, char_class=char_class, skills=skills or {},
                                     saves=saves or {}, max_hp=max_hp if "coeac" in self.rules else None,
                                     opening={"wealth": wealth, "cash": cash}))

    def open_session(self, *names: str) -> None:
        activated = {self.world.stable.character(n).player: self.world.stable.character(n).name for n in names}
        self.epoch += 1
        self.record(SessionOpened(number=self.world.sessions.next_number, start=self.today, activated=activated,
                                  income=False))

    def close_session(self, days: int = 0) -> None:
        session = self.world.sessions.current
        self.epoch += 1
        end = self.today + days
        self.record(NewEvent("test", SessionClosed(number=session.number, start=session.start, end=end, havens=[]),
                             game_time=end))

    def pass_days(self, days: int) -> None:
        """Time passes: the campaign's today moves on (a later fact is dated later)."""
        self.today += days

    # -- what a decision reads ---------------------------------------------------

    @property
    def session_number(self) -> Optional[int]:
        current = self.world.sessions.current
        return current.number if current else None

    def state(self) -> State:
        """The State a command would decide against now: today, the open session,
        and the period a once-per-session limit counts in (as Context.period)."""
        world = replace(self.world, campaign=replace(self.world.campaign, today=self.today))
        period = f"session {self.session_number}" if self.session_number else f"downtime epoch {self.epoch}"
        return State(self.name, world, period)

    def sheet(self, name: str):
        return self.world.stable.character(name)


def only(events: Sequence[NewEvent], model: type[M]) -> M:
    """The one event of a type among a decision's events."""
    found = [e.event for e in events if isinstance(e.event, model)]
    assert len(found) == 1, f"{len(found)} {model.__name__} among {[type(e.event).__name__ for e in events]}"
    return found[0]


def kinds(events: Sequence[NewEvent]) -> list[str]:
    """The types of a decision's events, in order."""
    return [e.event.type_name() for e in events]


def rolls(events: Sequence[NewEvent]) -> list[list[int]]:
    """The faces of each roll a decision made, in order."""
    return [e.event.dice for e in events if e.event.type_name() == "dice.rolled"]
